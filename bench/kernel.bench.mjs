// npm run bench: the WebAssembly kernel against the plain-TypeScript reference on the same rows,
// side by side in one run. Prints a Markdown table with the machine and runtime.
//   node bench/kernel.bench.mjs [QUERIES] [ROWS_PER_QUERY]     (default 100000 x 100 = 10M rows)
import os from "node:os";
import { Bench } from "tinybench";
import { evaluate } from "rankeval";
import { referenceEvaluate } from "rankeval/reference";
import { ltrBatch } from "./data.mjs";

const queries = Number(process.argv[2] ?? 100_000);
const perQuery = Number(process.argv[3] ?? 100);
const measures = ["ndcg@10", "map", "mrr", "precision@10", "recall@100"];
const rows = ltrBatch(queries, perQuery, 1);
const n = queries * perQuery;

const bench = new Bench({ name: "evaluate", time: 0, iterations: 5, warmupIterations: 2 });
bench
  .add("rankeval (wasm kernel; grouping and copy into memory included)", () => evaluate(rows, measures))
  .add("reference (plain TypeScript)", () => referenceEvaluate(rows, measures));
await bench.run();

// Same numbers, checked after the timing (the reference leaves a large heap behind it): a
// benchmark of wrong answers is worth nothing.
const kernel = evaluate(rows, measures);
const reference = referenceEvaluate(rows, measures);
for (const m of kernel.measures) {
  const a = kernel.values[m];
  const b = reference.values[m];
  for (let q = 0; q < a.length; q++) {
    if (Math.abs(a[q] - b[q]) > 1e-12 * Math.max(1, Math.abs(a[q])))
      throw new Error(`${m} differs on query ${q}: ${a[q]} vs ${b[q]}`);
  }
}

const cpu = os.cpus()[0]?.model ?? "unknown CPU";
console.log(
  `${n.toLocaleString("en")} rows in ${queries.toLocaleString("en")} queries; measures ${measures.join(", ")}`,
);
console.log(
  `${cpu}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}\n`,
);
console.log("| implementation | median ms | min ms | rows/s |");
console.log("|---|---:|---:|---:|");
const medians = [];
for (const task of bench.tasks) {
  const { latency } = task.result;
  medians.push(latency.p50);
  console.log(
    `| ${task.name} | ${latency.p50.toFixed(0)} | ${latency.min.toFixed(0)} | ${(n / (latency.p50 / 1000) / 1e6).toFixed(0)}M |`,
  );
}
console.log(`\nkernel speed-up over the reference: ${(medians[1] / medians[0]).toFixed(1)}x`);

// ties "average" (the closed form over every order of each tie) against the default order, timed
// in alternation, round by round, so that a shared machine's slow moments fall on both alike.
const ROUNDS = 11;
const times = { given: [], average: [] };
for (let i = 0; i < 2; i++) evaluate(rows, measures, { ties: "average" });
for (let round = 0; round < ROUNDS; round++) {
  for (const [which, options] of [
    ["given", {}],
    ["average", { ties: "average" }],
  ]) {
    const t0 = performance.now();
    evaluate(rows, measures, options);
    times[which].push(performance.now() - t0);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`\n| ties (alternating, ${ROUNDS} rounds) | median ms | min ms |`);
console.log("|---|---:|---:|");
for (const which of ["given", "average"])
  console.log(
    `| ${which === "given" ? "docid (default)" : "average"} | ${median(times[which]).toFixed(0)} | ${Math.min(...times[which]).toFixed(0)} |`,
  );
console.log(
  `\nties "average" / default, ratio of medians: ${(median(times.average) / median(times.given)).toFixed(2)}`,
);

// Small calls, as a training loop makes them every epoch (bench/small-calls.mjs; npm run bench:small too).
const { smallCallsTable } = await import("./small-calls.mjs");
console.log(`\n${smallCallsTable()}`);
