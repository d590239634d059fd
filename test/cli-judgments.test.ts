// rankeval --qrels-stats, --agreement and --pool (issue 38): each mode's output is the library's
// (qrelsStats with formatQrelsStats, agreement, pool with formatPool) on the same judgments and runs,
// written as TREC text, JSON, CSV and gzip; in process (test/_cli.ts) and through the built binary
// on the bundled examples; bad usage (exit 1) and bad input naming file and line (exit 2).
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { agreement } from "../src/judgments/agreement.js";
import { formatPool, pool } from "../src/judgments/pools.js";
import { formatQrelsStats, qrelsStats } from "../src/judgments/qrels-stats.js";
import { formatLine } from "../src/trec/format.js";
import { cli } from "./_cli.js";
import { type IdValues, qrelsText } from "./_trec-text.js";

const dir = mkdtempSync(join(tmpdir(), "rankeval-judgments-"));
const file = (name: string, text: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const runText = (x: IdValues, tag = "r") =>
  Object.entries(x)
    .flatMap(([q, docs]) => Object.entries(docs).map(([d, v], i) => `${q} Q0 ${d} ${i + 1} ${v} ${tag}\n`))
    .join("");
const csvText = (x: IdValues, value: string) =>
  `qid,docid,${value}\n${Object.entries(x)
    .flatMap(([q, docs]) => Object.entries(docs).map(([d, v]) => `${q},${d},${v}\n`))
    .join("")}`;

// A person's labels, a model's decimals, a third assessor; two runs.
const A: IdValues = { q1: { d1: 3, d2: 0, d3: 1, d4: 2 }, q2: { d1: 1, d5: 0, d6: 2 }, q3: { d7: 0 } };
const B: IdValues = { q1: { d1: 2.5, d2: 0.2, d3: 1, d9: 1.4 }, q2: { d1: 1.1, d5: 0, d6: 2.8 }, q4: { d1: 1 } };
const C: IdValues = { q1: { d1: 3, d2: 1, d3: 1, d4: 2 }, q2: { d1: 0, d5: 0, d6: 2 } };
const R1: IdValues = { q1: { d1: 3, d2: 2, d5: 1.5, d3: 1 }, q2: { d5: 0.9, d6: 0.8, d7: 0.7 } };
const R2: IdValues = { q1: { d5: 5, d9: 4, d1: 3 }, q2: { d8: 1, d6: 0.5 }, q3: { d1: 1 } };

const a = file("a.qrels", qrelsText(A));
const aJson = file("a.json", JSON.stringify(A));
const aCsv = file("a.csv", csvText(A, "rel"));
const aGz = file("a.qrels.gz", gzipSync(qrelsText(A)));
const b = file("b.qrels", qrelsText(B));
const bCsv = file("b.csv", csvText(B, "rel"));
const c = file("c.json", JSON.stringify(C));
const r1 = file("r1.run", runText(R1));
const r2 = file("r2.run", runText(R2));
const r2Json = file("r2.json", JSON.stringify(R2));
const r1Csv = file("r1.csv", csvText(R1, "score"));

const ok = async (argv: string[]) => {
  const r = await cli(argv);
  expect(r.stderr, argv.join(" ")).toBe("");
  expect(r.status, argv.join(" ")).toBe(0);
  return r.stdout;
};

describe("rankeval --qrels-stats QRELS", () => {
  it("prints formatQrelsStats's text (trec_eval's lines), -q and -l as its perQuery and relevanceThreshold", async () => {
    for (const path of [a, aJson, aCsv, aGz]) {
      expect(await ok(["--qrels-stats", path]), path).toBe(formatQrelsStats(qrelsStats(A)));
      expect(await ok(["--qrels-stats", "-q", "-l", "2", path]), path).toBe(
        formatQrelsStats(qrelsStats(A, { relevanceThreshold: 2 }), { perQuery: true }),
      );
    }
    expect(await ok(["--qrels-stats", a])).toContain("num_label.3           \tall\t1\n");
  });

  it("prints the qrelsStats object with --format json, formatQrelsStats's CSV with --format csv", async () => {
    for (const path of [a, aJson]) {
      expect(JSON.parse(await ok(["--qrels-stats", "--format", "json", "-l", "2", path]))).toEqual(
        qrelsStats(A, { relevanceThreshold: 2 }),
      );
      expect(await ok(["--qrels-stats", "--format", "csv", "-q", path])).toBe(
        formatQrelsStats(qrelsStats(A), { format: "csv", perQuery: true }),
      );
    }
  });
});

describe("rankeval --agreement QRELS QRELS [QRELS ...]", () => {
  it("prints the agreement object with --format json, from TREC text, CSV and JSON, -l and --bins passed on", async () => {
    const two = agreement([A, B]);
    expect(JSON.parse(await ok(["--agreement", "--format", "json", a, b]))).toEqual(two);
    expect(JSON.parse(await ok(["--agreement", "--format", "json", aCsv, bCsv]))).toEqual(two);
    expect(JSON.parse(await ok(["--agreement", "--format", "json", "-l", "2", "--bins", "0.5,1.5,2.5", a, b]))).toEqual(
      agreement([A, B], { threshold: 2, bins: [0.5, 1.5, 2.5] }),
    );
    const three = JSON.parse(await ok(["--agreement", "--format", "json", a, bCsv, c]));
    expect(three).toEqual(agreement([A, B, C]));
    expect(Object.keys(three)).toContain("fleiss_kappa");
  });

  it("prints each summary value as trec_eval prints a measure (name all value), -q each query's first", async () => {
    const x = agreement([A, B], { bins: [0.5, 1.5, 2.5] });
    const out = await ok(["--agreement", "--bins", "0.5,1.5,2.5", a, b]);
    const long = (name: string, v: number) => formatLine(name, "all", v, "long");
    const float = (name: string, v: number | null | undefined) => formatLine(name, "all", v as number, "float");
    expect(out).toBe(
      long("pairs.shared", x.pairs.shared) +
        long("pairs.union", x.pairs.union) +
        long("pairs.judged.0", x.pairs.judged[0]) +
        long("pairs.judged.1", x.pairs.judged[1]) +
        long("pairs.only.0", x.pairs.only[0]) +
        long("pairs.only.1", x.pairs.only[1]) +
        float("observed_agreement", x.observed_agreement) +
        float("cohen_kappa", x.cohen_kappa) +
        float("cohen_kappa_linear", x.cohen_kappa_linear) +
        float("cohen_kappa_quadratic", x.cohen_kappa_quadratic) +
        float("binary_kappa", x.binary_kappa) +
        float("jaccard", x.jaccard) +
        float("fleiss_kappa", x.fleiss_kappa) +
        float("krippendorff_alpha.nominal", x.krippendorff_alpha.nominal) +
        float("krippendorff_alpha.ordinal", x.krippendorff_alpha.ordinal) +
        float("krippendorff_alpha.interval", x.krippendorff_alpha.interval),
    );
    expect(out).toContain("pairs.shared          \tall\t6\n");
    const q = (await ok(["--agreement", "-q", a, b])).split("\n");
    const q1 = agreement([A, B]).per_query[0];
    expect(q.slice(0, 7)).toEqual(
      [
        formatLine("pairs.shared", "q1", q1.pairs, "long"),
        formatLine("pairs.only.0", "q1", q1.only[0], "long"),
        formatLine("pairs.only.1", "q1", q1.only[1], "long"),
        formatLine("observed_agreement", "q1", q1.observed_agreement as number, "float"),
        formatLine("cohen_kappa", "q1", q1.cohen_kappa ?? NaN, "float"),
        formatLine("binary_kappa", "q1", q1.binary_kappa ?? NaN, "float"),
        formatLine("pairs.shared", "q2", 3, "long"),
      ].map((l) => l.slice(0, -1)),
    );
    expect(q.filter((l) => l.includes("\tall\t"))).toHaveLength(16);
  });

  it("prints an undefined value (null) as trec_eval prints its NaN, -nan, and says why on stderr", async () => {
    // Every label in one bin: the kappas are 0/0.
    const r = await cli(["--agreement", "--bins", "10", a, b]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("cohen_kappa           \tall\t  -nan\n");
    const why = agreement([A, B], { bins: [10] }).why_null!;
    expect(r.stderr).toContain(`rankeval: agreement: cohen_kappa is undefined (-nan): ${why.cohen_kappa}\n`);
  });
});

describe("rankeval --pool METHOD RUN [RUN ...]", () => {
  it("prints formatPool's lines (qid docid; --format qrels: qid 0 docid -1), each run's coverage on stderr", async () => {
    const p = pool([R1, R2], { method: "depth:2" });
    for (const runs of [
      [r1, r2],
      [r1Csv, r2Json],
    ]) {
      const r = await cli(["--pool", "depth:2", ...runs]);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(formatPool(p));
      expect(r.stderr).toBe(
        `rankeval: pool depth:2: ${p.size} documents over 3 queries; each run's top 2 covered (pooled):\n` +
          "   share  covered  ranked  run\n" +
          `  1.0000        4       4  ${runs[0]}\n` +
          `  1.0000        5       5  ${runs[1]}\n`,
      );
      const q = await cli(["--pool", "depth:2", "--format", "qrels", ...runs]);
      expect(q.stdout).toBe(formatPool(p, { shape: "qrels" }));
    }
    expect((await cli(["--pool", "depth:2", r1, r2])).stdout).toBe(
      "q1 d1\nq1 d2\nq1 d5\nq1 d9\nq2 d5\nq2 d6\nq2 d8\nq3 d1\n",
    );
  });

  it("prints the pool object with --format json; --budget, --combine, --judged, -M, --coverage-depth passed on", async () => {
    expect(JSON.parse(await ok(["--pool", "depth:3", "--format", "json", r1, r2Json]))).toEqual(
      pool([R1, R2], { method: "depth:3" }),
    );
    const options = { method: "rbp:0.5", budget: 2, combine: "max", depth: 3, coverageDepth: 2 } as const;
    expect(
      JSON.parse(
        await ok(
          ["--pool", "rbp:0.5", "--budget", "2", "--combine", "max", "-M", "3", "--coverage-depth", "2"].concat([
            "--judged",
            aGz,
            "--format",
            "json",
            r1,
            r2,
          ]),
        ),
      ),
    ).toEqual(pool([R1, R2], { ...options, judged: A }));
    const r = await cli(["--pool", "rrf", "--budget", "1", "--judged", aCsv, r1, r2]);
    expect(r.stdout).toBe(formatPool(pool([R1, R2], { method: "rrf", budget: 1, judged: A })));
    expect(r.stderr).toContain("covered (pooled or judged already):\n");
  });
});

describe("bad usage (exit 1) and bad input (exit 2)", () => {
  const usage = async (argv: string[], message: string) => {
    const r = await cli(argv);
    expect(r.stderr, argv.join(" ")).toBe(`rankeval: ${message}\n(rankeval --help for usage)\n`);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
  };

  it("refuses a wrong METHOD, options of another mode, the wrong number of files, formats it does not print", async () => {
    await usage(["--pool", "top:10", r1], '--pool: "top:10" is not depth:K, rbp:P or rrf:K');
    await usage(["--pool", "depth:0", r1], 'pool: "depth:K" needs K an integer >= 1, not "0"');
    await usage(["--pool", "rbp:0.8", r1], 'pool: method "rbp:0.8" needs budget, the documents to pool per query');
    await usage(
      ["--pool", "depth:10", "--budget", "5", r1],
      'pool: budget is for "rbp" and "rrf"; a depth pool has no budget',
    );
    await usage(["--budget", "5", r1], "--budget needs --pool METHOD RUN [RUN ...]");
    await usage(["--bins", "1,2", a, b], "--bins needs --agreement QRELS QRELS [QRELS ...]");
    await usage(["--agreement", "--bins", "2,1", a, b], "--bins: 2,1 does not ascend (1 after 2)");
    await usage(
      ["--format", "qrels", a, r1],
      "--format qrels writes a pool's documents as qrels lines: it needs --pool METHOD RUN [RUN ...]",
    );
    await usage(
      ["--rbo", "--format", "qrels", r1, r2],
      "--format qrels writes a pool's documents as qrels lines: it needs --pool METHOD RUN [RUN ...]",
    );
    await usage(
      ["--rbo", "--agreement", a, b],
      "--rbo has no meaning with --agreement (it compares sets of judgments: no runs, no measures)",
    );
    await usage(["--pool", "depth:2"], "--pool reads RUN [RUN ...] (got none)");
    await usage(["--agreement", a], "--agreement reads QRELS QRELS [QRELS ...] (got one file)");
    await usage(["--qrels-stats", a, b], "--qrels-stats reads QRELS (got 2 files)");
    await usage(
      ["--agreement", "--format", "csv", a, b],
      "--agreement prints trec_eval's text (--format trec, the default) or --format json, not csv",
    );
    await usage(
      ["--pool", "depth:2", "--format", "trec", r1],
      "--pool prints qid docid lines (the default), --format qrels or --format json, not trec",
    );
    await usage(
      ["--pool", "depth:2", "-q", r1],
      "-q has no meaning with --pool (it pools the runs' documents: no measures)",
    );
    await usage(
      ["--qrels-stats", "-m", "map", a],
      "-m has no meaning with --qrels-stats (it counts one file's judgments: no runs, no measures)",
    );
    await usage(
      ["--agreement", "--pool", "depth:2", a, b],
      "--pool has no meaning with --agreement (it compares sets of judgments: no runs, no measures)",
    );
  });

  it("names the file and line of a malformed line or a document judged twice", async () => {
    const short = file("short.qrels", "q1 0 d1 1\nq1 0 d2\n");
    const r = await cli(["--qrels-stats", short]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`rankeval: ${short}:2:8: expected 4 fields (qid iter docno rel), found 3\n`);
    const twice = file("twice.qrels", "q1 0 d1 1\nq1 0 d2 0\nq1 0 d1 2\n");
    const msg = `rankeval: ${twice}:3: document "d1" appears twice in query "q1"\n`;
    for (const argv of [
      ["--qrels-stats", twice],
      ["--agreement", a, twice],
      ["--pool", "depth:2", "--judged", twice, r1],
    ]) {
      const t = await cli(argv);
      expect(t.stderr, argv.join(" ")).toBe(msg);
      expect(t.status).toBe(2);
    }
    const runTwice = file("twice.run", "q1 Q0 a 1 2 r\nq1 Q0 a 2 1 r\n");
    const t = await cli(["--pool", "depth:2", r1, runTwice]);
    expect(t.stderr).toBe(`rankeval: ${runTwice}:2: document "a" appears twice in query "q1"\n`);
    expect((await cli(["--qrels-stats", join(dir, "missing.qrels")])).status).toBe(2);
  });
});

describe("the built command on the bundled examples", () => {
  const bin = new URL("../dist/node/bin.js", import.meta.url).pathname;
  const examples = new URL("../examples/", import.meta.url).pathname;
  const run = (argv: string[]) => {
    const r = spawnSync(process.execPath, [bin, ...argv], { cwd: examples });
    return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };

  it("lists the modes in --help", () => {
    const help = run(["--help"]).stdout;
    for (const s of [
      "--qrels-stats QRELS",
      "--agreement QRELS QRELS [QRELS ...]",
      "--pool METHOD RUN [RUN ...]",
      "--bins B,B,...",
    ])
      expect(help).toContain(`  ${s}`);
  });

  it("runs the README's examples", () => {
    const stats = run(["--qrels-stats", "qrels.txt"]);
    expect(stats.stderr).toBe("");
    expect(stats.stdout).toMatch(/^num_q {17}\tall\t20\n/);
    const p = run(["--pool", "depth:10", "bm25.run", "rerank.run"]);
    expect(p.status).toBe(0);
    expect(p.stdout.split("\n")[0]).toMatch(/^q1 doc-1-\d+$/);
    expect(p.stderr).toContain("1.0000      200     200  bm25.run\n");
    const same = run(["--agreement", "qrels.txt", "qrels.txt"]);
    expect(same.stdout).toContain("cohen_kappa           \tall\t1.0000\n");
    const llm = run(["--agreement", "--bins", "0.5,1.5,2.5", "qrels.txt", "llm-qrels.txt"]);
    expect(llm.stderr).toBe("");
    const kappa = Number(/^cohen_kappa_quadratic\s+\tall\t(\S+)$/m.exec(llm.stdout)?.[1]);
    expect(kappa).toBeGreaterThan(0.5);
    expect(kappa).toBeLessThan(1);
  });
});
