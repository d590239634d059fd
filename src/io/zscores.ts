/**
 * trec_eval's Z-score file (-Z, get_zscores.c): `qid measure mean stddev` (measure as trec_eval prints it:
 * `P_5`). Blank and '#' lines skipped (trec_eval calls a blank line "Malformed" and reads '#' as data);
 * mean and stddev are decimals ("x", atof's 0, is an error here).
 *
 * @example
 * ```ts
 * const p = new ZscoresParser({ file: "zscores.txt" });
 * p.push(new TextEncoder().encode("301 map 0.25 0.1\n"));
 * ```
 */ import type { Zscores } from "../trec/zscore-lookup.js";
import { checkOptions, required, STRING } from "../errors/errors.js";
import { TextRowsParser } from "./line-parser.js";

export type { Zscores };

export interface ZscoresParserOptions {
  /** Name used in error messages. */
  file: string;
}

export class ZscoresParser extends TextRowsParser {
  constructor(options: ZscoresParserOptions) {
    super(
      checkOptions(options, { file: required(STRING) }, "ZscoresParser").file,
      ["qid", "measure", "mean", "stddev"],
      [false, false, true, true],
    );
  }

  finish(): Zscores {
    const {
      values: [mean, stddev],
      ...rest
    } = this.finishRows();
    const [qid, measure] = this.texts;
    return { qid, measure, mean, stddev, ...rest };
  }
}
