// The command line: reads, joins, evaluates and prints trec_eval's text (byte for byte), a table, JSON or CSV.
import { readFileSync } from "node:fs";
import { RankevalError } from "../errors/errors.js";
import { evaluateBlock } from "../app/evaluate-block.js";
import { LETOR_DEFAULT_MEASURES, options, plan, type Plan, type RunResult } from "../app/plan.js";
import { trecText } from "../output/results.js";
import type { GroupedJudgments, JoinedRun } from "../pipeline/join-rows.js";
import { defaultFormat, parseArgs, USAGE, type CliArgs } from "./args.js";
import { checkColumnsRead, CLI_COLUMNS_FORMAT } from "./files.js";
import { isColumnarPath } from "./columnar-files.js";
import { setPoolSize, threadPool } from "./pool.js";
import { Progress } from "./progress.js";
import { relFormatMode, trecTextOptions } from "./trec-formats.js";
import { asksForDiversity, diversityMode, looksLikeSubtopicQrels, runsReport } from "./diversity-command.js";
import { checkReadOnce, displayName as nameOf, textInput } from "./file-read.js";
import { expandRuns, fileHost } from "./runs.js";
import { partitionable } from "./partitioned.js";
import { conventionsOf } from "../app/evaluator.js";
import { evaluateSources } from "../app/evaluation.js";

export interface Io {
  /** Text, or bytes of UTF-8 (a fused run's, written as made). */
  stdout: { write(s: string | Uint8Array): unknown };
  stderr: { write(s: string): unknown; isTTY?: boolean };
}

/** Exit statuses: 0, 1 usage, 2 bad input, and as sysexits.h: 70 internal error, 74 output not written. */
/** The exit statuses; `gate`: --compare's --gate found a run worse than its budget (src/compare/gate.ts). */
export const EXIT = { ok: 0, usage: 1, badInput: 2, gate: 3, internal: 70, output: 74 } as const;

/** After a usage error's line: where the usage is (not the whole of it, which would hide the error). */
const USAGE_HINT = "(rankeval --help for usage)";

/** An error that is not the input's: one line, never a stack trace. */
export function internalErrorLine(e: unknown): string {
  if (
    e instanceof RangeError &&
    /allocation failed|out of memory|invalid (typed )?array( buffer)? length|maximum memory/i.test(e.message)
  ) {
    return `rankeval: out of memory (${e.message})`;
  }
  const what = e instanceof Error ? `${e.name === "Error" ? "" : `${e.name}: `}${e.message}` : String(e);
  return `rankeval: internal error: ${what.split("\n")[0]}`;
}

/** Runs the command; returns the exit status (EXIT). Never throws. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let args: CliArgs;
  try {
    args = { ...parseArgs(argv), command: argv };
  } catch (e) {
    if (!(e instanceof RankevalError)) {
      io.stderr.write(`${internalErrorLine(e)}\n`);
      return EXIT.internal;
    }
    io.stderr.write(`rankeval: ${e.message}\n${USAGE_HINT}\n`);
    return EXIT.usage;
  }
  if (args.help) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  if (args.version) {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    io.stdout.write(`rankeval ${pkg.version}\n`);
    return EXIT.ok;
  }
  if (args.page !== undefined) {
    try {
      return (await import("./page-command.js")).pageMode(args.page, io);
    } catch (e) {
      io.stderr.write(`rankeval: ${e instanceof Error ? e.message : String(e)}\n`);
      return e instanceof RankevalError ? EXIT.badInput : EXIT.internal;
    }
  }
  // --threads N: the pool's size, before anything starts it (1: no thread but this one).
  if (args.threads !== undefined) setPoolSize(args.threads === 1 ? 0 : args.threads);
  warmThreads(args);
  try {
    // --compare's code (the tests, their distributions, per-query inputs) is loaded for it only.
    // --rbo: two runs' rank-biased overlap (src/node/rbo-command.ts).
    if (args.rbo) return await (await import("./rbo-command.js")).rboMode(args, io);
    // --merge: shards' per-query results (src/node/merge-command.ts), reported or compared.
    if (args.merge) {
      const merge = await import("./merge-command.js");
      if (!args.compare) return await merge.mergeMode(args, io);
      merge.checkMergeArgs(args);
      return await (await import("./compare-command.js")).compareMode(args, io, evaluateTrecRuns, () =>
        merge.readMerged(args.files),
      );
    }
    // --fuse (src/node/fuse-command.ts): the runs fused, written, or evaluated by the modes below.
    if (args.fuse !== undefined)
      return await (await import("./fuse-command.js")).fuseMode(args, io, {
        evaluate: trecMode,
        compare: async (a, io, name) =>
          (await import("./compare-command.js")).compareMode(a, io, async (a2, io2) => {
            const { p, runs } = await evaluateTrecRuns(a2, io2);
            return { p, runs: runs.map((r) => ({ ...r, file: name(r.file) })) };
          }),
      });
    if (args.compare) return await (await import("./compare-command.js")).compareMode(args, io, evaluateTrecRuns);
    // --explain's and --report's code too.
    if (args.explain !== undefined)
      return await (await import("./explain-command.js")).explainMode(args, io, evaluateTrecRuns);
    if (args.report !== undefined) return await (await import("./report.js")).reportMode(args, io, evaluateTrecRuns);
    if (args.letor !== undefined) return await letorMode(args, io);
    if (args.files.length < 2)
      throw new RankevalError(
        "bad-option",
        "give a QRELS file and at least one RUN file (or --letor DATA --scores PREDICTIONS)",
      );
    return await trecMode(args, io);
  } catch (e) {
    if (!(e instanceof RankevalError)) {
      io.stderr.write(`${internalErrorLine(e)}\n`);
      return EXIT.internal;
    }
    io.stderr.write(`rankeval: ${e.message}\n`);
    if (e.code === "bad-option" || e.code === "bad-measure") {
      io.stderr.write(`${USAGE_HINT}\n`);
      return EXIT.usage;
    }
    return EXIT.badInput;
  }
}

/**
 * Starts the threads now where QRELS and RUN will go through them (src/node/partitioned.ts), so that
 * they load while this thread reads the options and plans.
 */
