// qrelsCompare() (issue 38's --qrels-compare) on 10 seeded runs of 10,000 queries x 100 documents (1M
// rows each) under two sets of 1M judgments, the second a perturbation of the first (60% of labels
// kept, the rest drawn again), as columns; ndcg_cut.10 and map. The call evaluates every run under
// each set (20 evaluations of 1M rows), correlates the systems' means and runs agreement once.
// Build first (npm run build), then:
//   node bench/qrels-compare.bench.mjs [QUERIES] [DOCUMENTS_PER_QUERY] [RUNS] [ROUNDS]
import os from "node:os";
import { random } from "./data.mjs";

// RANKEVAL_DIST: another build's dist/ (bench/judgments-versus.mjs runs main's beside this one).
const { qrelsCompare } = await import(process.env.RANKEVAL_DIST ? `${process.env.RANKEVAL_DIST}/index.js` : "rankeval");

const queries = Number(process.argv[2] ?? 10_000);
const perQuery = Number(process.argv[3] ?? 100);
const runCount = Number(process.argv[4] ?? 10);
const rounds = Number(process.argv[5] ?? 3);

const next = random(38);
const label = () => Math.min(3, Math.floor(-Math.log(1 - next()) * 0.9));
const n = queries * perQuery;
const qid = new Array(n);
const docid = new Array(n);
const relA = new Float64Array(n);
const relB = new Float64Array(n);
const truth = new Float64Array(n);
for (let q = 0, i = 0; q < queries; q++)
  for (let d = 0; d < perQuery; d++, i++) {
    qid[i] = `q${q}`;
    docid[i] = `d${d}`;
    truth[i] = relA[i] = label();
    relB[i] = next() < 0.6 ? relA[i] : label();
  }
const qrelsA = { qid, docid, rel: relA };
const qrelsB = { qid, docid, rel: relB };
// Run r: scores the true label plus noise, noisier for later runs (so the systems have an order).
const runs = {};
for (let r = 0; r < runCount; r++) {
  const score = new Float64Array(n);
  for (let i = 0; i < n; i++) score[i] = truth[i] + (1 + r / 2) * 2 * next();
  runs[`run${r}`] = { qid, docid, score };
}

console.log(
  `qrelsCompare: ${runCount} runs of ${n.toLocaleString("en")} rows, 2 sets of ${n.toLocaleString("en")} judgments, ` +
    `${queries.toLocaleString("en")} queries; ${os.cpus()[0]?.model ?? "?"} (${os.cpus().length} cores), ` +
    `Node ${process.version}, ${os.platform()} ${os.arch()}`,
);
const times = [];
// CPU time (user + system, this process): on a loaded machine the wall time is mostly waiting.
const cpus = [];
let result;
for (let r = 0; r < rounds; r++) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  result = qrelsCompare(qrelsA, qrelsB, runs, ["ndcg_cut.10", "map"]);
  times.push(performance.now() - start);
  const used = process.cpuUsage(cpu);
  cpus.push((used.user + used.system) / 1e6);
}
times.sort((x, y) => x - y);
cpus.sort((x, y) => x - y);
const median = times[rounds >> 1];
console.log(
  `  median ${(median / 1000).toFixed(2)} s of ${rounds} (min ${(times[0] / 1000).toFixed(2)}, max ${(times[rounds - 1] / 1000).toFixed(2)}), ` +
    `CPU ${cpus[rounds >> 1].toFixed(2)} s; issue 38's target: under 5 s`,
);
for (const m of result.measures) {
  const c = result.by_measure[m];
  console.log(
    `  ${m}: kendall_tau ${c.kendall_tau?.toFixed(4)}, tau_ap ${c.tau_ap?.toFixed(4)}, tau_ap_b ${c.tau_ap_b?.toFixed(4)}`,
  );
}
console.log(
  `  agreement: cohen_kappa ${result.agreement.cohen_kappa?.toFixed(4)}, shared ${result.agreement.pairs.shared}`,
);
