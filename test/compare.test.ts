// compare(): pairing by qid, the numbers of a comparison, corrections, options and errors, and the
// reports (formatComparison) byte for byte.
import { describe, expect, it } from "vitest";
import {
  compare,
  compareAsync,
  comparisonJson,
  evaluate,
  formatComparison,
  RankevalError,
  type NamedResult,
  type Result,
} from "../src/index.js";
import { adjust } from "../src/compare/correct.js";
import { referenceBootstrap, referenceRandomization, referenceTukey } from "./_resampling-reference.js";

/** The real worker thread's bound: well under vitest's 60 s timeout, far above its second or so. */
const WORKER_MS = 30_000;

const CONVENTIONS = "gain=exp relevanceThreshold=1 noRelevant=zero beyondList=pad ties=docid";

/** A Result with the given per-query values (NaN: no value), as evaluate() returns one. */
function result(qids: string[], values: Record<string, number[]>, conventions = CONVENTIONS): Result<unknown> {
  const measures = Object.keys(values);
  const v = Object.fromEntries(measures.map((m) => [m, Float64Array.from(values[m])]));
  const mean = Object.fromEntries(
    measures.map((m) => {
      const x = values[m].filter((y) => !Number.isNaN(y));
      return [m, x.reduce((a, b) => a + b, 0) / x.length];
    }),
  );
  const counted = Object.fromEntries(measures.map((m) => [m, values[m].filter((y) => !Number.isNaN(y)).length]));
  return {
    measures,
    qids,
    values: v,
    mean,
    counted,
    queries: { evaluated: qids.length, skipped: { noRelevant: 0, notJudged: 0, notInRun: 0 } },
    options: {} as Result["options"],
    conventions,
    measureConventions: Object.fromEntries(measures.map((m) => [m, `rankeval ${conventions}`])),
    warnings: [],
  };
}

const Q = ["q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8"];
const RUNS: NamedResult[] = [
  {
    name: "bm25",
    result: result(Q, {
      "ndcg@10": [0.2, 0.5, 0.1, 0.9, 0.4, 0.3, 0.6, 0.2],
      map: [0.1, 0.4, 0.1, 0.7, 0.3, 0.2, 0.5, 0.1],
    }),
  },
  {
    name: "rerank_v2",
    result: result(Q, {
      "ndcg@10": [0.3, 0.7, 0.2, 0.9, 0.6, 0.5, 0.8, 0.4],
      map: [0.2, 0.5, 0.1, 0.8, 0.4, 0.3, 0.6, 0.2],
    }),
  },
  // Seven queries, and no map value for q3.
  {
    name: "dense",
    result: result(Q.slice(0, 7), {
      "ndcg@10": [0.1, 0.4, 0.1, 0.8, 0.4, 0.2, 0.5],
      map: [0.1, 0.3, NaN, 0.6, 0.3, 0.2, 0.4],
    }),
  },
];

