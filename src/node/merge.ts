// Per-query results out (--per-query-out FILE) and back in (--merge FILE [FILE ...]): shards of one
// evaluation, each made by its own process (a task of a cluster job, a bucket of a dataset), merged
// into the report one process gives on the whole input (src/per-query.ts says what a shard carries).
import { readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { RankevalError } from "../errors.js";
import { mergeTables, perQueryTable, type Merged, type NamedTable, type PerQuerySettings } from "../per-query.js";
import { perQueryFormatOf, readPerQuery, writePerQuery, type PerQueryFormat } from "../per-query-files.js";
import type { Plan, RunResult } from "../trec/plan.js";
import { report, trecText } from "../trec/plan.js";
import type { CliArgs } from "./args.js";
import type { Io } from "./cli.js";
import { datasetName } from "./columnar.js";
import { displayName } from "./read.js";
import { trecTextOptions } from "./trec-formats.js";

const usage = (message: string) => new RankevalError("bad-option", message);
const bad = (message: string) => new RankevalError("bad-input", message);

/** The format of --per-query-out's file, from its name; a usage error for any other name. */
export function perQueryOutFormat(file: string): PerQueryFormat {
  const f = perQueryFormatOf(file);
  if (!f) throw usage(`--per-query-out ${file}: the format comes from the name: .parquet, .arrow, .feather, .arrows, .csv or .json`);
  return f;
}

/** The command's settings a shard carries: what every shard of one evaluation must share. */
export function settingsOf(args: CliArgs): PerQuerySettings {
  const c = {
    gain: args.gain, threshold: args.threshold, trecThreshold: args.trecThreshold, depth: args.depth, judgedOnly: args.judgedOnly,
    numDocs: args.numDocs, noRelevant: args.noRelevant, beyondList: args.beyondList, ties: args.ties, preset: args.preset,
  };
  // Unset options are left out (JSON has no undefined), as the command line leaves them unset.
  const conventions = Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)) as PerQuerySettings["conventions"];
  return { measures: [...args.measures], conventions, complete: args.complete, tieRange: args.tieRange };
}

/** This rankeval's version, written into the files it makes. */
function version(): string | undefined {
  try {
    return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * Writes --per-query-out's file: a row per run and query, each run named by its path without its
 * Hive partitions (`runs/bm25/bucket=3` is `runs/bm25`: the shards of one run share its name).
 * Returns false when the file cannot be written, having said why on stderr.
 */
export async function writePerQueryOut(file: string, p: Plan, settings: PerQuerySettings, runs: readonly RunResult[], io: Io, names?: readonly string[]): Promise<boolean> {
  const table = perQueryTable(p, settings, runs, names ?? runs.map((r) => datasetName(displayName(r.file))), version());
  const bytes = await writePerQuery(table, perQueryOutFormat(file));
  try {
    const handle = await open(file, "w");
    try {
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
  } catch (e) {
    io.stderr.write(`rankeval: ${file}: cannot write the per-query results: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
    return false;
  }
  return true;
}

/** Per-query files read and merged (src/per-query.ts mergeTables). */
export async function readMerged(files: readonly string[]): Promise<Merged> {
  const tables: NamedTable[] = [];
  for (const file of files) {
    if (file === "-") throw usage("--merge reads per-query files, not standard input");
    let handle;
    try {
      handle = await open(file, "r");
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw bad(`${file}: cannot read it: ${code === "ENOENT" ? "no such file (ENOENT)" : code === "EISDIR" ? "is a directory, not a file (EISDIR)" : code ?? String(e)}`);
    }
    try {
      const { size } = await handle.stat();
      const source = {
        byteLength: size,
        async slice(start: number, end = size) {
          const bytes = new Uint8Array(Math.max(0, Math.min(end, size) - start));
          let at = 0;
          while (at < bytes.length) {
            const { bytesRead } = await handle.read(bytes, at, bytes.length - at, start + at);
            if (bytesRead === 0) break;
            at += bytesRead;
          }
          return bytes.buffer;
        },
      };
      tables.push({ file, table: await readPerQuery(source, file) });
    } finally {
      await handle.close();
    }
  }
  return mergeTables(tables);
}

/** The evaluation's options, which per-query results cannot change: they were computed under theirs. */
const EVALUATION_OPTIONS: readonly [keyof CliArgs, string][] = [
  ["measures", "-m"], ["complete", "-c"], ["judgedOnly", "-J"], ["threshold", "-l"], ["depth", "-M"], ["gain", "--gain"], ["noRelevant", "--no-relevant"],
  ["beyondList", "--beyond-list"], ["ties", "--ties"], ["preset", "--preset"], ["numDocs", "-N"], ["inputFormat", "--input-format"], ["columns", "--columns"],
  ["tieRange", "--tie-range"], ["letor", "--letor"], ["debugQuery", "-D"], ["diversity", "--diversity"], ["explain", "--explain"], ["report", "--report"],
];

/** Refuses the evaluation's options with --merge: the shards say how they were made. */
export function checkMergeArgs(args: CliArgs): void {
  for (const [key, option] of EVALUATION_OPTIONS) {
    const v = args[key];
    if (v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0)) throw usage(`${option} cannot change merged results: the shards carry the measures and conventions they were made with`);
  }
  if (args.relFormat !== undefined && args.relFormat !== "qrels") throw usage(`-R ${args.relFormat} cannot change merged results: the shards carry the measures and conventions they were made with`);
  if (!args.files.length) throw usage("--merge needs per-query files (written with --per-query-out)");
}

/**
 * rankeval --merge PERQUERY [PERQUERY ...]: the shards merged, then printed as the evaluation of the
 * whole input prints (trec_eval's text, a table, JSON, CSV; -q, -n), written again (--per-query-out:
 * shards of shards), or compared (--compare, handled by compare.ts over these runs).
 */
export async function mergeMode(args: CliArgs, io: Io): Promise<number> {
  checkMergeArgs(args);
  const merged = await readMerged(args.files);
  const { p, settings, runs } = merged;
  for (const w of p.warnings) io.stderr.write(`rankeval: warning: ${w}\n`);
  const format = args.format ?? (p.kind === "trec" && !settings.tieRange ? "trec" : "table");
  if (format === "trec" && p.kind !== "trec") throw usage("--format trec needs trec_eval measure names: these shards were made with others");
  if (format === "trec" && settings.tieRange) throw usage("--tie-range's [worst, best] (the shards have them) has no place in trec_eval's text: use --format table, json or csv");
  if (format === "ndeval") throw usage("--format ndeval prints subtopic judgments' measures (--diversity), which shards do not carry");
  if (format === "trec") {
    // -Z (Z scores) as the evaluation's command line prints them.
    const options = { ...(await trecTextOptions(args, p, format, io)), complete: settings.complete };
    runs.forEach((r, i) => {
      const text = trecText(p, r, options);
      io.stdout.write(runs.length === 1 ? text : `${i ? "\n" : ""}==> ${r.file} <==\n${text}`);
    });
  } else {
    io.stdout.write(report(format, runs.map((r) => ({ name: r.file, runTag: r.runTag, result: r.result })), p, args.perQuery, args.noSummary));
  }
  if (args.perQueryOut !== undefined && !(await writePerQueryOut(args.perQueryOut, p, settings, runs, io, runs.map((r) => r.file)))) return 74;
  return 0;
}
