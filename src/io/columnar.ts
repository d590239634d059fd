// Parquet and Arrow IPC rows into RowsBuilder's columns, a batch at a time, one ColumnValues per role. Ids are
// strings or integers (as decimal text), values finite; a null is an error naming file, row and column.
import {
  ANY,
  badInput,
  BOOLEAN,
  checkOptions,
  COUNT,
  InputError,
  oneOf,
  required,
  shown,
  STRING,
  usageError,
  type OptionType,
} from "../errors/errors.js";
import type { ColumnNames } from "./column-names.js";
import { pickColumns, roleWhat, type Role } from "./column-names.js";
import { INTERNER, type Interner } from "./interner.js";
import type { RowsKind, RowsOf } from "./json.js";
import { magicOf } from "./magic.js";
import { grow, RowsBuilder } from "./rows.js";
import type { RunRows } from "./run.js";
import type { RowLines } from "./rows.js";

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A RowsBuilder's rows as the TREC parsers' per-row output (here: the CLI's bundle keeps json.ts apart). */
export function rowsOf<K extends RowsKind>(
  kind: K,
  rows: ReturnType<RowsBuilder["finish"]>,
  file: string,
  qidNames: Interner,
  runTag: string,
): RowsOf<K> {
  const { qid, value, docids, lines } = rows;
  const common = { qid, docids, lines, length: qid.length, file, qidNames };
  return (kind === "qrels" ? { ...common, rel: value } : { ...common, score: value, runTag }) as RowsOf<K>;
}

/** A file read in byte ranges (hyparquet's AsyncBuffer: a File, a file handle, bytes): only the group or batch being read is in memory. */
export interface ByteSource {
  readonly byteLength: number;
  slice(start: number, end?: number): ArrayBuffer | Promise<ArrayBuffer>;
}

export interface ColumnarReadOptions<K extends RowsKind> {
  file: string;
  kind: K;
  columns?: ColumnNames;
  /** Said after a missing column's message (the CLI's --columns). */
  hint?: string;
  /** Columns the file's path gives (a Hive partition, `bucket=3/`): each row has that text. */
  partition?: Readonly<Record<string, string>>;
  /** Parquet: every row group by hyparquet's general reader (for tests). */
  generic?: boolean;
}

/** A file's first bytes for a message: text if printable, else hex. */
export function show(bytes: Uint8Array): string {
  if (bytes.length === 0) return "nothing: the file is empty";
  bytes = bytes.subarray(0, 8);
  const printable = bytes.every((b) => b >= 32 && b < 127);
  return printable
    ? JSON.stringify(String.fromCharCode(...bytes))
    : `bytes ${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join(" ")}`;
}

export type ColumnarFormat = "parquet" | "arrow";

/** A file's format from its first bytes, else null. */
export function columnarFormatOf(head: Uint8Array): ColumnarFormat | null {
  if (!(head instanceof Uint8Array))
    throw usageError(`columnarFormatOf(head): head must be a Uint8Array, not ${shown(head)}`);
  const magic = magicOf(head);
  return magic === "parquet" ? magic : magic === "arrow-file" || magic === "arrow-stream" ? "arrow" : null;
}

/** Reads a Parquet or Arrow file into `onBatch`, a batch at a time. */
export async function readColumnarSource<K extends RowsKind>(
  source: ByteSource,
  format: ColumnarFormat,
  o: ColumnarReadOptions<K>,
  onBatch: OnBatch,
): Promise<void> {
  checkSource(source, "readColumnarSource");
  if (format !== "parquet" && format !== "arrow")
    throw usageError(`readColumnarSource: format must be "parquet" or "arrow", not ${shown(format)}`);
  if (format === "parquet") return (await import("./parquet.js")).readParquet(source, o, onBatch);
  return (await import("./arrow.js")).readArrow({ source }, o, onBatch);
}

export function bytesSource(bytes: Uint8Array): ByteSource {
  if (!(bytes instanceof Uint8Array))
    throw usageError(`bytesSource(bytes): bytes must be a Uint8Array, not ${shown(bytes)}`);
  return {
    byteLength: bytes.length,
    slice: (start, end = bytes.length) => new Uint8Array(bytes.subarray(start, end)).buffer as ArrayBuffer,
  };
}

/** One column's values for a batch: `values` (null/undefined: a null), `utf8` (row i is bytes[offsets[i], offsets[i + 1])), `dictionary` (row i is dictionary[indices[i]]), `constant` (a Hive partition's value). */
export type ColumnValues =
  | { readonly kind: "values"; readonly values: ArrayLike<unknown>; readonly valid?: (i: number) => boolean }
  | {
      readonly kind: "utf8";
      readonly bytes: Uint8Array;
      readonly offsets: Int32Array;
      readonly valid?: (i: number) => boolean;
    }
  | {
      readonly kind: "dictionary";
      readonly indices: ArrayLike<number | bigint>;
      readonly dictionary: ColumnValues;
      readonly valid?: (i: number) => boolean;
    }
  | { readonly kind: "constant"; readonly text: string };

/** Each role's values for `length` rows from row `firstRow` (0-based) of `file` (a dataset's part). */
export interface ColumnBatch {
  readonly qid: ColumnValues;
  readonly docid: ColumnValues;
  readonly value: ColumnValues;
  readonly tag?: ColumnValues;
  readonly length: number;
  readonly file: string;
  readonly firstRow: number;
  readonly names: ChosenColumns;
  /** Ends a row group (a record batch does): a run read in blocks hands on its queries there, whatever the threads. */
  readonly endOfGroup?: boolean;
}

/** Each chosen column's values from `read`, or (null) from the path's partition. */
export function columnBatch(
  chosen: Partial<ChosenColumns>,
  partition: Readonly<Record<string, string>>,
  read: (name: string) => ColumnValues | null,
  file: string,
  firstRow: number,
  length: number,
  endOfGroup: boolean,
): ColumnBatch {
  const values = (name: string): ColumnValues => read(name) ?? { kind: "constant", text: partition[name] };
  return {
    qid: values(chosen.qid!),
    docid: values(chosen.docid!),
    value: values(chosen.value!),
    ...(chosen.tag !== undefined ? { tag: values(chosen.tag) } : {}),
    length,
    file,
    firstRow,
    names: chosen as ChosenColumns,
    endOfGroup,
  };
}

/** A returned promise holds the reader until the batch is used. */
export type OnBatch = (batch: ColumnBatch) => void | Promise<void>;

export interface ChosenColumns {
  readonly qid: string;
  readonly docid: string;
  readonly value: string;
  readonly tag?: string;
}

/** A chooseColumns error's missing role and the columns (for the page). */
export const missingColumn = new WeakMap<Error, { role: string; names: readonly string[] }>();

/** Each role's column among the file's and its partition's, else an error. */
export function chooseColumns(columns: readonly string[], o: ColumnarReadOptions<RowsKind>) {
  const { file, kind, hint } = o;
  const partition = o.partition ?? {};
  const names = [...columns, ...Object.keys(partition).filter((k) => !columns.includes(k))];
  const picked = pickColumns(names, kind, o.columns);
  const has = names.length ? names.map((n) => JSON.stringify(n)).join(", ") : "none";
  if ("missing" in picked) {
    const looked = `looked for ${picked.looked}; its columns are ${has}`;
    const e = badInput(`${file}: no ${roleWhat(picked.missing, kind)} column (${looked})${hint ? `; ${hint}` : ""}`);
    missingColumn.set(e, { role: picked.missing, names });
    throw e;
  }
  if ("twice" in picked) {
    const [a, b] = picked.twice.map((r) => roleWhat(r, kind));
    throw badInput(`${file}: column ${JSON.stringify(picked.name)} cannot be both the ${a} and the ${b}`);
  }
  const chosen: ChosenColumns = {
    qid: names[picked.qid],
    docid: names[picked.docid],
    value: names[picked.value],
    ...(picked.tag >= 0 ? { tag: names[picked.tag] } : {}),
  };
  return { chosen, partition };
}

/** `run.parquet: row 57 (column "score"): the score is null` (`line`: the row, from 1). */
export class RowError extends InputError {
  constructor(
    file: string,
    row: number,
    readonly columnName: string | undefined,
    reason: string,
  ) {
    super(file, row, 0, reason);
    this.message = `${file}: row ${row}${columnName === undefined ? "" : ` (column ${JSON.stringify(columnName)})`}: ${reason}`;
  }
}

export function rowError(file: string, row: number, column: string | undefined, reason: string): RowError {
  return new RowError(file, row + 1, column, reason);
}

export interface ColumnarRowsOptions<K extends RowsKind> {
  file: string;
  qids: Interner;
  kind: K;
  /** A run's tag when the file has no tag column. */
  runTag?: string;
  /** Input rows before the first added (a reader given a row group). */
  lineBase?: number;
}

const ROWS_OPTION_TYPES: Readonly<Record<keyof ColumnarRowsOptions<RowsKind>, OptionType>> = {
  file: required(STRING),
  qids: INTERNER,
  kind: required(oneOf(["qrels", "run"])),
  runTag: STRING,
  lineBase: COUNT,
};

/** columnarRows' options. */
const READ_OPTION_TYPES: Readonly<Record<string, OptionType>> = {
  file: required(STRING),
  kind: required(oneOf(["qrels", "run"])),
  columns: ANY,
  hint: STRING,
  partition: ANY,
  generic: BOOLEAN,
  qids: INTERNER,
  format: oneOf(["parquet", "arrow"]),
  runTag: STRING,
};

function checkSource(source: unknown, call: string): asserts source is ByteSource {
  const s = source as ByteSource | null;
  if (s === null || typeof s !== "object" || typeof s.byteLength !== "number" || typeof s.slice !== "function")
    throw usageError(
      `${call}: source must be a ByteSource { byteLength, slice } (bytesSource(bytes)), not ${shown(source)}`,
    );
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8");

/** A row's "line" is its number over the whole input, from 1. */
export class ColumnarRows<K extends RowsKind> {
  private readonly rows = new RowsBuilder(0);
  private readonly file: string;
  private readonly kind: K;
  private readonly qidNames: Interner;
  private runTag: string;
  private total = 0;
  private readonly lineBase: number;
  /** Where each file's rows start in the input's numbering. */
  private readonly starts: { file: string; first: number }[] = [];
  /** Scratch for one id's bytes, and per-batch columns. */
  private scratch = new Uint8Array(256);
  private qidIds = new Int32Array(0);
  private values = new Float64Array(0);
  /** The previous row's query id and its interned id. */
  private prevQid: unknown = undefined;
  private prevQidId = -1;

  constructor(options: ColumnarRowsOptions<K>) {
    checkOptions(options, ROWS_OPTION_TYPES, "ColumnarRows");
    this.file = options.file;
    this.kind = options.kind;
    this.qidNames = options.qids;
    this.runTag = options.runTag ?? "";
    this.lineBase = options.lineBase ?? 0;
  }

  get length(): number {
    return this.total;
  }

  add(batch: ColumnBatch) {
    const n = batch.length;
    if (n === 0) return;
    const last = this.starts[this.starts.length - 1];
    if (!last || last.file !== batch.file)
      this.starts.push({ file: batch.file, first: this.lineBase + this.total - batch.firstRow });
    if (this.qidIds.length < n) {
      this.qidIds = new Int32Array(n);
      this.values = new Float64Array(n);
    }
    this.internQids(batch, n);
    this.readValues(batch, n);
    if (batch.tag) this.runTag = this.textAt(batch.tag, n - 1, batch, "tag");
    this.appendRows(batch, n);
    this.total += n;
  }

  /** As RunParser.takeQueries. */
  takeQueries(minRows: number): RowsOf<K> | null {
    const rows = this.rows;
    if (rows.count < minRows || rows.count === 0) return null;
    const qid = rows.qid;
    let k = rows.count - 1;
    const lastQ = qid[k];
    while (k > 0 && qid[k - 1] === lastQ) k--;
    if (k === 0) return null;
    return rowsOf(this.kind, rows.take(k), this.file, this.qidNames, this.runTag);
  }

  finish(): RowsOf<K> {
    return rowsOf(this.kind, this.rows.finish(), this.file, this.qidNames, this.runTag);
  }

  /** A row's "line" as its file and row there (from 1). */
  placeOf(line: number): { file: string; row: number } {
    let s = this.starts[0] ?? { file: this.file, first: 0 };
    for (const x of this.starts) if (x.first < line) s = x;
    return { file: s.file, row: line - s.first };
  }

  private fail(batch: ColumnBatch, i: number, role: Role | "tag", reason: string): never {
    throw rowError(batch.file, batch.firstRow + i, columnName(batch, role), reason);
  }

  /** The interner is asked only when a query id differs from the row before's. */
  private internQids(batch: ColumnBatch, n: number) {
    const col = batch.qid;
    const out = this.qidIds;
    if (col.kind === "utf8") {
      let prevStart = -1;
      let prevEnd = -1;
      let prevId = -1;
      for (let i = 0; i < n; i++) {
        if (col.valid && !col.valid(i)) this.fail(batch, i, "qid", "the query id is null");
        const a = col.offsets[i];
        const b = col.offsets[i + 1];
        if (prevId < 0 || b - a !== prevEnd - prevStart || !sameBytes(col.bytes, a, prevStart, b - a)) {
          if (a === b) this.fail(batch, i, "qid", "the query id is empty");
          prevId = this.qidNames.intern(col.bytes, a, b);
          prevStart = a;
          prevEnd = b;
        }
        out[i] = prevId;
      }
      this.prevQid = undefined;
      return;
    }
    if (col.kind === "constant") {
      const id = this.internAny(col.text, batch, 0, "qid");
      out.fill(id, 0, n);
      return;
    }
    for (let i = 0; i < n; i++) {
      const v = valueAt(col, i);
      if (v === this.prevQid && v !== undefined && v !== null) {
        out[i] = this.prevQidId;
        continue;
      }
      const id = this.internAny(v, batch, i, "qid");
      this.prevQid = v;
      this.prevQidId = id;
      out[i] = id;
    }
  }

  private internAny(v: unknown, batch: ColumnBatch, i: number, role: Role) {
    const len = this.idBytes(v, batch, i, role);
    return this.qidNames.intern(this.scratch, 0, len);
  }

  /** An id's bytes (a string as UTF-8, an integer in decimal) into `scratch`; returns the length. */
  private idBytes(v: unknown, batch: ColumnBatch, i: number, role: Role) {
    if (typeof v === "string") {
      if (v.length === 0) this.fail(batch, i, role, `the ${roleWhat(role, this.kind)} is empty`);
      let s = this.scratch;
      if (s.length < 3 * v.length) s = this.scratch = new Uint8Array(Math.max(3 * v.length, 2 * s.length));
      // ASCII, the usual ids, byte by byte.
      let k = 0;
      for (; k < v.length; k++) {
        const c = v.charCodeAt(k);
        if (c >= 0x80) break;
        s[k] = c;
      }
      if (k === v.length) return k;
      return utf8Encoder.encodeInto(v, s).written;
    }
    if (typeof v === "number") {
      if (!Number.isInteger(v))
        this.fail(batch, i, role, `the ${roleWhat(role, this.kind)} is ${v}, not an integer or a string`);
      return this.ascii(String(v));
    }
    if (typeof v === "bigint") return this.ascii(v.toString());
    if (v instanceof Uint8Array) {
      if (v.length === 0) this.fail(batch, i, role, `the ${roleWhat(role, this.kind)} is empty`);
      if (this.scratch.length < v.length) this.scratch = new Uint8Array(2 * v.length);
      this.scratch.set(v);
      return v.length;
    }
    if (v === null || v === undefined) this.fail(batch, i, role, `the ${roleWhat(role, this.kind)} is null`);
    this.fail(batch, i, role, `the ${roleWhat(role, this.kind)} is ${describe(v)}: ids must be strings or integers`);
  }

  private ascii(text: string) {
    const s = this.scratch;
    for (let k = 0; k < text.length; k++) s[k] = text.charCodeAt(k);
    return text.length;
  }

  /** Finite numbers (a bigint as text would be). */
  private readValues(batch: ColumnBatch, n: number) {
    const col = batch.value;
    const out = this.values;
    const what = roleWhat("value", this.kind);
    if (col.kind === "values") {
      const values = col.values;
      const big = values instanceof BigInt64Array || values instanceof BigUint64Array;
      if (ArrayBuffer.isView(values) && !big && !(values instanceof DataView) && !col.valid) {
        for (let i = 0; i < n; i++) {
          const v = values[i] as number;
          if (v - v !== 0) this.fail(batch, i, "value", `the ${what} is ${v}, not a finite number`);
          out[i] = v;
        }
        return;
      }
      for (let i = 0; i < n; i++) out[i] = this.numberOf(col.valid && !col.valid(i) ? null : values[i], batch, i);
      return;
    }
    if (col.kind === "constant") {
      const v = Number(col.text);
      if (col.text.trim() === "" || !Number.isFinite(v))
        this.fail(batch, 0, "value", `the ${what} is ${JSON.stringify(col.text)} (from the path), not a number`);
      out.fill(v, 0, n);
      return;
    }
    for (let i = 0; i < n; i++) out[i] = this.numberOf(valueAt(col, i), batch, i);
  }

  private numberOf(v: unknown, batch: ColumnBatch, i: number) {
    const what = roleWhat("value", this.kind);
    if (typeof v === "number") {
      if (v - v !== 0) this.fail(batch, i, "value", `the ${what} is ${v}, not a finite number`);
      return v;
    }
    if (typeof v === "bigint") return Number(v);
    if (v === null || v === undefined) this.fail(batch, i, "value", `the ${what} is null`);
    this.fail(batch, i, "value", `the ${what} is ${describe(v)}, not a number`);
  }

  private textAt(col: ColumnValues, i: number, batch: ColumnBatch, role: "tag") {
    const v = valueAt(col, i);
    if (typeof v === "string") return v;
    if (typeof v === "number" || typeof v === "bigint") return String(v);
    if (v instanceof Uint8Array) return utf8Decoder.decode(v);
    if (v === null || v === undefined) this.fail(batch, i, role, "the run tag is null");
    this.fail(batch, i, role, `the run tag is ${describe(v)}`);
  }

  private appendRows(batch: ColumnBatch, n: number) {
    const rows = this.rows;
    const col = batch.docid;
    const qids = this.qidIds;
    const values = this.values;
    const line0 = this.lineBase + this.total + 1;
    rows.reserve(8 * n);
    if (col.kind === "utf8") {
      for (let i = 0; i < n; i++) {
        if (col.valid && !col.valid(i)) this.fail(batch, i, "docid", "the document id is null");
        const a = col.offsets[i];
        const b = col.offsets[i + 1];
        if (a === b) this.fail(batch, i, "docid", "the document id is empty");
        if (rows.used + (b - a) > rows.pool.length) rows.reserve(Math.max(b - a, 8 * (n - i)));
        rows.add(qids[i], col.bytes, a, b, values[i], line0 + i);
      }
      return;
    }
    for (let i = 0; i < n; i++) {
      const v = valueAt(col, i);
      const len = this.idBytes(v, batch, i, "docid");
      if (rows.used + len > rows.pool.length) rows.reserve(Math.max(len, 8 * (n - i)));
      rows.add(qids[i], this.scratch, 0, len, values[i], line0 + i);
    }
  }
}

function columnName(batch: ColumnBatch, role: Role | "tag") {
  return batch.names[role] ?? role;
}

/** Row i's value (null for a null). */
function valueAt(col: ColumnValues, i: number): unknown {
  if (col.kind === "constant") return col.text;
  if (col.valid && !col.valid(i)) return null;
  if (col.kind === "values") return col.values[i];
  if (col.kind === "utf8") return utf8Decoder.decode(col.bytes.subarray(col.offsets[i], col.offsets[i + 1]));
  return valueAt(col.dictionary, Number(col.indices[i]));
}

function sameBytes(buf: Uint8Array, a: number, b: number, len: number) {
  for (let k = 0; k < len; k++) if (buf[a + k] !== buf[b + k]) return false;
  return true;
}

function describe(v: unknown) {
  if (typeof v === "boolean") return `a boolean (${v})`;
  if (v instanceof Date) return `a date (${v.toISOString()})`;
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "a structure";
  return typeof v;
}

/** All the rows of a Parquet or Arrow file, as the text parsers give them: `await columnarRows(bytesSource(bytes), { file: "qrels.parquet", qids, kind: "qrels" })`. */
export async function columnarRows<K extends RowsKind>(
  source: ByteSource,
  o: ColumnarReadOptions<K> & { qids: Interner; format?: ColumnarFormat; runTag?: string },
): Promise<RowsOf<K>> {
  checkSource(source, "columnarRows");
  checkOptions(o, READ_OPTION_TYPES, "columnarRows");
  const head = async () => new Uint8Array(await source.slice(0, Math.min(8, source.byteLength)));
  const format = o.format ?? columnarFormatOf(await head());
  if (format === null)
    throw badInput(`${o.file}: not a Parquet or Arrow IPC file (it starts with ${show(await head())})`);
  const rows = new ColumnarRows({ file: o.file, qids: o.qids, kind: o.kind, runTag: o.runTag });
  await readColumnarSource(source, format, o, (b) => rows.add(b));
  return rows.finish();
}

/** Run rows cut before their last query: `head` (null if one query) and `tail` (copied). */
export function splitLastQuery(rows: RunRows): { head: RunRows | null; tail: RunRows } {
  const n = rows.length;
  let k = n - 1;
  while (k > 0 && rows.qid[k - 1] === rows.qid[n - 1]) k--;
  if (k === 0) return { head: null, tail: rows };
  return { head: sliceRows(rows, 0, k), tail: copyRows(sliceRows(rows, k, n)) };
}

/** Run rows cut after their first query: `first` (copied), `rest` (views; null if one query). */
export function splitFirstQuery(rows: RunRows): { first: RunRows; rest: RunRows | null } {
  const n = rows.length;
  let k = 1;
  while (k < n && rows.qid[k] === rows.qid[0]) k++;
  if (k === n) return { first: rows, rest: null };
  return { first: copyRows(sliceRows(rows, 0, k)), rest: sliceRows(rows, k, n) };
}

/** Rows [start, end) as views (document id offsets still into `bytes`). */
function sliceRows(rows: RunRows, start: number, end: number) {
  const { docids } = rows;
  return {
    ...rows,
    spans: undefined,
    qid: rows.qid.subarray(start, end),
    score: rows.score.subarray(start, end),
    docids: {
      bytes: docids.bytes,
      offsets: docids.offsets.subarray(start, end + 1),
      hashes: docids.hashes.subarray(start, end),
    },
    lines: linesOf(rows.lines, start, end),
    length: end - start,
  };
}

function copyRows(rows: RunRows) {
  const { docids } = rows;
  const base = docids.offsets[0];
  const end = docids.offsets[rows.length];
  const offsets = new Int32Array(rows.length + 1);
  for (let i = 0; i <= rows.length; i++) offsets[i] = docids.offsets[i] - base;
  return {
    ...rows,
    spans: undefined,
    qid: rows.qid.slice(),
    score: rows.score.slice(),
    docids: { bytes: docids.bytes.slice(base, end), offsets, hashes: docids.hashes.slice() },
    lines: { rows: rows.lines.rows.slice(), shifts: rows.lines.shifts.slice() },
  };
}

function linesOf(lines: RowLines, start: number, end: number) {
  const rows: number[] = [0];
  const shifts: number[] = [];
  let k = 0;
  while (k + 1 < lines.rows.length && lines.rows[k + 1] <= start) k++;
  shifts.push(lines.shifts[k] + start);
  for (k++; k < lines.rows.length && lines.rows[k] < end; k++) {
    rows.push(lines.rows[k] - start);
    shifts.push(lines.shifts[k] + start);
  }
  return { rows: Int32Array.from(rows), shifts: Int32Array.from(shifts) };
}

/** `a`'s rows then `b`'s, in new arrays (the query ids of both in one interner). */
export function concatRows(a: RunRows, b: RunRows): RunRows {
  if (a.length === 0) return b;
  const n = a.length + b.length;
  const qid = grow(a.qid, n);
  qid.set(b.qid, a.length);
  const score = grow(a.score, n);
  score.set(b.score, a.length);
  const aBase = a.docids.offsets[0];
  const aBytes = a.docids.offsets[a.length] - aBase;
  const bBase = b.docids.offsets[0];
  const bBytes = b.docids.offsets[b.length] - bBase;
  const bytes = new Uint8Array(aBytes + bBytes);
  bytes.set(a.docids.bytes.subarray(aBase, aBase + aBytes));
  bytes.set(b.docids.bytes.subarray(bBase, bBase + bBytes), aBytes);
  const offsets = new Int32Array(n + 1);
  for (let i = 0; i <= a.length; i++) offsets[i] = a.docids.offsets[i] - aBase;
  for (let i = 1; i <= b.length; i++) offsets[a.length + i] = aBytes + b.docids.offsets[i] - bBase;
  const hashes = grow(a.docids.hashes, n);
  hashes.set(b.docids.hashes, a.length);
  // Row r of b is row a.length + r here: its stretches start a.length later, shifts a.length less.
  const rows = Int32Array.from([...a.lines.rows, ...Array.from(b.lines.rows, (r) => r + a.length)]);
  const shifts = Int32Array.from([...a.lines.shifts, ...Array.from(b.lines.shifts, (s) => s - a.length)]);
  return { ...b, spans: undefined, qid, score, docids: { bytes, offsets, hashes }, lines: { rows, shifts }, length: n };
}
