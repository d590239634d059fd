// npm run bench:columnar: the command line on a generated run as Parquet, at scale (100M rows by
// default), with its peak memory and its throughput per core; the figures from which the README
// extrapolates the machines for 10 billion rows in 10 minutes.
//   node bench/columnar.bench.mjs [ROWS] [DOCS_PER_QUERY] [THREADS...]   (default 100000000 100 1 2; seed 7)
// The data (written here, once, with hyparquet-writer, into the system's temporary directory):
// run.parquet, ROWS rows of (qid INT32, docid STRING, score DOUBLE), ROWS / DOCS_PER_QUERY queries of
// DOCS_PER_QUERY documents each, each query's rows together, nullable columns (as Spark and DuckDB
// write them), Snappy, row groups of 1M rows; qrels.parquet, 10 judgments a query (labels 0-3, some
// of documents the run does not rank). The machine, its load and the runtime are printed with the
// figures: other work on the machine slows them down.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";

const rows = Number(process.argv[2] ?? 100_000_000);
const docs = Number(process.argv[3] ?? 100);
const threads = process.argv.length > 4 ? process.argv.slice(4).map(Number) : [1, 2];
const queries = Math.ceil(rows / docs);
const root = new URL("..", import.meta.url).pathname;
const data = join(os.tmpdir(), `rankeval-columnar-${rows}-${docs}-7`);
const run = join(data, "run.parquet");
const qrels = join(data, "qrels.parquet");

/** A seeded generator (mulberry32). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Writes a Parquet file of `n` rows, `chunk(start, end)` giving the columns of rows [start, end). */
async function writeParquet(path, schema, n, chunk) {
  const { ParquetWriter, fileWriter } = await import("hyparquet-writer");
  const partial = `${path}.partial`;
  const writer = new ParquetWriter({ writer: fileWriter(partial), schema, statistics: false });
  const step = 1 << 20;
  for (let start = 0; start < n; start += step) {
    await writer.write({ columnData: chunk(start, Math.min(n, start + step)), rowGroupSize: step });
    if (start % (10 * step) === 0) process.stdout.write(`\r${path}: ${Math.round((100 * start) / n)}%`);
  }
  await writer.finish();
  renameSync(partial, path);
  process.stdout.write(`\r${path}: done      \n`);
}

if (!existsSync(run) || !existsSync(qrels)) {
  mkdirSync(data, { recursive: true });
  const t = performance.now();
  const rnd = random(7);
  const optional = (name, type, extra = {}) => ({ name, type, repetition_type: "OPTIONAL", ...extra });
  await writeParquet(
    run,
    [
      { name: "root", num_children: 3 },
      optional("qid", "INT32"),
      optional("docid", "BYTE_ARRAY", { converted_type: "UTF8" }),
      optional("score", "DOUBLE"),
    ],
    rows,
    (start, end) => {
      const qid = new Int32Array(end - start);
      const docid = new Array(end - start);
      const score = new Float64Array(end - start);
      for (let i = start; i < end; i++) {
        const q = Math.floor(i / docs);
        qid[i - start] = q;
        docid[i - start] = `D${q}-${i - q * docs}`;
        score[i - start] = Math.round(rnd() * 1e6) / 1e3;
      }
      return [
        { name: "qid", data: qid },
        { name: "docid", data: docid },
        { name: "score", data: score },
      ];
    },
  );
  const judged = 10;
  await writeParquet(
    qrels,
    [
      { name: "root", num_children: 3 },
      optional("qid", "INT32"),
      optional("docid", "BYTE_ARRAY", { converted_type: "UTF8" }),
      optional("rel", "INT32"),
    ],
    queries * judged,
    (start, end) => {
      const qid = new Int32Array(end - start);
      const docid = new Array(end - start);
      const rel = new Int32Array(end - start);
      for (let i = start; i < end; i++) {
        const q = Math.floor(i / judged);
        qid[i - start] = q;
        // Judged documents among the first docs + 5 (some the run does not rank), one each.
        docid[i - start] = `D${q}-${Math.floor(((i - q * judged) * (docs + 5)) / judged)}`;
        rel[i - start] = Math.floor(rnd() * rnd() * 4);
      }
      return [
        { name: "qid", data: qid },
        { name: "docid", data: docid },
        { name: "rel", data: rel },
      ];
    },
  );
  console.log(`generated in ${((performance.now() - t) / 1000).toFixed(0)} s`);
}

const bin = join(root, "dist/node/bin.js");
if (!existsSync(bin)) throw new Error("dist/ is not built: npm run bench:columnar builds it");
const args = ["-m", "ndcg_cut.10", "-m", "map", "-m", "P.10", "-m", "recip_rank", "-m", "recall.100", qrels, run];

