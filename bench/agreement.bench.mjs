// agreement() on two seeded sets of 1M judgments each over 10,000 queries (100 documents a query, 95%
// of them judged by both, labels 0-3, the second set copying the first's label 60% of the time), as
// `{ qid: { docid: label } }` objects and as columns. Build first (npm run build), then:
//   node bench/agreement.bench.mjs [QUERIES] [DOCUMENTS_PER_QUERY] [ROUNDS]
import os from "node:os";
import { random } from "./data.mjs";

// RANKEVAL_DIST: another build's dist/ (bench/judgments-versus.mjs runs main's beside this one).
const { agreement } = await import(process.env.RANKEVAL_DIST ? `${process.env.RANKEVAL_DIST}/index.js` : "rankeval");

const queries = Number(process.argv[2] ?? 10_000);
const perQuery = Number(process.argv[3] ?? 100);
const rounds = Number(process.argv[4] ?? 5);

const next = random(38);
const label = () => Math.min(3, Math.floor(-Math.log(1 - next()) * 0.9));
const objects = [{}, {}];
const columns = [0, 1].map(() => ({ qid: [], docid: [], rel: [] }));
for (let q = 0; q < queries; q++) {
  const qid = `q${q}`;
  const docs = [{}, {}];
  // Each set judges 100 documents; 5 of them the other set does not.
  for (let d = 0; d < perQuery + perQuery / 20; d++) {
    const truth = label();
    const docid = `d${d}`;
    const inA = d < perQuery;
    const inB = d >= perQuery / 20;
    const a = truth;
    const b = next() < 0.6 ? truth : label();
    for (const [s, v, judged] of [
      [0, a, inA],
      [1, b, inB],
    ]) {
      if (!judged) continue;
      docs[s][docid] = v;
      columns[s].qid.push(qid);
      columns[s].docid.push(docid);
      columns[s].rel.push(v);
    }
  }
  objects[0][qid] = docs[0];
  objects[1][qid] = docs[1];
}
for (const c of columns) c.rel = Float64Array.from(c.rel);

const judgments = columns[0].qid.length + columns[1].qid.length;
console.log(
  `agreement: 2 sets, ${judgments.toLocaleString("en")} judgments over ${queries.toLocaleString("en")} queries; ` +
    `${os.cpus()[0]?.model ?? "?"} (${os.cpus().length} cores), Node ${process.version}, ${os.platform()} ${os.arch()}`,
);
for (const [name, sets] of [
  ["objects", objects],
  ["columns", columns],
]) {
  const times = [];
  // CPU time (user + system, this process): on a loaded machine the wall time is mostly waiting.
  const cpus = [];
  let result;
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    result = agreement(sets);
    times.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
  }
  times.sort((x, y) => x - y);
  cpus.sort((x, y) => x - y);
  const median = times[rounds >> 1];
  console.log(
    `  ${name}: median ${median.toFixed(0)} ms of ${rounds} (min ${times[0].toFixed(0)}, max ${times[rounds - 1].toFixed(0)}), CPU ${cpus[rounds >> 1].toFixed(0)} ms; ` +
      `shared ${result.pairs.shared.toLocaleString("en")}, kappa ${result.cohen_kappa.toFixed(4)}, ` +
      `alpha (interval) ${result.krippendorff_alpha.interval.toFixed(4)}`,
  );
}
