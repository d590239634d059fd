// --per-query-out and --merge: shards of one evaluation, made apart, merged into the whole input's report.
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { usageError, badInput } from "../errors/errors.js";
import type { ByteSource } from "../io/columnar.js";
import {
  checkSameEvaluation,
  geometricKeys,
  mergeRunSummaries,
  mergeTables,
  perQueryTable,
  shardsUnderSeveralNames,
  summaryResult,
  trecSummaryValues,
  type Merged,
  type NamedTable,
  type PerQuerySettings,
} from "../output/per-query.js";
import {
  openPerQueryParquet,
  perQueryFormatOf,
  readPerQuery,
  writePerQuery,
  type PerQueryFormat,
} from "../output/per-query-files.js";
import { labelledTexts } from "../output/table.js";
import { runsReport } from "./diversity-command.js";
import { formatTrecReport } from "../output/trec-text.js";
import type { Plan, RunResult } from "../app/plan.js";
import { lineKey, plan } from "../app/plan.js";
import { report, trecText } from "../output/results.js";
import { defaultFormat, EVALUATION_OPTIONS, type CliArgs } from "./args.js";
import type { Io } from "./cli.js";
import { datasetName, fileSource } from "./columnar-files.js";
import { displayName } from "./file-read.js";
import { trecTextOptions } from "./trec-formats.js";

function perQueryOutFormat(file: string): PerQueryFormat {
  const f = perQueryFormatOf(file);
  if (!f)
    throw usageError(
      `--per-query-out ${file}: the format comes from the name: .parquet, .arrow, .feather, .arrows, .csv or .json`,
    );
  return f;
}

/** The settings every shard of one evaluation must share. */
export function settingsOf(args: CliArgs): PerQuerySettings {
  const c = {
    gain: args.gain,
    threshold: args.threshold,
    trecThreshold: args.trecThreshold,
    depth: args.depth,
    judgedOnly: args.judgedOnly,
    numDocs: args.numDocs,
    noRelevant: args.noRelevant,
    beyondList: args.beyondList,
    ties: args.ties,
    preset: args.preset,
  };
  // Unset options left out (JSON has no undefined).
  const conventions = Object.fromEntries(
    Object.entries(c).filter(([, v]) => v !== undefined),
  ) as PerQuerySettings["conventions"];
  return { measures: [...args.measures], conventions, complete: args.complete, tieRange: args.tieRange };
}

function version(): string | undefined {
  try {
    return (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string })
      .version;
  } catch {
    return undefined;
  }
}

/** Writes --per-query-out's file (runs named without Hive partitions); false when it cannot (said). */
export async function writePerQueryOut(
  file: string,
  p: Plan,
  settings: PerQuerySettings,
  runs: readonly RunResult[],
  io: Io,
  names?: readonly string[],
): Promise<boolean> {
  const table = perQueryTable(p, settings, runs, names ?? runs.map((r) => datasetName(displayName(r.file))), version());
  const bytes = await writePerQuery(table, perQueryOutFormat(file));
  try {
    await writeFile(file, bytes);
  } catch (e) {
    io.stderr.write(
      `rankeval: ${file}: cannot write the per-query results: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`,
    );
    return false;
  }
  return true;
}

export async function readMerged(files: readonly string[]): Promise<Merged> {
  const tables: NamedTable[] = [];
  for (const file of files) {
    const { source, close } = await openSource(file);
    try {
      tables.push({ file, table: await readPerQuery(source, file) });
    } finally {
      await close();
    }
  }
  return mergeTables(tables);
}

/** What a merge cannot take: no rows are read again. */
const MERGE_CANNOT: readonly [keyof CliArgs, string][] = [
  ["measures", "-m"],
  ...EVALUATION_OPTIONS,
  ["tieRange", "--tie-range"],
  ["letor", "--letor"],
  ["debugQuery", "-D"],
  ["diversity", "--diversity"],
  ["explain", "--explain"],
  ["report", "--report"],
];

export function checkMergeArgs(args: CliArgs): void {
  const option =
    MERGE_CANNOT.find(([key]) => {
      const v = args[key];
      return v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0);
    })?.[1] ?? ((args.relFormat ?? "qrels") !== "qrels" ? `-R ${args.relFormat}` : undefined);
  if (option)
    throw usageError(
      `${option} cannot change merged results: the shards carry the measures and conventions they were made with`,
    );
  if (!args.files.length) throw usageError("--merge needs per-query files (written with --per-query-out)");
}

