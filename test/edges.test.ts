// The edges a new user hit (issue 25): each behaviour with the test that fails without it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluate } from "../src/index.js";
import { counted } from "../src/errors/counted.js";

const bin = new URL("../dist/node/bin.js", import.meta.url).pathname;
const examples = new URL("../examples/", import.meta.url).pathname;
const cli = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", cwd: examples });

const rows = { qid: ["q1", "q1", "q1", "q2", "q2"], score: [3, 2, 1, 2, 1], rel: [0, 2, 1, 1, 0] };

describe("result.conventions is true of every measure", () => {
  it("names trec_eval's linear gain when ndcg_cut_10 is computed with it", () => {
    const r = evaluate(rows, ["ndcg_cut_10", "map"]);
    expect(r.measureConventions.ndcg_cut_10).toContain("gain=linear");
    // Each tool's measures under their own line: the canonical map is not said to be trec_eval's.
    expect(r.conventions).toBe(
      "[ndcg_cut_10] trec_eval: gain=linear noRelevant=zero beyondList=pad ties=docid; [map] relevanceThreshold=1 noRelevant=zero ties=docid",
    );
  });
  it("says each measure's conventions where they differ", () => {
    const r = evaluate(rows, ["ndcg@10", "ndcg_cut_10"]);
    expect(r.conventions).toMatch(/^\[ndcg@10\] gain=exp .*; \[ndcg_cut_10\] trec_eval: gain=linear /);
  });
  it("stays the options given where every measure follows them", () => {
    expect(evaluate(rows, ["ndcg@10", "map"]).conventions).toBe(
      "gain=exp relevanceThreshold=1 noRelevant=zero beyondList=pad ties=docid",
    );
    expect(evaluate(rows, ["map"], { gain: "linear" }).conventions).toBe(
      "gain=linear relevanceThreshold=1 noRelevant=zero beyondList=pad ties=docid",
    );
  });
  it("--format json's conventions name the gain ndcg_cut_10 was computed with", () => {
    const r = cli("--format", "json", "-m", "ndcg_cut.10", "-m", "map", "qrels.txt", "bm25.run");
    expect(r.status).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.conventions).toBe(
      "trec_eval: gain=linear relevanceThreshold=1 noRelevant=zero beyondList=pad ties=docid",
    );
    expect(doc.measureConventions.ndcg_cut_10).toContain("gain=linear");
  });
});

describe("the command line's options", () => {
  it("an unknown long option gets the nearest known ones", () => {
    const r = cli("--tie", "input", "qrels.txt", "bm25.run");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("unknown option --tie (did you mean --ties?)");
    expect(cli("--colums", "qid=q", "qrels.txt", "bm25.run").stderr).toContain("(did you mean --columns?)");
    expect(cli("--zzzzz", "qrels.txt", "bm25.run").stderr).toMatch(/unknown option --zzzzz\n/);
  });
  it("--help names every default column name of --columns, from their one table", async () => {
    const { DEFAULT_COLUMNS } = await import("../src/io/column-names.js");
    const help = cli("--help").stdout.replace(/\s+/g, " ");
    const at = help.indexOf("--columns qid=Q");
    const text = help.slice(at, help.indexOf("--per-query-out", at));
    for (const names of Object.values(DEFAULT_COLUMNS)) expect(text).toContain(names.join(", "));
    expect(text).toContain("query-id");
    expect(text).toContain("corpus-id");
  });
});

