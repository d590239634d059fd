// node bench/prepare-run.bench.mjs [ROUNDS]: the run preparations (src/pipeline/prepare-run.ts) on a seeded
// passage run in memory, 10,000 queries of 200 passages (100 documents of two each, ids as MS MARCO v2's
// segmented ones, msmarco_doc_00_N#P): prepareRun alone (rollup max, rollup sum, drop-self, both), then
// joinParsed without and with `--rollup '#'`, medians of ROUNDS (default 5). Uses dist/ (npm run build).
//
// Measured on this project's machine (AMD EPYC, 2 cores; Node v20.20.2), 2026-11-29, with five other
// engineers' builds and tests running (load average 8 to 12), so only ratios within one run mean much.
// 2,000,000 rows, load 7.8-8.0: prepareRun rollup max 1309 ms, sum 1342, drop-self 984, both 1112;
// joinParsed 82, with the rollup 1428. Half of prepareRun's time is the collector (its fresh arrays of
// n entries a call: a profile). The first version, a string key a row, took 5766 ms for the rollup where
// this one took 2469, at load 12 both (the join: 224 and 1175 ms there).
import { performance } from "node:perf_hooks";
import { Interner } from "../dist/io/interner.js";
import { MemoryRows } from "../dist/pipeline/join-memory.js";
import { groupJudgments, joinParsed } from "../dist/pipeline/join-rows.js";
import { prepareRun } from "../dist/pipeline/prepare-run.js";

const rounds = Number(process.argv[2] ?? 5);
const QUERIES = 10_000;
const DOCS = 100;
let seed = 20261129;
const next = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const qid = [];
const docid = [];
const score = [];
const jq = [];
const jd = [];
const jl = [];
for (let q = 0; q < QUERIES; q++) {
  for (let d = 0; d < DOCS; d++) {
    for (let p = 0; p < 2; p++) {
      qid.push(`q${q}`);
      docid.push(`msmarco_doc_00_${q * DOCS + d}#${p}`);
      score.push(Math.round(next() * 1e6) / 1e3);
    }
    if (d % 4 === 0) {
      jq.push(`q${q}`);
      jd.push(`msmarco_doc_00_${q * DOCS + d}`);
      jl.push(Math.floor(next() * 3));
    }
  }
}
const names = new Interner();
const run = new MemoryRows("run", names).addGiven({ qid, docid, value: score }).rows();
const judgments = groupJudgments(new MemoryRows("qrels", names).addGiven({ qid: jq, docid: jd, value: jl }).rows());

const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
const time = (f) => {
  const t = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    f();
    t.push(performance.now() - start);
  }
  return median(t).toFixed(0);
};
const rollup = (method) => ({ rollup: { separator: "#", method } });
console.log(`${run.length} run rows, ${QUERIES} queries; medians of ${rounds} rounds, ms`);
console.log(`prepareRun rollup max      ${time(() => prepareRun(run, rollup("max")))}`);
console.log(`prepareRun rollup sum      ${time(() => prepareRun(run, rollup("sum")))}`);
console.log(`prepareRun drop-self       ${time(() => prepareRun(run, { dropSelf: true }))}`);
console.log(`prepareRun both            ${time(() => prepareRun(run, { ...rollup("max"), dropSelf: true }))}`);
console.log(`joinParsed                 ${time(() => joinParsed(judgments, run))}`);
console.log(`joinParsed --rollup '#'    ${time(() => joinParsed(judgments, run, { prepare: rollup("max") }))}`);
