/**
 * Group files (LightGBM `.query`, XGBoost `.group`): one positive integer a line, the number of
 * consecutive rows of the data file in the next query.
 *
 * @example
 * ```ts
 * const p = new GroupParser({ file: "rank.test.query" });
 * p.push(new TextEncoder().encode("12\n19\n"));
 * p.finish(); // Int32Array [12, 19]
 * ```
 */ import { checkOptions, required, STRING } from "../errors/errors.js";
import { Int32Column } from "./columns.js";
import { LineParser, quote } from "./line-parser.js";
import { parsePositiveInt } from "./decimal.js";

export interface GroupParserOptions {
  /** Name used in error messages. */
  file: string;
}

export class GroupParser extends LineParser {
  private readonly size = new Int32Column();

  constructor(options: GroupParserOptions) {
    super(checkOptions(options, { file: required(STRING) }, "GroupParser").file, 2);
  }

  protected override row(buf: Uint8Array, f: Int32Array, n: number) {
    if (n !== 1) this.failFieldCount("1 field (group size)", 1);
    const v = parsePositiveInt(buf, f[0], f[1]);
    if (v < 0) this.fail(f[0], `group size ${quote(buf, f[0], f[1])} is not a positive integer`);
    this.size.push(v);
  }

  /** Parses the rest; the group sizes in file order. */
  finish(): Int32Array {
    this.finishLines();
    return this.size.finish();
  }
}
