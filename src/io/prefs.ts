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
import { Float64Column } from "./columns.js";
import { LineParser } from "./_lines.js";
import { parseFinite } from "./_number.js";

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

const decoder = new TextDecoder("utf-8");

export class PrefsParser extends LineParser {
  private readonly qid: string[] = [];
  private readonly jg: string[] = [];
  private readonly jsg: string[] = [];
  private readonly docno: string[] = [];
  private readonly rel = new Float64Column();
  private readonly lineOf: number[] = [];

  constructor(options: PrefsParserOptions) {
    super(options.file);
  }

  protected parseLines(buf: Uint8Array, p: number, end: number): void {
    const f = this.fields;
    while (p < end) {
      const next = this.tokenize(buf, p, 6);
      if (this.nFields !== 0) {
        if (this.nFields !== 5) this.failFieldCount("5 fields (qid jg jsg docno rel_level)", 5);
        const v = parseFinite(buf, f[8], f[9]);
        if (v !== v) this.failNumber(buf, f[8], f[9], "rel_level");
        this.qid.push(decoder.decode(buf.subarray(f[0], f[1])));
        this.jg.push(decoder.decode(buf.subarray(f[2], f[3])));
        this.jsg.push(decoder.decode(buf.subarray(f[4], f[5])));
        this.docno.push(decoder.decode(buf.subarray(f[6], f[7])));
        this.rel.push(v);
        this.lineOf.push(this.line);
      }
      this.line++;
      p = next;
    }
  }

  /** Parses the rest of the input and returns the entries. */
  finish(): Prefs {
    this.finishLines();
    const rel = this.rel.finish();
    return { qid: this.qid, jg: this.jg, jsg: this.jsg, docno: this.docno, rel, lines: Int32Array.from(this.lineOf), length: rel.length, file: this.file };
  }
}
