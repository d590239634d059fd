// npm run bench:cli: the command line on the large generated set (10M run rows, 7.6M judgments,
// 490 MB of text), as a user runs it, plus the parsers' throughput on their own. Prints Markdown.
//   node bench/cli.bench.mjs [QUERIES] [DOCS_PER_QUERY]      (default 100000 100; seed 2)
//
// Parsing, from memory (the files read first), in 1 MiB chunks as the command line reads them:
//  - "the kernel's parse": assembly/parse.ts alone, per core, into columns already in memory (the
//    second pass of one parser over the same text: no first touch of fresh pages);
//  - "qrels, as the command line": a fresh parser, its columns sized from the file's size and faulted
//    in as they fill (what the main thread does before the first join);
//  - "run in blocks, as the command line's thread": RunBlockParser, blocks of 2^20 rows handed over
//    and their buffers given back, as the reader thread does.
// Then the whole command as a child process (GNU time's peak memory) with 1, 2, 4, ... threads up to the
// cores, and eight runs in one command (the same run file eight times: the judgments read once).
// Environment: RANKEVAL_CLI_BENCH_RUNS, rounds of each whole command (default 5; the median).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { Bench } from "tinybench";

const queries = process.argv[2] ?? "100000";
const docs = process.argv[3] ?? "100";
const ROUNDS = Number(process.env.RANKEVAL_CLI_BENCH_RUNS ?? 5);
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

// 1. Parsing alone, from memory, in 1 MiB chunks, as the command line reads files.
const { Interner, QrelsParser } = await import("rankeval/io");
const { RunBlockParser } = await import(join(root, "dist/pipeline/blocks.js"));
const { KernelRows } = await import(join(root, "dist/io/kernel-line-parser.js"));
const { LastId } = await import(join(root, "dist/io/last-id-cache.js"));
const CHUNK = 1 << 20;
const qrelsBytes = readFileSync(qrels);
const runBytes = readFileSync(run);
const fresh = (Parser, bytes) => {
  const p = new Parser({ file: "bench", qids: new Interner(), docids: "per-row", expectedBytes: bytes.length });
  for (let i = 0; i < bytes.length; i += CHUNK) p.push(bytes.subarray(i, i + CHUNK));
  return p.finish().length;
};
const inBlocks = (bytes) => {
  let spare;
  const p = new RunBlockParser(
    "bench",
    new Interner(),
    (rows) => (spare = rows.score.buffer),
    1 << 20,
    () => {
      const s = spare;
      spare = undefined;
      return s;
    },
  );
  for (let i = 0; i < bytes.length; i += CHUNK) p.push(bytes.subarray(i, i + CHUNK));
  p.finish();
};
/** The kernel's parse over columns already touched (the same parser's second pass over the text). */
const warm = (bytes, isRun) => {
  const rows = new KernelRows(bytes.length);
  const host = {
    line: 1,
    lastQid: new LastId(new Interner()),
    slowLine: () => {
      throw new Error("a line for the parser's own code");
    },
    tag() {},
  };
  const pass = () => {
    rows.count = rows.used = 0;
    host.line = 1;
    for (let start = 0; start < bytes.length; ) {
      let end = Math.min(start + CHUNK, bytes.length);
      end = bytes.lastIndexOf(10, end - 1) + 1;
      rows.parseLines(isRun ? "run" : "qrels", host, bytes, start, end);
      start = end;
    }
  };
  pass();
  return pass;
};
const warmQrels = warm(qrelsBytes, false);
const warmRun = warm(runBytes, true);
const bench = new Bench({ name: "parse", time: 0, iterations: 5, warmupIterations: 1 });
bench
  .add("qrels: the kernel's parse", warmQrels)
  .add("run: the kernel's parse", warmRun)
  .add("qrels, as the command line (fresh columns)", () => fresh(QrelsParser, qrelsBytes))
  .add("run in blocks, as the command line's thread", () => inBlocks(runBytes));
await bench.run();

// 2. The whole command, as a child process, with its peak memory (GNU time, where present).
const bin = join(root, "dist/node/bin.js");
const measures = ["-m", "ndcg_cut.10", "-m", "map", "-m", "P.10", "-m", "recip_rank", "-m", "recall.100"];
const haveTime = existsSync("/usr/bin/time");
/** The command on these files, ROUNDS times, with `--threads n` where given: the median round. */
function command(files, threads) {
  const args = [...(threads ? ["--threads", String(threads)] : []), ...measures, ...files];
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    const r = haveTime
      ? spawnSync("/usr/bin/time", ["-v", "node", bin, ...args], { maxBuffer: 1 << 26 })
      : spawnSync("node", [bin, ...args], { maxBuffer: 1 << 26 });
    const seconds = (performance.now() - t) / 1000;
    if (r.status !== 0) throw new Error(r.stderr.toString());
    const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr.toString());
    rounds.push({ seconds, rssMB: rss ? Number(rss[1]) / 1024 : NaN, out: r.stdout.toString() });
  }
  rounds.sort((a, b) => a.seconds - b.seconds);
  return rounds[Math.floor(rounds.length / 2)];
}
const load = () => os.loadavg()[0].toFixed(1);
const loadBefore = load();
// The whole command with 1, 2, 4, 8, ... threads up to the cores: 1, everything in the main thread; 2
// and 3, a thread reading the run while the main thread joins and evaluates; from 4, every thread
// reading, joining and evaluating the queries that hash to it (src/node/partitioned.ts).
const cores = os.availableParallelism();
const counts = [...new Set([1, 2, 4, 8, 16, 32, 64].filter((n) => n < cores).concat(cores))];
const byThreads = counts.map((n) => [n, command([qrels, run], n)]);
for (const [n, r] of byThreads)
  if (r.out !== byThreads[0][1].out) throw new Error(`--threads 1 and ${n} give different outputs`);
const eight = command([qrels, ...Array(8).fill(run)]);
const single = byThreads[0][1];

console.log(
  `\n${os.cpus()[0]?.model ?? "CPU"}, ${cores} cores; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}; load ${loadBefore} -> ${load()}`,
);
console.log(`qrels ${mb(qrels).toFixed(0)} MB, run ${mb(run).toFixed(0)} MB (${queries} queries x ${docs})\n`);
console.log("| step | median | throughput |\n|---|---:|---:|");
for (const task of bench.tasks) {
  const ms = task.result.latency.p50;
  const size = task.name.startsWith("qrels") ? mb(qrels) : mb(run);
  console.log(`| parse ${task.name} | ${(ms / 1000).toFixed(2)} s | ${(size / (ms / 1000)).toFixed(0)} MB/s |`);
}
for (const [n, r] of byThreads)
  console.log(
    `| rankeval --threads ${n} ${measures.join(" ")} qrels run (whole command) | ${r.seconds.toFixed(2)} s | ${(single.seconds / r.seconds).toFixed(2)}x one thread; ${((mb(qrels) + mb(run)) / r.seconds).toFixed(0)} MB/s, peak ${r.rssMB.toFixed(0)} MB |`,
  );
console.log(
  `| the same with the run given 8 times (${cores} threads) | ${eight.seconds.toFixed(2)} s | ${(eight.seconds / byThreads[byThreads.length - 1][1].seconds).toFixed(2)}x one run, peak ${eight.rssMB.toFixed(0)} MB |`,
);
console.log(`\n${single.out}`);
