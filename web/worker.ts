// The page's worker: src/app/evaluation.ts over Files (pageHost); its state is one PageSession.
import { compare, meanDifferences, type NamedResult as ComparedRun } from "../src/compare/compare.js";
import { formatComparison } from "../src/output/comparison.js";
import { comparableResult, comparableRows, leftOutOfComparison } from "../src/app/comparable.js";
import { batchBlocks, evaluateRunInput, readJudgments as readInput } from "../src/input/input.js";
import type { Input, TextInput } from "../src/input/input.js";
import { readLetor } from "../src/input/read-letor.js";
import { readSubtopicJudgments, SNIFF_BYTES, subtopicShaped } from "../src/input/subtopics.js";
import { asksForSubtopics, evaluateSubtopicRun, readPerSubtopic, SUBTOPIC_MEASURES } from "../src/app/subtopic-runs.js";
import { Interner } from "../src/io/interner.js";
import { messageOf } from "../src/io/columnar.js";
import type { Batch } from "../src/kernel/batch.js";
import type { ExplicitOptions } from "../src/measures/options.js";
import { labelledTexts } from "../src/output/table.js";
import { namesApart } from "../src/output/run-names.js";
import { trecLines } from "../src/trec/measures.js";
import { evaluateBlock } from "../src/app/evaluate-block.js";
import type { Evaluated } from "../src/pipeline/evaluate.js";
import { mergeBlocks } from "../src/pipeline/merge.js";
import { LETOR_DEFAULT_MEASURES, lineKey, options, plan, planConventions, type Plan } from "../src/app/plan.js";
import { report, rowIntervals, summaryCells, summaryRows, trecText, type NamedResult } from "../src/output/results.js";
import type { GroupedJudgments } from "../src/pipeline/join-rows.js";
import { BLOCK_ROWS, parsedBlocks, READER_BLOCK_ROWS, type RunSource } from "../src/pipeline/blocks.js";
import { readerBlocks, type ReaderReport } from "../src/pipeline/reader.js";
import { gunzippedHead, isGzip, readInto as readFile, type OnProgress, type Sink } from "./read-file.js";
import { BY_NAME, isTrecText } from "./text-files.js";
import { batchInput, columnarFormat, columnarRole } from "./file-columns.js";
import { printValue } from "../src/app/value-print.js";
import type {
  Cell,
  CompareSettings,
  FuseChoice,
  Job,
  JudgmentsJob,
  JudgmentsResult,
  Parallel,
  PerQuery,
  Report,
  Settings,
} from "./protocol.js";
import type { EvaluationSpec } from "../src/app/evaluator.js";
import { Partitions, type PartitionProgress } from "../src/pipeline/partition-coordinator.js";
import { notForSubtopics, runPreparation, type RunPreparation } from "../src/pipeline/prepare-run.js";
import { evaluateSources, type EvaluateFor, type EvaluationHost, type RunDone } from "../src/app/evaluation.js";
import { CHUNK_MOST, listenTo, partFile, partitionable, partitionPorts, readAt, workerCount } from "./partitions.js";
import { explainQueries } from "./worker-explain.js";
import { describeFile } from "./manifest-files.js";
import { manifestOf, manifestText, type ManifestInput } from "../src/app/manifest.js";
import { takeCurve, withCurve, type CurvePlan, type CurvePoint } from "../src/app/curve.js";
import { takesWeights } from "../src/fusion/methods.js";
import { readRows } from "../src/input/input.js";
import { writeFusedRun } from "../src/output/fused-run.js";
import { keepWorkerScript, startWorker } from "./worker-script.js";
import { readColumns } from "../src/app/read-columns.js";
import {
  agreementNotes,
  agreementOfFiles,
  agreementText,
  coverageRows,
  filledName,
  filledQrelsText,
  fillOfFiles,
  holesRows,
  holesSummary,
  holesText,
  poolOfFiles,
  poolSummary,
  qrelsCompareOfFiles,
  statsOfFile,
} from "../src/judgments/on-files.js";
import { qrelsCompareOutput, qrelsCompareReport } from "../src/judgments/qrels-compare-text.js";
import { formatPool } from "../src/judgments/pools.js";
import { formatQrelsStats } from "../src/judgments/qrels-stats.js";

const post = (r: Report, transfer: Transferable[] = []) => {
  if (r.type === "warning") page.said.push(r.message);
  (self as unknown as Worker).postMessage(r, transfer);
};

const nameOf = (file: File) => page.runNames.get(file) ?? file.name;

