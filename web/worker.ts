// The page's worker: reads each File with file.stream(), chunk by chunk, straight into the library's
// byte-level parsers (a run through a second worker, run-reader.ts, which parses it into blocks while
// this one joins and evaluates), evaluates in the WebAssembly kernel and posts the values back. The
// same pipeline as the command line (src/node/cli.ts), with its plan and reports (src/trec/plan.ts):
// without measures, trec_eval's default measures and conventions for a qrels file and runs, the CLI's
// LETOR defaults for a LETOR file and its predictions. A qrels file may come alone first: its
// judgments are kept for the runs that follow. The joined batches are kept up to KEEP_ROWS rows, so
// new settings re-evaluate them without reading the files again.
import { compare, type NamedResult as ComparedRun } from "../src/compare/compare.js";
import { formatComparison } from "../src/compare/comparison-formats.js";
import { comparableResult, comparableRows } from "../src/compare-runs.js";
import { joinDiversity, SubtopicShape } from "../src/diversity.js";
import { RankevalError } from "../src/errors.js";
import { GroupQrelsParser } from "../src/io/group-qrels.js";
import { docidString } from "../src/io/rows.js";
import { GroupParser } from "../src/io/group.js";
import { Interner } from "../src/io/interner.js";
import { LetorParser } from "../src/io/letor.js";
import { QrelsParser } from "../src/io/qrels.js";
import { RunParser, type RunRows } from "../src/io/run.js";
import { ScoresParser } from "../src/io/scores.js";
import type { Batch } from "../src/kernel/batch.js";
import type { ExplicitOptions } from "../src/options.js";
import { labelledTexts } from "../src/report.js";
import { letorRowsBatch } from "../src/pipeline/letor.js";
import { trecLines } from "../src/trec/names.js";
import { evaluateBlock, type Evaluated } from "../src/pipeline/evaluate-block.js";
import { mergeBlocks } from "../src/pipeline/merge.js";
import { LETOR_DEFAULT_MEASURES, lineKey, options, plan, planConventions, report, trecText, type NamedResult, type Plan } from "../src/trec/plan.js";
import { groupJudgments, type GroupedJudgments } from "../src/pipeline/join-rows.js";
import { BLOCK_ROWS, checkJudgments, evaluateRunFile, parsedBlocks, type RunSource } from "../src/pipeline/blocks.js";
import { readerBlocks, type ReaderReport } from "../src/pipeline/reader.js";
import { isGzip, readInto as readFile, type Sink } from "./read.js";
import { asRowError, columnarBlocks, columnarFormat, columnarRows } from "./columnar.js";
import type { ColumnarRows } from "../src/io/columnar.js";
import { formatValue, type Cell, type CompareSettings, type Interval, type Job, type PerQuery, type Report, type Settings } from "./protocol.js";
import { explainQueries } from "./worker-explain.js";

