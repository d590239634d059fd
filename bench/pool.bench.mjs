// Pools and judgment statistics (src/judgments/) on seeded in-memory data: pool() on RUNS runs of
// QUERIES x PER_QUERY rows each (default 10 x 10,000 x 100: 1M rows a run, 10M in all), and qrelsStats()
// on QUERIES x 100 judgments (1M). Each query's runs draw their documents from 300 candidates, so runs
// overlap as real ones do; rows come in rank order, as a run file gives them ("shuffled" times the sort).
// Prints a Markdown table with the machine and runtime: medians of ROUNDS (default 3) rounds.
//   npm run bench:pool   or   node bench/pool.bench.mjs [RUNS] [QUERIES] [PER_QUERY] [ROUNDS] [CASE]   (after a build)
//
// Measured on this project's machine (AMD EPYC, 2 cores; Node v20.20.2), 2026-11-29, shared (load average
// 9-11 throughout, so wall times ran up to 2.5x the CPU times): depth:100, 10M rows, 9.7 s wall (fastest
// 8.2 s), 7.2 s CPU; depth:10 5.1 s; rbp:0.8 and rrf:60 with budget 100 8.3 and 9.2 s wall, 5.3 and 5.7 s
// CPU; qrelsStats on 1M judgments 2.1 s wall, 0.57 s CPU. A profile of depth:100: about half of it is
// reading the rows (join-memory.ts MemoryRows: ids to bytes and hashes), a quarter collecting garbage.
// After (columns of string ids read as they are, query-docs.ts readStrings and QueryStrings), beside that
// build by bench/judgments-versus.mjs, load 6-7: depth:100 2.3 s wall (was 9.0 s), 2.1 s CPU (7.1 s).
import os from "node:os";
import { random } from "./data.mjs";

// RANKEVAL_DIST: another build's dist/ (bench/judgments-versus.mjs runs main's beside this one).
const { pool, qrelsStats } = await import(
  process.env.RANKEVAL_DIST ? `${process.env.RANKEVAL_DIST}/index.js` : "rankeval"
);

const R = Number(process.argv[2] ?? 10);
const queries = Number(process.argv[3] ?? 10_000);
const perQuery = Number(process.argv[4] ?? 100);
const rounds = Number(process.argv[5] ?? 3);
// Only the case of this name (e.g. "pool depth:100"); all by default.
const only = process.argv[6];
const wanted = (name) => only === undefined || name === only;
const CANDIDATES = 300;

const next = random(38);
const qids = Array.from({ length: queries }, (_, q) => `q${q}`);
// One string a candidate, shared by the runs, flat as a parser's (decoded) strings are: V8's joined strings
// are flattened on first read, which cost a first call 1 s more in a trial.
const utf8 = new TextEncoder();
const decoder = new TextDecoder();
const docs = Array.from({ length: queries }, (_, q) =>
  Array.from({ length: CANDIDATES }, (_, k) =>
    decoder.decode(utf8.encode(`clueweb-${String(q).padStart(5, "0")}-${k}`)),
  ),
);

/** A run as columns in rank order: each query's perQuery candidates of highest noisy quality. */
function makeRun(shuffled) {
  const n = queries * perQuery;
  const qid = new Array(n);
  const docid = new Array(n);
  const score = new Float64Array(n);
  const keys = new Float64Array(CANDIDATES);
  const idx = new Int32Array(CANDIDATES);
  let i = 0;
  for (let q = 0; q < queries; q++) {
    for (let k = 0; k < CANDIDATES; k++) {
      keys[k] = -k / CANDIDATES + 2 * next();
      idx[k] = k;
    }
    idx.sort((a, b) => keys[b] - keys[a]);
    const from = i;
    for (let k = 0; k < perQuery; k++, i++) {
      qid[i] = qids[q];
      docid[i] = docs[q][idx[k]];
      // 3 decimals: ties, as a model's scores have.
      score[i] = Math.round(keys[idx[k]] * 1000) / 1000;
    }
    if (shuffled)
      for (let k = i - 1; k > from; k--) {
        const j = from + Math.floor(next() * (k - from + 1));
        [qid[k], qid[j]] = [qid[j], qid[k]];
        [docid[k], docid[j]] = [docid[j], docid[k]];
        [score[k], score[j]] = [score[j], score[k]];
      }
  }
  return { qid, docid, score };
}

