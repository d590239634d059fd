// Presets and tie-aware measures: each preset against the numbers its tool computes (scikit-learn's and
// XGBoost's own, from test/tools/fixtures.json; the other tools' documented and worked values), the
// precedence of a preset, the closed forms of ties "average" by hand, and the tie range.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { evaluate, evaluateRun, type Options } from "../src/index.js";
import { evaluateFiles } from "../src/node/index.js";
import { PRESETS, PRESET_NAMES } from "../src/measures/presets.js";
import { referenceEvaluate } from "../src/reference/index.js";

interface Fixtures {
  made_by: Record<string, string | null>;
  queries: { labels: number[]; scores: number[] }[];
  sklearn: Record<string, number>[];
  xgboost: Record<string, number>[];
}
const fixtures = JSON.parse(
  readFileSync(fileURLToPath(new URL("./tools/fixtures.json", import.meta.url)), "utf8"),
) as Fixtures;

/** The fixture queries as rows, query i's qid i. */
const rows = {
  qid: fixtures.queries.flatMap((q, i) => q.labels.map(() => i)),
  score: fixtures.queries.flatMap((q) => q.scores),
  rel: fixtures.queries.flatMap((q) => q.labels),
};

/** Per query, each measure's value under `options` equals the tool's within `tolerance` (relative). */
function expectTool(
  tool: Record<string, number>[],
  names: Record<string, string>,
  options: Options,
  tolerance: number,
) {
  const r = evaluate(rows, Object.values(names), options);
  for (const [theirs, ours] of Object.entries(names)) {
    tool.forEach((row, q) => {
      const want = row[theirs];
      const got = r.values[ours][q];
      if (!(Math.abs(got - want) <= tolerance * Math.max(1, Math.abs(want)))) {
        throw new Error(
          `query ${q} (${JSON.stringify(fixtures.queries[q])}): ${theirs} is ${want}, rankeval's ${ours} ${got}`,
        );
      }
    });
  }
}

const CUTOFFS = [1, 3, 5, 10, 20];

