/**
 * Qrels and runs as JSON in the ranx / pytrec_eval shape, `{ "q1": { "d1": 12.5 } }`, parsed chunk by chunk:
 * an object of objects of finite numbers, ids with any JSON escape (stored as UTF-8). Anything else, or a
 * query or document given twice (JSON keeps the last: here a mistake), is an InputError at its line and column.
 *
 * @example
 * ```ts
 * const p = new JsonParser({ file: "run.json", qids: new Interner(), kind: "run", runTag: "bm25" });
 * p.push(new TextEncoder().encode('{"q1": {"d1": 2.5, "d2": 1}}'));
 * ```
 */
import {
  checkChunk,
  checkOptions,
  COUNT,
  InputError,
  oneOf,
  required,
  STRING as A_STRING,
  usageError,
  type OptionType,
} from "../errors/errors.js";
import { INTERNER, type Interner } from "./interner.js";
import type { QrelsRows } from "./qrels.js";
import type { RunRows } from "./run.js";
import { grow, RowsBuilder, rowHash } from "./rows.js";
import { rowsOf } from "./columnar.js";
import { parseFinite } from "./decimal.js";
import { InputHead, MAX_LINE_BYTES, notText, quote, tooLong } from "./line-parser.js";

export type RowsKind = "qrels" | "run";
export type RowsOf<K extends RowsKind> = K extends "qrels" ? QrelsRows : RunRows;

export interface JsonParserOptions<K extends RowsKind> {
  file: string;
  /** Interner for query ids (shared with the other side's parser). */
  qids: Interner;
  /** Judgments (`rel`) or a run (scores). */
  kind: K;
  runTag?: string;
  /** The input's size, if known: room made up front. */
  expectedBytes?: number;
}

export const JSON_OPTION_TYPES: Readonly<Record<keyof JsonParserOptions<RowsKind>, OptionType>> = {
  file: required(A_STRING),
  qids: INTERNER,
  kind: required(oneOf(["qrels", "run"])),
  runTag: A_STRING,
  expectedBytes: COUNT,
};

/** The JSON and CSV/TSV parsers (byte by byte: a value or record may span lines); an error is thrown again by every later call. */
export abstract class JsonCsvRowsParser<K extends RowsKind> {
  /** The byte being read's offset; `reservedAt`: at the last reserve(). */
  protected abs = 0;
  protected line = 1;
  protected lineStart = 0;
  private reservedAt = 0;
  private finished = false;
  private error: unknown = null;
  private readonly inputHead = new InputHead();
  protected readonly file: string;
  protected readonly kind: K;
  protected readonly runTag: string;
  protected readonly qidNames: Interner;
  protected readonly rows: RowsBuilder;

  constructor(options: JsonParserOptions<K>, types: Readonly<Record<string, OptionType>>, call: string) {
    checkOptions(options, types, call);
    this.file = options.file;
    this.kind = options.kind;
    this.runTag = options.runTag ?? "";
    this.qidNames = options.qids;
    this.rows = new RowsBuilder(options.expectedBytes ?? 0);
  }

  protected abstract feed(chunk: Uint8Array): void;
  protected abstract end(): void;

  push(chunk: Uint8Array) {
    if (this.error !== null) throw this.error;
    checkChunk(chunk, this.file, this.finished);
    this.guard("push() after finish()", () => this.inputHead.pass(chunk, (bytes) => this.feed(bytes)));
  }

  finish(): RowsOf<K> {
    this.guard("finish() called twice", () => {
      if (this.inputHead.pending) this.feed(this.inputHead.held());
      this.end();
    });
    this.finished = true;
    return rowsOf(this.kind, this.rows.finish(), this.file, this.qidNames, this.runTag);
  }

  private guard(late: string, f: () => void) {
    if (this.error !== null) throw this.error;
    if (this.finished) throw usageError(`${this.file}: ${late}: a parser reads one input`);
    try {
      f();
    } catch (e) {
      this.error = this.inputHead.explain(e);
      throw this.error;
    }
  }

