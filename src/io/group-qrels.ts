/**
 * Qrels whose second column names a group, `qid group docno value`: trec_eval's -R qrels_jg and -R
 * qrels_prefs, TREC's diversity qrels (ndeval: a subtopic). Lines as line-parser.ts reads them; a fifth
 * field is an error; `value` a decimal each format reads its way. Ids kept as strings, in file order.
 *
 * @example
 * ```ts
 * const p = new GroupQrelsParser({ file: "qrels.jg" });
 * p.push(new TextEncoder().encode("301 u1 d1 1\n301 u2 d1 0\n"));
 * ```
 */ import { checkOptions, required, STRING } from "../errors/errors.js";
import { atolBytes } from "../c/strings.js";
import { Float64Column } from "./columns.js";
import { TextRowsParser } from "./line-parser.js";

export interface GroupQrelsParserOptions {
  /** Name used in error messages. */
  file: string;
  /** The second column's name in errors (default "group"). */
  groupName?: string;
  /** The fourth column's name in errors (default "rel"). */
  valueName?: string;
}

/** One entry per line, in file order. */
export interface GroupQrels {
  qid: string[];
  group: string[];
  docno: string[];
  value: Float64Array;
  /** Each value as atol reads it (trec_eval's qrels_jg labels: "1.5" is 1, "1e1" is 1). */
  long: Float64Array;
  lines: Int32Array;
  length: number;
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

  protected override row(buf: Uint8Array, f: Int32Array, n: number) {
    super.row(buf, f, n);
    this.long.push(atolBytes(buf, f[6], f[7]));
  }

  finish(): GroupQrels {
    const {
      values: [value],
      ...rest
    } = this.finishRows();
    const [qid, group, docno] = this.texts;
    return { qid, group, docno, value, long: this.long.finish(), ...rest };
  }
}