/** Posts `file`'s progress (page.reading: for outOfMemory). */
function progressOf(file: File): OnProgress {
  const state = { file: nameOf(file), read: 0, lines: 0 };
  return (read, lines, seconds) => {
    page.reading = read >= file.size ? null : Object.assign(state, { read, lines });
    post({ type: "progress", file: nameOf(file), read, size: file.size, lines, seconds });
  };
}

const readInto = (file: File, sink: Sink) => readFile(file, sink, progressOf(file));

/**
 * A reader started while qrels chosen alone are read, for the first run: its start (the whole worker
 * script's, about 50 ms more than a reader's own script took) overlaps the qrels.
 */
let readerAhead: Worker | null = null;

/** A run's blocks, parsed in a second worker. */
function readerBlocksOf(file: File): NonNullable<RunSource["blocks"]> {
  return readerBlocks(
    file,
    file.name,
    READER_BLOCK_ROWS,
    () => {
      const reader = readerAhead ?? startWorker("run-reader");
      readerAhead = null;
      return {
        send: (job, transfer) => reader.postMessage(job, transfer ?? []),
        listen: (report, fail) => listenTo<ReaderReport>(reader, report, fail),
        stop: () => reader.terminate(),
      };
    },
    progressOf(file),
  );
}

/** Joined rows of whole queries: one kernel call. */
interface Block {
  batch: Batch;
  qids: string[];
}

interface Unit {
  name: string;
  runTag: string;
  /** For new settings; null once dropped (KEEP_ROWS). */
  blocks: Block[] | null;
  notJudged: number;
  notInRun: number;
  /** postRun hands its per-query values over: read the means only. */
  result: Evaluated;
  curve?: readonly CurvePoint[] | null;
}

/** Joined rows kept over all runs (~36 bytes a row); beyond, new settings read the files again. */
const KEEP_ROWS = 8_000_000;
/** A run line's bytes, about (gzip 4:1), to guess rows from file sizes. */
const RUN_LINE_BYTES = 30;

/** What this worker keeps between messages; each job resets its own parts. */
class PageSession {
  /** Warnings since the job began (the manifest's). */
  said: string[] = [];
  reading: { file: string; read: number; lines: number } | null = null;
  runNames = new Map<File, string>();
  keepRows = KEEP_ROWS;
  kind: "trec" | "letor" = "trec";
  units: Unit[] = [];
  keptRows = 0;
  /** Copies for compare() (postRun hands the originals over); null under two runs. */
  compared: ComparedRun[] | null = null;
  /** The shown table's settings. */
  current: Context | null = null;
  /** Judgments read here: one qrels file a worker. */
  judgmentsRead: Promise<GroupedJudgments> | null = null;
  /** The qrels job's read (qrels chosen before runs). */
  qrelsReading: Promise<void> | null = null;
  /** Read again when new settings ask for subtopic judgments, or prepare the runs otherwise. */
  lastTrec: { qrels: File; runs: File[] } | null = null;
  /** The kept blocks' preparation (JSON), as joined. */
  prepared = "";
  /** Judgments read per subtopic; `shapedQrels`: told by the file's shape. */
  perSubtopic = false;
  shapedQrels = false;
  parallel: Parallel = {};
  /** Partition workers of the last job (1: none, for some run at least). */
  workers = 1;
  /** Judgments held by partition workers (null: this worker's); one qrels file a worker. */
  held: Promise<Partitions<File, EvaluationSpec> | null> | null = null;
  /** As chosen: no fused run. */
  manifestInputs: { qrels: File; runs: File[] } | null = null;
  /** A stale manifest is not posted. */
  manifestJob = 0;
}
const page = new PageSession();

interface Context {
  settings: Settings;
  p: Plan;
  opts: ExplicitOptions;
  warned: Set<string>;
  /** The plan plus the curve's measures (null: no curve). */
  curve: CurvePlan | null;
}

/** `subtopics`: per-subtopic judgments (no curve). */
function context(settings: Settings, subtopics = false): Context {
  const p = plan(settings.measures, page.kind === "letor" ? LETOR_DEFAULT_MEASURES : null, settings.conventions);
  const opts = options(settings.conventions, p.kind === "trec");
  const curve = subtopics ? null : withCurve(p, settings.conventions, opts);
  return { settings, p, opts, warned: new Set(), curve };
}

function takeCurveOf(ctx: Context, u: Unit): void {
  const t = takeCurve(ctx.curve, u.result);
  u.result = t.evaluated;
  u.curve = t.curve;
}

