/**
 * trec_eval's Z-score file (-Z, get_zscores.c): `qid measure mean stddev`, one line per query and
 * measure (the measure as trec_eval prints it: `map`, `P_5`, `ndcg_cut_10`), parsed from bytes chunk by
 * chunk. Fields are separated by spaces or tabs; blank lines and '#' comment lines are skipped
 * (trec_eval reads neither: a blank line is "Malformed", a '#' line data); a fifth field is an
 * error; mean and stddev are decimal numbers (trec_eval's atof would read "x" as 0: an error here).
 * CRLF, a UTF-8 BOM and a missing final newline are accepted. Browser compatible.
 *
 * @example
 * ```ts
 * const p = new ZscoresParser({ file: "zscores.txt" });
 * p.push(new TextEncoder().encode("301 map 0.25 0.1\n"));
 * p.finish(); // { qid: ["301"], measure: ["map"], mean: Float64Array [0.25], stddev: Float64Array [0.1], length: 1, ... }
 * ```
 */
import type { Zscores } from "../trec/zscore-lookup.js";
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

  /** Parses the rest of the input and returns the entries. */
  finish(): Zscores {
    const {
      values: [mean, stddev],
      ...rest
    } = this.finishRows();
    const [qid, measure] = this.texts;
    return { qid, measure, mean, stddev, ...rest };
  }
}