  /** Throws at the byte being read; `shift` moves the column (-1: the CR before it). */
  protected fail(reason: string, shift = 0): never {
    throw new InputError(this.file, this.line, this.abs - this.lineStart + 1 + shift, reason);
  }

  protected reserve(len: number) {
    const rows = this.rows;
    if (rows.count + 1 > rows.qid.length || rows.used + len > rows.pool.length) {
      rows.reserve(Math.max(len, this.abs - this.reservedAt));
      this.reservedAt = this.abs;
    }
  }
}

// States, then inside tokens.
const TOP = 0;
const QKEY_OR_END = 1;
const QKEY = 2;
const QCOLON = 3;
const QOPEN = 4;
const DKEY_OR_END = 5;
const DKEY = 6;
const DCOLON = 7;
const VALUE = 8;
const DNEXT = 9;
const QNEXT = 10;
const END = 11;
const STRING = 12;
const ESCAPE = 13;
const UNICODE = 14;
const NUMBER = 15;
const BOM1 = 16; // after 0xEF at the start (BOM2: 0xEF 0xBB)
const BOM2 = 17;

const QUOTE = 34;
const BACKSLASH = 92;
const LBRACE = 123;
const RBRACE = 125;
const COMMA = 44;
const COLON = 58;
const LF = 10;

export function describeByte(c: number): string {
  if (c === 39) return `"'"`;
  if (c > 32 && c < 127) return `'${String.fromCharCode(c)}'`;
  if (c === 32) return "a space";
  return `byte 0x${c.toString(16).padStart(2, "0").toUpperCase()}`;
}

/** True when b[0, n) is a number in JSON's grammar: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
function isJsonNumber(b: Uint8Array, n: number) {
  let p = 0;
  if (b[p] === 45) p++;
  if (p >= n) return false;
  const digit = (i: number) => i < n && b[i] >= 48 && b[i] <= 57;
  if (b[p] === 48) p++;
  else if (digit(p)) while (digit(p)) p++;
  else return false;
  if (p < n && b[p] === 46) {
    p++;
    if (!digit(p)) return false;
    while (digit(p)) p++;
  }
  if (p < n && (b[p] === 101 || b[p] === 69)) {
    p++;
    if (p < n && (b[p] === 43 || b[p] === 45)) p++;
    if (!digit(p)) return false;
    while (digit(p)) p++;
  }
  return p === n;
}

/** Bytes that may continue a number (its grammar is checked once it ends). */
function numberByte(c: number) {
  return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;
}

/** What each state from TOP to END expects, for errors (`q` names the query, `d` the document). */
const EXPECTS: readonly ((q: () => string, d: () => string) => string)[] = [
  () => "'{'",
  () => "a query id (a string) or '}'",
  () => "a query id (a string)",
  (q) => `':' after query ${q()}`,
  (q) => `'{' (the documents of query ${q()})`,
  (q) => `a document id (a string) or '}' in query ${q()}`,
  (q) => `a document id (a string) in query ${q()}`,
  (_, d) => `':' after ${d()}`,
  (_, d) => `a number for ${d()}`,
  (_, d) => `',' or '}' after ${d()}`,
  (q) => `',' or '}' after the documents of query ${q()}`,
  () => "the end of the file after the JSON object",
];

export class JsonParser<K extends RowsKind> extends JsonCsvRowsParser<K> {
  constructor(options: JsonParserOptions<K>) {
    super(options, JSON_OPTION_TYPES, "JsonParser");
  }

  private state = TOP;
  /** The state a finished string or number returns to. */
  private after = 0;
  /** Where the current token started (line, column, byte offset), for its errors. */
  private tokLine = 0;
  private tokCol = 0;
  private tokAt = 0;

  /** The id being read (escapes resolved, UTF-8). */
  private id = new Uint8Array(256);
  private idLen = 0;
  private num = new Uint8Array(32);
  private numLen = 0;
  /** \uXXXX: digits read and value so far; a high surrogate waiting for its low half (0: none). */
  private hexDigits = 0;
  private hexValue = 0;
  private high = 0;

  private qid = -1;
  private queryFirstRow = 0;
  private seenQuery = new Uint8Array(64);
  /** The query's documents by hash: stamp[slot] === generation (bumped per query) marks a used slot. */
  private slots = new Int32Array(64);
  private stamps = new Int32Array(64);
  private generation = 1;
  private inQuery = 0;