describe("presets reproduce their tools' numbers", () => {
  it(`sklearn: ndcg_score and dcg_score (scikit-learn ${fixtures.made_by.sklearn}), ties averaged, to 1e-12 per query`, () => {
    const names: Record<string, string> = { ndcg: "ndcg", dcg: "dcg" };
    for (const k of CUTOFFS) Object.assign(names, { [`ndcg@${k}`]: `ndcg@${k}`, [`dcg@${k}`]: `dcg@${k}` });
    expectTool(fixtures.sklearn, names, { preset: "sklearn" }, 1e-12);
    // scikit-learn's documented values (../shared/CONVENTIONS.md)
    const doc = evaluate(rows, ["ndcg", "ndcg@1"], { preset: "sklearn" });
    expect(doc.values.ndcg[0]).toBeCloseTo(0.695694, 6);
    expect(doc.values.ndcg[1]).toBeCloseTo(0.690979, 6);
    expect(doc.values.ndcg[2]).toBeCloseTo(0.699812, 6);
    expect(doc.values["ndcg@1"][3]).toBe(0.75); // 0.5 with ignore_ties=True
  });

  it.skipIf(!fixtures.made_by.xgboost)(
    `xgboost: ndcg@k, ndcg@k-, map@k, map@k-, pre@k (XGBoost ${fixtures.made_by.xgboost}), per query`,
    () => {
      // XGBoost returns each metric as a float32: within 1e-6.
      const names: Record<string, string> = { ndcg: "ndcg", map: "map" };
      for (const k of CUTOFFS)
        Object.assign(names, { [`ndcg@${k}`]: `ndcg@${k}`, [`map@${k}`]: `map@${k}`, [`pre@${k}`]: `precision@${k}` });
      expectTool(fixtures.xgboost, names, { preset: "xgboost" }, 1e-6);
      // The `-` variants: a query without relevant documents scores 0, as noRelevant "zero".
      const minus: Record<string, string> = { "ndcg-": "ndcg", "map-": "map" };
      for (const k of CUTOFFS) Object.assign(minus, { [`ndcg@${k}-`]: `ndcg@${k}`, [`map@${k}-`]: `map@${k}` });
      expectTool(fixtures.xgboost, minus, { preset: "xgboost", noRelevant: "zero" }, 1e-6);
      // and XGBoost's own names
      expectTool(
        fixtures.xgboost,
        { "ndcg@10-": "ndcg@10-", "map@5-": "map@5-", "ndcg-": "ndcg-", "pre@5": "pre@5" },
        {},
        1e-6,
      );
    },
  );

  it("the fixtures have ties and queries without relevant documents, and other conventions give other numbers", () => {
    expect(fixtures.queries.some((q) => new Set(q.scores).size < q.scores.length)).toBe(true);
    expect(fixtures.queries.some((q) => q.labels.every((l) => l === 0))).toBe(true);
    // Without the preset (or with only one of its conventions) they differ: the fixtures can fail.
    const ours = evaluate(rows, ["ndcg@3"], { gain: "linear" }).values["ndcg@3"];
    expect(fixtures.sklearn.some((row, q) => Math.abs(row["ndcg@3"] - ours[q]) > 1e-6)).toBe(true);
    const trec = evaluate(rows, ["map@5"], { preset: "trec_eval" }).values["map@5"];
    expect(fixtures.xgboost.some((row, q) => Math.abs(row["map@5"] - trec[q]) > 1e-6)).toBe(true);
  });

  it("lightgbm: exp gain, 1 without relevant documents, k clamped to the list, map@k / min(R, k, n), input order", () => {
    // LightGBM's map_metric.hpp CalMapAtK by hand: ranked labels 1 0 1 (scores 3 2 1), R = 2.
    const r = evaluate(
      { qid: [1, 1, 1], score: [3, 2, 1], rel: [1, 0, 1] },
      ["map@1", "map@2", "map@10", "ndcg@10", "precision@10"],
      { preset: "lightgbm" },
    );
    expect(r.values["map@1"][0]).toBe(1); // 1 / min(2, 1)
    expect(r.values["map@2"][0]).toBe(0.5); // 1 / min(2, 2)
    expect(r.values["map@10"][0]).toBeCloseTo((1 + 2 / 3) / 2, 15); // k clamped to 3: / min(2, 3)
    expect(r.values["precision@10"][0]).toBe(2 / 3); // clip: P@10 of 3 documents divides by 3
    expect(r.measureConventions["map@10"]).toBe(
      "rankeval: preset=lightgbm relevanceThreshold=1 noRelevant=one beyondList=clip ties=input definition=map_lightgbm",
    );
    // no relevant document: 1 (rank_metric.hpp, map_metric.hpp)
    const none = evaluate({ qid: [1, 1], score: [1, 2], rel: [0, 0] }, ["ndcg@5", "map@5"], { preset: "lightgbm" });
    expect([none.values["ndcg@5"][0], none.values["map@5"][0]]).toEqual([1, 1]);
    // stable_sort: equal scores in input order; exp gain (label_gain 2^i - 1)
    const tie = evaluate({ qid: [1, 1], score: [1, 1], rel: [1, 2] }, ["ndcg@1"], { preset: "lightgbm" });
    expect(tie.values["ndcg@1"][0]).toBeCloseTo(1 / 3, 15);
  });

  const lgb = new URL("../../shared/data/lightgbm-lambdarank/reference/", import.meta.url);
  it.skipIf(!existsSync(lgb))(
    "lightgbm on LightGBM's lambdarank example (../shared): exp gain as trec_eval on 2^l - 1 labels, and the range ties allow",
    async () => {
      const qrels = fileURLToPath(new URL("lgb_rank_test_f34.qrels", lgb));
      const run = fileURLToPath(new URL("lgb_rank_test_f34.run", lgb));
      // With trec_eval's tie order, LightGBM's gain gives trec_eval's exp-gain values (SOURCE.txt).
      const docid = await evaluateFiles(qrels, run, ["ndcg@1,3,5,10"], { preset: "lightgbm", ties: "docid" });
      expect(docid.mean["ndcg@10"].toFixed(4)).toBe("0.5724");
      expect(docid.mean["ndcg@5"].toFixed(4)).toBe("0.4577");
      // LightGBM's own order (input order) is another number, inside the range the ties allow.
      const own = await evaluateFiles(qrels, run, ["ndcg@10"], { preset: "lightgbm", tieRange: true });
      const { worst, best } = own.tieRange!["ndcg@10"].mean;
      expect(worst).toBeLessThan(best);
      expect(own.mean["ndcg@10"]).toBeGreaterThanOrEqual(worst);
      expect(own.mean["ndcg@10"]).toBeLessThanOrEqual(best);
      expect(docid.mean["ndcg@10"]).toBeGreaterThanOrEqual(worst);
      expect(docid.mean["ndcg@10"]).toBeLessThanOrEqual(best);
    },
  );

  it("torchmetrics: linear gain, 0 without relevant documents, AP@k over the relevant documents in the top k", () => {
    // retrieval_normalized_dcg's docstring: 0.6957; retrieval_average_precision's: 0.8333.
    expect(
      evaluate({ qid: [1, 1, 1, 1, 1], score: [0.1, 0.2, 0.3, 4, 70], rel: [10, 0, 0, 1, 5] }, "ndcg", {
        preset: "torchmetrics",
      }).mean.ndcg,
    ).toBeCloseTo(0.6957, 4);
    expect(
      evaluate({ qid: [1, 1, 1], score: [0.2, 0.3, 0.5], rel: [1, 0, 1] }, "map", { preset: "torchmetrics" }).mean.map,
    ).toBeCloseTo(0.8333, 4);
    // top_k = 1 and the first relevant document at rank 2: no relevant document in the top k, 0
    const r = evaluate({ qid: [1, 1, 1], score: [3, 2, 1], rel: [0, 1, 1] }, ["map@1", "map@2"], {
      preset: "torchmetrics",
    });
    expect([r.values["map@1"][0], r.values["map@2"][0]]).toEqual([0, 0.5]);
    expect(
      evaluate({ qid: [1, 1], score: [1, 2], rel: [0, 0] }, "ndcg@2", { preset: "torchmetrics" }).mean["ndcg@2"],
    ).toBe(0);
  });

  it("ignite: exp gain, queries without relevant items left out (CONVENTIONS.md's worked values)", () => {
    // y_pred [[4,2,3,1],[1,2,3,4]], y_true [[0,0,1,1],[0,0,0,0]], top_k [1,2,3,4]
    const ig = { qid: [0, 0, 0, 0, 1, 1, 1, 1], score: [4, 2, 3, 1, 1, 2, 3, 4], rel: [0, 0, 1, 1, 0, 0, 0, 0] };
    // CONVENTIONS.md gives them truncated: [0.0, 0.38.., 0.38.., 0.65..] and [0.0, 0.19.., 0.19.., 0.32..]
    const two = (v: number) => (Math.floor(v * 100) / 100).toFixed(2);
    const on = evaluate(ig, "ndcg@1,2,3,4", { preset: "ignite" });
    expect([1, 2, 3, 4].map((k) => two(on.mean[`ndcg@${k}`]))).toEqual(["0.00", "0.38", "0.38", "0.65"]);
    expect(on.queries.skipped.noRelevant).toBe(1);
    const off = evaluate(ig, "ndcg@1,2,3,4", { preset: "ignite", noRelevant: "zero" });
    expect([1, 2, 3, 4].map((k) => two(off.mean[`ndcg@${k}`]))).toEqual(["0.00", "0.19", "0.19", "0.32"]);
  });

  it("catboost: linear gain, 1 without relevant documents, ties in the worst order (lower target first)", () => {
    const r = evaluate({ qid: [1, 1, 1], score: [1, 1, 0], rel: [0, 2, 1] }, ["ndcg", "ndcg@1"], {
      preset: "catboost",
    });
    // ranked: 0, 2, 1 (the tie's lower target first)
    expect(r.values["ndcg@1"][0]).toBe(0);
    expect(r.values.ndcg[0]).toBeCloseTo((2 / Math.log2(3) + 1 / 2) / (2 + 1 / Math.log2(3)), 15);
    expect(evaluate({ qid: [1, 1], score: [1, 2], rel: [0, 0] }, "ndcg", { preset: "catboost" }).mean.ndcg).toBe(1);
  });

  it("ptranking: exp gain, 0 past the list, AP@k / the sum of the top k ideal labels, NaN without relevant documents", () => {
    const q = { qid: [1, 1, 1], score: [3, 2, 1], rel: [2, 0, 1] };
    const r = evaluate(q, ["map@3", "map@2", "precision@5", "ndcg@5", "ndcg@2"], { preset: "ptranking" });
    expect(r.values["map@3"][0]).toBeCloseTo((1 + 2 / 3) / 3, 15); // / (2 + 1 + 0)
    expect(r.values["map@2"][0]).toBeCloseTo(1 / 3, 15); // / (2 + 1)
    expect(r.values["precision@5"][0]).toBe(0); // k > n: 0 (torch_precision_at_ks pads with zeros)
    expect(r.values["ndcg@5"][0]).toBe(0);
    expect(r.values["ndcg@2"][0]).toBeCloseTo(3 / (3 + 1 / Math.log2(3)), 15);
    const none = evaluate({ qid: [1, 1], score: [1, 2], rel: [0, 0] }, ["ndcg@2", "map@2", "precision@2"], {
      preset: "ptranking",
    });
    expect(none.values["ndcg@2"][0]).toBeNaN(); // 0/0
    expect(none.values["map@2"][0]).toBeNaN();
    expect(none.values["precision@2"][0]).toBe(0);
  });

  it("ptranking-tutorial: the seed tutorial's P@k, AP@k (divided by k), nDCG@k and ERR@k, each 0 past the list", () => {
    // The seed documents: labels D1..D5 = 0, 2, 1, 0, 1, scores f1 = 0.3, 0.4, 0.2, 0.5, 1.1: ranked labels
    // [1, 0, 2, 0, 1], relevant (label > 0) at ranks 1, 3, 5, n = 5. torch has not been run here: the values are
    // worked from the tutorial's definitions.
    const seed = { qid: [1, 1, 1, 1, 1], score: [0.3, 0.4, 0.2, 0.5, 1.1], rel: [0, 2, 1, 0, 1] };
    const ks = "1,3,5,6";
    const r = evaluate(seed, [`precision@${ks}`, `map@${ks}`, "map", `ndcg@${ks}`, `err(max=2)@${ks}`], {
      preset: "ptranking-tutorial",
    });
    const at = (m: string) => ks.split(",").map((k) => r.values[`${m}@${k}`][0]);
    // tor_p_at_ks: rel(k) / k; k = 6 > n: 0
    expect(at("precision")).toEqual([1, 2 / 3, 3 / 5, 0]);
    // tor_ap_at_ks: precisions at the relevant ranks <= k summed, divided by k: 1/1; (1 + 2/3)/3 = 5/9;
    // (1 + 2/3 + 3/5)/5 = (34/15)/5 = 34/75; 0 past the list. Without a cutoff, over the list: 34/75.
    expect(at("map")).toEqual([1, 5 / 9, 34 / 75, 0].map((v) => expect.closeTo(v, 15)));
    expect(r.values.map[0]).toBeCloseTo(34 / 75, 15);
    // tor_nDCG_at_ks: gains 2^l - 1 [1, 0, 3, 0, 1], the ideal [3, 1, 1, 0, 0] cut at k too:
    // 1/3; (1 + 3/2)/(3 + 1/log2(3) + 1/2) = 0.6052; the seed's 0.6988385132278441; 0 past the list.
    const d = (i: number) => 1 / Math.log2(i + 1);
    expect(at("ndcg")).toEqual(
      [1 / 3, (1 + 3 * d(3)) / (3 + d(2) + d(3)), 0.6988385132278441, 0].map((v) => expect.closeTo(v, 15)),
    );
    // tor_err_at_ks with max_rele_level 2: p = (2^l - 1)/4, p(1) = 1/4, p(2) = 3/4.
    // rank 1: 1/4; rank 3: (1/3)(3/4)(3/4) = 3/16; rank 5: (1/5)(1/4)(3/4)(1/4) = 3/320;
    // ERR@1 = 1/4, ERR@3 = 7/16, ERR@5 = 143/320 = 0.446875, 0 past the list.
    expect(at("err(max=2)")).toEqual([1 / 4, 7 / 16, 143 / 320, 0].map((v) => expect.closeTo(v, 15)));
    expect(r.measureConventions["map@3"]).toBe(
      "rankeval: preset=ptranking-tutorial relevanceThreshold=1 beyondList=zero ties=input definition=map_over_k",
    );
    // the library's own AP@k (the ptranking preset) divides the same 5/3 by the top 3 ideal labels, 2 + 1 + 1
    expect(evaluate(seed, "map@3", { preset: "ptranking" }).mean["map@3"]).toBeCloseTo(5 / 12, 15);
    // No relevant document: nDCG is 0/0 = NaN; P, AP (0 / k) and ERR are 0.
    const none = evaluate(
      { qid: [1, 1], score: [1, 2], rel: [0, 0] },
      ["ndcg@2", "map@2", "map", "precision@2", "err(max=2)@2"],
      { preset: "ptranking-tutorial" },
    );
    expect(none.values["ndcg@2"][0]).toBeNaN();
    expect([none.values["map@2"][0], none.values.map[0], none.values["precision@2"][0]]).toEqual([0, 0, 0]);
    expect(none.values["err(max=2)@2"][0]).toBe(0);
    // torch.sort's order of equal scores is not defined: input order, label 0 first here
    const tie = evaluate({ qid: [1, 1], score: [1, 1], rel: [0, 1] }, ["precision@1", "map@2"], {
      preset: "ptranking-tutorial",
    });
    expect([tie.values["precision@1"][0], tie.values["map@2"][0]]).toEqual([0, 1 / 4]); // S(2) = 1/2, / 2
  });

  it("tfranking: exp gain, P@k divides by min(k, n), AP@k over the relevant documents in the top k", () => {
    const r = evaluate({ qid: [1, 1, 1], score: [3, 2, 1], rel: [1, 0, 1] }, ["precision@5", "map@2", "ndcg@2"], {
      preset: "tfranking",
    });
    expect(r.values["precision@5"][0]).toBe(2 / 3);
    expect(r.values["map@2"][0]).toBe(1); // only rank 1's relevant document is in the top 2
    expect(
      evaluate({ qid: [1, 1], score: [1, 2], rel: [0, 0] }, "ndcg@2", { preset: "tfranking" }).mean["ndcg@2"],
    ).toBe(0);
  });

  it("trec_eval (pytrec_eval, ir_measures), ranx and rankeval-default: the conventions of those tools' names", () => {
    const q = { qid: [1, 1, 1], score: [1, 1, 0], rel: [0, 2, 1], docid: ["a", "b", "c"] };
    const ndcg = (o: Options) => evaluate(q, "ndcg@2", o).mean["ndcg@2"];
    expect(ndcg({ preset: "trec_eval" })).toBe(evaluate(q, "ndcg_cut.2").mean.ndcg_cut_2);
    expect(ndcg({ preset: "pytrec_eval" })).toBe(ndcg({ preset: "trec_eval" }));
    expect(ndcg({ preset: "ir_measures" })).toBe(evaluate(q, "nDCG@2").mean["nDCG@2"]);
    expect(ndcg({ preset: "ranx" })).toBe(evaluate(q, "ndcg@2", { gain: "linear", ties: "input" }).mean["ndcg@2"]);
    expect(ndcg({ preset: "rankeval-default" })).toBe(ndcg({}));
  });

  it("every preset is named in the conventions line of every report", () => {
    for (const preset of PRESET_NAMES) {
      const r = evaluate({ qid: [1, 1], score: [1, 0], rel: [1, 0] }, ["ndcg@2", "num_ret"], { preset });
      expect(r.conventions).toMatch(new RegExp(`^preset=${preset} `));
      expect(r.measureConventions["ndcg@2"]).toMatch(new RegExp(`^rankeval: preset=${preset} `));
      // num_ret depends on no convention (but noRelevant "skip", which takes a query out of every mean)
      expect(r.measureConventions.num_ret).toMatch(
        new RegExp(`^rankeval: preset=${preset}( relevanceThreshold=1 noRelevant=skip)?$`),
      );
      expect(PRESETS[preset].source.length).toBeGreaterThan(20);
    }
  });
});

