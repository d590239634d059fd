/**
 * What every line-oriented parser shares: chunks split anywhere, a UTF-8 BOM, line numbers, splitting a
 * line into whitespace-separated fields, and errors that name file:line:column.
 *
 * Complete lines are parsed in place in the caller's chunk; only the unfinished line at the end of a
 * chunk is copied (into `carry`) and completed from the next chunk. A parser subclass implements
 * `parseLines(buf, start, end)` over a range of whole lines: buf[end - 1] is always '\n', so its loops
 * can stop at '\n' without checking bounds. finish() supplies the missing '\n' of a last line. By default
 * it reads every line as fields (fieldLine), handing each row to `row`.
 */
import { checkChunk, InputError, usageError } from "../errors/errors.js";
import { Float64Column } from "./columns.js";
import { numberProblem, parseFinite } from "./_number.js";

export const LF = 10;
export const CR = 13;
export const SPACE = 32;
export const TAB = 9;
export const HASH = 35;
const BOM = [0xef, 0xbb, 0xbf];

/** The most fields a parser asks tokenize() to record; further fields are only counted. */
const MAX_FIELDS = 8;

const utf8Decoder = new TextDecoder("utf-8");

export abstract class LineParser {
  protected readonly file: string;
  /** 1-based number of the line being parsed. */
  protected line = 1;

  /** Set by tokenize(): start and end (exclusive) of field i at [2i] and [2i + 1], for i < MAX_FIELDS. */
  protected readonly fields: Int32Array = new Int32Array(2 * MAX_FIELDS);
  /** Set by tokenize(): how many fields the line has (0 for a blank or comment line). */
  protected nFields = 0;
  /** Set by tokenize(): index of the line's first byte, and of its '\n' (or of the '\r' of "\r\n"). */
  protected lineStart = 0;
  protected lineEnd = 0;

  private carry = new Uint8Array(1024);
  private carryLen = 0;
  /** The first bytes of the input, held until we know whether they are a BOM. */
  private head = new Uint8Array(3);
  private headLen = 0;
  private started = false;
  private finished = false;
  /** The first error thrown: an input is bad once, so push() and finish() throw it again after. */
  private error: unknown = null;

  /** `maxFields`: how many fields of a line fieldLine records (at most MAX_FIELDS; one more than a row has). */
  constructor(
    file: string,
    private readonly maxFields = MAX_FIELDS,
  ) {
    this.file = file;
  }

  /** Lines parsed so far, for progress reports. */
  get linesRead(): number {
    return this.line - 1;
  }

  /**
   * Parses the next piece of the input. Chunks may split the input anywhere; the parser keeps no
   * reference to a chunk after push() returns.
   */
  push(chunk: Uint8Array): void {
    if (this.error !== null) throw this.error;
    checkChunk(chunk, this.file, this.finished);
    if (!this.started) {
      let i = 0;
      while (this.headLen < 3 && i < chunk.length && chunk[i] === BOM[this.headLen]) {
        this.head[this.headLen++] = chunk[i++];
      }
      if (this.headLen < 3 && i === chunk.length) return; // all BOM so far: wait for more
      this.started = true;
      if (this.headLen < 3) this.feed(this.head.subarray(0, this.headLen)); // a prefix of a BOM is data
      chunk = chunk.subarray(i);
    }
    this.feed(chunk);
  }

  /** Parses what remains (a last line without '\n'). */
  protected finishLines(): void {
    if (this.error !== null) throw this.error;
    if (this.finished) throw usageError(`${this.file}: finish() called twice: a parser reads one input`);
    if (!this.started) {
      this.started = true;
      this.feed(this.head.subarray(0, this.headLen));
    }
    this.finished = true;
    if (this.carryLen > 0) {
      this.append(new Uint8Array([LF]), 0, 1);
      this.lines(this.carry, 0, this.carryLen);
      this.carryLen = 0;
    }
  }

