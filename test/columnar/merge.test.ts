// --per-query-out and --merge: the golden sets (../shared/golden) split into shards of disjoint
// queries, each shard evaluated alone with --per-query-out (Parquet, Arrow, CSV, JSON in turn), then
// merged, give byte for byte what one process prints on the whole files: trec_eval's text (and so
// trec_eval's own expected outputs), tables, JSON, CSV, -q, -c, --tie-range and --compare; and every
// way shards can disagree is an error naming both files.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/node/cli.js";
import { readPerQueryBytes, writePerQuery } from "../../src/output/per-query-files.js";
import { mergeTables, type PerQueryTable } from "../../src/output/per-query.js";
import { mergesStreamed } from "../../src/node/merge-command.js";
import { aggregate, RunningSummary, summaryOf } from "../../src/pipeline/aggregate.js";

async function run(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return { status, out, err };
}

const dir = mkdtempSync(join(tmpdir(), "rankeval-merge-"));

/** A TREC file's lines by query id (its first field), blank and comment lines dropped. */
function linesByQid(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f.length < 4 || line.trim().startsWith("#")) continue;
    if (!out.has(f[0])) out.set(f[0], []);
    out.get(f[0])!.push(line);
  }
  return out;
}

/**
 * The qrels and runs split into `k` shards by query, as Hive partitions of text files:
 * `base/bucket=i/NAME` holds the lines of the queries of shard i, in the files' order (a run's lines
 * keep their order within each query, and queries their order). `shardOf` picks each query's shard.
 * The whole files are written as `base/NAME`: the name every shard's runs stand for.
 */
function shard(
  base: string,
  files: Record<string, string>,
  k: number,
  shardOf: (qid: string, i: number, all: string[]) => number,
): { whole: Record<string, string>; shards: Record<string, string>[] } {
  const qids = [...new Set(Object.values(files).flatMap((t) => [...linesByQid(t).keys()]))].sort();
  const bucket = new Map(qids.map((q, i) => [q, shardOf(q, i, qids)]));
  const whole: Record<string, string> = {};
  const shards: Record<string, string>[] = Array.from({ length: k }, () => ({}));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(base, { recursive: true });
    writeFileSync((whole[name] = join(base, name)), text);
    const parts: string[][] = Array.from({ length: k }, () => []);
    for (const line of text.split("\n")) {
      const f = line.trim().split(/\s+/);
      if (f.length < 4 || line.trim().startsWith("#")) continue;
      parts[bucket.get(f[0])!].push(line);
    }
    parts.forEach((lines, i) => {
      mkdirSync(join(base, `bucket=${i}`), { recursive: true });
      writeFileSync((shards[i][name] = join(base, `bucket=${i}`, name)), lines.map((l) => `${l}\n`).join(""));
    });
  }
  return { whole, shards };
}

/** Contiguous ranges of the sorted query ids. */
const ranges = (k: number) => (_: string, i: number, all: string[]) => Math.floor((i * k) / all.length);
/** Interleaved: a hash of the query id. */
const hashed = (k: number) => (q: string) => {
  let h = 2166136261;
  for (let i = 0; i < q.length; i++) h = Math.imul(h ^ q.charCodeAt(i), 16777619);
  return (h >>> 0) % k;
};

const FORMATS = ["parquet", "arrow", "csv", "json", "arrows"];

/**
 * Evaluates each shard with `argv` and --per-query-out (the formats in turn), merges them, and checks
 * the merged output, under each report option, against one process on the whole files.
 */
