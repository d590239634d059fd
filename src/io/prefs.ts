/**
 * trec_eval's preference judgments (-R prefs, get_prefs.c): `qid jg jsg docno rel_level`, parsed from
 * bytes chunk by chunk. Within a judgment group (jg, one user's information need) and one of its
 * subgroups (jsg), a document with a higher rel_level is preferred to one with a lower; a rel_level of
 * 0 means non-relevant. Fields are separated by spaces or tabs; blank lines and '#' comment lines are
 * skipped (trec_eval stops at a blank line); a sixth field is an error; rel_level is a decimal number
 * (trec_eval's atof would read "1.5x" as 1.5: an error here). CRLF, a UTF-8 BOM and a missing final
 * newline are accepted. Ids are kept as strings, in file order. Browser compatible.
 *
 * @example
 * ```ts
 * const p = new PrefsParser({ file: "prefs.txt" });
 * p.push(new TextEncoder().encode("301 u1 s1 d1 3\n301 u1 s1 d2 2\n"));
 * p.finish(); // { qid: ["301", "301"], jg: ["u1", "u1"], jsg: ["s1", "s1"], docno: ["d1", "d2"], rel: Float64Array [3, 2], ... }
 * ```
 */
import { checkOptions, required, STRING } from "../errors/errors.js";
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
  /** The line of each entry, for error messages. */
  lines: Int32Array;
  length: number;
  /** The file name given to the parser. */
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

  /** Parses the rest of the input and returns the entries. */
  finish(): Prefs {
    const {
      values: [rel],
      ...rest
    } = this.finishRows();
    const [qid, jg, jsg, docno] = this.texts;
    return { qid, jg, jsg, docno, rel, ...rest };
  }
}