function postRows(ctx: Context): void {
  page.current = ctx;
  const { p, opts } = ctx;
  post({ type: "rows", measures: summaryRows(p), conventions: planConventions(p, opts).join("; ") });
  for (const w of p.warnings) post({ type: "warning", message: w });
}

function evaluate(ctx: Context, name: string, block: Block): Evaluated {
  const extras = { tieRange: ctx.settings.tieRange === true, summaries: false };
  return evaluateBlock(ctx.curve?.plan ?? ctx.p, block.batch, block.qids, ctx.opts, name, warnOnce(ctx), [], extras);
}

/** Posts each warning once in the settings' evaluation. */
const warnOnce = (ctx: Context) => (w: string) => {
  if (!ctx.warned.has(w)) post({ type: "warning", message: w });
  ctx.warned.add(w);
};

/** Posts a unit's column; returns its trec_eval text. */
function postRun(ctx: Context, u: Unit): string {
  const { p } = ctx;
  const { result, strings } = u.result;
  const perQuery: PerQuery = { qids: result.qids, columns: {} };
  let cells: Record<string, Cell> = {};
  let text = "";
  if (p.kind === "trec") {
    text = trecText(
      p,
      { file: u.name, runTag: page.kind === "letor" ? "letor" : u.runTag, result, strings },
      { perQuery: false },
    );
    cells = summaryCells(text);
    for (const line of trecLines(p.trec)) {
      const key = lineKey(line);
      const t = key === null ? undefined : result.tieRange?.[key];
      if (t && cells[line.name]) cells[line.name].range = { ...t.mean };
      if (line.perQuery && key !== null && (line.print === "float" || line.print === "long")) {
        perQuery.columns[line.name] = { values: result.values[key], print: line.print };
      }
    }
  } else {
    for (const m of p.measures) {
      const v = result.mean[m.name];
      const t = result.tieRange?.[m.name];
      cells[m.name] = {
        text: printValue(v, "table"),
        value: Number.isNaN(v) ? null : v,
        ...(t ? { range: { ...t.mean } } : {}),
      };
      perQuery.columns[m.name] = { values: result.values[m.name], print: "table" };
    }
  }
  for (const [row, interval] of Object.entries(rowIntervals(p, result))) if (cells[row]) cells[row].interval = interval;
  // Transferred (tens of MB at 300k queries): unread after this.
  const buffers = new Set(Object.values(perQuery.columns).map((c) => c.values.buffer as ArrayBuffer));
  post({ type: "run", name: u.name, cells, perQuery, curve: u.curve ?? null }, [...buffers]);
  return text;
}

function postDownloads(ctx: Context, texts: string[]): void {
  const { p } = ctx;
  if (!page.units.length) return;
  const named: NamedResult[] = page.units.map((u) => ({
    name: u.name,
    runTag: page.kind === "letor" ? "" : u.runTag,
    result: u.result.result,
  }));
  post({
    type: "downloads",
    json: report("json", named, p, false),
    csv: report("csv", named, p, false),
    trec: p.kind === "trec" ? labelledTexts(page.units.map((u, i) => ({ name: u.name, text: texts[i] }))) : null,
  });
}

/** New settings on the kept blocks (the files read again for subtopics). */
async function reevaluate(settings: Settings): Promise<void> {
  let ctx = context(settings, page.perSubtopic);
  if (page.kind === "trec" && page.lastTrec && !page.perSubtopic && asksForSubtopics(ctx.p))
    return trec(page.lastTrec.qrels, page.lastTrec.runs, settings);
  // The kept blocks were joined under their preparation: another one reads the runs again.
  if (page.kind === "trec" && page.lastTrec && preparationOf(settings) !== page.prepared)
    return trec(page.lastTrec.qrels, page.lastTrec.runs, settings);
  if (page.kind === "trec" && page.shapedQrels && settings.measures.length === 0)
    ctx = context({ ...settings, measures: SUBTOPIC_MEASURES }, page.perSubtopic);
  postRows(ctx);
  const texts: string[] = [];
  page.compared = null;
  for (const u of page.units) {
    if (!u.blocks) throw new Error("the runs were too large to keep: read them again");
    u.result = mergeBlocks(
      u.blocks.map((b) => evaluate(ctx, u.name, b)),
      u.notJudged,
      u.notInRun,
    );
    takeCurveOf(ctx, u);
    if (page.kind === "trec" && page.units.length >= 2) keepForComparison(ctx, u);
    texts.push(postRun(ctx, u));
  }
  postDownloads(ctx, texts);
}

