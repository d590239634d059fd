/**
 * Prediction files: one score per line, as LightGBM, XGBoost and RankLib write them, parsed from bytes
 * chunk by chunk. RankLib's `qid<TAB>docIndex<TAB>score` form is accepted too (the last field is the
 * score; the other two are not checked). Scores must be finite decimal numbers: "0.1x", "nan" and
 * "inf" are errors naming the line. Blank lines and '#' comment lines are skipped; CRLF, a UTF-8 BOM
 * and a missing final newline are accepted. Browser compatible.
 *
 * @example
 * ```ts
 * const p = new ScoresParser({ file: "model.pred" });
 * p.push(new TextEncoder().encode("0.5\n-1.25\n"));
 * p.finish(); // Float64Array [0.5, -1.25]
 * ```
 */
import { Float64Column } from "./columns.js";
import { CR, LF, LineParser } from "./_lines.js";
import { parseFinite, scanDecimal, scannedEnd } from "./_number.js";

export interface ScoresParserOptions {
  /** Name used in error messages. */
  file: string;
}

export class ScoresParser extends LineParser {
  private readonly score = new Float64Column();

  constructor(options: ScoresParserOptions) {
    super(options.file);
  }

  protected parseLines(buf: Uint8Array, p: number, end: number): void {
    while (p < end) {
      // Fast path: a plain decimal number and the end of the line; slowLine handles the rest.
      const v = scanDecimal(buf, p);
      const q = scannedEnd();
      const c = buf[q];
      if (v === v && (c === LF || (c === CR && buf[q + 1] === LF))) {
        this.score.push(v);
        this.line++;
        p = c === LF ? q + 1 : q + 2;
      } else {
        p = this.slowLine(buf, p);
      }
    }
  }

  /** Parses any line, with the exact error for a bad one; returns the index after its '\n'. */
  private slowLine(buf: Uint8Array, p: number): number {
    const next = this.tokenize(buf, p, 4);
    const n = this.nFields;
    if (n !== 0) {
      if (n !== 1 && n !== 3) this.failFieldCount("1 field (score) or 3 (qid docIndex score)", 3);
      const f = this.fields;
      const s = f[2 * n - 2];
      const e = f[2 * n - 1];
      const v = parseFinite(buf, s, e);
      if (v !== v) this.failNumber(buf, s, e, "score");
      this.score.push(v);
    }
    this.line++;
    return next;
  }

  /** Parses the rest of the input and returns the scores in file order. */
  finish(): Float64Array {
    this.finishLines();
    return this.score.finish();
  }
}
