// Runs and judgments in memory as the rows join-rows.ts reads.
import { counted } from "../errors/counted.js";
import { noQueryInCommon, notAnObject, type RankevalError, badInput, shown } from "../errors/errors.js";
import { Interner } from "../io/interner.js";
import type { QrelsRows, TruncatedLabels } from "../io/qrels.js";
import { rowHash, type RowDocids, type RowLines } from "../io/rows.js";
import type { RunRows } from "../io/run.js";
import { isColumn } from "./rows-by-query.js";
import type { Batch } from "../kernel/batch.js";
import { groupJudgments, joinParsed, judgedSample, type GroupedJudgments } from "./join-rows.js";
import { numberLabelsRead, type LabelsRead } from "./trec-labels.js";
import type { RunPreparation, RunPrepared } from "./prepare-run.js";

/** Judgments: `{ qid: { docid: label } }` (ranx, pytrec_eval) or columns (interned ids read via their `qidNames` / `docidNames`). */
export type Qrels = IdObjects | IdColumns<"rel">;

/** A run: `{ qid: { docid: score } }` (ranx, pytrec_eval) or columns. */
export type Run = IdObjects | IdColumns<"score">;

type IdColumns<V extends string> = {
  readonly qid: ArrayLike<string | number>;
  readonly docid: ArrayLike<string | number>;
} & { readonly [K in V]: ArrayLike<number> };

/** What join-rows.ts reads; rows in memory have no lines. */
export type JoinRun = Omit<RunRows, "lines"> & { lines?: RowLines };
export type JoinQrels = Omit<QrelsRows, "lines"> & { lines?: RowLines };

export interface JoinedQueries {
  batch: Batch;
  qids: string[];
  notJudged: number;
  notInRun: number;
  /** Labels trec_eval reads as another number, for its warning. */
  labelsRead?: LabelsRead;
  /** With a preparation: what it did. */
  prepared?: RunPrepared;
}

type IdObjects = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** Rows as given, checked for shape (columns or objects). */
export type Given =
  | {
      qid: ArrayLike<string | number>;
      docid: ArrayLike<string | number>;
      value: ArrayLike<unknown>;
      truncated?: TruncatedLabels;
    }
  | { qids: string[]; docs: Readonly<Record<string, unknown>>[] };

interface IdNames {
  readonly size: number;
  stringsOf(ids: readonly number[]): string[];
}

const isIdNames = (x: unknown): x is IdNames =>
  typeof x === "object" &&
  x !== null &&
  typeof (x as IdNames).stringsOf === "function" &&
  typeof (x as IdNames).size === "number";

/** Interned ids as strings: two interners number ids differently. */
function idStrings(what: string, column: ArrayLike<string | number>, names: IdNames): string[] {
  const all = names.stringsOf(Array.from({ length: names.size }, (_, i) => i));
  const out = new Array<string>(column.length);
  for (let i = 0; i < column.length; i++) {
    const id = column[i];
    if (typeof id !== "number" || !(id >= 0 && id < all.length))
      throw badInput(`${what}[${i}] = ${shown(id)} is not an id of the parser's interner`);
    out[i] = all[id];
  }
  return out;
}

