// The page's worker: reads each File with file.stream(), chunk by chunk, through the input layer the
// command line shares (src/input/: this is the page's adapter, with its progress posts), a run
// through a second worker (run-reader.ts, which parses it into blocks while this one joins and
// evaluates), evaluates in the WebAssembly kernel and posts the values back. The
// same pipeline as the command line (src/node/cli.ts), with its plan and reports (src/trec/plan.ts):
// without measures, trec_eval's default measures and conventions for a qrels file and runs, the CLI's
// LETOR defaults for a LETOR file and its predictions. A qrels file may come alone first: its
// judgments are kept for the runs that follow. The joined batches are kept up to KEEP_ROWS rows, so
// new settings re-evaluate them without reading the files again.
import { compare, type NamedResult as ComparedRun } from "../src/compare/compare.js";
import { formatComparison } from "../src/output/comparison.js";
import { comparableResult, comparableRows } from "../src/output/per-query-runs.js";
import { batchBlocks, evaluateRun, notInRun, readJudgments as readInput } from "../src/input/input.js";
import type { Input, TextInput } from "../src/input/input.js";
import { readLetor } from "../src/input/read-letor.js";
import { joinSubtopicRun, readSubtopicJudgments, SNIFF_BYTES, subtopicShaped } from "../src/input/subtopics.js";
import { Interner } from "../src/io/interner.js";
import type { Batch } from "../src/kernel/batch.js";
import type { ExplicitOptions } from "../src/options.js";
import { labelledTexts } from "../src/output/table.js";
import { trecLines } from "../src/trec/measure-table.js";
import { evaluateBlock, type Evaluated } from "../src/pipeline/evaluate-block.js";
import { mergeBlocks } from "../src/pipeline/merge.js";
import { LETOR_DEFAULT_MEASURES, lineKey, options, plan, planConventions, type Plan } from "../src/app/plan.js";
import { report, trecText, type NamedResult } from "../src/output/results.js";
import type { GroupedJudgments } from "../src/pipeline/join-rows.js";
import { BLOCK_ROWS, parsedBlocks, type RunSource } from "../src/pipeline/blocks.js";
import { readerBlocks, type ReaderReport } from "../src/pipeline/reader.js";
import { isGzip, readInto as readFile, type OnProgress, type Sink } from "./read.js";
import { batchInput, columnarFormat } from "./columnar.js";
import { formatValue, type Cell, type CompareSettings, type Interval, type Job, type PerQuery, type Report, type Settings } from "./protocol.js";
import { explainQueries } from "./worker-explain.js";

