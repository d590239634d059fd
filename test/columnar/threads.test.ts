// --threads: a Parquet run's row groups decoded by several worker threads of the built command line
// (src/node/columnar-reader.ts) while the main thread joins and evaluates them in order. The output is
// the same with 1 to 4 threads, byte for byte, on runs whose queries span row groups, datasets, runs
// read again whole (scattered) and every error a row group can give (the first in the file's order).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { duck } from "./_data.js";

const bin = new URL("../../dist/node/bin.js", import.meta.url).pathname;
const built = existsSync(bin);
if (!built) console.warn("test/columnar/threads.test.ts: skipped: dist/ is not built (npm test builds it)");

function rankeval(...args: string[]): { status: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", timeout: 120_000, maxBuffer: 1 << 28 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

describe.skipIf(!built)("--threads: the same output with any number of threads", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-threads-"));
  const path = (name: string) => join(dir, name);

  it("on a run of many small row groups, its queries spanning them; on a dataset; with -q, tables and JSON", async () => {
    const c = await duck();
    // 40,000 rows, 700 queries of 1 to 113 documents, row groups of 1,000 rows (queries cross them).
    const rows = `SELECT 'q' || lpad((r // 57)::VARCHAR, 4, '0') AS qid, 'd' || (r * 7 % 1000)::VARCHAR || '-' || r::VARCHAR AS docid, ((r * 7919) % 997) / 10.0 AS score, 'sys' AS tag FROM range(40000) t(r)`;
    await c.run(`COPY (${rows}) TO '${path("run.parquet")}' (FORMAT parquet, ROW_GROUP_SIZE 1000)`);
    await c.run(
      `COPY (SELECT qid, docid, (hash(docid) % 4)::INTEGER AS rel FROM (${rows}) WHERE hash(docid) % 3 = 0) TO '${path("qrels.parquet")}' (FORMAT parquet)`,
    );
    await c.run(
      `COPY (SELECT *, hash(qid) % 5 AS bucket FROM (${rows}) ORDER BY qid) TO '${path("ds")}' (FORMAT parquet, PARTITION_BY (bucket), ROW_GROUP_SIZE 500)`,
    );
    for (const argv of [
      [],
      ["-q", "-m", "all_trec"],
      ["-m", "ndcg@10", "-m", "map", "--format", "json", "-q"],
      ["-c", "-m", "official"],
    ]) {
      for (const run of ["run.parquet", "ds"]) {
        const one = rankeval("--threads", "1", ...argv, path("qrels.parquet"), path(run));
        expect(one.status, one.err).toBe(0);
        for (const t of ["2", "3", "4"]) {
          const many = rankeval("--threads", t, ...argv, path("qrels.parquet"), path(run));
          expect(many.err, `${run} ${t} ${argv.join(" ")}`).toBe(one.err);
          expect(many.out, `${run} ${t} ${argv.join(" ")}`).toBe(one.out);
        }
      }
    }
    // A run whose queries are scattered: read again whole, the same.
    await c.run(
      `COPY (SELECT * FROM (${rows}) ORDER BY hash(docid)) TO '${path("scattered.parquet")}' (FORMAT parquet, ROW_GROUP_SIZE 1000)`,
    );
    const whole = rankeval("--threads", "1", path("qrels.parquet"), path("scattered.parquet"));
    expect(whole.status, whole.err).toBe(0);
    expect(rankeval("--threads", "3", path("qrels.parquet"), path("scattered.parquet")).out).toBe(whole.out);
    expect(whole.out).toBe(rankeval("--threads", "1", path("qrels.parquet"), path("run.parquet")).out);
  });

  it("says the error of the first bad row group in the file's order, as one thread does", async () => {
    const c = await duck();
    // A null in row group 31 and a document twice across groups 11 and 12: the duplicate comes first.
    const bad = `SELECT 'q' || (r // 50)::VARCHAR AS qid, CASE WHEN r = 11999 THEN 'd11998' ELSE 'd' || r::VARCHAR END AS docid, CASE WHEN r = 30500 THEN NULL ELSE r / 7.0 END AS score FROM range(40000) t(r)`;
    await c.run(`COPY (${bad}) TO '${path("bad.parquet")}' (FORMAT parquet, ROW_GROUP_SIZE 1000)`);
    await c.run(
      `COPY (SELECT 'q' || (r // 50)::VARCHAR AS qid, 'd' || r::VARCHAR AS docid, 1 AS rel FROM range(0, 40000, 10) t(r)) TO '${path("badqrels.parquet")}' (FORMAT parquet)`,
    );
    const one = rankeval("--threads", "1", path("badqrels.parquet"), path("bad.parquet"));
    expect(one.status).toBe(2);
    expect(one.err).toBe(
      `rankeval: ${path("bad.parquet")}: row 12000: document "d11998" appears twice in query "q239"\n`,
    );
    for (const t of ["2", "4"])
      expect(rankeval("--threads", t, path("badqrels.parquet"), path("bad.parquet"))).toEqual(one);
    // Only the null.
    await c.run(
      `COPY (SELECT 'q' || (r // 50)::VARCHAR AS qid, 'd' || r::VARCHAR AS docid, CASE WHEN r = 30500 THEN NULL ELSE r / 7.0 END AS score FROM range(40000) t(r)) TO '${path("null.parquet")}' (FORMAT parquet, ROW_GROUP_SIZE 1000)`,
    );
    const nul = rankeval("--threads", "1", path("badqrels.parquet"), path("null.parquet"));
    expect(nul.err).toBe(`rankeval: ${path("null.parquet")}: row 30501 (column "score"): the score is null\n`);
    for (const t of ["2", "3"])
      expect(rankeval("--threads", t, path("badqrels.parquet"), path("null.parquet"))).toEqual(nul);
    writeFileSync(path("x"), "");
    expect(rankeval("--threads", "0", path("x"), path("x")).err).toMatch(
      /--threads: "0" is not a number of threads from 1 to 256/,
    );
  });
});