describe("pairing", () => {
  it("pairs queries by qid, whatever their order, and says how many each run lost", () => {
    const base = result(["a", "b", "c", "d"], { m: [0.1, 0.2, 0.3, NaN] });
    const run = result(["d", "c", "e", "a"], { m: [0.9, 0.5, 0.7, 0.4] });
    const [c] = compare(
      [
        { name: "base", result: base },
        { name: "run", result: run },
      ],
      { tests: ["t"] },
    ).comparisons;
    expect(c.n).toBe(2); // a and c
    expect(c.baselineMean).toBeCloseTo(0.2, 15);
    expect(c.runMean).toBeCloseTo(0.45, 15);
    expect(c.lost).toEqual({ baseline: 1, run: 2 }); // b only in base; d (NaN in base) and e only in run
    expect([c.wins, c.ties, c.losses]).toEqual([2, 0, 0]);
  });

  it("a comparison: means, difference, interval, relative change, d_z, wins/ties/losses", () => {
    const c = compare(RUNS, { tests: ["t"] }).comparisons[0];
    expect(c).toMatchObject({
      measure: "ndcg@10",
      baseline: "bm25",
      run: "rerank_v2",
      n: 8,
      wins: 7,
      ties: 1,
      losses: 0,
    });
    expect(c.difference).toBeCloseTo(0.15, 15);
    expect(c.relative).toBeCloseTo(37.5, 12);
    // d = .1 .2 .1 0 .2 .2 .2 .2: sd = sqrt(0.005714...) ; d_z = 0.15 / sd
    const d = [0.1, 0.2, 0.1, 0, 0.2, 0.2, 0.2, 0.2];
    const sd = Math.sqrt(d.reduce((a, x) => a + (x - 0.15) ** 2, 0) / 7);
    expect(c.effectSize).toBeCloseTo(0.15 / sd, 12);
    expect(c.ci95[0]).toBeCloseTo(0.15 - 2.364624251592784 * (sd / Math.sqrt(8)), 12); // t_{0.975,7}
    expect(c.tests.t!.statistic).toBeCloseTo(0.15 / (sd / Math.sqrt(8)), 10);
  });

  it("relative change is NaN (null in JSON) when the baseline's mean is 0", () => {
    const c = compare(
      [
        { name: "a", result: result(["x", "y"], { m: [0, 0] }) },
        { name: "b", result: result(["x", "y"], { m: [0.5, 0.1] }) },
      ],
      { tests: ["t"] },
    );
    expect(c.comparisons[0].relative).toBeNaN();
    expect(comparisonJson(c).comparisons[0].relative).toBeNull();
  });

  it("no query in common: n = 0 and every test NaN", () => {
    const c = compare(
      [
        { name: "a", result: result(["x"], { m: [0.5] }) },
        { name: "b", result: result(["y"], { m: [0.1] }) },
      ],
      { tests: ["t", "wilcoxon", "sign", "randomization", "bootstrap", "tukey"] },
    );
    const x = c.comparisons[0];
    expect(x.n).toBe(0);
    for (const t of c.settings.tests) expect(x.tests[t]!.p).toBeNaN();
  });

  it("the resampling tests of compare() are the reference's, pair by pair (exact and Monte Carlo)", () => {
    // 40 queries (2^40 > B: the kernel), one run missing 3 of them and one value: pairs over other queries.
    const qids = Array.from({ length: 40 }, (_, q) => `q${q}`);
    const wide = [0, 1, 2].map((r) => ({
      name: `w${r}`,
      result: result(r === 2 ? qids.slice(3) : qids, {
        m: (r === 2 ? qids.slice(3) : qids).map((_, q) => (r === 1 && q === 5 ? NaN : ((q * 7 + r * 5) % 13) / 12)),
      }),
    }));
    for (const runs of [RUNS, wide]) {
      const c = compare(runs, { tests: ["randomization", "bootstrap"], iterations: 500, seed: 3 });
      for (const x of c.comparisons) {
        const run = runs.find((r) => r.name === x.run)!.result;
        const base = runs[0].result;
        const pairs = base.qids
          .map((q, i) => [base.values[x.measure][i], run.values[x.measure][run.qids.indexOf(q)]])
          .filter(([a, b]) => !Number.isNaN(a) && b !== undefined && !Number.isNaN(b));
        const ys = pairs.map((p) => p[0]);
        const xs = pairs.map((p) => p[1]);
        expect(xs.length).toBe(x.n);
        expect(x.tests.randomization!.p).toBe(referenceRandomization(xs, ys, 500, 3).p);
        expect(x.tests.bootstrap!.p).toBe(referenceBootstrap(xs, ys, 500, 3).p);
      }
    }
  });

  it("tukey: over the queries every run has a value for, p as the reference's, never corrected again", () => {
    const c = compare(RUNS, { tests: ["tukey"], iterations: 800, pairs: "all" });
    const complete = [0, 1, 3, 4, 5, 6]; // map: q8 is not in dense, q3 has no value there
    const columns = RUNS.map((r) => complete.map((i) => r.result.values.map[i]));
    const pairs = [
      { baseline: 0, run: 1 },
      { baseline: 0, run: 2 },
      { baseline: 1, run: 2 },
    ];
    const want = referenceTukey(columns, pairs, 800, 42);
    const got = c.comparisons.filter((x) => x.measure === "map");
    got.forEach((x, i) => {
      expect(x.tests.tukey!.p).toBe(want[i].p);
      expect(x.tests.tukey!.pAdjusted).toBe(x.tests.tukey!.p);
    });
  });

  it("works on evaluate()'s results", () => {
    const rows = (shift: number) => ({
      qid: [1, 1, 1, 2, 2, 2, 3, 3, 3],
      score: [0.9, 0.5 + shift, 0.1, 0.8, 0.2 + shift, 0.3, 0.4, 0.6, 0.5 + shift],
      rel: [0, 2, 1, 1, 0, 2, 0, 1, 2],
    });
    const runs = [0, 0.5].map((s, i) => ({ name: `run${i}`, result: evaluate(rows(s), ["ndcg@3", "map"]) }));
    const c = compare(runs);
    expect(c.measures).toEqual(["ndcg@3", "map"]);
    expect(c.comparisons.map((x) => x.n)).toEqual([3, 3]);
    expect(c.settings).toMatchObject({
      tests: ["t", "randomization"],
      correction: "none",
      alpha: 0.05,
      iterations: 10_000,
      seed: 42,
    });
  });
});