/** `x` checked for shape; messages name it `what` ("run", "runs[2]"). */
export function givenRows(x: unknown, what: string, valueName: string): Given {
  if (notAnObject(x))
    throw badInput(
      `${what} must be { qid: { docid: ${valueName} } } or columns { qid, docid, ${valueName} }, not ${shown(x)}`,
    );
  const c = x as Record<string, unknown>;
  if (isColumn(c.qid)) {
    let qid = c.qid as ArrayLike<string | number>;
    if (!isColumn(c.docid) && c.docids !== undefined) {
      throw badInput(
        `${what} was parsed with docids: "per-row" (the command line's join); to pass it here, give the parser an Interner for docids`,
      );
    }
    for (const name of ["docid", valueName]) {
      const col = c[name];
      if (!isColumn(col)) throw badInput(`${what}.${name} must be an array or typed array`);
      if (col.length !== qid.length)
        throw badInput(`${what}.${name} has ${counted(col.length, "value")} but ${what}.qid has ${qid.length}`);
    }
    let docid = c.docid as ArrayLike<string | number>;
    if (isIdNames(c.qidNames)) qid = idStrings(`${what}.qid`, qid, c.qidNames);
    if (isIdNames(c.docidNames)) docid = idStrings(`${what}.docid`, docid, c.docidNames);
    const truncated = valueName === "rel" ? (c.truncated as TruncatedLabels | undefined) : undefined;
    return { qid, docid, value: c[valueName] as ArrayLike<unknown>, ...(truncated ? { truncated } : {}) };
  }
  const qids = Object.keys(x as object);
  const docs = new Array<Readonly<Record<string, unknown>>>(qids.length);
  for (let k = 0; k < qids.length; k++) {
    const d = (x as IdObjects)[qids[k]];
    if (notAnObject(d))
      throw badInput(`${what}[${JSON.stringify(qids[k])}] must be an object of docid: ${valueName}, not ${shown(d)}`);
    docs[k] = d;
  }
  return { qids, docs };
}

const isId = (v: unknown) => typeof v === "string" || typeof v === "number";

/** Rows in memory as a parser's per-row rows (non-numbers NaN). */
export class MemoryRows {
  private bytes: Uint8Array = NO_BYTES;
  private value: Float64Array = NO_VALUES;
  private qid: Int32Array = NO_INTS;
  private hashes: Int32Array = NO_INTS;
  private offsets: Int32Array = NO_INTS;
  private used = 0;
  length = 0;
  private readonly odd = new Map<number, unknown>();
  /** The columns given: messages quote ids as given. */
  private columns: { qid: ArrayLike<unknown>; docid: ArrayLike<unknown> } | null = null;
  readonly empty = new Set<number>();
  /** The queries read, in first-seen order (empty ones too): a run's sample when no query is judged. */
  readonly queries = new Set<number>();
  truncated: TruncatedLabels | undefined;

  constructor(
    readonly file: string,
    readonly qidNames: Interner,
  ) {}

  /** Room for `rows` more, all in one buffer: buffers were a third of a small evaluation's garbage. */
  reserve(rows: number): void {
    const n = this.length + rows;
    if (n <= this.qid.length) return;
    const buffer = new ArrayBuffer(28 * n + 8);
    const value = new Float64Array(buffer, 0, n);
    const qid = new Int32Array(buffer, 8 * n, n);
    const hashes = new Int32Array(buffer, 12 * n, n);
    const offsets = new Int32Array(buffer, 16 * n, n + 1);
    value.set(this.value);
    qid.set(this.qid);
    hashes.set(this.hashes);
    offsets.set(this.offsets);
    [this.value, this.qid, this.hashes, this.offsets] = [value, qid, hashes, offsets];
    if (this.bytes.length < 8 * n) this.bytes = grow(this.bytes, this.used, new Uint8Array(buffer, 20 * n + 8));
  }

