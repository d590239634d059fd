// optimizeFusion (src/fusion/optimize.ts) beside ranx 0.3.20's optimize_fusion on the same generated
// files: wsum, min-max, step 0.1, three runs, nDCG@10 (issue 27). Both read the files first (not timed),
// both are warmed up on a small set (numba compiles ranx's kernels on first use; not timed), then the
// optimisation alone is timed, ROUNDS times, the median printed (wall clock, and CPU time, which a shared
// machine's load inflates less; ranx's numba runs on every core); the best weights must be equal.
//
//   node bench/optimize-fusion.mjs [QUERIES] [DOCS] [ROUNDS]      (default 1000 queries, 100 documents, 3 rounds)
//
// Needs `npm run build` (dist/) and ../shared/tools/ranx-python.sh (ranx 0.3.20 on Debian's python3-numba).
// The set: seeded (mulberry32, seed 27), per query DOCS documents per run out of 1.5 DOCS, half of them
// judged 0-3, each run's score the label plus its own noise, to 4 decimals.
//
// Measured on this project's machine (AMD EPYC, 2 cores shared with other jobs, load about 20; Node
// v20.20.2; ranx 0.3.20 on Debian's numba 0.56), 2026-11-27: 200 queries, 3 rounds: 816 ms wall, 195 ms CPU
// against ranx's 17,307 ms wall, 3,421 ms CPU (21x, 18x); 1,000 queries, 1 round: 1,511 ms wall, 728 ms
// CPU against 60,251 ms, 17,101 ms (40x, 23x). Best weights [0.8, 0.1, 0.1] on both.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { optimizeFusion } from "../dist/index.js";
import { readQrels, readRun } from "../dist/node/index.js";
import { random } from "./data.mjs";

const [queries, docs, rounds] = [1000, 100, 3].map((d, i) => Number(process.argv[2 + i] ?? d));
const here = dirname(fileURLToPath(import.meta.url));
const ranxPython = join(here, "../../shared/tools/ranx-python.sh");
const dir = join(os.tmpdir(), `rankeval-optimize-fusion-${queries}-${docs}`);
mkdirSync(dir, { recursive: true });

/** Writes qrels.txt and run0..2.txt for `n` queries of `m` documents; returns their paths. */
function generate(prefix, n, m) {
  const rnd = random(27);
  const qrels = [];
  const runs = [[], [], []];
  for (let q = 0; q < n; q++) {
    const pool = Math.ceil(m * 1.5);
    const label = new Map();
    for (let d = 0; d < pool; d++) if (rnd() < 0.5) label.set(d, Math.floor(rnd() * 4));
    for (const [d, l] of label) qrels.push(`q${q} 0 d${d} ${l}`);
    runs.forEach((lines, r) => {
      const ids = Array.from({ length: pool }, (_, d) => d);
      for (let i = pool - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [ids[i], ids[j]] = [ids[j], ids[i]];
      }
      const scored = ids.slice(0, m).map((d) => [d, (label.get(d) ?? 0) + (r + 1) * 2 * rnd()]);
      scored.sort((a, b) => b[1] - a[1]);
      scored.forEach(([d, s], k) => lines.push(`q${q} Q0 d${d} ${k + 1} ${s.toFixed(4)} run${r}`));
    });
  }
  const files = { qrels: join(dir, `${prefix}qrels.txt`), runs: runs.map((_, r) => join(dir, `${prefix}run${r}.txt`)) };
  writeFileSync(files.qrels, `${qrels.join("\n")}\n`);
  runs.forEach((lines, r) => writeFileSync(files.runs[r], `${lines.join("\n")}\n`));
  return files;
}

const small = generate("small-", 20, 20);
const big = generate("", queries, docs);
const options = { method: "wsum", norm: "min-max", metric: "ndcg@10", step: 0.1 };
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function load(files) {
  return { qrels: await readQrels(files.qrels), runs: await Promise.all(files.runs.map((f) => readRun(f))) };
}
const warm = await load(small);
optimizeFusion(warm.qrels, warm.runs, options);
const set = await load(big);
const times = [];
const cpu = [];
let best;
for (let i = 0; i < rounds; i++) {
  const [t, c] = [performance.now(), process.cpuUsage()];
  best = optimizeFusion(set.qrels, set.runs, options);
  times.push(performance.now() - t);
  const used = process.cpuUsage(c);
  cpu.push((used.user + used.system) / 1000);
}

const script = join(dir, "ranx-optimize.py");
writeFileSync(
  script,
  `import json, sys, time
from ranx import Qrels, Run, optimize_fusion
def load(q, rs):
    return Qrels.from_file(q, kind="trec"), [Run.from_file(r, kind="trec") for r in rs]
small, big, rounds = json.loads(sys.argv[1]), json.loads(sys.argv[2]), int(sys.argv[3])
qrels, runs = load(small["qrels"], small["runs"])
optimize_fusion(qrels, runs, norm="min-max", method="wsum", metric="ndcg@10", step=0.1, show_progress=False)
qrels, runs = load(big["qrels"], big["runs"])
times, cpu = [], []
for _ in range(rounds):
    t, c = time.perf_counter(), time.process_time()
    best = optimize_fusion(qrels, runs, norm="min-max", method="wsum", metric="ndcg@10", step=0.1, show_progress=False)
    times.append((time.perf_counter() - t) * 1000)
    cpu.append((time.process_time() - c) * 1000)
print(json.dumps({"times": times, "cpu": cpu, "weights": [float(w) for w in best["weights"]]}))
`,
);
const ranx = JSON.parse(
  execFileSync(ranxPython, [script, JSON.stringify(small), JSON.stringify(big), String(rounds)], { encoding: "utf8" })
    .trim()
    .split("\n")
    .pop(),
);

const cpus = os.cpus();
console.log(`machine: ${cpus[0]?.model ?? "?"}, ${cpus.length} cores; Node ${process.version}`);
console.log(`set: ${queries} queries, 3 runs of ${docs} documents a query; wsum, min-max, step 0.1, ndcg@10`);
const line = (name, wall, used, weights) =>
  console.log(
    `${name} ${median(wall).toFixed(0)} ms wall, ${median(used).toFixed(0)} ms CPU (medians of ${rounds}), best ${JSON.stringify(weights)}`,
  );
line("rankeval optimizeFusion:", times, cpu, best.weights);
line("ranx optimize_fusion:   ", ranx.times, ranx.cpu, ranx.weights);
console.log(
  `ratio: ${(median(ranx.times) / median(times)).toFixed(1)}x wall, ${(median(ranx.cpu) / median(cpu)).toFixed(1)}x CPU`,
);
if (JSON.stringify(best.weights) !== JSON.stringify(ranx.weights)) {
  console.error("the best weights differ");
  process.exit(1);
}
