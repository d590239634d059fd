// rankeval --compare: runs evaluated (QRELS RUN RUN ...) or per-query results, compared and printed.
import {
  compareAsync,
  DEFAULT_COMPARE_OPTIONS,
  type CompareOptions,
  type Comparison,
  type NamedResult,
} from "../compare/compare.js";
import {
  formatComparison,
  gateJunit,
  gateMarkdown,
  queriesNeeded,
  withMeasureCorrelations,
  type ComparisonFormat,
} from "../output/comparison.js";
import { comparableResult, comparableRows, leftOutOfComparison, notPerQuery } from "../app/comparable.js";
import {
  looksLikePerQueryCsv,
  looksLikePerQueryJson,
  PerQueryCsvReader,
  readPerQueryJson,
  type PerQueryRun,
} from "../output/per-query-runs.js";
import { usageError, badInput } from "../errors/errors.js";
import { checkGates } from "../compare/gate.js";
import { writeFileSync } from "node:fs";
import { plan, type Plan, type RunResult } from "../app/plan.js";
import { EVALUATION_OPTIONS, type CliArgs } from "./args.js";
import { EXIT, type Io } from "./cli.js";
import { resamplingPool, resamplingWork, threadsFor } from "./compare-pool.js";
import { displayName, FileError, readInto, rereadable } from "./file-read.js";

/** cli.ts's evaluateTrecRuns, passed in to keep one way. */
export type EvaluateRuns = (args: CliArgs, io: Io) => Promise<{ p: Plan; runs: RunResult[] }>;

export async function compareMode(
  args: CliArgs,
  io: Io,
  evaluate: EvaluateRuns,
  merged?: () => Promise<{ p: Plan; runs: RunResult[]; settings: { measures: readonly string[] } }>,
): Promise<number> {
  if (args.files.length === 0)
    throw usageError(
      "--compare needs QRELS RUN RUN [RUN ...], or per-query results rankeval wrote (-q --format json or csv)",
    );
  const kinds = merged ? [] : await Promise.all(args.files.map(perQueryKind));
  let runs: NamedResult[];
  if (merged) {
    const m = await merged();
    const rows = perQueryRows(m.p, m.settings.measures, io, "none of the shards' is a per-query number");
    if (m.runs.length < 2)
      throw usageError(`--compare needs at least two runs: the shards hold one (${m.runs[0].file})`);
    if (args.baseline !== undefined && !m.runs.some((r) => r.file === args.baseline))
      throw usageError(`--baseline ${args.baseline} is not one of the runs (${m.runs.map((r) => r.file).join(", ")})`);
    runs = m.runs.map((r) => ({ name: r.file, result: comparableResult(r.result, rows) }));
  } else if (kinds[0] !== null) {
    const other = args.files.find((_, i) => kinds[i] === null);
    if (other !== undefined)
      throw usageError(
        `${displayName(other)} is not a per-query result rankeval wrote (-q --format json or csv): with per-query results (${args.files[0]}), give only those`,
      );
    runs = await perQueryRuns(args, io, kinds as ("json" | "csv")[]);
  } else {
    const perQuery = args.files.find((_, i) => kinds[i] !== null);
    if (perQuery !== undefined)
      throw usageError(
        `${perQuery} is a per-query result rankeval wrote: give only per-query results, or QRELS RUN RUN [RUN ...]`,
      );
    if (args.files.length < 3)
      throw usageError(
        `--compare needs at least two runs: QRELS RUN RUN [RUN ...] (got ${args.files.length === 1 ? "one file" : `QRELS and one RUN`})`,
      );
    // Said before the files are read (compare() would say it after).
    const runFiles = args.files.slice(1);
    const twice = runFiles.find((f, i) => runFiles.indexOf(f) !== i);
    if (twice !== undefined) throw usageError(`two runs are named "${twice}"; give each run its own name`);
    if (args.baseline !== undefined && !runFiles.includes(args.baseline))
      throw usageError(`--baseline ${args.baseline} is not one of the runs (${runFiles.join(", ")})`);
    runs = await evaluatedRuns(args, io, evaluate);
  }
  const c = await compareRuns(runs, compareOptions(args, runs));
  const format: ComparisonFormat =
    args.comparisonFormat ?? (args.format === "json" || args.format === "csv" ? args.format : "table");
  const text = formatComparison(c, format, { sideBySide: true, markTest: args.tests?.[0] });
  io.stdout.write(args.correlation ? correlations(c, format, text) : text);
  const data = format === "json" || format === "csv";
  // --detect: queries each pair would need (on stderr after JSON or CSV).
  if (args.detect !== undefined) {
    const needed = queriesNeeded(c, args.detect, args.power ?? 0.8);
    if (data) io.stderr.write(needed);
    else io.stdout.write(`\n${needed}`);
  }
  return args.gates?.length ? gate(c, runs, args, io, data) : 0;
}

