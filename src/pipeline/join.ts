// A run given as columns or objects joined to its judgments into the kernel's batch: evaluateRun.
import { RankevalError } from "../errors.js";
import { isColumn } from "./group.js";
import type { Batch } from "../kernel/batch.js";
import { StringPool } from "../kernel/pool.js";

/**
 * Judgments: `{ qid: { docid: label } }` (ranx, pytrec_eval) or columns; columns of interned ids
 * (rankeval/io's QrelsParser output) are read through the `qidNames` / `docidNames` they carry.
 */
export type Qrels =
  | Readonly<Record<string, Readonly<Record<string, number>>>>
  | { readonly qid: ArrayLike<string | number>; readonly docid: ArrayLike<string | number>; readonly rel: ArrayLike<number> };

/** A run: `{ qid: { docid: score } }` (ranx, pytrec_eval) or columns. */
export type Run =
  | Readonly<Record<string, Readonly<Record<string, number>>>>
  | { readonly qid: ArrayLike<string | number>; readonly docid: ArrayLike<string | number>; readonly score: ArrayLike<number> };

export interface JoinedQueries {
  batch: Batch;
  qids: string[];
  /** Run queries without judgments (ignored, as trec_eval) and judged queries absent from the run. */
  notJudged: number;
  notInRun: number;
}

const bad = (message: string) => new RankevalError("bad-input", message);

interface Triples {
  qid: ArrayLike<string | number>;
  docid: ArrayLike<string | number>;
  value: ArrayLike<number>;
}

/** An Interner (src/io/interner.ts), as far as naming its ids goes. */
interface IdNames {
  readonly size: number;
  stringsOf(ids: readonly number[]): string[];
}

const isIdNames = (x: unknown): x is IdNames =>
  typeof x === "object" && x !== null && typeof (x as IdNames).stringsOf === "function" && typeof (x as IdNames).size === "number";

/**
 * The ids of a column of interned ids, as strings. The parsers of rankeval/io number ids in order of
 * first appearance in *their* interner: two parsers with two interners give the same numbers to
 * different ids, so the numbers are joined only as the strings they stand for.
 */
function idStrings(what: string, column: ArrayLike<string | number>, names: IdNames): string[] {
  const all = names.stringsOf(Array.from({ length: names.size }, (_, i) => i));
  const out = new Array<string>(column.length);
  for (let i = 0; i < column.length; i++) {
    const id = column[i];
    if (typeof id !== "number" || !(id >= 0 && id < all.length)) throw bad(`${what}[${i}] = ${JSON.stringify(id)} is not an id of the parser's interner`);
    out[i] = all[id];
  }
  return out;
}

function columnsOf(x: Qrels | Run, what: "qrels" | "run"): Triples {
  const valueName = what === "qrels" ? "rel" : "score";
  if (x === null || typeof x !== "object") throw bad(`${what} must be { qid: { docid: ${valueName} } } or columns { qid, docid, ${valueName} }`);
  const c = x as Record<string, unknown>;
  if (isColumn(c.qid)) {
    let qid = c.qid as ArrayLike<string | number>;
    if (!isColumn(c.docid) && c.docids !== undefined) {
      throw bad(`${what} was parsed with docids: "per-row" (the command line's join); to pass it here, give the parser an Interner for docids`);
    }
    for (const name of ["docid", valueName]) {
      if (!isColumn(c[name])) throw bad(`${what}.${name} must be an array or typed array`);
      if ((c[name] as ArrayLike<unknown>).length !== qid.length) throw bad(`${what}.${name} has ${(c[name] as ArrayLike<unknown>).length} values but ${what}.qid has ${qid.length}`);
    }
    let docid = c.docid as ArrayLike<string | number>;
    // A parser's output (rankeval/io's QrelsParser, RunParser): its ids stand for the strings.
    if (isIdNames(c.qidNames)) qid = idStrings(`${what}.qid`, qid, c.qidNames);
    if (isIdNames(c.docidNames)) docid = idStrings(`${what}.docid`, docid, c.docidNames);
    return { qid, docid, value: c[valueName] as ArrayLike<number> };
  }
  const qid: string[] = [];
  const docid: string[] = [];
  const value: number[] = [];
  for (const [q, docs] of Object.entries(x as Record<string, Record<string, number>>)) {
    if (docs === null || typeof docs !== "object") throw bad(`${what}[${JSON.stringify(q)}] must be an object of docid: ${valueName}`);
    for (const [d, v] of Object.entries(docs)) {
      qid.push(q);
      docid.push(d);
      value.push(v);
    }
  }
  return { qid, docid, value };
}

function where(what: string, t: Triples, i: number): string {
  return `${what} row ${i} (query ${JSON.stringify(t.qid[i])}, document ${JSON.stringify(t.docid[i])})`;
}