describe("corrections", () => {
  const p = [0.01, 0.04, 0.03, 0.005, NaN];
  it("Bonferroni, Holm, Benjamini-Hochberg by hand; NaN left out of the family", () => {
    expect(adjust(p, "bonferroni")).toEqual([0.04, 0.16, 0.12, 0.02, NaN]);
    // Holm: sorted .005 .01 .03 .04 -> 4x, 3x, 2x, 1x, running maximum.
    expect(adjust(p, "holm").map((x) => +x.toFixed(12))).toEqual([0.03, 0.06, 0.06, 0.02, NaN]);
    // BH: sorted .005 .01 .03 .04 -> 4p/1, 4p/2, 4p/3, 4p/4 = .02 .02 .04 .04, running minimum from the top.
    expect(adjust(p, "bh").map((x) => +x.toFixed(12))).toEqual([0.02, 0.04, 0.04, 0.02, NaN]);
    expect(adjust(p, "none")).toEqual(p);
    expect(adjust([0.9, 0.8], "holm")).toEqual([1, 1]);
  });

  it("default: holm when a measure has more than one comparison, none for one pair", () => {
    expect(compare(RUNS, { tests: ["t"] }).settings.correction).toBe("holm");
    expect(compare(RUNS.slice(0, 2), { tests: ["t"] }).settings.correction).toBe("none");
    const c = compare(RUNS, { tests: ["t"] });
    const ndcg = c.comparisons.filter((x) => x.measure === "ndcg@10");
    expect(ndcg.map((x) => x.tests.t!.pAdjusted)).toEqual(
      adjust(
        ndcg.map((x) => x.tests.t!.p),
        "holm",
      ),
    );
  });

  it("alpha sets what is significant (adjusted p < alpha)", () => {
    const loose = compare(RUNS, { tests: ["t"], alpha: 0.1 }).comparisons.map((x) => x.tests.t!.significant);
    const strict = compare(RUNS, { tests: ["t"], alpha: 0.001 }).comparisons.map((x) => x.tests.t!.significant);
    expect(loose).toEqual([true, true, true, true]);
    expect(strict).toEqual([false, false, true, false]);
  });
});

