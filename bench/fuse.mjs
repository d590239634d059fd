// npm run bench:fuse: `rankeval --fuse` against ranx on the same two TREC runs (issue 27): the large
// generated set's run and a re-scored copy, fused with RRF and with min-max + wsum, read and written as
// TREC text (ranx: Run.from_file, fuse, save: bench/fuse-ranx.py through ../shared/tools/ranx-python.sh).
// Prints Markdown, and the largest difference between the two fused runs' scores.
//   node bench/fuse.mjs [QUERIES] [DOCS_PER_QUERY]      (default 100000 100: 10M rows a run; seed 2)
// Environment: RANKEVAL_FUSE_BENCH_RUNS, rounds of each rankeval command (default 3; the median);
// RANKEVAL_FUSE_BENCH_RANX=0 leaves ranx out (it takes minutes a million rows).
import { execFileSync, spawnSync } from "node:child_process";
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

const queries = process.argv[2] ?? "100000";
const docs = process.argv[3] ?? "100";
const ROUNDS = Number(process.env.RANKEVAL_FUSE_BENCH_RUNS ?? 3);
const RANX = process.env.RANKEVAL_FUSE_BENCH_RANX !== "0";
const root = new URL("..", import.meta.url).pathname;
const shared = join(root, "../shared");
const generator = join(shared, "tools/gen-trec.mjs");
const ranxPython = join(shared, "tools/ranx-python.sh");
if (!existsSync(generator)) {
  console.log(`skipped: ${generator} is absent (it lives in ../shared)`);
  process.exit(0);
}
// The generated set of bench/cli.bench.mjs (the same directory: made once for both).
const data = join(os.tmpdir(), `rankeval-bench-${queries}-${docs}-2`);
const run = join(data, "run.txt");
const rescored = join(data, "run-rescored.txt");
if (!existsSync(run)) {
  mkdirSync(data, { recursive: true });
  console.log(`generating ${data} ...`);
  execFileSync("node", [generator, data, queries, docs, "2"], { stdio: "inherit" });
}
if (!existsSync(rescored)) await rescore(run, rescored);

/**
 * The run's lines with new scores (half the old one plus a uniform draw of a fixed xorshift64* stream,
 * to 3 decimals, so ties remain) and the tag "rescored": a second system that agrees with the first in
 * part, its lines in the same order (ranks are not read: scores order a ranking).
 */
async function rescore(from, to) {
  let s = 7n;
  const rnd = () => {
    s ^= s >> 12n;
    s ^= (s << 25n) & 0xffffffffffffffffn;
    s ^= s >> 27n;
    return Number(((s * 2685821657736338717n) & 0xffffffffffffffffn) >> 11n) / 2 ** 53;
  };
  const out = createWriteStream(`${to}.part`, { highWaterMark: 1 << 20 });
  let lines = [];
  const flush = () => new Promise((done) => (out.write(lines.join("")) ? done() : out.once("drain", done)));
  for await (const line of createInterface({ input: createReadStream(from), crlfDelay: Infinity })) {
    const f = line.split(" ");
    f[4] = String(Math.round((Number(f[4]) * 0.5 + rnd()) * 1000) / 1000);
    f[5] = "rescored";
    lines.push(`${f.join(" ")}\n`);
    if (lines.length === 20_000) {
      await flush();
      lines = [];
    }
  }
  await flush();
  await new Promise((done) => out.end(done));
  renameSync(`${to}.part`, to);
}

const bin = join(root, "dist/node/bin.js");
const haveTime = existsSync("/usr/bin/time");
/**
 * A command's wall seconds, and with GNU time (where present) its CPU seconds (user + system, every
 * thread: on a loaded machine the fairer figure) and peak memory.
 */
function timed(command, args) {
  const t = performance.now();
  const r = haveTime ? spawnSync("/usr/bin/time", ["-v", command, ...args]) : spawnSync(command, args);
  const seconds = (performance.now() - t) / 1000;
  const err = r.stderr.toString();
  const field = (name) => Number(err.match(new RegExp(`${name}: ([\\d.]+)`))?.[1] ?? Number.NaN);
  const cpu = field("User time \\(seconds\\)") + field("System time \\(seconds\\)");
  return { r, seconds, cpu, rssMB: field("Maximum resident set size \\(kbytes\\)") / 1024 };
}

/** `rankeval ARGS`, ROUNDS times: the median round. */
function rankeval(args) {
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = timed("node", [bin, ...args]);
    if (t.r.status !== 0) throw new Error(`rankeval ${args.join(" ")}: ${t.r.stderr.toString()}`);
    rounds.push(t);
  }
  rounds.sort((a, b) => a.seconds - b.seconds);
  return rounds[Math.floor(rounds.length / 2)];
}

