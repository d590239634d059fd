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
import { atolBytes } from "../c/strings.js";
import { Float64Column } from "./columns.js";
import { LineParser } from "./_lines.js";
import { parseFinite } from "./_number.js";

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

const decoder = new TextDecoder("utf-8");

export class GroupQrelsParser extends LineParser {
  private readonly qid: string[] = [];
  private readonly group: string[] = [];
  private readonly docno: string[] = [];
  private readonly value = new Float64Column();
  private readonly long = new Float64Column();
  private readonly lineOf: number[] = [];
  private readonly groupName: string;
  private readonly valueName: string;

  constructor(options: GroupQrelsParserOptions) {
    super(options.file);
    this.groupName = options.groupName ?? "group";
    this.valueName = options.valueName ?? "rel";
  }

  protected parseLines(buf: Uint8Array, p: number, end: number): void {
    const f = this.fields;
    while (p < end) {
      const next = this.tokenize(buf, p, 5);
      if (this.nFields !== 0) {
        if (this.nFields !== 4) this.failFieldCount(`4 fields (qid ${this.groupName} docno ${this.valueName})`, 4);
        const v = parseFinite(buf, f[6], f[7]);
        if (v !== v) this.failNumber(buf, f[6], f[7], this.valueName);
        this.qid.push(decoder.decode(buf.subarray(f[0], f[1])));
        this.group.push(decoder.decode(buf.subarray(f[2], f[3])));
        this.docno.push(decoder.decode(buf.subarray(f[4], f[5])));
        this.value.push(v);
        this.long.push(atolBytes(buf, f[6], f[7]));
        this.lineOf.push(this.line);
      }
      this.line++;
      p = next;
    }
  }

  /** Parses the rest of the input and returns the entries. */
  finish(): GroupQrels {
    this.finishLines();
    const value = this.value.finish();
    return { qid: this.qid, group: this.group, docno: this.docno, value, long: this.long.finish(), lines: Int32Array.from(this.lineOf), length: value.length, file: this.file };
  }
}