const post = (r: Report, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(r, transfer);

/** The file being read, for an out-of-memory message that says where it happened. */
let reading: { file: string; read: number; lines: number } | null = null;

/**
 * Posts the progress of reading `file` (bytes read, lines or rows), kept in `reading` until the file
 * is read whole (and on failure, for outOfMemory's message).
 */
function progressOf(file: File): OnProgress {
  const state = { file: file.name, read: 0, lines: 0 };
  return (read, lines, seconds) => {
    reading = read >= file.size ? null : Object.assign(state, { read, lines });
    post({ type: "progress", file: file.name, read, size: file.size, lines, seconds });
  };
}

/** Streams `file` into `sink` (read.ts), posting its progress. */
const readInto = (file: File, sink: Sink) => readFile(file, sink, progressOf(file));

/**
 * RunSource.blocks for a run parsed in a second worker (run-reader.ts) while this one joins and
 * evaluates; the progress it reports is posted as this worker's own.
 */
function readerBlocksOf(file: File): NonNullable<RunSource["blocks"]> {
  return readerBlocks(file, file.name, BLOCK_ROWS, () => {
    const reader = new Worker(new URL("./run-reader.ts", import.meta.url), { type: "module" });
    return {
      send: (job, transfer) => reader.postMessage(job, transfer ?? []),
      listen: (report, fail) => {
        reader.onmessage = (e: MessageEvent<ReaderReport>) => report(e.data);
        reader.onerror = (e) => {
          e.preventDefault();
          fail(e.message);
        };
      },
      stop: () => reader.terminate(),
    };
  }, progressOf(file));
}

/** trec_eval's summary lines ("name\tall\tvalue") as cells, by printed name. */
function summaryCells(text: string): Record<string, Cell> {
  const out: Record<string, Cell> = {};
  for (const line of text.split("\n")) {
    if (!line) continue;
    const [name, , value] = line.split("\t");
    const n = Number(value);
    out[name.trim()] = { text: value, value: value !== "" && Number.isFinite(n) ? n : null };
  }
  return out;
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
}

/**
 * Rows of joined blocks kept, over all runs, so that new settings re-evaluate without reading the
 * files again (about 36 bytes a row). Runs larger than this are not kept: their blocks are evaluated
 * as they come and dropped, so memory holds the judgments and a few blocks whatever the run's size;
 * new settings then read the files again.
 */
const KEEP_ROWS = 8_000_000;
/** This job's KEEP_ROWS: the page may give another (its `keep-rows` URL parameter). */
let keepRows = KEEP_ROWS;
/**
 * Bytes of a run line, about, to tell from the files' sizes whether their rows will fit in KEEP_ROWS
 * (gzip counted 4 to 1); and if the guess was low, blocks are dropped once past it.
 */
const RUN_LINE_BYTES = 30;

let kind: "trec" | "letor" = "trec";
let units: Unit[] = [];
let keptRows = 0;
/**
 * The runs as compare() takes them (the lines that are per-query numbers, under their printed names),
 * kept while two runs or more are evaluated: their values are copies, since postRun hands the
 * originals to the page. Null otherwise.
 */
let compared: ComparedRun[] | null = null;

/** What settings mean for this kind of input: the plan and the options; warnings given so far. */
interface Context {
  settings: Settings;
  p: Plan;
  opts: ExplicitOptions;
  warned: Set<string>;
}

function context(settings: Settings): Context {
  const p = plan(settings.measures, kind === "letor" ? LETOR_DEFAULT_MEASURES : null, settings.conventions);
  return { settings, p, opts: options(settings.conventions, p.kind === "trec"), warned: new Set() };
}

/** The settings of the table shown: what drill-downs explain. */
let current: Context | null = null;

/** Starts a table: its rows (the measures as printed) and the conventions line. */
function postRows(ctx: Context): void {
  current = ctx;
  const { p, opts } = ctx;
  const rows = p.kind === "trec" ? trecLines(p.trec).filter((l) => l.summary).map((l) => l.name) : p.rows.map((r) => r.name);
  post({ type: "rows", measures: rows, conventions: planConventions(p, opts).join("; ") });
  for (const w of p.warnings) post({ type: "warning", message: w });
}

/** One block's values, as the CLI computes a run's; each warning once. */
function evaluate(ctx: Context, name: string, block: Block): Evaluated {
  return evaluateBlock(ctx.p, block.batch, block.qids, ctx.opts, name, (w) => {
    if (!ctx.warned.has(w)) post({ type: "warning", message: w });
    ctx.warned.add(w);
  }, [], { tieRange: ctx.settings.tieRange === true, summaries: false });
}

/** Shows a unit's column and per-query values; returns its summary text (trec_eval's lines) for downloads. */
function postRun(ctx: Context, u: Unit): string {
  const { p } = ctx;
  const { result, strings } = u.result;
  const perQuery: PerQuery = { qids: result.qids, columns: {} };
  let cells: Record<string, Cell> = {};
  let text = "";
  if (p.kind === "trec") {
    text = trecText(p, { file: u.name, runTag: kind === "letor" ? "letor" : u.runTag, result, strings }, { perQuery: false });
    cells = summaryCells(text);
    // trec_eval -q's numbers, unformatted (the report prints the same values per query).
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
      cells[m.name] = { text: formatValue(v, "table"), value: Number.isNaN(v) ? null : v, ...(t ? { range: { ...t.mean } } : {}) };
      perQuery.columns[m.name] = { values: result.values[m.name], print: "table" };
    }
  }
  // The per-query values go to the page without a copy (tens of MB for 300k queries): nothing here
  // reads them after this (downloads need the means; new settings evaluate again).
  const buffers = new Set(Object.values(perQuery.columns).map((c) => c.values.buffer as ArrayBuffer));
  post({ type: "run", name: u.name, cells, perQuery }, [...buffers]);
  return text;
}

/** The downloads, once every unit is shown. */
function postDownloads(ctx: Context, texts: string[]): void {
  const { p } = ctx;
  if (!units.length) return;
  const named: NamedResult[] = units.map((u) => ({ name: u.name, runTag: kind === "letor" ? "" : u.runTag, result: u.result.result }));
  post({ type: "downloads", json: report("json", named, p, false), csv: report("csv", named, p, false), trec: p.kind === "trec" ? labelledTexts(units.map((u, i) => ({ name: u.name, text: texts[i] }))) : null });
}

/**
 * New settings for the units read: each is evaluated again from its kept blocks; runs read without
 * subtopic judgments are read again if the settings ask for them.
 */
