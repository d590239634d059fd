// rankeval --rbo RUN RUN: two runs' rank-biased overlap per query (src/compare/rbo.ts), printed as
// trec_eval -q prints a measure (rbo QID VALUE, then rbo all MEAN), or as JSON.
import { DEFAULT_RBO_P, rboOfRuns } from "../compare/rbo.js";
import { formatLine } from "../trec/format.js";
import type { CliArgs } from "./args.js";
import { EXIT, type Io } from "./cli.js";
import { checkReadOnce, displayName } from "./file-read.js";
import { checkColumnsRead, CLI_COLUMNS_FORMAT, inputOf } from "./files.js";
import { idValuesAt } from "../input/id-values.js";
import { readRows } from "../input/input.js";
import { Interner } from "../io/interner.js";

/** Runs `rankeval --rbo RUN RUN`; errors are thrown as RankevalErrors for main() to report. */
export async function rboMode(args: CliArgs, io: Io): Promise<number> {
  const [a, b] = args.files;
  await checkReadOnce([
    ["RUN", a],
    ["RUN", b],
  ]);
  const choice = { format: args.inputFormat, columns: args.columns };
  checkColumnsRead([a, b], choice, "--columns", CLI_COLUMNS_FORMAT);
  const read = async (path: string) => {
    const { rows, placeOf } = await readRows("run", inputOf(path, choice), new Interner(), choice);
    return idValuesAt(rows, rows.score, placeOf);
  };
  const [runA, runB] = await Promise.all([read(a), read(b)]);
  const p = args.rboP ?? DEFAULT_RBO_P;
  const r = rboOfRuns(runA, runB, p, [displayName(a), displayName(b)]);
  if (args.format === "json") {
    const json = { p, runs: [displayName(a), displayName(b)], qids: r.qids, values: [...r.values], mean: r.mean };
    io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    const lines = r.qids.map((q, i) => formatLine("rbo", q, r.values[i], "float"));
    io.stdout.write(lines.join("") + formatLine("rbo", "all", r.mean, "float"));
  }
  return EXIT.ok;
}