  /** Where the current document id started (a number's token replaces tokLine/tokCol). */
  private docIdLine = 0;
  private docIdCol = 0;

  protected end() {
    if (this.state === NUMBER) this.endNumber();
    if (this.state !== END) this.failEnd();
  }

  protected feed(buf: Uint8Array) {
    const base = this.abs;
    const n = buf.length;
    for (let p = 0; p < n; ) {
      const c = buf[p];
      switch (this.state) {
        case STRING: {
          let id = this.id;
          let len = this.idLen;
          let q = p;
          if (this.high === 0) {
            while (q < n) {
              const b = buf[q];
              if (b === QUOTE || b === BACKSLASH || b < 32) break;
              if (len === id.length) {
                this.idLen = len;
                id = this.growId(len + 1);
              }
              id[len++] = b;
              q++;
            }
          }
          this.idLen = len;
          p = q;
          if (p === n) break;
          const b = buf[p];
          this.abs = base + p;
          if (this.high !== 0 && b !== BACKSLASH) this.unpaired(this.high);
          if (b === QUOTE) {
            this.state = this.after;
            this.endId();
          } else if (b === BACKSLASH) this.state = ESCAPE;
          else if (b === LF) this.fail(`${this.idWhat()} is not closed: a line ends inside it`);
          else if (b === 0) this.fail(notText(0, this.abs));
          else this.fail(`control character ${describeByte(b)} in ${this.idWhat()}: write it as an escape`);
          p++;
          continue;
        }
        case NUMBER:
          if (numberByte(c)) {
            if (this.numLen === this.num.length) {
              if (this.numLen >= MAX_LINE_BYTES) this.tokenTooLong("a number");
              this.num = grow(this.num, 2 * this.num.length);
            }
            this.num[this.numLen++] = c;
            p++;
            continue;
          }
          this.abs = base + p;
          this.endNumber();
          continue; // the byte after the number is read in state DNEXT
        case ESCAPE: {
          this.abs = base + p;
          if (this.high !== 0 && c !== 117) this.unpaired(this.high);
          let v = -1;
          if (c === QUOTE || c === BACKSLASH || c === 47) v = c;
          else if (c === 98) v = 8;
          else if (c === 102) v = 12;
          else if (c === 110) v = 10;
          else if (c === 114) v = 13;
          else if (c === 116) v = 9;
          else if (c === 117) {
            this.state = UNICODE;
            this.hexDigits = 0;
            this.hexValue = 0;
            p++;
            continue;
          } else {
            const esc = c > 32 && c < 127 ? `'\\${String.fromCharCode(c)}'` : `'\\' followed by ${describeByte(c)}`;
            this.fail(`invalid escape ${esc} in ${this.idWhat()}`);
          }
          this.idByte(v);
          this.state = STRING;
          p++;
          continue;
        }
        case UNICODE: {
          this.abs = base + p;
          const h = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;
          if (h < 0) this.fail(`expected 4 hex digits after \\u in ${this.idWhat()}, found ${describeByte(c)}`);
          this.hexValue = this.hexValue * 16 + h;
          if (++this.hexDigits === 4) {
            this.codePoint(this.hexValue);
            this.state = STRING;
          }
          p++;
          continue;
        }
        case BOM1:
        case BOM2:
          this.abs = base + p;
          if (c !== (this.state === BOM1 ? 0xbb : 0xbf)) this.badBom();
          this.state = this.state === BOM1 ? BOM2 : TOP;
          if (this.state === TOP) this.lineStart = base + p + 1; // the BOM is not part of line 1's columns
          p++;
          continue;
      }
      if (c === 32 || c === 9 || c === 13) {
        p++;
        continue;
      }
      if (c === LF) {
        this.line++;
        this.lineStart = base + p + 1;
        p++;
        continue;
      }
      this.abs = base + p;
      this.token(c);
      p++;
    }
    this.abs = base + n;
  }