async function reevaluate(settings: Settings): Promise<void> {
  let ctx = context(settings);
  if (kind === "trec" && lastTrec && !perSubtopic && asksForSubtopics(ctx.p)) return trec(lastTrec.qrels, lastTrec.runs, settings);
  if (kind === "trec" && shapedQrels && settings.measures.length === 0) ctx = context({ ...settings, measures: ["ndeval"] });
  postRows(ctx);
  const texts: string[] = [];
  compared = null;
  for (const u of units) {
    if (!u.blocks) throw new Error("the runs were too large to keep: read them again");
    u.result = mergeBlocks(u.blocks.map((b) => evaluate(ctx, u.name, b)), u.notJudged, u.notInRun);
    if (kind === "trec" && units.length >= 2) keepForComparison(ctx, u);
    texts.push(postRun(ctx, u));
  }
  postDownloads(ctx, texts);
}

/** Adds a unit read and shows it; its summary text joins `texts`, for the downloads. */
function addUnit(ctx: Context, u: Unit, texts: string[], comparing: boolean): void {
  units.push(u);
  if (comparing) keepForComparison(ctx, u);
  texts.push(postRun(ctx, u));
}

/** Keeps a copy of a unit's per-query values for the comparison (before postRun hands them over). */
function keepForComparison(ctx: Context, u: Unit): void {
  const { rows, left } = comparableRows(ctx.p);
  if (!compared) {
    compared = [];
    if (left.length) post({ type: "warning", message: `not per-query numbers, left out of the comparison: ${left.join(", ")}` });
  }
  const result = comparableResult(u.result.result, rows);
  const values = Object.fromEntries(Object.entries(result.values).map(([m, v]) => [m, v.slice()]));
  compared.push({ name: u.name, result: { ...result, values } });
}

/**
 * The comparison of the runs evaluated, as the command line's --compare makes it with the same
 * options (one test), its downloads, and each pair's mean difference with its interval (the t test's,
 * over every pair) for the difference plot.
 */
