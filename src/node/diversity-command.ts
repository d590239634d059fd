// The command line's diversity evaluation: subtopic qrels, each run read whole, printed as any report or as ndeval.
import { withIntervals } from "../pipeline/interval.js";
import { RankevalError } from "../errors/errors.js";
import { fileFormat, isColumnarPath } from "./columnar-files.js";
import type { InputFormat } from "../input/formats.js";
import { readSubtopicJudgments, subtopicShaped } from "../input/subtopics.js";
import { parseMeasures } from "../names/resolve.js";
import { labelledTexts } from "../output/table.js";
import { ndevalColumns, ndevalText } from "../output/ndeval-text.js";
import { evaluateSubtopicRun, SUBTOPIC_MEASURES } from "../app/subtopic-runs.js";
import { onlyQuery, options, plan, type Plan, type RunResult } from "../app/plan.js";
import { report, trecText } from "../output/results.js";
import { type CliArgs, defaultFormat } from "./args.js";
import { checkColumnsRead, CLI_COLUMNS_FORMAT, inputOf } from "./files.js";
import { checkReadOnce, displayName, readInto, rereadable, textInput } from "./file-read.js";
import { trecTextOptions } from "./trec-formats.js";
import { namesApart } from "../output/run-names.js";
import type { Io } from "./cli.js";

/** Whether a qrels file is subtopic judgments by its shape (pipes are not sniffed: read once; Parquet and Arrow judgments are qrels: their columns say so). */
export async function looksLikeSubtopicQrels(file: string, format?: InputFormat): Promise<boolean> {
  return !isColumnarPath(file, format) && (await rereadable(file)) && subtopicShaped((sink) => readInto(file, sink));
}

/** --diversity, --format ndeval, or a diversity measure. */
export function asksForDiversity(args: CliArgs): boolean {
  if (args.diversity || args.format === "ndeval") return true;
  for (const m of args.measures) {
    try {
      if (parseMeasures(m).some((x) => x.family.diversity)) return true;
    } catch {
      // the plan says so
    }
  }
  return false;
}

/** Evaluates every run against the subtopic qrels and prints the report; returns the exit status. */
export async function diversityMode(args: CliArgs, io: Io): Promise<number> {
  const [qrelsFile, ...runFiles] = args.files;
  await checkReadOnce([["QRELS", qrelsFile], ...runFiles.map((f) => ["RUN", f] as const)]);
  // Subtopic judgments are TREC text: --columns names only the runs'.
  checkColumnsRead(runFiles, { format: args.inputFormat, columns: args.columns }, "--columns", CLI_COLUMNS_FORMAT);
  const p = plan(args.measures.length ? args.measures : SUBTOPIC_MEASURES, null, args);
  for (const w of p.warnings) io.stderr.write(`rankeval: warning: ${w}\n`);
  const format = args.format ?? (args.measures.length === 0 ? "ndeval" : defaultFormat(args, p.kind === "trec"));
  const columns = format === "ndeval" ? ndevalColumns(p) : [];
  if (format === "ndeval" && args.debugQuery !== undefined)
    throw new RankevalError("bad-option", "-D N.QID is trec_eval's: with --format ndeval every topic is printed");
  const text = await trecTextOptions(args, p, format, io);
  const opts = options(args, p.kind === "trec");

  const judgments = await readSubtopicJudgments(textInput(qrelsFile));

  const runs: RunResult[] = [];
  const ndeval: { name: string; text: string }[] = [];
  for (const file of runFiles) {
    const name = displayName(file);
    const choice = { format: fileFormat(file, args.inputFormat).format, columns: args.columns };
    const warned = new Set<string>();
    const warn = (w: string) => {
      if (!warned.has(w)) io.stderr.write(`rankeval: ${w}\n`);
      warned.add(w);
    };
    const request = {
      name,
      plan: p,
      options: opts,
      complete: args.complete,
      hint: true,
      extras: { tieRange: args.tieRange },
    };
    const { joined, runTag, qids, evaluated } = await evaluateSubtopicRun(
      judgments,
      inputOf(file, choice),
      choice,
      request,
      warn,
    );
    const r: RunResult = { file, runTag, ...evaluated };
    runs.push(r);
    if (format === "ndeval") {
      const ranked = new Set(qids);
      const absent = new Set(joined.qids.filter((id) => !ranked.has(id)));
      ndeval.push({ name, text: ndevalText(columns, r, joined.runOnly, absent, joined.qids.length) });
    }
  }
  if (format === "ndeval") io.stdout.write(labelledTexts(ndeval));
  else if (format === "trec") {
    if (p.kind !== "trec")
      throw new RankevalError("bad-option", "--format trec needs trec_eval measure names (as ndcg_cut.10, P.5, map)");
    io.stdout.write(labelledTexts(runs.map((r) => ({ name: displayName(r.file), text: trecText(p, r, text) }))));
  } else io.stdout.write(runsReport(format, runs, p, args));
  return 0;
}

/** The runs' table, JSON or CSV. */
export function runsReport(
  format: "table" | "json" | "csv",
  runs: readonly RunResult[],
  p: Plan,
  args: CliArgs,
): string {
  const only = (r: RunResult) => (args.debugQuery === undefined ? r.result : onlyQuery(r.result, args.debugQuery));
  // --interval's settings (the evaluation took the 95% t ones).
  const withAsked = (r: RunResult) => (args.interval ? withIntervals(only(r), args.interval) : only(r));
  // One file given twice: named apart, as the page does.
  const names = namesApart(runs.map((r) => r.file));
  const named = runs.map((r, i) => ({ name: names[i], runTag: r.runTag, result: withAsked(r) }));
  return report(format, named, p, args.perQuery, args.noSummary, args.interval);
}
