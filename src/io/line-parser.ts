/**
 * What every line parser shares: chunks cut anywhere, a BOM, line numbers, fields, file:line:column errors.
 * Whole lines are parsed in the caller's chunk, only an unfinished last line copied (`carry`); buf[end - 1]
 * is always '\n', so loops need no bounds checks. A binary file fails at its first bad byte, never held whole.
 */
import { checkChunk, InputError, usageError } from "../errors/errors.js";
import { Float64Column } from "./columns.js";
import { numberProblem, parseFinite } from "./decimal.js";
import { doubled, grow } from "./rows.js";

export const LF = 10;
export const CR = 13;
export const SPACE = 32;
export const TAB = 9;
export const HASH = 35;
const BOM = [0xef, 0xbb, 0xbf];

/** The most bytes a line (a CSV/TSV record, a JSON token) may hold: an endless line must not take all memory. */
export const MAX_LINE_BYTES = 64 << 20;
const MAX_LINE_TEXT = "64 MiB";
const PIECE = 16 << 20;

/** The reason for a NUL or control byte `c`. */
export function notText(c: number, offset: number): string {
  const what = c === 0 ? "NUL byte" : `control byte 0x${c.toString(16).padStart(2, "0").toUpperCase()}`;
  return `file is not text (${what} at byte offset ${offset})`;
}

/** The error of a line (`what`) longer than MAX_LINE_BYTES. */
export function tooLong(file: string, line: number, column: number, what: string, offset: number): InputError {
  const reason = `${what} is longer than ${MAX_LINE_TEXT} (from byte offset ${offset}), the most a line may hold: is the file text?`;
  return new InputError(file, line, column, reason);
}

/** Binary formats by their first bytes (null: a control byte, which no text line has). */
const BINARY: readonly { magic: readonly (number | null)[]; what: string }[] = [
  { magic: [0x1f, 0x8b], what: "gzip-compressed data: decompress it first" },
  // Parquet: "PAR1" then a Thrift compact page header (a control byte).
  {
    magic: [0x50, 0x41, 0x52, 0x31, null],
    what:
      'it is Parquet: name it *.parquet or give the input format "parquet" (--input-format parquet); ' +
      "Parquet is read from a file, not from a pipe or standard input",
  },
  {
    magic: [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31, 0, 0],
    what: 'it is an Arrow IPC file: name it *.arrow or give the input format "arrow" (--input-format arrow)',
  },
  {
    magic: [0xff, 0xff, 0xff, 0xff],
    what: 'it looks like an Arrow IPC stream: give the input format "arrow" (--input-format arrow), from a pipe too',
  },
  { magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], what: "it is a PNG image" },
  { magic: [0xff, 0xd8, 0xff], what: "it is a JPEG image" },
  { magic: [0x47, 0x49, 0x46, 0x38], what: "it is a GIF image" },
  { magic: [0x25, 0x50, 0x44, 0x46, 0x2d], what: "it is a PDF document" },
  { magic: [0x50, 0x4b, 0x03, 0x04], what: "it is a ZIP archive (or a spreadsheet): extract the text first" },
  { magic: [0x42, 0x5a, 0x68, null, 0x31, 0x41, 0x59, 0x26], what: "bzip2-compressed data: decompress it first" },
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: "xz-compressed data: decompress it first" },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], what: "zstd-compressed data: decompress it first" },
  { magic: [0x7f, 0x45, 0x4c, 0x46], what: "it is an executable (ELF)" },
];
const HEAD_BYTES = 8;

/** An input's first bytes, gathered to name a binary format in line 1's error. */
export class InputHead {
  private readonly bytes = new Uint8Array(HEAD_BYTES);
  private n = 0;
  pending = true;

  /** Gathers bytes while they may begin a magic number (none starts with a text byte): null, else the rest. */
  add(chunk: Uint8Array): Uint8Array | null {
    let k = 0;
    while (k < chunk.length && this.n < HEAD_BYTES && this.mayBeBinary()) this.bytes[this.n++] = chunk[k++];
    return this.n < HEAD_BYTES && this.mayBeBinary() ? null : chunk.subarray(k);
  }

