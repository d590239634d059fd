// npm run bench:cli: the command line on the large generated set (10M run rows, 7.6M judgments,
// 490 MB of text), as a user runs it, plus the parsers' throughput on their own. Prints Markdown.
//   node bench/cli.bench.mjs [QUERIES] [DOCS_PER_QUERY]      (default 100000 100; seed 2)
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { Bench } from "tinybench";

const queries = process.argv[2] ?? "100000";
const docs = process.argv[3] ?? "100";
const root = new URL("..", import.meta.url).pathname;
const generator = join(root, "../shared/tools/gen-trec.mjs");
const data = join(os.tmpdir(), `rankeval-bench-${queries}-${docs}-2`);
if (!existsSync(join(data, "run.txt"))) {
  if (!existsSync(generator)) {
    console.log(`skipped: ${generator} is absent (it lives in ../shared)`);
    process.exit(0);
  }
  mkdirSync(data, { recursive: true });
  console.log(`generating ${data} ...`);
  execFileSync("node", [generator, data, queries, docs, "2"], { stdio: "inherit" });
}
const qrels = join(data, "qrels.txt");
const run = join(data, "run.txt");
const mb = (f) => statSync(f).size / 1e6;

// 1. Parsing alone, from memory, in 1 MiB chunks, as the CLI reads files.
const { Interner, QrelsParser, RunParser } = await import("rankeval/io");
const parse = (Parser, bytes) => {
  const p = new Parser({ file: "bench", qids: new Interner(), docids: "per-row", expectedBytes: bytes.length });
  for (let i = 0; i < bytes.length; i += 1 << 20) p.push(bytes.subarray(i, i + (1 << 20)));
  return p.finish().length;
};
const qrelsBytes = readFileSync(qrels);
const runBytes = readFileSync(run);
const bench = new Bench({ name: "parse", time: 0, iterations: 3, warmupIterations: 1 });
bench.add("qrels", () => parse(QrelsParser, qrelsBytes)).add("run", () => parse(RunParser, runBytes));
await bench.run();

// 2. The whole command, as a child process, with its peak memory (GNU time, where present).
const bin = join(root, "dist/node/bin.js");
const args = ["-m", "ndcg_cut.10", "-m", "map", "-m", "P.10", "-m", "recip_rank", "-m", "recall.100", qrels, run];
const haveTime = existsSync("/usr/bin/time");
/** Three runs of the command with `--threads n`, sorted by time. */
const timed = (threads) => {
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const argv = ["--threads", String(threads), ...args];
    const t = performance.now();
    const r = haveTime ? spawnSync("/usr/bin/time", ["-v", "node", bin, ...argv]) : spawnSync("node", [bin, ...argv]);
    const seconds = (performance.now() - t) / 1000;
    if (r.status !== 0) throw new Error(r.stderr.toString());
    const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr.toString());
    runs.push({ seconds, rssMB: rss ? Number(rss[1]) / 1024 : NaN, out: r.stdout.toString() });
  }
  return runs.sort((a, b) => a.seconds - b.seconds);
};
// One thread (everything in the main thread) and two (the run parsed by a worker thread meanwhile).
const byThreads = [1, 2].map((n) => ({ n, runs: timed(n), load: os.loadavg()[0] }));
if (byThreads[0].runs[1].out !== byThreads[1].runs[1].out) throw new Error("--threads 1 and 2 give different outputs");
const runs = byThreads[1].runs;

console.log(`\n${os.cpus()[0]?.model ?? "CPU"}, ${os.cpus().length} cores; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}`);
console.log(`qrels ${mb(qrels).toFixed(0)} MB, run ${mb(run).toFixed(0)} MB (${queries} queries x ${docs})\n`);
console.log("| step | median | throughput |\n|---|---:|---:|");
for (const task of bench.tasks) {
  const ms = task.result.latency.p50;
  const size = task.name === "qrels" ? mb(qrels) : mb(run);
  console.log(`| parse ${task.name} | ${(ms / 1000).toFixed(2)} s | ${(size / (ms / 1000)).toFixed(0)} MB/s |`);
}
const median = runs[1];
for (const { n, runs: r, load } of byThreads) {
  console.log(`| rankeval --threads ${n} ${args.slice(0, 10).join(" ")} (whole command) | ${r[1].seconds.toFixed(2)} s | ${((mb(qrels) + mb(run)) / r[1].seconds).toFixed(0)} MB/s, peak ${r[1].rssMB.toFixed(0)} MB (load ${load.toFixed(1)}) |`);
}
console.log(`\n${median.out}`);
