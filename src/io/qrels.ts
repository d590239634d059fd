/**
 * TREC qrels (`qid iter docno rel`), parsed from bytes chunk by chunk.
 *
 * As trec_eval (get_qrels.c): fields are separated by spaces or tabs, `iter` is ignored, and a fifth
 * field is an error. Unlike trec_eval 10, blank lines and any number of '#' comment lines are skipped
 * (trec_eval stops at a blank line and mis-reads a second consecutive comment), and `rel` may be a
 * decimal ("0.5"), kept as a float64: trec_eval's atol would truncate it. The labels atol reads as
 * another number ("1.5" is 1, "1e1" is 1) are listed in `truncated`, for reports under trec_eval's
 * names. CRLF line ends, a UTF-8 BOM and a missing final newline are accepted. Browser compatible.
 *
 * @example
 * ```ts
 * const qids = new Interner(), docids = new Interner();
 * const p = new QrelsParser({ file: "qrels.txt", qids, docids });
 * p.push(new TextEncoder().encode("301 0 d1 1\n301 0 d2 0\n"));
 * const { qid, docid, rel, length } = p.finish(); // length 2, rel Float64Array [1, 0]
 *
 * // Document ids per row, not interned (for src/pipeline/join-rows.ts): see rows.ts.
 * const q = new QrelsParser({ file: "qrels.txt", qids, docids: "per-row" });
 * q.push(new TextEncoder().encode("301 0 d1 1\n"));
 * q.finish(); // { qid, docids: { bytes, offsets, hashes }, rel, lines, length: 1, file, qidNames: qids }
 * ```
 */
import { atolBytes } from "../c/strings.js";
import { Float64Column, Int32Column } from "./columns.js";
import type { Interner } from "./interner.js";
import { IdBatch } from "./_batch.js";
import { LastId } from "./_last_id.js";
import { KernelRows, type KernelColumns } from "./_kernel_rows.js";
import type { RowDocids, RowLines } from "./rows.js";
import { FNV_OFFSET, FNV_PRIME, hashBytes } from "./_fnv.js";
import { CR, HASH, LF, LineParser, SPACE, TAB } from "./_lines.js";
import { parseFinite, scanDecimal, scannedEnd } from "./_number.js";

/** Document ids interned into a table shared with the run's parser, or kept per row (rows.ts). */
export type DocidMode = Interner | "per-row";

export interface QrelsParserOptions<D extends DocidMode = Interner> {
  /** Name used in error messages. */
  file: string;
  /** Interner for query ids (share it with the run's parser so the ids agree). */
  qids: Interner;
  /**
   * Interner for document ids (share it with the run's parser so the ids agree), or "per-row": each
   * row keeps its id's bytes and hash, and finish() returns QrelsRows.
   */
  docids: D;
  /** "per-row" only: room for this many bytes of document ids up front (the input's size is a bound). */
  expectedBytes?: number;
}

/**
 * The labels trec_eval reads as another number than they are (get_qrels.c reads them with atol: the
 * leading integer, so "1.5" is 1, "-0.5" is 0, "1e1" is 1): their rows and trec_eval's values, in
 * row order, and the first one's line and text for a message.
 */
export interface TruncatedLabels {
  rows: Int32Array;
  values: Float64Array;
  firstLine: number;
  firstText: string;
}

/** One entry per judgment, in file order. */
export interface Qrels {
  qid: Int32Array;
  docid: Int32Array;
  rel: Float64Array;
  length: number;
  /** The interner the qid column's ids refer to. */
  qidNames: Interner;
  /** The interner the docid column's ids refer to. */
  docidNames: Interner;
  /** Labels trec_eval's atol reads otherwise; absent when there are none. */
  truncated?: TruncatedLabels;
}

/** The judgments with document ids per row (`docids: "per-row"`), in file order. */
export interface QrelsRows {
  qid: Int32Array;
  docids: RowDocids;
  rel: Float64Array;
  /** The line of each row, for error messages (lineOfRow in rows.ts). */
  lines: RowLines;
  length: number;
  /** The file name given to the parser. */
  file: string;
  /** The interner the qid column's ids refer to. */
  qidNames: Interner;
  /** Labels trec_eval's atol reads otherwise; absent when there are none. */
  truncated?: TruncatedLabels;
  /**
   * Where the columns lie in the kernel's memory they were parsed into (views of it), for a join
   * there (src/pipeline/join-kernel.ts); absent for rows parsed otherwise.
   */
  kernel?: KernelColumns;
}