function addUnit(ctx: Context, u: Unit, texts: string[], comparing: boolean): void {
  takeCurveOf(ctx, u);
  page.units.push(u);
  if (comparing) keepForComparison(ctx, u);
  texts.push(postRun(ctx, u));
}

function keepForComparison(ctx: Context, u: Unit): void {
  const comparable = comparableRows(ctx.p, ctx.settings.measures);
  if (!page.compared) {
    page.compared = [];
    // Warned only for lines named with -m: a set's (runid, num_q, gm_map) are always left out.
    const named = comparable.left.filter((name) => ctx.settings.measures.includes(name));
    for (const message of leftOutOfComparison({ left: named, counts: [] })) post({ type: "warning", message });
  }
  const result = comparableResult(u.result.result, comparable.rows);
  const values = Object.fromEntries(Object.entries(result.values).map(([m, v]) => [m, v.slice()]));
  page.compared.push({ name: u.name, result: { ...result, values } });
}

/** --compare's comparison, its downloads and every pair's t interval. */
function postComparison(settings: CompareSettings): void {
  if (!page.compared || page.compared.length < 2) return;
  try {
    // A baseline no longer shown: the first run, as the picker shows.
    const baseline = page.compared.some((r) => r.name === settings.baseline) ? settings.baseline! : undefined;
    const comparison = compare(page.compared, {
      baseline,
      tests: [settings.test],
      correction: settings.correction ?? undefined,
      alpha: settings.alpha,
    });
    const f = (format: "markdown" | "latex" | "csv" | "json") =>
      formatComparison(comparison, format, { sideBySide: true, markTest: settings.test });
    const downloads = { markdown: f("markdown"), latex: f("latex"), csv: f("csv"), json: f("json") };
    post({ type: "comparison", comparison, test: settings.test, downloads, intervals: meanDifferences(page.compared) });
  } catch (err) {
    post({ type: "comparison-error", message: messageOf(err) });
  }
}

/** The settings' run preparation, as a key: runPreparation checks it (a bad one is the job's error). */
function preparationOf(settings: Settings): string {
  return preparationKey(runPreparation(settings.prepare ?? {}));
}

function preparationKey(prepare: RunPreparation | null | undefined): string {
  return JSON.stringify(prepare ?? null);
}

async function readRun(
  judgments: GroupedJudgments,
  file: File,
  keep: boolean,
  evaluateFor: EvaluateFor<File>,
  prepare: RunPreparation | undefined,
): Promise<RunDone> {
  let blocks: Block[] | null = keep ? [] : null;
  let rows = 0;
  const warnings: string[] = [];
  const evaluate = evaluateFor(file, (w) => warnings.push(w));
  const input = await inputOf(file);
  const r = await evaluateRunInput(
    input,
    judgments,
    {
      // Blocks' buffers are not given back to the reader: that stalled BYOB reads for good in Chromium 156
      // one load in five; fresh blocks cost 0.2 s a GB.
      blocks:
        "batches" in input
          ? batchBlocks(input, BLOCK_ROWS)
          : !isTrecText(file)
            ? null
            : typeof Worker === "function"
              ? readerBlocksOf(file)
              : parsedBlocks(file.name, (sink) => readInto(file, sink)),
      recycle: !keep,
      prepare,
      restart: () => {
        post({
          type: "warning",
          message: `${nameOf(file)}: its queries' lines are not together; read whole (more memory than a grouped run)`,
        });
        page.keptRows -= rows;
        rows = 0;
        if (blocks) blocks = [];
      },
    },
    BY_NAME,
    (joined) => {
      const block = { batch: joined.batch, qids: joined.qids };
      rows += block.batch.scores.length;
      page.keptRows += block.batch.scores.length;
      if (page.keptRows > page.keepRows) {
        for (const u of page.units) u.blocks = null;
        blocks = null;
      }
      blocks?.push(block);
      return evaluate(joined);
    },
  );
  return { ...r, warnings, kept: blocks };
}

async function textOf(file: File): Promise<TextInput> {
  return { name: file.name, size: (await isGzip(file)) ? 0 : file.size, read: (sink) => readInto(file, sink) };
}

async function inputOf(file: File): Promise<Input> {
  const format = await columnarFormat(file);
  return format ? batchInput(file, format, progressOf(file)) : textOf(file);
}

