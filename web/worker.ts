// The page's worker: the page's adapter of the input layer (src/input/) and of the one evaluation
// (src/app/evaluation.ts: pageHost), a run parsed in a second worker (run-reader-worker.ts), large TREC
// text across partition workers (partitions.ts); what it keeps from one message to the next is one
// PageSession.
import { compare, meanDifferences, type NamedResult as ComparedRun } from "../src/compare/compare.js";
import { formatComparison } from "../src/output/comparison.js";
import { comparableResult, comparableRows, leftOutOfComparison } from "../src/app/comparable.js";
import { batchBlocks, evaluateRunInput, notInRun, readJudgments as readInput } from "../src/input/input.js";
import type { Input, TextInput } from "../src/input/input.js";
import { readLetor } from "../src/input/read-letor.js";
import { joinSubtopicRun, readSubtopicJudgments, SNIFF_BYTES, subtopicShaped } from "../src/input/subtopics.js";
import { Interner } from "../src/io/interner.js";
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
import { BLOCK_ROWS, parsedBlocks, type RunSource } from "../src/pipeline/blocks.js";
import { readerBlocks, type ReaderReport } from "../src/pipeline/reader.js";
import { gunzippedHead, isGzip, readInto as readFile, type OnProgress, type Sink } from "./read-file.js";
import { BY_NAME, isTrecText } from "./text-files.js";
import { batchInput, columnarFormat, columnarRole } from "./file-columns.js";
import { printValue } from "../src/app/value-print.js";
import type { Cell, CompareSettings, FuseChoice, Job, Parallel, PerQuery, Report, Settings } from "./protocol.js";
import type { EvaluationSpec } from "../src/app/evaluator.js";
import { Partitions, type PartitionProgress } from "../src/pipeline/partition-coordinator.js";
import { evaluateSources, type EvaluateFor, type EvaluationHost, type RunDone } from "../src/app/evaluation.js";
import { CHUNK_MOST, listenTo, partFile, partitionable, partitionPorts, readAt, workerCount } from "./partitions.js";
import { explainQueries } from "./worker-explain.js";
import { describeFile } from "./manifest-files.js";
import { manifestOf, manifestText, type ManifestInput } from "../src/app/manifest.js";
import { takeCurve, withCurve, type CurvePlan, type CurvePoint } from "../src/app/curve.js";
import { takesWeights } from "../src/fusion/methods.js";
import { readRows } from "../src/input/input.js";
import { writeFusedRun } from "../src/output/fused-run.js";
// Inlined, as main.ts's worker is (a page opened from disk may start no worker from a URL).
import RunReaderWorker from "./run-reader-worker.js?worker&inline";

const post = (r: Report, transfer: Transferable[] = []) => {
  if (r.type === "warning") page.said.push(r.message);
  (self as unknown as Worker).postMessage(r, transfer);
};

const nameOf = (file: File) => page.runNames.get(file) ?? file.name;

/** Posts the progress of reading `file`, kept in `reading` until it is read whole (for outOfMemory). */
function progressOf(file: File): OnProgress {
  const state = { file: nameOf(file), read: 0, lines: 0 };
  return (read, lines, seconds) => {
    page.reading = read >= file.size ? null : Object.assign(state, { read, lines });
    post({ type: "progress", file: nameOf(file), read, size: file.size, lines, seconds });
  };
}

const readInto = (file: File, sink: Sink) => readFile(file, sink, progressOf(file));

/** RunSource.blocks for a run parsed in a second worker while this one joins and evaluates. */
function readerBlocksOf(file: File): NonNullable<RunSource["blocks"]> {
  return readerBlocks(
    file,
    file.name,
    BLOCK_ROWS,
    () => {
      const reader = new RunReaderWorker();
      return {
        send: (job, transfer) => reader.postMessage(job, transfer ?? []),
        listen: (report, fail) => listenTo<ReaderReport>(reader, report, fail),
        stop: () => reader.terminate(),
      };
    },
    progressOf(file),
  );
}

/** Rows of one or more queries, joined and grouped: what the kernel evaluates in one go. */
interface Block {
  batch: Batch;
  qids: string[];
}

