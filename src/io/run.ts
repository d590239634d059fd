/**
 * TREC runs (`qid iter docno rank sim run_id [ignored...]`), parsed from bytes chunk by chunk.
 *
 * As trec_eval (get_trec_results.c): at least six fields separated by spaces or tabs, further fields
 * ignored, `iter` and `rank` ignored (rank need not be a number), blank lines and lines whose first
 * non-blank byte is '#' skipped, and the run tag is the one on the last line. Unlike trec_eval's atof,
 * a score must be a finite decimal number: "0.1x", "nan" and "inf" are errors naming the line, since
 * NaN scores make the ranking undefined. CRLF, a UTF-8 BOM and a missing final newline are accepted.
 * Browser compatible.
 *
 * @example
 * ```ts
 * const qids = new Interner(), docids = new Interner();
 * const p = new RunParser({ file: "run.txt", qids, docids });
 * p.push(new TextEncoder().encode("301 Q0 d1 1 2.5 bm25\n"));
 * p.finish(); // { qid: [0], docid: [0], score: [2.5], runTag: "bm25", length: 1 }
 *
 * // Document ids per row, not interned (for src/pipeline/join-rows.ts): see rows.ts.
 * const r = new RunParser({ file: "run.txt", qids, docids: "per-row" });
 * r.push(new TextEncoder().encode("301 Q0 d1 1 2.5 bm25\n"));
 * r.finish(); // { qid, docids: { bytes, offsets, hashes }, score, runTag, lines, length: 1, file, qidNames: qids }
 * ```
 */
import { Float64Column, Int32Column } from "./columns.js";
import type { Interner } from "./interner.js";
import { IdBatch } from "./_batch.js";
import { LastId } from "./_last_id.js";
import type { DocidMode } from "./qrels.js";
import { KernelRows } from "./_kernel_rows.js";
import { lazyQid, type QuerySpans, type RowDocids, type RowLines } from "./rows.js";
import { FNV_OFFSET, FNV_PRIME, hashBytes } from "./_fnv.js";
import { CR, HASH, LF, LineParser, SPACE, TAB } from "./_lines.js";
import { parseFinite, scanDecimal, scannedEnd } from "./_number.js";

export interface RunParserOptions<D extends DocidMode = Interner> {
  /** Name used in error messages. */
  file: string;
  /** Interner for query ids (share it with the qrels' parser so the ids agree). */
  qids: Interner;
  /**
   * Interner for document ids (share it with the qrels' parser so the ids agree), or "per-row": each
   * row keeps its id's bytes and hash, and finish() returns RunRows.
   */
  docids: D;
  /** "per-row" only: room for this many bytes of document ids up front (the input's size is a bound). */
  expectedBytes?: number;
}

/** One entry per retrieved document, in file order. */
export interface Run {
  qid: Int32Array;
  docid: Int32Array;
  score: Float64Array;
  /** The run_id of the last line ("" when there are no rows). */
  runTag: string;
  length: number;
  /** The interner the qid column's ids refer to. */
  qidNames: Interner;
  /** The interner the docid column's ids refer to. */
  docidNames: Interner;
}

/** The run with document ids per row (`docids: "per-row"`), in file order. */
export interface RunRows {
  qid: Int32Array;
  docids: RowDocids;
  score: Float64Array;
  /** The run_id of the last line ("" when there are no rows). */
  runTag: string;
  /** The line of each row, for error messages (lineOfRow in rows.ts). */
  lines: RowLines;
  length: number;
  /** The file name given to the parser. */
  file: string;
  /** The interner the qid column's ids refer to. */
  qidNames: Interner;
  /** The qid column as runs of equal ids (rows.ts QuerySpans), when the parser made them. */
  spans?: QuerySpans;
}

export type RunOf<D extends DocidMode> = D extends "per-row" ? RunRows : Run;

const utf8Decoder = new TextDecoder("utf-8");

/** Rows a per-row run has at most for finish() to hand copies and keep its kernel's instance for the next parser. */
const SMALL_ROWS = 1 << 16;

export class RunParser<D extends DocidMode = Interner> extends LineParser {
  private readonly qid = new Int32Column();
  private readonly docid = new Int32Column();
  private readonly score = new Float64Column();
  private readonly pending: IdBatch | null;
  private readonly rows: KernelRows | null;
  private readonly lastQid: LastId;
  private readonly qidNames: Interner;
  private readonly docidNames: Interner | null;
  private tagStart = -1;
  private tagEnd = -1;
  private runTag: Uint8Array = new Uint8Array(0);
  /** The bytes tagStart and tagEnd are in, where not the buffer parseLines was given (the kernel's copy). */
  private tagBuf: Uint8Array | null = null;