/** The runs fused as by the CLI (src/output/fused-run.ts) into `fused(METHOD)`; weights all 1. */
async function fusedFile(runs: readonly File[], choice: FuseChoice): Promise<File> {
  const qids = new Interner();
  const read = [];
  for (const file of runs) read.push(await readRows("run", await inputOf(file), qids, BY_NAME));
  const params = takesWeights(choice.method) ? { weights: runs.map(() => 1) } : {};
  const parts: Uint8Array<ArrayBuffer>[] = [];
  writeFusedRun(read, qids, { method: choice.method, norm: choice.norm, params }, choice.method, (b) => parts.push(b));
  return new File(parts, `fused(${choice.method})`, { type: "text/plain" });
}

function judgmentsOf(qrelsFile: File): Promise<GroupedJudgments> {
  page.judgmentsRead ??= inputOf(qrelsFile).then(async (input) => {
    const j = await readInput(input, new Interner(), BY_NAME);
    post({ type: "judgments" });
    return j;
  });
  return page.judgmentsRead;
}

/** Whether a qrels file is subtopic-shaped, from a slice (no stream left open). */
function subtopicShapedFile(file: File): Promise<boolean> {
  return subtopicShaped(async (sink) => {
    if (!(await isGzip(file))) return sink.push(new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()));
    await gunzippedHead(file.slice(0, SNIFF_BYTES / 4), (chunk) => {
      sink.push(chunk);
      return true;
    });
  });
}

/** Runs against subtopic judgments: one block a run, always kept. */
async function diversityRuns(ctx: Context, qrelsFile: File, runFiles: File[]): Promise<string[]> {
  const judgments = await readSubtopicJudgments(await textOf(qrelsFile));
  post({ type: "judgments" });
  const texts: string[] = [];
  for (const file of runFiles) {
    const name = nameOf(file);
    const request = { name, plan: ctx.p, options: ctx.opts, extras: { tieRange: ctx.settings.tieRange === true } };
    const run = await evaluateSubtopicRun(judgments, await inputOf(file), BY_NAME, request, warnOnce(ctx));
    const { joined, runTag, block, evaluated: result } = run;
    page.keptRows += block.batch.scores.length;
    const counts = { notJudged: joined.notJudged, notInRun: joined.notInRun };
    addUnit(ctx, { name, runTag, blocks: [block], ...counts, result }, texts, runFiles.length >= 2);
  }
  return texts;
}

/** Progress as partition workers take chunks (no line counts). */
function partitionProgress(): PartitionProgress {
  let state = { file: "", size: 0, started: 0, last: 0 };
  const at = (read: number) => {
    state.last = performance.now();
    post({ type: "progress", file: state.file, read, size: state.size, seconds: (state.last - state.started) / 1000 });
  };
  return {
    start: (file, size) => {
      state = { file, size, started: performance.now(), last: 0 };
      at(0);
    },
    update: (read) => {
      if (performance.now() - state.last > 100) at(read);
    },
    done: () => at(state.size),
  };
}

/** The qrels judged once in partition workers; null if they failed. */
function judgedInPartitions(qrels: File): Promise<Partitions<File, EvaluationSpec> | null> {
  page.held ??= (async () => {
    const p = new Partitions(partitionPorts(workerCount(page.parallel)), readAt, partitionProgress(), CHUNK_MOST);
    // Runs bring their own spec.
    const spec: EvaluationSpec = { names: [], fallback: null, conventions: {}, tieRange: false };
    if (!(await p.judge(partFile(qrels), { spec }))) {
      p.end();
      return null;
    }
    void p.judged().then((judged) => judged && post({ type: "judgments" }));
    return p;
  })();
  return page.held;
}

/** This worker reads the judgments from now on; partition workers drop theirs (held once a tab). */
async function leaveToOneWorker(): Promise<void> {
  const p = page.held && (await page.held);
  page.held = Promise.resolve(null);
  if (!p) return;
  // Their last answers first: a session ends idle.
  await p.judged();
  p.end();
}

/** A qrels file chosen alone: in partition workers if large TREC text, else here. */
async function readQrels(qrels: File): Promise<void> {
  if (await partitionable([qrels], page.parallel)) {
    const p = await judgedInPartitions(qrels);
    if (p && (await p.judged())) return;
    await leaveToOneWorker();
  }
  await judgmentsOf(qrels);
}

/** Partition workers holding the qrels, if all runs are plain TREC text and held or large enough. */
async function partitionsFor(qrels: File, runs: readonly File[]): Promise<Partitions<File, EvaluationSpec> | null> {
  if (workerCount(page.parallel) < 2 || !(await partitionable(runs, { ...page.parallel, minBytes: 0 }))) return null;
  if (!page.held && !(await partitionable([qrels, ...runs], page.parallel))) return null;
  return judgedInPartitions(qrels);
}