/**
 * Bytes the judgments' kernel memory keeps free for joining and evaluating a run's blocks beside them
 * (a block of about a million rows takes some 60 MB): address space until written.
 */
const JOIN_ROOM = 192 << 20;

export type QrelsOf<D extends DocidMode> = D extends "per-row" ? QrelsRows : Qrels;

export class QrelsParser<D extends DocidMode = Interner> extends LineParser {
  private readonly qid = new Int32Column();
  private readonly docid = new Int32Column();
  private readonly rel = new Float64Column();
  private readonly pending: IdBatch | null;
  private readonly rows: KernelRows | null;
  private readonly lastQid: LastId;
  private readonly qidNames: Interner;
  private readonly docidNames: Interner | null;
  /** Rows whose label atol reads otherwise, with atol's value (TruncatedLabels). */
  private truncRows: number[] = [];
  private truncValues: number[] = [];
  private truncFirst = { line: 0, text: "" };

  constructor(options: QrelsParserOptions<D>) {
    super(options.file);
    this.qidNames = options.qids;
    this.lastQid = new LastId(options.qids);
    const d = options.docids as DocidMode;
    this.docidNames = d === "per-row" ? null : d;
    this.pending = d === "per-row" ? null : new IdBatch(d, this.docid);
    this.rows = d === "per-row" ? new KernelRows(options.expectedBytes) : null;
  }

  protected parseLines(buf: Uint8Array, p: number, end: number): void {
    const rows = this.rows;
    if (rows !== null) {
      this.parseRows(rows, buf, p, end);
      return;
    }
    // The previous fast-path row's qid in buf, compared in place with the next line's first bytes.
    let prevQid = -1;
    let prevStart = 0;
    let prevLen = 0;
    while (p < end) {
      // Fast path for the usual line: four fields separated by blanks, a plain decimal rel, '\n' or
      // "\r\n" right after it. Anything else (comments, blank lines, trailing blanks, exponents,
      // errors) goes to slowLine, which handles every case.
      const lineStart = p;
      let c = buf[p];
      fast: {
        if (c <= SPACE || c === HASH) break fast;
        const qidStart = p;
        // Most lines repeat the previous line's qid: compare instead of scanning, then interning.
        // (The comparison stops at the '\n' ending buf at the latest: a qid byte is never one.)
        let qid = -1;
        if (prevQid >= 0) {
          let i = 0;
          while (i < prevLen && buf[p + i] === buf[prevStart + i]) i++;
          const after = buf[p + i];
          if (i === prevLen && (after === SPACE || after === TAB)) {
            qid = prevQid;
            p += i;
            c = after;
          }
        }
        if (qid < 0) {
          do c = buf[++p];
          while (c > SPACE);
          if (c !== SPACE && c !== TAB) break fast;
          qid = this.lastQid.get(buf, qidStart, p);
          prevQid = qid;
          prevStart = qidStart;
          prevLen = p - qidStart;
        }
        do c = buf[++p];
        while (c === SPACE || c === TAB);
        if (c <= SPACE) break fast;
        do c = buf[++p]; // iter
        while (c > SPACE);
        if (c !== SPACE && c !== TAB) break fast;
        do c = buf[++p];
        while (c === SPACE || c === TAB);
        if (c <= SPACE) break fast;
        const docStart = p;
        let hash = FNV_OFFSET;
        do {
          hash = Math.imul(hash ^ c, FNV_PRIME);
          c = buf[++p];
        } while (c > SPACE);
        const docEnd = p;
        if (c !== SPACE && c !== TAB) break fast;
        do c = buf[++p];
        while (c === SPACE || c === TAB);
        const rel = scanDecimal(buf, p);
        p = scannedEnd();
        c = buf[p];
        if (rel !== rel) break fast;
        if (c !== LF) {
          if (c !== CR || buf[p + 1] !== LF) break fast;
          p++;
        }
        // A plain decimal (scanDecimal reads no exponent): atol is its integer part.
        if (rel !== Math.trunc(rel)) this.truncated(this.qid.length, Math.trunc(rel) + 0, this.line, rel);
        this.qid.push(qid);
        this.pending!.add(buf, docStart, docEnd, hash);
        this.rel.push(rel);
        this.line++;
        p++;
        continue;
      }
      p = this.slowLine(buf, lineStart);
    }
  }