describe("options", () => {
  it("a named baseline, or every pair", () => {
    const named = compare(RUNS, { baseline: "dense", tests: ["t"] });
    expect(named.comparisons.map((x) => `${x.baseline}>${x.run}`)).toEqual([
      "dense>bm25",
      "dense>rerank_v2",
      "dense>bm25",
      "dense>rerank_v2",
    ]);
    const all = compare(RUNS, { pairs: "all", tests: ["t"] });
    expect(all.baseline).toBeNull();
    expect(all.comparisons.map((x) => `${x.baseline}>${x.run}`)).toEqual([
      "bm25>rerank_v2",
      "bm25>dense",
      "rerank_v2>dense",
      "bm25>rerank_v2",
      "bm25>dense",
      "rerank_v2>dense",
    ]);
  });

  it("the seed fixes the resampling tests; another seed gives other draws", () => {
    const a = compare(RUNS, { tests: ["bootstrap"], iterations: 300 });
    const b = compare(RUNS, { tests: ["bootstrap"], iterations: 300 });
    const c = compare(RUNS, { tests: ["bootstrap"], iterations: 300, seed: 7 });
    expect(a.comparisons).toEqual(b.comparisons);
    expect(a.comparisons.map((x) => x.tests.bootstrap!.ci95)).not.toEqual(
      c.comparisons.map((x) => x.tests.bootstrap!.ci95),
    );
  });

  it("bad options and inputs are errors that say what is wrong", () => {
    const bad = (runs: NamedResult[], options: object, message: RegExp) => {
      try {
        compare(runs, options);
        expect.fail("no error");
      } catch (e) {
        expect(e).toBeInstanceOf(RankevalError);
        expect((e as Error).message).toMatch(message);
      }
    };
    bad(RUNS.slice(0, 1), {}, /at least two runs/);
    bad([RUNS[0], RUNS[0]], {}, /two runs are named "bm25"/);
    bad(RUNS, { baseline: "nope" }, /baseline "nope" is not one of the runs/);
    bad(RUNS, { tests: ["t", "anova"] }, /unknown test "anova"/);
    bad(RUNS, { tests: [] }, /at least one test/);
    bad(RUNS, { correction: "sidak" }, /correction must be/);
    bad(RUNS, { alpha: 1.5 }, /alpha must be between 0 and 1/);
    bad(RUNS, { iterations: 0 }, /iterations must be/);
    bad(RUNS, { seed: -1 }, /seed must be/);
    bad(RUNS, { pairs: "some" }, /pairs must be/);
    bad(RUNS, { measures: ["mrr"] }, /run "bm25" has no measure mrr/);
    bad(
      [RUNS[0], { name: "x", result: result(Q, { "ndcg@10": Q.map(() => 0), map: Q.map(() => 0) }, "gain=linear") }],
      {},
      /different conventions/,
    );
  });
});