function postComparison(settings: CompareSettings): void {
  if (!compared || compared.length < 2) return;
  try {
    // A baseline chosen among runs no longer shown: the first run, as the page's picker then shows.
    const baseline = compared.some((r) => r.name === settings.baseline) ? settings.baseline! : undefined;
    const comparison = compare(compared, {
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
    const pairs = compare(compared, { pairs: "all", tests: ["t"], correction: "none" });
    const intervals: Interval[] = pairs.comparisons.map((x) => ({ measure: x.measure, baseline: x.baseline, run: x.run, n: x.n, difference: x.difference, ci95: x.ci95 }));
    post({ type: "comparison", comparison, test: settings.test, downloads, intervals });
  } catch (err) {
    post({ type: "comparison-error", message: err instanceof Error ? err.message : String(err) });
  }
}

/**
 * Reads a run block by block, each evaluated as it comes (src/pipeline/blocks.ts); a run whose queries are
 * not grouped is read again whole. Blocks are kept while KEEP_ROWS allows.
 */
async function readRun(ctx: Context, judgments: GroupedJudgments, file: File, keep: boolean): Promise<Unit> {
  let blocks: Block[] | null = keep ? [] : null;
  let rows = 0;
  const input = await inputOf(file);
  const r = await evaluateRun(input, judgments, {
    // Parquet or Arrow (columnar.ts): read in this worker, block by block. Text: a second worker parses
    // where workers can start workers (every current browser); this one otherwise.
    // Blocks' buffers are not given back to the second worker here (RunSource.recycle's ReaderJob
    // buffer, as the command line does): with them, the second worker's reads stalled for good in
    // Chromium 156 about one page load in five, early in the run (a BYOB read never settling, as with
    // two files read at once: see read.ts); without, none in many. Fresh blocks cost about 0.2 s a GB.
    blocks: "batches" in input
      ? batchBlocks(input, BLOCK_ROWS)
      : typeof Worker === "function" ? readerBlocksOf(file) : parsedBlocks(file.name, (sink) => readInto(file, sink)),
    // Blocks not kept are dropped once evaluated: each join may write over the one before.
    recycle: !keep,
    restart: () => {
      post({ type: "warning", message: `${file.name}: its queries' lines are not together; read whole (more memory than a grouped run)` });
      keptRows -= rows;
      rows = 0;
      if (blocks) blocks = [];
    },
  }, TREC, (joined) => {
    const block = { batch: joined.batch, qids: joined.qids };
    rows += block.batch.scores.length;
    keptRows += block.batch.scores.length;
    if (keptRows > keepRows) {
      // Too much to keep: drop every run's blocks, this one's as it goes.
      for (const u of units) u.blocks = null;
      blocks = null;
    }
    blocks?.push(block);
    return evaluate(ctx, file.name, block);
  });
  if (r.notInRunQids.length) post({ type: "warning", message: notInRun(file.name, r.notInRunQids) });
  const notJudged = r.evaluated.result.queries.skipped.notJudged;
  return { name: file.name, runTag: r.runTag, blocks, notJudged, notInRun: r.notInRunQids.length, result: r.evaluated };
}

/** Text read from a File is TREC's, whatever its name (the page has no --input-format). */
const TREC = { format: "trec" } as const;

/** A File as the input layer reads text (src/input/input.ts). */
async function textOf(file: File): Promise<TextInput> {
  return { name: file.name, size: (await isGzip(file)) ? 0 : file.size, read: (sink) => readInto(file, sink) };
}

/** A File as the input layer reads it: Parquet or Arrow (columnar.ts) by its first bytes, else text. */
async function inputOf(file: File): Promise<Input> {
  const format = await columnarFormat(file);
  return format ? batchInput(file, format, progressOf(file)) : textOf(file);
}

/** The judgments, grouped by query; an empty file is said at once. */
async function readJudgments(file: File): Promise<GroupedJudgments> {
  return readInput(await inputOf(file), new Interner(), TREC);
}

/** This worker's judgments, read or being read: one qrels file a worker (see protocol.ts's Job). */
let judgmentsRead: Promise<GroupedJudgments> | null = null;

function judgmentsOf(qrelsFile: File): Promise<GroupedJudgments> {
  judgmentsRead ??= readJudgments(qrelsFile).then((j) => {
    post({ type: "judgments" });
    return j;
  });
  return judgmentsRead;
}

/** The last trec job's files: read again when new settings ask for subtopic judgments they were read without. */
let lastTrec: { qrels: File; runs: File[] } | null = null;
/** Whether the last trec job's judgments were read per subtopic (a diversity qrels); `shapedQrels`: told by its shape. */
let perSubtopic = false;
let shapedQrels = false;

/** Whether the plan has a diversity measure (alpha-nDCG, ERR-IA, ...: subtopic judgments). */
const asksForSubtopics = (p: Plan) => p.measures.some((m) => m.family.diversity);

/**
 * Whether a qrels file is subtopic judgments by its shape (src/input/subtopics.ts): read from a
 * slice, gunzipped if need be, so no stream of the file is left open.
 */
function subtopicShapedFile(file: File): Promise<boolean> {
  return subtopicShaped(async (sink) => {
    if (!(await isGzip(file))) return sink.push(new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()));
    const stream = file.slice(0, SNIFF_BYTES / 4).stream();
    const gunzip = new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>;
    const reader = stream.pipeThrough(gunzip).getReader();
    try {
      for (;;) {
        let r: ReadableStreamReadResult<Uint8Array>;
        try {
          r = await reader.read();
        } catch {
          break; // the slice ends mid-stream: what was decompressed is enough
        }
        if (r.done) break;
        sink.push(r.value);
      }
    } finally {
      void reader.cancel().catch(() => undefined);
    }
  });
}

/**
 * Runs against subtopic judgments (the CLI's --diversity): each run read whole and joined
 * (src/input/subtopics.ts), one block a run (kept: it carries the subtopic judgments, so new
 * settings, of any measures, evaluate it again).
 */
async function diversityRuns(ctx: Context, qrelsFile: File, runFiles: File[]): Promise<string[]> {
  const judgments = await readSubtopicJudgments(await textOf(qrelsFile));
  post({ type: "judgments" });
  const texts: string[] = [];
  for (const file of runFiles) {
    const { joined, runTag } = await joinSubtopicRun(judgments, await inputOf(file), TREC);
    if (joined.notInRun) post({ type: "warning", message: notInRun(file.name, joined.notInRun) });
    const block = { batch: joined.batch, qids: joined.qids };
    keptRows += block.batch.scores.length;
    const result = mergeBlocks([evaluate(ctx, file.name, block)], joined.notJudged, joined.notInRun);
    const counts = { notJudged: joined.notJudged, notInRun: joined.notInRun };
    addUnit(ctx, { name: file.name, runTag, blocks: [block], ...counts, result }, texts, runFiles.length >= 2);
  }
  return texts;
}

async function trec(qrelsFile: File, runFiles: File[], settings: Settings): Promise<void> {
  kind = "trec";
  units = [];
  keptRows = 0;
  compared = null;
  lastTrec = { qrels: qrelsFile, runs: runFiles };
  // Subtopic judgments: asked for by a diversity measure, or a qrels of that shape (without
  // measures: ndeval's, as the command line's).
  const shaped = await subtopicShapedFile(qrelsFile);
  // Settings first: a bad measure name stops before any file is read.
  let ctx = context(settings);
  if (shaped && settings.measures.length === 0) ctx = context({ ...settings, measures: ["ndeval"] });
  shapedQrels = shaped;
  perSubtopic = shaped || asksForSubtopics(ctx.p);
  postRows(ctx);
  if (perSubtopic) {
    if (shaped) post({ type: "warning", message: `${qrelsFile.name} judges documents per subtopic (its second column): read as a diversity qrels` });
    postDownloads(ctx, await diversityRuns(ctx, qrelsFile, runFiles));
    return;
  }
  const judgments = await judgmentsOf(qrelsFile);
  const texts: string[] = [];
  // Each run's column as soon as it is read.
  let bytes = 0;
  for (const f of runFiles) bytes += f.size * ((await isGzip(f)) ? 4 : 1);
  // Blocks of runs too large to keep are never held: held, then dropped at KEEP_ROWS, they would make
  // the tab's memory peak there.
  const keep = bytes / RUN_LINE_BYTES <= keepRows;
  for (const file of runFiles) addUnit(ctx, await readRun(ctx, judgments, file, keep), texts, runFiles.length >= 2);
  postDownloads(ctx, texts);
}

async function letor(letorFile: File, scoresFile: File, queryFile: File | null, settings: Settings): Promise<void> {
  kind = "letor";
  units = [];
  compared = null;
  const ctx = context(settings);
  postRows(ctx);
  const query = queryFile && (await textOf(queryFile));
  const noQid = 'give the query group sizes as the "query groups" file' +
    " (one number of rows per line, as LightGBM's .query files)";
  const block = await readLetor(await textOf(letorFile), await textOf(scoresFile), query, noQid);
  const result = mergeBlocks([evaluate(ctx, scoresFile.name, block)], 0, 0);
  const texts: string[] = [];
  addUnit(ctx, { name: scoresFile.name, runTag: "", blocks: [block], notJudged: 0, notInRun: 0, result }, texts, false);
  postDownloads(ctx, texts);
}

/**
 * An allocation the tab could not get (a typed array, or the kernel's memory past what the browser
 * gives a wasm32 instance) as the page's error, saying how far it got and what to do instead.
 */
function outOfMemory(err: RangeError): string {
  const where = reading ? `${reading.file}: out of memory after ${Math.round(reading.read / 1e6)} MB (${reading.lines.toLocaleString("en")} lines)` : "out of memory while evaluating";
  return `${where}: this tab could not allocate more (${err.message}). The page holds about 40 bytes per line of the qrels, one block of a run whose queries are together (each query's lines in one place), and a whole run otherwise; evaluate files this large with the command line (npx rankeval QRELS RUN), or split them by query.`;
}

self.onmessage = async (e: MessageEvent<Job>) => {
  const job = e.data;
  try {
    if (job.kind === "qrels") {
      await judgmentsOf(job.qrels);
      return;
    }
    if (job.kind === "compare") {
      postComparison(job.compare);
      return;
    }
    if (job.kind === "explain") {
      // Drill-downs (worker-explain.ts): answered apart, so that a failure leaves the table as it is.
      try {
        const file = (name: string) => lastTrec?.runs.find((f) => f.name === name);
        const { p, opts } = current!;
        const state = { kind, p, opts, units, judgments: judgmentsRead, perSubtopic, file, readInto, inputOf };
        post({ type: "explain", id: job.id, explanations: await explainQueries(state, job.qids, job.depth, job.measure) });
      } catch (err) {
        post({ type: "explain-error", id: job.id, message: err instanceof Error ? err.message : String(err) });
      }
      return;
    }
    if (job.kind === "trec") {
      keepRows = job.keepRows ?? KEEP_ROWS;
      await trec(job.qrels, job.runs, job.settings);
    }
    else if (job.kind === "letor") await letor(job.letor, job.scores, job.query, job.settings);
    else await reevaluate(job.settings);
    post({ type: "done", kept: units.every((u) => u.blocks !== null) });
    // After done: the table is there while the resampling runs.
    if ((job.kind === "trec" || job.kind === "settings") && job.compare) postComparison(job.compare);
  } catch (err) {
    const message = err instanceof RangeError ? outOfMemory(err) : err instanceof Error ? err.message : String(err);
    post({ type: "error", message });
  }
};
