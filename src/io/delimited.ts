/**
 * Qrels and runs as CSV or TSV with a header row (`qid,docid,score`, other columns ignored), parsed chunk by
 * chunk. Columns are `columns`' or DEFAULT_COLUMNS' first present (any case, blanks ignored); the delimiter is
 * given or the one the header holds more of outside quotes (',' on a tie). RFC 4180 fields (a quote inside an
 * unquoted field is data); values finite decimals, blanks allowed around; ids not empty. A row's line is its record's first.
 *
 * @example
 * ```ts
 * const p = new DelimitedParser({ file: "run.csv", qids: new Interner(), kind: "run", runTag: "bm25" });
 * p.push(new TextEncoder().encode("qid,docid,score\nq1,d1,2.5\nq1,\"d,2\",1\n"));
 * ```
 */
import { ANY, InputError, oneOf, RankevalError, STRING, type OptionType } from "../errors/errors.js";
import { describeByte, JSON_OPTION_TYPES, JsonCsvRowsParser, type JsonParserOptions, type RowsKind } from "./json.js";
import { pickColumns, roleWhat, type ColumnNames } from "./column-names.js";
import { numberProblem, parseFinite } from "./decimal.js";
import { LastId } from "./last-id-cache.js";
import { MAX_LINE_BYTES, notText, quote, tooLong } from "./line-parser.js";
import { grow } from "./rows.js";

export { DEFAULT_COLUMNS, type ColumnNames } from "./column-names.js";

export interface DelimitedParserOptions<K extends RowsKind> extends JsonParserOptions<K> {
  /** ',' or '\t'. @default detected from the header line */
  delimiter?: "," | "\t";
  /** The header names of the columns to read. @default the first of DEFAULT_COLUMNS' names present */
  columns?: ColumnNames;
  /** Said after a missing column's message (the CLI's `--columns`). */
  hint?: string;
}

/** pickColumns checks `columns`. */
export const DELIMITED_OPTION_TYPES: Readonly<Record<keyof DelimitedParserOptions<RowsKind>, OptionType>> = {
  ...JSON_OPTION_TYPES,
  delimiter: oneOf([",", "\t"]),
  columns: ANY,
  hint: STRING,
};

const QUOTE = 34;
const LF = 10;
const CR = 13;
const BOM = [0xef, 0xbb, 0xbf];

const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
const QUOTE_SEEN = 3; // a '"' in a quoted field: its end, or the first of a doubled quote
const CR_SEEN = 4; // a CR outside quotes: a LF must follow

// Roles of a field: 0 ignored; 1..3 read into bufs[role]; HEADER while reading the header.
const QID = 1;
const DOCID = 2;
const VALUE = 3;
const HEADER = 4;

const utf8Decoder = new TextDecoder("utf-8");

export class DelimitedParser<K extends RowsKind> extends JsonCsvRowsParser<K> {
  private readonly columns: ColumnNames;
  private readonly hint: string;
  private delim: number;

  /** The first line, held whole (to skip a BOM and detect the delimiter). */
  private head: Uint8Array | null = new Uint8Array(256);
  private headLen = 0;

  private state = FIELD_START;
  /** The record: first line, byte offset, field index, whether the field is quoted. */
  private recLine = 1;
  private recAt = 0;
  private field = 0;
  private quoted = false;
  private fieldLen = 0;
  /** Where the first field past the header's count started ("too many fields"), and the field. */
  private extraLine = 0;
  private extraCol = 0;
  private fieldLine = 1;
  private fieldCol = 1;
  private inHeader = true;

  private roles = new Uint8Array(0);
  /** Each role's field index, and the header's names and count. */
  private readonly indexOf = [-1, -1, -1, -1];
  private names: string[] = [];
  private nFields = 0;
  private readonly bufs: Uint8Array[] = [0, 64, 64, 64, 64].map((n) => new Uint8Array(n));
  private readonly lens = new Int32Array(5);
  private readonly startLine = new Int32Array(5);
  private readonly startCol = new Int32Array(5);

  private readonly lastQid: LastId;

  constructor(options: DelimitedParserOptions<K>) {
    super(options, DELIMITED_OPTION_TYPES, "DelimitedParser");
    this.columns = options.columns ?? {};
    this.lastQid = new LastId(this.qidNames);
    if (this.kind === "run" && this.columns.tag !== undefined) {
      throw new RankevalError(
        "bad-option",
        `${this.file}: a run tag column (tag=${this.columns.tag}) is read from Parquet and Arrow files only; ` +
          "a CSV or TSV run's tag is its file's name",
      );
    }
    this.hint = options.hint === undefined ? "" : `; ${options.hint}`;
    this.delim = options.delimiter === undefined ? -1 : options.delimiter.charCodeAt(0);
  }

  protected feed(chunk: Uint8Array) {
    if (this.head !== null) {
      const nl = chunk.indexOf(LF);
      this.hold(chunk.subarray(0, nl < 0 ? chunk.length : nl + 1));
      if (nl < 0) return;
      this.startBody();
      chunk = chunk.subarray(nl + 1);
    }
    this.scan(chunk);
  }

