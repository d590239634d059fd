// rankeval --rbo RUN RUN: rank-biased overlap per query, printed as trec_eval -q prints a measure, or as JSON.
import { DEFAULT_RBO_P, rboOfRuns } from "../compare/rbo.js";
import { formatLine } from "../trec/format.js";
import type { CliArgs } from "./args.js";
import { EXIT, type Io } from "./cli.js";
import { checkReadOnce, displayName } from "./file-read.js";
import { checkColumnsRead, CLI_COLUMNS_FORMAT, inputOf } from "./files.js";
import { idValuesAt } from "../input/id-values.js";
import { readRows } from "../input/input.js";
import { Interner } from "../io/interner.js";

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
  const runs = [displayName(a), displayName(b)] as const;
  const r = rboOfRuns(runA, runB, p, runs);
  if (args.format === "json") {
    const json = { p, runs, qids: r.qids, values: [...r.values], mean: r.mean };
    io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    const lines = r.qids.map((q, i) => formatLine("rbo", q, r.values[i], "float"));
    io.stdout.write(lines.join("") + formatLine("rbo", "all", r.mean, "float"));
  }
  return EXIT.ok;
}