export async function mergeMode(args: CliArgs, io: Io): Promise<number> {
  checkMergeArgs(args);
  // Summaries of Parquet shards merge as they stream (a row group of each in memory); a bootstrap
  // interval needs every query's value, which only the whole merge keeps.
  if (
    !args.perQuery &&
    args.perQueryOut === undefined &&
    args.zscoreFile === undefined &&
    args.format !== "ndeval" &&
    args.interval?.method !== "bootstrap"
  ) {
    const status = await mergeSummariesMode(args, io);
    if (status !== null) {
      mergesStreamed.count++;
      return status;
    }
  }
  const merged = await readMerged(args.files);
  const { p, settings, runs } = merged;
  for (const w of [...p.warnings, ...shardsUnderSeveralNames(merged.shards)])
    io.stderr.write(`rankeval: warning: ${w}\n`);
  const format = args.format ?? defaultFormat(args, p.kind === "trec", settings.tieRange);
  if (format === "trec" && p.kind !== "trec")
    throw usageError("--format trec needs trec_eval measure names: these shards were made with others");
  if (format === "trec" && settings.tieRange)
    throw usageError(
      "--tie-range's [worst, best] (the shards have them) has no place in trec_eval's text: use --format table, json or csv",
    );
  if (format === "ndeval")
    throw usageError("--format ndeval prints subtopic judgments' measures (--diversity), which shards do not carry");
  if (format === "trec") {
    const options = { ...(await trecTextOptions(args, p, format, io)), complete: settings.complete };
    runs.forEach((r, i) => {
      const text = trecText(p, r, options);
      io.stdout.write(runs.length === 1 ? text : `${i ? "\n" : ""}==> ${r.file} <==\n${text}`);
    });
  } else {
    io.stdout.write(runsReport(format, runs, p, args));
  }
  if (
    args.perQueryOut !== undefined &&
    !(await writePerQueryOut(
      args.perQueryOut,
      p,
      settings,
      runs,
      io,
      runs.map((r) => r.file),
    ))
  )
    return 74;
  return 0;
}

/** Merges made as the shards stream, counted for tests. */
export const mergesStreamed = { count: 0 };

async function openSource(file: string): Promise<{ source: ByteSource; close: () => Promise<void> }> {
  if (file === "-") throw usageError("--merge reads per-query files, not standard input");
  const { source, handle } = await fileSource(file, (_, e) => {
    const code = (e as NodeJS.ErrnoException).code;
    return badInput(
      `${file}: cannot read it: ${code === "ENOENT" ? "no such file (ENOENT)" : code === "EISDIR" ? "is a directory, not a file (EISDIR)" : (code ?? String(e))}`,
    );
  });
  return { source, close: () => handle.close() };
}

/** Parquet shards' summaries merged a row group at a time, k ways in qid order; null unless all are Parquet. */
async function mergeSummariesMode(args: CliArgs, io: Io): Promise<number | null> {
  const opened: {
    file: string;
    close: () => Promise<void>;
    pq: NonNullable<Awaited<ReturnType<typeof openPerQueryParquet>>>;
  }[] = [];
  try {
    for (const file of args.files) {
      const { source, close } = await openSource(file);
      const pq = await openPerQueryParquet(source, file).catch(async (e) => {
        await close();
        throw e;
      });
      if (!pq) {
        await close();
        return null;
      }
      opened.push({ file, close, pq });
    }
    checkSameEvaluation(opened.map((o) => ({ file: o.file, meta: o.pq.meta })));
    const meta = opened[0].pq.meta;
    const p = plan(meta.settings.measures, null, meta.settings.conventions);
    const format = args.format ?? defaultFormat(args, p.kind === "trec", meta.settings.tieRange);
    if (format === "trec" && (p.kind !== "trec" || meta.settings.tieRange)) return null; // said by the whole merge
    const logKeys = geometricKeys(p, meta);
    const names: string[] = [];
    for (const o of opened) for (const r of o.pq.meta.runs) if (!names.includes(r.name)) names.push(r.name);
    const merged = [];
    for (const name of names) {
      const holding = opened.flatMap((o) =>
        o.pq.meta.runs.map((info, i) => ({ o, info, i })).filter((x) => x.info.name === name),
      );
      merged.push(
        await mergeRunSummaries(
          name,
          meta,
          holding.map((x) => ({ file: x.o.file, info: x.info })),
          holding.map((x) => ({ file: x.o.file, chunks: x.o.pq.chunks(x.i) })),
          logKeys,
        ),
      );
    }
    const shards = opened.map((o) => ({ file: o.file, meta: o.pq.meta }));
    for (const w of [...p.warnings, ...shardsUnderSeveralNames(shards)]) io.stderr.write(`rankeval: warning: ${w}\n`);
    if (format === "trec") {
      const texts: string[] = [];
      for (const m of merged) {
        const summary = trecSummaryValues(p, meta, m);
        if (!summary) return null;
        texts.push(
          formatTrecReport({
            runid: m.runTag,
            measures: p.trec,
            keyOf: (l) => lineKey(l) ?? l.name,
            printPerQuery: false,
            printSummary: !args.noSummary,
            summary,
            numQ: m.queries.evaluated,
          }),
        );
      }
      io.stdout.write(labelledTexts(merged.map((m, i) => ({ name: m.name, text: texts[i] }))));
    } else {
      if (format === "ndeval") return null;
      io.stdout.write(
        report(
          format,
          merged.map((m) => ({
            name: m.name,
            runTag: m.runTag,
            result: summaryResult(meta, p, m, args.interval?.level),
          })),
          p,
          false,
          args.noSummary,
          args.interval,
        ),
      );
    }
    return 0;
  } finally {
    for (const o of opened) await o.close();
  }
}