function pageHost(runFiles: readonly File[]): EvaluationHost<File> {
  return {
    name: nameOf,
    partitioned: async (qrels, runs, job, onJudged, done) => {
      const partitions = await partitionsFor(qrels, runs);
      // Truncated labels (1.5): this worker's warning names the line (partition workers know no lines).
      if (!partitions || (job.trecLabels && (await partitions.judged())?.truncated === true)) return 0;
      const first = await partitions.evaluate(runs.map(partFile), done, onJudged, job.spec);
      if (first === runs.length) page.workers = partitions.parts;
      return first;
    },
    judgments: async (qrels) => {
      await leaveToOneWorker();
      return judgmentsOf(qrels);
    },
    runs: async (runs, judgments, evaluateFor, done, prepare) => {
      let bytes = 0;
      for (const f of runFiles) bytes += f.size * ((await isGzip(f)) ? 4 : 1);
      // Too large to keep: never held (held then dropped, memory would peak).
      const keep = bytes / RUN_LINE_BYTES <= page.keepRows;
      for (let i = 0; i < runs.length; i++)
        done(i, await readRun(judgments as GroupedJudgments, runs[i], keep, evaluateFor, prepare));
    },
  };
}

async function trec(qrelsFile: File, runFiles: File[], settings: Settings): Promise<void> {
  page.kind = "trec";
  page.units = [];
  page.keptRows = 0;
  page.compared = null;
  page.lastTrec = { qrels: qrelsFile, runs: runFiles };
  // Two files of one name: named apart, as the CLI does.
  const names = namesApart(
    runFiles.map((f) => f.name),
    runFiles.map((f) => f.webkitRelativePath || undefined),
  );
  page.runNames = new Map(runFiles.map((f, i) => [f, names[i]]));
  const shaped = await subtopicShapedFile(qrelsFile);
  // Settings first: a bad measure name stops before any run is read.
  let ctx = context(settings);
  if (shaped && settings.measures.length === 0) ctx = context({ ...settings, measures: SUBTOPIC_MEASURES });
  page.shapedQrels = shaped;
  page.perSubtopic = shaped || asksForSubtopics(ctx.p);
  if (page.perSubtopic) ctx = { ...ctx, curve: null };
  const prepare = runPreparation(settings.prepare ?? {});
  page.prepared = preparationKey(prepare);
  if (prepare && page.perSubtopic) throw notForSubtopics(prepare, (k) => (k === "dropSelf" ? "drop-self" : k));
  postRows(ctx);
  if (page.perSubtopic) {
    if (shaped) post({ type: "warning", message: readPerSubtopic(qrelsFile.name) });
    await leaveToOneWorker();
    postDownloads(ctx, await diversityRuns(ctx, qrelsFile, runFiles));
    return;
  }
  const texts: string[] = [];
  const tieRange = settings.tieRange === true;
  await evaluateSources(
    pageHost(runFiles),
    qrelsFile,
    runFiles,
    {
      plan: ctx.p,
      evaluated: ctx.curve?.plan,
      options: ctx.opts,
      tieRange,
      warned: ctx.warned,
      prepare,
      spec: {
        names: settings.measures,
        fallback: null,
        conventions: settings.conventions,
        tieRange,
        curve: !!ctx.curve,
      },
    },
    {
      say: (message) => post({ type: "warning", message }),
      run: (_, r) => {
        const u = {
          name: nameOf(r.source),
          runTag: r.runTag,
          blocks: (r.kept as Block[] | null | undefined) ?? null,
          notJudged: r.evaluated.result.queries.skipped.notJudged,
          notInRun: r.notInRunQids.length,
          result: r.evaluated,
        };
        addUnit(ctx, u, texts, runFiles.length >= 2);
      },
    },
  );
  postDownloads(ctx, texts);
}

async function letor(letorFile: File, scoresFile: File, queryFile: File | null, settings: Settings): Promise<void> {
  page.kind = "letor";
  page.units = [];
  page.compared = null;
  const ctx = context(settings);
  if (runPreparation(settings.prepare ?? {}))
    post({
      type: "warning",
      message: "rollup and drop-self prepare runs of documents: LETOR rows are left as they are",
    });
  postRows(ctx);
  const query = queryFile && (await textOf(queryFile));
  const noQid =
    'give the query group sizes as the "query groups" file (one number of rows per line, as LightGBM\'s .query files)';
  const block = await readLetor(await textOf(letorFile), await textOf(scoresFile), query, noQid);
  const result = mergeBlocks([evaluate(ctx, scoresFile.name, block)], 0, 0);
  const texts: string[] = [];
  addUnit(ctx, { name: scoresFile.name, runTag: "", blocks: [block], notJudged: 0, notInRun: 0, result }, texts, false);
  postDownloads(ctx, texts);
}