  protected end() {
    if (this.head !== null) this.startBody();
    if (this.inHeader && this.abs === 0) {
      throw new InputError(this.file, 1, 1, "expected a header line naming the columns, found the end of the file");
    }
    if (this.state === QUOTED) {
      const reason = "a quoted field is not closed: the file ends inside it";
      throw new InputError(this.file, this.fieldLine, this.fieldCol, reason);
    }
    if (this.state !== CR_SEEN && (this.state !== FIELD_START || this.field > 0)) {
      this.endField();
      this.endRecord();
    }
  }

  /** Refuses a NUL or a line past MAX_LINE_BYTES at once. */
  private hold(bytes: Uint8Array) {
    const need = this.headLen + bytes.length;
    const nul = bytes.indexOf(0);
    if (nul >= 0) {
      this.abs = this.headLen + nul;
      this.fail(notText(0, this.abs));
    }
    if (need - (bytes[bytes.length - 1] === LF ? 1 : 0) > MAX_LINE_BYTES) {
      throw tooLong(this.file, 1, MAX_LINE_BYTES + 1, "the header line", 0);
    }
    if (need > this.head!.length) this.head = grow(this.head!, Math.max(need, 2 * this.head!.length), this.headLen);
    this.head!.set(bytes, this.headLen);
    this.headLen = need;
  }

  /** The first line is whole (or the input ended). */
  private startBody() {
    let head = this.head!.subarray(0, this.headLen);
    this.head = null;
    if (head.length >= 3 && head[0] === BOM[0] && head[1] === BOM[1] && head[2] === BOM[2]) head = head.subarray(3);
    if (this.delim < 0) {
      let commas = 0;
      let tabs = 0;
      let inQuotes = false;
      for (const b of head) {
        if (b === QUOTE) inQuotes = !inQuotes;
        else if (!inQuotes && b === 44) commas++;
        else if (!inQuotes && b === 9) tabs++;
      }
      this.delim = tabs > commas ? 9 : 44;
    }
    this.scan(head);
  }

  private roleOf(field: number) {
    if (this.inHeader) return HEADER;
    return field < this.roles.length ? this.roles[field] : 0;
  }

  private scan(buf: Uint8Array) {
    const n = buf.length;
    const base = this.abs;
    const delim = this.delim;
    let p = 0;
    while (p < n) {
      const c = buf[p];
      switch (this.state) {
        // biome-ignore lint/suspicious/noFallthroughSwitchClause: FIELD_START ends by falling into UNQUOTED
        case FIELD_START:
          if (c === QUOTE) {
            this.beginField(base + p);
            this.quoted = true;
            this.state = QUOTED;
            p++;
            continue;
          }
          this.beginField(base + p);
          this.state = UNQUOTED;
        // falls through: the byte is the field's first
        case UNQUOTED: {
          const role = this.roleOf(this.field);
          let q = p;
          while (q < n) {
            const b = buf[q];
            if (b === delim || b === LF || b === CR || b === 0) break;
            q++;
          }
          if (role !== 0) this.append(role, buf, p, q);
          this.fieldLen += q - p;
          p = q;
          if (p === n) continue;
          this.abs = base + p;
          if (buf[p] === 0) this.fail(notText(0, this.abs));
          this.separator(buf[p], base + p);
          p++;
          continue;
        }
        case QUOTED: {
          const role = this.roleOf(this.field);
          let q = p;
          while (q < n) {
            const b = buf[q];
            if (b === QUOTE || b === 0) break;
            if (b === LF) {
              this.line++;
              this.lineStart = base + q + 1;
            }
            q++;
          }
          if (role !== 0) this.append(role, buf, p, q);
          p = q;
          if (p === n) continue;
          if (buf[p] === 0) {
            this.abs = base + p;
            this.fail(notText(0, this.abs));
          }
          this.state = QUOTE_SEEN;
          p++;
          continue;
        }
        case QUOTE_SEEN:
          this.abs = base + p;
          if (c === QUOTE) {
            const role = this.roleOf(this.field);
            if (role !== 0) this.append(role, buf, p, p + 1);
            this.state = QUOTED;
          } else if (c === delim || c === LF || c === CR) this.separator(c, base + p);
          else
            this.fail(
              `expected ${delim === 9 ? "a tab" : "','"} or the end of the line after a closing quote, found ${describeByte(c)}`,
            );
          p++;
          continue;
        case CR_SEEN:
          this.abs = base + p;
          if (c !== LF) this.fail("carriage return (CR) not followed by a line feed: use LF or CRLF line endings", -1);
          this.newLine(base + p);
          this.state = FIELD_START;
          p++;
          continue;
      }
    }
    this.abs = base + n;
    if (this.abs - this.recAt > MAX_LINE_BYTES) this.recordTooLong();
  }

  private recordTooLong(): never {
    throw tooLong(this.file, this.recLine, 1, "the record", this.recAt);
  }

