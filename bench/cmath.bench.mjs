// npm run bench:cmath: glibc-exact log and log2 (src/c/math.ts), the table-driven double-double
// log against the series about 1 it replaced (kept as logSlow and log2Slow, the tests' reference),
// side by side in one run, on 1M values like average precisions (what gm_map and gm_bpref take the
// logs of: one a query). The values are nearly all distinct, so log's memo rarely answers: these are
// the logs' own costs (log and log2 through the memo, as their callers get them; logSlow and log2Slow
// without). The results are checked equal first. Prints a Markdown table, the machine and its load
// (a shared machine: the ratios, not the times, are the figures to compare).
//   node bench/cmath.bench.mjs [N]     (default 1,000,000)
import os from "node:os";
import { Bench } from "tinybench";
import { log, log2, log2Slow, logSlow } from "../dist/c/math.js";
import { geoLogs } from "../dist/pipeline/aggregate.js";

const n = Number(process.argv[2] ?? 1_000_000);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const loadBefore = load();

// Average precisions: R relevant documents (1..50) at increasing ranks, the mean of the precisions
// at them (some unretrieved: a divisor above the number found). Seeded, the same each run.
let state = 0x2545f491;
const next = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 2 ** 32;
};
const values = new Float64Array(n);
for (let i = 0; i < n; i++) {
  const relevant = 1 + Math.floor(next() * 50);
  const found = 1 + Math.floor(next() * relevant);
  let rank = 0;
  let sum = 0;
  for (let k = 1; k <= found; k++) {
    rank += 1 + Math.floor(next() * 20);
    sum += k / rank;
  }
  values[i] = sum / relevant;
}

for (let i = 0; i < n; i++) {
  const x = values[i];
  if (!Object.is(log(x), logSlow(x)) || !Object.is(log2(x), log2Slow(x)))
    throw new Error(`log or log2 of ${x} differs from the slow series`);
}

let sink = 0;
const loop = (f) => () => {
  let s = 0;
  for (let i = 0; i < n; i++) s += f(values[i]);
  sink += s;
};
const bench = new Bench({ name: "cmath", time: 0, iterations: 7, warmupIterations: 2 });
bench
  .add("log: series about 1 (logSlow, before)", loop(logSlow))
  .add("log: table of 256 points a unit (log)", loop(log))
  .add("log2: series about 1 (log2Slow, before)", loop(log2Slow))
  .add("log2: table (log2)", loop(log2))
  .add("geoLogs of a fresh Float64Array (gm_map's path)", () => {
    sink += geoLogs(values.slice())[0];
  });
await bench.run();

const cpu = os.cpus()[0]?.model ?? "unknown CPU";
console.log(
  `${n.toLocaleString("en")} values like average precisions (log and log2 checked equal to the slow series first; sum ${sink.toPrecision(3)})`,
);
console.log(
  `${cpu}, ${os.cpus().length} cores; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}; load ${loadBefore} before, ${load()} after\n`,
);
console.log("| function | median ms | min ms | ns per call |");
console.log("|---|---:|---:|---:|");
const medians = [];
for (const task of bench.tasks) {
  const { latency } = task.result;
  medians.push(latency.p50);
  console.log(
    `| ${task.name} | ${latency.p50.toFixed(0)} | ${latency.min.toFixed(0)} | ${((latency.p50 * 1e6) / n).toFixed(0)} |`,
  );
}
console.log(
  `\nspeed-up, ratio of medians: log ${(medians[0] / medians[1]).toFixed(1)}x, log2 ${(medians[2] / medians[3]).toFixed(1)}x`,
);
