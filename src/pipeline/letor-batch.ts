// A LETOR file and its predictions as a batch; rows' queries from qid: fields, else group sizes.
import { counted } from "../errors/counted.js";
import { documentTwice, RankevalError } from "../errors/errors.js";
import { groupRows } from "./rows-by-query.js";
import type { Interner, Letor, LetorRows } from "../io/index.js";
import type { Batch } from "../kernel/batch.js";

export interface LetorInput {
  data: Letor;
  file: string;
  qidNames: Interner;
  docidNames: Interner;
  score: Float64Array;
  scoresFile: string;
  /** Rows per query, for a file without qid: fields. */
  groups?: { sizes: Int32Array; file: string };
}

/** Checks rows, scores and group sizes agree; without qid: fields, returns each group's first row. */
function groupStarts(input: LetorInput | LetorRowsInput, hasQid: boolean): Int32Array | null {
  const { data, file, score, scoresFile, groups } = input;
  if (data.length === 0)
    throw new RankevalError(
      "bad-input",
      `${file}: no rows in it: the file is empty or holds only blank or comment lines`,
    );
  if (score.length !== data.length) {
    throw new RankevalError(
      "bad-input",
      `${scoresFile} has ${counted(score.length, "score")} but ${file} has ${counted(data.length, "row")}: one score per row, in order`,
    );
  }
  if (hasQid) return null;
  if (!groups)
    throw new RankevalError(
      "bad-input",
      `${file} has no qid: fields; give the query group sizes (one number of rows per line, as LightGBM's .query files)`,
    );
  let total = 0;
  for (const size of groups.sizes) total += size;
  if (total !== data.length)
    throw new RankevalError(
      "bad-input",
      `${groups.file}: the group sizes add up to ${total} but ${file} has ${counted(data.length, "row")}`,
    );
  const starts = new Int32Array(groups.sizes.length + 1);
  groups.sizes.forEach((size, g) => (starts[g + 1] = starts[g] + size));
  return starts;
}

export function letorBatch(input: LetorInput): { batch: Batch; qids: string[] } {
  const { data, file, score } = input;
  const starts = groupStarts(input, data.qid !== null);
  let qid: Int32Array;
  let name: (q: number) => string;
  if (!starts) {
    qid = data.qid!;
    name = (q) => input.qidNames.stringOf(q);
  } else {
    qid = new Int32Array(data.length);
    for (let g = 0; g + 1 < starts.length; g++) qid.fill(g, starts[g], starts[g + 1]);
    name = String;
  }
  // Ids stay interned numbers: millions of strings otherwise.
  const docid = data.docid;
  if (docid && !grouped(qid)) {
    // Rows of a query apart (rare): groupRows reorders them.
    const docids = Array.from(docid, (d) => input.docidNames.stringOf(d));
    const { batch, qids } = groupRows(
      { qid, score, rel: data.rel, docid: docids },
      { name: file, query: (q) => name(q as number) },
    );
    return { batch, qids: qids.map((q) => name(q as number)) };
  }
  if (docid) {
    const twice = repeatedInGroups(qid, docid, input.docidNames.size);
    if (twice >= 0) throw documentTwice(input.docidNames.stringOf(docid[twice]), name(qid[twice]), file);
  }
  const { batch, qids } = groupRows({ qid, score, rel: data.rel });
  // Grouped: interned ids are the tie keys, the interner's bytes the pool.
  const named = qids.map((q) => name(q as number));
  return { batch: docid ? { ...batch, docids: docid, pool: input.docidNames.pool() } : batch, qids: named };
}

/** letorBatch's input read per row (`docids: "per-row"`). */
export type LetorRowsInput = Omit<LetorInput, "data" | "qidNames" | "docidNames"> & { data: LetorRows };

/** letorBatch for a file read per row: contiguous queries used in place, scattered ones through groupRows. */
export function letorRowsBatch(input: LetorRowsInput): { batch: Batch; qids: string[] } {
  const { data, file, score } = input;
  const groupsStart = groupStarts(input, data.spans !== null);
  let starts: Int32Array;
  let names: string[];
  let together = true;
  if (data.spans) {
    const { ids } = data.spans;
    starts = data.spans.starts;
    const seen = new Uint8Array(data.qidNames.size);
    for (let k = 0; k < ids.length && together; k++) {
      together = !seen[ids[k]];
      seen[ids[k]] = 1;
    }
    names = together ? data.qidNames.stringsOf(Array.from(ids)) : [];
  } else {
    starts = groupsStart!;
    names = Array.from({ length: starts.length - 1 }, (_, g) => String(g));
  }
  const docs = data.docids;
  const decoder = new TextDecoder();
  const docidString = (i: number) => decoder.decode(docs!.bytes.subarray(docs!.offsets[i], docs!.offsets[i + 1]));
  if (!together) {
    const { ids } = data.spans!;
    const qid = new Array<string>(data.length);
    for (let k = 0; k < ids.length; k++)
      qid.fill(data.qidNames.stringOf(ids[k]), data.spans!.starts[k], data.spans!.starts[k + 1]);
    const docid = docs && Array.from({ length: data.length }, (_, i) => docidString(i));
    const { batch, qids } = groupRows(
      { qid, score, rel: data.rel, ...(docid ? { docid } : {}) },
      { name: file, query: String },
    );
    return { batch, qids: qids as string[] };
  }
  if (docs) {
    const twice = data.firstRepeated(starts);
    if (twice >= 0) {
      let q = 0;
      while (starts[q + 1] <= twice) q++;
      throw documentTwice(docidString(twice), names[q], file);
    }
  }
  // In place: row i is docid entry i; parsers checked the numbers.
  const batch: Batch = {
    numQueries: starts.length - 1,
    offsets: starts,
    scores: score,
    labels: data.rel,
    judgedOffsets: null,
    judged: null,
    docids: docs ? "rows" : null,
    pool: docs ? { bytes: docs.bytes, offsets: docs.offsets } : null,
  };
  return { batch, qids: names };
}

function grouped(qid: Int32Array): boolean {
  const seen = new Set<number>();
  for (let i = 0; i < qid.length; i++) {
    if (i > 0 && qid[i] === qid[i - 1]) continue;
    if (seen.has(qid[i])) return false;
    seen.add(qid[i]);
  }
  return true;
}

/** The first row repeating a document of its query, or -1. */
function repeatedInGroups(qid: Int32Array, docid: Int32Array, numDocids: number): number {
  const lastRun = new Int32Array(numDocids).fill(-1);
  let run = 0;
  for (let i = 0; i < qid.length; i++) {
    if (i > 0 && qid[i] !== qid[i - 1]) run++;
    if (lastRun[docid[i]] === run) return i;
    lastRun[docid[i]] = run;
  }
  return -1;
}
