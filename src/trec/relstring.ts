/** trec_eval's relstring (m_relstring.c): a character per label of the first n ranked. Browser-safe. */
import { docidEntry, type Batch } from "../kernel/batch.js";

/** Query q's first min(n, N) rows in the kernel's ranking order, by a bounded heap (O(N log n)). */
export function rankedRows(batch: Batch, q: number, n: number): Int32Array {
  const from = batch.offsets[q];
  const to = batch.offsets[q + 1];
  const k = Math.max(0, Math.min(Math.floor(n), to - from));
  const heap = new Int32Array(k); // heap[0]: the worst row kept
  if (k === 0) return heap;
  const s = batch.scores;
  const ids = batch.docids;
  const pool = batch.pool;
  const before = (a: number, b: number): boolean => {
    if (s[a] !== s[b]) return s[a] > s[b];
    if (ids && pool) {
      const bytes = pool.bytes;
      const ea = docidEntry(ids, a);
      const eb = docidEntry(ids, b);
      let i = pool.offsets[ea];
      const ie = pool.offsets[ea + 1];
      let j = pool.offsets[eb];
      const je = pool.offsets[eb + 1];
      for (; i < ie && j < je; i++, j++) if (bytes[i] !== bytes[j]) return bytes[i] > bytes[j];
      if (ie - i !== je - j) return ie - i > je - j; // longer is greater
    }
    return a < b;
  };
  const siftDown = (i: number, size: number): void => {
    const row = heap[i];
    for (;;) {
      let c = 2 * i + 1;
      if (c >= size) break;
      if (c + 1 < size && before(heap[c], heap[c + 1])) c++; // the worse child
      if (!before(row, heap[c])) break;
      heap[i] = heap[c];
      i = c;
    }
    heap[i] = row;
  };
  for (let r = from; r < from + k; r++) heap[r - from] = r;
  for (let i = (k >> 1) - 1; i >= 0; i--) siftDown(i, k);
  for (let r = from + k; r < to; r++) {
    if (!before(r, heap[0])) continue;
    heap[0] = r;
    siftDown(0, k);
  }
  for (let size = k - 1; size > 0; size--) {
    const worst = heap[0];
    heap[0] = heap[size];
    heap[size] = worst;
    siftDown(0, size);
  }
  return heap;
}

/** The labels of query q's first min(n, N) ranked documents (NaN: no judgment). */
export function rankedLabels(batch: Batch, q: number, n: number): Float64Array {
  const rows = rankedRows(batch, q, n);
  const out = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = batch.labels[rows[i]];
  return out;
}

/** m_relstring.c: 0..9, '>' above 9, '-' unjudged, '.' below 0. */
export function relstringChar(label: number): string {
  if (Number.isNaN(label)) return "-";
  if (label < 0) return ".";
  if (label >= 10) return ">";
  return String.fromCharCode(48 + Math.trunc(label));
}

/** relstring per query: n characters of the ranking cut at -M, then -J (form_res_rels.c). */
export function relstrings(batch: Batch, n: number, depth = Infinity, judgedOnly = false): string[] {
  // (long) on x86-64: LONG_MIN (no characters) for NaN, infinities.
  const len = Math.abs(n) < 2 ** 63 ? Math.max(0, Math.trunc(n)) : 0;
  const out: string[] = new Array(batch.numQueries);
  for (let q = 0; q < batch.numQueries; q++) {
    const ranked = Math.min(depth, batch.offsets[q + 1] - batch.offsets[q]);
    let labels = rankedLabels(batch, q, judgedOnly ? ranked : Math.min(len, ranked));
    if (judgedOnly) labels = labels.filter((l) => l >= 0);
    let s = "";
    for (let i = 0; i < labels.length && i < len; i++) s += relstringChar(labels[i]);
    out[q] = s;
  }
  return out;
}