  private mayBeBinary() {
    return BINARY.some(({ magic }) => magic.length > this.n && this.matches(magic, this.n));
  }

  /** Whether the first `n` bytes match `magic`. */
  private matches(magic: readonly (number | null)[], n: number) {
    const b = this.bytes;
    for (let i = 0; i < n; i++) {
      if (magic[i] === null ? !(b[i] < 0x20 && b[i] !== TAB) : b[i] !== magic[i]) return false;
    }
    return true;
  }

  pass(chunk: Uint8Array, parse: (bytes: Uint8Array) => void) {
    if (this.pending) {
      const rest = this.add(chunk);
      if (rest === null) return;
      parse(this.held());
      chunk = rest;
    }
    parse(chunk);
  }

  /** The bytes gathered; gathering ends. */
  held(): Uint8Array {
    this.pending = false;
    return this.bytes.subarray(0, this.n);
  }

  binary(): string | null {
    for (const { magic, what } of BINARY) if (magic.length <= this.n && this.matches(magic, magic.length)) return what;
    return null;
  }

  /** `e`, or for an InputError on line 1 of a binary input, one naming the format. */
  explain(e: unknown): unknown {
    if (!(e instanceof InputError) || e.line !== 1 || e.constructor !== InputError) return e;
    const what = this.binary();
    return what === null ? e : new InputError(e.file, 1, 1, `file is not text (${what})`);
  }
}

/** The most fields tokenize() records; the rest are only counted. */
const MAX_FIELDS = 8;

const utf8Decoder = new TextDecoder("utf-8");

export abstract class LineParser {
  protected readonly file: string;
  protected line = 1;

  // Typed: inferred, TS 5.7 emits Int32Array<ArrayBuffer>, which TS 5.0 consumers refuse.
  /** Set by tokenize(): field i is [2i, 2i + 1]; their count (0: blank or comment); the line's first byte and its '\n' (or CRLF's '\r'). */
  protected readonly fields: Int32Array = new Int32Array(2 * MAX_FIELDS);
  protected nFields = 0;
  protected lineStart = 0;
  protected lineEnd = 0;

  /** buf[0]'s byte offset, for errors (KernelLineParser moves it: it reads a copy). */
  protected base = 0;

  private carry = new Uint8Array(1024);
  private carryLen = 0;
  /** carry[0]'s byte offset; the unfinished line is a comment (1), not (0), or blank so far (-1). */
  private carryAt = 0;
  private carryKind = -1;
  /** The next chunk's byte offset. */
  private taken = 0;
  private readonly inputHead = new InputHead();
  /** A BOM's bytes, held until known to be one. */
  private bomLen = 0;
  private started = false;
  private finished = false;
  private error: unknown = null;

  /** `maxFields`: fields fieldLine records (one more than a row has). */
  constructor(
    file: string,
    private readonly maxFields = MAX_FIELDS,
  ) {
    this.file = file;
  }

  get linesRead(): number {
    return this.line - 1;
  }

  /** The next piece of the input (cut anywhere); no reference to it is kept. */
  push(chunk: Uint8Array) {
    if (this.error !== null) throw this.error;
    checkChunk(chunk, this.file, this.finished);
    try {
      this.inputHead.pass(chunk, (bytes) => this.take(bytes));
    } catch (e) {
      throw this.failed(e);
    }
  }

  private take(chunk: Uint8Array) {
    if (!this.started) {
      let i = 0;
      while (this.bomLen < 3 && i < chunk.length && chunk[i] === BOM[this.bomLen]) {
        this.bomLen++;
        i++;
      }
      if (this.bomLen < 3 && i === chunk.length) return; // all BOM so far: wait for more
      this.started = true;
      if (this.bomLen < 3)
        this.feed(Uint8Array.from(BOM.slice(0, this.bomLen))); // a prefix of a BOM is data
      else this.taken = 3;
      chunk = chunk.subarray(i);
    }
    this.feed(chunk);
  }