/** --correlation: the text followed by how each pair of measures orders the runs. */
function correlations(c: Comparison, format: ComparisonFormat, text: string): string {
  if (c.measures.length < 2)
    throw usageError(
      `--correlation says how measures order the runs: give two measures or more (-m), not only ${c.measures[0]}`,
    );
  // args.ts refuses the other formats.
  return withMeasureCorrelations(c, format as "table" | "markdown" | "json", text);
}

/** --gate: each gate on each run, as Markdown after the comparison (stderr after JSON or CSV), and --junit's XML. */
function gate(c: Comparison, runs: readonly NamedResult[], args: CliArgs, io: Io, data: boolean): number {
  const verdicts = checkGates(
    c,
    args.gates!,
    // A gate's measure under -m's name (ndcg_cut.10 is compared as ndcg_cut_10).
    (name) => {
      try {
        return plan([name], null, args).rows[0]?.name ?? null;
      } catch {
        return null;
      }
    },
    (run, measure) => {
      const r = runs.find((x) => x.name === run)!.result;
      return { qids: r.qids as string[], values: r.values[measure] };
    },
  );
  if (data) io.stderr.write(gateMarkdown(c, verdicts));
  else io.stdout.write(`\n${gateMarkdown(c, verdicts)}`);
  if (args.junit !== undefined) {
    try {
      writeFileSync(args.junit, gateJunit(verdicts));
    } catch (e) {
      throw badInput(`--junit ${args.junit}: cannot write it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
  }
  return verdicts.some((v) => v.failed) ? EXIT.gate : EXIT.ok;
}

/** compare()'s options from the command line's; --baseline checked against the runs. */
export function compareOptions(args: CliArgs, runs: readonly NamedResult[]): CompareOptions {
  const names = runs.map((r) => r.name);
  let baseline = args.baseline;
  if (baseline !== undefined && !names.includes(baseline)) {
    // A per-query file holding one run names it too.
    const byFile = runs.filter((r) => (r as Partial<PerQueryRun>).file === baseline);
    if (byFile.length !== 1) throw usageError(`--baseline ${baseline} is not one of the runs (${names.join(", ")})`);
    baseline = byFile[0].name;
  }
  return {
    baseline,
    pairs: args.allPairs ? "all" : "baseline",
    tests: args.tests,
    correction: args.correction,
    alpha: args.alpha,
    iterations: args.permutations,
    seed: args.seed,
  };
}

/** compare() over worker threads where the resampling pays for them: the same result to the last bit. */
export async function compareRuns(runs: readonly NamedResult[], o: CompareOptions): Promise<Comparison> {
  const env = process.env.RANKEVAL_COMPARE_THREADS;
  if (env !== undefined && env !== "" && !/^\d+$/.test(env))
    throw usageError(`RANKEVAL_COMPARE_THREADS="${env}" is not a number of threads (0 or more)`);
  const queries = Math.max(...runs.map((r) => r.result.qids.length));
  const work = resamplingWork(
    o.tests ?? DEFAULT_COMPARE_OPTIONS.tests,
    o.iterations ?? DEFAULT_COMPARE_OPTIONS.iterations,
    queries,
    runs.length,
    runs[0].result.measures.length,
  );
  const pool = resamplingPool(Math.min(threadsFor(work, env ? Number(env) : undefined), 256));
  try {
    return await compareAsync(runs, o, pool);
  } finally {
    await pool.close();
  }
}

/** Whether a file is a per-query result rankeval wrote, from its first 4 KiB (never a pipe: read once). */
async function perQueryKind(path: string): Promise<"json" | "csv" | null> {
  if (!(await rereadable(path))) return null;
  let head = "";
  const decoder = new TextDecoder();
  const enough = new Error("enough");
  try {
    await readInto(path, {
      push(chunk) {
        if ((head += decoder.decode(chunk, { stream: true })).length >= 4096) throw enough;
      },
    });
  } catch (e) {
    if (e !== enough) return null; // the reader says what is wrong with it
  }
  return looksLikePerQueryJson(head) ? "json" : looksLikePerQueryCsv(head) ? "csv" : null;
}

/** The runs of per-query results: their per-query numbers (or the -m names), under one set of conventions. */
async function perQueryRuns(args: CliArgs, io: Io, kinds: readonly ("json" | "csv")[]): Promise<NamedResult[]> {
  for (const [key, option] of EVALUATION_OPTIONS) {
    if (args[key] !== undefined && args[key] !== false)
      throw usageError(`${option} cannot change per-query results: they carry the conventions they were computed with`);
  }
  const files: PerQueryRun[][] = [];
  for (let i = 0; i < args.files.length; i++) files.push(await readPerQueryFile(args.files[i], kinds[i]));
  const all = files.flat();
  if (all.length < 2)
    throw usageError(`--compare needs at least two runs: ${args.files[0]} holds one (${all[0].name})`);
  const first = all[0];
  let measures = first.result.measures.filter((m) => !notPerQuery(m));
  const left = first.result.measures.filter(notPerQuery);
  if (args.measures.length) {
    const p = plan(args.measures, null);
    for (const w of p.warnings) io.stderr.write(`rankeval: warning: ${w}\n`);
    const asked = p.rows.map((r) => r.name).filter((m) => !notPerQuery(m));
    const missing = asked.filter((m) => !measures.includes(m));
    if (missing.length)
      throw badInput(`${first.file} has no per-query values of ${missing.join(", ")} (it has ${measures.join(", ")})`);
    measures = asked;
  } else if (left.length) {
    io.stderr.write(`rankeval: not per-query numbers, left out of the comparison: ${left.join(", ")}\n`);
  }
  if (!measures.length) throw usageError("no measure to compare: none is a per-query number");
  for (const run of all) {
    for (const m of measures) {
      if (!run.result.values[m])
        throw badInput(
          `${run.file}: run ${run.name} has no per-query values of ${m} (${first.file}'s ${first.name} has)`,
        );
      const mine = run.result.measureConventions[m];
      const theirs = first.result.measureConventions[m];
      if (mine !== theirs)
        throw badInput(
          `${first.file} and ${run.file} were made under different conventions (${m}: ${theirs}; ${mine}): they cannot be compared`,
        );
    }
  }
  // Runs named alike in two files are each named by their file too.
  const names = all.map((r) => r.name);
  const rows = measures.map((m) => ({ name: m, measure: m }));
  return all.map(
    (r): PerQueryRun => ({
      name: names.indexOf(r.name) !== names.lastIndexOf(r.name) ? `${r.file}:${r.name}` : r.name,
      file: r.file,
      result: comparableResult(r.result, rows),
    }),
  );
}

/** JSON per-query results are parsed whole: a bound on what is held (the CSV form streams, unbounded). */
const PER_QUERY_JSON_MAX = 256 * 2 ** 20;

async function readPerQueryFile(path: string, kind: "json" | "csv"): Promise<PerQueryRun[]> {
  const decoder = new TextDecoder();
  if (kind === "csv") {
    const reader = new PerQueryCsvReader(path);
    await readInto(path, { push: (chunk) => reader.push(decoder.decode(chunk, { stream: true })) });
    reader.push(decoder.decode());
    return reader.finish();
  }
  const parts: string[] = [];
  let bytes = 0;
  await readInto(path, {
    push: (chunk) => {
      bytes += chunk.length;
      if (bytes > PER_QUERY_JSON_MAX)
        throw new FileError(
          displayName(path),
          `per-query JSON results past ${PER_QUERY_JSON_MAX / 2 ** 20} MiB are not read (JSON is parsed whole): ` +
            "write them with -q --format csv, which is read as it streams",
        );
      parts.push(decoder.decode(chunk, { stream: true }));
    },
  });
  parts.push(decoder.decode());
  return readPerQueryJson(parts.join(""), path);
}

/** The plan's rows that are per-query numbers, the others said left out. */
function perQueryRows(p: Plan, measures: readonly string[], io: Io, none: string) {
  const comparable = comparableRows(p, measures);
  if (!comparable.rows.length) throw usageError(`no measure to compare: ${none}`);
  for (const note of leftOutOfComparison(comparable)) io.stderr.write(`rankeval: ${note}\n`);
  return comparable.rows;
}

/** QRELS RUN RUN ... evaluated; the rows that are per-query numbers. */
async function evaluatedRuns(args: CliArgs, io: Io, evaluate: EvaluateRuns): Promise<NamedResult[]> {
  const rows = perQueryRows(
    plan(args.measures, null, args),
    args.measures,
    io,
    "none of those asked is a per-query number",
  );
  const { runs } = await evaluate(args, io);
  return runs.map((r) => ({ name: r.file, result: comparableResult(r.result, rows) }));
}
