// A cluster, simulated: a real engine (DuckDB, `COPY ... (PARTITION_BY (bucket))`: the layout Spark's
// partitionBy writes) writes the judgments and two runs as Hive-partitioned Parquet datasets with 8
// buckets of hash(qid); each bucket is evaluated by its own process (the built command line, as a
// task of a job array would run it, all at once), each writing --per-query-out; the shards are
// merged; the merged report is byte for byte what one process prints on the whole text files, and
// on the whole datasets. The data is generated here (seeded), so the test needs nothing beside the
// repository.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { duck } from "./_data.js";

const bin = new URL("../../dist/node/bin.js", import.meta.url).pathname;
const built = existsSync(bin);
if (!built) console.warn("test/columnar/cluster.test.ts: skipped: dist/ is not built (npm test builds it)");

/** A seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Judgments and two runs: 400 queries, 1 to 60 documents ranked each, graded labels 0-3 (some
 * negative: judged but unjudgeable), scores with ties (to 2 decimals), some judged queries the runs
 * lack and some run queries without judgments.
 */
function generate(): { qrels: string; a: string; b: string } {
  const rnd = random(13);
  const qrels: string[] = [];
  const runs: string[][] = [[], []];
  for (let q = 0; q < 400; q++) {
    const qid = `q${q}`;
    const docs = 1 + Math.floor(rnd() * 60);
    if (q % 37 !== 5)
      for (let d = 0; d < docs + 10; d++)
        if (rnd() < 0.6) qrels.push(`${qid} 0 doc${q}-${d} ${rnd() < 0.05 ? -1 : Math.floor(rnd() * rnd() * 4)}`);
    runs.forEach((lines, k) => {
      if (q % 53 === 7 + k) return;
      // `docs` distinct documents of the query's docs + 20 (the judged ones among them).
      const pool = Array.from({ length: docs + 20 }, (_, i) => i);
      for (let i = pool.length - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [pool[i], pool[j]] = [pool[j], pool[i]];
      }
      for (let d = 0; d < docs; d++)
        lines.push(
          `${qid} Q0 doc${q}-${pool[d]} ${d + 1} ${(Math.round(rnd() * 100) / 100).toFixed(2)} run${k ? "B" : "A"}`,
        );
    });
  }
  const text = (lines: string[]) => `${lines.join("\n")}\n`;
  return { qrels: text(qrels), a: text(runs[0]), b: text(runs[1]) };
}

/** The built command line in `cwd`; resolves with its status and output. */
function rankeval(cwd: string, ...args: string[]): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    // Bounded: a child that loops is killed (status null) rather than outliving vitest's timeout.
    const child = spawn(process.execPath, [bin, ...args], { cwd, timeout: 50_000, killSignal: "SIGKILL" });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, out, err }));
  });
}

describe.skipIf(!built)("a cluster simulated: 8 buckets written by DuckDB, a process each, merged", () => {
  it("gives one process's output on the whole text files, byte for byte", async () => {
    const root = mkdtempSync(join(tmpdir(), "rankeval-cluster-"));
    // The whole input as text, as one process reads it: text/qrels, text/a.run, text/b.run.
    const text = join(root, "text");
    mkdirSync(text);
    const data = generate();
    writeFileSync(join(text, "qrels"), data.qrels);
    writeFileSync(join(text, "a.run"), data.a);
    writeFileSync(join(text, "b.run"), data.b);
    // DuckDB writes each as a dataset partitioned by a hash of qid: ds/a.run/bucket=3/data_0.parquet.
    const ds = join(root, "ds");
    mkdirSync(ds);
    const c = await duck();
    const read = (file: string, kind: "qrels" | "run") =>
      kind === "qrels"
        ? `SELECT column0 AS qid, column2 AS docno, column3::INTEGER AS rel FROM read_csv('${file}', delim=' ', header=false, columns={'column0': 'VARCHAR', 'column1': 'VARCHAR', 'column2': 'VARCHAR', 'column3': 'VARCHAR'})`
        : `SELECT column0 AS qid, column2 AS docno, column4::DOUBLE AS score, column5 AS tag FROM read_csv('${file}', delim=' ', header=false, columns={'column0': 'VARCHAR', 'column1': 'VARCHAR', 'column2': 'VARCHAR', 'column3': 'VARCHAR', 'column4': 'VARCHAR', 'column5': 'VARCHAR'})`;
    for (const [name, kind] of [
      ["qrels", "qrels"],
      ["a.run", "run"],
      ["b.run", "run"],
    ] as const) {
      await c.run(
        `COPY (SELECT *, hash(qid) % 8 AS bucket FROM (${read(join(text, name), kind)})) TO '${join(ds, name)}' (FORMAT parquet, PARTITION_BY (bucket))`,
      );
    }
    const buckets = readdirSync(join(ds, "a.run"))
      .filter((d) => d.startsWith("bucket="))
      .sort();
    expect(buckets).toHaveLength(8);
    for (const b of buckets)
      expect(readdirSync(join(ds, "b.run")).includes(b) && readdirSync(join(ds, "qrels")).includes(b)).toBe(true);

    const measures = ["-m", "all_trec", "-m", "ndcg_cut.5,10", "-m", "gm_bpref"];
    for (const [label, extra] of [
      ["default", []],
      ["all", measures],
      ["c", ["-c", ...measures]],
    ] as const) {
      // Each bucket in its own process, all at once (a job array): names relative to ds/, so that each
      // shard's runs are named as the whole dataset's (a.run/bucket=3 stands for a.run).
      const out = join(root, `out-${label}`);
      mkdirSync(out);
      const tasks = await Promise.all(
        buckets.map((b, i) =>
          rankeval(
            ds,
            ...extra,
            "--per-query-out",
            join(out, `${b}.${["parquet", "arrow", "csv", "json"][i % 4]}`),
            `qrels/${b}`,
            `a.run/${b}`,
            `b.run/${b}`,
          ),
        ),
      );
      for (const t of tasks) expect(t.status, t.err).toBe(0);
      const shards = readdirSync(out)
        .sort()
        .map((f) => join(out, f));
      expect(shards).toHaveLength(8);
      const reports =
        label === "default"
          ? [[], ["-q"], ["--format", "table"], ["-q", "--format", "json"], ["-q", "--format", "csv"]]
          : [["-q"], ["--format", "json"]];
      for (const report of reports) {
        const whole = await rankeval(text, ...extra, ...report, "qrels", "a.run", "b.run");
        expect(whole.status, whole.err).toBe(0);
        const merged = await rankeval(root, "--merge", ...report, ...shards);
        expect(merged.status, merged.err).toBe(0);
        expect(merged.out, `${label} ${report.join(" ")}`).toBe(whole.out);
        // One process on the whole datasets says the same.
        const datasets = await rankeval(ds, ...extra, ...report, "qrels", "a.run", "b.run");
        expect(datasets.out, `${label} ${report.join(" ")} (datasets)`).toBe(whole.out);
      }
      const compared = await rankeval(root, "--merge", "--compare", ...shards);
      expect(compared.status, compared.err).toBe(0);
      expect(compared.out).toBe((await rankeval(text, "--compare", ...extra, "qrels", "a.run", "b.run")).out);
    }
    expect(spawnSync(process.execPath, [bin, "--version"]).status).toBe(0);
  }, 300_000);
});
