/**
 * TREC qrels (`qid iter docno rel`), parsed chunk by chunk. As trec_eval (get_qrels.c): `iter` ignored, a
 * fifth field an error. Unlike trec_eval 10, blank and '#' lines are skipped (it stops at a blank line and
 * misreads a second comment in a row), and `rel` may be a decimal (a float64; atol truncates: see `truncated`).
 *
 * @example
 * ```ts
 * const p = new QrelsParser({ file: "qrels.txt", qids: new Interner(), docids: new Interner() });
 * p.push(new TextEncoder().encode("301 0 d1 1\n301 0 d2 0\n"));
 * const { qid, docid, rel, length } = p.finish(); // length 2, rel Float64Array [1, 0]
 * ```
 */
import { atolBytes } from "../c/strings.js";
import { COUNT, required, STRING, type OptionType } from "../errors/errors.js";
import { DOCIDS, INTERNER, type Interner } from "./interner.js";
import { KernelLineParser, type KernelColumns } from "./kernel-line-parser.js";
import type { RowDocids, RowLines, SkippedRows } from "./rows.js";

/** Document ids interned into a table shared with the run's parser, or kept per row (rows.ts). */
export type DocidMode = Interner | "per-row";

/** QrelsParser's, RunParser's and LetorParser's options. */
export interface QrelsParserOptions<D extends DocidMode = Interner> {
  /** Name used in error messages. */
  file: string;
  /** Interner for query ids (shared with the other file's parser). */
  qids: Interner;
  /** Interner for document ids (shared with the other file's parser), or "per-row": finish() returns rows (rows.ts). */
  docids: D;
  /** The input's size, if known: room made up front. */
  expectedBytes?: number;
}

export const TREC_OPTION_TYPES: Readonly<Record<keyof QrelsParserOptions, OptionType>> = {
  file: required(STRING),
  qids: INTERNER,
  docids: DOCIDS,
  expectedBytes: COUNT,
};

/** Labels get_qrels.c's atol reads otherwise ("1.5" is 1, "-0.5" is 0, "1e1" is 1): rows, atol's values, the first one's line and text. */
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
  qidNames: Interner;
  docidNames: Interner;
  /** Absent when there are none. */
  truncated?: TruncatedLabels;
}

/** The judgments with document ids per row (`docids: "per-row"`). */
export interface QrelsRows {
  qid: Int32Array;
  docids: RowDocids;
  rel: Float64Array;
  /** Each row's line (lineOfRow). */
  lines: RowLines;
  length: number;
  file: string;
  qidNames: Interner;
  truncated?: TruncatedLabels;
  /** Rows left out (JSON lines' failed judgments). */
  skipped?: SkippedRows;
  /** Where the columns lie in the kernel's memory, for a join there (join-kernel.ts). */
  kernel?: KernelColumns;
}

/** Kept free in the judgments' kernel memory to join a run's blocks (~60 MB a million rows): address space until written. */
const JOIN_ROOM = 192 << 20;

const utf8Decoder = new TextDecoder("utf-8");

export type QrelsOf<D extends DocidMode> = D extends "per-row" ? QrelsRows : Qrels;

export class QrelsParser<D extends DocidMode = Interner> extends KernelLineParser {
  private truncRows: number[] = [];
  private truncValues: number[] = [];
  private truncFirst = { line: 0, text: "" };

  constructor(options: QrelsParserOptions<D>) {
    super(options, TREC_OPTION_TYPES, "QrelsParser", 5, "qrels");
  }

  /** A line the kernel left (decimal labels among them). */
  protected override row(buf: Uint8Array, f: Int32Array, n: number) {
    if (n !== 4) this.failFieldCount("4 fields (qid iter docno rel)", 4);
    const rel = this.numberField(buf, 3, "rel");
    const trec = atolBytes(buf, f[6], f[7]);
    if (trec !== rel) {
      const text = utf8Decoder.decode(buf.subarray(f[6], f[7]));
      if (this.truncRows.length === 0) this.truncFirst = { line: this.line, text };
      this.truncRows.push(this.rows.count);
      this.truncValues.push(trec);
    }
    this.addRow(buf, f, rel);
  }

  finish(): QrelsOf<D> {
    this.finishLines();
    const { truncRows, truncValues, truncFirst: first } = this;
    const truncated =
      truncRows.length === 0
        ? {}
        : {
            truncated: {
              rows: Int32Array.from(truncRows),
              values: Float64Array.from(truncValues),
              firstLine: first.line,
              firstText: first.text,
            },
          };
    if (this.docidNames) {
      const { qid, value, docid } = this.interned(this.docidNames);
      const qrels: Qrels = {
        qid,
        docid,
        rel: value,
        length: qid.length,
        qidNames: this.qidNames,
        docidNames: this.docidNames,
        ...truncated,
      };
      return qrels as QrelsOf<D>;
    }
    this.rows.keepRoom(JOIN_ROOM + 4 * this.rows.count);
    const { qid, value, docids, lines } = this.rows.finish();
    const rows: QrelsRows = {
      qid,
      docids,
      rel: value,
      lines,
      length: qid.length,
      file: this.file,
      qidNames: this.qidNames,
      ...truncated,
      kernel: this.rows.columns(),
    };
    return rows as QrelsOf<D>;
  }
}