  protected finishLines() {
    if (this.error !== null) throw this.error;
    if (this.finished) throw usageError(`${this.file}: finish() called twice: a parser reads one input`);
    try {
      if (this.inputHead.pending) this.take(this.inputHead.held());
      if (!this.started) {
        this.started = true;
        this.feed(Uint8Array.from(BOM.slice(0, this.bomLen)));
      }
      this.finished = true;
      if (this.carryLen > 0) {
        this.append(new Uint8Array([LF]), 0, 1);
        this.lines(this.carry, 0, this.carryLen, this.carryAt);
        this.carryLen = 0;
      }
    } catch (e) {
      throw this.failed(e);
    }
  }

  /** Keeps the first error (an input is bad once). */
  private failed(e: unknown): unknown {
    this.error = this.inputHead.explain(e);
    return this.error;
  }

  /** The whole lines in buf[start, end) (buf[end - 1] is '\n'). */
  protected parseLines(buf: Uint8Array, p: number, end: number) {
    while (p < end) p = this.fieldLine(buf, p);
  }

  /** Hands a non-blank, non-comment line's fields to row(); returns the index after its '\n'. */
  protected fieldLine(buf: Uint8Array, p: number): number {
    const next = this.tokenize(buf, p, this.maxFields);
    if (this.nFields !== 0) this.row(buf, this.fields, this.nFields);
    this.line++;
    return next;
  }

  /** A line's `n` fields: field i is buf[fields[2i], fields[2i + 1]). */
  protected row(_buf: Uint8Array, _fields: Int32Array, _n: number) {}

  protected numberField(buf: Uint8Array, i: number, what: string): number {
    const f = this.fields;
    const v = parseFinite(buf, f[2 * i], f[2 * i + 1]);
    if (v !== v) this.failNumber(buf, f[2 * i], f[2 * i + 1], what);
    return v;
  }

  /** After each parseLines while buf is valid. (Not in parseLines: V8 deoptimized a long first call at its end every call.) */
  protected linesDone(_buf: Uint8Array) {}

  private lines(buf: Uint8Array, start: number, end: number, base: number) {
    this.base = base;
    this.parseLines(buf, start, end);
    this.linesDone(buf);
  }

  private feed(chunk: Uint8Array) {
    // In pieces, so a line past the bound fails alike however the input was cut.
    if (chunk.length > MAX_LINE_BYTES) {
      for (let s = 0; s < chunk.length; s += PIECE) this.feed(chunk.subarray(s, s + PIECE));
      return;
    }
    const at = this.taken;
    this.taken += chunk.length;
    let start = 0;
    if (this.carryLen > 0) {
      const nl = chunk.indexOf(LF);
      if (nl < 0) {
        this.hold(chunk, 0, chunk.length, at);
        return;
      }
      this.hold(chunk, 0, nl + 1, at);
      const len = this.carryLen;
      this.carryLen = 0;
      this.lines(this.carry, 0, len, this.carryAt);
      start = nl + 1;
    }
    const last = chunk.lastIndexOf(LF);
    if (last >= start) {
      this.lines(chunk, start, last + 1, at);
      start = last + 1;
    }
    if (start < chunk.length) this.hold(chunk, start, chunk.length, at);
  }

  /** Adds to the unfinished line, refusing at once a byte no line may have or growth past MAX_LINE_BYTES. */
  private hold(src: Uint8Array, start: number, end: number, at: number) {
    const from = this.carryLen;
    if (from === 0) {
      this.carryAt = at + start;
      this.carryKind = -1;
    }
    const over = from + end - start - (src[end - 1] === LF ? 1 : 0) > MAX_LINE_BYTES;
    this.append(src, start, over ? start + MAX_LINE_BYTES - from : end);
    const c = this.carry;
    const n = this.carryLen;
    let i = from;
    if (this.carryKind < 0) {
      while (i < n && (c[i] === SPACE || c[i] === TAB)) i++;
      if (i < n) this.carryKind = c[i] === HASH ? 1 : 0;
    }
    if (this.carryKind === 0) {
      for (; i < n; i++) {
        const b = c[i];
        if (b < SPACE && b !== TAB && b !== LF && b !== CR) this.badHeld(i);
      }
    }
    if (over) throw tooLong(this.file, this.line, MAX_LINE_BYTES + 1, "the line", this.carryAt);
  }

