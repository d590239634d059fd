// npm run bench:compare: compare() on 10 runs x 10,000 queries x 5 measures, all 45 pairs, with the
// t, Wilcoxon, randomization (B = 10,000) and Tukey HSD (B = 10,000) tests and Holm's correction;
// then compareAsync() with one worker thread, so that the resampling uses both cores.
// The runs are evaluated once (not timed): the same judged documents, scores from one seeded signal
// plus each run's own noise, so that the runs differ a little, as systems do.
//   node bench/compare.bench.mjs [RUNS] [QUERIES] [ITERATIONS]
import os from "node:os";
import { Worker } from "node:worker_threads";
import { Bench } from "tinybench";
import { compare, compareAsync, evaluate } from "rankeval";
import { random } from "./data.mjs";

const runs = Number(process.argv[2] ?? 10);
const queries = Number(process.argv[3] ?? 10_000);
const iterations = Number(process.argv[4] ?? 10_000);
const perQuery = 50;
const measures = ["ndcg@10", "map", "mrr", "precision@10", "recall@100"];
const tests = ["t", "wilcoxon", "randomization", "tukey"];

const next = random(7);
const n = queries * perQuery;
const qid = new Int32Array(n);
const rel = new Float64Array(n);
const signal = new Float64Array(n);
for (let i = 0; i < n; i++) {
  qid[i] = Math.floor(i / perQuery);
  rel[i] = Math.min(4, Math.floor(-Math.log(1 - next()) * 0.8));
  signal[i] = rel[i] * 0.5 + next();
}
const results = [];
for (let r = 0; r < runs; r++) {
  const noise = random(100 + r);
  const strength = 1 + 0.05 * r;
  const score = Float64Array.from(signal, (s) => Math.round((s + noise() * strength) * 1000) / 1000);
  results.push({ name: `run${r}`, result: evaluate({ qid, score, rel }, measures) });
}
const options = { pairs: "all", tests, iterations, correction: "holm" };

// A pool of one worker thread for compareAsync().
const worker = new Worker(new URL("./compare-worker.mjs", import.meta.url));
const waiting = new Map();
let nextId = 0;
worker.on("message", ({ id, output }) => {
  waiting.get(id)(output);
  waiting.delete(id);
});
const pool = {
  size: 1,
  run: (job) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      worker.postMessage({ id, job });
    }),
};

const bench = new Bench({ name: "compare", time: 0, iterations: 5, warmupIterations: 1 });
let comparison;
let shared;
bench
  .add(
    `compare(): ${runs} runs, ${queries} queries, ${measures.length} measures, all pairs; ${tests.join(", ")}; B = ${iterations}; Holm`,
    () => {
      comparison = compare(results, options);
    },
  )
  .add("compareAsync(), the same with one worker thread (both cores)", async () => {
    shared = await compareAsync(results, options, pool);
  });
await bench.run();
await worker.terminate();
if (JSON.stringify(shared) !== JSON.stringify(comparison)) throw new Error("compareAsync() and compare() differ");

const model = os.cpus()[0]?.model ?? "unknown CPU";
console.log(
  `${model}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}\n`,
);
console.log("| task | median ms | min ms | max ms |");
console.log("|---|---:|---:|---:|");
for (const task of bench.tasks) {
  const { latency } = task.result;
  console.log(`| ${task.name} | ${latency.p50.toFixed(0)} | ${latency.min.toFixed(0)} | ${latency.max.toFixed(0)} |`);
}
// CPU time of compare() alone (one thread; less sensitive than wall time to other processes on a
// shared machine), the median of three calls.
const cpu = [];
for (let i = 0; i < 3; i++) {
  const start = process.cpuUsage();
  compare(results, options);
  const used = process.cpuUsage(start);
  cpu.push((used.user + used.system) / 1000);
}
cpu.sort((a, b) => a - b);
console.log(
  `\ncompare() CPU time: median ${cpu[1].toFixed(0)} ms (${cpu.map((c) => c.toFixed(0)).join(", ")}); load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
const significant = comparison.comparisons.filter((c) => c.tests.randomization.significant).length;
console.log(
  `\n${comparison.comparisons.length} comparisons; ${significant} significant by the randomization test (Holm, alpha 0.05)`,
);