  /** Writes s as UTF-8 after `used` (unchanged); returns its end. */
  private write(s: string): number {
    if (this.used + 3 * s.length > this.bytes.length)
      this.bytes = grow(this.bytes, this.used, new Uint8Array(2 * (this.used + 3 * s.length)));
    const bytes = this.bytes;
    const start = this.used;
    let at = start;
    // ASCII byte by byte: cheaper than the encoder.
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) return start + encoder.encodeInto(s, bytes.subarray(start)).written;
      bytes[at++] = c;
    }
    return at;
  }

  query(s: string): number {
    const end = this.write(s);
    return this.qidNames.intern(this.bytes, this.used, end);
  }

  add(q: number, d: string, v: unknown): void {
    const n = this.length;
    if (n === this.qid.length) this.reserve(n + 16);
    const start = this.used;
    const at = this.write(d);
    this.used = at;
    this.offsets[n + 1] = at;
    this.hashes[n] = rowHash(this.bytes, start, at);
    this.qid[n] = q;
    if (typeof v === "number") this.value[n] = v;
    else {
      this.value[n] = NaN;
      this.odd.set(n, v);
    }
    this.length = n + 1;
  }

  addGiven(g: Given): this {
    if ("qids" in g) {
      const keys = g.docs.map((docs) => Object.keys(docs));
      this.reserve(keys.reduce((n, k) => n + k.length, 0));
      for (let k = 0; k < g.qids.length; k++) {
        const q = this.query(g.qids[k]);
        this.queries.add(q);
        const docs = g.docs[k];
        if (keys[k].length === 0) this.empty.add(q);
        for (const d of keys[k]) this.add(q, d, docs[d]);
      }
      return this;
    }
    this.reserve(g.qid.length);
    this.columns = g;
    if (this.length === 0) this.truncated = g.truncated;
    const ids = new Map<string | number, number>();
    let last: string | number | undefined;
    let q = -1;
    for (let i = 0; i < g.qid.length; i++) {
      const v = g.qid[i];
      const d = g.docid[i];
      if (!isId(v)) throw badInput(`${this.file}.qid[${i}] must be a string or a number, not ${shown(v)}`);
      if (!isId(d)) throw badInput(`${this.file}.docid[${i}] must be a string or a number, not ${shown(d)}`);
      if (v !== last || q < 0) {
        last = v;
        q = ids.get(v) ?? -1;
        if (q < 0) ids.set(v, (q = this.query(String(v))));
        this.queries.add(q);
      }
      this.add(q, String(d), g.value[i]);
    }
    return this;
  }

  rows(): JoinQrels & JoinRun {
    const n = this.length;
    const docids: RowDocids = {
      bytes: this.bytes.subarray(0, this.used),
      offsets: this.offsets.subarray(0, n + 1),
      hashes: this.hashes.subarray(0, n),
    };
    const value = this.value.subarray(0, n);
    return {
      qid: this.qid.subarray(0, n),
      docids,
      rel: value,
      score: value,
      length: n,
      file: this.file,
      qidNames: this.qidNames,
      runTag: "",
      ...(this.truncated ? { truncated: this.truncated } : {}),
    };
  }

  /** `run row 3 (query "q1", document "d2")`. */
  where(i: number): string {
    return `${this.file} row ${i} (${this.ids(i)})`;
  }

  ids(i: number): string {
    const c = this.columns;
    const q = c ? c.qid[i] : this.qidNames.stringOf(this.qid[i]);
    const d = c ? c.docid[i] : new TextDecoder().decode(this.bytes.subarray(this.offsets[i], this.offsets[i + 1]));
    return `query ${shown(q)}, document ${shown(d)}`;
  }

  /** Throws for the first non-finite value among `rows` (all when null). */
  checkFinite(what: string, rows: Int32Array | null = null): void {
    const n = rows ? rows.length : this.length;
    for (let k = 0; k < n; k++) {
      const i = rows ? rows[k] : k;
      const v = this.value[i];
      if (v - v !== 0)
        throw badInput(
          `${this.where(i)}: ${what} ${shown(this.odd.has(i) ? this.odd.get(i) : v)} is not a finite number`,
        );
    }
  }
}

const encoder = new TextEncoder();
const NO_BYTES: Uint8Array = new Uint8Array(0);
const NO_VALUES = new Float64Array(0);
const NO_INTS = new Int32Array(0);

function grow(from: Uint8Array, used: number, to: Uint8Array): Uint8Array {
  to.set(from.subarray(0, used));
  return to;
}