describe("a preset's precedence: defaults < a tool's name < the preset < options given < the measure's parameters", () => {
  const q = { qid: [1, 1, 1], score: [3, 2, 1], rel: [0, 2, 1] };
  const exp = (3 / Math.log2(3) + 1 / 2) / (3 + 1 / Math.log2(3));
  const linear = (2 / Math.log2(3) + 1 / 2) / (2 + 1 / Math.log2(3));

  it("the preset beats a tool's name's conventions: --preset xgboost -m ndcg_cut.10 is exp-gain", () => {
    expect(evaluate(q, "ndcg_cut.10").mean.ndcg_cut_10).toBeCloseTo(linear, 15);
    const r = evaluate(q, "ndcg_cut.10", { preset: "xgboost" });
    expect(r.mean.ndcg_cut_10).toBeCloseTo(exp, 15);
    expect(r.measureConventions.ndcg_cut_10).toBe(
      "trec_eval: preset=xgboost gain=exp relevanceThreshold=1 noRelevant=one beyondList=pad ties=input",
    );
  });

  it("options given beside a preset beat it", () => {
    expect(evaluate(q, "ndcg@10", { preset: "xgboost", gain: "linear" }).mean["ndcg@10"]).toBeCloseTo(linear, 15);
    expect(evaluate(q, "ndcg@10", { preset: "sklearn", gain: "exp" }).measureConventions["ndcg@10"]).toBe(
      "rankeval: preset=sklearn gain=exp noRelevant=zero beyondList=pad ties=average",
    );
  });

  it("a measure's own parameters beat the preset", () => {
    expect(evaluate(q, "nDCG(dcg='exp-log2')@10", { preset: "trec_eval" }).mean["nDCG(dcg='exp-log2')@10"]).toBeCloseTo(
      exp,
      15,
    );
    expect(evaluate(q, "P(rel=2)@1", { preset: "lightgbm" }).mean["P(rel=2)@1"]).toBe(0);
    // XGBoost's own `-` names fix noRelevant zero whatever the preset
    expect(
      evaluate({ qid: [1, 1], score: [1, 0], rel: [0, 0] }, "ndcg@2-", { preset: "lightgbm" }).mean["ndcg@2-"],
    ).toBe(0);
  });
});

