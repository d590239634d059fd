// Issue 38's three speed targets, this build beside another (main's dist/, copied aside before main
// changes), in one run: agreement of 2 x 1M judgments (bench/agreement.bench.mjs, columns), qrelsCompare
// of 10 runs x 1M rows under 2 x 1M judgments (bench/qrels-compare.bench.mjs) and pool depth:100 over
// 10 runs x 1M rows (bench/pool.bench.mjs). Each case is one process a build and a round (one call,
// cold, as the command line makes it), the builds alternated (A B, B A, ...) so that the shared
// machine's load falls on both alike; printed: each build's median of ROUNDS (default 3), wall and CPU
// (user + system: on a loaded machine the wall time is mostly waiting), and the load.
//   npm run build && node bench/judgments-versus.mjs OTHER_DIST [ROUNDS]
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const other = process.argv[2];
if (!other) throw new Error("usage: node bench/judgments-versus.mjs OTHER_DIST [ROUNDS]");
const rounds = Number(process.argv[3] ?? 3);
const builds = [
  ["this", path.join(here, "..", "dist")],
  ["other", path.resolve(other)],
];

/** Each case: its bench and arguments, and how to find its time (ms) in what the bench prints. */
const cases = [
  {
    name: "agreement, 2 x 1M judgments (columns)",
    args: ["agreement.bench.mjs", "10000", "100", "1"],
    ms: (out) => Number(/columns: median (\d+) ms/.exec(out)[1]),
    cpu: (out) => Number(/columns: median .*CPU (\d+) ms/.exec(out)[1]),
  },
  {
    name: "qrelsCompare, 10 runs x 1M rows under 2 x 1M judgments",
    args: ["qrels-compare.bench.mjs", "10000", "100", "10", "1"],
    ms: (out) => 1000 * Number(/median ([\d.]+) s/.exec(out)[1]),
    cpu: (out) => 1000 * Number(/CPU ([\d.]+) s/.exec(out)[1]),
  },
  {
    name: "pool depth:100, 10 runs x 1M rows",
    args: ["pool.bench.mjs", "10", "10000", "100", "1", "pool depth:100"],
    ms: (out) => Number(/\| pool depth:100 \| (\d+) \|/.exec(out)[1]),
    cpu: (out) => Number(/\| pool depth:100 \| \d+ \| \d+ \| (\d+) \|/.exec(out)[1]),
  },
];

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(", ");
console.log(
  `${os.cpus()[0]?.model ?? "?"} (${os.cpus().length} cores), Node ${process.version}; ` +
    `${new Date().toISOString().slice(0, 16)}Z; load average ${load()} at the start`,
);
const times = cases.map(() => builds.map(() => []));
const cpus = cases.map(() => builds.map(() => []));
for (let round = 0; round < rounds; round++)
  for (const [c, bench] of cases.entries()) {
    // Alternated: the first build of a round is the other one the next round.
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const b of order) {
      const out = execFileSync(process.execPath, [path.join(here, bench.args[0]), ...bench.args.slice(1)], {
        env: { ...process.env, RANKEVAL_DIST: builds[b][1] },
        encoding: "utf8",
        maxBuffer: 1 << 24,
      });
      times[c][b].push(bench.ms(out));
      cpus[c][b].push(bench.cpu(out));
    }
  }
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`load average ${load()} at the end\n`);
console.log(
  "| case | this build: wall ms, median (all) | CPU ms | other build: wall ms, median (all) | CPU ms | wall ratio |",
);
console.log("|---|---:|---:|---:|---:|---:|");
const all = (xs) => `${median(xs).toFixed(0)} (${xs.map((x) => x.toFixed(0)).join(", ")})`;
for (const [c, bench] of cases.entries()) {
  const [a, b] = times[c];
  const [ca, cb] = cpus[c];
  console.log(
    `| ${bench.name} | ${all(a)} | ${median(ca).toFixed(0)} | ${all(b)} | ${median(cb).toFixed(0)} | ` +
      `${(median(b) / median(a)).toFixed(2)}x |`,
  );
}
