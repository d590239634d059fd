// The command line's diversity evaluation: subtopic qrels (asked for, or told by their shape), each run
// read whole, joined and evaluated, printed as any report or as ndeval prints it.
import { RankevalError } from "../errors.js";
import { formatOf } from "../input/formats.js";
import { notInRun } from "../input/input.js";
import { joinSubtopicRun, readSubtopicJudgments, subtopicShaped } from "../input/subtopics.js";
import { NDEVAL_COLUMNS } from "../measures/ndeval.js";
import { parseMeasures } from "../measures/resolve.js";
import { labelledTexts } from "../output/table.js";
import { formatFixed } from "../trec/format.js";
import { evaluateBlock } from "../pipeline/evaluate-block.js";
import { onlyQuery, options, plan, type Plan, type RunResult } from "../app/plan.js";
import { report, trecText } from "../output/results.js";
import type { CliArgs } from "./args.js";
import { checkColumnsRead, CLI_COLUMNS_FORMAT, inputOf } from "./files.js";
import { checkReadOnce, displayName, readInto, rereadable, textInput } from "./file-read.js";
import { trecTextOptions } from "./trec-formats.js";

interface Io {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

/** Whether a qrels file is subtopic judgments by its shape (pipes are not sniffed: read once). */
export async function looksLikeSubtopicQrels(file: string): Promise<boolean> {
  return (await rereadable(file)) && subtopicShaped((sink) => readInto(file, sink));
}

/** Whether the command line asks for subtopic judgments: --diversity, --format ndeval, or a diversity measure. */
export function asksForDiversity(args: CliArgs): boolean {
  if (args.diversity || args.format === "ndeval") return true;
  for (const m of args.measures) {
    try {
      if (parseMeasures(m).some((x) => x.family.diversity)) return true;
    } catch {
      // (not a measure rankeval reads as such: the plan says so)
    }
  }
  return false;
}

/** Evaluates every run against the subtopic qrels and prints the report. Returns the exit status. */
export async function diversityMode(args: CliArgs, io: Io): Promise<number> {
  const [qrelsFile, ...runFiles] = args.files;
  await checkReadOnce([["QRELS", qrelsFile], ...runFiles.map((f) => ["RUN", f] as const)]);
  // Subtopic judgments are TREC text: --columns can name only the runs' columns.
  checkColumnsRead(runFiles, { format: args.inputFormat, columns: args.columns }, "--columns", CLI_COLUMNS_FORMAT);
  // Without -m: ndeval's measures, printed as ndeval prints them.
  const p = plan(args.measures.length ? args.measures : ["ndeval"], null, args);
  for (const w of p.warnings) io.stderr.write(`rankeval: warning: ${w}\n`);
  const format = args.format ?? (args.measures.length === 0 ? "ndeval" : p.kind === "trec" && !args.tieRange ? "trec" : "table");
  const columns = format === "ndeval" ? ndevalColumns(p) : [];
  if (format === "ndeval" && args.debugQuery !== undefined) throw new RankevalError("bad-option", "-D N.QID is trec_eval's: with --format ndeval every topic is printed");
  const text = await trecTextOptions(args, p, format, io);
  const opts = options(args, p.kind === "trec");

  const judgments = await readSubtopicJudgments(textInput(qrelsFile));

  const runs: RunResult[] = [];
  const ndeval: { name: string; text: string }[] = [];
  for (const file of runFiles) {
    const name = displayName(file);
    const choice = { format: formatOf(file, args.inputFormat), columns: args.columns };
    const { joined, runTag, qids } = await joinSubtopicRun(judgments, inputOf(file, choice), choice, args.complete);
    if (joined.notInRun && !args.complete) {
      io.stderr.write(`rankeval: ${notInRun(name, joined.notInRun)}; -c counts them\n`);
    }
    const warned = new Set<string>();
    const evaluated = evaluateBlock(p, joined.batch, joined.qids, opts, name, (w) => {
      if (!warned.has(w)) io.stderr.write(`rankeval: ${w}\n`);
      warned.add(w);
    }, [], { tieRange: args.tieRange });
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
    if (p.kind !== "trec") throw new RankevalError("bad-option", "--format trec needs trec_eval measure names (as ndcg_cut.10, P.5, map)");
    io.stdout.write(labelledTexts(runs.map((r) => ({ name: displayName(r.file), text: trecText(p, r, text) }))));
  } else {
    const only = (r: RunResult) => (args.debugQuery === undefined ? r.result : onlyQuery(r.result, args.debugQuery));
    io.stdout.write(report(format, runs.map((r) => ({ name: r.file, runTag: r.runTag, result: only(r) })), p, args.perQuery, args.noSummary));
  }
  return 0;
}

/** The plan's rows as ndeval's columns: ndeval's own names only, its 21 first in its order. */
function ndevalColumns(p: Plan): string[] {
  const names = p.rows.map((r) => r.name);
  const notNdeval = p.rows.filter((r) => !p.measures.some((m) => m.name === r.measure && m.family.diversity && /^(ERR-IA|nERR-IA|alpha-DCG|alpha-nDCG|P-IA|strec)@\d+$|^(NRBP|nNRBP|MAP-IA)$/.test(m.name)));
  if (notNdeval.length) {
    throw new RankevalError("bad-option", `--format ndeval prints ndeval's measures (ndeval, alpha-nDCG@20, ERR-IA@20, NRBP, ...), not ${notNdeval.map((r) => r.name).join(", ")}`);
  }
  return [...NDEVAL_COLUMNS.filter((c) => names.includes(c)), ...names.filter((n) => !NDEVAL_COLUMNS.includes(n))];
}

/** `%.6f` as glibc prints it; a NaN (ndeval's 0/0, x86's default NaN) as "-nan". */
function f6(x: number): string {
  return Number.isNaN(x) ? "-nan" : formatFixed(x, 6);
}

/** Topics in ndeval's order: by number when every id is a natural number, else by their bytes. */
function topicOrder(qids: readonly string[]): string[] {
  const numeric = qids.every((q) => /^\d+$/.test(q));
  return [...qids].sort(numeric ? (a, b) => Number(a) - Number(b) : (a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * ndeval's output (outputMeasures): `runid,topic,<measures>`, a row per topic of the run (in topic
 * order; topics without judgments all 0), and `runid,amean,...`: each column's sum over those rows
 * divided by the topics evaluated (with -c every judged one, the run lacks some: `absent`, counted
 * but not printed), `%.6f`.
 */
export function ndevalText(columns: readonly string[], r: RunResult, runOnly: readonly string[], absent: ReadonlySet<string>, divisor: number): string {
  const result = r.result;
  const index = new Map(result.qids.map((q, i) => [q, i]));
  const printed = topicOrder([...result.qids.filter((q) => !absent.has(q)), ...runOnly]);
  const out = [`runid,topic,${columns.join(",")}`];
  const totals = columns.map(() => 0);
  for (const q of printed) {
    const i = index.get(q);
    const values = columns.map((c) => (i === undefined ? 0 : result.values[c][i]));
    values.forEach((v, c) => (totals[c] += v));
    out.push(`${r.runTag},${q},${values.map(f6).join(",")}`);
  }
  out.push(`${r.runTag},amean,${totals.map((t) => f6(t / divisor)).join(",")}`);
  return `${out.join("\n")}\n`;
}
