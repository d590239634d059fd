// The page's worker: reads each File with file.stream(), chunk by chunk, straight into the library's
// byte-level parsers, evaluates in the WebAssembly kernel and posts the aggregate values back. The
// same pipeline as the command line (src/node/cli.ts), with its plan and reports (src/trec/plan.ts):
// without measures, trec_eval's default measures and conventions for a qrels file and runs, the CLI's
// LETOR defaults for a LETOR file and its predictions. The joined batches are kept, so new settings
// re-evaluate them without reading the files again.
import { RankevalError } from "../src/errors.js";
import { evaluateBatch } from "../src/evaluate.js";
import { GroupParser } from "../src/io/group.js";
import { Interner } from "../src/io/interner.js";
import { LetorParser } from "../src/io/letor.js";
import { QrelsParser } from "../src/io/qrels.js";
import { RunParser } from "../src/io/run.js";
import { ScoresParser } from "../src/io/scores.js";
import type { Batch } from "../src/kernel/batch.js";
import { parseMeasures } from "../src/measures/measure.js";
import { describeOptions } from "../src/options.js";
import { letorBatch } from "../src/letor.js";
import { trecLines } from "../src/trec/names.js";
import { gainTieWarnings, LETOR_DEFAULT_MEASURES, lineKey, options, plan, relstringValues, report, trecExtras, trecText, type NamedResult, type RunResult } from "../src/trec/plan.js";
import { joinParsed } from "../src/trec-join.js";
import { formatValue, type Cell, type Job, type PerQuery, type Report, type Settings } from "./protocol.js";

const post = (r: Report) => (self as unknown as Worker).postMessage(r);

/** The file being read, for an out-of-memory message that says where it happened. */
let reading: { file: string; read: number; lines: number } | null = null;

/**
 * Streams `file` into `sink`, gunzipping it (DecompressionStream) when it starts with gzip's magic
 * bytes; posts the bytes and lines read, at most every 100 ms and at the end.
 */
async function readInto(file: File, sink: { push(chunk: Uint8Array): void; readonly linesRead: number }): Promise<void> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  const gzip = head.length === 2 && head[0] === 0x1f && head[1] === 0x8b;
  const started = performance.now();
  const state = { file: file.name, read: 0, lines: 0 };
  reading = state;
  let last = 0;
  const progress = (read: number) => {
    last = performance.now();
    state.read = read;
    state.lines = sink.linesRead;
    post({ type: "progress", file: file.name, read, size: file.size, lines: sink.linesRead, seconds: (last - started) / 1000 });
  };
  const counted = file.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        state.read += chunk.byteLength;
        if (performance.now() - last > 100) progress(state.read);
        out.enqueue(chunk);
      },
    }),
  );
  const text: ReadableStream<Uint8Array> = gzip ? counted.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>) : counted;
  const reader = text.getReader();
  for (;;) {
    let r: ReadableStreamReadResult<Uint8Array>;
    try {
      r = await reader.read();
    } catch (e) {
      throw new RankevalError("bad-input", `${file.name}: ${gzip ? "not valid gzip" : "cannot read it"} (${(e as Error).message})`);
    }
    if (r.done) break;
    sink.push(r.value);
  }
  progress(file.size);
  reading = null;
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

/** A run read and joined (or a LETOR file grouped), ready to evaluate under any settings. */
interface Unit {
  name: string;
  runTag: string;
  batch: Batch;
  qids: string[];
  notJudged: number;
  notInRun: number;
}

let kind: "trec" | "letor" = "trec";
let units: Unit[] = [];

/** Evaluates every unit read so far under `settings`, as the CLI would with the same -m and options. */
function evaluateAll(settings: Settings, only?: Unit): void {
  const p = plan(settings.measures, kind === "letor" ? LETOR_DEFAULT_MEASURES : null);
  const opts = options(settings.conventions, p.kind === "trec");
  if (!only) {
    const rows = p.kind === "trec" ? trecLines(p.trec).filter((l) => l.summary).map((l) => l.name) : p.measures.map((m) => m.name);
    post({ type: "rows", measures: rows, conventions: describeOptions(opts) });
    if (p.kind === "trec" && p.left.length) post({ type: "warning", message: `not computed yet, left out: ${p.left.join(", ")}` });
  }
  const named: NamedResult[] = [];
  const texts: string[] = [];
  for (const u of only ? [only] : units) {
    const measures = p.measures.length || kind === "letor" ? p.measures : parseMeasures("num_ret");
    let result = evaluateBatch(u.batch, u.qids, measures, opts, u.notJudged, u.notInRun);
    let cells: Record<string, Cell>;
    const perQuery: PerQuery = { qids: result.qids, columns: {} };
    if (p.kind === "trec") {
      for (const w of gainTieWarnings(p, u.batch, u.name)) post({ type: "warning", message: w });
      result = trecExtras(p, u.batch, result, settings.conventions);
      const r: RunResult = { file: u.name, runTag: kind === "letor" ? "letor" : u.runTag, result, strings: relstringValues(p, u.batch, opts) };
      const summary = trecText(p, r, { perQuery: false });
      texts.push(summary);
      cells = summaryCells(summary);
      // trec_eval -q's numbers, unformatted (the report prints the same values per query).
      for (const line of trecLines(p.trec)) {
        const key = lineKey(line);
        if (line.perQuery && key !== null && (line.print === "float" || line.print === "long")) {
          perQuery.columns[line.name] = { values: result.values[key], print: line.print };
        }
      }
    } else {
      cells = {};
      for (const m of p.measures) {
        const v = result.mean[m.name];
        cells[m.name] = { text: formatValue(v, "table"), value: Number.isNaN(v) ? null : v };
        perQuery.columns[m.name] = { values: result.values[m.name], print: "table" };
      }
    }
    named.push({ name: u.name, runTag: kind === "letor" ? "" : u.runTag, result });
    post({ type: "run", name: u.name, cells, perQuery });
  }
  if (!only && named.length) {
    post({ type: "downloads", json: report("json", named, p, false), csv: report("csv", named, p, false), trec: p.kind === "trec" ? texts.join("") : null });
  }
}