  private token(c: number) {
    switch (this.state) {
      case TOP:
        if (c === LBRACE) this.state = QKEY_OR_END;
        else if (c === 0xef && this.abs === 0) this.state = BOM1;
        else this.unexpected(c);
        return;
      case QKEY_OR_END:
      case QKEY:
      case DKEY_OR_END:
      case DKEY: {
        const doc = this.state >= DKEY_OR_END;
        if (c === QUOTE) this.startId(doc ? DCOLON : QCOLON);
        else if (c === RBRACE && (this.state === QKEY_OR_END || this.state === DKEY_OR_END))
          this.state = doc ? QNEXT : END;
        else this.unexpected(c);
        return;
      }
      case QCOLON:
      case DCOLON:
        if (c !== COLON) this.unexpected(c);
        this.state = this.state === QCOLON ? QOPEN : VALUE;
        return;
      case QOPEN:
        if (c !== LBRACE) this.unexpected(c);
        this.state = DKEY_OR_END;
        return;
      case VALUE:
        if (c !== 45 && !(c >= 48 && c <= 57)) this.unexpected(c);
        this.tokLine = this.line;
        this.tokCol = this.abs - this.lineStart + 1;
        this.tokAt = this.abs;
        this.num[0] = c;
        this.numLen = 1;
        this.state = NUMBER;
        return;
      case DNEXT:
      case QNEXT:
        if (c === COMMA) this.state = this.state === DNEXT ? DKEY : QKEY;
        else if (c === RBRACE) this.state = this.state === DNEXT ? QNEXT : END;
        else this.unexpected(c);
        return;
      case END:
        this.unexpected(c);
    }
  }

  private startId(after: number) {
    this.tokLine = this.line;
    this.tokCol = this.abs - this.lineStart + 1;
    this.tokAt = this.abs;
    this.idLen = 0;
    this.high = 0;
    this.after = after;
    this.state = STRING;
    if (after === DCOLON) {
      this.docIdLine = this.tokLine;
      this.docIdCol = this.tokCol;
    }
  }

  /** A query id (after = QCOLON) or a document id closed. */
  private endId() {
    if (this.after === QCOLON) {
      const q = this.qidNames.intern(this.id, 0, this.idLen);
      if (q >= this.seenQuery.length) this.seenQuery = grow(this.seenQuery, Math.max(2 * this.seenQuery.length, q + 1));
      if (this.seenQuery[q]) this.failToken(`query ${this.queryName(q)} appears twice`);
      this.seenQuery[q] = 1;
      this.qid = q;
      this.queryFirstRow = this.rows.count;
      this.generation++;
      this.inQuery = 0;
    }
  }

  private endNumber() {
    const num = this.num;
    const n = this.numLen;
    const what = () => `document ${this.docName()} of query ${this.queryName()}`;
    if (!isJsonNumber(num, n)) this.failToken(`expected a number for ${what()}, found ${quote(num, 0, n)}`);
    const v = parseFinite(num, 0, n);
    if (v !== v) this.failToken(`the number ${quote(num, 0, n)} for ${what()} is not finite`);
    this.addRow(v);
    this.state = DNEXT;
  }

  private addRow(value: number) {
    const len = this.idLen;
    this.reserve(len);
    this.checkDuplicate(rowHash(this.id, 0, len));
    this.rows.add(this.qid, this.id, 0, len, value, this.docIdLine);
    this.inQuery++;
  }

  /** Rejects a document id the query already has (a hash table of its rows). */
  private checkDuplicate(hash: number) {
    if (2 * (this.inQuery + 1) > this.slots.length) this.rehash();
    const rows = this.rows;
    const mask = this.slots.length - 1;
    let s = Math.imul(hash, 0x9e3779b1) >>> 0;
    s &= mask;
    const pool = rows.pool;
    const off = rows.offsets;
    const id = this.id;
    const len = this.idLen;
    for (;;) {
      if (this.stamps[s] !== this.generation) break;
      const r = this.slots[s];
      if (rows.hashes[r] === hash && off[r + 1] - off[r] === len) {
        let i = 0;
        const o = off[r];
        while (i < len && pool[o + i] === id[i]) i++;
        if (i === len) {
          this.tokLine = this.docIdLine;
          this.tokCol = this.docIdCol;
          this.failToken(`document ${this.docName()} appears twice for query ${this.queryName()}`);
        }
      }
      s = (s + 1) & mask;
    }
    this.stamps[s] = this.generation;
    this.slots[s] = rows.count; // the row about to be added
  }