  private separator(c: number, at: number) {
    this.abs = at;
    this.endField();
    if (c === this.delim) {
      this.field++;
      this.state = FIELD_START;
      return;
    }
    if (at - this.recAt > MAX_LINE_BYTES) this.recordTooLong();
    this.endRecord();
    if (c === CR) this.state = CR_SEEN;
    else {
      this.newLine(at);
      this.state = FIELD_START;
    }
  }

  private newLine(at: number) {
    this.line++;
    this.lineStart = at + 1;
    this.recLine = this.line;
    this.recAt = at + 1;
    this.field = 0;
    this.quoted = false;
    this.fieldLen = 0;
  }

  private beginField(at: number) {
    const role = this.roleOf(this.field);
    if (role !== 0) {
      this.lens[role] = 0;
      this.startLine[role] = this.line;
      this.startCol[role] = at - this.lineStart + 1;
    }
    this.fieldLine = this.line;
    this.fieldCol = at - this.lineStart + 1;
    if (this.field === this.nFields && !this.inHeader) {
      this.extraLine = this.line;
      this.extraCol = at - this.lineStart + 1;
    }
    this.quoted = false;
    this.fieldLen = 0;
  }

  private append(role: number, buf: Uint8Array, start: number, end: number) {
    const len = this.lens[role];
    let b = this.bufs[role];
    const need = len + end - start;
    if (need > b.length) this.bufs[role] = b = grow(b, Math.max(need, 2 * b.length), len);
    for (let i = start; i < end; i++) b[len + i - start] = buf[i];
    this.lens[role] = need;
  }

  private endField() {
    if (this.roleOf(this.field) === HEADER) {
      this.names.push(utf8Decoder.decode(this.bufs[HEADER].subarray(0, this.lens[HEADER])));
      this.lens[HEADER] = 0;
    }
  }

  private endRecord() {
    const nf = this.field + 1;
    if (this.inHeader) {
      this.header();
      this.inHeader = false;
      return;
    }
    if (nf === 1 && this.fieldLen === 0 && !this.quoted) return; // a blank line
    if (nf !== this.nFields) {
      const reason = `expected ${this.nFields} fields as in the header, found ${nf}`;
      if (nf < this.nFields) {
        for (const role of [QID, DOCID, VALUE]) {
          const i = this.indexOf[role];
          if (i >= nf) {
            this.fail(
              `missing column ${JSON.stringify(this.names[i])} (column ${i + 1} of the header; this line has ${nf} field${nf === 1 ? "" : "s"})`,
            );
          }
        }
        this.fail(reason);
      }
      throw new InputError(this.file, this.extraLine, this.extraCol, reason);
    }
    const bufs = this.bufs;
    const lens = this.lens;
    if (lens[QID] === 0) this.failAt(QID, `empty query id (column ${JSON.stringify(this.names[this.indexOf[QID]])})`);
    if (lens[DOCID] === 0) {
      this.failAt(DOCID, `empty document id (column ${JSON.stringify(this.names[this.indexOf[DOCID]])})`);
    }
    const vb = bufs[VALUE];
    let vs = 0;
    let ve = lens[VALUE];
    while (vs < ve && (vb[vs] === 32 || vb[vs] === 9)) vs++;
    while (ve > vs && (vb[ve - 1] === 32 || vb[ve - 1] === 9)) ve--;
    const value = parseFinite(vb, vs, ve);
    if (value !== value) {
      this.failAt(
        VALUE,
        `${this.names[this.indexOf[VALUE]]} ${quote(vb, 0, lens[VALUE])} ${numberProblem(vb, vs, ve)}`,
      );
    }
    const qid = this.qidOf(bufs[QID], lens[QID]);
    this.reserve(lens[DOCID]);
    this.rows.add(qid, bufs[DOCID], 0, lens[DOCID], value, this.recLine);
  }

  private qidOf(b: Uint8Array, len: number) {
    const id = this.lastQid.get(b, 0, len);
    this.lastQid.release(); // the next row writes over b
    return id;
  }

  private header() {
    const names = this.names;
    const kind = this.kind;
    this.nFields = names.length;
    const p = pickColumns(names, kind, this.columns);
    if ("missing" in p) {
      const found = names.map((s) => JSON.stringify(s)).join(", ");
      const delim = this.delim === 9 ? "tab" : "comma";
      const has = `the ${delim}-separated header has ${found}`;
      const reason = `the header has no ${roleWhat(p.missing, kind)} column (looked for ${p.looked}; ${has})`;
      throw new InputError(this.file, 1, 1, reason + this.hint);
    }
    if ("twice" in p) {
      const [a, b] = p.twice;
      const second = b === "value" ? b : roleWhat(b, kind);
      const reason = `column ${JSON.stringify(p.name)} cannot be both the ${roleWhat(a, kind)} and the ${second}`;
      throw new InputError(this.file, 1, 1, reason);
    }
    this.indexOf.splice(1, 3, p.qid, p.docid, p.value);
    this.roles = new Uint8Array(this.nFields);
    for (const role of [QID, DOCID, VALUE]) this.roles[this.indexOf[role]] = role;
  }

  private failAt(role: number, reason: string): never {
    throw new InputError(this.file, this.startLine[role], this.startCol[role], reason);
  }
}
