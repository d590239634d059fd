/**
 * LETOR / SVMlight ranking files (`rel qid:Q f:v ... # docid = X`), parsed chunk by chunk. The label is a
 * finite decimal; `qid:Q` is on all lines or none (none: LightGBM's rank.train, queries from a group file,
 * `qid` null); features are checked as INDEX:VALUE, not parsed; '#' starts a comment anywhere (SVMlight),
 * whose `docid = X`, on all lines or none, is the row's document id (else `docid` null). An empty input
 * gives zero rows, `qid` and `docid` null (letorBatch refuses it).
 *
 * @example
 * ```ts
 * const p = new LetorParser({ file: "train.txt", qids: new Interner(), docids: new Interner() });
 * p.push(new TextEncoder().encode("2 qid:1 1:0.5 2:0.1 # docid = d7\n"));
 * p.finish(); // { qid: [0], rel: [2], docid: [0], length: 1 }
 * ```
 */
import { TREC_OPTION_TYPES, type QrelsParserOptions } from "./qrels.js";
import type { Interner } from "./interner.js";
import { KernelLineParser } from "./kernel-line-parser.js";
import type { QuerySpans, RowLines } from "./rows.js";
import { CR, HASH, LF, quote, SPACE, TAB } from "./line-parser.js";
import { numberProblem, parseFinite } from "./decimal.js";

/** `docids`: an interner for `# docid = X` ids, or "per-row" (query ids then kept as runs). */
export type LetorParserOptions<D extends Interner | "per-row" = Interner> = QrelsParserOptions<D>;

/** One entry per row, in file order. */
export interface Letor {
  /** Query of each row, or null when no line has `qid:`. */
  qid: Int32Array | null;
  rel: Float64Array;
  /** Document of each row, or null when no line has `# docid = X`. */
  docid: Int32Array | null;
  length: number;
}

/** The rows with document ids per row (`docids: "per-row"`). */
export interface LetorRows {
  /** The rows' query ids as runs, or null when no line has `qid:`. */
  spans: QuerySpans | null;
  rel: Float64Array;
  /** Each row's document id, bytes[offsets[i], offsets[i + 1]), or null when no line has `# docid = X`. */
  docids: { readonly bytes: Uint8Array; readonly offsets: Int32Array } | null;
  /** Each row's line (lineOfRow). */
  lines: RowLines;
  length: number;
  qidNames: Interner;
  /** The first row whose document id came earlier in its query (rows [starts[k], starts[k + 1])), or -1. */
  firstRepeated(starts: Int32Array): number;
}

export type LetorOf<D extends Interner | "per-row"> = D extends "per-row" ? LetorRows : Letor;

/** Whether lines have a field: not yet known, all, none. */
const UNKNOWN = 0;
const PRESENT = 1;
const ABSENT = 2;

const LOWER_D = 100;
const LOWER_O = 111;
const LOWER_C = 99;
const LOWER_I = 105;
const LOWER_Q = 113;
const COLON = 58;
const EQUALS = 61;

export class LetorParser<D extends Interner | "per-row" = Interner> extends KernelLineParser {
  private qidMode = UNKNOWN;
  private qidModeLine = 0;
  private docMode = UNKNOWN;
  private docModeLine = 0;
  /** Set by scanComment: the docid's bytes (-1: none). */
  private docStart = -1;
  private docEnd = -1;

  constructor(options: LetorParserOptions<D>) {
    super(options, TREC_OPTION_TYPES, "LetorParser", 0, "letor");
  }

  protected override slowLine(buf: Uint8Array, p: number): number {
    this.lineStart = p;
    let c = buf[p];
    while (c === SPACE || c === TAB) c = buf[++p];
    if (c === HASH) p = this.skipComment(buf, p);
    else if (c === CR && buf[p + 1] === LF) p++;
    else if (c !== LF) p = this.parseRow(buf, p);
    this.line++;
    return p + 1;
  }

  protected override letorModes(): { qid: boolean; docid: boolean } | null {
    if (this.qidMode === UNKNOWN || this.docMode === UNKNOWN) return null;
    return { qid: this.qidMode === PRESENT, docid: this.docMode === PRESENT };
  }

  /** Returns the index of the row's '\n'. */
  private parseRow(buf: Uint8Array, p: number) {
    const labelStart = p;
    let c = buf[p];
    while (c > SPACE && c !== HASH) c = buf[++p];
    if (p === labelStart) this.badByte(buf, p);
    const label = parseFinite(buf, labelStart, p);
    if (label !== label) this.failNumber(buf, labelStart, p, "label");
    while (c === SPACE || c === TAB) c = buf[++p];
    let qid = 0;
    if (c === LOWER_Q && buf[p + 1] === LOWER_I && buf[p + 2] === LOWER_D && buf[p + 3] === COLON) {
      const fieldStart = p;
      if (this.qidMode === ABSENT) {
        this.fail(p, `unexpected "qid:" field: line ${this.qidModeLine} has none (all lines or none must have one)`);
      }
      p += 4;
      const qidStart = p;
      c = buf[p];
      while (c > SPACE && c !== HASH) c = buf[++p];
      if (p === qidStart) this.fail(fieldStart, `empty query id in "qid:"`);
      this.setMode(true);
      qid = this.lastQid.get(buf, qidStart, p);
    } else {
      if (this.qidMode === PRESENT) {
        this.fail(
          p,
          `expected "qid:" after the label, as on line ${this.qidModeLine} (all lines or none must have one)`,
        );
      }
      this.setMode(false);
    }

    // Features: checked, not parsed (only the ranking is evaluated).
    for (;;) {
      while (c === SPACE || c === TAB) c = buf[++p];
      if (c < SPACE || c === HASH) break;
      p = this.checkFeature(buf, p);
      c = buf[p];
    }
    this.docStart = -1;
    const commentStart = p;
    if (c === HASH) p = this.scanComment(buf, p);
    else if (c === CR && buf[p + 1] === LF) p++;
    else if (c !== LF) this.badByte(buf, p);

    if (this.docStart >= 0) {
      if (this.docMode === ABSENT) {
        this.fail(
          this.docStart,
          `unexpected "docid = ..." in the comment: line ${this.docModeLine} has none (all lines or none must have one)`,
        );
      }
      if (this.docMode === UNKNOWN) {
        this.docMode = PRESENT;
        this.docModeLine = this.line;
      }
      this.rows.add(qid, buf, this.docStart, this.docEnd, label, this.line);
    } else {
      this.rows.add(qid, buf, p, p, label, this.line);
      if (this.docMode === PRESENT) {
        this.fail(
          commentStart,
          `expected "# docid = <id>" at the end of the line, as on line ${this.docModeLine} (all lines or none must have one)`,
        );
      }
      if (this.docMode === UNKNOWN) {
        this.docMode = ABSENT;
        this.docModeLine = this.line;
      }
    }
    return p;
  }

