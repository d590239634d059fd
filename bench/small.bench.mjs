// npm run bench:small: small inputs and many runs, each beside its baseline, measured side by side in
// one run (the machine may be shared: ratios, not absolute times, are the figures to compare).
//   - one small evaluation (the bundled example: 20 queries) against bare Node (`node -e 0`) and trec_eval;
//   - 200 runs of 20 queries in one command against trec_eval in a shell loop over the same runs;
//   - 1,000 runs in one command: time per run and peak memory, trec text against a table;
//   - each run's fixed costs, in process (read, parse, join, evaluate, trec text);
//   - the library: evaluate() and evaluateRun() on 200 rows against a 15-line nDCG@10.
// Whole commands run as child processes, interleaved, several times: medians of wall time; peak memory
// from /usr/bin/time where present. trec_eval is built from ../shared (tools/build-trec-eval.sh), or
// taken from $TREC_EVAL; without it its rows are skipped, with a message.
//   node bench/small.bench.mjs [REPEATS]      (default 15)
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { smallCallsTable } from "./small-calls.mjs";

const repeats = Number(process.argv[2] ?? 15);
const root = new URL("..", import.meta.url).pathname;
// The installed command (package.json bin).
const bin = join(root, "dist/node/bin.cjs");
const tmp = mkdtempSync(join(os.tmpdir(), "rankeval-small-"));
process.on("exit", () => rmSync(tmp, { recursive: true, force: true }));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const loadBefore = load();

// The data: the bundled example's judgments and run, and copies of the run.
const qrels = join(tmp, "qrels.txt");
copyFileSync(join(root, "examples/qrels.txt"), qrels);
const example = join(root, "examples/bm25.run");
const copies = (n) => {
  const dir = join(tmp, `runs-${n}`);
  mkdirSync(dir);
  const files = [];
  for (let i = 1; i <= n; i++) {
    const f = join(dir, `r${String(i).padStart(4, "0")}.run`);
    copyFileSync(example, f);
    files.push(f);
  }
  return { dir, files };
};
const runs200 = copies(200);
const runs1000 = copies(1000);

// trec_eval: $TREC_EVAL, else built from ../shared.
function trecEval() {
  if (process.env.TREC_EVAL)
    return existsSync(process.env.TREC_EVAL)
      ? { path: process.env.TREC_EVAL }
      : { why: `$TREC_EVAL (${process.env.TREC_EVAL}) does not exist` };
  const script = join(root, "../shared/tools/build-trec-eval.sh");
  if (!existsSync(script)) return { why: `${script} is absent (it lives in ../shared)` };
  try {
    return {
      path: execFileSync("bash", [script, join(os.tmpdir(), "rankeval-bench-trec_eval")], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      }).trim(),
    };
  } catch (e) {
    return {
      why: `it did not build (${String(e.stderr ?? e.message)
        .trim()
        .split("\n")
        .pop()})`,
    };
  }
}
const te = trecEval();
if (!te.path) console.log(`trec_eval skipped: ${te.why}\n`);

const haveTime = existsSync("/usr/bin/time");
/** One run of a command: wall ms (and peak memory in MB, where /usr/bin/time is). Output discarded. */
function once(argv) {
  const t = performance.now();
  const r = haveTime
    ? spawnSync("/usr/bin/time", ["-f", "%M", ...argv], { stdio: ["ignore", "ignore", "pipe"] })
    : spawnSync(argv[0], argv.slice(1), { stdio: ["ignore", "ignore", "pipe"] });
  const ms = performance.now() - t;
  const err = r.stderr.toString();
  if (r.status !== 0) throw new Error(`${argv.slice(0, 4).join(" ")} ...: exit ${r.status}: ${err}`);
  const rss = haveTime ? Number(err.trim().split("\n").pop()) / 1024 : NaN;
  return { ms, rss };
}
/** Commands run in turn, `n` rounds: the median wall time and peak memory of each. */
function sideBySide(commands, n = repeats) {
  const samples = commands.map(() => []);
  for (let i = 0; i < n; i++) commands.forEach((c, j) => samples[j].push(once(c.argv)));
  return commands.map((c, j) => {
    const ms = samples[j].map((s) => s.ms).sort((a, b) => a - b);
    const rss = samples[j].map((s) => s.rss).sort((a, b) => a - b);
    return { ...c, ms: ms[ms.length >> 1], rss: rss[rss.length >> 1] };
  });
}
const shellLoop = (tool, files) => [
  "bash",
  "-c",
  `for f in "$@"; do ${tool} ${qrels} "$f"; done > /dev/null`,
  "loop",
  ...files,
];
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const row = (...cells) => `| ${cells.join(" | ")} |`;