  /** Parses the whole lines in buf[start, end); buf[end - 1] is '\n'. Increments `line` per line. */
  protected parseLines(buf: Uint8Array, p: number, end: number): void {
    while (p < end) p = this.fieldLine(buf, p);
  }

  /**
   * Parses any line as fields (tokenize), hands one that is neither blank nor a comment to row(), and
   * counts it; returns the index after its '\n'. Every error a line can have is found here.
   */
  protected fieldLine(buf: Uint8Array, p: number): number {
    const next = this.tokenize(buf, p, this.maxFields);
    if (this.nFields !== 0) this.row(buf, this.fields, this.nFields);
    this.line++;
    return next;
  }

  /** A line's fields: [2i, 2i + 1] are field i's start and end in buf, `n` of them (fieldLine). */
  protected row(_buf: Uint8Array, _fields: Int32Array, _n: number): void {}

  /** Field i of the line as a finite number, else the error naming it `what`. */
  protected numberField(buf: Uint8Array, i: number, what: string): number {
    const f = this.fields;
    const v = parseFinite(buf, f[2 * i], f[2 * i + 1]);
    if (v !== v) this.failNumber(buf, f[2 * i], f[2 * i + 1], what);
    return v;
  }

  /**
   * Called after each parseLines, while buf is still valid: where a parser finishes work it queued
   * on buf. (Kept out of parseLines: V8 optimizes a long first parseLines call mid-loop, before its
   * last statements ever ran, and then deoptimized it at their end on every call.)
   */
  protected linesDone(_buf: Uint8Array): void {}

  private lines(buf: Uint8Array, start: number, end: number): void {
    try {
      this.parseLines(buf, start, end);
    } catch (e) {
      this.error = e;
      throw e;
    }
    this.linesDone(buf);
  }

  private feed(chunk: Uint8Array): void {
    let start = 0;
    if (this.carryLen > 0) {
      const nl = chunk.indexOf(LF);
      if (nl < 0) {
        this.append(chunk, 0, chunk.length);
        return;
      }
      this.append(chunk, 0, nl + 1);
      const len = this.carryLen;
      this.carryLen = 0;
      this.lines(this.carry, 0, len);
      start = nl + 1;
    }
    const last = chunk.lastIndexOf(LF);
    if (last >= start) {
      this.lines(chunk, start, last + 1);
      start = last + 1;
    }
    if (start < chunk.length) this.append(chunk, start, chunk.length);
  }

  private append(src: Uint8Array, start: number, end: number): void {
    const need = this.carryLen + end - start;
    if (need > this.carry.length) {
      let cap = this.carry.length * 2;
      while (cap < need) cap *= 2;
      const grown = new Uint8Array(cap);
      grown.set(this.carry.subarray(0, this.carryLen));
      this.carry = grown;
    }
    this.carry.set(src.subarray(start, end), this.carryLen);
    this.carryLen = need;
  }

  /**
   * Splits the line starting at buf[p] into fields separated by spaces and tabs, recording the first
   * `maxFields` (at most MAX_FIELDS) in `fields` and counting all of them in `nFields`. A line whose first
   * non-blank byte is '#' is a comment: nFields = 0, like a blank line. Returns the index just past the
   * line's '\n'.
   */
  protected tokenize(buf: Uint8Array, p: number, maxFields: number): number {
    const fields = this.fields;
    this.lineStart = p;
    let n = 0;
    let c = buf[p];
    for (;;) {
      while (c === SPACE || c === TAB) c = buf[++p];
      if (c > SPACE) {
        if (c === HASH && n === 0) {
          p = this.skipComment(buf, p);
          break;
        }
        const s = p;
        do c = buf[++p];
        while (c > SPACE);
        if (n < maxFields) {
          fields[2 * n] = s;
          fields[2 * n + 1] = p;
        }
        n++;
      } else if (c === LF) {
        this.lineEnd = p;
        break;
      } else if (c === CR && buf[p + 1] === LF) {
        this.lineEnd = p++;
        break;
      } else {
        this.badByte(buf, p);
      }
    }
    this.nFields = n;
    return p + 1;
  }