async function trec(qrelsFile: File, runFiles: File[], settings: Settings): Promise<void> {
  kind = "trec";
  units = [];
  // Settings first: a bad measure name stops before any file is read.
  evaluateAll(settings);
  const qids = new Interner();
  const qrelsParser = new QrelsParser({ file: qrelsFile.name, qids, docids: "per-row", expectedBytes: qrelsFile.size });
  await readInto(qrelsFile, qrelsParser);
  const qrels = qrelsParser.finish();
  for (const file of runFiles) {
    const parser = new RunParser({ file: file.name, qids, docids: "per-row", expectedBytes: file.size });
    await readInto(file, parser);
    const joined = joinParsed(qrels, parser.finish());
    if (joined.notInRun) {
      const some = joined.notInRunQids.slice(0, 5).join(", ");
      post({ type: "warning", message: `${file.name}: ${joined.notInRun} judged queries are not in the run and are left out (${some}${joined.notInRun > 5 ? ", ..." : ""})` });
    }
    const u: Unit = { name: file.name, runTag: joined.runTag, batch: joined.batch, qids: joined.qids, notJudged: joined.notJudged, notInRun: joined.notInRun };
    units.push(u);
    // Each run's column as soon as it is read.
    evaluateAll(settings, u);
  }
  evaluateAll(settings);
}

async function letor(letorFile: File, scoresFile: File, queryFile: File | null, settings: Settings): Promise<void> {
  kind = "letor";
  units = [];
  evaluateAll(settings);
  const qidNames = new Interner();
  const docidNames = new Interner();
  const letorParser = new LetorParser({ file: letorFile.name, qids: qidNames, docids: docidNames });
  await readInto(letorFile, letorParser);
  const data = letorParser.finish();
  const scoresParser = new ScoresParser({ file: scoresFile.name });
  await readInto(scoresFile, scoresParser);
  let groups: { sizes: Int32Array; file: string } | undefined;
  if (!data.qid) {
    if (!queryFile) throw new RankevalError("bad-input", `${letorFile.name} has no qid: fields; give the query group sizes as the "query groups" file (one number of rows per line, as LightGBM's .query files)`);
    const groupParser = new GroupParser({ file: queryFile.name });
    await readInto(queryFile, groupParser);
    groups = { sizes: groupParser.finish(), file: queryFile.name };
  }
  const { batch, qids } = letorBatch({ data, file: letorFile.name, qidNames, docidNames, score: scoresParser.finish(), scoresFile: scoresFile.name, groups });
  units = [{ name: scoresFile.name, runTag: "", batch, qids, notJudged: 0, notInRun: 0 }];
  evaluateAll(settings);
}

/**
 * An allocation the tab could not get (a typed array, or the kernel's memory past what the browser
 * gives a wasm32 instance) as the page's error, saying how far it got and what to do instead.
 */
function outOfMemory(err: RangeError): string {
  const where = reading ? `${reading.file}: out of memory after ${Math.round(reading.read / 1e6)} MB (${reading.lines.toLocaleString("en")} lines)` : "out of memory while evaluating";
  return `${where}: this tab could not allocate more (${err.message}). The page keeps about 30 bytes per run line; evaluate files this large with the command line (npx rankeval QRELS RUN), or split the run by query.`;
}

self.onmessage = async (e: MessageEvent<Job>) => {
  const job = e.data;
  try {
    if (job.kind === "trec") await trec(job.qrels, job.runs, job.settings);
    else if (job.kind === "letor") await letor(job.letor, job.scores, job.query, job.settings);
    else evaluateAll(job.settings);
    post({ type: "done" });
  } catch (err) {
    const message = err instanceof RangeError ? outOfMemory(err) : err instanceof Error ? err.message : String(err);
    post({ type: "error", message });
  }
};
