/**
 * Qrels whose second column names a group rather than being ignored: `qid group docno value`, parsed
 * from bytes chunk by chunk. Three judgment formats share this shape:
 *  - trec_eval's `qrels_jg` (-R qrels_jg, get_qrels_jg.c): the group is a user's judgment group;
 *  - trec_eval's `qrels_prefs` (-R qrels_prefs, get_qrels_prefs.c): a qrels file read as preferences
 *    within each judgment group;
 *  - TREC's diversity qrels (ndeval): `topic subtopic docno judgment`, the group a subtopic.
 * Fields are separated by spaces or tabs; blank lines and '#' comment lines are skipped (trec_eval
 * stops at a blank line and misreads a second comment in a row, as with its qrels); a fifth field is
 * an error; `value` is a decimal number ("0.5" kept as 0.5: each format says how it reads it). CRLF,
 * a UTF-8 BOM and a missing final newline are accepted. Ids are kept as strings, in file order.
 * Browser compatible.
 *
 * @example
 * ```ts
 * const p = new GroupQrelsParser({ file: "qrels.jg" });
 * p.push(new TextEncoder().encode("301 u1 d1 1\n301 u2 d1 0\n"));
 * p.finish(); // { qid: ["301", "301"], group: ["u1", "u2"], docno: ["d1", "d1"], value: Float64Array [1, 0], lines: [1, 2], length: 2 }
 * ```
 */
import { checkOptions, required, STRING } from "../errors/errors.js";
import { atolBytes } from "../c/strings.js";
import { Float64Column } from "./columns.js";
import { TextRowsParser } from "./line-parser.js";

export interface GroupQrelsParserOptions {
  /** Name used in error messages. */
  file: string;
  /** What the second column is, for error messages (default "group"). */
  groupName?: string;
  /** What the fourth column is, for error messages (default "rel"). */
  valueName?: string;
}

/** One entry per line, in file order. */
export interface GroupQrels {
  qid: string[];
  group: string[];
  docno: string[];
  value: Float64Array;
  /**
   * Each value as C's atol reads its text (trec_eval's qrels_jg labels: "1.5" is 1, "1e1" is 1, "-0.5"
   * is 0).
   */
  long: Float64Array;
  /** The line of each entry, for error messages. */
  lines: Int32Array;
  length: number;
  /** The file name given to the parser. */
  file: string;
}

export class GroupQrelsParser extends TextRowsParser {
  private readonly long = new Float64Column();

  constructor(options: GroupQrelsParserOptions) {
    const types = { file: required(STRING), groupName: STRING, valueName: STRING };
    checkOptions(options, types, "GroupQrelsParser");
    const names = ["qid", options.groupName ?? "group", "docno", options.valueName ?? "rel"];
    super(options.file, names, [false, false, false, true]);
  }

  protected override row(buf: Uint8Array, f: Int32Array, n: number): void {
    super.row(buf, f, n);
    this.long.push(atolBytes(buf, f[6], f[7]));
  }

  /** Parses the rest of the input and returns the entries. */
  finish(): GroupQrels {
    const {
      values: [value],
      ...rest
    } = this.finishRows();
    const [qid, group, docno] = this.texts;
    return { qid, group, docno, value, long: this.long.finish(), ...rest };
  }
}