/** Manifest descriptions, hashed once a File. */
const described = new WeakMap<File, Promise<ManifestInput>>();

/** Posts the trec job's manifest unless another job began meanwhile. */
async function postManifest(): Promise<void> {
  const mine = ++page.manifestJob;
  const ctx = page.current;
  const given = page.manifestInputs;
  if (page.kind !== "trec" || !given || !ctx || !page.units.length) return;
  const warnings = [...page.said];
  const describe = (file: File, role: "qrels" | "run") => {
    const d = described.get(file) ?? describeFile(file, role);
    described.set(file, d);
    return d;
  };
  const inputs: ManifestInput[] = [];
  // One file at a time (read-file.ts).
  inputs.push(await describe(given.qrels, "qrels"));
  for (const file of given.runs) inputs.push({ ...(await describe(file, "run")), name: nameOf(file) });
  if (mine !== page.manifestJob) return;
  const m = manifestOf({
    version: __RANKEVAL_VERSION__,
    options: { ...ctx.settings },
    inputs,
    rows: ctx.p.rows,
    runs: page.units.map((u) => ({ name: u.name, runTag: u.runTag, result: u.result.result })),
    warnings,
  });
  post({ type: "manifest", yaml: manifestText(m, "yaml") });
}

const json = (x: unknown) => `${JSON.stringify(x, null, 2)}\n`;

/** The command line's judgments' functions (src/node/judgments-command.ts and others) on Files. */
async function judgmentsFunctions(job: JudgmentsJob): Promise<JudgmentsResult> {
  // One file at a time (read-file.ts).
  // What the reading left out (JSON lines' failed judgments) leads the notes.
  const readNotes: string[] = [];
  const read = async <V extends "rel" | "score">(value: V, file: File) => {
    const r = await readColumns(value, await inputOf(file), BY_NAME, file.name);
    readNotes.push(...r.notes);
    return r;
  };
  const readAll = async <V extends "rel" | "score">(value: V, files: readonly File[]) => {
    const reads = [];
    for (const file of files) reads.push(await read(value, file));
    return reads;
  };
  const result = (text: string, object: unknown, more: Partial<JudgmentsResult> = {}): JudgmentsResult => ({
    type: "judgments-result",
    text,
    json: object === null ? null : json(object),
    ...more,
    notes: [...readNotes, ...(more.notes ?? [])],
  });
  if (job.kind === "qrels-stats") {
    const stats = statsOfFile(await read("rel", job.qrels), job.threshold);
    return result(formatQrelsStats(stats, { perQuery: job.perQuery }), stats);
  }
  if (job.kind === "agreement") {
    const reads = await readAll("rel", job.qrels);
    const a = agreementOfFiles(reads, { threshold: job.threshold, ...(job.bins ? { bins: job.bins } : {}) });
    const c = a.confusion;
    const confusion = c ? { labels: c.intervals ?? c.labels.map(String), matrix: c.matrix } : undefined;
    return result(agreementText(a, job.perQuery), a, {
      notes: agreementNotes(a),
      ...(confusion ? { confusion } : {}),
    });
  }
  if (job.kind === "fill") {
    const base = await read("rel", job.qrels);
    const extra = await read("rel", job.extra);
    const runs = await readAll("score", job.runs);
    const filled = fillOfFiles(base, extra, runs, job.depth);
    const names = runs.map((r) => r.file);
    return result(holesText(filled, names), null, {
      fill: {
        qrels: filledQrelsText(filled),
        name: filledName(base.file, extra.file),
        summary: holesSummary(filled),
        holes: holesRows(filled, names),
      },
    });
  }
  if (job.kind === "qrels-compare") {
    const [a, b] = await readAll("rel", job.qrels);
    const runs = await readAll("score", job.runs);
    const c = qrelsCompareOfFiles(a, b, runs, job.measures, {
      ...(job.threshold === null ? {} : { relevanceThreshold: job.threshold }),
      ...(job.bins ? { bins: job.bins } : {}),
    });
    const names = { a: a.file, b: b.file, runs: runs.map((r) => r.file) };
    const { text, notes } = qrelsCompareOutput(c, names);
    return result(text, c, { notes, qrelsCompare: qrelsCompareReport(c, names) });
  }
  const options = {
    method: job.method,
    ...(job.budget === null ? {} : { budget: job.budget }),
    ...(job.combine === null ? {} : { combine: job.combine }),
    ...(job.depth === null ? {} : { depth: job.depth }),
    ...(job.coverageDepth === null ? {} : { coverageDepth: job.coverageDepth }),
  };
  const runs = await readAll("score", job.runs);
  const judged = job.judged ? await read("rel", job.judged) : undefined;
  const p = poolOfFiles(runs, judged, options);
  return result(formatPool(p), p, {
    pool: {
      qrels: formatPool(p, { shape: "qrels" }),
      summary: poolSummary(p, job.method, judged !== undefined),
      coverage: coverageRows(
        p,
        runs.map((r) => r.file),
      ),
    },
  });
}