function warmThreads(args: CliArgs): void {
  const plain =
    !args.merge && !args.rbo && args.letor === undefined && args.explain === undefined && args.report === undefined;
  if (!plain || args.files.length < 2 || (args.relFormat ?? "qrels") !== "qrels") return;
  const pool = threadPool();
  if (pool && partitionable(pool, args.files, { format: args.inputFormat, columns: args.columns }))
    pool.warm({ kind: "partition", job: { type: "load" } });
}

/** Says which option values trec_eval reads as another number (-l only under its names: canonical measures take it as written). */
function sayTruncated(args: CliArgs, trecNames: boolean, io: Io): void {
  for (const t of args.truncated) {
    if (t.option === "-l" && !trecNames) continue;
    io.stderr.write(`rankeval: ${t.option} ${t.text} is read as ${t.value}, as trec_eval reads it (atol)\n`);
  }
}

/** QRELS RUN [RUN ...] evaluated and printed; `name`: the name a run's file is printed under (--fuse's). */
async function trecMode(args: CliArgs, io: Io, name = (file: string) => file): Promise<number> {
  // --per-query-out and --manifest describe qrels' evaluations (the modes below have their own judgments and reports).
  const noPerQueryOut = (what: string) => {
    if (args.perQueryOut !== undefined)
      throw new RankevalError("bad-option", `--per-query-out is not written for ${what} (only for qrels judgments)`);
    if (args.manifest !== undefined)
      throw new RankevalError("bad-option", `--manifest is not written for ${what} (only for qrels judgments)`);
  };
  // -R prefs, qrels_prefs, qrels_jg: other judgments, other measures (src/node/trec-formats.ts).
  if (args.relFormat !== undefined && args.relFormat !== "qrels") {
    noPerQueryOut(`-R ${args.relFormat}`);
    return await relFormatMode(args, io);
  }
  // Subtopic judgments (src/node/diversity-command.ts): asked for, or a qrels of that shape (Parquet and
  // Arrow judgments are qrels: their columns say so).
  const asked = asksForDiversity(args);
  const shaped =
    !asked && !isColumnarPath(args.files[0], args.inputFormat) && (await looksLikeSubtopicQrels(args.files[0]));
  if (asked || shaped) {
    noPerQueryOut("subtopic judgments (--diversity)");
    if (shaped)
      io.stderr.write(
        `rankeval: ${nameOf(args.files[0])} judges documents per subtopic (its second column): read as a diversity qrels (--diversity)\n`,
      );
    return await diversityMode(args, io);
  }
  const manifest = args.manifest === undefined ? undefined : await startManifest(args, io);
  if (manifest) io = manifest.io;
  const p = planOf(args, io);
  // Said before any file is read.
  const format = formatOf(args, p);
  // -Z and -D (src/node/trec-formats.ts).
  const text = await trecTextOptions(args, p, format, io);
  // trec_eval's text is written run by run as each is done (several: each after `==> FILE <==`, as
  // head prints); a table, JSON or CSV puts the runs side by side, so it waits for all. A bad run
  // stops the command: trec text of the runs before it is out, whole; a table is not written at all.
  const runs: RunResult[] = [];
  const keep = args.perQueryOut !== undefined || manifest !== undefined;
  await evaluateEachRun(args, io, p, (i, evaluated, total) => {
    const r = { ...evaluated, file: name(evaluated.file) };
    if (format !== "trec" || keep) runs.push(r);
    if (format !== "trec") return;
    const t = trecText(p, r, text);
    io.stdout.write(total === 1 ? t : `${i ? "\n" : ""}==> ${nameOf(r.file)} <==\n${t}`);
  });
  if (format !== "trec") io.stdout.write(runsReport(format, runs, p, args));
  if (args.perQueryOut !== undefined) {
    const { settingsOf, writePerQueryOut } = await import("./merge-command.js");
    if (!(await writePerQueryOut(args.perQueryOut, p, settingsOf(args), runs, io))) return EXIT.output;
  }
  if (manifest && !(await manifest.write(p, runs))) return EXIT.output;
  return EXIT.ok;
}