/** ranx's load, fuse and save (bench/fuse-ranx.py), once; null where ranx cannot be run here. */
function ranx(out, method, norm) {
  if (!RANX || !existsSync(ranxPython)) return null;
  const t = timed(ranxPython, [join(root, "bench/fuse-ranx.py"), run, rescored, out, method, norm]);
  if (t.r.status !== 0) {
    console.log(`ranx left out: ${t.r.stderr.toString().trim().split("\n").at(-1)}`);
    return null;
  }
  // CPU: the script's own count over load, fuse and save (the process's counts numba's warm-up too).
  return JSON.parse(t.r.stdout.toString().trim().split("\n").at(-1));
}

/** Each query's lines of a TREC run file, in file order (both writers group a query's lines). */
async function* queriesOf(file) {
  let qid = null;
  let scores = new Map();
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    const f = line.split(/\s+/);
    if (f[0] !== qid) {
      if (qid !== null) yield [qid, scores];
      qid = f[0];
      scores = new Map();
    }
    scores.set(f[2], Number(f[4]));
  }
  if (qid !== null) yield [qid, scores];
}

/** The largest difference between two fused runs' scores of a document, and whether they hold the same documents. */
async function difference(a, b) {
  const ours = new Map();
  for await (const [qid, scores] of queriesOf(a)) ours.set(qid, scores);
  let most = 0;
  let same = true;
  let queries = 0;
  for await (const [qid, scores] of queriesOf(b)) {
    queries++;
    const mine = ours.get(qid);
    if (!mine || mine.size !== scores.size) same = false;
    else for (const [d, s] of scores) most = Math.max(most, Math.abs((mine.get(d) ?? Number.NaN) - s) || 0);
    if (mine) for (const [d] of mine) if (!scores.has(d)) same = false;
  }
  return { most, same: same && queries === ours.size };
}

const load = () => os.loadavg()[0].toFixed(1);
const loadBefore = load();
const cases = [
  { name: "RRF (k 60)", method: "rrf", norm: "min-max", args: ["--fuse", "rrf"] },
  {
    name: "min-max + wsum (0.5, 0.5)",
    method: "wsum",
    norm: "min-max",
    args: ["--fuse", "wsum", "--weights", "0.5,0.5"],
  },
];
const rows = [];
for (const c of cases) {
  const ours = join(data, `fused-${c.method}.rankeval.txt`);
  const theirs = join(data, `fused-${c.method}.ranx.txt`);
  const r = rankeval([...c.args, "--norm", c.norm, "--output", ours, run, rescored]);
  const x = ranx(theirs, c.method, c.norm);
  const diff = x ? await difference(ours, theirs) : null;
  rows.push({ ...c, r, x, diff });
}

const mb = (f) => statSync(f).size / 1e6;
const python = spawnSync("/usr/bin/python3", ["--version"]).stdout?.toString().trim() ?? "";
console.log(
  `\n${os.cpus()[0]?.model ?? "CPU"}, ${os.availableParallelism()} cores; Node ${process.version}; ${python}, ranx 0.3.20; ${new Date().toISOString().slice(0, 10)}; load ${loadBefore} -> ${load()}`,
);
console.log(
  `two runs of ${queries} queries x ${docs} (${mb(run).toFixed(0)} MB and ${mb(rescored).toFixed(0)} MB of TREC text); rankeval: the median of ${ROUNDS}\n`,
);
console.log(
  "| fusion | rankeval --fuse: wall s (CPU s) | peak MB | ranx load + fuse + save: wall s (CPU s) | ranx / rankeval: wall (CPU) | largest score difference |",
);
console.log("|---|---:|---:|---:|---:|---:|");
const s = (x) => x.toFixed(2);
for (const { name, r, x, diff } of rows) {
  const ranxText = x ? `${s(x.total)} = ${s(x.load)} + ${s(x.fuse)} + ${s(x.save)} (${s(x.cpu)})` : "-";
  const ratio = x ? `${(x.total / r.seconds).toFixed(1)}x (${(x.cpu / r.cpu).toFixed(1)}x)` : "-";
  const d = diff ? (diff.same ? diff.most.toExponential(1) : "different documents") : "-";
  console.log(
    `| ${name} | ${s(r.seconds)} (${s(r.cpu)}) | ${Number.isNaN(r.rssMB) ? "-" : r.rssMB.toFixed(0)} | ${ranxText} | ${ratio} | ${d} |`,
  );
}