/** A run and judgments in memory, joined (names no join-rows.ts type: kept out of public declarations). */
export interface MemoryJoin extends JoinedQueries {
  run: MemoryRows;
  runQueries: number;
  judged(q: number): boolean;
  noQueryInCommon(judgments: string): RankevalError;
}

/** Joins a run in memory to judgments interned after it; queries in first-seen order, `{}` an empty ranking. */
export function joinMemory(
  run: Run,
  judgments: (qidNames: Interner) => MemoryRows,
  options: { complete?: boolean; prepare?: RunPreparation } = {},
): MemoryJoin {
  // Small: a small call's typed arrays then lie in the JS heap.
  const names = new Interner(4);
  const r = new MemoryRows("run", names).addGiven(givenRows(run, "run", "score"));
  const j = judgments(names);
  return joinGrouped(r, groupJudgments(j.rows()), options);
}

/** Run rows `r` joined to judgments grouped already, both interned by the same names; `reuse`: a dead batch. */
function joinGrouped(
  r: MemoryRows,
  grouped: GroupedJudgments,
  options: { complete?: boolean; reuse?: Batch; prepare?: RunPreparation } = {},
): MemoryJoin {
  const joined = joinParsed(grouped, r.rows(), {
    inIdOrder: true,
    emptyQueries: r.empty,
    complete: options.complete,
    reuse: options.reuse,
    prepare: options.prepare,
  });
  const ranked = joined.batch.docids as Int32Array;
  const from = joined.preparedFrom;
  r.checkFinite("score", from ? Int32Array.from(ranked, (row) => from[row]) : ranked);
  const { begin, end } = grouped.groups;
  const judged = (q: number) => q < begin.length && end[q] > begin[q];
  let notJudged = joined.notJudged;
  for (const q of r.empty) if (!judged(q)) notJudged++;
  const runQueries = r.queries.size;
  return {
    batch: joined.batch,
    qids: joined.qids,
    notJudged,
    notInRun: options.complete ? 0 : joined.notInRun,
    run: r,
    runQueries,
    judged,
    ...(joined.prepared ? { prepared: joined.prepared } : {}),
    noQueryInCommon: (name) => {
      const some = r.qidNames.stringsOf([...r.queries].slice(0, 3));
      return noQueryInCommon({ name: "run", queries: runQueries, some }, judgedSample(grouped, name));
    },
  };
}

/** Joins a run to its judgments (unjudged label NaN); the run's judged queries, first-seen order. Throws when none. */
export function joinRun(qrels: Qrels, run: Run, prepare?: RunPreparation): JoinedQueries {
  // The fast join reads ids as given: a preparation takes the rows' join, which applies it.
  const fast = prepare ? null : joinObjects(qrels, run);
  if (judgedScratch.length > SCRATCH_KEPT) judgedScratch = new Float64Array(1024);
  if (fast) return fast;
  const given = givenRows(qrels, "qrels", "rel");
  let labelsRead: LabelsRead | undefined;
  const joined = joinMemory(
    run,
    (names) => {
      const j = readJudgments(given, names);
      labelsRead = j.labelsRead;
      return j.rows;
    },
    { prepare },
  );
  if (joined.qids.length === 0) throw joined.noQueryInCommon("qrels");
  return labelsRead ? { ...joined, labelsRead } : joined;
}

/** Judgments given, read as joinRun reads them: finite labels, and those trec_eval reads as another number. */
function readJudgments(given: Given, names: Interner): { rows: MemoryRows; labelsRead: LabelsRead | undefined } {
  const j = new MemoryRows("qrels", names).addGiven(given);
  j.checkFinite("label");
  const t = j.truncated;
  const labelsRead = t
    ? { where: `qrels line ${t.firstLine}`, text: t.firstText, value: t.values[0], count: t.rows.length }
    : numberLabelsRead(j.rows().rel, (i) => `qrels: ${j.ids(i)}`);
  return { rows: j, labelsRead };
}