describe("ties average: the closed forms by hand", () => {
  // Four documents tied, two relevant (labels 1 0 1 0): every order of them equally likely.
  const tied = { qid: [1, 1, 1, 1], score: [5, 5, 5, 5], rel: [1, 0, 1, 0] };
  const avg = (ms: string[], o: Options = {}) => evaluate(tied, ms, { ties: "average", ...o });

  it("precision, recall, hit_rate, hits, dcg: the expected count per rank is r/t", () => {
    const r = avg(
      ["precision@1", "precision@3", "recall@1", "hit_rate@1", "hit_rate@2", "hit_rate@3", "hits@2", "dcg@2"],
      { gain: "linear" },
    );
    expect(r.values["precision@1"][0]).toBe(0.5);
    expect(r.values["precision@3"][0]).toBe(0.5);
    expect(r.values["recall@1"][0]).toBe(0.25);
    expect(r.values["hit_rate@1"][0]).toBe(0.5);
    expect(r.values["hit_rate@2"][0]).toBeCloseTo(1 - (2 / 4) * (1 / 3), 15); // 1 - C(2,2)/C(4,2)
    expect(r.values["hit_rate@3"][0]).toBe(1); // 3 places of 4: a relevant document must be there
    expect(r.values["hits@2"][0]).toBe(1);
    expect(r.values["dcg@2"][0]).toBeCloseTo(0.5 + 0.5 / Math.log2(3), 15);
  });

  it("mrr: the first relevant document at place j with probability C(t-j, r-1)/C(t, r)", () => {
    // P(1) = 1/2, P(2) = 1/3, P(3) = 1/6
    expect(avg(["mrr"]).mean.mrr).toBeCloseTo(1 / 2 + 1 / 3 / 2 + 1 / 6 / 3, 15);
    expect(avg(["mrr@2"]).mean["mrr@2"]).toBeCloseTo(1 / 2 + 1 / 3 / 2, 15);
  });

  it("map: the mean of AP over the six placements of the two relevant documents", () => {
    const placements = [
      [1, 2],
      [1, 3],
      [1, 4],
      [2, 3],
      [2, 4],
      [3, 4],
    ].map(([a, b]) => (1 / a + 2 / b) / 2);
    expect(avg(["map"]).mean.map).toBeCloseTo(placements.reduce((x, y) => x + y) / 6, 15);
    expect(avg(["map"]).mean.map).toBeCloseTo(0.6805555555555556, 15);
  });

  it("matches the brute-force mean of the reference, and keeps ties broken by score first", () => {
    const q = { qid: [1, 1, 1, 1, 1], score: [9, 5, 5, 5, 1], rel: [0, 2, 0, 1, 3] };
    const ms = ["ndcg@2", "map@3", "mrr", "precision@2", "f1@2", "r-precision"];
    const ours = evaluate(q, ms, { ties: "average" });
    const ref = referenceEvaluate(q, ms, { ties: "average" });
    for (const m of Object.keys(ref.values)) expect(ours.values[m][0]).toBeCloseTo(ref.values[m][0], 14);
  });

  it("is refused, naming them, by the measures without a closed form", () => {
    expect(() => avg(["ndcg@2", "err@2", "bpref"])).toThrow(
      /ties "average" has no exact closed form for err@2, bpref: use ties "best" and "worst"/,
    );
    expect(() => avg(["map@2"], { preset: "torchmetrics" })).toThrow(/map@2 \(map_torchmetrics\)/);
  });
});

