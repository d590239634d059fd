// npm run bench:join: joinParsed (src/pipeline/join-rows.ts) alone, as the page and the command line call it on
// a run read in blocks: the web benchmark's generated set (qrels 491 MB, run 1064 MB: 23M judgments,
// 30M run rows, 300,000 queries) is parsed once, the run in blocks of 1 << 20 rows as src/pipeline/blocks.ts
// takes them, all kept in memory; then only the joins of every block are timed, ROUNDS times, and the
// median printed.
//
//   node bench/join.bench.mjs [ROUNDS] [OTHER.mjs ...]       (default 7 rounds)
//
// OTHER: modules that export a joinParsed to compare with this build's (an older dist/pipeline/join-rows.js
// copied out, its relative imports made absolute). Their results must equal this build's (checked
// first); then each round times every version, in alternating order. On a shared 2-core machine only
// versions compared in the same process, alternating, say which is faster.
//
// Environment: RANKEVAL_WEB_BENCH_DIR, the generated set (default: os.tmpdir()/rankeval-web-bench-300000-100-2,
// which `npm run bench:web` generates).
//
// Measured on this project's machine (AMD EPYC, 2 cores; Node v20.20.2), 2026-11-21, 26 blocks, against
// a copy of the join before the join-speed branch, medians of 9 rounds, three runs: 1181-1213 ms before,
// 739-756 ms after. The same joins in Chromium 156 (a page doing the same, not in the repository): 1773-1813
// ms before, 1190-1210 ms after; there about 400 ms of it are the first touches of the fresh pages of the
// batch's arrays (a page fault each), which Node's allocator mostly spares.
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Interner, QrelsParser, RunParser } from "rankeval/io";
import { groupJudgments, joinParsed } from "../dist/pipeline/join-rows.js";

const rounds = Number(process.argv[2] ?? 7);
const data = process.env.RANKEVAL_WEB_BENCH_DIR ?? join(os.tmpdir(), "rankeval-web-bench-300000-100-2");
for (const f of ["qrels.txt", "run.txt"]) {
  if (!existsSync(join(data, f))) {
    console.error(
      `bench/join.bench.mjs: ${join(data, f)} is missing: npm run bench:web generates it (or set RANKEVAL_WEB_BENCH_DIR)`,
    );
    process.exit(1);
  }
}
const versions = [{ name: "this build", joinParsed, times: [] }];
for (const file of process.argv.slice(3))
  versions.push({ name: file, joinParsed: (await import(pathToFileURL(file).href)).joinParsed, times: [] });

/** Calls onChunk with the file's bytes, 8 MB at a time. */
function readChunks(file, onChunk) {
  const fd = openSync(file, "r");
  const buf = new Uint8Array(8 << 20);
  for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0; ) onChunk(buf.subarray(0, n));
  closeSync(fd);
}

const start = performance.now();
const qids = new Interner();
const qrelsFile = join(data, "qrels.txt");
const fd = openSync(qrelsFile, "r");
const qrelsBytes = fstatSync(fd).size;
closeSync(fd);
const qp = new QrelsParser({ file: "qrels.txt", qids, docids: "per-row", expectedBytes: qrelsBytes });
readChunks(qrelsFile, (chunk) => qp.push(chunk));
const judgments = groupJudgments(qp.finish());
const rp = new RunParser({ file: "run.txt", qids, docids: "per-row" });
const blocks = [];
readChunks(join(data, "run.txt"), (chunk) => {
  rp.push(chunk);
  const rows = rp.takeQueries(1 << 20);
  if (rows) blocks.push(rows);
});
blocks.push(rp.finish());
const runRows = blocks.reduce((n, b) => n + b.length, 0);
console.log(
  `parsed in ${((performance.now() - start) / 1000).toFixed(1)} s: ${judgments.qrels.length} judgments, ${runRows} run rows in ${blocks.length} blocks`,
);

/** A digest of everything a join returns. */
function digest(joined) {
  const b = joined.batch;
  let h = 0;
  for (const a of [b.offsets, b.judgedOffsets, b.scores, b.labels, b.judged, b.docids]) {
    const words = new Int32Array(a.buffer, a.byteOffset, a.byteLength >> 2);
    for (let i = 0; i < words.length; i++) h = (Math.imul(h, 31) + words[i]) | 0;
  }
  return JSON.stringify([h, b.numQueries, joined.qids, joined.notJudged, joined.notInRun, joined.runTag]);
}
if (versions.length > 1) {
  const expected = blocks.map((b) => digest(joinParsed(judgments, b, { block: true })));
  for (const v of versions.slice(1)) {
    blocks.forEach((b, i) => {
      if (digest(v.joinParsed(judgments, b, { block: true })) !== expected[i])
        throw new Error(`${v.name}: block ${i} is joined otherwise`);
    });
  }
  console.log("same results");
}

for (let r = 0; r < rounds; r++) {
  for (const v of r % 2 === 0 ? versions : [...versions].reverse()) {
    const t = performance.now();
    for (const b of blocks) v.joinParsed(judgments, b, { block: true });
    v.times.push(performance.now() - t);
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const v of versions) {
  console.log(`${v.name}: median ${median(v.times).toFixed(0)} ms (${v.times.map((t) => t.toFixed(0)).join(" ")})`);
}
