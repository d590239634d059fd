// node bench/jsonl.bench.mjs [ROWS]   (default 100000; seed 7; run `npm run build` first)
// JSON lines (src/io/jsonl.ts) against the TREC text reader (src/io/qrels.ts) on the same judgments,
// parsed from memory in 64 KiB chunks as a file is read: MB/s and rows/s, the best of 10 rounds after a
// warm-up. Three shapes of the same ROWS judgments: TREC qrels lines; slim JSON lines (ids, judgment,
// result_status); and UMBRELA-like lines that also carry the query, passage, prompt and prediction
// texts (about 1.4 KB a row, escaped quotes and newlines), as an LLM judge writes them. The machine, its
// load and the runtime are printed with the figures: other work on the machine slows them down.
//
// Measured (2-core AMD EPYC, Node 20.20.2, load average ~10 from other work on the machine: figures
// are lower bounds), 100000 rows:
//   TREC qrels                  4.3 MB   20.2 ms   212 MB/s  4.94 M rows/s
//   JSON lines, slim            9.0 MB  100.2 ms    90 MB/s  1.00 M rows/s
//   JSON lines, UMBRELA-like  177.0 MB  529.4 ms   334 MB/s  0.19 M rows/s
// A row costs JSON.parse's objects (most of the time: its strings, a judge's prompt above all), so JSON
// lines read fewer rows a second than TREC text and more bytes a second where rows are long.
// Memory: the command line reads a 184 MB UMBRELA-like file (100000 rows of 1.8 KB) under a 48 MB heap
// (`node --max-old-space-size=48 dist/node/bin.js --qrels-stats FILE`: 2.7 s, 141 MB resident, the
// kernel's memory included), a line at a time; the same judgments as TREC text, 78 MB resident.
import os from "node:os";
import { Interner, JsonlParser, QrelsParser } from "../dist/io/index.js";
import { random } from "./data.mjs";

const rows = Number(process.argv[2] ?? 100_000);
const CHUNK = 1 << 16;

const rnd = random(7);
const judged = [];
for (let i = 0; i < rows; i++) {
  const qid = String(1000000 + Math.floor(i / 100));
  const docid = `msmarco_passage_${String(Math.floor(rnd() * 1e8)).padStart(8, "0")}_${i}`;
  judged.push({ qid, docid, judgment: Math.floor(rnd() * 4) });
}
const words = "the a flea life cycle concrete floor poet robert gray cost interior passage query answer".split(" ");
const text = (n) => Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(" ");

const shapes = {
  "TREC qrels": judged.map((j) => `${j.qid} 0 ${j.docid} ${j.judgment}\n`).join(""),
  "JSON lines, slim": judged
    .map((j) => `${JSON.stringify({ qid: j.qid, docid: j.docid, judgment: j.judgment, result_status: 1 })}\n`)
    .join(""),
  "JSON lines, UMBRELA-like": judged
    .map((j) => {
      const query = text(6);
      const passage = text(60);
      const prompt = `Given a query and a passage, score it 0 to 3:\n"0" = nothing to do with the query\nQuery: ${query}\nPassage: ${passage}\n${text(120)}`;
      const row = { model: "gpt-4o", qid: j.qid, docid: j.docid, query, passage, prompt };
      return `${JSON.stringify({ ...row, prediction: `##final score: ${j.judgment}`, judgment: j.judgment, result_status: 1 })}\n`;
    })
    .join(""),
};

function parse(name, bytes) {
  const qids = new Interner();
  const p =
    name === "TREC qrels"
      ? new QrelsParser({ file: name, qids, docids: "per-row", expectedBytes: bytes.length })
      : new JsonlParser({ file: name, qids, kind: "qrels", expectedBytes: bytes.length });
  for (let at = 0; at < bytes.length; at += CHUNK) p.push(bytes.subarray(at, at + CHUNK));
  return p.finish().length;
}

console.log(
  `${os.cpus()[0].model}, ${os.cpus().length} cores, Node ${process.version}; load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}; ${rows} rows, chunks of ${CHUNK} bytes`,
);
for (const [name, s] of Object.entries(shapes)) {
  const bytes = new TextEncoder().encode(s);
  if (parse(name, bytes) !== rows) throw new Error(`${name}: not ${rows} rows`);
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 10; round++) {
    const t = performance.now();
    parse(name, bytes);
    best = Math.min(best, performance.now() - t);
  }
  const mb = bytes.length / 1e6;
  console.log(
    `${name.padEnd(26)} ${mb.toFixed(1).padStart(6)} MB  ${best.toFixed(1).padStart(7)} ms  ${(mb / (best / 1000)).toFixed(0).padStart(5)} MB/s  ${(((rows / best) * 1000) / 1e6).toFixed(2)} M rows/s`,
  );
}
