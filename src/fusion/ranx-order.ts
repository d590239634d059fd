// The order ranx gives a query's documents: its Run sorts each query's {docid: score} with numba's
// np.argsort of the negated scores (data_structures/common.py sort_dict_by_value), numba's quicksort,
// which is not stable: equal scores come out in an order only its algorithm says. Fusion by position
// (probfuse, posfuse, ...) and the tie order of a fused run's evaluation depend on it, so it is ported
// here step for step (numba 0.56 misc/quicksort.py, with np/arrayobj.py's lt_floats for float keys).
import type { ScoredRun } from "./run.js";

/** Under this many elements numba's quicksort switches to insertion sort (SMALL_QUICKSORT). */
const SMALL_QUICKSORT = 15;

/** numba's lt_floats: NaN sorts last. */
const lt = (a: number, b: number) => Number.isNaN(b) || a < b;

/** numba's np.argsort(a) (kind "quicksort") of a float64 array: the indexes of a in ascending order. */
export function numbaArgsort(a: ArrayLike<number>): Int32Array {
  const n = a.length;
  const r = new Int32Array(n);
  for (let i = 0; i < n; i++) r[i] = i;
  if (n < 2) return r;
  const stack: number[] = [0, n - 1];
  while (stack.length > 0) {
    let high = stack.pop()!;
    let low = stack.pop()!;
    while (high - low >= SMALL_QUICKSORT) {
      const i = partition(a, r, low, high);
      // The larger side is pushed, the smaller one sorted next, as numba does.
      if (high - i > i - low) {
        if (high > i) stack.push(i + 1, high);
        high = i - 1;
      } else {
        if (i > low) stack.push(low, i - 1);
        low = i + 1;
      }
    }
    insertionSort(a, r, low, high);
  }
  return r;
}

function insertionSort(a: ArrayLike<number>, r: Int32Array, low: number, high: number): void {
  for (let i = low + 1; i <= high; i++) {
    const k = r[i];
    const v = a[k];
    let j = i;
    while (j > low && lt(v, a[r[j - 1]])) {
      r[j] = r[j - 1];
      j--;
    }
    r[j] = k;
  }
}

function partition(a: ArrayLike<number>, r: Int32Array, low: number, high: number): number {
  const mid = (low + high) >> 1;
  const swap = (x: number, y: number) => {
    const t = r[x];
    r[x] = r[y];
    r[y] = t;
  };
  // Median of three {low, middle, high}.
  if (lt(a[r[mid]], a[r[low]])) swap(low, mid);
  if (lt(a[r[high]], a[r[mid]])) swap(high, mid);
  if (lt(a[r[mid]], a[r[low]])) swap(low, mid);
  const pivot = a[r[mid]];
  swap(high, mid);
  let i = low;
  let j = high - 1;
  for (;;) {
    while (i < high && lt(a[r[i]], pivot)) i++;
    while (j >= low && lt(pivot, a[r[j]])) j--;
    if (i >= j) break;
    swap(i, j);
    i++;
    j--;
  }
  swap(i, high);
  return i;
}

/** The positions of `scores` in ranx's order (higher first): numba's argsort of the negated scores. */
export function ranxOrder(scores: ArrayLike<number>): Int32Array {
  const negated = new Float64Array(scores.length);
  for (let i = 0; i < scores.length; i++) negated[i] = -scores[i];
  return numbaArgsort(negated);
}

/** One query's documents and their scores, in an order (a ranx Run's order, once sorted). */
export interface RankedList {
  readonly ids: string[];
  readonly scores: Float64Array;
}

/** A run as ranx holds it: query ids in code point order (sort_dict_by_key), each query's documents in a list. */
export interface RankedRun {
  readonly qids: string[];
  readonly lists: Map<string, RankedList>;
}

/** Code point order, numba's for unicode strings (JavaScript's default sort compares UTF-16 units). */
export function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** `list` re-sorted as a ranx Run sorts it: numba's argsort applied to the list in its present order. */
export function sortedList(list: RankedList): RankedList {
  const order = ranxOrder(list.scores);
  const ids = new Array<string>(order.length);
  const scores = new Float64Array(order.length);
  for (let i = 0; i < order.length; i++) {
    ids[i] = list.ids[order[i]];
    scores[i] = list.scores[order[i]];
  }
  return { ids, scores };
}

/**
 * `run` as ranx's Run(run) makes it: queries in code point order, each query's documents sorted from
 * their order in the object (Object.keys: as written, except that integer-like ids come first in
 * numeric order, as JavaScript orders an object's keys).
 */
export function rankedRun(run: ScoredRun): RankedRun {
  const qids = Object.keys(run).sort(byCodePoint);
  const lists = new Map<string, RankedList>();
  for (const q of qids) {
    const docs = run[q];
    const ids = Object.keys(docs);
    const scores = Float64Array.from(ids, (d) => docs[d]);
    lists.set(q, sortedList({ ids, scores }));
  }
  return { qids, lists };
}

/** `run` sorted again, as ranx's Run.sort() does to a run whose dictionaries are already in an order. */
export function resorted(run: RankedRun): RankedRun {
  const lists = new Map<string, RankedList>();
  for (const q of run.qids) lists.set(q, sortedList(run.lists.get(q)!));
  return { qids: run.qids, lists };
}