const runs = Array.from({ length: R }, () => makeRun(false));
// Made when its case comes: two sets at once double the heap every collection marks.
let shuffled = null;
const judgedRows = queries * 100;
const judged = { qid: new Array(judgedRows), docid: new Array(judgedRows), rel: new Float64Array(judgedRows) };
for (let q = 0, i = 0; q < queries; q++)
  for (let k = 0; k < 100; k++, i++) {
    judged.qid[i] = qids[q];
    judged.docid[i] = docs[q][3 * k];
    judged.rel[i] = Math.min(3, Math.floor(-Math.log(1 - next()) * 0.8));
  }

/** Wall and CPU time (user + system, this process) of `rounds` calls: medians, and the fastest wall. */
function median(f) {
  const times = [];
  const cpus = [];
  let out;
  for (let r = 0; r < rounds; r++) {
    const c = process.cpuUsage();
    const t = performance.now();
    out = f();
    times.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpus.push((used.user + used.system) / 1000);
  }
  const mid = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return { ms: mid(times), min: Math.min(...times), cpu: mid(cpus), out };
}

const rows = R * queries * perQuery;
const cases = [
  ["pool depth:100", () => pool(runs, { method: "depth:100" })],
  ["pool depth:10", () => pool(runs, { method: "depth:10" })],
  ["pool rbp:0.8, budget 100", () => pool(runs, { method: "rbp:0.8", budget: 100 })],
  ["pool rrf:60, budget 100", () => pool(runs, { method: "rrf:60", budget: 100 })],
  ["pool depth:100, judged 1M (incremental)", () => pool(runs, { method: "depth:100", judged })],
];
console.log(
  `${R} runs x ${queries.toLocaleString("en")} queries x ${perQuery} rows = ${rows.toLocaleString("en")} run rows; ` +
    `${judgedRows.toLocaleString("en")} judgments`,
);
console.log(
  `${os.cpus()[0]?.model ?? "unknown CPU"}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB; ` +
    `Node ${process.version}; ${new Date().toISOString().slice(0, 10)}; median of ${rounds}\n`,
);
console.log(
  `load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(", ")} at the start\n`,
);
console.log("| call | median ms | min ms | CPU ms (median) | rows/s | result |");
console.log("|---|---:|---:|---:|---:|---|");
const line = (name, n, { ms, min, cpu }, what) =>
  console.log(
    `| ${name} | ${ms.toFixed(0)} | ${min.toFixed(0)} | ${cpu.toFixed(0)} | ${(n / (ms / 1000) / 1e6).toFixed(1)}M | ${what} |`,
  );
for (const [name, f] of cases) {
  if (!wanted(name)) continue;
  const t = median(f);
  line(name, name.includes("judged") ? rows + judgedRows : rows, t, `${t.out.size.toLocaleString("en")} pooled`);
}
runs.length = 0;
const shuffledCase = "pool depth:100, rows shuffled (each query sorted)";
if (wanted(shuffledCase)) {
  shuffled = Array.from({ length: R }, () => makeRun(true));
  const t = median(() => pool(shuffled, { method: "depth:100" }));
  line(shuffledCase, rows, t, `${t.out.size.toLocaleString("en")} pooled`);
  shuffled = null;
}
if (wanted("qrelsStats")) {
  const s = median(() => qrelsStats(judged));
  line("qrelsStats", judgedRows, s, `${s.out.relevant.toLocaleString("en")} relevant`);
}
