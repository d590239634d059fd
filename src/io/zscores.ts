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
import { Float64Column } from "./columns.js";
import { LineParser } from "./_lines.js";
import { parseFinite } from "./_number.js";

export interface ZscoresParserOptions {
  /** Name used in error messages. */
  file: string;
}

/** One entry per line, in file order. */
export interface Zscores {
  qid: string[];
  measure: string[];
  mean: Float64Array;
  stddev: Float64Array;
  /** The line of each entry, for error messages. */
  lines: Int32Array;
  length: number;
  /** The file name given to the parser. */
  file: string;
}

const decoder = new TextDecoder("utf-8");

export class ZscoresParser extends LineParser {
  private readonly qid: string[] = [];
  private readonly measure: string[] = [];
  private readonly mean = new Float64Column();
  private readonly stddev = new Float64Column();
  private readonly lineOf: number[] = [];

  constructor(options: ZscoresParserOptions) {
    super(options.file);
  }

  protected parseLines(buf: Uint8Array, p: number, end: number): void {
    const f = this.fields;
    while (p < end) {
      const next = this.tokenize(buf, p, 5);
      if (this.nFields !== 0) {
        if (this.nFields !== 4) this.failFieldCount("4 fields (qid measure mean stddev)", 4);
        const mean = parseFinite(buf, f[4], f[5]);
        if (mean !== mean) this.failNumber(buf, f[4], f[5], "mean");
        const sd = parseFinite(buf, f[6], f[7]);
        if (sd !== sd) this.failNumber(buf, f[6], f[7], "stddev");
        this.qid.push(decoder.decode(buf.subarray(f[0], f[1])));
        this.measure.push(decoder.decode(buf.subarray(f[2], f[3])));
        this.mean.push(mean);
        this.stddev.push(sd);
        this.lineOf.push(this.line);
      }
      this.line++;
      p = next;
    }
  }

  /** Parses the rest of the input and returns the entries. */
  finish(): Zscores {
    this.finishLines();
    const mean = this.mean.finish();
    return { qid: this.qid, measure: this.measure, mean, stddev: this.stddev.finish(), lines: Int32Array.from(this.lineOf), length: mean.length, file: this.file };
  }
}