// 1. One small evaluation.
const single = sideBySide([
  { name: "`node -e 0` (bare Node)", argv: ["node", "-e", "0"] },
  { name: "`rankeval qrels.txt bm25.run` (20 queries)", argv: ["node", bin, qrels, example] },
  ...(te.path ? [{ name: "`trec_eval qrels.txt bm25.run`", argv: [te.path, qrels, example] }] : []),
]);
// 2. 200 runs.
const many = sideBySide(
  [
    { name: "`rankeval QRELS r0001.run ... r0200.run` (one command)", argv: ["node", bin, qrels, ...runs200.files] },
    ...(te.path
      ? [{ name: "`for f in r*.run; do trec_eval QRELS $f; done`", argv: shellLoop(te.path, runs200.files) }]
      : []),
  ],
  Math.max(3, Math.ceil(repeats / 2)),
);
// 3. 1,000 runs (the 200 beside them for the time per run), trec text and a table.
const thousand = sideBySide(
  [
    { name: "200 runs, trec text", argv: ["node", bin, qrels, ...runs200.files], runs: 200 },
    { name: "1,000 runs, trec text", argv: ["node", bin, qrels, ...runs1000.files], runs: 1000 },
    { name: "1,000 runs, a directory (`rankeval QRELS runs/`)", argv: ["node", bin, qrels, runs1000.dir], runs: 1000 },
    {
      name: "200 runs, `--format table`",
      argv: ["node", bin, "--format", "table", qrels, ...runs200.files],
      runs: 200,
    },
    {
      name: "1,000 runs, `--format table`",
      argv: ["node", bin, "--format", "table", qrels, ...runs1000.files],
      runs: 1000,
    },
    {
      name: "1,000 runs, `--format json -q` (every query's values)",
      argv: ["node", bin, "--format", "json", "-q", qrels, ...runs1000.files],
      runs: 1000,
    },
  ],
  3,
);

// 4. A run's fixed costs, in process, over the 200 runs (warm): where the time of a small run goes.
const phases = await runPhases(runs200.files);

const loadAfter = load();
console.log(
  `${os.cpus()[0]?.model ?? "CPU"}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 1024 ** 3)} GiB; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}; load average ${loadBefore} before, ${loadAfter} after; medians of ${repeats} rounds (3 for 1,000 runs)\n`,
);

const bare = single[0].ms;
console.log("One small evaluation (the whole command, as a child process):\n");
console.log(row("command", "median", "vs bare Node", "target"));
console.log(row("---", "---:", "---:", "---"));
single.forEach((c, i) => console.log(row(c.name, fmt(c.ms), `${(c.ms / bare).toFixed(2)}x`, i === 1 ? "<= 1.5x" : "")));

console.log("\nMany runs of 20 queries:\n");
console.log(row("command", "median", "per run", "vs trec_eval's loop", "target"));
console.log(row("---", "---:", "---:", "---:", "---"));
const loop = many[1]?.ms;
many.forEach((c, i) =>
  console.log(
    row(
      c.name,
      fmt(c.ms),
      `${(c.ms / 200).toFixed(2)} ms`,
      loop ? `${(c.ms / loop).toFixed(2)}x` : "n/a",
      i === 0 ? "< 1x" : "",
    ),
  ),
);

console.log(
  "\n1,000 runs in one command (peak memory: the runs in flight for trec text; every run's values for a table or JSON):\n",
);
console.log(row("command", "median", "per run", "peak memory"));
console.log(row("---", "---:", "---:", "---:"));
for (const c of thousand)
  console.log(
    row(c.name, fmt(c.ms), `${(c.ms / c.runs).toFixed(2)} ms`, Number.isNaN(c.rss) ? "n/a" : `${c.rss.toFixed(0)} MB`),
  );