  /** Throws carry[i]'s error as its whole line would, whatever the chunks. */
  private badHeld(i: number): never {
    const line = this.line;
    const upTo = new Uint8Array(i + 2);
    upTo.set(this.carry.subarray(0, i + 1));
    upTo[i + 1] = LF;
    this.lines(upTo, 0, i + 2, this.carryAt);
    this.line = line;
    this.lineStart = 0;
    this.base = this.carryAt;
    this.badByte(upTo, i);
  }

  private append(src: Uint8Array, start: number, end: number) {
    const need = this.carryLen + end - start;
    if (need > this.carry.length) this.carry = grow(this.carry, doubled(2 * this.carry.length, need), this.carryLen);
    this.carry.set(src.subarray(start, end), this.carryLen);
    this.carryLen = need;
  }

  /** Splits the line at buf[p] at blanks into `fields` (the first `maxFields`) and `nFields`; returns the index past its '\n'. */
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

  /** From the '#' at buf[p]: the index of the comment's '\n' (lineEnd set). */
  protected skipComment(buf: Uint8Array, p: number): number {
    const nl = buf.indexOf(LF, p);
    this.lineEnd = nl > p && buf[nl - 1] === CR ? nl - 1 : nl;
    return nl;
  }

  /** Throws the error of a control byte (a '\r' not before '\n' among them). */
  protected badByte(buf: Uint8Array, p: number): never {
    const c = buf[p];
    if (c === CR) {
      this.fail(p, "carriage return (CR) not followed by a line feed: use LF or CRLF line endings");
    }
    this.fail(p, notText(c, this.base + p));
  }

  protected fail(p: number, reason: string): never {
    throw new InputError(this.file, this.line, p - this.lineStart + 1, reason);
  }

  protected failNumber(buf: Uint8Array, start: number, end: number, what: string): never {
    this.fail(start, `${what} ${quote(buf, start, end)} ${numberProblem(buf, start, end)}`);
  }

  protected failFieldCount(expected: string, maxFields: number): never {
    const n = this.nFields;
    const at = n > maxFields ? this.fields[2 * maxFields] : this.lineEnd;
    this.fail(at, `expected ${expected}, found ${n}`);
  }
}

/** Lines of `names` fields, numeric where `numeric` says (prefs, zscores, group qrels). */
export abstract class TextRowsParser extends LineParser {
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

  protected override row(buf: Uint8Array, f: Int32Array, n: number) {
    const names = this.names;
    if (n !== names.length) this.failFieldCount(this.expected, names.length);
    for (let i = 0, t = 0, v = 0; i < names.length; i++) {
      if (this.numeric[i]) this.numbers[v++].push(this.numberField(buf, i, names[i]));
      else this.texts[t++].push(utf8Decoder.decode(buf.subarray(f[2 * i], f[2 * i + 1])));
    }
    this.lineOf.push(this.line);
  }

  protected finishRows(): { values: Float64Array[]; lines: Int32Array; length: number; file: string } {
    this.finishLines();
    const values = this.numbers.map((c) => c.finish());
    return { values, lines: Int32Array.from(this.lineOf), length: this.lineOf.length, file: this.file };
  }
}

/** buf[start, end) quoted for a message, shortened if long. */
export function quote(buf: Uint8Array, start: number, end: number): string {
  const max = 40;
  let text = utf8Decoder.decode(buf.subarray(start, Math.min(end, start + max)));
  if (end - start > max) text += "…";
  return JSON.stringify(text);
}