  private rehash() {
    const size = this.slots.length * 2;
    this.slots = new Int32Array(size);
    this.stamps = new Int32Array(size);
    this.generation = 1;
    const mask = size - 1;
    const hashes = this.rows.hashes;
    for (let r = this.queryFirstRow; r < this.rows.count; r++) {
      let s = (Math.imul(hashes[r], 0x9e3779b1) >>> 0) & mask;
      while (this.stamps[s] === 1) s = (s + 1) & mask;
      this.stamps[s] = 1;
      this.slots[s] = r;
    }
  }

  private idByte(v: number) {
    if (this.idLen === this.id.length) this.growId(this.idLen + 1);
    this.id[this.idLen++] = v;
  }

  private growId(need: number) {
    if (need > MAX_LINE_BYTES) this.tokenTooLong(this.idWhat());
    this.id = grow(this.id, Math.max(need, 2 * this.id.length), this.idLen);
    return this.id;
  }

  /** A \uXXXX escape's value as UTF-8, surrogate pairs combined. */
  private codePoint(v: number) {
    if (this.high !== 0) {
      if (v < 0xdc00 || v > 0xdfff) this.unpaired(this.high);
      v = 0x10000 + ((this.high - 0xd800) << 10) + (v - 0xdc00);
      this.high = 0;
    } else if (v >= 0xd800 && v <= 0xdbff) {
      this.high = v;
      return;
    } else if (v >= 0xdc00 && v <= 0xdfff) this.unpaired(v);
    if (v < 0x80) this.idByte(v);
    else if (v < 0x800) {
      this.idByte(0xc0 | (v >> 6));
      this.idByte(0x80 | (v & 63));
    } else if (v < 0x10000) {
      this.idByte(0xe0 | (v >> 12));
      this.idByte(0x80 | ((v >> 6) & 63));
      this.idByte(0x80 | (v & 63));
    } else {
      this.idByte(0xf0 | (v >> 18));
      this.idByte(0x80 | ((v >> 12) & 63));
      this.idByte(0x80 | ((v >> 6) & 63));
      this.idByte(0x80 | (v & 63));
    }
  }

  private unpaired(v: number): never {
    this.fail(`unpaired surrogate \\u${v.toString(16).toUpperCase()} in ${this.idWhat()}`);
  }

  private idWhat() {
    return this.after === QCOLON ? "a query id" : `a document id of query ${this.queryName()}`;
  }

  private queryName(q = this.qid) {
    const name = this.qidNames.stringOf(q);
    return JSON.stringify(name.length > 40 ? name.slice(0, 40) + "…" : name);
  }

  private docName() {
    return quote(this.id, 0, this.idLen);
  }

  private expected() {
    const q = () => this.queryName();
    const says = EXPECTS[this.state] ?? (() => `the closing '"' of ${this.idWhat()}`);
    return says(q, () => `document ${this.docName()} of query ${q()}`);
  }

  private unexpected(c: number): never {
    if (c === 0) this.fail(notText(0, this.abs));
    this.fail(`expected ${this.expected()}, found ${describeByte(c)}`);
  }

  /** A file starting with 0xEF but no whole BOM. */
  private badBom(): never {
    this.abs = 0;
    this.lineStart = 0;
    this.state = TOP;
    this.unexpected(0xef);
  }

  private failEnd(): never {
    if (this.state === BOM1 || this.state === BOM2) this.badBom();
    this.fail(`expected ${this.expected()}, found the end of the file`);
  }

  /** The id or number being read is past MAX_LINE_BYTES. */
  private tokenTooLong(what: string): never {
    throw tooLong(this.file, this.tokLine, this.tokCol, what, this.tokAt);
  }

  private failToken(reason: string): never {
    throw new InputError(this.file, this.tokLine, this.tokCol, reason);
  }
}