  constructor(options: RunParserOptions<D>) {
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
      // Fast path for the usual line: six fields separated by single blanks or runs of them, a plain
      // decimal score, '\n' or "\r\n" right after the tag. Anything else (comments, blank lines, extra
      // fields, exponents, errors) goes to slowLine, which handles every case.
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
        if (c <= SPACE) break fast;
        do c = buf[++p]; // rank
        while (c > SPACE);
        if (c !== SPACE && c !== TAB) break fast;
        do c = buf[++p];
        while (c === SPACE || c === TAB);
        const score = scanDecimal(buf, p);
        p = scannedEnd();
        c = buf[p];
        if (score !== score || (c !== SPACE && c !== TAB)) break fast;
        do c = buf[++p];
        while (c === SPACE || c === TAB);
        if (c <= SPACE) break fast;
        const tagStart = p;
        do c = buf[++p];
        while (c > SPACE);
        const tagEnd = p;
        if (c !== LF) {
          if (c !== CR || buf[p + 1] !== LF) break fast;
          p++;
        }
        this.qid.push(qid);
        this.pending!.add(buf, docStart, docEnd, hash);
        this.score.push(score);
        this.tagStart = tagStart;
        this.tagEnd = tagEnd;
        this.line++;
        p++;
        continue;
      }
      p = this.slowLine(buf, lineStart);
    }
  }

  /**
   * parseLines in per-row mode: the kernel's fast path (assembly/parse.ts, through KernelRows), this
   * parser's slowLine for the lines it leaves.
   */
  private parseRows(rows: KernelRows, buf: Uint8Array, p: number, end: number): void {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const parser = this;
    rows.parseLines("run", {
      get line() {
        return parser.line;
      },
      set line(v: number) {
        parser.line = v;
      },
      lastQid: this.lastQid,
      slowLine: (bytes, at) => {
        this.tagBuf = bytes;
        return this.slowLine(bytes, at);
      },
      tag: (bytes, start, end) => {
        this.tagBuf = bytes;
        this.tagStart = start;
        this.tagEnd = end;
      },
    }, buf, p, end);
  }

  protected linesDone(buf: Uint8Array): void {
    if (this.pending !== null) this.pending.flush(buf);
    this.lastQid.release();
    // Copy the tag now: the caller may reuse buf after push() returns.
    if (this.tagStart >= 0) this.runTag = (this.tagBuf ?? buf).slice(this.tagStart, this.tagEnd);
    this.tagStart = -1;
    this.tagBuf = null;
  }

  /** Parses any line, with the exact error for a bad one; returns the index after its '\n'. */
  private slowLine(buf: Uint8Array, p: number): number {
    const next = this.tokenize(buf, p, 6);
    if (this.nFields !== 0) {
      const f = this.fields;
      if (this.nFields < 6) this.failFieldCount("at least 6 fields (qid iter docno rank sim run_id)", 6);
      const score = parseFinite(buf, f[8], f[9]);
      if (score !== score) this.failNumber(buf, f[8], f[9], "score");
      const hash = hashBytes(buf, f[4], f[5]);
      this.addRow(buf, f[0], f[1], f[4], f[5], hash, score, f[10], f[11]);
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
    score: number,
    tagStart: number,
    tagEnd: number,
  ): void {
    const qid = this.lastQid.get(buf, qidStart, qidEnd);
    if (this.rows !== null) this.rows.add(qid, buf, docStart, docEnd, score, this.line);
    else {
      this.qid.push(qid);
      this.pending!.add(buf, docStart, docEnd, docHash);
      this.score.push(score);
    }
    this.tagStart = tagStart;
    this.tagEnd = tagEnd;
  }

  /**
   * "per-row" only: once at least `minRows` rows are parsed, hands over those of the queries that are
   * complete (every row but the last query's, which may go on in the next chunk) and forgets them;
   * null before that. Meant for runs that list each query's rows together, as rankers write them:
   * a caller evaluating blocks as they come must itself check that a query does not come back.
   * `into`: gives a buffer of an earlier block, written over if large enough (RowsBuilder.take);
   * asked only when a block is taken. The block's qid column is made from its spans when first read
   * (rows.ts lazyQid): not copied, nor moved with the block to another thread.
   */
  takeQueries(minRows: number, into?: () => ArrayBuffer | undefined): RunRows | null {
    const rows = this.rows;
    if (rows === null) throw new Error(`${this.file}: takeQueries() needs docids: "per-row"`);
    if (rows.count < minRows || rows.count === 0) return null;
    const qid = rows.qid;
    let k = rows.count - 1;
    const last = qid[k];
    while (k > 0 && qid[k - 1] === last) k--;
    if (k === 0) return null; // one query so far: wait for its end
    const spans = rows.spans(k);
    const { value, docids, lines } = rows.take(k, into?.(), false);
    return lazyQid({ docids, score: value, runTag: utf8Decoder.decode(this.runTag), lines, length: k, file: this.file, qidNames: this.qidNames, spans }, spans, k);
  }

  /** Parses the rest of the input and returns the run (in per-row mode, what takeQueries() left). */
  finish(): RunOf<D> {
    this.finishLines();
    const length = this.qid.length;
    const runTag = utf8Decoder.decode(this.runTag);
    if (this.rows !== null) {
      const spans = this.rows.spans(this.rows.count);
      // A small run as copies, its kernel's instance kept for the next parser; a large one as views.
      const { qid, value, docids, lines } = this.rows.count <= SMALL_ROWS ? this.rows.finishCopies() : this.rows.finish();
      const rows: RunRows = {
        qid, docids, score: value, runTag, lines, length: qid.length, file: this.file,
        qidNames: this.qidNames, spans,
      };
      return rows as RunOf<D>;
    }
    const run: Run = {
      qid: this.qid.finish(), docid: this.docid.finish(), score: this.score.finish(), runTag, length,
      qidNames: this.qidNames, docidNames: this.docidNames!,
    };
    return run as RunOf<D>;
  }
}
