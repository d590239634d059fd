// The command line: reads, joins, evaluates and prints trec_eval's text (byte for byte), a table, JSON or CSV.
import { RankevalError } from "../errors/errors.js";
import { evaluateBlock } from "../app/evaluate-block.js";
import { LETOR_DEFAULT_MEASURES, options, plan, type Plan, type RunResult } from "../app/plan.js";
import { trecText } from "../output/results.js";
import type { GroupedJudgments, JoinedRun } from "../pipeline/join-rows.js";
import { defaultFormat, parseArgs, USAGE, type CliArgs } from "./args.js";
import { checkColumnsRead, CLI_COLUMNS_FORMAT, readsOnThread } from "./files.js";
import { setPoolSize, threadPool, type ThreadPool } from "./pool.js";
import { Progress } from "./progress.js";
import { relFormatMode, trecTextOptions } from "./trec-formats.js";
import { asksForDiversity, diversityMode, looksLikeSubtopicQrels, runsReport } from "./diversity-command.js";
import { checkReadOnce, displayName as nameOf, textInput } from "./file-read.js";
import { expandRuns, fileHost } from "./runs.js";
import { partitionable } from "./partitioned.js";
import { conventionsOf } from "../app/evaluator.js";
import { evaluateSources } from "../app/evaluation.js";
import { notForSubtopics, runPreparation } from "../pipeline/prepare-run.js";
import { flagOf } from "../app/options-table.js";
import { readPerSubtopic } from "../app/subtopic-runs.js";

export interface Io {
  /** Text, or bytes of UTF-8 (a fused run's, written as made). */
  stdout: { write(s: string | Uint8Array): unknown };
  stderr: { write(s: string): unknown; isTTY?: boolean };
}

