// The page's worker: reads each File with file.stream(), chunk by chunk, straight into the library's
// byte-level parsers, evaluates in the WebAssembly kernel and posts the aggregate values back. The
// same pipeline as the command line (src/node/cli.ts), with its plan and reports (src/trec/plan.ts):
// without measures, trec_eval's default measures and conventions for a qrels file and runs, the CLI's
// LETOR defaults for a LETOR file and its predictions. The joined batches are kept, so new settings
// re-evaluate them without reading the files again.
import { RankevalError } from "../src/errors.js";
import { evaluateBatch } from "../src/evaluate.js";
import { groupRows } from "../src/group.js";
import { Interner } from "../src/io/interner.js";
import { LetorParser } from "../src/io/letor.js";
import { QrelsParser } from "../src/io/qrels.js";
import { RunParser } from "../src/io/run.js";
import { ScoresParser } from "../src/io/scores.js";
import type { Batch } from "../src/kernel/batch.js";
import { parseMeasures } from "../src/measures/measure.js";
import { describeOptions } from "../src/options.js";
import { formatFixed4 } from "../src/trec/format.js";
import { trecLines } from "../src/trec/names.js";
import { gainTieWarnings, options, plan, relstringValues, report, trecExtras, trecText, type NamedResult, type RunResult } from "../src/trec/plan.js";
import { joinParsed } from "../src/trec-join.js";
import type { Cell, Job, PerQuery, Report, Settings } from "./protocol.js";

/** The CLI's measures for --letor without -m. */
const LETOR_DEFAULT = ["ndcg@1,3,5,10", "map", "mrr"];

const post = (r: Report) => (self as unknown as Worker).postMessage(r);

/**
 * Streams `file` into `sink`, gunzipping it (DecompressionStream) when it starts with gzip's magic
 * bytes; posts the bytes read, at most every 100 ms and at the end.
 */
async function readInto(file: File, sink: { push(chunk: Uint8Array): void }): Promise<void> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  const gzip = head.length === 2 && head[0] === 0x1f && head[1] === 0x8b;
  let read = 0;
  let last = 0;
  const counted = file.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        read += chunk.byteLength;
        const now = performance.now();
        if (now - last > 100) {
          last = now;
          post({ type: "progress", file: file.name, read, size: file.size });
        }
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
  post({ type: "progress", file: file.name, read: file.size, size: file.size });
}

/** trec_eval's lines ("name\tqid\tvalue") as cells: by printed name, then by qid ("all": the summary). */
function trecCells(text: string): Map<string, Map<string, Cell>> {
  const out = new Map<string, Map<string, Cell>>();
  for (const line of text.split("\n")) {
    if (!line) continue;
    const [rawName, qid, value] = line.split("\t");
    const name = rawName.trim();
    const n = Number(value);
    let m = out.get(name);
    if (!m) out.set(name, (m = new Map()));
    m.set(qid, { text: value, value: value !== "" && Number.isFinite(n) ? n : null });
  }
  return out;
}

/** A value as the CLI's table shows it (src/report.ts formatTable). */
function tableCell(v: number): Cell {
  const text = Number.isNaN(v) ? "NaN" : Number.isInteger(v) ? String(v) : formatFixed4(v).trim();
  return { text, value: Number.isNaN(v) ? null : v };
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
  const p = plan(settings.measures, kind === "letor" ? LETOR_DEFAULT : null);
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
    let cells: Record<string, Cell> = {};
    const perQuery: PerQuery = { qids: result.qids, cells: {} };
    if (p.kind === "trec") {
      for (const w of gainTieWarnings(p, u.batch, u.name)) post({ type: "warning", message: w });
      result = trecExtras(p, u.batch, result, settings.conventions);
      const r: RunResult = { file: u.name, runTag: kind === "letor" ? "letor" : u.runTag, result, strings: relstringValues(p, u.batch, opts) };
      const summary = trecText(p, r, { perQuery: false });
      texts.push(summary);
      for (const [name, byQid] of trecCells(summary)) cells[name] = byQid.get("all")!;
      for (const [name, byQid] of trecCells(trecText(p, r, { perQuery: true, noSummary: true }))) {
        perQuery.cells[name] = result.qids.map((q) => byQid.get(q) ?? { text: "", value: null });
      }
    } else {
      cells = Object.fromEntries(p.measures.map((m) => [m.name, tableCell(result.mean[m.name])]));
      for (const m of p.measures) perQuery.cells[m.name] = Array.from(result.values[m.name], tableCell);
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

async function letor(letorFile: File, scoresFile: File, settings: Settings): Promise<void> {
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
  const score = scoresParser.finish();
  if (score.length !== data.length) {
    throw new RankevalError("bad-input", `${scoresFile.name} has ${score.length} scores but ${letorFile.name} has ${data.length} rows: one score per row, in order`);
  }
  if (!data.qid) throw new RankevalError("bad-input", `${letorFile.name} has no qid: fields (query group files are not supported in the page yet)`);
  const qid = Array.from(data.qid, (q) => qidNames.stringOf(q));
  const docid = data.docid ? Array.from(data.docid, (d) => docidNames.stringOf(d)) : undefined;
  const { batch, qids } = groupRows({ qid, score, rel: data.rel, docid });
  units = [{ name: scoresFile.name, runTag: "", batch, qids: qids.map(String), notJudged: 0, notInRun: 0 }];
  evaluateAll(settings);
}

self.onmessage = async (e: MessageEvent<Job>) => {
  const job = e.data;
  try {
    if (job.kind === "trec") await trec(job.qrels, job.runs, job.settings);
    else if (job.kind === "letor") await letor(job.letor, job.scores, job.settings);
    else evaluateAll(job.settings);
    post({ type: "done" });
  } catch (err) {
    post({ type: "error", message: err instanceof Error ? err.message : String(err) });
  }
};
