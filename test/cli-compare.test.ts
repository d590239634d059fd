// rankeval --compare: the built binary's outputs byte for byte on a small fixture
// (test/fixtures/compare-cli/, made by its make.mjs), its numbers against compare() called in process
// on the same runs, worker threads giving the same bytes as one thread, per-query results (JSON and
// CSV, gzipped, several runs a file) compared again to the same bytes, and the errors.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compare, formatComparison } from "../src/index.js";
import { PerQueryCsvReader, readPerQueryJson } from "../src/output/per-query-runs.js";
import { conventionsLine } from "../src/measures/options.js";
import { main } from "../src/node/cli.js";
import { evaluateFiles } from "../src/node/index.js";
import { TIES_QRELS, TIES_RUN_A, TIES_RUN_B } from "./_printf-ties.js";

const fixture = new URL("./fixtures/compare-cli/", import.meta.url).pathname;
const bin = new URL("../dist/node/bin.js", import.meta.url).pathname;
const cases = JSON.parse(readFileSync(join(fixture, "cases.json"), "utf8")) as { output: string; argv: string[] }[];
const RUNS = ["bm25.run", "rerank.run", "weak.run"];

/** The built command line, in `cwd` (the fixture's directory: runs named as given there). */
function binary(argv: string[], options: { cwd?: string; threads?: string; input?: string } = {}) {
  const env = { ...process.env };
  delete env.RANKEVAL_COMPARE_THREADS;
  if (options.threads !== undefined) env.RANKEVAL_COMPARE_THREADS = options.threads;
  const r = spawnSync(process.execPath, [bin, ...argv], { cwd: options.cwd ?? fixture, env, input: options.input });
  return { status: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
}

/** The command line in process (from the sources: no worker thread). */
async function cli(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return { status, out, err };
}

const dir = mkdtempSync(join(tmpdir(), "rankeval-compare-"));
const file = (name: string, text: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const at = (name: string) => join(fixture, name);

describe("rankeval --compare, the built binary", () => {
  it.each(cases)("prints $output byte for byte", ({ output, argv }) => {
    const r = binary(argv, { threads: "0" });
    expect(r.status, r.err).toBe(0);
    expect(r.out).toBe(readFileSync(join(fixture, "expected", output), "utf8"));
  });

  it("gives the same bytes with worker threads as with none (the resampling split between them)", () => {
    for (const { argv } of cases.filter(
      (c) => /randomization|bootstrap|tukey/.test(c.argv.join(" ")) || !c.argv.includes("--test"),
    )) {
      const one = binary(argv, { threads: "0" });
      const two = binary(argv, { threads: "2" });
      expect(two.status).toBe(0);
      expect(two.out).toBe(one.out);
    }
  });

  it("says which queries a run lacks (without -c), and which lines are not per-query numbers", () => {
    const r = binary(["--compare", "qrels.txt", ...RUNS]);
    expect(r.status).toBe(0);
    expect(r.err).toBe(
      "rankeval: not per-query numbers, left out of the comparison: runid, num_q, gm_map\n" +
        "rankeval: counts, left out of the comparison (-m NAME compares one): num_ret, num_rel, num_rel_ret\n" +
        "rankeval: weak.run: 1 judged query is not in the run and is left out (q12); -c counts it as 0\n",
    );
    // trec_eval's default measures, under their printed names.
    expect(r.out.split("\n")[0].split(/\s{2,}/)).toEqual(["measure", "bm25.run (baseline)", "rerank.run", "weak.run"]);
    expect(r.out).toContain("\nP_1000 ");
    expect(r.out).toContain("\niprec_at_recall_0.10 ");
  });
});

describe("rankeval --compare, the numbers", () => {
  // (Names that evaluateFiles and the command line read alike: the command line reads `map` as
  // trec_eval's, evaluateFiles as the library's.)
  it("equal compare() called in process on the same runs, evaluated as rankeval/node evaluates them", async () => {
    for (const complete of [false, true]) {
      const results = await evaluateFiles(
        at("qrels.txt"),
        RUNS.map(at),
        ["ndcg_cut.5", "recip_rank", "P.5", "ndcg@10"],
        { complete },
      );
      const options = {
        tests: ["t", "wilcoxon", "sign", "randomization", "bootstrap", "tukey"] as const,
        correction: "bonferroni" as const,
        iterations: 500,
      };
      const r = binary([
        "--compare",
        ...(complete ? ["-c"] : []),
        "--test",
        options.tests.join(","),
        "--correction",
        "bonferroni",
        "--permutations",
        "500",
        "--format",
        "json",
        "-m",
        "ndcg_cut.5",
        "-m",
        "recip_rank",
        "-m",
        "P.5",
        "-m",
        "ndcg@10",
        "qrels.txt",
        ...RUNS,
      ]);
      expect(r.status).toBe(0);
      const got = JSON.parse(r.out);
      // The command line lists trec_eval's lines in its table order (recip_rank, P_5, ndcg_cut_5).
      expect(got.measures).toEqual(["recip_rank", "P_5", "ndcg_cut_5", "ndcg@10"]);
      const want = compare(
        RUNS.map((name, i) => ({ name, result: results[i] })),
        { ...options, tests: [...options.tests], measures: got.measures },
      );
      const expected = JSON.parse(formatComparison(want, "json"));
      // The conventions line: each measure's (the library's own names keep theirs).
      expect(got.conventions).toBe(
        conventionsLine(want.measures.map((m) => ({ name: m, conventions: results[0].measureConventions[m] }))),
      );
      expect({ ...got, conventions: "" }).toEqual({ ...expected, conventions: "" });
      // -c: every judged query pairs (weak.run's missing q12 counts 0); without it, weak.run loses q12.
      const weak = got.comparisons.filter((x: { run: string }) => x.run === "weak.run");
      expect(weak.map((x: { n: number; lost: object }) => [x.n, x.lost])).toEqual(
        weak.map(() => (complete ? [20, { baseline: 0, run: 0 }] : [19, { baseline: 1, run: 0 }])),
      );
    }
  });

  it("marks a run + or - where it differs significantly from the baseline by the first test named", () => {
    const table = readFileSync(join(fixture, "expected", "table.txt"), "utf8").split("\n");
    const json = JSON.parse(
      binary([
        "--compare",
        "--format",
        "json",
        "-m",
        "ndcg_cut.5",
        "-m",
        "map",
        "-m",
        "P.5",
        "-m",
        "recip_rank",
        "qrels.txt",
        ...RUNS,
      ]).out,
    );
    const header = table[0].split(/\s{2,}/);
    expect(header).toEqual(["measure", "bm25.run (baseline)", "rerank.run", "weak.run"]);
    let marked = 0;
    for (const x of json.comparisons) {
      const cells = table.find((l) => l.startsWith(`${x.measure} `))!.split(/\s{2,}/);
      const cell = cells[header.indexOf(x.run)];
      const mark = x.tests.t.pAdjusted < 0.05 ? (x.difference > 0 ? " +" : " -") : "";
      if (mark) marked++;
      expect(`${x.measure} ${x.run}: ${cell}`).toBe(
        `${x.measure} ${x.run}: ${x.runMean === undefined ? "" : cell.split(" ")[0]}${mark}`,
      );
    }
    expect(marked).toBe(4);
  });
});

describe("rankeval --compare prints the evaluation's digits", () => {
  it("each run's P.8 mean, a tie at the fifth decimal, as -m P.8 prints it (C's printf: to the even digit)", async () => {
    const qrels = file("ties.qrels", TIES_QRELS);
    const a = file("ties-a.run", TIES_RUN_A);
    const b = file("ties-b.run", TIES_RUN_B);
    expect((await cli("-m", "P.8", qrels, a)).out).toBe("P_8                   \tall\t0.2812\n");
    const evaluated = (await cli("-m", "P.8", "--format", "table", qrels, a, b)).out.split("\n");
    const means = evaluated[1].split(/\s+/).slice(1);
    expect(means).toEqual(["0.2812", "0.1562"]); // 9/32 and 5/32; toFixed: 0.2813, 0.1563

    const table = (await cli("-m", "P.8", "--compare", qrels, a, b)).out.split("\n");
    // Side by side (a mark may follow a mean), then the comparison's base mean and run mean.
    expect(table[1].split(/\s{2,}/).map((cell) => cell.split(" ")[0])).toEqual(["P_8", ...means]);
    const pair = table.find((l) => l.startsWith("P_8 ") && l.includes(b))!.split(/\s{2,}/);
    expect(pair.slice(4, 7)).toEqual([...means, "-0.1250"]);
    for (const format of ["markdown", "latex"]) {
      const out = (await cli("-m", "P.8", "--compare", "--format", format, qrels, a, b)).out;
      for (const mean of means) expect(out, format).toContain(mean);
      expect(out, format).not.toMatch(/0\.2813|0\.1563/);
    }
  });
});

describe("per-query results as inputs", () => {
  const measures = ["-m", "ndcg_cut.5", "-m", "map", "-m", "ndcg@10"];
  const tests = ["--test", "t,randomization,bootstrap,tukey", "--permutations", "3000"];

  it("refuses a JSON file past its bound (a gzip bomb) at once, in bounded memory, pointing to the CSV form", () => {
    // 2 GiB of spaces after a per-query JSON's first key, gzipped to about 2 MB.
    const member = gzipSync(Buffer.alloc(64 << 20, 0x20), { level: 9 });
    const bomb = file(
      "bomb.json.gz",
      Buffer.concat([gzipSync('{"conventions": '), ...Array.from({ length: 32 }, () => member)]),
    );
    const ok = file("ok.json", binary(["-q", "--format", "json", "-m", "map", "qrels.txt", RUNS[0]]).out);
    const t = Date.now();
    // The text is held in V8's heap: bounded at 768 MB, an unbounded read dies there instead of exiting 2.
    const argv = ["--max-old-space-size=768", bin, "--compare", ok, bomb];
    const r = spawnSync(process.execPath, argv, { cwd: fixture, encoding: "utf8", timeout: 60_000 });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/bomb\.json\.gz: per-query JSON results past 256 MiB are not read .* -q --format csv/);
    expect(Date.now() - t).toBeLessThan(30_000);
  });

  it("compares again from -q --format json and csv files, one run a file or several, gzipped: the same bytes", async () => {
    for (const complete of [[], ["-c"]]) {
      const direct = binary(["--compare", ...complete, ...tests, ...measures, "qrels.txt", ...RUNS]);
      expect(direct.status).toBe(0);
      const written = (format: string, runs: string[]) => {
        const r = binary([...complete, "-q", "--format", format, ...measures, "qrels.txt", ...runs]);
        expect(r.status).toBe(0);
        return r.out;
      };
      const json = RUNS.map((r, i) => file(`${i}.json`, written("json", [r])));
      const csv = RUNS.map((r, i) => file(`${i}.csv`, written("csv", [r])));
      const allJson = file("all.json", written("json", RUNS));
      const allCsvGz = file("all.csv.gz", gzipSync(written("csv", RUNS)));
      const mixed = [json[0], csv[1], file("2.json.gz", gzipSync(readFileSync(json[2])))];
      // With --tie-range the files carry each value's [worst, best] too (not compared).
      const ranged = (format: string) => {
        const r = binary([...complete, "-q", "--tie-range", "--format", format, ...measures, "qrels.txt", ...RUNS]);
        expect(r.status).toBe(0);
        return file(`ranged.${format}`, r.out);
      };
      for (const inputs of [
        json,
        csv,
        [allJson],
        [allCsvGz],
        mixed,
        [file("two.json", written("json", RUNS.slice(0, 2))), csv[2]],
        [ranged("json")],
        [ranged("csv")],
      ]) {
        const again = binary(["--compare", ...tests, ...inputs]);
        expect(again.err, inputs.join(" ")).toBe("");
        expect(again.out, inputs.join(" ")).toBe(direct.out);
      }
      // The baseline by its run's name, or by the file that holds it alone.
      const byName = binary(["--compare", "--baseline", "rerank.run", ...tests, ...json]);
      expect(byName.out).toBe(
        binary(["--compare", "--baseline", "rerank.run", ...complete, ...tests, ...measures, "qrels.txt", ...RUNS]).out,
      );
      expect(binary(["--compare", "--baseline", json[1], ...tests, ...json]).out).toBe(byName.out);
      // -m picks some of the files' measures, by any of their names.
      expect(binary(["--compare", "-m", "map", ...tests, ...json]).out).toBe(
        binary(["--compare", ...complete, "-m", "map", ...tests, "qrels.txt", ...RUNS]).out,
      );
    }
  });

  it("gives the same p-values whatever the order the files list their queries in (JSON puts integer-like qids first)", () => {
    const qrels = file(
      "num.qrels",
      ["1", "2", "10", "x", "300"].flatMap((q) => [`${q} 0 a 1`, `${q} 0 b 0`, `${q} 0 c 2`]).join("\n") + "\n",
    );
    const runA = file(
      "num-a.run",
      ["1", "2", "10", "x", "300"]
        .flatMap((q, i) => [`${q} Q0 a 1 ${3 - (i % 3)} A`, `${q} Q0 b 2 2 A`, `${q} Q0 c 3 ${i % 2} A`])
        .join("\n") + "\n",
    );
    const runB = file(
      "num-b.run",
      ["1", "2", "10", "x", "300"]
        .flatMap((q, i) => [`${q} Q0 c 1 ${3 - (i % 2)} B`, `${q} Q0 b 2 2 B`, `${q} Q0 a 3 ${i % 3} B`])
        .join("\n") + "\n",
    );
    const argv = ["--test", "randomization,bootstrap", "--permutations", "7", "-m", "map", "-m", "P.1"];
    const direct = binary(["--compare", ...argv, qrels, runA, runB]);
    const json = binary(["-q", "--format", "json", "-m", "map", "-m", "P.1", qrels, runA, runB]).out;
    expect(Object.keys(JSON.parse(json).runs[0].perQuery)).toEqual(["1", "2", "10", "300", "x"]);
    expect(binary(["--compare", ...argv, file("num.json", json)]).out).toBe(direct.out);
  });

  it("carries NaN (no value: --no-relevant skip) through JSON and CSV to the same comparison", () => {
    const qrels = file(
      "skip.qrels",
      "q1 0 a 1\nq1 0 b 0\nq2 0 a 0\nq2 0 b 1\nq3 0 a 0\nq3 0 b 0\nq4 0 a 2\nq4 0 b 1\n",
    );
    const runA = file(
      "skip-a.run",
      ["q1", "q2", "q3", "q4"].flatMap((q) => [`${q} Q0 a 1 2 A`, `${q} Q0 b 2 1 A`]).join("\n") + "\n",
    );
    const runB = file(
      "skip-b.run",
      ["q1", "q3", "q4"].flatMap((q) => [`${q} Q0 b 1 2 B`, `${q} Q0 a 2 1 B`]).join("\n") + "\n",
    );
    const conventions = ["--no-relevant", "skip", "-m", "ndcg@10", "-m", "mrr"];
    const direct = binary(["--compare", "--test", "t,sign", ...conventions, qrels, runA, runB]);
    expect(direct.status).toBe(0);
    // q3 has no relevant document: no value in either run (not lost); q2 is not in skip-b.run.
    expect(direct.out).toContain(
      `every measure, ${runB} vs ${runA}: queries left out, with a value in ${runA} only: 1, in ${runB} only: 0`,
    );
    const json = binary(["-q", "--format", "json", ...conventions, qrels, runA, runB]).out;
    expect(JSON.parse(json).runs[0].perQuery.q3).toEqual({ "ndcg@10": null, mrr: null });
    const csv = binary(["-q", "--format", "csv", ...conventions, qrels, runA, runB]).out;
    expect(csv).toContain(`${runA},q3,ndcg@10,NaN,`);
    expect(binary(["--compare", "--test", "t,sign", file("skip.json", json)]).out).toBe(direct.out);
    expect(binary(["--compare", "--test", "t,sign", file("skip.csv", csv)]).out).toBe(direct.out);
  });

  it("refuses results made under other conventions, naming both files", () => {
    const a = file("exp.json", binary(["-q", "--format", "json", "-m", "ndcg@10", "qrels.txt", "bm25.run"]).out);
    const b = file(
      "lin.json",
      binary(["-q", "--format", "json", "-m", "ndcg@10", "--gain", "linear", "qrels.txt", "rerank.run"]).out,
    );
    const r = binary(["--compare", a, b]);
    expect(r.status).toBe(2);
    expect(r.err).toBe(
      `rankeval: ${a} and ${b} were made under different conventions (ndcg@10: rankeval: gain=exp noRelevant=zero beyondList=pad ties=docid; rankeval: gain=linear noRelevant=zero beyondList=pad ties=docid): they cannot be compared\n`,
    );
    const c = file(
      "one.csv",
      binary(["-q", "--format", "csv", "-m", "ndcg@10", "--no-relevant", "one", "qrels.txt", "rerank.run"]).out,
    );
    expect(binary(["--compare", a, c]).err).toMatch(
      new RegExp(`^rankeval: ${a} and ${c} were made under different conventions \\(ndcg@10: `),
    );
  });

  it("reads a query named all in CSV as a query, and the summary rows as the means", () => {
    const csv = [
      "run,qid,measure,value,conventions",
      "a,all,m,0.5,c",
      "a,q2,m,NaN,c",
      "a,all,m,0.5,c",
      "b,all,m,0.25,c",
      "b,q2,m,1,c",
      "b,all,m,0.625,c",
      "",
    ].join("\n");
    const reader = new PerQueryCsvReader("x.csv");
    // Chunks cut anywhere.
    for (let i = 0; i < csv.length; i += 7) reader.push(csv.slice(i, i + 7));
    const [a, b] = reader.finish();
    expect([a.name, [...a.result.qids], [...a.result.values.m], a.result.mean.m]).toEqual([
      "a",
      ["all", "q2"],
      [0.5, NaN],
      0.5,
    ]);
    expect([b.name, [...b.result.qids], [...b.result.values.m], b.result.mean.m]).toEqual([
      "b",
      ["all", "q2"],
      [0.25, 1],
      0.625,
    ]);
    expect(a.result.conventions).toBe("c");
    // Quoted fields, as report() writes them.
    const quoted = new PerQueryCsvReader("q.csv");
    quoted.push('run,qid,measure,value,conventions\r\n"r,1",q1,m,1,"x, ""y"""\r\n"r,1",all,m,1,"x, ""y"""\r\n');
    expect(quoted.finish()[0]).toMatchObject({ name: "r,1", result: { measureConventions: { m: 'x, "y"' } } });
  });

  it("says what is wrong with a per-query file", () => {
    const bad = (f: () => unknown, message: RegExp) => expect(f).toThrow(message);
    bad(() => readPerQueryJson("{", "a.json"), /^a\.json: not valid JSON/);
    bad(() => readPerQueryJson('{"conventions": "x"}', "a.json"), /^a\.json: not the per-query JSON rankeval writes/);
    bad(
      () =>
        readPerQueryJson(
          '{"conventions": "", "measureConventions": {"m": "c"}, "runs": [{"run": "r", "mean": {"m": 1}}]}',
          "a.json",
        ),
      /^a\.json: run r has no per-query values \(written without -q\?\)/,
    );
    bad(
      () =>
        readPerQueryJson(
          '{"conventions": "", "measureConventions": {"m": "c"}, "runs": [{"run": "r", "perQuery": {"q": {"m": "1"}}}]}',
          "a.json",
        ),
      /^a\.json: run r, query q: m is "1", not a number or null/,
    );
    bad(
      () =>
        readPerQueryJson(
          '{"conventions": "", "measureConventions": {"m": "c"}, "runs": [{"run": "r", "perQuery": {"q": {"m": 1}}}]}',
          "a.json",
        ),
      /^a\.json: run r has no mean of m \(written with -n\?\)/,
    );
    const csv = (text: string) => () => {
      const r = new PerQueryCsvReader("b.csv");
      r.push(text);
      return r.finish();
    };
    bad(csv("run,qid,measure,value,conventions\nr,q,m,x,c\n"), /^b\.csv:2: value "x" is not a number/);
    bad(csv("run,qid,measure,value,conventions\nr,q,m,1\n"), /^b\.csv:2: expected 5 fields/);
    bad(
      csv("run,qid,measure,value,conventions\nr,q,m,1,c\nr,q,n,1,d\nr,q2,m,1,c\nr,all,m,1,c\nr,all,n,1,d\n"),
      /^b\.csv: run r, query q2 has no value of n/,
    );
    bad(
      csv("run,qid,measure,value,conventions\nr,all,m,1,c\n"),
      /^b\.csv: run r has no per-query values \(written without -q\?\)/,
    );
    bad(
      csv("run,qid,measure,value,conventions\nr,q,m,1,c\nr,q,m2,1,d\nr,q2,m,1,e\n"),
      /^b\.csv:4: m has conventions "e" here and "c" above/,
    );
  });
});

describe("rankeval --compare, errors", () => {
  const usage = async (argv: string[], message: string | RegExp) => {
    const r = await cli(...argv);
    expect(r.status, argv.join(" ")).toBe(1);
    expect(r.err.split("\n").at(-3)).toMatch(
      typeof message === "string"
        ? new RegExp(`^rankeval: ${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`)
        : message,
    );
    expect(r.err.split("\n").at(-2)).toBe("(rankeval --help for usage)");
    expect(r.out).toBe("");
  };

  it("usage (exit 1): one run, unknown tests and corrections, values out of range, options without --compare", async () => {
    await usage(
      ["--compare", at("qrels.txt"), at("bm25.run")],
      "--compare needs at least two runs: QRELS RUN RUN [RUN ...] (got QRELS and one RUN)",
    );
    await usage(
      ["--compare", at("qrels.txt")],
      "--compare needs at least two runs: QRELS RUN RUN [RUN ...] (got one file)",
    );
    await usage(["--compare"], /^rankeval: --compare needs QRELS RUN RUN/);
    await usage(
      ["--compare", "--test", "t,anova", at("qrels.txt"), at("bm25.run"), at("rerank.run")],
      '--test: "anova" is not one of t, wilcoxon, sign, randomization, bootstrap, tukey',
    );
    await usage(
      ["--compare", "--alpha", "2", at("qrels.txt"), at("bm25.run"), at("rerank.run")],
      '--alpha: "2" is not a number between 0 and 1',
    );
    await usage(["--compare", "--alpha", "0"], '--alpha: "0" is not a number between 0 and 1');
    await usage(
      ["--compare", "--correction", "sidak"],
      '--correction: "sidak" is not one of holm, bonferroni, bh, none',
    );
    await usage(["--compare", "--permutations", "0"], '--permutations: "0" is not an integer from 1 to 10000000');
    await usage(["--compare", "--permutations", "2.5"], '--permutations: "2.5" is not an integer from 1 to 10000000');
    await usage(["--compare", "--seed", "-1"], '--seed: "-1" is not an integer from 0 to 9007199254740991');
    await usage(["--test", "t", at("qrels.txt"), at("bm25.run")], "--test needs --compare");
    await usage(["--all-pairs", at("qrels.txt"), at("bm25.run")], "--all-pairs needs --compare");
    await usage(
      ["--format", "latex", at("qrels.txt"), at("bm25.run")],
      "--format latex needs --compare (the evaluation's formats are trec, table, json, csv)",
    );
    await usage(
      ["--compare", "--format", "trec"],
      "--format trec has no comparison; with --compare: table (default), markdown, latex, csv, json",
    );
    await usage(
      ["--compare", "-q"],
      "-q has no meaning with --compare (the comparison is over the per-query values already)",
    );
    await usage(
      ["--compare", "--all-pairs", "--baseline", "a"],
      "--baseline and --all-pairs: with every pair compared there is no baseline",
    );
    await usage(
      ["--compare", "--letor", "x", "--scores", "y"],
      "--compare takes QRELS RUN RUN [RUN ...] or per-query results, not --letor (one run)",
    );
    await usage(
      ["--compare", "--baseline", "nope.run", at("qrels.txt"), at("bm25.run"), at("rerank.run")],
      `--baseline nope.run is not one of the runs (${at("bm25.run")}, ${at("rerank.run")})`,
    );
    await usage(
      ["--compare", at("qrels.txt"), at("bm25.run"), at("bm25.run")],
      `two runs are named "${at("bm25.run")}"; give each run its own name`,
    );
    await usage(
      ["--compare", "-m", "runid", at("qrels.txt"), at("bm25.run"), at("rerank.run")],
      "no measure to compare: none of those asked is a per-query number",
    );
    const one = file(
      "one.json",
      (await cli("-q", "--format", "json", "-m", "map", at("qrels.txt"), at("bm25.run"))).out,
    );
    await usage(["--compare", one], `--compare needs at least two runs: ${one} holds one (${at("bm25.run")})`);
    await usage(
      ["--compare", one, at("qrels.txt")],
      `${at("qrels.txt")} is not a per-query result rankeval wrote (-q --format json or csv): with per-query results (${one}), give only those`,
    );
    await usage(
      ["--compare", at("qrels.txt"), at("bm25.run"), one],
      `${one} is a per-query result rankeval wrote: give only per-query results, or QRELS RUN RUN [RUN ...]`,
    );
    await usage(
      ["--compare", "-l", "2", one, one],
      "-l cannot change per-query results: they carry the conventions they were computed with",
    );
  });

  it("bad input (exit 2): a missing file, a bad run, a per-query file written without -q", async () => {
    const missing = await cli("--compare", "-m", "map", at("qrels.txt"), at("bm25.run"), join(dir, "nope.run"));
    expect([missing.status, missing.err]).toEqual([
      2,
      `rankeval: ${join(dir, "nope.run")}: cannot read it: no such file (ENOENT)\n`,
    ]);
    const badRun = file("bad.run", "q1 Q0 d1 1 0.9x A\n");
    const r = await cli("--compare", "-m", "map", at("qrels.txt"), at("bm25.run"), badRun);
    expect(r.status).toBe(2);
    expect(r.err).toMatch(new RegExp(`^rankeval: ${badRun}:1:\\d+: `));
    const means = file(
      "means.json",
      (await cli("--format", "json", "-m", "map", at("qrels.txt"), at("bm25.run"), at("rerank.run"))).out,
    );
    const noQ = await cli("--compare", means);
    expect([noQ.status, noQ.err]).toEqual([
      2,
      `rankeval: ${means}: run ${at("bm25.run")} has no per-query values (written without -q?): write it again with -q\n`,
    ]);
    const other = file(
      "other.json",
      (await cli("-q", "--format", "json", "-m", "P.5", at("qrels.txt"), at("weak.run"))).out,
    );
    const two = file(
      "two.json",
      (await cli("-q", "--format", "json", "-m", "map", at("qrels.txt"), at("bm25.run"), at("rerank.run"))).out,
    );
    const lacks = await cli("--compare", two, other);
    expect([lacks.status, lacks.err]).toEqual([
      2,
      `rankeval: ${other}: run ${at("weak.run")} has no per-query values of map (${two}'s ${at("bm25.run")} has)\n`,
    ]);
    const asked = await cli("--compare", "-m", "P.5", two, other);
    expect([asked.status, asked.err]).toEqual([2, `rankeval: ${two} has no per-query values of P_5 (it has map)\n`]);
  });

  it("the in-process command line (no worker thread) prints what the binary prints", async () => {
    const { argv, output } = cases[4];
    const r = await cli(...argv.map((a) => (a.endsWith(".txt") || a.endsWith(".run") ? at(a) : a)));
    expect(r.status).toBe(0);
    expect(r.out).toBe(
      readFileSync(join(fixture, "expected", output), "utf8").replaceAll(/(bm25|rerank|weak)\.run/g, (name) =>
        at(name),
      ),
    );
  });
});
