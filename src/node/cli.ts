// The command line: rankeval [options] QRELS RUN [RUN ...] | --letor DATA --scores PREDICTIONS.
// Reads files as streams into the byte-level parsers, joins, evaluates in the kernel, and prints
// trec_eval's text (byte for byte), a table, JSON or CSV.
import { readFileSync } from "node:fs";
import { RankevalError } from "../errors.js";
import { GroupParser, Interner, LetorParser, ScoresParser } from "../io/index.js";
import { judgedRowsOnly } from "../kernel/batch.js";
import { letorBatch, type LetorInput } from "../letor.js";
import { evaluateBlock, LETOR_DEFAULT_MEASURES, options, plan, report, trecText, type RunResult } from "../trec/plan.js";
import { parseArgs, USAGE, type CliArgs } from "./args.js";
import { evaluateRunPath, readJudgments } from "./files.js";
import { Progress } from "./progress.js";
import { inputSize, readInto } from "./read.js";

export interface Io {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown; isTTY?: boolean };
}

/** Runs the command; returns the exit status: 0 success, 1 usage, 2 bad input. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (e) {
    io.stderr.write(`rankeval: ${(e as Error).message}\n\n${USAGE}\n`);
    return 1;
  }
  if (args.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.version) {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    io.stdout.write(`rankeval ${pkg.version}\n`);
    return 0;
  }
  try {
    if (args.letor !== undefined) return await letorMode(args, io);
    if (args.files.length < 2) throw new RankevalError("bad-option", "give a QRELS file and at least one RUN file (or --letor DATA --scores PREDICTIONS)");
    return await trecMode(args, io);
  } catch (e) {
    if (!(e instanceof RankevalError)) throw e;
    io.stderr.write(`rankeval: ${e.message}\n`);
    if (e.code === "bad-option" || e.code === "bad-measure") {
      io.stderr.write(`(rankeval --help for usage)\n`);
      return 1;
    }
    return 2;
  }
}

async function trecMode(args: CliArgs, io: Io): Promise<number> {
  const p = plan(args.measures, null);
  const opts = options(args, p.kind === "trec");
  if (p.kind === "trec" && p.left.length) io.stderr.write(`rankeval: not computed yet, left out: ${p.left.join(", ")}\n`);
  const progress = new Progress(io.stderr);
  // Document ids are kept per row and compared within each query only (src/trec-join.ts): no
  // table of every id in the collection.
  const qids = new Interner();
  const [qrelsFile, ...runFiles] = args.files;
  if (runFiles.filter((f) => f === "-").length + (qrelsFile === "-" ? 1 : 0) > 1) throw new RankevalError("bad-option", "only one file can be standard input (-)");
  const choice = { format: args.inputFormat, columns: args.columns };
  const judgments = await readJudgments(qrelsFile, qids, choice, progress);
  const warned = new Set<string>();
  const warn = (w: string) => {
    if (!warned.has(w)) io.stderr.write(`rankeval: ${w}\n`);
    warned.add(w);
  };
  const runs: RunResult[] = [];
  for (const file of runFiles) {
    const r = await evaluateRunPath(file, judgments, { ...choice, complete: args.complete }, ({ batch, qids }) => evaluateBlock(p, args.judgedOnly ? judgedRowsOnly(batch) : batch, qids, opts, args, file, warn), progress);
    const notInRun = r.notInRunQids.length;
    if (notInRun && !args.complete) {
      const some = r.notInRunQids.slice(0, 5).join(", ");
      io.stderr.write(`rankeval: ${file}: ${notInRun} judged queries are not in the run and are left out (${some}${notInRun > 5 ? ", ..." : ""}); -c counts them as 0\n`);
    }
    runs.push({ file, runTag: r.runTag, ...r.evaluated });
  }
  const format = args.format ?? (p.kind === "trec" ? "trec" : "table");
  if (format === "trec") {
    if (p.kind !== "trec") throw new RankevalError("bad-option", "--format trec needs trec_eval measure names (as ndcg_cut.10, P.5, map)");
    for (const r of runs) io.stdout.write(trecText(p, r, args));
  } else {
    io.stdout.write(report(format, runs.map((r) => ({ name: r.file, runTag: r.runTag, result: r.result })), p, args.perQuery));
  }
  return 0;
}

async function letorMode(args: CliArgs, io: Io): Promise<number> {
  if (args.scores === undefined) throw new RankevalError("bad-option", "--letor needs --scores PREDICTIONS (one score per line)");
  if (args.files.length) throw new RankevalError("bad-option", `--letor takes no QRELS or RUN files (got ${args.files.join(" ")})`);
  const p = plan(args.measures, LETOR_DEFAULT_MEASURES);
  const opts = options(args, p.kind === "trec");
  if (p.kind === "trec" && p.left.length) io.stderr.write(`rankeval: not computed yet, left out: ${p.left.join(", ")}\n`);
  const progress = new Progress(io.stderr);
  const qidNames = new Interner();
  const docidNames = new Interner();
  const letorFile = args.letor!;
  const letorParser = new LetorParser({ file: letorFile, qids: qidNames, docids: docidNames, expectedBytes: await inputSize(letorFile) });
  await readInto(letorFile, letorParser, progress);
  const data = letorParser.finish();
  const scoresParser = new ScoresParser({ file: args.scores });
  await readInto(args.scores, scoresParser, progress);
  let groups: LetorInput["groups"];
  if (!data.qid) {
    if (args.query === undefined) throw new RankevalError("bad-input", `${args.letor} has no qid: fields; give the query group sizes with --query FILE`);
    const groupParser = new GroupParser({ file: args.query });
    await readInto(args.query, groupParser, progress);
    groups = { sizes: groupParser.finish(), file: args.query };
  }
  const { batch, qids } = letorBatch({ data, file: letorFile, qidNames, docidNames, score: scoresParser.finish(), scoresFile: args.scores, groups });
  const { result, strings } = evaluateBlock(p, batch, qids, opts, args, args.letor!, (w) => io.stderr.write(`rankeval: ${w}\n`));
  const format = args.format ?? (p.kind === "trec" ? "trec" : "table");
  if (format === "trec") {
    if (p.kind !== "trec") throw new RankevalError("bad-option", "--format trec needs trec_eval measure names (as ndcg_cut.10, P.5, map)");
    io.stdout.write(trecText(p, { file: args.letor!, runTag: "letor", result, strings }, args));
  } else {
    io.stdout.write(report(format, [{ name: args.scores, runTag: "", result }], p, args.perQuery));
  }
  return 0;
}
