import type { Ties } from "../measures/options.js";

/**
 * A batch: many queries' rows grouped by query (CSR), as the kernel reads them: query q's rows are
 * [offsets[q], offsets[q+1]), its judgments [judgedOffsets[q], judgedOffsets[q+1]) of `judged`, or
 * the rows' own labels where those are null (LETOR).
 */
export interface Batch {
  readonly numQueries: number;
  readonly offsets: Int32Array;
  readonly scores: Float64Array;
  /** Label of each ranked row; NaN for a document with no judgment. */
  readonly labels: Float64Array;
  readonly judgedOffsets: Int32Array | null;
  readonly judged: Float64Array | null;
  /**
   * For trec_eval's tie order (document id descending): each row's entry in `pool`, or "rows" where
   * row i's is entry i. Null: equal scores keep row order (input order within a query).
   */
  readonly docids: Int32Array | "rows" | null;
  /** Document ids as UTF-8: entry i is bytes[offsets[i] .. offsets[i+1]). */
  readonly pool: { readonly bytes: Uint8Array; readonly offsets: Int32Array } | null;
  /** Set when scores and labels are unchecked: throws for the first not finite. */
  readonly checkNumbers?: () => never;
  /** The labels as trec_eval's atol read their text where truncating the values would differ ("1e1" is 1); absent: truncation is atol's. */
  readonly atolLabels?: { readonly labels: Float64Array; readonly judged: Float64Array | null };
  readonly diversity?: DiversityData;
  /** Where the batch lies in a kernel's memory (a join's output), to be evaluated there. */
  readonly inPlace?: InPlace;
}

/**
 * A batch's subtopic judgments (diversity qrels): (subtopic, judgment) pairs in subtopic order, the
 * subtopics numbered 0..n-1 per query (numerically where every id is a number).
 */
export interface DiversityData {
  readonly subtopics: Int32Array;
  /** Per ranked row: its pairs, [rowOffsets[r], rowOffsets[r+1]). */
  readonly rowOffsets: Int32Array;
  readonly rowSub: Int32Array;
  readonly rowGrade: Float64Array;
  /** Per query: its judged documents by descending id (ndeval's ideal ranking takes the greatest among equals). */
  readonly docOffsets: Int32Array;
  /** Per judged document: its pairs, [docPairs[d], docPairs[d+1]). */
  readonly docPairs: Int32Array;
  readonly docSub: Int32Array;
  readonly docGrade: Float64Array;
}

/**
 * Where a batch lies in a kernel's memory (join-kernel.ts), to evaluate it there: the kernel (opaque
 * here), its addresses, and the first free byte, from which the evaluation lays out what fits (the
 * memory must not grow: the batch's views would go with the old buffer).
 */
export interface InPlace {
  readonly kernel: object;
  readonly offsets: number;
  readonly scores: number;
  readonly labels: number;
  readonly judgedOffsets: number;
  readonly judged: number;
  readonly docids: number;
  readonly poolBytes: number;
  readonly poolOffsets: number;
  readonly top: number;
}

export function docidEntry(docids: Int32Array | "rows", row: number): number {
  return docids === "rows" ? row : docids[row];
}

/**
 * The batch to rank under the `ties` option, decided here alone. The kernel and relstring order equal
 * scores by document id where the batch has ids, else by row: so `"input"` is the batch without ids.
 * "average", "best" and "worst" read no ids either (labels, then input order).
 */
export function withTies(batch: Batch, ties: Ties): Batch {
  return ties !== "docid" && batch.docids ? { ...batch, docids: null, pool: null } : batch;
}

/** The longest ranking and the most judgments of one query, over queries [from, to). */
export function extents(batch: Batch, from = 0, to = batch.numQueries): { maxN: number; maxJ: number } {
  let maxN = 0;
  let maxJ = 0;
  const o = batch.offsets;
  const jo = batch.judgedOffsets ?? o;
  for (let q = from; q < to; q++) {
    maxN = Math.max(maxN, o[q + 1] - o[q]);
    maxJ = Math.max(maxJ, jo[q + 1] - jo[q]);
  }
  return { maxN, maxJ };
}
