// node bench/prepare-run.bench.mjs [ROUNDS]: the run preparations (src/pipeline/prepare-run.ts) on a seeded
// passage run in memory, 10,000 queries of 200 passages (100 documents of two each, ids as MS MARCO v2's
// segmented ones, msmarco_doc_00_N#P): prepareRun alone (rollup max, rollup sum, drop-self, both), then
// joinParsed without and with `--rollup '#'`, medians of ROUNDS (default 5). Uses dist/ (npm run build).
//
// Measured on this project's machine (AMD EPYC, 2 cores; Node v20.20.2), 2026-11-29, under a load average of
// 10 to 12 (five other builds and test runs), so only the ratios mean much: 2,000,000 rows, prepareRun
// rollup max 2469 ms, sum 2351, drop-self 1482, both 2614; joinParsed 1175, with the rollup 2681. A key
// string a row (the first version) took 5766 ms for the rollup, the join 224 ms, at load 12 too.
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
