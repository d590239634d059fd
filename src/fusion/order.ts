// The orders ranx's results come in, which rank-based fusion reads as ranks: ties between equal scores are
// not broken by any rule of the methods but by the sorting algorithms ranx runs, so they are ported here.

/** numba 0.56's quicksort `lt` for floats: NaN after everything. */
function lt(a: number, b: number): boolean {
  return a < b || (b !== b && a === a);
}

/** Under this size numba's quicksort sorts by insertion (stable). */
const SMALL_QUICKSORT = 15;

/**
 * The positions of `scores` from the highest score down, as ranx orders a query's documents: ranx's
 * sort_dict_by_value is numba's `np.argsort([-v for v in values])`, numba 0.56's quicksort (median of
 * three, insertion sort under 16 items), not stable: equal scores come in the order that algorithm
 * leaves them, which this reproduces step by step. `scores` in the query's insertion order.
 */
export function rankOrder(scores: Float64Array): Int32Array {
  const n = scores.length;
  const r = new Int32Array(n);
  for (let i = 0; i < n; i++) r[i] = i;
  if (n < 2) return r;
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = -scores[i];
  const stack: number[] = [0, n - 1];
  while (stack.length > 0) {
    let high = stack.pop() as number;
    let low = stack.pop() as number;
    while (high - low >= SMALL_QUICKSORT) {
      const i = partition(a, r, low, high);
      // The larger side waits on the stack, the smaller is partitioned now (numba's order of work).
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

function insertionSort(a: Float64Array, r: Int32Array, low: number, high: number): void {
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

function partition(a: Float64Array, r: Int32Array, low: number, high: number): number {
  const mid = (low + high) >> 1;
  let t: number;
  if (lt(a[r[mid]], a[r[low]])) {
    t = r[low];
    r[low] = r[mid];
    r[mid] = t;
  }
  if (lt(a[r[high]], a[r[mid]])) {
    t = r[high];
    r[high] = r[mid];
    r[mid] = t;
  }
  if (lt(a[r[mid]], a[r[low]])) {
    t = r[low];
    r[low] = r[mid];
    r[mid] = t;
  }
  const pivot = a[r[mid]];
  t = r[high];
  r[high] = r[mid];
  r[mid] = t;
  let i = low;
  let j = high - 1;
  for (;;) {
    while (i < high && lt(a[r[i]], pivot)) i++;
    while (j >= low && lt(pivot, a[r[j]])) j--;
    if (i >= j) break;
    t = r[i];
    r[i] = r[j];
    r[j] = t;
    i++;
    j--;
  }
  t = r[i];
  r[i] = r[high];
  r[high] = t;
  return i;
}

/**
 * 0..n-1 sorted by `less` as CPython 3.11's `sorted(range(n), key=cmp_to_key(...))` sorts a list of
 * under 64 items: the first run (strictly descending ones reversed), then a binary insertion sort. ranx's
 * Condorcet comparison is not a consistent order (a tie says each is less than the other), so the result
 * depends on these exact steps; from 64 items CPython merges runs, which this does not port: there the
 * order of tied or cyclic candidates may differ from ranx's.
 */
export function pythonSorted(n: number, less: (x: number, y: number) => boolean): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  if (n < 2) return a;
  // count_run
  let run = 2;
  if (less(a[1], a[0])) {
    while (run < n && less(a[run], a[run - 1])) run++;
    a.subarray(0, run).reverse();
  } else {
    while (run < n && !less(a[run], a[run - 1])) run++;
  }
  // binarysort from the end of that run
  for (let start = run; start < n; start++) {
    const pivot = a[start];
    let l = 0;
    let r = start;
    do {
      const p = l + ((r - l) >> 1);
      if (less(pivot, a[p])) r = p;
      else l = p + 1;
    } while (l < r);
    a.copyWithin(l + 1, l, start);
    a[l] = pivot;
  }
  return a;
}