async function checkMerge(
  label: string,
  argv: string[],
  whole: string[],
  shards: string[][],
  reports: string[][] = [[]],
): Promise<string> {
  const outs: string[] = [];
  for (let i = 0; i < shards.length; i++) {
    const out = join(dir, `${label}-${i}.${FORMATS[i % FORMATS.length]}`);
    const r = await run(...argv, "--per-query-out", out, ...shards[i]);
    expect(r.status, `${label} shard ${i}: ${r.err}`).toBe(0);
    outs.push(out);
  }
  let first = "";
  for (const extra of reports) {
    const one = await run(...argv, ...extra, ...whole);
    expect(one.status, one.err).toBe(0);
    // The output options of the evaluation's command line are the merge's too.
    const merged = await run("--merge", ...argv.filter((a) => a === "-q" || a === "-n"), ...extra, ...outs);
    // The plan's warnings, said again (the measures are read again from the shards' settings).
    expect(merged.err, `${label} ${extra.join(" ")}`).toBe(
      one.err
        .split("\n")
        .filter((l) => l.startsWith("rankeval: warning:"))
        .map((l) => `${l}\n`)
        .join(""),
    );
    expect(merged.status).toBe(0);
    expect(merged.out, `${label} ${extra.join(" ")}`).toBe(one.out);
    first ||= merged.out;
  }
  return first;
}

const golden = new URL("../../../shared/golden/", import.meta.url).pathname;
const have = existsSync(join(golden, "trec_eval/out.test"));