  /** From the '#' at buf[p], returns the index of the comment's '\n' (and sets lineEnd). */
  protected skipComment(buf: Uint8Array, p: number): number {
    const nl = buf.indexOf(LF, p);
    this.lineEnd = nl > p && buf[nl - 1] === CR ? nl - 1 : nl;
    return nl;
  }

  /** Throws the error for a byte below 0x20 that is not a tab, a '\n' or the '\r' of "\r\n". */
  protected badByte(buf: Uint8Array, p: number): never {
    const c = buf[p];
    if (c === CR) {
      this.fail(p, "carriage return (CR) not followed by a line feed: use LF or CRLF line endings");
    }
    if (c === 0) this.fail(p, "file is not text (NUL byte)");
    if (c === 0x1f && buf[p + 1] === 0x8b && this.line === 1 && p === this.lineStart) {
      this.fail(p, "file is not text (gzip-compressed data: decompress it first)");
    }
    this.fail(p, `file is not text (control byte 0x${c.toString(16).padStart(2, "0").toUpperCase()})`);
  }

  /** Throws an InputError at buf[p] of the current line. */
  protected fail(p: number, reason: string): never {
    throw new InputError(this.file, this.line, p - this.lineStart + 1, reason);
  }

  /** Throws `${what} "${text}" is not a number` (or "is not a finite number") for buf[start, end). */
  protected failNumber(buf: Uint8Array, start: number, end: number, what: string): never {
    this.fail(start, `${what} ${quote(buf, start, end)} ${numberProblem(buf, start, end)}`);
  }

  /** Throws `expected ${expected}, found ${n}` at the first extra field or at the end of the line. */
  protected failFieldCount(expected: string, maxFields: number): never {
    const n = this.nFields;
    const at = n > maxFields ? this.fields[2 * maxFields] : this.lineEnd;
    this.fail(at, `expected ${expected}, found ${n}`);
  }
}

/**
 * Lines of `names.length` fields (named so in errors), each field a finite number where `numeric` says,
 * else text, kept as columns of strings and of float64, with each row's line: trec_eval's small
 * formats (prefs, zscores, group qrels).
 */
export abstract class TextRowsParser extends LineParser {
  /** The text fields' columns and the numeric fields', each in field order. */
  protected readonly texts: string[][] = [];
  protected readonly numbers: Float64Column[] = [];
  private readonly lineOf: number[] = [];
  private readonly expected: string;

  constructor(
    file: string,
    private readonly names: readonly string[],
    private readonly numeric: readonly boolean[],
  ) {
    super(file, names.length + 1);
    this.expected = `${names.length} fields (${names.join(" ")})`;
    for (const n of numeric) n ? this.numbers.push(new Float64Column()) : this.texts.push([]);
  }

  protected override row(buf: Uint8Array, f: Int32Array, n: number): void {
    const names = this.names;
    if (n !== names.length) this.failFieldCount(this.expected, names.length);
    for (let i = 0, t = 0, v = 0; i < names.length; i++) {
      if (this.numeric[i]) this.numbers[v++].push(this.numberField(buf, i, names[i]));
      else this.texts[t++].push(utf8Decoder.decode(buf.subarray(f[2 * i], f[2 * i + 1])));
    }
    this.lineOf.push(this.line);
  }

  /** Parses the rest of the input: the numeric columns, and each row's line, how many, and the file. */
  protected finishRows(): { values: Float64Array[]; lines: Int32Array; length: number; file: string } {
    this.finishLines();
    const values = this.numbers.map((c) => c.finish());
    return { values, lines: Int32Array.from(this.lineOf), length: this.lineOf.length, file: this.file };
  }
}

/** buf[start, end) as a quoted string for an error message, shortened if long. */
export function quote(buf: Uint8Array, start: number, end: number): string {
  const max = 40;
  let text = utf8Decoder.decode(buf.subarray(start, Math.min(end, start + max)));
  if (end - start > max) text += "…";
  return JSON.stringify(text);
}
