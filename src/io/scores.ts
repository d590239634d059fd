/**
 * Prediction files: one score a line (LightGBM, XGBoost, RankLib), or RankLib's `qid docIndex score`
 * (the last field read). Scores are finite decimals: "0.1x", "nan" and "inf" are errors.
 *
 * @example
 * ```ts
 * const p = new ScoresParser({ file: "model.pred" });
 * p.push(new TextEncoder().encode("0.5\n-1.25\n"));
 * p.finish(); // Float64Array [0.5, -1.25]
 * ```
 */ import { COUNT, required, STRING } from "../errors/errors.js";
import { KernelLineParser } from "./kernel-line-parser.js";

export interface ScoresParserOptions {
  /** Name used in error messages. */
  file: string;
  /** The input's size, if known, to size the column. */
  expectedBytes?: number;
}

/** The scores, in a kernel's memory (assembly/parse.ts parseScoreRows reads the usual lines). */
export class ScoresParser extends KernelLineParser {
  constructor(options: ScoresParserOptions) {
    super(options, { file: required(STRING), expectedBytes: COUNT }, "ScoresParser", 4, "scores");
  }

  protected override row(buf: Uint8Array, f: Int32Array, n: number) {
    if (n !== 1 && n !== 3) this.failFieldCount("1 field (score) or 3 (qid docIndex score)", 3);
    const s = f[2 * n - 2];
    this.rows.add(0, buf, s, s, this.numberField(buf, n - 1, "score"), this.line);
  }

  /** Parses the rest; the scores in file order (a view of the parser's memory). */
  finish(): Float64Array {
    this.finishLines();
    return this.rows.finish().value;
  }
}
