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
import { RowsBuilder, type RowDocids, type RowLines } from "./rows.js";
import { FNV_OFFSET, FNV_PRIME, hashBytes } from "./_fnv.js";
import { CR, HASH, LF, LineParser, SPACE, TAB } from "./_lines.js";
import { POW10, parseFinite, scanDecimal, scannedEnd } from "./_number.js";

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
}

export type RunOf<D extends DocidMode> = D extends "per-row" ? RunRows : Run;

const utf8Decoder = new TextDecoder("utf-8");

export class RunParser<D extends DocidMode = Interner> extends LineParser {
  private readonly qid = new Int32Column();
  private readonly docid = new Int32Column();
  private readonly score = new Float64Column();
  private readonly pending: IdBatch | null;
  private readonly rows: RowsBuilder | null;
  private readonly lastQid: LastId;
  private readonly qidNames: Interner;
  private readonly docidNames: Interner | null;
  private tagStart = -1;
  private tagEnd = -1;
  private runTag: Uint8Array = new Uint8Array(0);

  constructor(options: RunParserOptions<D>) {
    super(options.file);
    this.qidNames = options.qids;
    this.lastQid = new LastId(options.qids);
    const d = options.docids as DocidMode;
    this.docidNames = d === "per-row" ? null : d;
    this.pending = d === "per-row" ? null : new IdBatch(d, this.docid);
    this.rows = d === "per-row" ? new RowsBuilder(options.expectedBytes) : null;
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
   * parseLines in per-row mode: the same fast path, with the builder's state (row count, pool use, line)
   * kept in locals and stored back before a slow line and at the end.
   */
  private parseRows(rows: RowsBuilder, buf: Uint8Array, p: number, end: number): void {
    rows.reserve(end - p);
    // The columns, fixed for this call (reserve() made room for every row of the range).
    const rowQid = rows.qid;
    const rowValue = rows.value;
    const rowOffsets = rows.offsets;
    const rowHashes = rows.hashes;
    const pool = rows.pool;
    let n = rows.count;
    let used = rows.used;
    let line = this.line;
    let shift = rows.shift;
    let tagStart = -1;
    let tagEnd = -1;
    // The previous fast-path row's qid in buf, compared in place with the next line's first bytes.
    let prevQid = -1;
    let prevStart = 0;
    let prevLen = 0;
    let prevWords = false;
    let prevW0 = 0;
    let prevW1 = 0;
    // The previous fast-path row's tag, when 4 to 8 bytes long.
    let tagWords = false;
    let tagLen = 0;
    let tagW0 = 0;
    let tagW1 = 0;
    // The previous fast-path row's bytes from its qid to its document id (0: none, or not 4 to 12).
    let headLen = 0;
    let headMid = 0;
    let headW0 = 0;
    let headW1 = 0;
    let headW2 = 0;
    let headQid = -1;
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const poolView = new DataView(pool.buffer, pool.byteOffset, pool.byteLength);
    while (p < end) {
      const lineStart = p;
      let c = buf[p];
      fast: {
        if (c <= SPACE || c === HASH) break fast;
        const qidStart = p;
        let qid = -1;
        // Most lines start as the previous one did: the same qid, iter and blanks, 4 to 12 bytes
        // compared as three 32-bit words (overlapping), then the id's first byte, not a blank.
        const docAt = p + headLen;
        if (
          headLen !== 0 &&
          docAt < end &&
          buf[docAt] > SPACE &&
          view.getInt32(p, true) === headW0 &&
          view.getInt32(p + headMid, true) === headW1 &&
          view.getInt32(docAt - 4, true) === headW2
        ) {
          qid = headQid;
          p = docAt;
          c = buf[p];
        } else {
          if (prevQid >= 0) {
            // The byte after the qid must be a blank, and the bytes before it the previous qid's:
            // for 4 to 8 bytes, its first and last 4 (overlapping) as two 32-bit words.
            const q = p + prevLen;
            if (q < end) {
              const after = buf[q];
              if (
                (after === SPACE || after === TAB) &&
                (prevWords
                  ? view.getInt32(p, true) === prevW0 && view.getInt32(q - 4, true) === prevW1
                  : sameBytes(buf, p, prevStart, prevLen))
              ) {
                qid = prevQid;
                p = q;
                c = after;
              }
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
            prevWords = prevLen >= 4 && prevLen <= 8;
            if (prevWords) {
              prevW0 = view.getInt32(qidStart, true);
              prevW1 = view.getInt32(p - 4, true);
            }
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
          const len = p - qidStart;
          if (len >= 4 && len <= 12) {
            headLen = len;
            headMid = (len - 4) >> 1;
            headW0 = view.getInt32(qidStart, true);
            headW1 = view.getInt32(qidStart + headMid, true);
            headW2 = view.getInt32(p - 4, true);
            headQid = qid;
          } else headLen = 0;
        }
        // The id, 4 bytes at a time: a word with no byte below 0x21 (SWAR test; the lowest flagged
        // byte is the first such byte, bytes >= 0x80 are never flagged) is hashed as 4 rowHash steps
        // (rotl5 is linear over xor, and a byte rotated by at most 15 does not wrap) and stored whole
        // to the pool. The word holding the end may read and store up to 3 bytes past the id: they lie
        // in this range of lines (p + 4 <= end), and the pool has room for the range's bytes; the next
        // id overwrites them.
        let at = used;
        let hash = 0;
        let w = 0;
        let low = 0;
        while (p + 4 <= end) {
          w = view.getInt32(p, true);
          low = (w - 0x21212121) & ~w & 0x80808080;
          if (low !== 0) break;
          hash =
            ((hash << 20) | (hash >>> 12)) ^
            ((w & 0xff) << 15) ^
            (((w >>> 8) & 0xff) << 10) ^
            (((w >>> 16) & 0xff) << 5) ^
            (w >>> 24);
          poolView.setInt32(at, w, true);
          at += 4;
          p += 4;
        }
        if (low !== 0) {
          poolView.setInt32(at, w, true);
          const k = (31 - Math.clz32(low & -low)) >> 3;
          for (let i = 0; i < k; i++) hash = ((hash << 5) | (hash >>> 27)) ^ ((w >>> (8 * i)) & 0xff);
          at += k;
          p += k;
          c = buf[p];
        } else {
          c = buf[p];
          while (c > SPACE) {
            hash = ((hash << 5) | (hash >>> 27)) ^ c;
            pool[at++] = c;
            c = buf[++p];
          }
        }
        if (c !== SPACE && c !== TAB) break fast;
        do c = buf[++p];
        while (c === SPACE || c === TAB);
        if (c <= SPACE) break fast;
        do c = buf[++p]; // rank
        while (c > SPACE);
        if (c !== SPACE && c !== TAB) break fast;
        do c = buf[++p];
        while (c === SPACE || c === TAB);
        // The usual score, up to 9 digits with at most one '.', read as a 32-bit integer then divided
        // by a power of ten: the same operations, so the same double, as scanDecimal, which takes
        // any other form (sign, more digits) or gives NaN.
        let score = NaN;
        let q = p;
        let m = c - 48;
        if (m >= 0 && m <= 9) {
          let d = buf[++q] - 48;
          while (d >= 0 && d <= 9 && q - p < 9) {
            m = m * 10 + d;
            d = buf[++q] - 48;
          }
          if (d === -2) {
            const dot = q;
            d = buf[++q] - 48;
            while (d >= 0 && d <= 9 && q - p < 10) {
              m = m * 10 + d;
              d = buf[++q] - 48;
            }
            if (d < 0 || d > 9) score = q === dot + 1 ? m : m / POW10[q - dot - 1];
          } else if (d < 0 || d > 9) score = m;
        }
        if (score !== score) {
          score = scanDecimal(buf, p);
          q = scannedEnd();
        }
        p = q;
        c = buf[p];
        if (score !== score || (c !== SPACE && c !== TAB)) break fast;
        do c = buf[++p];
        while (c === SPACE || c === TAB);
        if (c <= SPACE) break fast;
        const tagAt = p;
        // Most lines repeat the previous line's tag: if its 4 to 8 bytes are here (compared as two
        // words) and a byte <= ' ' after them, the scan below would stop there.
        if (
          tagWords &&
          p + tagLen < end &&
          view.getInt32(p, true) === tagW0 &&
          view.getInt32(p + tagLen - 4, true) === tagW1 &&
          buf[p + tagLen] <= SPACE
        ) {
          p += tagLen;
          c = buf[p];
        } else {
          do c = buf[++p];
          while (c > SPACE);
          tagLen = p - tagAt;
          tagWords = tagLen >= 4 && tagLen <= 8;
          if (tagWords) {
            tagW0 = view.getInt32(tagAt, true);
            tagW1 = view.getInt32(p - 4, true);
          }
        }
        const tagStop = p;
        if (c !== LF) {
          if (c !== CR || buf[p + 1] !== LF) break fast;
          p++;
        }
        if (line - n !== shift) {
          rows.newShift(n, line);
          shift = line - n;
        }
        rowQid[n] = qid;
        rowValue[n] = score;
        rowOffsets[n + 1] = at;
        rowHashes[n] = hash;
        n++;
        used = at;
        tagStart = tagAt;
        tagEnd = tagStop;
        line++;
        p++;
        continue;
      }
      rows.count = n;
      rows.used = used;
      this.line = line;
      if (tagStart >= 0) {
        this.tagStart = tagStart;
        this.tagEnd = tagEnd;
        tagStart = -1;
      }
      p = this.slowLine(buf, lineStart);
      n = rows.count;
      used = rows.used;
      line = this.line;
      shift = rows.shift;
    }
    rows.count = n;
    rows.used = used;
    this.line = line;
    if (tagStart >= 0) {
      this.tagStart = tagStart;
      this.tagEnd = tagEnd;
    }
  }

  protected linesDone(buf: Uint8Array): void {
    if (this.pending !== null) this.pending.flush(buf);
    this.lastQid.release();
    // Copy the tag now: the caller may reuse buf after push() returns.
    if (this.tagStart >= 0) this.runTag = buf.slice(this.tagStart, this.tagEnd);
    this.tagStart = -1;
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
   */
  takeQueries(minRows: number): RunRows | null {
    const rows = this.rows;
    if (rows === null) throw new Error(`${this.file}: takeQueries() needs docids: "per-row"`);
    if (rows.count < minRows || rows.count === 0) return null;
    const qid = rows.qid;
    let k = rows.count - 1;
    const last = qid[k];
    while (k > 0 && qid[k - 1] === last) k--;
    if (k === 0) return null; // one query so far: wait for its end
    const { qid: q, value, docids, lines } = rows.take(k);
    return { qid: q, docids, score: value, runTag: utf8Decoder.decode(this.runTag), lines, length: k, file: this.file, qidNames: this.qidNames };
  }

  /** Parses the rest of the input and returns the run (in per-row mode, what takeQueries() left). */
  finish(): RunOf<D> {
    this.finishLines();
    const length = this.qid.length;
    const runTag = utf8Decoder.decode(this.runTag);
    if (this.rows !== null) {
      const { qid, value, docids, lines } = this.rows.finish();
      const rows: RunRows = {
        qid, docids, score: value, runTag, lines, length: qid.length, file: this.file,
        qidNames: this.qidNames,
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

/** Whether buf[a, a + len) and buf[b, b + len) are the same bytes. */
function sameBytes(buf: Uint8Array, a: number, b: number, len: number): boolean {
  let i = 0;
  while (i < len && buf[a + i] === buf[b + i]) i++;
  return i === len;
}