describe.skipIf(!have)("the golden sets split into shards and merged give one process's output byte for byte", () => {
  if (!have) console.warn(`skipped: ${golden} is absent (golden files live in ../shared)`);
  const te = (name: string) => readFileSync(join(golden, "trec_eval", name), "utf8");
  const REPORTS = [
    [],
    ["-q"],
    ["--format", "table"],
    ["-q", "--format", "json"],
    ["-q", "--format", "csv"],
    ["-q", "-n", "--format", "table"],
  ];

  it.each([
    ["out.test", [], "qrels.test", "results.test"],
    ["out.test.a", ["-m", "all_trec"], "qrels.test", "results.test"],
    ["out.test.aq", ["-m", "all_trec", "-q"], "qrels.test", "results.test"],
    ["out.test.aqc", ["-m", "all_trec", "-q", "-c"], "qrels.test", "results.trunc"],
    ["out.test.aqcM", ["-m", "all_trec", "-q", "-c", "-M100"], "qrels.test", "results.trunc"],
    ["out.test.aql", ["-m", "all_trec", "-mrelstring.20", "-q", "-l2"], "qrels.rel_level", "results.test"],
    [
      "out.test.meas_params",
      [
        "-q",
        "-miprec_at_recall..10,.20,.25,.75,.50",
        "-m",
        "P.5,7,3",
        "-m",
        "recall.20,2000",
        "-m",
        "Rprec_mult.5.0,0.2,0.35",
        "-mutility.2,-1,0,0",
        "-m",
        "11pt_avg..25,.5,.75",
        "-mndcg.1=3,2=9,4=4.5",
        "-mndcg_cut.10,20,23.4",
        "-msuccess.2,5,20",
      ],
      "qrels.test",
      "results.test",
    ],
  ])("trec_eval's %s, in 2 shards", async (expected, argv, qrelsName, runName) => {
    const { whole, shards } = shard(
      join(dir, `te-${expected}`),
      { qrels: te(qrelsName), "run.txt": te(runName) },
      2,
      ranges(2),
    );
    const reports = (argv as string[]).includes("-q") ? [[], ["--format", "json"], ["--format", "csv"]] : REPORTS;
    const out = await checkMerge(
      expected,
      argv as string[],
      [whole.qrels, whole["run.txt"]],
      shards.map((s) => [s.qrels, s["run.txt"]]),
      reports,
    );
    expect(out).toBe(te(expected));
  });

  it("the synthetic set (1000 queries), interleaved in 4 shards: every trec_eval measure, -q, tables, JSON, CSV", async () => {
    const syn = (name: string) => readFileSync(join(golden, "synthetic-small", name), "utf8");
    const { whole, shards } = shard(
      join(dir, "syn"),
      { qrels: syn("qrels.txt"), "run.txt": syn("run.txt") },
      4,
      hashed(4),
    );
    const files = (s: Record<string, string>) => [s.qrels, s["run.txt"]];
    expect(await checkMerge("syn-default", [], files(whole), shards.map(files), REPORTS)).toBe(
      syn("small_default.txt"),
    );
    expect(await checkMerge("syn-all", ["-m", "all_trec"], files(whole), shards.map(files))).toBe(syn("small_all.txt"));
    expect(await checkMerge("syn-l2", ["-m", "all_trec", "-l", "2"], files(whole), shards.map(files))).toBe(
      syn("small_all_l2.txt"),
    );
    // Canonical measures, other tools' names, conventions, --tie-range, -c.
    await checkMerge(
      "syn-canonical",
      [
        "-m",
        "ndcg@10",
        "-m",
        "nDCG@10",
        "-m",
        "map",
        "-m",
        "mrr",
        "-m",
        "err@20",
        "-m",
        "NumRet",
        "--gain",
        "exp",
        "--no-relevant",
        "skip",
      ],
      files(whole),
      shards.map(files),
      [[], ["-q", "--format", "json"], ["--format", "csv"]],
    );
    await checkMerge("syn-tie", ["-m", "ndcg@10", "-m", "map", "--tie-range"], files(whole), shards.map(files), [
      [],
      ["--format", "json"],
      ["-q", "--format", "csv"],
    ]);
    await checkMerge("syn-c", ["-c", "-m", "official"], files(whole), shards.map(files), [
      [],
      ["-q"],
      ["--format", "json"],
    ]);
  });

  it("several runs: side by side in tables and trec_eval's text, and --compare over the merged values", async () => {
    const syn = readFileSync(join(golden, "synthetic-small", "run.txt"), "utf8");
    // A second run: the first's scores reversed in every other query.
    const other = syn
      .split("\n")
      .map((l, _i) => {
        const f = l.split(" ");
        if (f.length < 6) return l;
        if (Number(f[0]) % 2) f[4] = String(-Number(f[4]));
        f[5] = "other";
        return f.join(" ");
      })
      .join("\n");
    const { whole, shards } = shard(
      join(dir, "two"),
      { qrels: readFileSync(join(golden, "synthetic-small", "qrels.txt"), "utf8"), "a.run": syn, "b.run": other },
      3,
      hashed(3),
    );
    const files = (s: Record<string, string>) => [s.qrels, s["a.run"], s["b.run"]];
    await checkMerge("two", ["-m", "map", "-m", "ndcg_cut.10", "-m", "P.10"], files(whole), shards.map(files), [
      [],
      ["--format", "table"],
      ["-q", "--format", "json"],
    ]);
    // --compare over the merged runs: what --compare prints on the whole files.
    const outs = [0, 1, 2].map((i) => join(dir, `two-${i}.${FORMATS[i % FORMATS.length]}`));
    for (const format of [[], ["--format", "json"], ["--test", "t,wilcoxon,sign", "--format", "csv"]]) {
      const one = await run("--compare", ...format, "-m", "map", "-m", "ndcg_cut.10", "-m", "P.10", ...files(whole));
      const merged = await run("--merge", "--compare", ...format, ...outs);
      expect(merged.err).toBe("");
      expect(merged.out).toBe(one.out);
    }
  });

  it("Parquet shards merged as they stream (summaries only: a row group of each shard in memory) give one process's output", async () => {
    const syn = (name: string) => readFileSync(join(golden, "synthetic-small", name), "utf8");
    const { whole, shards } = shard(
      join(dir, "stream"),
      { qrels: syn("qrels.txt"), "a.run": syn("run.txt"), "b.run": syn("run.txt").replace(/ synth$/gm, " other") },
      5,
      hashed(5),
    );
    const files = (s: Record<string, string>) => [s.qrels, s["a.run"], s["b.run"]];
    for (const [label, argv] of [
      ["all", ["-m", "all_trec"]],
      ["c", ["-c", "-m", "official", "-m", "gm_bpref"]],
      ["canonical", ["-m", "ndcg@10", "-m", "map", "-m", "NumRet", "-m", "nDCG@10", "--no-relevant", "nan"]],
      ["tie", ["-m", "ndcg@10", "-m", "P@5", "--tie-range"]],
    ] as const) {
      const outs = await Promise.all(
        shards.map(async (s, i) => {
          const out = join(dir, `stream-${label}-${i}.parquet`);
          const r = await run(...argv, "--per-query-out", out, ...files(s));
          expect(r.status, r.err).toBe(0);
          return out;
        }),
      );
      for (const report of label === "tie"
        ? [[], ["--format", "json"], ["--format", "csv"]]
        : [[], ["--format", "table"], ["--format", "json"], ["--format", "csv"]]) {
        const one = await run(...argv, ...report, ...files(whole));
        const before = mergesStreamed.count;
        const merged = await run("--merge", ...report, ...outs);
        expect(mergesStreamed.count, `${label} ${report.join(" ")}: streamed`).toBe(before + 1);
        expect(merged.status, merged.err).toBe(0);
        if (report[1] === "json") {
          // Each mean's interval from the running moments (Welford), not numpy's two passes: equal to 1e-12.
          type Doc = { runs: { interval?: Record<string, [number, number] | null> }[] };
          const [a, b] = [JSON.parse(merged.out) as Doc, JSON.parse(one.out) as Doc];
          let compared = 0;
          a.runs.forEach((r, i) => {
            for (const [m, ci] of Object.entries(r.interval ?? {})) {
              const want = b.runs[i].interval![m];
              expect(ci === null, `${label}: ${m}`).toBe(want === null);
              if (ci === null || want === null) continue;
              for (const k of [0, 1]) expect(Math.abs(ci[k] - want[k]), `${label}: ${m}`).toBeLessThan(1e-12);
              compared++;
            }
            delete r.interval;
            delete b.runs[i].interval;
          });
          expect(compared, label).toBeGreaterThan(0);
          expect(a, `${label} ${report.join(" ")}`).toEqual(b);
        } else expect(merged.out, `${label} ${report.join(" ")}`).toBe(one.out);
      }
      // An overlap said as the whole merge says it.
      const twice = await run("--merge", outs[0], outs[1], outs[0]);
      expect(twice.status).toBe(2);
      expect(twice.err).toMatch(/both hold query "\d+" of run .*: the shards of a run must hold disjoint queries/);
    }
  });

  it("--interval in a merge: a level as the shards stream, a bootstrap through the whole merge, as one process", async () => {
    const syn = (name: string) => readFileSync(join(golden, "synthetic-small", name), "utf8");
    const { whole, shards } = shard(
      join(dir, "interval"),
      { qrels: syn("qrels.txt"), "a.run": syn("run.txt") },
      3,
      hashed(3),
    );
    const argv = ["-m", "ndcg@10", "-m", "map"];
    const outs = await Promise.all(
      shards.map(async (s, i) => {
        const out = join(dir, `interval-${i}.parquet`);
        expect((await run(...argv, "--per-query-out", out, s.qrels, s["a.run"])).status).toBe(0);
        return out;
      }),
    );
    for (const [interval, streamed] of [
      ["0.9", true],
      ["bootstrap:0.8", false],
    ] as const) {
      const one = await run(...argv, "--interval", interval, whole.qrels, whole["a.run"]);
      const before = mergesStreamed.count;
      const merged = await run("--merge", "--interval", interval, ...outs);
      expect(merged.status, merged.err).toBe(0);
      expect(mergesStreamed.count, interval).toBe(before + (streamed ? 1 : 0));
      // The table's four decimals: the running moments' interval is one process's to 1e-12.
      expect(merged.out, interval).toBe(one.out);
      expect(merged.out).toContain(interval === "0.9" ? "90% t interval" : "80% bootstrap percentile interval");
    }
  });

  it("a merged file merges again (shards of shards), and one process's own file merges alone to its output", async () => {
    const syn = (name: string) => readFileSync(join(golden, "synthetic-small", name), "utf8");
    const { whole, shards } = shard(
      join(dir, "again"),
      { qrels: syn("qrels.txt"), "run.txt": syn("run.txt") },
      4,
      hashed(4),
    );
    const outs = await Promise.all(
      shards.map(async (s, i) => {
        const out = join(dir, `again-${i}.parquet`);
        expect((await run("-q", "--per-query-out", out, s.qrels, s["run.txt"])).status).toBe(0);
        return out;
      }),
    );
    expect((await run("--merge", "--per-query-out", join(dir, "again-01.arrow"), outs[0], outs[1])).status).toBe(0);
    expect((await run("--merge", "--per-query-out", join(dir, "again-23.json"), outs[2], outs[3])).status).toBe(0);
    const merged = await run("--merge", "-q", join(dir, "again-01.arrow"), join(dir, "again-23.json"));
    expect(merged.out).toBe((await run("-q", whole.qrels, whole["run.txt"])).out);
    const single = join(dir, "again-whole.csv");
    const one = await run("-q", "--per-query-out", single, whole.qrels, whole["run.txt"]);
    expect((await run("--merge", "-q", single)).out).toBe(one.out);
  });
});

