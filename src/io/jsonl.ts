/**
 * Qrels and runs as JSON lines (`.jsonl`, `.ndjson`): one JSON object a line, as LLM judges write them
 * (UMBRELA: `{"qid": "1", "docid": "d7", "judgment": 2, "result_status": 1, "prompt": "...", ...}`).
 * Fields are named as CSV/TSV columns are (pickColumns: `columns`, else DEFAULT_COLUMNS' first present),
 * from the first object's keys, as a header; every later object must hold those fields. Ids are strings
 * or integers; values numbers or decimal strings. A row whose `result_status` is present and not 1 (an
 * UMBRELA judgment that failed: its label is a fallback 0, not the judge's) is skipped and counted
 * (`skipped` on the rows). Streamed a line at a time: memory holds one line, not the file.
 *
 * @example
 * ```ts
 * const p = new JsonlParser({ file: "umbrela.jsonl", qids: new Interner(), kind: "qrels" });
 * p.push(new TextEncoder().encode('{"qid": "q1", "docid": "d1", "judgment": 2, "result_status": 1}\n'));
 * ```
 */
import { InputError, type OptionType, RankevalError, shortened } from "../errors/errors.js";
import { pickColumns, RESULT_STATUS, roleWhat, type ColumnNames, type Role } from "./column-names.js";
import { parseFinite } from "./decimal.js";
import { DELIMITED_OPTION_TYPES, type DelimitedParserOptions } from "./delimited.js";
import { JsonCsvRowsParser, type RowsKind, type RowsOf } from "./json.js";
import { MAX_LINE_BYTES, tooLong } from "./line-parser.js";
import { grow } from "./rows.js";

export type JsonlParserOptions<K extends RowsKind> = Omit<DelimitedParserOptions<K>, "delimiter">;

/** DelimitedParser's options but the delimiter (checkOptions refuses it). */
const JSONL_OPTION_TYPES: Readonly<Record<keyof JsonlParserOptions<RowsKind>, OptionType>> = {
  file: DELIMITED_OPTION_TYPES.file,
  qids: DELIMITED_OPTION_TYPES.qids,
  kind: DELIMITED_OPTION_TYPES.kind,
  runTag: DELIMITED_OPTION_TYPES.runTag,
  expectedBytes: DELIMITED_OPTION_TYPES.expectedBytes,
  columns: DELIMITED_OPTION_TYPES.columns,
  hint: DELIMITED_OPTION_TYPES.hint,
};

const BOM = "\uFEFF";
const utf8Encoder = new TextEncoder();
const FAILED = `with ${RESULT_STATUS} not 1 (the judge failed)`;

export class JsonlParser<K extends RowsKind> extends JsonCsvRowsParser<K> {
  private readonly columns: ColumnNames;
  private readonly hint: string;
  private readonly decoder = new TextDecoder("utf-8");
  /** The line begun in an earlier chunk. */
  private carry = "";
  private carryBytes = 0;
  /** The fields of each role, from the first object's keys (null until it is read). */
  private names: { qid: string; docid: string; value: string } | null = null;
  private namesLine = 0;
  private skipped = 0;
  private firstSkipped = 0;
  /** The last row's query id and its interned number (a file lists a query's rows together). */
  private lastQid: string | null = null;
  private lastQidId = -1;
  private docid = new Uint8Array(256);

  constructor(options: JsonlParserOptions<K>) {
    super(options, JSONL_OPTION_TYPES, "JsonlParser");
    this.columns = options.columns ?? {};
    if (this.kind === "run" && this.columns.tag !== undefined) {
      throw new RankevalError(
        "bad-option",
        `${this.file}: a run tag column (tag=${this.columns.tag}) is read from Parquet and Arrow files only; ` +
          "a JSON lines run's tag is its file's name",
      );
    }
    this.hint = options.hint === undefined ? "" : `; ${options.hint}`;
  }

  protected feed(chunk: Uint8Array) {
    // A JSON string holds no raw line feed (it must be escaped), so every LF ends a line.
    const text = this.decoder.decode(chunk, { stream: true });
    let start = 0;
    for (;;) {
      const nl = text.indexOf("\n", start);
      if (nl < 0) break;
      const line = this.carry === "" ? text.slice(start, nl) : this.carry + text.slice(start, nl);
      this.carry = "";
      this.carryBytes = 0;
      this.row(line);
      this.line++;
      start = nl + 1;
    }
    if (start < text.length) {
      this.carry += text.slice(start);
      this.carryBytes += chunk.length;
      if (this.carryBytes > MAX_LINE_BYTES) throw tooLong(this.file, this.line, 1, "the line", this.abs);
    }
    this.abs += chunk.length;
  }

  protected end() {
    this.carry += this.decoder.decode();
    if (this.carry !== "") this.row(this.carry);
    this.carry = "";
  }