describe("reports", () => {
  const c = compare(RUNS, { tests: ["t", "sign", "bootstrap"], iterations: 1000 });

  it("the table", () => {
    // The sign test's Holm-adjusted p of rerank_v2 is 2 · 2/2^7 = 0.03125: a tie, printed as C's printf does.
    expect(formatComparison(c, "table")).toBe(
      [
        "measure  baseline  run        n  base mean  run mean     diff              95% CI     rel    d_z     MDD  W/T/L        t     sign  bootstrap",
        "ndcg@10  bm25      rerank_v2  8     0.4000    0.5500  +0.1500    [0.0868, 0.2132]  +37.5%   1.98  0.0874  7/1/0  0.0016*  0.0312*    0.0020*",
        "ndcg@10  bm25      dense      7     0.4286    0.3571  -0.0714  [-0.1166, -0.0263]  -16.7%  -1.46  0.0621  0/2/5  0.0082*   0.0625    0.0020*",
        "map      bm25      rerank_v2  8     0.3000    0.3875  +0.0875    [0.0579, 0.1171]  +29.2%   2.47  0.0409  7/1/0  0.0004*  0.0312*    0.0020*",
        "map      bm25      dense      6     0.3667    0.3167  -0.0500   [-0.1075, 0.0075]  -13.6%  -0.91  0.0786  0/3/3   0.0756   0.2500    0.0370*",
        "",
        "tests (two-sided): t = paired Student's t; sign = sign test (exact binomial); bootstrap = paired bootstrap (shifted, Sakai 2006); B = 1000, seed 42",
        "p adjusted: holm, per measure over 2 comparisons; * = adjusted p < 0.05",
        "n: queries both runs have a value for; diff = run - baseline with its 95% t interval; d_z = mean(diff) / sd(diff); W/T/L = the run's wins, ties, losses",
        "MDD: the smallest difference the paired t-test at 0.05 finds significant 80% of the time over these n queries, with this sd(diff)",
        "ndcg@10, dense vs bm25: queries left out, with a value in bm25 only: 1, in dense only: 0",
        "map, dense vs bm25: queries left out, with a value in bm25 only: 2, in dense only: 0",
        `conventions: ${CONVENTIONS}`,
        "",
      ].join("\n"),
    );
  });

  it("Markdown: the same rows as a pipe table, right-aligned numbers", () => {
    const md = formatComparison(c, "markdown").split("\n");
    expect(md[0]).toBe(
      "| measure | baseline | run | n | base mean | run mean | diff | 95% CI | rel | d_z | MDD | W/T/L | t | sign | bootstrap |",
    );
    expect(md[1]).toBe("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    expect(md[2]).toBe(
      "| ndcg@10 | bm25 | rerank_v2 | 8 | 0.4000 | 0.5500 | +0.1500 | [0.0868, 0.2132] | +37.5% | 1.98 | 0.0874 | 7/1/0 | 0.0016* | 0.0312* | 0.0020* |",
    );
    expect(md.at(-2)).toBe(`conventions: ${CONVENTIONS}`);
  });

  it("LaTeX: booktabs, runs down, superscripts naming the runs each is significantly better than", () => {
    expect(formatComparison(c, "latex")).toBe(
      [
        "% rankeval: each run's mean; a superscript names the runs it is significantly better than",
        "% (paired Student's t, two-sided, Holm, adjusted p < 0.05; compared with the baseline (bm25)).",
        `% Conventions: ${CONVENTIONS}`,
        "\\begin{tabular}{llrr}",
        "\\toprule",
        " & Run & ndcg@10 & map \\\\",
        "\\midrule",
        "(a) & bm25 & 0.4000$^{c}$ & 0.3000 \\\\",
        "(b) & rerank\\_v2 & 0.5500$^{a}$ & 0.3875$^{a}$ \\\\",
        "(c) & dense & 0.3571 & 0.3167 \\\\",
        "\\bottomrule",
        "\\end{tabular}",
        "",
      ].join("\n"),
    );
    // Every pair, marks by another test.
    const all = compare(RUNS, { tests: ["t", "sign"], pairs: "all" });
    expect(formatComparison(all, "latex", { markTest: "sign" })).toContain(
      "(b) & rerank\\_v2 & 0.5500$^{a,c}$ & 0.3875$^{a}$ \\\\",
    );
    expect(formatComparison(all, "latex")).toContain("(b) & rerank\\_v2 & 0.5500$^{a,c}$ & 0.3875$^{a,c}$ \\\\");
  });

  it("sideBySide: the runs side by side with + / - against the baseline (letters with every pair), a legend, then the same table", () => {
    const side = formatComparison(c, "table", { sideBySide: true });
    expect(side).toBe(
      [
        "measure  bm25 (baseline)  rerank_v2     dense",
        "ndcg@10           0.4000   0.5500 +  0.3571 -",
        "map               0.3000   0.3875 +  0.3167",
        "",
        "+ / -: significantly higher / lower than the baseline, bm25 (t = paired Student's t, two-sided, Holm, adjusted p < 0.05)",
        "each run's mean over all its queries, as its evaluation prints it; the comparisons below pair the queries both runs have a value for",
        "n (queries paired): 6 to 8; the notes below say how many queries each run lost to the pairing",
        "",
        formatComparison(c, "table"),
      ].join("\n"),
    );
    // The marks follow markTest: by the sign test dense is not significantly lower (adjusted p 0.0625).
    expect(formatComparison(c, "table", { sideBySide: true, markTest: "sign" }).split("\n").slice(1, 3)).toEqual([
      "ndcg@10           0.4000   0.5500 +  0.3571",
      "map               0.3000   0.3875 +  0.3167",
    ]);
    const md = formatComparison(c, "markdown", { sideBySide: true }).split("\n");
    expect(md.slice(0, 4)).toEqual([
      "| measure | bm25 (baseline) | rerank_v2 | dense |",
      "|---|---:|---:|---:|",
      "| ndcg@10 | 0.4000 | 0.5500 + | 0.3571 - |",
      "| map | 0.3000 | 0.3875 + | 0.3167 |",
    ]);
    expect(md.slice(5, 8).map((l) => l.endsWith("  "))).toEqual([true, true, false]);
    expect(md.slice(9).join("\n")).toBe(formatComparison(c, "markdown"));
    // Every pair: each run's letter in the header, and the letters of the runs it is higher than.
    const all = compare(RUNS, { tests: ["t", "sign"], pairs: "all" });
    expect(formatComparison(all, "table", { sideBySide: true }).split("\n").slice(0, 5)).toEqual([
      "measure  (a) bm25  (b) rerank_v2  (c) dense",
      "ndcg@10  0.4000 c     0.5500 a,c     0.3571",
      "map      0.3000       0.3875 a,c     0.3167",
      "",
      "a, b, ...: the runs (by letter) that this run is significantly higher than (t = paired Student's t, two-sided, Holm, adjusted p < 0.05)",
    ]);
    expect(() => formatComparison(c, "latex", { markTest: "wilcoxon" })).toThrow(
      /markTest "wilcoxon" is not one of the comparison's tests \(t, sign, bootstrap\)/,
    );
  });

  it("CSV: one row per comparison, every number in full, empty where there is none", () => {
    const lines = formatComparison(c, "csv").trimEnd().split("\n");
    expect(lines[0]).toBe(
      "measure,baseline,run,n,lost_baseline,lost_run,baseline_mean,run_mean,difference,ci95_low,ci95_high,relative_percent,effect_size,wins,ties,losses,minimum_detectable," +
        "t_statistic,t_p,t_p_adjusted,sign_statistic,sign_p,sign_p_adjusted,bootstrap_statistic,bootstrap_p,bootstrap_p_adjusted,bootstrap_ci95_low,bootstrap_ci95_high",
    );
    expect(lines).toHaveLength(5);
    const row = lines[1].split(",");
    expect(row.slice(0, 6)).toEqual(["ndcg@10", "bm25", "rerank_v2", "8", "0", "0"]);
    expect(Number(row[16])).toBe(c.comparisons[0].minimumDetectable);
    expect(Number(row[18])).toBe(c.comparisons[0].tests.t!.p);
    const empty = compare(
      [
        { name: "a,b", result: result(["x"], { m: [0.5] }) },
        { name: "c", result: result(["x"], { m: [0.1] }) },
      ],
      { tests: ["t"] },
    );
    expect(formatComparison(empty, "csv").split("\n")[1]).toBe('m,"a,b",c,1,0,0,0.5,0.1,-0.4,,,-80,,0,0,1,,,,');
  });

  it("JSON: the shape the CLI prints, keys in order, null for no value", () => {
    const json = JSON.parse(formatComparison(c, "json"));
    expect(Object.keys(json)).toEqual(["conventions", "measures", "runs", "comparisons"]);
    expect(json.runs).toEqual(["bm25", "rerank_v2", "dense"]);
    expect(Object.keys(json.comparisons[0])).toEqual([
      "measure",
      "baseline",
      "run",
      "n",
      "baselineMean",
      "runMean",
      "difference",
      "ci95",
      "relative",
      "effectSize",
      "minimumDetectable",
      "wins",
      "ties",
      "losses",
      "tests",
      "lost",
    ]);
    expect(Object.keys(json.comparisons[0].tests)).toEqual(["t", "sign", "bootstrap"]);
    expect(Object.keys(json.comparisons[0].tests.t)).toEqual(["statistic", "p", "pAdjusted"]);
    expect(Object.keys(json.comparisons[0].tests.bootstrap)).toEqual(["statistic", "p", "pAdjusted", "ci95"]);
    expect(json.comparisons[3].lost).toEqual({ baseline: 2, run: 0 });
    const one = compare(
      [
        { name: "a", result: result(["x"], { m: [0.5] }) },
        { name: "b", result: result(["x"], { m: [0.1] }) },
      ],
      { tests: ["t"] },
    );
    expect(JSON.parse(formatComparison(one, "json")).comparisons[0].tests.t).toEqual({
      statistic: null,
      p: null,
      pAdjusted: null,
    });
  });
});