/**
 * Joins a run to its judgments, query by query: each ranked document gets its label (NaN when
 * unjudged), and each query keeps all its judgments, so judged documents never retrieved still count
 * in recall and in the ideal ranking. Queries are those of the run that have judgments, in order of
 * first appearance in the run.
 */
export function joinRun(qrels: Qrels, run: Run): JoinedQueries {
  if (isObjects(qrels) && isObjects(run)) return joinObjects(qrels, run);
  const j = columnsOf(qrels, "qrels");
  const r = columnsOf(run, "run");

  const judgments = new Map<string, Map<string, number>>();
  for (let i = 0; i < j.qid.length; i++) {
    const q = String(j.qid[i]);
    const d = String(j.docid[i]);
    const v = j.value[i];
    if (typeof v !== "number" || !Number.isFinite(v)) throw bad(`${where("qrels", j, i)}: label ${JSON.stringify(v)} is not a finite number`);
    let docs = judgments.get(q);
    if (!docs) judgments.set(q, (docs = new Map()));
    if (docs.has(d)) throw bad(`${where("qrels", j, i)}: document judged twice for this query`);
    docs.set(d, v);
  }

  // Group the run's rows by query, in order of first appearance (stable within a query).
  const queryIndex = new Map<string, number>();
  const runQids: string[] = [];
  const queryOf = new Int32Array(r.qid.length);
  for (let i = 0; i < r.qid.length; i++) {
    const q = String(r.qid[i]);
    let k = queryIndex.get(q);
    if (k === undefined) {
      queryIndex.set(q, (k = runQids.length));
      runQids.push(q);
    }
    queryOf[i] = k;
  }
  const rowsOf: number[][] = runQids.map(() => []);
  for (let i = 0; i < r.qid.length; i++) rowsOf[queryOf[i]].push(i);

  const qids: string[] = [];
  let notJudged = 0;
  let rows = 0;
  let judgedRows = 0;
  for (let k = 0; k < runQids.length; k++) {
    const docs = judgments.get(runQids[k]);
    if (!docs) {
      notJudged++;
      continue;
    }
    qids.push(runQids[k]);
    rows += rowsOf[k].length;
    judgedRows += docs.size;
  }
  let notInRun = 0;
  for (const q of judgments.keys()) if (!queryIndex.has(q)) notInRun++;

  const offsets = new Int32Array(qids.length + 1);
  const judgedOffsets = new Int32Array(qids.length + 1);
  const scores = new Float64Array(rows);
  const labels = new Float64Array(rows);
  const judged = new Float64Array(judgedRows);
  const docids = new Int32Array(rows);
  const pool = new StringPool();
  const lastQuery: number[] = [];
  let row = 0;
  let jrow = 0;
  for (let q = 0; q < qids.length; q++) {
    const docs = judgments.get(qids[q])!;
    for (const i of rowsOf[queryIndex.get(qids[q])!]) {
      const d = String(r.docid[i]);
      const s = r.value[i];
      if (typeof s !== "number" || !Number.isFinite(s)) throw bad(`${where("run", r, i)}: score ${JSON.stringify(s)} is not a finite number`);
      const id = pool.intern(d);
      if (lastQuery[id] === q + 1) throw bad(`${where("run", r, i)}: document ranked twice for this query`);
      lastQuery[id] = q + 1;
      scores[row] = s;
      labels[row] = docs.get(d) ?? NaN;
      docids[row] = id;
      row++;
    }
    for (const v of docs.values()) judged[jrow++] = v;
    offsets[q + 1] = row;
    judgedOffsets[q + 1] = jrow;
  }
  const batch: Batch = { numQueries: qids.length, offsets, scores, labels, judgedOffsets, judged, docids, pool: pool.pool() };
  return { batch, qids, notJudged, notInRun };
}

/** `{ qid: { docid: value } }`, as columnsOf tells it from columns. */
type IdObjects = Readonly<Record<string, Readonly<Record<string, number>>>>;

function isObjects(x: Qrels | Run): x is IdObjects {
  return x !== null && typeof x === "object" && !isColumn((x as Record<string, unknown>).qid);
}

/** Each query's documents, checked to be objects, in Object.entries order (columnsOf's checks and messages). */
function queriesOf(x: IdObjects, what: "qrels" | "run"): { qids: string[]; docs: Readonly<Record<string, number>>[] } {
  const qids = Object.keys(x);
  const docs = new Array<Readonly<Record<string, number>>>(qids.length);
  for (let k = 0; k < qids.length; k++) {
    const d = x[qids[k]];
    if (d === null || typeof d !== "object") throw bad(`${what}[${JSON.stringify(qids[k])}] must be an object of docid: ${what === "qrels" ? "rel" : "score"}`);
    docs[k] = d;
  }
  return { qids, docs };
}

const rowAt = (what: string, i: number, q: string, d: string) => `${what} row ${i} (query ${JSON.stringify(q)}, document ${JSON.stringify(d)})`;

