// Runs read as rows fused and written as TREC text (--fuse, the page's fused column). A document is one
// number across runs; each query's documents, in file order as ranx's Run.from_file reads them, go
// through fuse()'s steps (fuseLists) and are written from the rows' bytes. No object or string per
// document: those took most of the time on millions of rows. No Node built-ins here.
import { sortedOrder } from "../c/strings.js";
import { documentTwice } from "../errors/errors.js";
import { fuse, type FuseOptions, fuseLists } from "../fusion/fuse.js";
import { type Ranked, reordered } from "../fusion/normalize.js";
import { rankOrder } from "../fusion/order.js";
import { idValuesAt } from "../input/id-values.js";
import { asRowError, type PlaceOf } from "../input/input.js";
import type { Interner } from "../io/interner.js";
import type { RunRows } from "../io/run.js";
import { docidString, ids, lineOfRow, sameId } from "../io/rows.js";
import { type DocBytes, RunTextWriter } from "./run-text.js";

export interface RunRead {
  readonly rows: RunRows;
  readonly placeOf?: PlaceOf;
}

/**
 * `runs` (one query interner, `qids`) fused and written to `write` as TREC text tagged `tag`. A document
 * twice in a query is readRun's error; runs whose queries differ, fuse()'s.
 */
export function writeFusedRun(
  runs: readonly RunRead[],
  qids: Interner,
  options: FuseOptions,
  tag: string,
  write: (bytes: Uint8Array<ArrayBuffer>) => void,
): void {
  const grouped = runs.map(({ rows }) => byQuery(rows, qids.size));
  const numbered = numberedDocs(runs, grouped, qids.size);
  // Queries differ: fuse()'s error says which.
  const first = grouped[0].start;
  for (const g of grouped)
    for (let q = 0; q < qids.size; q++)
      if ((first[q + 1] - first[q] === 0) !== (g.start[q + 1] - g.start[q] === 0)) {
        fuse(
          runs.map(({ rows, placeOf }) => idValuesAt(rows, rows.score, placeOf)),
          options,
        );
        throw new Error("fuse() fused runs whose queries differ");
      }
  const names = qids.stringsOf(Array.from({ length: qids.size }, (_, q) => q));
  const order = sortedOrder(names).filter((q) => first[q + 1] > first[q]);
  const query = new Map(order.map((q) => [names[q], q]));
  const ids = new IdPool(runs, numbered);
  const out = new RunTextWriter(tag, write);
  fuseLists(
    order.map((q) => names[q]),
    runs.length,
    (qid, r) => rankedOf(runs[r].rows, grouped[r], numbered.doc[r], query.get(qid) as number),
    options,
    (qid, fused) => out.query(qid, ids.of(fused.docs), fused.scores),
  );
  out.end();
}

/** Query q's rows are rows[start[q]..start[q+1]), file order within each. */
interface ByQuery {
  readonly rows: Int32Array;
  readonly start: Int32Array;
}

/** doc[r][i]: run r's row i's number, one per (query, document id); number d's id is row idRow[d] of run idRun[d]. */
interface Numbered {
  readonly doc: Int32Array[];
  readonly idRun: Int32Array;
  readonly idRow: Int32Array;
}

/** A counting sort, file order kept within a query. */
function byQuery(run: RunRows, queries: number): ByQuery {
  const start = new Int32Array(queries + 1);
  const qid = run.qid;
  for (let i = 0; i < run.length; i++) start[qid[i] + 1]++;
  for (let q = 0; q < queries; q++) start[q + 1] += start[q];
  const at = start.slice(0, queries);
  const rows = new Int32Array(run.length);
  for (let i = 0; i < run.length; i++) rows[at[qid[i]]++] = i;
  return { rows, start };
}

/**
 * The runs' documents numbered, query by query, in a table keyed by the parser's hash of each id (a Map
 * of strings took a quarter of the time). A document twice is readRun's error for its first such row.
 */
