// node bench/threads.bench.mjs [ROUNDS]: where the command line's time goes per thread, on the large
// generated set (bench/cli.bench.mjs makes it). Each round runs every variant once, in turn (A/B
// alternated, so load on a shared machine falls on all alike); prints medians and ranges of wall time,
// and per thread, at exit, from /proc/self/task: minor page faults, user and system CPU seconds,
// seconds runnable but not running (other load), voluntary (waits) and involuntary (preempted) context
// switches. Counts do not depend on load; on a shared machine, `nice -n -10 node bench/...` helps.
// Environment: RANKEVAL_THREADS_BENCH_BASELINE=DIR, another build's dist/ beside this one (its
// node/bin.js); RANKEVAL_THREADS_BENCH_ARGS, the thread counts (default "1 default").
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";

const ROUNDS = Number(process.argv[2] ?? 7);
const root = new URL("..", import.meta.url).pathname;
const data = join(os.tmpdir(), "rankeval-bench-100000-100-2");
if (!existsSync(join(data, "run.txt"))) {
  console.log(`skipped: ${data} is absent (npm run bench:cli makes it)`);
  process.exit(0);
}
// The preload: each thread's counters as the process exits (worker threads are still alive then).
const preload = join(mkdtempSync(join(os.tmpdir(), "rankeval-threads-")), "taskstat.cjs");
writeFileSync(
  preload,
  `const fs = require("fs");
if (require("worker_threads").isMainThread) process.on("exit", () => {
  const rows = [];
  for (const t of fs.readdirSync("/proc/self/task")) {
    try {
      const s = fs.readFileSync("/proc/self/task/" + t + "/stat", "utf8");
      const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
      const st = fs.readFileSync("/proc/self/task/" + t + "/status", "utf8");
      const sched = fs.readFileSync("/proc/self/task/" + t + "/schedstat", "utf8").split(" ");
      rows.push([+t, +f[7], +f[11] / 100, +f[12] / 100,
        +/\\nvoluntary_ctxt_switches:\\s+(\\d+)/.exec(st)[1], +/nonvoluntary_ctxt_switches:\\s+(\\d+)/.exec(st)[1],
        sched[1] / 1e9]);
    } catch {}
  }
  fs.writeSync(2, "\\nTASKSTAT " + JSON.stringify(rows) + "\\n");
});
`,
);
const builds = [["this", join(root, "dist/node/bin.js")]];
const baseline = process.env.RANKEVAL_THREADS_BENCH_BASELINE;
if (baseline) builds.unshift(["baseline", join(baseline, "node/bin.js")]);
const threads = (process.env.RANKEVAL_THREADS_BENCH_ARGS ?? "1 default").split(/\s+/).filter(Boolean);
const variants = builds.flatMap(([name, bin]) => threads.map((t) => ({ name: `${name}, --threads ${t}`, bin, t })));
const args = ["-m", "ndcg_cut.10", "-m", "map", "-m", "P.10", join(data, "qrels.txt"), join(data, "run.txt")];
const results = new Map(variants.map((v) => [v.name, []]));
let expected;
for (let r = 0; r < ROUNDS; r++)
  for (const v of variants) {
    const extra = v.t === "default" ? [] : ["--threads", v.t];
    const started = process.hrtime.bigint();
    const p = spawnSync(process.execPath, ["-r", preload, v.bin, ...extra, ...args], { maxBuffer: 1 << 26 });
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    if (p.status !== 0) throw new Error(`${v.name}: exit ${p.status}: ${p.stderr}`);
    const out = p.stdout.toString();
    expected ??= out;
    if (out !== expected) throw new Error(`${v.name}: output differs from the first variant's`);
    const rows = JSON.parse(/TASKSTAT (.*)/.exec(p.stderr.toString())[1]);
    results.get(v.name).push({ wall, rows, load: os.loadavg()[0] });
  }
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f2 = (x) => x.toFixed(2);
console.log(`${os.cpus().length} cores, ${os.cpus()[0].model}, Node ${process.version}, ${ROUNDS} rounds`);
console.log(
  "| variant | wall median (min-max) | wall less main's runnable, not run | CPU s | minor faults | threads: faults / user+sys s / runnable, not run s / waits / preempted |",
);
console.log("|---|---|---|---|---|---|");
for (const [name, runs] of results) {
  const walls = runs.map((x) => x.wall);
  // Wall time less the main thread's time runnable but not run: the wall on a machine with no other load, nearly.
  const own = runs.map((x) => x.wall - x.rows[0][6]);
  const cpu = runs.map((x) => x.rows.reduce((a, t) => a + t[2] + t[3], 0));
  const faults = runs.map((x) => x.rows.reduce((a, t) => a + t[1], 0));
  // The threads of the median run by wall, busiest first (V8's platform threads summed as "helpers").
  const mid = runs.find((x) => x.wall === median(walls));
  const [main, ...rest] = mid.rows;
  const busy = rest.filter((t) => t[1] > 5000).sort((a, b) => b[2] + b[3] - a[2] - a[3]);
  const helpers = rest.filter((t) => !busy.includes(t));
  const sum = (ts) => [0, 1, 2, 3, 4, 5, 6].map((i) => ts.reduce((a, t) => a + t[i], 0));
  const fmt = (label, t) => `${label} ${t[1]} / ${f2(t[2] + t[3])} / ${f2(t[6])} / ${t[4]} / ${t[5]}`;
  const per = [fmt("main", main), ...busy.map((t, i) => fmt(`worker ${i + 1}`, t)), fmt("helpers", sum(helpers))];
  console.log(
    `| ${name} | ${f2(median(walls))} s (${f2(Math.min(...walls))}-${f2(Math.max(...walls))}) | ${f2(median(own))} s (${f2(Math.min(...own))}-${f2(Math.max(...own))}) | ${f2(median(cpu))} | ${median(faults)} | ${per.join("; ")} |`,
  );
}
console.log(
  `load average (1 min) during the rounds: ${f2(Math.min(...[...results.values()].flat().map((x) => x.load)))}-${f2(Math.max(...[...results.values()].flat().map((x) => x.load)))}`,
);
