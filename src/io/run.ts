/**
 * TREC runs (`qid iter docno rank sim run_id [ignored...]`), parsed chunk by chunk. As trec_eval
 * (get_trec_results.c): six or more fields, `iter` and `rank` ignored, blank and '#' lines skipped, the run
 * tag the last line's; but a score must be a finite decimal ("0.1x", "nan", "inf" are errors: NaN leaves
 * the ranking undefined). MS MARCO's runs (`qid docid rank`) with `shape: "msmarco"`, or where the first
 * line has 3 fields and rank 1 (then ranks must count 1, 2, 3 per query); a row's score is -rank, so a
 * repeated rank ties, broken as trec_eval does.
 *
 * @example
 * ```ts
 * const p = new RunParser({ file: "run.txt", qids: new Interner(), docids: new Interner() });
 * p.push(new TextEncoder().encode("301 Q0 d1 1 2.5 bm25\n"));
 * p.finish(); // { qid: [0], docid: [0], score: [2.5], runTag: "bm25", length: 1 }
 * ```
 */
import type { Interner } from "./interner.js";
import { oneOf, STRING } from "../errors/errors.js";
import { TREC_OPTION_TYPES, type DocidMode, type QrelsParserOptions } from "./qrels.js";
import { KernelLineParser } from "./kernel-line-parser.js";
import { lazyQid, type QuerySpans, type RowDocids, type RowLines, type SkippedRows } from "./rows.js";

export interface RunParserOptions<D extends DocidMode = Interner> extends QrelsParserOptions<D> {
  /** `"msmarco"`: lines `qid docid rank`. @default TREC's six fields, or MS MARCO's where the first line has three and rank 1 */
  shape?: "trec" | "msmarco";
  /** The run tag of a run whose lines carry none (MS MARCO's). @default "" */
  runTag?: string;
}

const RUN_OPTION_TYPES = { ...TREC_OPTION_TYPES, shape: oneOf(["trec", "msmarco"]), runTag: STRING };

/** One entry per retrieved document, in file order. */
export interface Run {
  qid: Int32Array;
  docid: Int32Array;
  score: Float64Array;
  /** The last line's run_id ("" if no rows). */
  runTag: string;
  length: number;
  qidNames: Interner;
  docidNames: Interner;
}

/** The run with document ids per row (`docids: "per-row"`). */
export interface RunRows {
  qid: Int32Array;
  docids: RowDocids;
  score: Float64Array;
  runTag: string;
  /** Each row's line (lineOfRow). */
  lines: RowLines;
  length: number;
  file: string;
  qidNames: Interner;
  /** The qid column as QuerySpans, when the parser made them. */
  spans?: QuerySpans;
  /** Rows left out (JSON lines' rows with result_status not 1). */
  skipped?: SkippedRows;
}

export type RunOf<D extends DocidMode> = D extends "per-row" ? RunRows : Run;

const utf8Decoder = new TextDecoder("utf-8");
const utf8Encoder = new TextEncoder();

const MSMARCO_FIELDS = "3 fields (qid docid rank)";
/** No MS MARCO line is shorter than "q d 1\n". */
const MSMARCO_SHORTEST_LINE = 6;

/** The most rows for which finish() hands copies, keeping its kernel instance for the next parser. */
const SMALL_ROWS = 1 << 16;

export class RunParser<D extends DocidMode = Interner> extends KernelLineParser {
  /** The last row's run tag in the kernel's copy (linesDone copies it). */
  private tagBytes: Uint8Array | null = null;
  private tagStart = 0;
  private tagEnd = 0;
  private runTag: Uint8Array = new Uint8Array(0);
  /** MS MARCO's shape: "given" (options.shape), "seen" (from the first line), false for TREC, null until known. */
  private msmarco: "given" | "seen" | false | null;
  /** MS MARCO: the last row's query and rank; the run tag (its lines have none). */
  private rankQid = -1;
  private lastRank = 0;
  private readonly shapeTag: Uint8Array;

  constructor(options: RunParserOptions<D>) {
    super(options, RUN_OPTION_TYPES, "RunParser", 6, "run");
    this.msmarco = options.shape === "msmarco" ? "given" : options.shape === "trec" ? false : null;
    this.shapeTag = utf8Encoder.encode(options.runTag ?? "");
  }

  protected override parseLines(buf: Uint8Array, p: number, end: number) {
    // The first line decides the shape (row()); MS MARCO's lines are all slow, and need the kernel path's room.
    if (this.msmarco !== false) this.rows.reserve(end - p, MSMARCO_SHORTEST_LINE);
    while (this.msmarco === null && p < end) p = this.fieldLine(buf, p);
    if (this.msmarco) while (p < end) p = this.fieldLine(buf, p);
    else if (p < end) super.parseLines(buf, p, end);
  }

