// A LETOR file and its predictions as a batch: the one place the command line (--letor) and the web
// page check that the files agree and find each row's query (its qid: field, or else the group sizes).
import { RankevalError } from "./errors.js";
import { groupRows } from "./group.js";
import type { Interner, Letor } from "./io/index.js";
import type { Batch } from "./kernel/batch.js";

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
  if (score.length !== data.length) {
    throw new RankevalError("bad-input", `${scoresFile} has ${score.length} scores but ${file} has ${data.length} rows: one score per row, in order`);
  }
  let qid: ArrayLike<string | number>;
  if (data.qid) {
    qid = Array.from(data.qid, (q) => input.qidNames.stringOf(q));
  } else {
    if (!groups) throw new RankevalError("bad-input", `${file} has no qid: fields; give the query group sizes (one number of rows per line, as LightGBM's .query files)`);
    let total = 0;
    for (const size of groups.sizes) total += size;
    if (total !== data.length) throw new RankevalError("bad-input", `${groups.file}: the group sizes add up to ${total} but ${file} has ${data.length} rows`);
    // Queries are named by their group's position: 0, 1, 2, ...
    const ids = new Int32Array(data.length);
    let row = 0;
    groups.sizes.forEach((size, g) => ids.fill(g, row, (row += size)));
    qid = ids;
  }
  const docid = data.docid ? Array.from(data.docid, (d) => input.docidNames.stringOf(d)) : undefined;
  const { batch, qids } = groupRows({ qid, score, rel: data.rel, docid });
  return { batch, qids: qids.map(String) };
}