/** A run (or a LETOR file) read: its result under the current settings, and its blocks while kept. */
interface Unit {
  name: string;
  runTag: string;
  /** Kept to re-evaluate under new settings; null once dropped to bound memory (see KEEP_ROWS). */
  blocks: Block[] | null;
  notJudged: number;
  notInRun: number;
  /** Its per-query values are handed to the page once shown (postRun): read the means only. */
  result: Evaluated;
  /** Its precision-recall curve, taken out of what was evaluated (addUnit, reevaluate). */
  curve?: readonly CurvePoint[] | null;
}

/**
 * Rows of joined blocks kept over all runs (about 36 bytes a row). Larger runs' blocks are dropped once
 * evaluated, so memory stays bounded; new settings then read the files again.
 */
const KEEP_ROWS = 8_000_000;
/** Bytes of a run line, about, to guess from file sizes (gzip 4 to 1) whether the rows fit in KEEP_ROWS. */
const RUN_LINE_BYTES = 30;

/**
 * What this worker holds from one message to the next, in one place (one instance: the page's session).
 * The judgments (read here, or held by partition workers) serve every run and setting that follows
 * without reading the qrels again; the runs' blocks are what new settings re-evaluate; the settings
 * shown are what drill-downs explain and the comparison compares; the manifest's warnings and files are
 * the last job's. A job resets what is its own where it begins.
 */
class PageSession {
  /** The warnings said since the job began: the manifest's. */
  said: string[] = [];
  /** The file being read, for an out-of-memory message that says where it happened. */
  reading: { file: string; read: number; lines: number } | null = null;
  /** The last trec job's runs' names, told apart where two files share one (namesApart); else a file's name. */
  runNames = new Map<File, string>();
  /** This job's KEEP_ROWS (the page's `keep-rows` URL parameter). */
  keepRows = KEEP_ROWS;
  kind: "trec" | "letor" = "trec";
  units: Unit[] = [];
  keptRows = 0;
  /** With two runs or more, the runs as compare() takes them: copies, since postRun hands the originals over. */
  compared: ComparedRun[] | null = null;
  /** The settings of the table shown: what drill-downs explain. */
  current: Context | null = null;
  /** This worker's judgments, read or being read: one qrels file a worker (see protocol.ts's Job). */
  judgmentsRead: Promise<GroupedJudgments> | null = null;
  /** The qrels job's read (a qrels file chosen before its runs), under way or done. */
  qrelsReading: Promise<void> | null = null;
  /** The last trec job's files: read again when new settings ask for subtopic judgments they were read without. */
  lastTrec: { qrels: File; runs: File[] } | null = null;
  /** Whether the last trec job's judgments were read per subtopic (a diversity qrels); `shapedQrels`: told by its shape. */
  perSubtopic = false;
  shapedQrels = false;
  /** This job's Parallel (the page's ?workers=N and ?partition-bytes=N). */
  parallel: Parallel = {};
  /** How many partition workers evaluated the last job's runs (1: this worker alone, for some run at least). */
  workers = 1;
  /**
   * The qrels file's judgments held by partition workers, judged once (null: left to this worker). One
   * qrels file a worker, as judgmentsRead (each job's File is a copy: not the same object).
   */
  held: Promise<Partitions<File, EvaluationSpec> | null> | null = null;
  /** The last trec job's files as chosen (not the fused run, which the page made). */
  manifestInputs: { qrels: File; runs: File[] } | null = null;
  /** The latest manifest asked for: one still hashing when another job starts is not posted. */
  manifestJob = 0;
}
const page = new PageSession();

interface Context {
  settings: Settings;
  p: Plan;
  opts: ExplicitOptions;
  warned: Set<string>;
  /** The plan with the precision-recall curve's measures, what is evaluated (null: no curve). */
  curve: CurvePlan | null;
}

/** `subtopics`: judgments read per subtopic, which have no curve. */
function context(settings: Settings, subtopics = false): Context {
  const p = plan(settings.measures, page.kind === "letor" ? LETOR_DEFAULT_MEASURES : null, settings.conventions);
  const opts = options(settings.conventions, p.kind === "trec");
  const curve = subtopics ? null : withCurve(p, settings.conventions, opts);
  return { settings, p, opts, warned: new Set(), curve };
}