// Linear: each run added costs about the same. The first runs cost more (code not yet optimized), so
// a run added past 200 costs less than one of the first 200; never more.
const first = (i) => (thousand[i].ms - single[1].ms) / 199;
const added = (i, j) => (thousand[j].ms - thousand[i].ms) / 800;
console.log(
  `\nCost of a run added (linear: the same or less as runs are added): trec text ${first(0).toFixed(2)} ms per run of the first 200, ${added(0, 1).toFixed(2)} ms per run from 200 to 1,000; table ${first(3).toFixed(2)} and ${added(3, 4).toFixed(2)} ms`,
);

console.log("\nA small run's fixed costs in process (the 200 runs, warm; ms per run):\n");
console.log(row("step", "ms per run"));
console.log(row("---", "---:"));
for (const [name, ms] of phases) console.log(row(name, ms.toFixed(3)));

console.log(`\nThe library (in process):\n\n${smallCallsTable()}`);

/**
 * The steps of each run as the command line takes them, timed apart over `files` after a warm-up
 * round: the file read, its parse, the join to the judgments, the evaluation (kernel, trec_eval's
 * extra lines), and trec_eval's text.
 */
async function runPhases(files) {
  const { Interner } = await import(join(root, "dist/io/interner.js"));
  const { readJudgments } = await import(join(root, "dist/node/files.js"));
  const { inputInfo } = await import(join(root, "dist/node/file-read.js"));
  const { RunBlockParser, RunBlocks } = await import(join(root, "dist/pipeline/blocks.js"));
  const { evaluateBlock } = await import(join(root, "dist/app/evaluate-block.js"));
  const { mergeBlocks } = await import(join(root, "dist/pipeline/merge.js"));
  const { options, plan } = await import(join(root, "dist/app/plan.js"));
  const { trecText } = await import(join(root, "dist/output/results.js"));
  const judgments = await readJudgments(qrels, new Interner(), {});
  const p = plan([], null, {});
  const opts = options({}, true);
  const totals = { read: 0, parse: 0, join: 0, evaluate: 0, text: 0 };
  const round = (count) => {
    for (const file of files) {
      let t = performance.now();
      const info = inputInfo(file, true);
      const t1 = performance.now();
      const parts = [];
      let joinMs = 0;
      let evalMs = 0;
      let tag = "";
      const blocks = new RunBlocks(
        judgments,
        file,
        (joined) => {
          const e0 = performance.now();
          parts.push(
            evaluateBlock(p, joined.batch, joined.qids, opts, file, () => {}, joined.placeholders, {
              summaries: false,
            }),
          );
          evalMs += performance.now() - e0;
        },
        true,
      );
      const parser = new RunBlockParser(file, judgments.qrels.qidNames, (rows) => {
        const j0 = performance.now();
        blocks.add(rows);
        joinMs += performance.now() - j0;
      });
      parser.push(info.bytes);
      tag = parser.finish();
      const s = blocks.finish(tag);
      const evaluated = mergeBlocks(parts, s.notJudged, s.notInRunQids.length);
      const t2 = performance.now();
      trecText(p, { file, runTag: s.runTag, ...evaluated }, { perQuery: false });
      const t3 = performance.now();
      if (count) {
        totals.read += t1 - t;
        totals.parse += t2 - t1 - joinMs;
        totals.join += joinMs - evalMs;
        totals.evaluate += evalMs;
        totals.text += t3 - t2;
      }
      t = t3;
    }
  };
  round(false);
  round(true);
  const n = files.length;
  return [
    ["read the file (stat, open, read, close)", totals.read / n],
    ["parse it (RunBlockParser)", totals.parse / n],
    ["join it to the judgments (RunBlocks, pipeline/join-rows.ts)", totals.join / n],
    ["evaluate (kernel, means, trec_eval's extra lines)", totals.evaluate / n],
    ["trec_eval's text", totals.text / n],
    ["total", Object.values(totals).reduce((a, b) => a + b, 0) / n],
  ];
}
