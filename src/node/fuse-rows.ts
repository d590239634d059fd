// The command line's fusion of runs as read (columns), query by query: each query's documents handed to
// fusion's own per-query steps (the ones fuse() takes: src/fusion/fuse.ts) and the fused query written at
// once, with no object of a whole run (building those took most of the time on millions of rows). What
// it writes is what fuse() of the runs as objects gives, written by writeRun (test/cli-fuse.test.ts
// checks it on random runs); where fuse() would refuse the runs (queries not alike), it says so by
// returning false before writing anything, and the caller takes fuse()'s way, which says why.
import { sortedOrder } from "../c/strings.js";
import { documentTwice } from "../errors/errors.js";
import type { FuseOptions } from "../fusion/fuse.js";
import { fuseQuery, methodParams, scoreMethod } from "../fusion/methods.js";
import { bordaQuery, normalizedQuery, normName, type Ranked, reordered } from "../fusion/normalize.js";
import { rankOrder } from "../fusion/order.js";
import { docidStrings } from "../input/id-values.js";
import { asRowError, type PlaceOf } from "../input/input.js";
import type { Interner } from "../io/interner.js";
import type { RunRows } from "../io/run.js";
import { lineOfRow } from "../io/rows.js";
import type { RunTextWriter } from "../output/run-text.js";

/** A run's rows grouped by query (file order within each): query q's rows are rows[start[q]..start[q+1]). */
interface ByQuery {
  readonly rows: Int32Array;
  readonly start: Int32Array;
  readonly docs: string[];
  readonly score: Float64Array;
}

/**
 * `runs` (read with one query interner, `qids`) fused under `options` and written to `out`; false, with
 * nothing written, where fuse() is to be called instead (a learned method, queries not alike). A
 * document twice in a query is the error rankeval/node's readRun gives (the first in file order).
 */
export function fuseRows(
  runs: readonly { rows: RunRows; placeOf?: PlaceOf }[],
  qids: Interner,
  options: FuseOptions,
  out: RunTextWriter,
): boolean {
  const method = scoreMethod(options.method);
  if (method === undefined) return false;
  const norm = options.norm === null ? null : normName(options.norm ?? "min-max", "fuse: norm");
  const params = methodParams(method, options.params ?? {}, runs.length);
  const grouped = runs.map(({ rows, placeOf }) => {
    try {
      return byQuery(rows, qids.size);
    } catch (e) {
      // A Parquet or Arrow run's row said as the row of its file, as readRun says it.
      throw placeOf ? asRowError(e, rows.file, { placeOf }) : e;
    }
  });
  // Every run with the same queries (fuse() says which is not).
  const first = grouped[0].start;
  for (const g of grouped)
    for (let q = 0; q < qids.size; q++)
      if ((first[q + 1] - first[q] === 0) !== (g.start[q + 1] - g.start[q] === 0)) return false;
  const names = qids.stringsOf(Array.from({ length: qids.size }, (_, q) => q));
  for (const q of sortedOrder(names)) {
    if (first[q + 1] === first[q]) continue;
    let qs = grouped.map((g) => rankedOf(g, q));
    if (norm === "borda") qs = bordaQuery(qs);
    else if (norm !== null) qs = qs.map((x) => normalizedQuery(x, norm));
    const fused = fuseQuery(method, qs, params);
    out.query(names[q], fused.docs, fused.scores);
  }
  out.end();
  return true;
}

/** The run's rows grouped by query, after checking no query has a document twice. */
function byQuery(run: RunRows, queries: number): ByQuery {
  const start = new Int32Array(queries + 1);
  const qid = run.qid;
  for (let i = 0; i < run.length; i++) start[qid[i] + 1]++;
  for (let q = 0; q < queries; q++) start[q + 1] += start[q];
  const at = start.slice(0, queries);
  const rows = new Int32Array(run.length);
  for (let i = 0; i < run.length; i++) rows[at[qid[i]]++] = i;
  const docs = docidStrings(run.docids, run.length);
  // The first row (in file order) whose document its query had already: readRun's error. Found by the
  // parser's hash of each id in a table of the query's rows (a Set of strings took a quarter of the time).
  let twice = -1;
  const hashes = run.docids.hashes;
  let table = new Int32Array(64);
  for (let q = 0; q < queries; q++) {
    const n = start[q + 1] - start[q];
    let size = 64;
    while (size < 2 * n) size *= 2;
    if (table.length < size) table = new Int32Array(size);
    else table.fill(0, 0, size);
    const mask = size - 1;
    query: for (let k = start[q]; k < start[q + 1]; k++) {
      const i = rows[k];
      let h = Math.imul(hashes[i], 0x9e3779b1) & mask;
      for (let j = table[h] - 1; j >= 0; j = table[h] - 1) {
        if (hashes[j] === hashes[i] && docs[j] === docs[i]) {
          if (twice < 0 || i < twice) twice = i;
          break query;
        }
        h = (h + 1) & mask;
      }
      table[h] = i + 1;
    }
  }
  if (twice >= 0)
    throw documentTwice(docs[twice], run.qidNames.stringsOf([qid[twice]])[0], {
      file: run.file,
      line: lineOfRow(run.lines, twice),
    });
  return { rows, start, docs, score: run.score };
}

/** Whether `key` is an array index, which an object lists first, in numeric order (ECMA-262 OrdinaryOwnPropertyKeys). */
function isIndex(key: string): boolean {
  const c = key.charCodeAt(0);
  if (c < 0x30 || c > 0x39) return false;
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;
}

/**
 * Query `q` of a run as fuse() reads it from the run as an object (rankedQuery): its documents in the
 * object's key order (array indices ascending, then the others in file order), sorted as ranx sorts.
 */
function rankedOf(g: ByQuery, q: number): Ranked {
  const from = g.start[q];
  const n = g.start[q + 1] - from;
  let order = g.rows.subarray(from, from + n);
  let indices = 0;
  for (let k = 0; k < n; k++) if (isIndex(g.docs[order[k]])) indices++;
  if (indices > 0) {
    const keyed = Array.from(order);
    const index = keyed.filter((i) => isIndex(g.docs[i])).sort((a, b) => Number(g.docs[a]) - Number(g.docs[b]));
    order = Int32Array.from([...index, ...keyed.filter((i) => !isIndex(g.docs[i]))]);
  }
  const docs = new Array<string>(n);
  const scores = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    docs[k] = g.docs[order[k]];
    scores[k] = g.score[order[k]];
  }
  return reordered({ docs, scores }, rankOrder(scores));
}