/** Exit statuses; `gate`: --gate found a run worse than its budget; 70 and 74 as sysexits.h. */
export const EXIT = { ok: 0, usage: 1, badInput: 2, gate: 3, internal: 70, output: 74 } as const;

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
    io.stdout.write(`rankeval ${(await import("./write-manifest.js")).rankevalVersion()}\n`);
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
  if (args.threads !== undefined) setPoolSize(args.threads === 1 ? 0 : args.threads);
  warmThreads(args);
  try {
    // Each mode's code is loaded for it only.
    if (args.rbo) return await (await import("./rbo-command.js")).rboMode(args, io);
    if (args.qrelsStats) return await (await import("./judgments-command.js")).qrelsStatsMode(args, io);
    if (args.agreement) return await (await import("./judgments-command.js")).agreementMode(args, io);
    if (args.pool !== undefined) return await (await import("./judgments-command.js")).poolMode(args, io);
    if (args.fill !== undefined) return await (await import("./fill-command.js")).fillMode(args, io, trecMode);
    if (args.qrelsCompare) return await (await import("./qrels-compare-command.js")).qrelsCompareMode(args, io);
    if (args.merge) {
      const merge = await import("./merge-command.js");
      if (!args.compare) return await merge.mergeMode(args, io);
      merge.checkMergeArgs(args);
      return await (await import("./compare-command.js")).compareMode(args, io, evaluateTrecRuns, () =>
        merge.readMerged(args.files),
      );
    }
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

/** Starts the threads now where the files will go through them: they load while this one plans. */
function warmThreads(args: CliArgs): void {
  const plain =
    !args.merge &&
    !args.rbo &&
    !args.qrelsStats &&
    !args.agreement &&
    !args.qrelsCompare &&
    args.pool === undefined &&
    args.letor === undefined &&
    args.explain === undefined &&
    args.report === undefined;
  if (!plain || args.files.length < 2 || (args.relFormat ?? "qrels") !== "qrels") return;
  const pool = threadPool();
  const choice = { format: args.inputFormat, columns: args.columns, complete: args.complete };
  if (!pool) return;
  if (partitionable(pool as ThreadPool, args.files, choice)) {
    pool.warm({ kind: "partition", job: { type: "load" } });
    return;
  }
  // Started before the judgments are parsed (which holds this thread), so the runs' parse overlaps it.
  const threaded = args.files.slice(1).filter((f) => readsOnThread(f, choice)).length;
  if (threaded) pool.warm({ kind: "read" }, threaded);
}

/** Says which option values trec_eval reads as another number (-l only under its names). */
function sayTruncated(args: CliArgs, trecNames: boolean, io: Io): void {
  for (const t of args.truncated) {
    if (t.option === "-l" && !trecNames) continue;
    io.stderr.write(`rankeval: ${t.option} ${t.text} is read as ${t.value}, as trec_eval reads it (atol)\n`);
  }
}

/** QRELS RUN [RUN ...] evaluated and printed; `name`: the name a run's file is printed under (--fuse's). */
async function trecMode(args: CliArgs, io: Io, name = (file: string) => file): Promise<number> {
  const noPerQueryOut = (what: string) => {
    if (args.perQueryOut !== undefined)
      throw new RankevalError("bad-option", `--per-query-out is not written for ${what} (only for qrels judgments)`);
    if (args.manifest !== undefined)
      throw new RankevalError("bad-option", `--manifest is not written for ${what} (only for qrels judgments)`);
  };
  if ((args.relFormat ?? "qrels") !== "qrels") {
    noPerQueryOut(`-R ${args.relFormat}`);
    return await relFormatMode(args, io);
  }
  // Subtopic judgments: asked for, or a qrels of that shape.
  const asked = asksForDiversity(args);
  const shaped = !asked && (await looksLikeSubtopicQrels(args.files[0], args.inputFormat));
  if (asked || shaped) {
    noPerQueryOut("subtopic judgments (--diversity)");
    const prepare = runPreparation(args, flagOf);
    if (prepare) throw notForSubtopics(prepare, flagOf);
    if (shaped) io.stderr.write(`rankeval: ${readPerSubtopic(nameOf(args.files[0]))} (--diversity)\n`);
    return await diversityMode(args, io);
  }
  const manifest = args.manifest === undefined ? undefined : await startManifest(args, io);
  if (manifest) io = manifest.io;
  const p = planOf(args, io);
  const format = formatOf(args, p);
  const text = await trecTextOptions(args, p, format, io);
  // trec text is written as each run is done (`==> FILE <==` before each, as head prints); the other
  // formats put runs side by side, so a bad run leaves no table at all.
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

/** --manifest: inputs hashed during the evaluation, stderr kept as its warnings; `write`: false if it failed (said). */
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
    // Its own lines (not the progress's \r redraws).
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

/** The format asked (or the default), refused where the plan cannot give it. */
function formatOf(args: CliArgs, p: Plan) {
  const format = args.format ?? defaultFormat(args, p.kind === "trec");
  if (format === "trec" && p.kind !== "trec")
    throw new RankevalError("bad-option", "--format trec needs trec_eval measure names (as ndcg_cut.10, P.5, map)");
  if (format === "ndeval")
    throw new RankevalError("bad-option", "--format ndeval prints subtopic judgments' measures (--diversity)");
  return format;
}

/** The plan of the -m names, its surprises said on stderr. */
function planOf(args: CliArgs, io: Io): Plan {
  const p = plan(args.measures, null, args);
  tellPlan(p, io);
  sayTruncated(args, p.kind === "trec", io);
  return p;
}

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

/** What --explain and --report see: the judgments, each joined block (arrays reused after). */
export interface EvaluationHooks {
  judgments?(judgments: GroupedJudgments): void;
  block?(file: string, joined: JoinedRun): void;
  /** The plan to evaluate instead of the -m names' (--report adds the curve's measures). */
  plan?(p: Plan): Plan;
}

/** `onRun` gets each run in the order given. */
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
  // trec_eval evaluates an absent query on a placeholder ranking (-c); other names on an empty one.
  const host = fileHost(qrelsFile, runFiles, {
    ...choice,
    complete: args.complete,
    placeholder: p.kind === "trec",
    pool: threadPool(),
    progress,
    partitions: !hooks.judgments && !hooks.block && !hooks.plan && (args.relFormat ?? "qrels") === "qrels",
    name: nameOf,
  });
  const tieRange = !!args.tieRange;
  const spec = { names: args.measures, fallback: null, conventions: conventionsOf(args), tieRange };
  try {
    await evaluateSources(
      host,
      qrelsFile,
      runFiles,
      {
        plan: p,
        options: options(args, p.kind === "trec"),
        tieRange,
        spec,
        complete: args.complete,
        hint: true,
        prepare: runPreparation(args, flagOf),
      },
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
  const { readLetor } = await import("../input/read-letor.js");
  const letorFile = args.letor!;
  const query = args.query === undefined ? null : textInput(args.query, progress);
  const scores = textInput(args.scores, progress);
  const { batch, qids } = await readLetor(
    textInput(letorFile, progress),
    scores,
    query,
    "give the query group sizes with --query FILE",
  );
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
  io.stdout.write(
    format === "trec"
      ? trecText(p, { file: letorFile, runTag: "letor", result, strings }, args)
      : runsReport(format, [{ file: args.scores, runTag: "", result, strings }], p, args),
  );
  return EXIT.ok;
}
