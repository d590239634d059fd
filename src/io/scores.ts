/**
 * Prediction files: one score per line, as LightGBM, XGBoost and RankLib write them, parsed from bytes
 * chunk by chunk. RankLib's `qid<TAB>docIndex<TAB>score` form is accepted too (the last field is the
 * score; the other two are not checked). Scores must be finite decimal numbers: "0.1x", "nan" and
 * "inf" are errors naming the line. Blank lines and '#' comment lines are skipped; CRLF, a UTF-8 BOM
 * and a missing final newline are accepted. Browser compatible.
 *
 * @example
 * ```ts
 * const p = new ScoresParser({ file: "model.pred" });
 * p.push(new TextEncoder().encode("0.5\n-1.25\n"));
 * p.finish(); // Float64Array [0.5, -1.25]
 * ```
 */
import { KernelRows } from "./_kernel_rows.js";
import { LastId } from "./_last_id.js";
import { Interner } from "./interner.js";
import { LineParser } from "./_lines.js";
import { parseFinite } from "./_number.js";

export interface ScoresParserOptions {
  /** Name used in error messages. */
  file: string;
  /** The input's size, if known: the scores' column is sized from it once a sample is read. */
  expectedBytes?: number;
}

export class ScoresParser extends LineParser {
  /** The scores, in a kernel's memory: its fast path (assembly/parse.ts parseScoreRows) reads the usual lines. */
  private readonly rows: KernelRows;
  private readonly none = new LastId(new Interner());

  constructor(options: ScoresParserOptions) {
    super(options.file);
    this.rows = new KernelRows(options.expectedBytes);
  }

  protected parseLines(buf: Uint8Array, p: number, end: number): void {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const parser = this;
    this.rows.parseLines("scores", {
      get line() {
        return parser.line;
      },
      set line(v: number) {
        parser.line = v;
      },
      lastQid: this.none,
      slowLine: (bytes, at) => this.slowLine(bytes, at),
    }, buf, p, end);
  }

  /** Parses any line, with the exact error for a bad one; returns the index after its '\n'. */
  private slowLine(buf: Uint8Array, p: number): number {
    const next = this.tokenize(buf, p, 4);
    const n = this.nFields;
    if (n !== 0) {
      if (n !== 1 && n !== 3) this.failFieldCount("1 field (score) or 3 (qid docIndex score)", 3);
      const f = this.fields;
      const s = f[2 * n - 2];
      const e = f[2 * n - 1];
      const v = parseFinite(buf, s, e);
      if (v !== v) this.failNumber(buf, s, e, "score");
      this.rows.add(0, buf, s, s, v, this.line);
    }
    this.line++;
    return next;
  }

  /** Parses the rest of the input and returns the scores in file order (a view of the parser's memory). */
  finish(): Float64Array {
    this.finishLines();
    return this.rows.finish().value;
  }
}