describe("messages count things in agreement with the number", () => {
  const dir = mkdtempSync(join(tmpdir(), "edges-"));
  writeFileSync(join(dir, "qrels"), "q1 0 d1 1\nq2 0 d2 1\n");
  writeFileSync(join(dir, "run"), "q1 Q0 d1 1 2.0 r\nq3 Q0 d3 1 1.0 r\n");
  it("one query, one judged query absent, one run query without judgments", () => {
    const table = spawnSync(process.execPath, [bin, "-m", "ndcg@10", "qrels", "run"], { encoding: "utf8", cwd: dir });
    expect(table.stdout).toContain(
      "1 query; 1 run query without judgments ignored; 1 judged query absent from the run\n",
    );
    expect(table.stderr).toBe(
      "rankeval: run: 1 judged query is not in the run and is left out (q2); -c counts it as 0\n",
    );
    const trec = spawnSync(process.execPath, [bin, "-m", "P.5", "qrels", "run"], { encoding: "utf8", cwd: dir });
    expect(trec.stderr).toBe(
      "rankeval: run: 1 judged query is not in the run and is left out (q2); -c counts it as 0\n",
    );
  });
  it("two are still plural", () => {
    writeFileSync(join(dir, "run2"), "q9 Q0 d1 1 2.0 r\nq1 Q0 d1 1 2.0 r\n");
    writeFileSync(join(dir, "qrels2"), "q1 0 d1 1\nq2 0 d2 1\nq3 0 d3 1\n");
    const r = spawnSync(process.execPath, [bin, "-m", "ndcg@10", "qrels2", "run2"], { encoding: "utf8", cwd: dir });
    expect(r.stdout).toContain(
      "1 query; 1 run query without judgments ignored; 2 judged queries absent from the run\n",
    );
    expect(r.stderr).toContain("2 judged queries are not in the run and are left out (q2, q3); -c counts them as 0");
  });
  it("the library's errors and the explanation's lines", () => {
    expect(() => evaluate({ qid: ["q1", "q1"], score: [1], rel: [1, 0] }, ["map"])).toThrow(
      "rows.score has 1 value but rows.qid has 2",
    );
    expect(counted(1, "query", "queries")).toBe("1 query");
    expect(counted(0, "query", "queries")).toBe("0 queries");
    expect(counted(2, "row")).toBe("2 rows");
  });
});

describe("--merge of one run's shards under two names", () => {
  const dir = mkdtempSync(join(tmpdir(), "edges-merge-"));
  const lines = readFileSync(join(examples, "bm25.run"), "utf8").split("\n").filter(Boolean);
  const even = (l: string) => /[02468]$/.test(l.split(" ")[0]);
  writeFileSync(join(dir, "bm25.run.0"), `${lines.filter(even).join("\n")}\n`);
  writeFileSync(join(dir, "bm25.run.1"), `${lines.filter((l) => !even(l)).join("\n")}\n`);
  mkdirSync(join(dir, "bm25.run"));
  writeFileSync(join(dir, "bm25.run", "part=0"), `${lines.filter(even).join("\n")}\n`);
  writeFileSync(join(dir, "bm25.run", "part=1"), `${lines.filter((l) => !even(l)).join("\n")}\n`);
  const run = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", cwd: dir });
  const qrels = join(examples, "qrels.txt");
  for (const ext of ["parquet", "json"]) {
    it(`says so, naming both (${ext} shards)`, () => {
      for (const k of [0, 1])
        expect(run("-m", "map", "--per-query-out", `s${k}.${ext}`, qrels, `bm25.run.${k}`).status).toBe(0);
      const r = run("--merge", `s0.${ext}`, `s1.${ext}`);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain("==> bm25.run.0 <==");
      expect(r.stderr).toContain(
        `rankeval: warning: runs "bm25.run.0" (s0.${ext}) and "bm25.run.1" (s1.${ext}) have one tag ("bm25") and no shard in common: merged as 2 runs`,
      );
    });
  }
  it("merges them as one run, silently, under key=value paths", () => {
    for (const k of [0, 1]) run("-m", "map", "--per-query-out", `t${k}.parquet`, qrels, `bm25.run/part=${k}`);
    const r = run("--merge", "t0.parquet", "t1.parquet");
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(run("-m", "map", qrels, join(examples, "bm25.run")).stdout);
  });
  it("names only the runs of one tag and no shard in common", () => {
    for (const k of [0, 1])
      run("-m", "map", "--per-query-out", `u${k}.json`, qrels, `bm25.run.${k}`, `bm25.run/part=${k}`);
    const r = run("--merge", "u0.json", "u1.json");
    expect(r.stderr).toContain('runs "bm25.run.0" (u0.json) and "bm25.run.1" (u1.json) have one tag');
    expect(r.stderr.match(/warning/g)).toHaveLength(1);
  });
});

