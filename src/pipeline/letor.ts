// A LETOR file and its predictions as a batch: the one place the command line (--letor) and the web
// page check that the files agree and find each row's query (its qid: field, or else the group sizes).
import { RankevalError } from "../errors.js";
import { groupRows } from "./group.js";
import type { Interner, Letor } from "../io/index.js";
import type { Batch } from "../kernel/batch.js";

export interface LetorInput {
  /** The LETOR file parsed, its name, and the interners its parser used. */
  data: Letor;
  file: string;
  qidNames: Interner;
  docidNames: Interner;
  /** One prediction per row of `data`, in order, and the file it came from. */
  score: Float64Array;
  scoresFile: string;
  /** Rows per query, in order (a query/group file), for a LETOR file without qid: fields. */
  groups?: { sizes: Int32Array; file: string };
}

export function letorBatch(input: LetorInput): { batch: Batch; qids: string[] } {
  const { data, file, score, scoresFile, groups } = input;
  // Means over no query: an empty (or blank, or comments only) file is a mistake, said as such.
  if (data.length === 0) throw new RankevalError("bad-input", `${file}: no rows in it: the file is empty or holds only blank or comment lines`);
  if (score.length !== data.length) {
    throw new RankevalError("bad-input", `${scoresFile} has ${score.length} scores but ${file} has ${data.length} rows: one score per row, in order`);
  }
  let qid: Int32Array;
  let name: (q: number) => string;
  if (data.qid) {
    qid = data.qid;
    name = (q) => input.qidNames.stringOf(q);
  } else {
    if (!groups) throw new RankevalError("bad-input", `${file} has no qid: fields; give the query group sizes (one number of rows per line, as LightGBM's .query files)`);
    let total = 0;
    for (const size of groups.sizes) total += size;
    if (total !== data.length) throw new RankevalError("bad-input", `${groups.file}: the group sizes add up to ${total} but ${file} has ${data.length} rows`);
    // Queries are named by their group's position: 0, 1, 2, ...
    qid = new Int32Array(data.length);
    let row = 0;
    groups.sizes.forEach((size, g) => qid.fill(g, row, (row += size)));
    name = String;
  }
  // Query and document ids stay interned numbers: millions of rows would otherwise become millions
  // of strings. Ids in the order of the file's first appearance, as groupRows numbers queries.
  const docid = data.docid;
  const together = grouped(qid);
  if (docid) {
    // A document twice in one query: trec_eval refuses it, and its tie order would be undefined.
    const twice = together ? repeatedInGroups(qid, docid, input.docidNames.size) : repeated(qid, docid);
    if (twice >= 0) throw new RankevalError("bad-input", `${file}: document ${JSON.stringify(input.docidNames.stringOf(docid[twice]))} appears twice in query ${JSON.stringify(name(qid[twice]))}`);
  }
  if (docid && !together) {
    // Rows of a query apart from each other (rare in LETOR files): groupRows reorders them, ids too.
    const { batch, qids } = groupRows({ qid, score, rel: data.rel, docid: Array.from(docid, (d) => input.docidNames.stringOf(d)) });
    return { batch, qids: qids.map((q) => name(q as number)) };
  }
  const { batch, qids } = groupRows({ qid, score, rel: data.rel });
  // Grouped: row i stays row i, so the interned ids are the tie keys, and the interner's bytes the pool.
  const named = qids.map((q) => name(q as number));
  return { batch: docid ? { ...batch, docids: docid, pool: input.docidNames.pool() } : batch, qids: named };
}

/** Whether each query's rows are together. */
function grouped(qid: Int32Array): boolean {
  const seen = new Set<number>();
  for (let i = 0; i < qid.length; i++) {
    if (i > 0 && qid[i] === qid[i - 1]) continue;
    if (seen.has(qid[i])) return false;
    seen.add(qid[i]);
  }
  return true;
}

/** The first row whose document already came in its query (queries together), or -1. */
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

/** The same for queries in any order. */
function repeated(qid: Int32Array, docid: Int32Array): number {
  const seen = new Set<string>();
  for (let i = 0; i < qid.length; i++) {
    const key = `${qid[i]} ${docid[i]}`;
    if (seen.has(key)) return i;
    seen.add(key);
  }
  return -1;
}