function numberedDocs(runs: readonly RunRead[], grouped: readonly ByQuery[], queries: number): Numbered {
  let total = 0;
  for (const { rows } of runs) total += rows.length;
  const idRun = new Int32Array(total);
  const idRow = new Int32Array(total);
  const lastRun = new Int32Array(total);
  const doc = runs.map(({ rows }) => new Int32Array(rows.length));
  const pools = runs.map(({ rows }) => ids(rows.docids));
  const twice = runs.map(() => -1);
  let count = 0;
  let table = new Int32Array(64);
  for (let q = 0; q < queries; q++) {
    let n = 0;
    for (const g of grouped) n += g.start[q + 1] - g.start[q];
    let size = 64;
    while (size < 2 * n) size *= 2;
    if (table.length < size) table = new Int32Array(size);
    else table.fill(0, 0, size);
    const mask = size - 1;
    for (let r = 0; r < runs.length; r++) {
      const run = runs[r].rows;
      const { rows, start } = grouped[r];
      const hashes = run.docids.hashes;
      for (let k = start[q]; k < start[q + 1]; k++) {
        const i = rows[k];
        let h = Math.imul(hashes[i], 0x9e3779b1) & mask;
        let d = table[h] - 1;
        while (d >= 0) {
          if (
            runs[idRun[d]].rows.docids.hashes[idRow[d]] === hashes[i] &&
            sameId(pools[idRun[d]], idRow[d], pools[r], i)
          )
            break;
          h = (h + 1) & mask;
          d = table[h] - 1;
        }
        if (d < 0) {
          d = count++;
          idRun[d] = r;
          idRow[d] = i;
          table[h] = d + 1;
        } else if (lastRun[d] === r) {
          if (twice[r] < 0 || i < twice[r]) twice[r] = i;
          continue;
        }
        lastRun[d] = r;
        doc[r][i] = d;
      }
    }
  }
  const r = twice.findIndex((i) => i >= 0);
  if (r >= 0) {
    const { rows: run, placeOf } = runs[r];
    const i = twice[r];
    const e = documentTwice(docidString(run.docids, i), run.qidNames.stringsOf([run.qid[i]])[0], {
      file: run.file,
      line: lineOfRow(run.lines, i),
    });
    throw placeOf ? asRowError(e, run.file, { placeOf }) : e;
  }
  return { doc, idRun, idRow };
}

/** Query `q` of a run as ranx's Run.from_file holds it, sorted as ranx sorts. */
function rankedOf(run: RunRows, g: ByQuery, doc: Int32Array, q: number): Ranked<number> {
  const from = g.start[q];
  const n = g.start[q + 1] - from;
  const order = g.rows.subarray(from, from + n);
  const given = new Float64Array(n);
  for (let k = 0; k < n; k++) given[k] = run.score[order[k]];
  return reordered({ docs: Array.from(order, (i) => doc[i]), scores: given }, rankOrder(given));
}

/** Numbered documents' ids as bytes, copied into one reused pool. */
class IdPool {
  private bytes = new Uint8Array(1 << 16);

  constructor(
    private readonly runs: readonly RunRead[],
    private readonly numbered: Numbered,
  ) {}

  of(docs: readonly number[]): DocBytes {
    const { idRun, idRow } = this.numbered;
    const offsets = new Int32Array(docs.length + 1);
    for (let i = 0; i < docs.length; i++) {
      const o = this.runs[idRun[docs[i]]].rows.docids.offsets;
      offsets[i + 1] = offsets[i] + o[idRow[docs[i]] + 1] - o[idRow[docs[i]]];
    }
    if (this.bytes.length < offsets[docs.length]) this.bytes = new Uint8Array(2 * offsets[docs.length]);
    const pool = this.bytes;
    for (let i = 0; i < docs.length; i++) {
      const { bytes, offsets: o } = this.runs[idRun[docs[i]]].rows.docids;
      for (let k = o[idRow[docs[i]]], to = o[idRow[docs[i]] + 1], at = offsets[i]; k < to; k++) pool[at++] = bytes[k];
    }
    return { bytes: this.bytes, offsets };
  }
}