/** The unit's curve, taken out of its evaluation (which is left as the plan alone gives it). */
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
  return evaluateBlock(
    ctx.curve?.plan ?? ctx.p,
    block.batch,
    block.qids,
    ctx.opts,
    name,
    (w) => {
      if (!ctx.warned.has(w)) post({ type: "warning", message: w });
      ctx.warned.add(w);
    },
    [],
    { tieRange: ctx.settings.tieRange === true, summaries: false },
  );
}

/** Shows a unit's column and per-query values; returns its trec_eval summary text for downloads. */
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
  // Handed over without a copy (tens of MB for 300k queries): nothing here reads them after this.
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

/** New settings: units evaluated again from their kept blocks (read again if now asking for subtopics). */
async function reevaluate(settings: Settings): Promise<void> {
  let ctx = context(settings, page.perSubtopic);
  if (page.kind === "trec" && page.lastTrec && !page.perSubtopic && asksForSubtopics(ctx.p))
    return trec(page.lastTrec.qrels, page.lastTrec.runs, settings);
  if (page.kind === "trec" && page.shapedQrels && settings.measures.length === 0)
    ctx = context({ ...settings, measures: ["ndeval"] }, page.perSubtopic);
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
  const { rows } = comparable;
  if (!page.compared) {
    page.compared = [];
    // Said only of lines named on their own: those a set brings (runid, num_q and gm_map with the defaults)
    // and the counts are left out of every comparison, and the comparison's table shows what it compares.
    const named = comparable.left.filter((name) => ctx.settings.measures.includes(name));
    for (const message of leftOutOfComparison({ left: named, counts: [] })) post({ type: "warning", message });
  }
  const result = comparableResult(u.result.result, rows);
  const values = Object.fromEntries(Object.entries(result.values).map(([m, v]) => [m, v.slice()]));
  page.compared.push({ name: u.name, result: { ...result, values } });
}

/** The comparison as --compare makes it, its downloads, and every pair's t interval for the difference plot. */
function postComparison(settings: CompareSettings): void {
  if (!page.compared || page.compared.length < 2) return;
  try {
    // A baseline chosen among runs no longer shown: the first run, as the page's picker then shows.
    const baseline = page.compared.some((r) => r.name === settings.baseline) ? settings.baseline! : undefined;
    const comparison = compare(page.compared, {
      baseline,
      tests: [settings.test],
      correction: settings.correction ?? undefined,
      alpha: settings.alpha,
    });
    const options = { sideBySide: true, markTest: settings.test };
    const downloads = {
      markdown: formatComparison(comparison, "markdown", options),
      latex: formatComparison(comparison, "latex", options),
      csv: formatComparison(comparison, "csv", options),
      json: formatComparison(comparison, "json", options),
    };
    post({ type: "comparison", comparison, test: settings.test, downloads, intervals: meanDifferences(page.compared) });
  } catch (err) {
    post({ type: "comparison-error", message: err instanceof Error ? err.message : String(err) });
  }
}