  /**
   * parseLines in per-row mode: the kernel's fast path (assembly/parse.ts, through KernelRows), this
   * parser's slowLine for the lines it leaves (decimal labels among them, which it notes for atol).
   */
  private parseRows(rows: KernelRows, buf: Uint8Array, p: number, end: number): void {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const parser = this;
    rows.parseLines("qrels", {
      get line() {
        return parser.line;
      },
      set line(v: number) {
        parser.line = v;
      },
      lastQid: this.lastQid,
      slowLine: (bytes, at) => this.slowLine(bytes, at),
    }, buf, p, end);
  }

  protected linesDone(buf: Uint8Array): void {
    if (this.pending !== null) this.pending.flush(buf);
    this.lastQid.release();
  }

  /** Parses any line, with the exact error for a bad one; returns the index after its '\n'. */
  private slowLine(buf: Uint8Array, p: number): number {
    const next = this.tokenize(buf, p, 5);
    if (this.nFields !== 0) {
      const f = this.fields;
      if (this.nFields !== 4) this.failFieldCount("4 fields (qid iter docno rel)", 4);
      const rel = parseFinite(buf, f[6], f[7]);
      if (rel !== rel) this.failNumber(buf, f[6], f[7], "rel");
      const trec = atolBytes(buf, f[6], f[7]);
      if (trec !== rel) this.truncated(this.rows !== null ? this.rows.count : this.qid.length, trec, this.line, buf.subarray(f[6], f[7]));
      this.addRow(buf, f[0], f[1], f[4], f[5], hashBytes(buf, f[4], f[5]), rel);
    }
    this.line++;
    return next;
  }

  private addRow(
    buf: Uint8Array,
    qidStart: number,
    qidEnd: number,
    docStart: number,
    docEnd: number,
    docHash: number,
    rel: number,
  ): void {
    const qid = this.lastQid.get(buf, qidStart, qidEnd);
    if (this.rows !== null) this.rows.add(qid, buf, docStart, docEnd, rel, this.line);
    else {
      this.qid.push(qid);
      this.pending!.add(buf, docStart, docEnd, docHash);
      this.rel.push(rel);
    }
  }

  /** Notes that row `row`'s label (on `line`) is `value` for trec_eval's atol. */
  private truncated(row: number, value: number, line: number, text: number | Uint8Array): void {
    if (this.truncRows.length === 0) this.truncFirst = { line, text: typeof text === "number" ? String(text) : new TextDecoder().decode(text) };
    this.truncRows.push(row);
    this.truncValues.push(value);
  }

  private truncatedLabels(): TruncatedLabels | undefined {
    if (this.truncRows.length === 0) return undefined;
    return { rows: Int32Array.from(this.truncRows), values: Float64Array.from(this.truncValues), firstLine: this.truncFirst.line, firstText: this.truncFirst.text };
  }

  /** Parses the rest of the input and returns the judgments. */
  finish(): QrelsOf<D> {
    this.finishLines();
    const length = this.qid.length;
    if (this.rows !== null) {
      // Room for a run's blocks to be joined and evaluated beside the judgments (src/pipeline/join-kernel.ts).
      this.rows.keepRoom(JOIN_ROOM + 4 * this.rows.count);
      const { qid, value, docids, lines } = this.rows.finish();
      const truncated = this.truncatedLabels();
      const rows: QrelsRows = {
        qid, docids, rel: value, lines, length: qid.length, file: this.file, qidNames: this.qidNames, ...(truncated ? { truncated } : {}),
        kernel: this.rows.columns(),
      };
      return rows as QrelsOf<D>;
    }
    const truncated = this.truncatedLabels();
    const qrels: Qrels = {
      qid: this.qid.finish(), docid: this.docid.finish(), rel: this.rel.finish(), length,
      qidNames: this.qidNames, docidNames: this.docidNames!, ...(truncated ? { truncated } : {}),
    };
    return qrels as QrelsOf<D>;
  }
}
