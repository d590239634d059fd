/**
 * trec_eval's preference judgments (-R prefs, get_prefs.c): `qid jg jsg docno rel_level`. Within a judgment
 * group and subgroup a higher rel_level is preferred; 0 is non-relevant. A sixth field is an error;
 * rel_level a decimal ("1.5x", atof's 1.5, is an error here). Ids kept as strings, in file order.
 *
 * @example
 * ```ts
 * const p = new PrefsParser({ file: "prefs.txt" });
 * p.push(new TextEncoder().encode("301 u1 s1 d1 3\n301 u1 s1 d2 2\n"));
 * ```
 */ import { checkOptions, required, STRING } from "../errors/errors.js";
import { TextRowsParser } from "./line-parser.js";

export interface PrefsParserOptions {
  /** Name used in error messages. */
  file: string;
}

/** One entry per line, in file order. */
export interface Prefs {
  qid: string[];
  jg: string[];
  jsg: string[];
  docno: string[];
  rel: Float64Array;
  lines: Int32Array;
  length: number;
  file: string;
}

export class PrefsParser extends TextRowsParser {
  constructor(options: PrefsParserOptions) {
    super(
      checkOptions(options, { file: required(STRING) }, "PrefsParser").file,
      ["qid", "jg", "jsg", "docno", "rel_level"],
      [false, false, false, false, true],
    );
  }

  finish(): Prefs {
    const {
      values: [rel],
      ...rest
    } = this.finishRows();
    const [qid, jg, jsg, docno] = this.texts;
    return { qid, jg, jsg, docno, rel, ...rest };
  }
}