/**
 * Judgments read and grouped once, then joined to many runs (qrelsCompare evaluates every run under two
 * sets: reading and grouping the judgments again per run was a third of its time). A join is joinRun's,
 * its messages too, but queries are numbered by the shared `names`, judgments first: a batch's queries
 * come in that order, not the run's (means and counts, summed in strcmp order, are the same).
 */
export class JudgmentsInMemory {
  private readonly grouped: GroupedJudgments;
  private readonly labelsRead: LabelsRead | undefined;

  constructor(
    qrels: Qrels,
    private readonly names: Interner,
  ) {
    const j = readJudgments(givenRows(qrels, "qrels", "rel"), names);
    this.labelsRead = j.labelsRead;
    this.grouped = groupJudgments(j.rows.rows());
  }

  /** The run's rows, read once for several judgments (same names). */
  readRun(run: Run): MemoryRows {
    return new MemoryRows("run", this.names).addGiven(givenRows(run, "run", "score"));
  }

  /**
   * As joinRun(qrels, run) on rows from readRun: throws when no query is shared. `reuse`: a batch of an
   * earlier join, evaluated and dropped, whose arrays the new one is written over (fresh ones were
   * most of qrelsCompare's garbage).
   */
  join(run: MemoryRows, reuse?: Batch, prepare?: RunPreparation): JoinedQueries {
    const joined = joinGrouped(run, this.grouped, { reuse, prepare });
    if (joined.qids.length === 0) throw joined.noQueryInCommon("qrels");
    return this.labelsRead ? { ...joined, labelsRead: this.labelsRead } : joined;
  }
}

/** A query's documents, where every query of `x` is an object (else null: givenRows says what is wrong). */
function queriesOf(x: unknown): { qids: string[]; docs: Readonly<Record<string, unknown>>[] } | null {
  if (notAnObject(x) || isColumn((x as Record<string, unknown>).qid)) return null;
  const qids = Object.keys(x as object);
  const docs = new Array<Readonly<Record<string, unknown>>>(qids.length);
  for (let k = 0; k < qids.length; k++) {
    const d = (x as IdObjects)[qids[k]];
    if (notAnObject(d) || !ascii(qids[k])) return null;
    docs[k] = d;
  }
  return { qids, docs };
}

/** ASCII: its UTF-16 is its UTF-8, so JavaScript's equality of ids is the rows' join's (byte equality). */
function ascii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/**
 * joinRun on `{ qid: { docid: value } }` both sides, as a training loop calls it: a label is a property
 * lookup, not rows copied into columns and joined by hash (evaluateRun on 200 rows: 52 -> 35 us). The
 * same batch as the rows' join (run order, judgments in their order, a pool entry a row); null where
 * anything is not plain (a shape, a label that is no integer, a judged query's score that is no finite
 * number, an id that is not ASCII, no query in common): the rows' join then says it, or reads it.
 * Each value is read once (a keyed load of a varying key is the cost here), into doubles: the
 * judgments' labels into a buffer kept across calls, scores straight into the batch, so a call leaves
 * no per-row garbage.
 */