/**
 * --manifest: the inputs hashed while they are evaluated, and what the command says on stderr kept
 * as the manifest's warnings (`io`: the command's, with stderr kept); `write` writes it, false where it
 * cannot (said).
 */
async function startManifest(args: CliArgs, io: Io) {
  const { checkHashable, describeInputs, rankevalVersion, writeManifest } = await import("./write-manifest.js");
  const { manifestOf } = await import("../app/manifest.js");
  const file = args.manifest!;
  const [qrels, ...runArgs] = args.files;
  const runFiles = expandRuns(runArgs).files;
  checkHashable([qrels, ...runFiles], "--manifest");
  const inputs = describeInputs(qrels, runFiles, { format: args.inputFormat, columns: args.columns });
  inputs.catch(() => {}); // awaited by write
  let said = "";
  const stderr = io.stderr;
  const kept: Io = {
    stdout: io.stdout,
    stderr: {
      isTTY: stderr.isTTY,
      write: (s: string) => {
        said += s;
        return stderr.write(s);
      },
    },
  };
  const write = async (p: Plan, runs: readonly RunResult[]): Promise<boolean> => {
    // Its own lines (a terminal's progress is redrawn with \r, not said).
    const warnings = said
      .split("\n")
      .filter((l) => l.startsWith("rankeval: "))
      .map((l) => l.slice("rankeval: ".length).replace(/^warning: /, ""));
    const m = manifestOf({
      version: rankevalVersion(),
      command: [...(args.command ?? [])],
      inputs: await inputs,
      rows: p.rows,
      runs: runs.map((r) => ({ name: r.file, runTag: r.runTag, result: r.result })),
      warnings,
    });
    try {
      await writeManifest(file, m);
      return true;
    } catch (e) {
      stderr.write(
        `rankeval: ${file}: cannot write the manifest: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`,
      );
      return false;
    }
  };
  return { io: kept, write };
}

/** The format asked (or the default), refused where the plan cannot give it (ndeval: subtopic judgments only). */
function formatOf(args: CliArgs, p: Plan) {
  const format = args.format ?? defaultFormat(args, p.kind === "trec");
  if (format === "trec" && p.kind !== "trec")
    throw new RankevalError("bad-option", "--format trec needs trec_eval measure names (as ndcg_cut.10, P.5, map)");
  if (format === "ndeval")
    throw new RankevalError("bad-option", "--format ndeval prints subtopic judgments' measures (--diversity)");
  return format;
}

/** The plan of the -m names, having said on stderr what they were read as where that may surprise. */
function planOf(args: CliArgs, io: Io): Plan {
  const p = plan(args.measures, null, args);
  tellPlan(p, io);
  sayTruncated(args, p.kind === "trec", io);
  return p;
}

/** QRELS RUN [RUN ...] evaluated under the plan of the -m names, saying on stderr what may surprise. */
export async function evaluateTrecRuns(
  args: CliArgs,
  io: Io,
  hooks?: EvaluationHooks,
): Promise<{ p: Plan; runs: RunResult[] }> {
  const p = planOf(args, io);
  const runs: RunResult[] = [];
  await evaluateEachRun(args, io, hooks?.plan?.(p) ?? p, (_, r) => runs.push(r), hooks);
  return { p, runs };
}