  finish(): RowsOf<K> {
    const rows = super.finish();
    return this.skipped > 0
      ? { ...rows, skipped: { count: this.skipped, line: this.firstSkipped, which: FAILED } }
      : rows;
  }

  private row(text: string) {
    if (this.line === 1 && text.startsWith(BOM)) text = text.slice(1);
    if (text.trim() === "") return;
    let o: unknown;
    try {
      o = JSON.parse(text);
    } catch (e) {
      // V8 says the position; never the whole line (a judge's prompt is long).
      const message = String((e as Error).message).replace(/, (\.\.\.)?".*" is not valid JSON$/s, "");
      const at = /at position (\d+)/.exec(message);
      const reason = `expected one JSON object a line (JSON lines): ${message.replace(/ in JSON at position \d+/, "")}`;
      throw new InputError(this.file, this.line, at ? Number(at[1]) + 1 : 1, reason);
    }
    if (o === null || typeof o !== "object" || Array.isArray(o)) {
      const what = o === null ? "null" : Array.isArray(o) ? "an array" : `a ${typeof o}`;
      this.fail(`expected one JSON object a line (JSON lines), found ${what}`);
    }
    const row = o as Record<string, unknown>;
    const status = row[RESULT_STATUS];
    if (status !== undefined && status !== 1) {
      if (this.skipped++ === 0) this.firstSkipped = this.line;
      return;
    }
    const names = this.names ?? this.header(row);
    const qid = this.id(row, names.qid, "qid");
    const value = this.value(row, names.value);
    const len = this.docidBytes(this.id(row, names.docid, "docid"));
    if (qid !== this.lastQid) {
      this.lastQid = qid;
      this.lastQidId = this.qidNames.internString(qid);
    }
    this.reserve(len);
    this.rows.add(this.lastQidId, this.docid, 0, len, value, this.line);
  }

  /** The first object's keys name the fields, as a CSV header does. */
  private header(row: Record<string, unknown>) {
    const keys = Object.keys(row);
    const p = pickColumns(keys, this.kind, this.columns);
    const has = keys.length ? keys.map((k) => JSON.stringify(shortened(k))).join(", ") : "no fields";
    if ("missing" in p) {
      const reason = `the object has no ${roleWhat(p.missing, this.kind)} field (looked for ${p.looked}; it has ${has})`;
      this.fail(reason + this.hint);
    }
    if ("twice" in p) {
      const [a, b] = p.twice;
      this.fail(
        `field ${JSON.stringify(p.name)} cannot be both the ${roleWhat(a, this.kind)} and the ${roleWhat(b, this.kind)}`,
      );
    }
    this.names = { qid: keys[p.qid], docid: keys[p.docid], value: keys[p.value] };
    this.namesLine = this.line;
    return this.names;
  }

  private missing(role: Role, name: string): never {
    const what = roleWhat(role, this.kind);
    this.fail(
      `no ${JSON.stringify(name)} field: expected the ${what} in every object, named so as on line ${this.namesLine}`,
    );
  }

  /** A string, or an integer as JSON writes it; never empty. */
  private id(row: Record<string, unknown>, name: string, role: "qid" | "docid"): string {
    const v = row[name];
    if (typeof v === "string") {
      if (v === "") this.fail(`empty ${roleWhat(role, this.kind)} (field ${JSON.stringify(name)})`);
      return v;
    }
    if (typeof v === "number" && Number.isSafeInteger(v)) return String(v);
    if (v === undefined) this.missing(role, name);
    this.fail(
      `the ${roleWhat(role, this.kind)} (field ${JSON.stringify(name)}) is ${describe(v)}: expected a string or an integer`,
    );
  }

  /** A finite number, or a string holding one (as CSV's). */
  private value(row: Record<string, unknown>, name: string): number {
    const v = row[name];
    if (typeof v === "number") return v; // JSON.parse gives no NaN or Infinity
    if (typeof v === "string") {
      const b = utf8Encoder.encode(v.trim());
      const x = parseFinite(b, 0, b.length);
      if (x === x) return x;
    }
    if (v === undefined) this.missing("value", name);
    this.fail(
      `the ${roleWhat("value", this.kind)} (field ${JSON.stringify(name)}) is ${describe(v)}: expected a number`,
    );
  }

  /** `s` as UTF-8 in this.docid; its length. */
  private docidBytes(s: string): number {
    const n = s.length;
    if (3 * n > this.docid.length) this.docid = grow(this.docid, Math.max(3 * n, 2 * this.docid.length));
    const b = this.docid;
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) break;
      b[i] = c;
    }
    return i === n ? n : i + utf8Encoder.encodeInto(s.slice(i), b.subarray(i)).written;
  }

  protected fail(reason: string): never {
    throw new InputError(this.file, this.line, 0, reason);
  }
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "string") return JSON.stringify(shortened(v));
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return Array.isArray(v) ? "an array" : "an object";
}