describe("merging shards that do not make one evaluation: errors naming both files", () => {
  const qrels = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 1\nq3 0 d3 1\n";
  const runA = "q1 Q0 d1 1 0.9 a\nq1 Q0 d2 2 0.5 a\n";
  const runB = "q2 Q0 d1 1 0.9 a\nq3 Q0 d3 2 0.5 a\n";
  const f = (name: string, text: string) => {
    const p = join(dir, "err", name);
    mkdirSync(join(p, ".."), { recursive: true });
    writeFileSync(p, text);
    return p;
  };
  const q = f("qrels", qrels);
  const a = f("a.run", runA);
  const b = f("b.run", runB);
  const out = async (name: string, ...argv: string[]) => {
    const p = join(dir, "err", name);
    const r = await run(...argv, "--per-query-out", p);
    expect(r.status, r.err).toBe(0);
    return p;
  };

  it("overlapping queries, other measures or conventions, other tags, -c in one only", async () => {
    const pa = await out("a.parquet", "-m", "map", q, a);
    const pb = await out("b.csv", "-m", "map", q, b);
    const merged = await run("--merge", pa, pb);
    // The two files name their runs after different paths: two runs, side by side.
    expect(merged.status, merged.err).toBe(0);
    const pa2 = await out("a2.json", "-m", "map", q, f("sub/a.run", runA));
    // The same run twice (its shards overlapping).
    const same = await run("--merge", pa, pa);
    expect(same.status).toBe(2);
    expect(same.err).toBe(
      `rankeval: ${pa} and ${pa} both hold query "q1" of run "${a}": the shards of a run must hold disjoint queries (were the judgments, or the runs, not partitioned alike?)\n`,
    );
    void pa2;
    const pm = await out("a-ndcg.parquet", "-m", "ndcg_cut.10", q, a);
    const measures = await run("--merge", pa, pm);
    expect(measures.status).toBe(2);
    expect(measures.err).toBe(
      `rankeval: ${pa} and ${pm} were made under different measures (-m map; -m ndcg_cut.10): only shards of one evaluation merge\n`,
    );
    const pl = await out("a-l2.arrow", "-m", "map", "-l", "2", q, a);
    const conventions = await run("--merge", pa, pl);
    expect(conventions.status).toBe(2);
    expect(conventions.err).toMatch(
      new RegExp(
        `^rankeval: ${pa} and ${pl} were made under different conventions \\(none given; -l 2\\): only shards of one evaluation merge\\n$`,
      ),
    );
    const pc = await out("a-c.csv", "-m", "map", "-c", q, a);
    const complete = await run("--merge", pa, pc);
    expect(complete.status).toBe(2);
    expect(complete.err).toBe(
      `rankeval: ${pa} and ${pc} were made under different -c (not given; given): only shards of one evaluation merge\n`,
    );
  });

  it("a run's shards with different tags, a file that is no per-query result, a damaged one, options that cannot change merged results", async () => {
    mkdirSync(join(dir, "err", "bucket=0"), { recursive: true });
    mkdirSync(join(dir, "err", "bucket=1"), { recursive: true });
    const s0 = f("bucket=0/x.run", runA);
    const s1 = f("bucket=1/x.run", runB.replace(/ a$/gm, " b"));
    const p0 = await out("s0.parquet", "-m", "map", q, s0);
    const p1 = await out("s1.parquet", "-m", "map", q, s1);
    const tags = await run("--merge", p0, p1);
    expect(tags.status).toBe(2);
    expect(tags.err).toBe(
      `rankeval: ${p0} and ${p1} give run "${join(dir, "err", "x.run")}" different tags ("a", "b"): trec_eval's runid would depend on the shard read last\n`,
    );
    const notOne = await run("--merge", p0, q);
    expect(notOne.status).toBe(2);
    expect(notOne.err).toBe(
      `rankeval: ${q}: not per-query results rankeval wrote with --per-query-out (Parquet, Arrow, CSV starting with "# rankeval per-query results", or JSON)\n`,
    );
    // A Parquet file without rankeval's metadata (the shard's input, say).
    const csv = readFileSync(await out("s0.csv", "-m", "map", q, s0), "utf8");
    const broken = f("broken.csv", csv.replace(/\n[^\n]*\n$/, "\nx,y\n"));
    const damaged = await run("--merge", broken);
    expect(damaged.status).toBe(2);
    expect(damaged.err).toMatch(/broken\.csv: damaged per-query results: line 4: 2 fields, the header has 3\n$/);
    const usage = await run("--merge", "-m", "map", p0);
    expect(usage.status).toBe(1);
    expect(usage.err).toMatch(
      /^rankeval: -m cannot change merged results: the shards carry the measures and conventions they were made with\n/,
    );
    const missing = await run("--merge", join(dir, "err", "nope.parquet"));
    expect(missing.status).toBe(2);
    expect(missing.err).toBe(`rankeval: ${join(dir, "err", "nope.parquet")}: cannot read it: no such file (ENOENT)\n`);
    const badOut = await run("-m", "map", "--per-query-out", "out.xlsx", q, a);
    expect(badOut.status).toBe(1);
    expect(badOut.err).toMatch(
      /--per-query-out out\.xlsx: the format comes from the name: \.parquet, \.arrow, \.feather, \.arrows, \.csv or \.json/,
    );
    const unwritable = await run("-m", "map", "--per-query-out", join(dir, "err", "no-such-dir", "x.parquet"), q, a);
    expect(unwritable.status).toBe(74);
    expect(unwritable.err).toMatch(/x\.parquet: cannot write the per-query results: ENOENT\n$/);
  });

  it("sums as it streams exactly what summaryOf and trec_eval's aggregate sum over the whole column", () => {
    let seed = 5;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let t = 0; t < 200; t++) {
      const n = Math.floor(rnd() * 50);
      const v = Float64Array.from({ length: n }, () =>
        rnd() < 0.1 ? NaN : rnd() < 0.1 ? -0 : rnd() < 0.2 ? 0 : rnd() * (rnd() < 0.5 ? 1e-7 : 1),
      );
      const s = new RunningSummary(true);
      for (const x of v) s.add(x);
      for (const agg of ["mean", "sum", "geomean"] as const) {
        expect(s.summary(agg)).toEqual(summaryOf(v, agg));
        const numQ = n + (t % 3);
        if (n > 0) expect(Object.is(s.trec(agg, numQ), aggregate(agg, v, numQ))).toBe(true);
      }
    }
  });

  it("refuses a Parquet shard whose queries are out of byte order, or a query twice in one shard", async () => {
    const meta = {
      format: "rankeval-per-query" as const,
      version: 1 as const,
      settings: { measures: ["map"], conventions: {}, complete: false, tieRange: false },
      conventions: "c",
      measureConventions: { map: "c" },
      conventionLines: ["c"],
      aggregates: {},
      measures: ["map"],
      columns: [{ name: "map", key: "map", kind: "number" as const }],
      runs: [{ name: "r", runTag: "t", queries: 3, noRelevant: 0, notJudged: 0, notInRun: 0 }],
    };
    for (const [qids, why] of [
      [["a", "c", "b"], 'query "b" is out of byte order'],
      [["a", "b", "b"], 'query "b" is there twice'],
    ] as const) {
      const p = join(dir, `order-${why.length}.parquet`);
      writeFileSync(
        p,
        await writePerQuery(
          {
            meta,
            run: ["r", "r", "r"],
            qid: [...qids],
            numbers: { map: Float64Array.from([0.1, 0.2, 0.3]) },
            strings: {},
          },
          "parquet",
        ),
      );
      const r = await run("--merge", p);
      expect(r.status).toBe(2);
      expect(r.err).toBe(`rankeval: ${p}: damaged per-query results: run "r"'s ${why}\n`);
    }
  });

  it("writes per-query Parquet other engines read: DuckDB reads its rows and its metadata", async () => {
    const { duck } = await import("./_data.js");
    const pq = await out("duck.parquet", "-q", "-m", "map", "-m", "P.1", q, a);
    const c = await duck();
    const rows = (await c.runAndReadAll(`SELECT run, qid, map, P_1 FROM '${pq}' ORDER BY qid`)).getRowObjects();
    expect(rows).toEqual([{ run: a, qid: "q1", map: 1, P_1: 1 }]);
    const kv = (
      await c.runAndReadAll(`SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata('${pq}')`)
    ).getRowObjects();
    const meta = JSON.parse(String(kv.find((r) => r.key === "rankeval")!.value));
    expect(meta.settings.measures).toEqual(["map", "P.1"]);
    expect(kv.find((r) => r.key === "rankeval.conventions")!.value).toMatch(/^trec_eval: relevanceThreshold=1 /);
  });

  it("keeps every double as it is: -0, NaN, infinities, in every format", async () => {
    const table: PerQueryTable = {
      meta: {
        format: "rankeval-per-query",
        version: 1,
        settings: { measures: ["ndcg@10"], conventions: {}, complete: false, tieRange: false },
        conventions: "c",
        measureConventions: { "ndcg@10": "c" },
        conventionLines: ["c"],
        aggregates: {},
        measures: ["ndcg@10"],
        columns: [{ name: "ndcg@10", key: "ndcg@10", kind: "number" }],
        runs: [{ name: "r,1", runTag: "t", queries: 5, noRelevant: 0, notJudged: 0, notInRun: 0 }],
      },
      run: ["r,1", "r,1", "r,1", "r,1", "r,1"],
      qid: ["a", 'b"', "c,d", "e\nf", "#g"],
      numbers: { "ndcg@10": Float64Array.from([-0, NaN, Infinity, -Infinity, 0.1 + 0.2]) },
      strings: {},
    };
    for (const format of ["parquet", "arrow", "arrows", "csv", "json"] as const) {
      const back = await readPerQueryBytes(await writePerQuery(table, format), `x.${format}`);
      expect(back.qid, format).toEqual(table.qid);
      expect(back.run, format).toEqual(table.run);
      const v = back.numbers["ndcg@10"];
      expect([Object.is(v[0], -0), Number.isNaN(v[1]), v[2], v[3], v[4]], format).toEqual([
        true,
        true,
        Infinity,
        -Infinity,
        0.1 + 0.2,
      ]);
      expect(back.meta).toEqual(table.meta);
    }
    const m = mergeTables([{ file: "x", table }]);
    expect(m.runs[0].result.qids).toEqual(["#g", "a", 'b"', "c,d", "e\nf"]);
  });
});