describe("the tie range: ties worst and best", () => {
  it("brackets the value of every order; equal to it where nothing is tied", () => {
    const q = { qid: [1, 1, 1, 2, 2], score: [1, 1, 0, 3, 2], rel: [0, 1, 1, 1, 0], docid: ["a", "b", "c", "a", "b"] };
    const r = evaluate(q, ["ndcg@1", "map", "err@2"], { tieRange: true });
    const t = r.tieRange!;
    expect(Array.from(t["ndcg@1"].worst)).toEqual([0, 1]);
    expect(Array.from(t["ndcg@1"].best)).toEqual([1, 1]);
    expect(t["ndcg@1"].mean).toEqual({ worst: 0.5, best: 1 });
    // docid descending puts b (relevant) first: the best order here
    expect(r.values["ndcg@1"][0]).toBe(1);
    expect(t.map.worst[0]).toBeCloseTo((1 / 2 + 2 / 3) / 2, 15);
    expect(t["err@2"].best[0]).toBeGreaterThan(t["err@2"].worst[0]);
    // without tieRange there is none
    expect(evaluate(q, "map").tieRange).toBeUndefined();
  });

  it("in evaluateRun: unjudged documents count as label 0 in the order", () => {
    const r = evaluateRun({ q: { a: 1, b: 0 } }, { q: { a: 1, b: 1, c: 1 } }, ["precision@1", "mrr"], {
      tieRange: true,
    });
    expect(r.tieRange!["precision@1"].mean).toEqual({ worst: 0, best: 1 });
    expect(r.tieRange!.mrr.mean).toEqual({ worst: 1 / 3, best: 1 });
  });
});