/** Reads and evaluates a run block by block; blocks are kept while KEEP_ROWS allows. */
async function readRun(
  judgments: GroupedJudgments,
  file: File,
  keep: boolean,
  evaluateFor: EvaluateFor<File>,
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
      // Text is parsed by a second worker where workers can start workers. Blocks' buffers are not given
      // back to it (as the command line does): with them its reads stalled for good in Chromium 156 one
      // page load in five (a BYOB read never settling: see file-read.ts). Fresh blocks cost 0.2 s a GB.
      blocks:
        "batches" in input
          ? batchBlocks(input, BLOCK_ROWS)
          : !isTrecText(file)
            ? null
            : typeof Worker === "function"
              ? readerBlocksOf(file)
              : parsedBlocks(file.name, (sink) => readInto(file, sink)),
      recycle: !keep,
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

/**
 * The runs fused as the command line fuses them (src/output/fused-run.ts): each read whole, fused and
 * written as TREC text into a File named `fused(METHOD)`, which is then evaluated as any run. The
 * weighted methods weigh every run alike.
 */
async function fusedFile(runs: readonly File[], choice: FuseChoice): Promise<File> {
  const qids = new Interner();
  const read = [];
  for (const file of runs) read.push(await readRows("run", await inputOf(file), qids, BY_NAME));
  const params = takesWeights(choice.method) ? { weights: runs.map(() => 1) } : {};
  const parts: Uint8Array<ArrayBuffer>[] = [];
  writeFusedRun(read, qids, { method: choice.method, norm: choice.norm, params }, choice.method, (b) => parts.push(b));
  return new File(parts, `fused(${choice.method})`, { type: "text/plain" });
}

async function readJudgments(file: File): Promise<GroupedJudgments> {
  return readInput(await inputOf(file), new Interner(), BY_NAME);
}

function judgmentsOf(qrelsFile: File): Promise<GroupedJudgments> {
  page.judgmentsRead ??= readJudgments(qrelsFile).then((j) => {
    post({ type: "judgments" });
    return j;
  });
  return page.judgmentsRead;
}

const asksForSubtopics = (p: Plan) => p.measures.some((m) => m.family.diversity);

/** Whether a qrels file is subtopic judgments by its shape: from a slice, so no stream is left open. */
function subtopicShapedFile(file: File): Promise<boolean> {
  return subtopicShaped(async (sink) => {
    if (!(await isGzip(file))) return sink.push(new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()));
    await gunzippedHead(file.slice(0, SNIFF_BYTES / 4), (chunk) => {
      sink.push(chunk);
      return true;
    });
  });
}

/** Runs against subtopic judgments (--diversity): one block a run, always kept (new settings reuse it). */
async function diversityRuns(ctx: Context, qrelsFile: File, runFiles: File[]): Promise<string[]> {
  const judgments = await readSubtopicJudgments(await textOf(qrelsFile));
  post({ type: "judgments" });
  const texts: string[] = [];
  for (const file of runFiles) {
    const { joined, runTag } = await joinSubtopicRun(judgments, await inputOf(file), BY_NAME);
    if (joined.notInRun) post({ type: "warning", message: notInRun(nameOf(file), joined.notInRun) });
    const block = { batch: joined.batch, qids: joined.qids };
    page.keptRows += block.batch.scores.length;
    const result = mergeBlocks([evaluate(ctx, nameOf(file), block)], joined.notJudged, joined.notInRun);
    const counts = { notJudged: joined.notJudged, notInRun: joined.notInRun };
    addUnit(ctx, { name: nameOf(file), runTag, blocks: [block], ...counts, result }, texts, runFiles.length >= 2);
  }
  return texts;
}

/** Posts each file's progress as the partition workers take its chunks (they count no lines). */
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