describe("compareAsync", () => {
  const options = {
    tests: ["t", "randomization", "bootstrap", "tukey"] as const,
    iterations: 777,
    pairs: "all" as const,
  };
  const many = Array.from({ length: 4 }, (_, r) => ({
    name: `r${r}`,
    result: result(
      Array.from({ length: 40 }, (_, q) => `q${q}`),
      {
        m: Array.from({ length: 40 }, (_, q) => ((q * 7 + r * 13) % 11) / 10),
        n: Array.from({ length: 40 }, (_, q) => ((q * 5 + r * 3) % 7) / 7),
      },
    ),
  }));

  it("with a pool, the iterations split into ranges: compare()'s result to the last bit", async () => {
    const { runResamplingJob } = await import("../src/index.js");
    const jobs: number[] = [];
    const pool = {
      size: 2,
      run: async (job: Parameters<typeof runResamplingJob>[0]) => (jobs.push(job.first), runResamplingJob(job)),
    };
    expect(await compareAsync(many, { ...options, tests: [...options.tests] }, pool)).toEqual(
      compare(many, { ...options, tests: [...options.tests] }),
    );
    expect(jobs.length).toBeGreaterThan(0);
    expect(jobs.every((first) => first > 0)).toBe(true); // the first range stays in this thread
    expect(await compareAsync(many, { ...options, tests: [...options.tests] })).toEqual(
      compare(many, { ...options, tests: [...options.tests] }),
    );
  });

  it("with a real worker thread (bench/compare-worker.mjs, over the built library)", async () => {
    const { Worker } = await import("node:worker_threads");
    const worker = new Worker(new URL("../bench/compare-worker.mjs", import.meta.url));
    const waiting = new Map<number, (o: Float64Array[]) => void>();
    let next = 0;
    worker.on("message", ({ id, output }) => waiting.get(id)!(output));
    // A worker that loops is not stopped by vitest's timeout (the test's promise is dropped, the thread
    // runs on and holds the process): the test ends it itself, failing, within its own bound.
    let stop: (e: Error) => void = () => {};
    const stopped = new Promise<never>((_, reject) => (stop = reject));
    stopped.catch(() => {}); // awaited through the jobs' races; never an unhandled rejection
    worker.on("error", (e) => stop(e as Error));
    const bound = setTimeout(
      () => stop(new Error(`the compare worker answered nothing in ${WORKER_MS} ms`)),
      WORKER_MS,
    );
    const pool = {
      size: 1,
      run: (job: unknown) =>
        Promise.race([
          new Promise<Float64Array[]>(
            (resolve) => (waiting.set(next, resolve), worker.postMessage({ id: next++, job })),
          ),
          stopped,
        ]),
    };
    try {
      expect(await compareAsync(many, { ...options, tests: [...options.tests] }, pool)).toEqual(
        compare(many, { ...options, tests: [...options.tests] }),
      );
    } finally {
      clearTimeout(bound);
      await worker.terminate();
    }
  });
});