  /** A line the kernel left, and every MS MARCO line. */
  protected override row(buf: Uint8Array, f: Int32Array, n: number) {
    if (this.msmarco === null) this.msmarco = n === 3 && this.isRankOne(buf, f) ? "seen" : false;
    if (this.msmarco) {
      this.rankRow(buf, f, n);
      return;
    }
    if (n < 6)
      this.failFieldCount(
        n === 3
          ? `at least 6 fields (qid iter docno rank sim run_id) or, from the first line on, ${MSMARCO_FIELDS} with ranks 1, 2, 3 per query, as MS MARCO's runs (the format msmarco reads any ranks)`
          : "at least 6 fields (qid iter docno rank sim run_id)",
        6,
      );
    this.addRow(buf, f, this.numberField(buf, 4, "score"));
    this.tag(buf, f[10], f[11]);
  }

  private isRankOne(buf: Uint8Array, f: Int32Array) {
    return f[5] - f[4] === 1 && buf[f[4]] === 0x31;
  }

  /** An MS MARCO line: `qid docid rank`, its score -rank. */
  private rankRow(buf: Uint8Array, f: Int32Array, n: number) {
    const seen = this.msmarco === "seen";
    if (n !== 3)
      this.failFieldCount(
        seen ? `${MSMARCO_FIELDS}, as the first line (read as MS MARCO's run)` : `${MSMARCO_FIELDS} (MS MARCO's run)`,
        3,
      );
    const rank = this.numberField(buf, 2, "rank");
    if (!Number.isSafeInteger(rank))
      this.fail(f[4], `the rank "${utf8Decoder.decode(buf.subarray(f[4], f[5]))}" is not an integer`);
    const qid = this.lastQid.get(buf, f[0], f[1]);
    if (seen) {
      const expected = qid === this.rankQid ? this.lastRank + 1 : 1;
      if (rank !== expected)
        this.fail(
          f[4],
          `rank ${rank} where ${expected} was expected: read as MS MARCO's run (qid docid rank) from its first line, whose ranks count 1, 2, 3 per query; give the format msmarco to read any ranks`,
        );
    }
    this.rankQid = qid;
    this.lastRank = rank;
    this.runTag = this.shapeTag;
    this.rows.add(qid, buf, f[2], f[3], -rank, this.line);
  }

  protected override tag(bytes: Uint8Array, start: number, end: number) {
    this.tagBytes = bytes;
    this.tagStart = start;
    this.tagEnd = end;
  }

  protected override linesDone(buf: Uint8Array) {
    super.linesDone(buf);
    // Copied now: the next lines write over these bytes.
    if (this.tagBytes) this.runTag = this.tagBytes.slice(this.tagStart, this.tagEnd);
    this.tagBytes = null;
  }

  /** "per-row" only: once `minRows` rows are parsed, hands over (and forgets) all but the last query, else null. `into`: RowsBuilder.take's. */
  takeQueries(minRows: number, into?: () => ArrayBuffer | undefined): RunRows | null {
    const rows = this.rows;
    if (this.docidNames) throw new Error(`${this.file}: takeQueries() needs docids: "per-row"`);
    if (rows.count < minRows || rows.count === 0) return null;
    const qid = rows.qid;
    let k = rows.count - 1;
    const last = qid[k];
    while (k > 0 && qid[k - 1] === last) k--;
    if (k === 0) return null; // one query so far: wait for its end
    const spans = rows.spans(k);
    const { value, docids, lines } = rows.take(k, into?.(), false);
    return lazyQid(
      {
        docids,
        score: value,
        runTag: utf8Decoder.decode(this.runTag),
        lines,
        length: k,
        file: this.file,
        qidNames: this.qidNames,
        spans,
      },
      spans,
      k,
    );
  }

  /** Parses the rest: the run (per-row: what takeQueries() left). */
  finish(): RunOf<D> {
    this.finishLines();
    const runTag = utf8Decoder.decode(this.runTag);
    if (this.docidNames) {
      const { qid, value, docid } = this.interned(this.docidNames);
      const { qidNames, docidNames } = this;
      const run: Run = { qid, docid, score: value, runTag, length: qid.length, qidNames, docidNames };
      return run as RunOf<D>;
    }
    const spans = this.rows.spans(this.rows.count);
    // A small run as copies (SMALL_ROWS), a large one as views.
    const { qid, value, docids, lines } = this.rows.count <= SMALL_ROWS ? this.rows.finishCopies() : this.rows.finish();
    const rows: RunRows = {
      qid,
      docids,
      score: value,
      runTag,
      lines,
      length: qid.length,
      file: this.file,
      qidNames: this.qidNames,
      spans,
    };
    return rows as RunOf<D>;
  }
}