describe("rankeval/node's resamplingPool for compareAsync", () => {
  it("runs the resampling on worker threads, with compare()'s result to the last bit", async () => {
    const dist = new URL("../dist/", import.meta.url).href;
    const { compare, compareAsync } = await import(`${dist}index.js`);
    const { evaluateFiles, resamplingPool } = await import(`${dist}node/index.js`);
    const { threadPool } = await import(`${dist}node/pool.js`);
    const [bm25, rerank] = await evaluateFiles(
      `${examples}qrels.txt`,
      [`${examples}bm25.run`, `${examples}rerank.run`],
      ["map", "ndcg@10"],
    );
    const runs = [
      { name: "bm25", result: bm25 },
      { name: "rerank", result: rerank },
    ];
    const options = { tests: ["t", "randomization", "bootstrap"], iterations: 5000 };
    const before = threadPool().started;
    const pool = resamplingPool(2);
    expect(pool.size).toBe(2);
    const c = await compareAsync(runs, options, pool);
    await pool.close();
    expect(threadPool().started).toBeGreaterThan(before);
    expect(JSON.stringify(c)).toBe(JSON.stringify(compare(runs, options)));
  });
});

describe("the README on the package", () => {
  const root = new URL("../", import.meta.url).pathname;
  const readme = readFileSync(join(root, "README.md"), "utf8");
  it("says the package's size as npm pack measures it (re-measure when the package changes)", () => {
    const r = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const [{ size, unpackedSize }] = JSON.parse(r.stdout) as { size: number; unpackedSize: number }[];
    // Within 0.2 MB: close enough for a reader, and no failure for each small change of the code.
    const said = readme.replace(/\s+/g, " ").match(/\(([\d.]+) MB packed, ([\d.]+) MB unpacked, as `npm pack/);
    expect(said, "the README's package size").not.toBeNull();
    expect(Math.abs(Number(said![1]) - size / 1e6)).toBeLessThan(0.2);
    expect(Math.abs(Number(said![2]) - unpackedSize / 1e6)).toBeLessThan(0.2);
  }, 60_000);
  it("the examples/ its commands read ship with the package, where it says they are", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { files: string[] };
    expect(pkg.files).toContain("examples");
    expect(readme).toContain("`cp -r node_modules/rankeval/examples .`");
    const named = new Set([...readme.matchAll(/(?<![\w/])examples\/([\w.-]+)/g)].map((m) => m[1]));
    expect(named.size).toBeGreaterThan(2);
    for (const f of named) expect(existsSync(join(root, "examples", f)), f).toBe(true);
  });
});

describe("--compare leaves counts out unless named", () => {
  it("with trec_eval's default measures: no num_ret, num_rel, num_rel_ret among the comparisons, said", () => {
    const r = cli("--compare", "--format", "json", "qrels.txt", "bm25.run", "rerank.run");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      "rankeval: counts, left out of the comparison (-m NAME compares one): num_ret, num_rel, num_rel_ret\n",
    );
    const compared = (JSON.parse(r.stdout) as { comparisons: { measure: string }[] }).comparisons.map((c) => c.measure);
    expect(compared).toContain("map");
    expect(compared.filter((m) => m.startsWith("num_"))).toEqual([]);
  });
  it("named with -m, a count is compared", () => {
    const r = cli(
      "--compare",
      "--format",
      "json",
      "-m",
      "num_rel_ret",
      "-m",
      "map",
      "qrels.txt",
      "bm25.run",
      "rerank.run",
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("counts, left out");
    const compared = (JSON.parse(r.stdout) as { comparisons: { measure: string }[] }).comparisons.map((c) => c.measure);
    expect(compared).toEqual(["num_rel_ret", "map"]);
  });
});

describe("--help", () => {
  it("names every long option (trec_eval's long spellings and --group, aliases of what it names, aside)", async () => {
    const { LONG_OPTIONS, USAGE } = await import("../src/node/args.js");
    // The aliases: trec_eval's long names of its one-letter options (Zscore, nosummary, the ones with
    // underscores) and their spellings here (--measure of -m, ...), --group of --query.
    const aliases = new Set(["measure", "complete", "no-summary", "judged-only", "Zscore", "nosummary", "group"]);
    const missing = LONG_OPTIONS.filter((o) => !/_/.test(o) && !aliases.has(o) && !USAGE.includes(`--${o}`));
    expect(missing).toEqual([]);
  });
});