function outOfMemory(err: RangeError): string {
  const where = page.reading
    ? `${page.reading.file}: out of memory after ${Math.round(page.reading.read / 1e6)} MB (${page.reading.lines.toLocaleString("en")} ${page.reading.lines === 1 ? "line" : "lines"})`
    : "out of memory while evaluating";
  return `${where}: this tab could not allocate more (${err.message}). The page holds about 40 bytes per line of the qrels, one block of a run whose queries are together (each query's lines in one place), and a whole run otherwise; evaluate files this large with the command line (npx rankeval QRELS RUN), or split them by query.`;
}

export function startPageWorker(): void {
  self.onmessage = async (e: MessageEvent<Job>) => {
    const job = e.data;
    if (job.kind === "script") return keepWorkerScript(job.script);
    try {
      if (
        job.kind === "qrels-stats" ||
        job.kind === "agreement" ||
        job.kind === "pool" ||
        job.kind === "fill" ||
        job.kind === "qrels-compare"
      ) {
        post(await judgmentsFunctions(job));
        return;
      }
      if (job.kind === "qrels") {
        page.parallel = job.parallel ?? {};
        // Not where partition workers may read the runs instead.
        if (workerCount(page.parallel) < 2) readerAhead ??= startWorker("run-reader");
        page.qrelsReading = readQrels(job.qrels);
        await page.qrelsReading;
        return;
      }
      if (job.kind === "roles") {
        const roles: ("qrels" | "run" | null)[] = [];
        for (const file of job.files) {
          const format = await columnarFormat(file);
          roles.push(format ? await columnarRole(file, format) : null);
        }
        post({ type: "roles", roles });
        return;
      }
      if (job.kind === "compare") return postComparison(job.compare);
      if (job.kind === "explain") {
        // Apart: a failure leaves the table as it is.
        try {
          const file = (name: string) => page.lastTrec?.runs.find((f) => nameOf(f) === name);
          const { p, opts } = page.current!;
          // Judgments held only in partition workers: read here.
          const judgments =
            page.judgmentsRead ?? (page.lastTrec && page.kind === "trec" ? judgmentsOf(page.lastTrec.qrels) : null);
          const { kind, units, perSubtopic } = page;
          const state = { kind, p, opts, units, judgments, perSubtopic, file, readInto, inputOf };
          post({
            type: "explain",
            id: job.id,
            explanations: await explainQueries(state, job.qids, job.depth, job.measure),
          });
        } catch (err) {
          post({ type: "explain-error", id: job.id, message: messageOf(err) });
        }
        return;
      }
      page.workers = 1;
      page.said = [];
      if (job.kind === "trec") {
        page.keepRows = job.keepRows ?? KEEP_ROWS;
        page.parallel = job.parallel ?? {};
        // Runs chosen while the qrels job reads wait for it (one file read at a time; its error is trec's).
        await page.qrelsReading?.catch(() => {});
        page.manifestInputs = { qrels: job.qrels, runs: job.runs };
        const fused = job.fuse && job.runs.length >= 2 ? [await fusedFile(job.runs, job.fuse)] : [];
        await trec(job.qrels, [...job.runs, ...fused], job.settings);
      } else if (job.kind === "letor") await letor(job.letor, job.scores, job.query, job.settings);
      else await reevaluate(job.settings);
      post({ type: "done", kept: page.units.every((u) => u.blocks !== null), workers: page.workers });
      // After done: the table shows while resampling.
      if ((job.kind === "trec" || job.kind === "settings") && job.compare) postComparison(job.compare);
      // Last: hashing reads every file again.
      if (job.kind === "trec" || job.kind === "settings") await postManifest();
    } catch (err) {
      const message = err instanceof RangeError ? outOfMemory(err) : messageOf(err);
      post({ type: "error", message });
    }
  };
}
