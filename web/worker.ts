// The page's worker: reads each File with file.stream(), chunk by chunk, straight into the library's
// byte-level parsers, evaluates in the WebAssembly kernel and posts the aggregate values back. The
// same pipeline as the command line (src/node/cli.ts): trec_eval's default measures and conventions
// for a qrels file and runs; the CLI's LETOR defaults for a LETOR file and its predictions.
import { RankevalError } from "../src/errors.js";
import { evaluateBatch } from "../src/evaluate.js";
import { groupRows } from "../src/group.js";
import { Interner } from "../src/io/interner.js";
import { LetorParser } from "../src/io/letor.js";
import { QrelsParser } from "../src/io/qrels.js";
import { RunParser } from "../src/io/run.js";
import { ScoresParser } from "../src/io/scores.js";
import { parseMeasures, type Measure } from "../src/measures/measure.js";
import { describeOptions, resolveOptions } from "../src/options.js";
import { formatFixed4 } from "../src/trec/format.js";
import { isComputed, parseTrecMeasures, trecLines } from "../src/trec/names.js";
import { formatTrecReport } from "../src/trec/report.js";
import { joinParsed } from "../src/trec-join.js";
import type { Cell, Job, Report } from "./protocol.js";

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

/** trec_eval's summary lines ("name\tall\tvalue") as cells, keyed by the printed name. */
function summaryCells(text: string): Record<string, Cell> {
  const cells: Record<string, Cell> = {};
  for (const line of text.split("\n")) {
    if (!line) continue;
    const [name, , value] = line.split("\t");
    const n = Number(value);
    cells[name.trim()] = { text: value, value: value !== "" && Number.isFinite(n) ? n : null };
  }
  return cells;
}

async function trec(qrelsFile: File, runFiles: File[]): Promise<void> {
  // trec_eval's default measures (official), less those rankeval does not compute yet; its conventions.
  const measures = parseTrecMeasures([]).filter((m) => trecLines([m]).every(isComputed));
  const lines = trecLines(measures);
  const kernels = new Map<string, Measure>();
  for (const l of lines) if (l.kernel) kernels.set(l.kernel.measure.name, l.kernel.measure);
  const opts = resolveOptions({ gain: "linear" });
  post({ type: "rows", measures: lines.filter((l) => l.summary).map((l) => l.name), conventions: describeOptions(opts) });
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
    const result = evaluateBatch(joined.batch, joined.qids, [...kernels.values()], opts, joined.notJudged, joined.notInRun);
    const values: Record<string, Float64Array> = {};
    for (const l of lines) if (l.kernel) values[l.name] = result.values[l.kernel.measure.name];
    const text = formatTrecReport({ runid: joined.runTag, measures, perQuery: { qids: result.qids, values }, printPerQuery: false });
    post({ type: "run", name: file.name, cells: summaryCells(text) });
  }
}

async function letor(letorFile: File, scoresFile: File): Promise<void> {
  const measures = parseMeasures(LETOR_DEFAULT);
  const opts = resolveOptions({});
  post({ type: "rows", measures: measures.map((m) => m.name), conventions: describeOptions(opts) });
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
  const result = evaluateBatch(batch, qids.map(String), measures, opts, 0, 0);
  const cells: Record<string, Cell> = {};
  for (const m of measures) {
    const v = result.mean[m.name];
    // As the CLI's table shows it (src/report.ts formatTable).
    const text = Number.isNaN(v) ? "NaN" : Number.isInteger(v) ? String(v) : formatFixed4(v).trim();
    cells[m.name] = { text, value: Number.isNaN(v) ? null : v };
  }
  post({ type: "run", name: scoresFile.name, cells });
}

self.onmessage = async (e: MessageEvent<Job>) => {
  const job = e.data;
  try {
    if (job.kind === "trec") await trec(job.qrels, job.runs);
    else await letor(job.letor, job.scores);
    post({ type: "done" });
  } catch (err) {
    post({ type: "error", message: err instanceof Error ? err.message : String(err) });
  }
};