function joinObjects(qrels: unknown, run: unknown): JoinedQueries | null {
  const j = queriesOf(qrels);
  const r = j && queriesOf(run);
  if (!j || !r) return null;
  // The judgments' labels, query after query: query k's are [labelStart[k], labelStart[k + 1]).
  const labelStart = new Int32Array(j.qids.length + 1);
  const judged = new Map<string, number>();
  let labelCount = 0;
  for (let k = 0; k < j.qids.length; k++) {
    const docs = j.docs[k];
    const keys = Object.keys(docs);
    if (labelCount + keys.length > judgedScratch.length) judgedScratch = grownScratch(labelCount + keys.length);
    const scratch = judgedScratch;
    for (const d of keys) {
      const v = docs[d];
      // Fractional labels: the rows' join reads them for trec_eval's warning.
      if (typeof v !== "number" || !Number.isInteger(v) || !ascii(d)) return null;
      scratch[labelCount++] = v;
    }
    labelStart[k + 1] = labelCount;
    if (keys.length) judged.set(j.qids[k], k);
  }
  // The run's judged queries: the run's query, the judgments' query, the run's documents.
  const runQuery: number[] = [];
  const judgedQuery: number[] = [];
  const runKeys: string[][] = [];
  let rows = 0;
  let bytes = 0;
  let judgedRows = 0;
  for (let k = 0; k < r.qids.length; k++) {
    const jk = judged.get(r.qids[k]);
    if (jk === undefined) continue;
    const keys = Object.keys(r.docs[k]);
    for (const d of keys) bytes += d.length;
    rows += keys.length;
    judgedRows += labelStart[jk + 1] - labelStart[jk];
    runQuery.push(k);
    judgedQuery.push(jk);
    runKeys.push(keys);
  }
  const n = runQuery.length;
  if (n === 0) return null;
  // Queries of an object are distinct: those of the judgments not matched are not in the run.
  const notInRun = judged.size - n;

  // One buffer: eight made apart took 7 us of a small call, one 2 (as MemoryRows.reserve).
  const buffer = new ArrayBuffer(8 * (2 * rows + judgedRows) + 4 * (2 * n + 2 * rows + 3) + bytes);
  const scoreOf = new Float64Array(buffer, 0, rows);
  const labels = new Float64Array(buffer, 8 * rows, rows);
  const judgedLabels = new Float64Array(buffer, 16 * rows, judgedRows);
  let off = 8 * (2 * rows + judgedRows);
  const ints = (length: number) => new Int32Array(buffer, (off += 4 * length) - 4 * length, length);
  const offsets = ints(n + 1);
  const judgedOffsets = ints(n + 1);
  const docids = ints(rows);
  // ASCII ids: a character is a byte.
  const pool = { offsets: ints(rows + 1), bytes: new Uint8Array(buffer, off, bytes) };
  const poolBytes = pool.bytes;
  const poolOffsets = pool.offsets;
  const qids = new Array<string>(n);
  const scratch = judgedScratch;
  let row = 0;
  let jrow = 0;
  let at = 0;
  for (let q = 0; q < n; q++) {
    const k = runQuery[q];
    const jk = judgedQuery[q];
    const docs = r.docs[k];
    const judgments = j.docs[jk];
    qids[q] = r.qids[k];
    for (const d of runKeys[q]) {
      const s = docs[d];
      if (typeof s !== "number" || !Number.isFinite(s)) return null;
      scoreOf[row] = s;
      const v = judgments[d];
      labels[row] = typeof v === "number" && Object.hasOwn(judgments, d) ? v : NaN;
      for (let c = 0; c < d.length; c++) {
        const code = d.charCodeAt(c);
        if (code >= 0x80) return null;
        poolBytes[at++] = code;
      }
      poolOffsets[row + 1] = at;
      docids[row] = row++;
    }
    for (let i = labelStart[jk]; i < labelStart[jk + 1]; i++) judgedLabels[jrow++] = scratch[i];
    offsets[q + 1] = row;
    judgedOffsets[q + 1] = jrow;
  }
  const batch: Batch = {
    numQueries: n,
    offsets,
    scores: scoreOf,
    labels,
    judgedOffsets,
    judged: judgedLabels,
    docids,
    pool,
  };
  return { batch, qids, notJudged: r.qids.length - n, notInRun };
}

/** joinObjects' judgments' labels, kept from call to call up to SCRATCH_KEPT (a larger one is let go after its call). */
let judgedScratch: Float64Array = new Float64Array(1024);
const SCRATCH_KEPT = 1 << 16;

function grownScratch(atLeast: number): Float64Array {
  const grown = new Float64Array(Math.max(atLeast, 2 * judgedScratch.length));
  grown.set(judgedScratch);
  return grown;
}