  /** Checks the feature at buf[p] is INDEX:VALUE: a whole number (from 1 in SVMlight, 0 in XGBoost, LightGBM) and a decimal (nan, inf too, as strtod and Python write them). */
  private checkFeature(buf: Uint8Array, p: number) {
    const start = p;
    let c = buf[p];
    while (c >= 48 && c <= 57) c = buf[++p];
    if (c !== COLON || p === start) {
      let end = p;
      while (buf[end] > SPACE && buf[end] !== HASH) end++;
      const colon = buf.subarray(start, end).indexOf(COLON);
      if (colon < 0) this.fail(start, `expected a feature INDEX:VALUE (as 3:0.25), found ${quote(buf, start, end)}`);
      this.fail(
        start,
        `feature index ${quote(buf, start, start + colon)} is not a whole number (expected INDEX:VALUE, as 3:0.25)`,
      );
    }
    const index = start;
    const valueStart = ++p;
    let end = valueStart;
    while (buf[end] > SPACE && buf[end] !== HASH) end++;
    if (parseFinite(buf, valueStart, end) === parseFinite(buf, valueStart, end)) return end;
    // Right syntax but not finite (nan, inf, 1e999): allowed, features are not evaluated.
    if (end > valueStart && numberProblem(buf, valueStart, end) === "is not a finite number") return end;
    if (buf[end] < SPACE && buf[end] !== TAB && buf[end] !== LF && buf[end] !== CR) this.badByte(buf, end);
    this.fail(
      valueStart,
      `feature ${quote(buf, index, valueStart - 1)}: value ${quote(buf, valueStart, end)} is not a number`,
    );
  }

  private setMode(hasQid: boolean) {
    if (this.qidMode === UNKNOWN) {
      this.qidMode = hasQid ? PRESENT : ABSENT;
      this.qidModeLine = this.line;
    }
  }

  /** Finds `docid = X` (or `docid=X`, "docid" starting a word) in the comment at buf[p]. */
  private scanComment(buf: Uint8Array, p: number) {
    let prev = HASH;
    let q = p + 1;
    for (;;) {
      const c = buf[q];
      if (c === LF) break;
      if (c < SPACE && c !== TAB) {
        if (c === CR && buf[q + 1] === LF) {
          q++;
          break;
        }
        this.badByte(buf, q);
      }
      if (
        c === LOWER_D &&
        this.docStart < 0 &&
        (prev === HASH || prev === SPACE || prev === TAB) &&
        buf[q + 1] === LOWER_O &&
        buf[q + 2] === LOWER_C &&
        buf[q + 3] === LOWER_I &&
        buf[q + 4] === LOWER_D
      ) {
        let r = q + 5;
        while (buf[r] === SPACE || buf[r] === TAB) r++;
        if (buf[r] === EQUALS) {
          r++;
          while (buf[r] === SPACE || buf[r] === TAB) r++;
          const start = r;
          while (buf[r] > SPACE) r++;
          if (r === start) this.fail(q, `empty document id in "docid ="`);
          this.docStart = start;
          this.docEnd = r;
          prev = buf[r - 1];
          q = r;
          continue;
        }
      }
      prev = c;
      q++;
    }
    return q;
  }

  finish(): LetorOf<D> {
    this.finishLines();
    const rows = this.rows;
    const spans = this.qidMode === PRESENT ? rows.keptSpans() : null;
    if (this.docidNames) {
      const { value, docid } = this.interned(this.docMode === PRESENT ? this.docidNames : null);
      let qid: Int32Array | null = null;
      if (spans) {
        qid = new Int32Array(value.length);
        for (let k = 0; k < spans.ids.length; k++) qid.fill(spans.ids[k], spans.starts[k], spans.starts[k + 1]);
      }
      const out: Letor = { qid, rel: value, docid, length: value.length };
      return out as LetorOf<D>;
    }
    // Now: nothing may grow the memory once finish() hands out views.
    rows.keepRepeatRoom(spans?.starts ?? Int32Array.of(0, rows.count));
    const { value, docids, lines } = rows.finish();
    const out: LetorRows = {
      spans,
      rel: value,
      docids: this.docMode === PRESENT ? { bytes: docids.bytes, offsets: docids.offsets } : null,
      lines,
      length: value.length,
      qidNames: this.qidNames,
      firstRepeated: (s) => rows.firstRepeated(s),
    };
    return out as LetorOf<D>;
  }
}