const post = (r: Report, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(r, transfer);

/** The file being read, for an out-of-memory message that says where it happened. */
let reading: { file: string; read: number; lines: number } | null = null;

/** Streams `file` into `sink` (read.ts), posting the bytes and lines read as it goes. */
async function readInto(file: File, sink: Sink): Promise<void> {
  const state = { file: file.name, read: 0, lines: 0 };
  reading = state;
  await readFile(file, sink, (read, lines, seconds) => {
    state.read = read;
    state.lines = lines;
    post({ type: "progress", file: file.name, read, size: file.size, lines, seconds });
  });
  reading = null;
}

/**
 * RunSource.blocks for a run parsed in a second worker (run-reader.ts) while this one joins and
 * evaluates; the progress it reports is posted as this worker's own.
 */
function readerBlocksOf(file: File): NonNullable<RunSource["blocks"]> {
  const state = { file: file.name, read: 0, lines: 0 };
  return readerBlocks(file, file.name, BLOCK_ROWS, () => {
    // `reading` stays set on failure, for outOfMemory's message.
    reading = state;
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
  }, (read, lines, seconds) => {
    state.read = read;
    state.lines = lines;
    if (read >= file.size) reading = null;
    post({ type: "progress", file: file.name, read, size: file.size, lines, seconds });
  });
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
  // Parquet or Arrow (columnar.ts): read in this worker, block by block.
  const format = await columnarFormat(file);
  let columnarWhole: ColumnarRows<"run"> | null = null;
  const r = await evaluateRunFile(judgments, {
    file: file.name,
    // A second worker parses where workers can start workers (every current browser); this one otherwise.
    // Blocks' buffers are not given back to the second worker here (RunSource.recycle's ReaderJob
    // buffer, as the command line does): with them, the second worker's reads stalled for good in
    // Chromium 156 about one page load in five, early in the run (a BYOB read never settling, as with
    // two files read at once: see read.ts); without, none in many. Fresh blocks cost about 0.2 s a GB.
    blocks: format ? columnarBlocks(file, format, BLOCK_ROWS, progressOf(file)) : typeof Worker === "function" ? readerBlocksOf(file) : parsedBlocks(file.name, (sink) => readInto(file, sink)),
    whole: async () => {
      if (format) {
        const read = await columnarRows(file, format, "run", judgments.qrels.qidNames, progressOf(file));
        columnarWhole = read.reader;
        return read.rows;
      }
      const parser = new RunParser({ file: file.name, qids: judgments.qrels.qidNames, docids: "per-row", expectedBytes: file.size });
      await readInto(file, parser);
      return parser.finish();
    },
    // Blocks not kept are dropped once evaluated: each join may write over the one before.
    recycle: !keep,
    restart: () => {
      post({ type: "warning", message: `${file.name}: its queries' lines are not together; read whole (more memory than a grouped run)` });
      keptRows -= rows;
      rows = 0;
      if (blocks) blocks = [];
    },
  }, (joined) => {
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
  }).catch((e: unknown) => {
    // A row of a Parquet or Arrow run, or of such judgments (a document twice in a query): the row of its file.
    const judged = columnarJudgments.get(judgments);
    throw judged ? asRowError(columnarWhole ? asRowError(e, file.name, columnarWhole) : e, judgments.qrels.file, judged) : columnarWhole ? asRowError(e, file.name, columnarWhole) : e;
  });
  warnNotInRun(file.name, r.notInRunQids);
  const notJudged = r.evaluated.result.queries.skipped.notJudged;
  return { name: file.name, runTag: r.runTag, blocks, notJudged, notInRun: r.notInRunQids.length, result: r.evaluated };
}

function warnNotInRun(file: string, qids: string[]): void {
  if (!qids.length) return;
  const some = qids.slice(0, 5).join(", ");
  post({ type: "warning", message: `${file}: ${qids.length} judged queries are not in the run and are left out (${some}${qids.length > 5 ? ", ..." : ""})` });
}

/** The rows of judgments read from Parquet or Arrow files, for errors about their rows. */
const columnarJudgments = new WeakMap<GroupedJudgments, ColumnarRows<"qrels">>();

/** Posts a columnar file's progress as a text file's: bytes read, and rows for lines. */
function progressOf(file: File) {
  return (read: number, lines: number, seconds: number) => post({ type: "progress", file: file.name, read, size: file.size, lines, seconds });
}

/** The judgments, grouped by query; the parser (and its query column) is garbage once this returns. */
async function readJudgments(file: File): Promise<GroupedJudgments> {
  const format = await columnarFormat(file);
  if (format) {
    // Parquet or Arrow (columnar.ts).
    const { rows, reader } = await columnarRows(file, format, "qrels", new Interner(), progressOf(file));
    let judgments: GroupedJudgments;
    try {
      judgments = groupJudgments(rows);
    } catch (e) {
      throw asRowError(e, file.name, reader);
    }
    checkJudgments(judgments);
    columnarJudgments.set(judgments, reader);
    return judgments;
  }
  const parser = new QrelsParser({ file: file.name, qids: new Interner(), docids: "per-row", expectedBytes: file.size });
  await readInto(file, parser);
  const judgments = groupJudgments(parser.finish());
  // An empty qrels file is said at once, not when the first run evaluates nothing against it.
  checkJudgments(judgments);
  return judgments;
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

/** How much of a qrels file is read to tell a subtopic qrels by its shape (the command line's too). */
const SNIFF_BYTES = 1 << 20;

/**
 * Whether a qrels file judges a document of a query under two subtopics within its first MiB
 * (src/diversity.ts's SubtopicShape): read from a slice, gunzipped if need be, so no stream of the
 * file is left open.
 */
async function subtopicShaped(file: File): Promise<boolean> {
  const shape = new SubtopicShape();
  let text: string;
  if (await isGzip(file)) {
    const reader = file.slice(0, SNIFF_BYTES / 4).stream().pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>).getReader();
    const decoder = new TextDecoder();
    text = "";
    try {
      for (;;) {
        const r = await reader.read();
        if (r.done || text.length > SNIFF_BYTES) break;
        text += decoder.decode(r.value, { stream: true });
      }
    } catch {
      // the slice ends mid-stream: what was decompressed is enough
    }
    void reader.cancel().catch(() => undefined);
  } else text = await file.slice(0, SNIFF_BYTES).text();
  const lines = text.split("\n");
  if (file.size > SNIFF_BYTES || lines.length > 1) lines.pop(); // the last line may be cut
  return lines.some((l) => shape.line(l));
}

/**
 * Runs against subtopic judgments (src/diversity.ts: the CLI's --diversity): the qrels read per
 * subtopic, each run read whole and joined, one block a run (kept: it carries the subtopic judgments,
 * so new settings, of any measures, evaluate it again).
 */
async function diversityRuns(ctx: Context, qrelsFile: File, runFiles: File[]): Promise<string[]> {
  const parser = new GroupQrelsParser({ file: qrelsFile.name, groupName: "subtopic", valueName: "judgment" });
  await readInto(qrelsFile, parser);
  const q = parser.finish();
  if (q.length === 0) throw new RankevalError("bad-input", `${qrelsFile.name}: no judgments in it (qid subtopic docno judgment)`);
  post({ type: "judgments" });
  const qrels = { qid: q.qid, subtopic: q.group, docid: q.docno, rel: q.value };
  const texts: string[] = [];
  for (const file of runFiles) {
    const runParser = new RunParser({ file: file.name, qids: new Interner(), docids: "per-row", expectedBytes: file.size });
    await readInto(file, runParser);
    const run = runParser.finish() as RunRows;
    if (run.length === 0) throw new RankevalError("bad-input", `${file.name}: the run has no rankings`);
    const columns = {
      qid: Array.from(run.qid, (id) => run.qidNames.stringOf(id)),
      docid: Array.from({ length: run.length }, (_, i) => docidString(run.docids, i)),
      score: run.score,
    };
    const joined = joinDiversity(qrels, columns);
    if (joined.qids.length === 0) throw new RankevalError("bad-input", `the run ${file.name} and the judgments have no query in common`);
    if (joined.notInRun) post({ type: "warning", message: `${file.name}: ${joined.notInRun} judged queries are not in the run and are left out` });
    const block = { batch: joined.batch, qids: joined.qids };
    keptRows += block.batch.scores.length;
    const result = mergeBlocks([evaluate(ctx, file.name, block)], joined.notJudged, joined.notInRun);
    addUnit(ctx, { name: file.name, runTag: run.runTag, blocks: [block], notJudged: joined.notJudged, notInRun: joined.notInRun, result }, texts, runFiles.length >= 2);
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
  const shaped = await subtopicShaped(qrelsFile);
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
  const qidNames = new Interner();
  // Document ids kept per row (no table of every id), read by the kernel's fast path.
  const letorParser = new LetorParser({ file: letorFile.name, qids: qidNames, docids: "per-row", expectedBytes: (await isGzip(letorFile)) ? 0 : letorFile.size });
  await readInto(letorFile, letorParser);
  const data = letorParser.finish();
  const scoresParser = new ScoresParser({ file: scoresFile.name, expectedBytes: (await isGzip(scoresFile)) ? 0 : scoresFile.size });
  await readInto(scoresFile, scoresParser);
  let groups: { sizes: Int32Array; file: string } | undefined;
  // No rows at all: letorRowsBatch says so (as the CLI), before asking for groups.
  if (!data.spans && data.length > 0) {
    if (!queryFile) throw new RankevalError("bad-input", `${letorFile.name} has no qid: fields; give the query group sizes as the "query groups" file (one number of rows per line, as LightGBM's .query files)`);
    const groupParser = new GroupParser({ file: queryFile.name });
    await readInto(queryFile, groupParser);
    groups = { sizes: groupParser.finish(), file: queryFile.name };
  }
  const block = letorRowsBatch({ data, file: letorFile.name, score: scoresParser.finish(), scoresFile: scoresFile.name, groups });
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
        const state = { kind, p: current!.p, opts: current!.opts, units, judgments: judgmentsRead, perSubtopic, file: (name: string) => lastTrec?.runs.find((f) => f.name === name), readInto };
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