/**
 * joinRun for `{ qid: { docid: value } }` on both sides: the same batch, errors and messages, made
 * from the objects as they are (a document's label is a property lookup) rather than from rows
 * copied out of them and into maps, which was four fifths of evaluateRun's time on a small run. A
 * document cannot be twice in one query of an object, so the run's document ids are laid out one per
 * row, as the command line's join lays them out.
 */
function joinObjects(qrels: IdObjects, run: IdObjects): JoinedQueries {
  const j = queriesOf(qrels, "qrels");
  const r = queriesOf(run, "run");
  // Labels checked in row order over every judgment, as the rows' join checks them; a query without
  // a document is no judged query.
  const judged = new Map<string, Readonly<Record<string, number>>>();
  const judgedKeys = new Map<string, string[]>();
  let i = 0;
  for (let k = 0; k < j.qids.length; k++) {
    const docs = j.docs[k];
    const keys = Object.keys(docs);
    for (const d of keys) {
      const v = docs[d];
      if (typeof v !== "number" || !Number.isFinite(v)) throw bad(`${rowAt("qrels", i, j.qids[k], d)}: label ${JSON.stringify(v)} is not a finite number`);
      i++;
    }
    if (keys.length) {
      judged.set(j.qids[k], docs);
      judgedKeys.set(j.qids[k], keys);
    }
  }
  const runKeys = r.docs.map((d) => Object.keys(d));
  const qids: string[] = [];
  const which: number[] = [];
  let rows = 0;
  let judgedRows = 0;
  for (let k = 0; k < r.qids.length; k++) {
    const keys = judgedKeys.get(r.qids[k]);
    if (!keys) continue;
    qids.push(r.qids[k]);
    which.push(k);
    rows += runKeys[k].length;
    judgedRows += keys.length;
  }
  const notJudged = r.qids.length - qids.length;
  const inRun = new Set(r.qids);
  let notInRun = 0;
  for (const q of judged.keys()) if (!inRun.has(q)) notInRun++;

  // Each run query's first row, in the order of the rows' join.
  const firstRow = new Int32Array(r.qids.length + 1);
  for (let k = 0; k < r.qids.length; k++) firstRow[k + 1] = firstRow[k] + runKeys[k].length;

  const offsets = new Int32Array(qids.length + 1);
  const judgedOffsets = new Int32Array(qids.length + 1);
  const scores = new Float64Array(rows);
  const labels = new Float64Array(rows);
  const judgedLabels = new Float64Array(judgedRows);
  const docids = new Int32Array(rows);
  const pool = new RowIds(rows);
  let row = 0;
  let jrow = 0;
  for (let q = 0; q < qids.length; q++) {
    const k = which[q];
    const docs = r.docs[k];
    const keys = runKeys[k];
    const judgments = judged.get(qids[q])!;
    for (let t = 0; t < keys.length; t++) {
      const d = keys[t];
      const s = docs[d];
      if (typeof s !== "number" || !Number.isFinite(s)) throw bad(`${rowAt("run", firstRow[k] + t, qids[q], d)}: score ${JSON.stringify(s)} is not a finite number`);
      scores[row] = s;
      labels[row] = Object.hasOwn(judgments, d) ? judgments[d] : NaN;
      docids[row] = pool.add(d);
      row++;
    }
    for (const d of judgedKeys.get(qids[q])!) judgedLabels[jrow++] = judgments[d];
    offsets[q + 1] = row;
    judgedOffsets[q + 1] = jrow;
  }
  const batch: Batch = { numQueries: qids.length, offsets, scores, labels, judgedOffsets, judged: judgedLabels, docids, pool: pool.pool() };
  return { batch, qids, notJudged, notInRun };
}

/** Document ids as UTF-8, one entry per row (no lookup: ids are unique within a query of an object). */
class RowIds {
  private bytes: Uint8Array;
  private readonly offsets: Int32Array;
  private used = 0;
  private count = 0;
  private readonly encoder = new TextEncoder();

  constructor(rows: number) {
    this.bytes = new Uint8Array(Math.max(64, rows * 16));
    this.offsets = new Int32Array(rows + 1);
  }

  add(s: string): number {
    // A UTF-16 code unit is at most 3 UTF-8 bytes.
    if (this.used + 3 * s.length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(2 * this.bytes.length, this.used + 3 * s.length));
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    let at = this.used;
    const bytes = this.bytes;
    let ascii = true;
    // Short ASCII ids (the usual) byte by byte: cheaper than a call to the encoder.
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        ascii = false;
        break;
      }
      bytes[at++] = c;
    }
    if (!ascii) at = this.used + this.encoder.encodeInto(s, bytes.subarray(this.used)).written;
    this.used = at;
    this.offsets[++this.count] = at;
    return this.count - 1;
  }

  pool(): { bytes: Uint8Array; offsets: Int32Array } {
    return { bytes: this.bytes.subarray(0, this.used), offsets: this.offsets.subarray(0, this.count + 1) };
  }
}