/** The qrels file's judgments streamed to partition workers (once): null where they failed. */
function judgedInPartitions(qrels: File): Promise<Partitions<File, EvaluationSpec> | null> {
  page.held ??= (async () => {
    const p = new Partitions(partitionPorts(workerCount(page.parallel)), readAt, partitionProgress(), CHUNK_MOST);
    // The spec of each run's settings comes with the runs (evaluate's spec): this one evaluates none.
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

/**
 * This worker reads the judgments itself from now on (runs the partition workers left or cannot take):
 * they let theirs go, so that the tab holds them once.
 */
async function leaveToOneWorker(): Promise<void> {
  const p = page.held && (await page.held);
  page.held = Promise.resolve(null);
  if (!p) return;
  // Their last answers first: a session ends idle.
  await p.judged();
  p.end();
}

/** Reads a qrels file chosen alone: in the partition workers where it is large TREC text, else here. */
async function readQrels(qrels: File): Promise<void> {
  if (await partitionable([qrels], page.parallel)) {
    const p = await judgedInPartitions(qrels);
    if (p && (await p.judged())) return;
    await leaveToOneWorker();
  }
  await judgmentsOf(qrels);
}

/**
 * The partition workers holding the qrels' judgments for these runs, where every run is plain TREC
 * text and either the workers hold them already or the files together are large enough; else null.
 */
async function partitionsFor(qrels: File, runs: readonly File[]): Promise<Partitions<File, EvaluationSpec> | null> {
  if (workerCount(page.parallel) < 2 || !(await partitionable(runs, { ...page.parallel, minBytes: 0 }))) return null;
  if (!page.held && !(await partitionable([qrels, ...runs], page.parallel))) return null;
  return judgedInPartitions(qrels);
}

/** The page's Files as evaluateSources reads them: across the partition workers where they can, else here. */
function pageHost(runFiles: readonly File[]): EvaluationHost<File> {
  return {
    name: nameOf,
    partitioned: async (qrels, runs, job, onJudged, done) => {
      const partitions = await partitionsFor(qrels, runs);
      // Labels trec_eval reads as another number (1.5), under its names: this worker's way, which says so
      // naming the first one's line (the partition workers know no file's lines). Usually judged already.
      if (!partitions || (job.trecLabels && (await partitions.judged())?.truncated === true)) return 0;
      const first = await partitions.evaluate(runs.map(partFile), done, onJudged, job.spec);
      if (first === runs.length) page.workers = partitions.parts;
      return first;
    },
    judgments: async (qrels) => {
      await leaveToOneWorker();
      return judgmentsOf(qrels);
    },
    runs: async (runs, judgments, evaluateFor, done) => {
      let bytes = 0;
      for (const f of runFiles) bytes += f.size * ((await isGzip(f)) ? 4 : 1);
      // Runs too large to keep are never held: held, then dropped at KEEP_ROWS, memory would peak there.
      const keep = bytes / RUN_LINE_BYTES <= page.keepRows;
      for (let i = 0; i < runs.length; i++)
        done(i, await readRun(judgments as GroupedJudgments, runs[i], keep, evaluateFor));
    },
  };
}

async function trec(qrelsFile: File, runFiles: File[], settings: Settings): Promise<void> {
  page.kind = "trec";
  page.units = [];
  page.keptRows = 0;
  page.compared = null;
  page.lastTrec = { qrels: qrelsFile, runs: runFiles };
  // Two files of one name (from two folders) are two columns: named apart, as the command line names them.
  const names = namesApart(
    runFiles.map((f) => f.name),
    runFiles.map((f) => f.webkitRelativePath || undefined),
  );
  page.runNames = new Map(runFiles.map((f, i) => [f, names[i]]));
  const shaped = await subtopicShapedFile(qrelsFile);
  // Settings first: a bad measure name stops before any run is read.
  let ctx = context(settings);
  if (shaped && settings.measures.length === 0) ctx = context({ ...settings, measures: ["ndeval"] });
  page.shapedQrels = shaped;
  page.perSubtopic = shaped || asksForSubtopics(ctx.p);
  if (page.perSubtopic) ctx = { ...ctx, curve: null };
  postRows(ctx);
  if (page.perSubtopic) {
    if (shaped)
      post({
        type: "warning",
        message: `${qrelsFile.name} judges documents per subtopic (its second column): read as a diversity qrels`,
      });
    await leaveToOneWorker();
    postDownloads(ctx, await diversityRuns(ctx, qrelsFile, runFiles));
    return;
  }
  const texts: string[] = [];
  const tieRange = settings.tieRange === true;
  const spec = { names: settings.measures, fallback: null, conventions: settings.conventions, tieRange };
  const request = { plan: ctx.p, evaluated: ctx.curve?.plan, options: ctx.opts, tieRange, warned: ctx.warned };
  await evaluateSources(
    pageHost(runFiles),
    qrelsFile,
    runFiles,
    { ...request, spec: { ...spec, curve: !!ctx.curve } },
    {
      say: (message) => post({ type: "warning", message }),
      run: (_, r) => {
        const notJudged = r.evaluated.result.queries.skipped.notJudged;
        const counts = { notJudged, notInRun: r.notInRunQids.length };
        const blocks = (r.kept as Block[] | null | undefined) ?? null;
        const u = { name: nameOf(r.source), runTag: r.runTag, blocks, ...counts, result: r.evaluated };
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
  postRows(ctx);
  const query = queryFile && (await textOf(queryFile));
  const noQid =
    'give the query group sizes as the "query groups" file' +
    " (one number of rows per line, as LightGBM's .query files)";
  const block = await readLetor(await textOf(letorFile), await textOf(scoresFile), query, noQid);
  const result = mergeBlocks([evaluate(ctx, scoresFile.name, block)], 0, 0);
  const texts: string[] = [];
  addUnit(ctx, { name: scoresFile.name, runTag: "", blocks: [block], notJudged: 0, notInRun: 0, result }, texts, false);
  postDownloads(ctx, texts);
}

/** Each input File described for the manifest (hashed once, kept while the page keeps the File). */
const described = new WeakMap<File, Promise<ManifestInput>>();

/** The trec job's manifest, once its inputs are hashed, unless another job began meanwhile. */
async function postManifest(): Promise<void> {
  const mine = ++page.manifestJob;
  const ctx = page.current;
  const given = page.manifestInputs;
  if (page.kind !== "trec" || !given || !ctx || !page.units.length) return;
  const warnings = [...page.said];
  const describe = (file: File, role: "qrels" | "run") => {
    let d = described.get(file);
    if (!d) {
      d = describeFile(file, role);
      described.set(file, d);
    }
    return d;
  };
  const inputs: ManifestInput[] = [];
  // One file at a time (read-file.ts says why); runs named as the table names them.
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

/** An allocation the tab could not get, as an error saying how far it got and what to do instead. */
function outOfMemory(err: RangeError): string {
  const where = page.reading
    ? `${page.reading.file}: out of memory after ${Math.round(page.reading.read / 1e6)} MB (${page.reading.lines.toLocaleString("en")} ${page.reading.lines === 1 ? "line" : "lines"})`
    : "out of memory while evaluating";
  return `${where}: this tab could not allocate more (${err.message}). The page holds about 40 bytes per line of the qrels, one block of a run whose queries are together (each query's lines in one place), and a whole run otherwise; evaluate files this large with the command line (npx rankeval QRELS RUN), or split them by query.`;
}

self.onmessage = async (e: MessageEvent<Job>) => {
  const job = e.data;
  try {
    if (job.kind === "qrels") {
      page.parallel = job.parallel ?? {};
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
    if (job.kind === "compare") {
      postComparison(job.compare);
      return;
    }
    if (job.kind === "explain") {
      // Answered apart, so that a failure leaves the table as it is.
      try {
        const file = (name: string) => page.lastTrec?.runs.find((f) => nameOf(f) === name);
        const { p, opts } = page.current!;
        // Judgments held by partition workers only are read here, for the drill-downs.
        const judgments =
          page.judgmentsRead ?? (page.lastTrec && page.kind === "trec" ? judgmentsOf(page.lastTrec.qrels) : null);
        const state = {
          kind: page.kind,
          p,
          opts,
          units: page.units,
          judgments,
          perSubtopic: page.perSubtopic,
          file,
          readInto,
          inputOf,
        };
        post({
          type: "explain",
          id: job.id,
          explanations: await explainQueries(state, job.qids, job.depth, job.measure),
        });
      } catch (err) {
        post({ type: "explain-error", id: job.id, message: err instanceof Error ? err.message : String(err) });
      }
      return;
    }
    page.workers = 1;
    page.said = [];
    if (job.kind === "trec") {
      page.keepRows = job.keepRows ?? KEEP_ROWS;
      page.parallel = job.parallel ?? {};
      // Runs chosen while the qrels job reads (this handler runs again meanwhile): fusion reads the runs
      // first, and the kernel reads one file at a time, so it waits for the qrels (their error is trec's).
      await page.qrelsReading?.catch(() => {});
      page.manifestInputs = { qrels: job.qrels, runs: job.runs };
      const fused = job.fuse && job.runs.length >= 2 ? [await fusedFile(job.runs, job.fuse)] : [];
      await trec(job.qrels, [...job.runs, ...fused], job.settings);
    } else if (job.kind === "letor") await letor(job.letor, job.scores, job.query, job.settings);
    else await reevaluate(job.settings);
    post({ type: "done", kept: page.units.every((u) => u.blocks !== null), workers: page.workers });
    // After done: the table is there while the resampling runs.
    if ((job.kind === "trec" || job.kind === "settings") && job.compare) postComparison(job.compare);
    // After done and the comparison: hashing reads every file once more.
    if (job.kind === "trec" || job.kind === "settings") await postManifest();
  } catch (err) {
    const message = err instanceof RangeError ? outOfMemory(err) : err instanceof Error ? err.message : String(err);
    post({ type: "error", message });
  }
};
