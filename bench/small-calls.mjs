// The library on a small evaluation, as a training loop calls it every epoch: evaluate() on 200 rows
// with three measures, and evaluateRun() on the same rows as { qid: { docid: value } }, against the
// 15-line JavaScript nDCG@10 anyone would write instead, over the same rows. Shared by
// bench/kernel.bench.mjs (npm run bench) and bench/small.bench.mjs (npm run bench:small).
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { evaluate, evaluateRun } from "rankeval";
import { random } from "./data.mjs";

// RANKEVAL_SMALL_BASELINE=DIR: another build (DIR/dist/index.js: a previous release's checkout, built)
// timed beside this one, round by round, and the ratios printed.
const baselineDir = process.env.RANKEVAL_SMALL_BASELINE;
const baseline = baselineDir ? await import(pathToFileURL(join(resolve(baselineDir), "dist/index.js")).href) : null;

/** 10 queries of 20 documents, graded labels 0-3 (most 0), scores with ties. */
export function smallRows(seed = 3) {
  const next = random(seed);
  const qid = [];
  const docid = [];
  const score = [];
  const rel = [];
  for (let q = 0; q < 10; q++) {
    for (let d = 0; d < 20; d++) {
      qid.push(`q${q}`);
      docid.push(`d${d}`);
      const label = Math.max(0, Math.floor(next() * 6) - 2);
      rel.push(label);
      score.push(Math.round((label + next() * 3) * 100) / 100);
    }
  }
  const qrels = {};
  const run = {};
  for (let i = 0; i < qid.length; i++) {
    (qrels[qid[i]] ??= {})[docid[i]] = rel[i];
    (run[qid[i]] ??= {})[docid[i]] = score[i];
  }
  return { rows: { qid, score, rel }, qrels, run };
}

/** nDCG@10 as written by hand: exponential gain, log2 discount, the ideal ranking from the rows' labels. */
export function naiveNdcg10(rows) {
  const byQuery = new Map();
  for (let i = 0; i < rows.qid.length; i++) {
    let a = byQuery.get(rows.qid[i]);
    if (!a) byQuery.set(rows.qid[i], (a = []));
    a.push(i);
  }
  let sum = 0;
  for (const idx of byQuery.values()) {
    const ranked = [...idx].sort((a, b) => rows.score[b] - rows.score[a]);
    const ideal = idx.map((i) => rows.rel[i]).sort((a, b) => b - a);
    let dcg = 0;
    let idcg = 0;
    for (let r = 0; r < Math.min(10, idx.length); r++) {
      dcg += (2 ** rows.rel[ranked[r]] - 1) / Math.log2(r + 2);
      idcg += (2 ** ideal[r] - 1) / Math.log2(r + 2);
    }
    sum += idcg > 0 ? dcg / idcg : 0;
  }
  return sum / byQuery.size;
}

/** Microseconds per call: the median of `rounds` rounds of `calls` calls, after a warm-up. */
function perCall(f, calls = 2000, rounds = 15) {
  for (let i = 0; i < calls; i++) f();
  const times = [];
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    for (let i = 0; i < calls; i++) f();
    times.push(((performance.now() - t) / calls) * 1000);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

/**
 * The three timed side by side (rounds alternate between them, so that a busy machine slows all
 * alike). Checks first that evaluate's nDCG@10 (gain exp) is the naive one's.
 */
export function smallCalls() {
  const { rows, qrels, run } = smallRows();
  const measures = ["ndcg@10", "map", "mrr"];
  const ours = evaluate(rows, ["ndcg@10"], { gain: "exp", ties: "input" }).mean["ndcg@10"];
  const naive = naiveNdcg10(rows);
  if (Math.abs(ours - naive) > 1e-12) throw new Error(`nDCG@10 differs: ${ours} vs ${naive}`);
  const tasks = [
    ["a 15-line JavaScript nDCG@10 (one measure)", () => naiveNdcg10(rows)],
    ["evaluate(rows, [ndcg@10, map, mrr])", () => evaluate(rows, measures)],
    [
      "evaluateRun(qrels, run, [ndcg@10, map, mrr]) on { qid: { docid: value } }",
      () => evaluateRun(qrels, run, measures),
    ],
  ];
  if (baseline)
    tasks.push(
      [`evaluate, ${baselineDir}'s build`, () => baseline.evaluate(rows, measures)],
      [`evaluateRun, ${baselineDir}'s build`, () => baseline.evaluateRun(qrels, run, measures)],
    );
  // 11 rounds: on a shared machine (load 10 on 2 cores) 5 gave ratios from 0.5x to 1x run to run.
  const samples = tasks.map(() => []);
  for (let round = 0; round < 11; round++) tasks.forEach(([, f], i) => samples[i].push(perCall(f, 2000, 3)));
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return tasks.map(([name], i) => ({
    name,
    us: median(samples[i]),
    // Each round's time over the baseline's in the same round: what the load slowed, it slowed alike.
    ratio: i >= 3 ? undefined : (j) => median(samples[i].map((t, r) => t / samples[j][r])),
  }));
}

/** The comparison as Markdown lines. */
export function smallCallsTable(results = smallCalls()) {
  const base = results[0].us;
  const lines = [
    "| call (200 rows: 10 queries x 20 documents) | us per call | vs the naive nDCG@10 | target |",
    "|---|---:|---:|---|",
  ];
  const targets = ["", "<= 1x", "<= 2x"];
  results.forEach((r, i) =>
    lines.push(`| ${r.name} | ${r.us.toFixed(1)} | ${(r.us / base).toFixed(2)}x | ${targets[i] ?? ""} |`),
  );
  if (results.length === 5)
    lines.push(
      "",
      `This build against ${baselineDir}'s: evaluate ${(results[1].us / results[3].us).toFixed(2)}x, evaluateRun ${(results[2].us / results[4].us).toFixed(2)}x (target <= 1x); the median of the rounds' ratios: evaluate ${results[1].ratio(3).toFixed(2)}x, evaluateRun ${results[2].ratio(4).toFixed(2)}x.`,
    );
  return lines.join("\n");
}