/** The command as a child process under GNU time: wall and CPU seconds, peak memory, output. */
function measure(extra) {
  const r = spawnSync("/usr/bin/time", ["-v", process.execPath, bin, ...extra, ...args], { maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(r.stderr.toString());
  const err = r.stderr.toString();
  const field = (name) => Number(new RegExp(`${name}: ([\\d.:]+)`).exec(err)?.[1] ?? NaN);
  const wallText = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)/.exec(err)[1].split(":").map(Number);
  const wall = wallText.reduce((s, x) => s * 60 + x, 0);
  return {
    wall,
    cpu: field("User time \\(seconds\\)") + field("System time \\(seconds\\)"),
    rssMB: field("Maximum resident set size \\(kbytes\\)") / 1024,
    out: r.stdout.toString(),
  };
}

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
console.log(
  `\n${os.cpus()[0]?.model ?? "CPU"}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}; ${new Date().toISOString().slice(0, 16)}`,
);
console.log(
  `run.parquet ${(statSync(run).size / 1e6).toFixed(0)} MB (${rows.toLocaleString("en")} rows, ${queries.toLocaleString("en")} queries), qrels.parquet ${(statSync(qrels).size / 1e6).toFixed(0)} MB (${(queries * 10).toLocaleString("en")} judgments)\n`,
);
console.log(
  "| command | wall | CPU | rows/s | rows/s per CPU-second | peak memory | load before |\n|---|---:|---:|---:|---:|---:|---|",
);
const settings = threads.map((n) => ({ label: `--threads ${n}`, extra: ["--threads", String(n)] }));
let out = "";
for (const s of settings) {
  const before = load();
  const m = measure(s.extra);
  out ||= m.out;
  if (m.out !== out) throw new Error(`${s.label}: another output`);
  console.log(
    `| rankeval ${s.label} | ${m.wall.toFixed(1)} s | ${m.cpu.toFixed(1)} s | ${(rows / m.wall / 1e6).toFixed(2)}M | ${(rows / m.cpu / 1e6).toFixed(2)}M | ${m.rssMB.toFixed(0)} MB | ${before} |`,
  );
}
console.log(`\n${out}`);

// The merge of a cluster's shards, at this run's number of queries: the run's per-query results
// (--per-query-out) dealt into SHARDS Parquet files by a hash of qid, as SHARDS tasks would write
// them, then `rankeval --merge` (summaries only: it streams, a row group of each shard in memory).
const shards = 16;
const pqDir = join(data, `per-query-${shards}`);
if (!existsSync(join(pqDir, `shard-${shards - 1}.parquet`))) {
  const whole = join(data, "per-query.parquet");
  const r = spawnSync(process.execPath, [bin, "--per-query-out", whole, ...args], { maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(r.stderr.toString());
  const { readPerQueryBytes, writePerQuery } = await import(join(root, "dist/output/per-query-files.js"));
  const { readFileSync, writeFileSync } = await import("node:fs");
  const t = await readPerQueryBytes(readFileSync(whole), whole);
  mkdirSync(pqDir, { recursive: true });
  const bucketOf = (q) => {
    let h = 2166136261;
    for (let i = 0; i < q.length; i++) h = Math.imul(h ^ q.charCodeAt(i), 16777619);
    return (h >>> 0) % shards;
  };
  const rowsOf = Array.from({ length: shards }, () => []);
  t.qid.forEach((q, i) => rowsOf[bucketOf(q)].push(i));
  for (let b = 0; b < shards; b++) {
    const idx = rowsOf[b];
    const pick = (a) => idx.map((i) => a[i]);
    const numbers = Object.fromEntries(
      Object.entries(t.numbers).map(([k, v]) => [k, Float64Array.from(idx, (i) => v[i])]),
    );
    const strings = Object.fromEntries(Object.entries(t.strings).map(([k, v]) => [k, pick(v)]));
    const meta = {
      ...t.meta,
      runs: t.meta.runs.map((r) => ({ ...r, queries: idx.length, noRelevant: 0, notJudged: 0, notInRun: 0 })),
    };
    writeFileSync(
      join(pqDir, `shard-${b}.parquet`),
      await writePerQuery({ meta, run: pick(t.run), qid: pick(t.qid), numbers, strings }, "parquet"),
    );
  }
}
const merge = spawnSync(
  "/usr/bin/time",
  [
    "-v",
    process.execPath,
    bin,
    "--merge",
    ...Array.from({ length: shards }, (_, b) => join(pqDir, `shard-${b}.parquet`)),
  ],
  { maxBuffer: 1 << 26 },
);
if (merge.status !== 0) throw new Error(merge.stderr.toString());
const merr = merge.stderr.toString();
const mwall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)/
  .exec(merr)[1]
  .split(":")
  .map(Number)
  .reduce((s, x) => s * 60 + x, 0);
const mrss = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(merr)[1]) / 1024;
const same = merge.stdout.toString() === out;
console.log(
  `| rankeval --merge, ${shards} Parquet shards of ${queries.toLocaleString("en")} queries in all | ${mwall.toFixed(1)} s | | ${(queries / mwall / 1e6).toFixed(2)}M queries/s | | ${mrss.toFixed(0)} MB | ${load()} |`,
);
if (!same) throw new Error("the merge's output differs from one process's");
