import type { Ties } from "../measures/options.js";

/** Queries' rows grouped by query (CSR); judgments null: the rows' own labels (LETOR). */
export interface Batch {
  readonly numQueries: number;
  readonly offsets: Int32Array;
  readonly scores: Float64Array;
  /** NaN for an unjudged document. */
  readonly labels: Float64Array;
  readonly judgedOffsets: Int32Array | null;
  readonly judged: Float64Array | null;
  /** For trec_eval's tie order (docid descending): each row's `pool` entry ("rows": entry i). Null: row order. */
  readonly docids: Int32Array | "rows" | null;
  /** Document ids as UTF-8. */
  readonly pool: { readonly bytes: Uint8Array; readonly offsets: Int32Array } | null;
  /** Set when scores and labels are unchecked. */
  readonly checkNumbers?: () => never;
  /** See atolColumn; absent: truncation is atol's. */
  readonly atolLabels?: { readonly labels: Float64Array; readonly judged: Float64Array | null };
  /** True: every label (and judged label) whole or NaN, as atol reads them (join-rows.ts wholeLabels). */
  readonly wholeLabels?: boolean;
  readonly diversity?: DiversityData;
  readonly inPlace?: InPlace;
}

/** Subtopic judgments: (subtopic, judgment) pairs, subtopics numbered per query (subtopicOrder). */
export interface DiversityData {
  readonly subtopics: Int32Array;
  readonly rowOffsets: Int32Array;
  readonly rowSub: Int32Array;
  readonly rowGrade: Float64Array;
  /** Per query: judged documents by descending id (ndeval's ideal order among equals). */
  readonly docOffsets: Int32Array;
  readonly docPairs: Int32Array;
  readonly docSub: Int32Array;
  readonly docGrade: Float64Array;
}

/** A batch's addresses in kernel memory and its first free byte (the memory must not grow). */
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

/** The batch to rank under `ties`: equal scores go by docid where it has ids, so all but "docid" drop them. */
export function withTies(batch: Batch, ties: Ties): Batch {
  return ties !== "docid" && batch.docids ? { ...batch, docids: null, pool: null } : batch;
}

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
