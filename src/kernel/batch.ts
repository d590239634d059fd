import type { Ties } from "../measures/options.js";

/**
 * A batch: the rows of many queries grouped by query (CSR), as the kernel reads them.
 * Query q's ranked rows are [offsets[q], offsets[q+1]); its judgments are
 * [judgedOffsets[q], judgedOffsets[q+1]) of `judged`, or the rows' own labels when those are null
 * (the LETOR case, where every row is judged and nothing else is).
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
   * For trec_eval's tie order (document id descending): each row's entry in `pool`, or "rows" when
   * row i's is entry i (a LETOR file read per row: no array of a row's own number). Null: equal
   * scores keep row order, which is input order (grouping and joining keep it within a query).
   */
  readonly docids: Int32Array | "rows" | null;
  /** Document ids as UTF-8: entry i is bytes[offsets[i] .. offsets[i+1]). */
  readonly pool: { readonly bytes: Uint8Array; readonly offsets: Int32Array } | null;
  /** Set when scores and labels are unchecked (the kernel checks each block): throws for the first not finite. */
  readonly checkNumbers?: () => never;
  /**
   * The labels as trec_eval's atol read their text, where truncating the values would not give them
   * (an exponent: "1e1" is 1); the join sets it (src/pipeline/trec-labels.ts reads it). Absent: the
   * values truncated toward zero are trec_eval's.
   */
  readonly atolLabels?: { readonly labels: Float64Array; readonly judged: Float64Array | null };
  /** Subtopic judgments, for the diversity measures (src/pipeline/join-subtopics.ts builds them). */
  readonly diversity?: DiversityData;
  /**
   * Where the batch lies in a kernel's memory, when it does (a join's output, whose arrays are views
   * of that memory): runKernel evaluates it there instead of copying it.
   */
  readonly inPlace?: InPlace;
}

/**
 * A batch's subtopic judgments (a diversity qrels), beside its labels (each document's highest
 * judgment). Lists of (subtopic, judgment) pairs in subtopic order, subtopics numbered 0..n-1 per
 * query in their order (numeric when every subtopic id is a number).
 */
export interface DiversityData {
  /** Per query: its number of subtopics. */
  readonly subtopics: Int32Array;
  /** Per ranked row: its pairs, [rowOffsets[r], rowOffsets[r+1]) of rowSub / rowGrade. */
  readonly rowOffsets: Int32Array;
  readonly rowSub: Int32Array;
  readonly rowGrade: Float64Array;
  /**
   * Per query: its judged documents, in descending document id order (ndeval's greedy ideal ranking
   * takes the greatest id among equal scores), [docOffsets[q], docOffsets[q+1]).
   */
  readonly docOffsets: Int32Array;
  /** Per judged document: its pairs, [docPairs[d], docPairs[d+1]) of docSub / docGrade. */
  readonly docPairs: Int32Array;
  readonly docSub: Int32Array;
  readonly docGrade: Float64Array;
}

/**
 * Where a batch already lies in a kernel's memory (a join's output: src/pipeline/join-kernel.ts), so
 * that runKernel evaluates it there, not copied: the kernel (kernel.ts's Kernel, opaque here), the
 * batch's addresses, and the first byte after it, from which the evaluation lays out its tables,
 * scratch and results when they fit in the memory as it is (it must not grow: the batch's views would
 * go with the old buffer).
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

/** Row `row`'s entry in the batch's pool (its docids). */
export function docidEntry(docids: Int32Array | "rows", row: number): number {
  return docids === "rows" ? row : docids[row];
}

/**
 * The batch to rank under the `ties` option: the one place it is decided. The kernel (and relstring)
 * order equal scores by document id when the batch has ids, else by row; so `"input"` is the batch
 * without its ids, whose rows are in input order within each query. "average", "best" and "worst"
 * do not read ids either: the kernel averages over every order of a tie, or orders it by label,
 * keeping input order among equal labels.
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