/** What --explain and --report see of an evaluation: the judgments, each joined block (arrays reused after). */
export interface EvaluationHooks {
  judgments?(judgments: GroupedJudgments): void;
  block?(file: string, joined: JoinedRun): void;
  /** What to evaluate for the plan of the -m names (--report's adds the curve's measures); it returns that plan. */
  plan?(p: Plan): Plan;
}

/** QRELS and each RUN evaluated (src/app/evaluation.ts); `onRun` gets each in the order given. */
async function evaluateEachRun(
  args: CliArgs,
  io: Io,
  p: Plan,
  onRun: (i: number, r: RunResult, total: number) => void,
  hooks: EvaluationHooks = {},
): Promise<void> {
  const progress = new Progress(io.stderr);
  const [qrelsFile, ...runArgs] = args.files;
  const { files: runFiles, notes } = expandRuns(runArgs);
  for (const n of notes) io.stderr.write(`rankeval: ${n}\n`);
  await checkReadOnce([["QRELS", qrelsFile], ...runFiles.map((f) => ["RUN", f] as const)]);
  const choice = { format: args.inputFormat, columns: args.columns };
  checkColumnsRead([qrelsFile, ...runFiles], choice, "--columns", CLI_COLUMNS_FORMAT);
  progress.runsGiven(runFiles.length);
  const plain = !hooks.judgments && !hooks.block && !hooks.plan && (args.relFormat ?? "qrels") === "qrels";
  // trec_eval evaluates an absent query on a placeholder ranking (-c); other names on an empty one.
  const host = fileHost(qrelsFile, runFiles, {
    ...choice,
    complete: args.complete,
    placeholder: p.kind === "trec",
    pool: threadPool(),
    progress,
    partitions: plain,
    name: nameOf,
  });
  const spec = { names: args.measures, fallback: null, conventions: conventionsOf(args), tieRange: !!args.tieRange };
  const request = { plan: p, options: options(args, p.kind === "trec"), tieRange: !!args.tieRange, spec };
  try {
    await evaluateSources(
      host,
      qrelsFile,
      runFiles,
      { ...request, complete: args.complete, hint: true },
      {
        say: (m) => {
          progress.clear();
          io.stderr.write(`rankeval: ${m}\n`);
        },
        run: (i, r) => {
          progress.clear();
          onRun(i, { file: r.source, runTag: r.runTag, ...r.evaluated, summary: r.summary }, runFiles.length);
        },
        judgments: hooks.judgments,
        block: hooks.block,
      },
    );
  } finally {
    progress.done();
  }
}

/** Says on stderr what the names were read as where that may surprise. */
function tellPlan(p: Plan, io: Io): void {
  for (const w of p.warnings) io.stderr.write(`rankeval: warning: ${w}\n`);
}

async function letorMode(args: CliArgs, io: Io): Promise<number> {
  if (args.scores === undefined)
    throw new RankevalError("bad-option", "--letor needs --scores PREDICTIONS (one score per line)");
  if (args.files.length)
    throw new RankevalError("bad-option", `--letor takes no QRELS or RUN files (got ${args.files.join(" ")})`);
  await checkReadOnce([
    ["--letor", args.letor!],
    ["--scores", args.scores],
    ...(args.query === undefined ? [] : [["--query", args.query] as const]),
  ]);
  const p = plan(args.measures, LETOR_DEFAULT_MEASURES, args);
  const opts = options(args, p.kind === "trec");
  tellPlan(p, io);
  sayTruncated(args, p.kind === "trec", io);
  const progress = new Progress(io.stderr);
  // LETOR's parsers are loaded for this mode only.
  const { readLetor } = await import("../input/read-letor.js");
  const letorFile = args.letor!;
  const query = args.query === undefined ? null : textInput(args.query, progress);
  const noQid = "give the query group sizes with --query FILE";
  const scores = textInput(args.scores, progress);
  const { batch, qids } = await readLetor(textInput(letorFile, progress), scores, query, noQid);
  const { result, strings } = evaluateBlock(
    p,
    batch,
    qids,
    opts,
    nameOf(letorFile),
    (w) => io.stderr.write(`rankeval: ${w}\n`),
    [],
    { tieRange: args.tieRange },
  );
  const format = formatOf(args, p);
  if (format === "trec") {
    io.stdout.write(trecText(p, { file: args.letor!, runTag: "letor", result, strings }, args));
  } else {
    io.stdout.write(runsReport(format, [{ file: args.scores!, runTag: "", result, strings }], p, args));
  }
  return EXIT.ok;
}
