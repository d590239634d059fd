// Published and worked values from other tools (see ../shared/CONVENTIONS.md, "Worked values"),
// checked on BOTH backends: the reference (src/reference/) and the real API (the WebAssembly kernel).
// Files come from ../shared beside the repository and are read in place, never copied here; when
// ../shared is absent the tests that need it are skipped with a warning.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { backends, type Values } from "./_backends.js";

const SHARED = new URL("../../shared/", import.meta.url);
const haveShared = existsSync(fileURLToPath(SHARED));
if (!haveShared)
  console.warn(
    `seeds.test.ts: ${fileURLToPath(SHARED)} is absent: skipping the golden files of ir_measures and LightGBM`,
  );
const shared = (path: string) => readFileSync(fileURLToPath(new URL(path, SHARED)), "utf8");

/** TREC qrels (qid iter docid rel) as columns, by a plain whitespace split. */
function readQrels(text: string) {
  const c = { qid: [] as string[], docid: [] as string[], rel: [] as number[] };
  for (const line of text.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f.length < 4) continue;
    c.qid.push(f[0]);
    c.docid.push(f[2]);
    c.rel.push(Number(f[3]));
  }
  return c;
}

/** TREC run (qid iter docid rank score tag) as columns; the rank column is ignored. */
function readRun(text: string) {
  const c = { qid: [] as string[], docid: [] as string[], score: [] as number[] };
  for (const line of text.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f.length < 6) continue;
    c.qid.push(f[0]);
    c.docid.push(f[2]);
    c.score.push(Number(f[4]));
  }
  return c;
}

/** trec_eval -q output (measure qid value) as { measure: { qid: value } }, without the "all" lines. */
function readTrecEval(text: string): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const line of text.split("\n")) {
    const [measure, qid, value] = line.trim().split(/\s+/);
    if (value === undefined || qid === "all") continue;
    (out[measure] ??= {})[qid] = Number(value);
  }
  return out;
}

/**
 * |got - want| within one unit of the last published decimal of `want`: some sources round, others
 * truncate (the seed's DCG(f1) = 2.886852... is published as 2.8868, pytrec_eval's 0.7601875... as 0.76018).
 */
function expectPrinted(got: number, want: string, what: string): void {
  const decimals = want.includes(".") ? want.split(".")[1].length : 0;
  const ok = Math.abs(got - Number(want)) <= 10 ** -decimals + 1e-12;
  expect(ok, `${what}: got ${got}, published ${want}`).toBe(true);
}

const mean = (v: Float64Array) => {
  const kept = [...v].filter((x) => !Number.isNaN(x));
  return kept.reduce((a, b) => a + b, 0) / kept.length;
};

describe.each(backends)("$name", (b) => {
  describe("the seed documents", () => {
    // labels D1..D5 = 0, 2, 1, 0, 1; f1 and f2 two models' scores; exp gain (the default)
    const labels = [0, 2, 1, 0, 1];
    const rows = (score: number[]) => ({ qid: labels.map(() => "q"), score, rel: labels });
    const f1 = rows([0.3, 0.4, 0.2, 0.5, 1.1]);
    const f2 = rows([0.1, 1.5, 0.2, 0.4, 0.6]);

    it("DCG(f1) = 2.8868, DCG(f2) = 4.0616, ideal DCG = 4.1309", () => {
      expectPrinted(b.evaluate(f1, "dcg").values.dcg[0], "2.8868", "DCG(f1)");
      expectPrinted(b.evaluate(f2, "dcg").values.dcg[0], "4.0616", "DCG(f2)");
      // the ideal: scoring each document by its own label ranks it ideally
      expectPrinted(b.evaluate(rows(labels), "dcg").values.dcg[0], "4.1309", "ideal DCG");
    });

    it("nDCG@5(f1) = 0.6988385132278441 and nDCG@[1,3,5](f1) = [0.3333, 0.6052, 0.6988]", () => {
      const v = b.evaluate(f1, "ndcg@1,3,5").values;
      expect(Math.abs(v["ndcg@5"][0] - 0.6988385132278441)).toBeLessThanOrEqual(1e-12);
      expectPrinted(v["ndcg@1"][0], "0.3333", "nDCG@1(f1)");
      expectPrinted(v["ndcg@3"][0], "0.6052", "nDCG@3(f1)");
      expectPrinted(v["ndcg@5"][0], "0.6988", "nDCG@5(f1)");
    });
  });

  describe("PyTorch-Ignite NDCG", () => {
    // y_pred = [[4,2,3,1],[1,2,3,4]], y_true = [[0,0,1,1],[0,0,0,0]], exp gain, top_k 1..4.
    // Query 0 ranks labels [0, 1, 0, 1]; query 1 has no relevant document.
    const rows = {
      qid: [0, 0, 0, 0, 1, 1, 1, 1],
      score: [4, 2, 3, 1, 1, 2, 3, 4],
      rel: [0, 0, 1, 1, 0, 0, 0, 0],
    };
    const ks = "ndcg@1,2,3,4";
    it('ignore_zero_hits=True is noRelevant "skip": [0.0, 0.38.., 0.38.., 0.65..]', () => {
      const v = b.evaluate(rows, ks, { noRelevant: "skip" }).values;
      const means = [1, 2, 3, 4].map((k) => mean(v[`ndcg@${k}`]));
      expect(means[0]).toBe(0);
      expect(String(means[1])).toMatch(/^0\.38/);
      expect(String(means[2])).toMatch(/^0\.38/);
      expect(String(means[3])).toMatch(/^0\.65/);
    });
    it('ignore_zero_hits=False is noRelevant "zero": [0.0, 0.19.., 0.19.., 0.32..]', () => {
      const v = b.evaluate(rows, ks, { noRelevant: "zero" }).values;
      const means = [1, 2, 3, 4].map((k) => mean(v[`ndcg@${k}`]));
      expect(means[0]).toBe(0);
      expect(String(means[1])).toMatch(/^0\.19/);
      expect(String(means[2])).toMatch(/^0\.19/);
      expect(String(means[3])).toMatch(/^0\.32/);
    });
  });

  describe("scikit-learn ndcg_score", () => {
    // y_true = [10, 0, 0, 1, 5], scores [.1, .2, .3, 4, 70], linear gain: 0.695694.
    // sklearn's other published cases (all scores tied -> 0.690979; [1,1,1,.5,.5] -> 0.699812;
    // [1,0,0,0,1] at k=1 -> 0.75) average the gains of tied documents (McSherry & Najork 2008).
    // rankeval never averages ties: equal scores are ordered by document id or input order
    // (trec_eval, LightGBM), so those values are not ours to match.
    it("y_true [10,0,0,1,5], scores [.1,.2,.3,4,70] -> 0.695694", () => {
      const rows = { qid: [1, 1, 1, 1, 1], score: [0.1, 0.2, 0.3, 4, 70], rel: [10, 0, 0, 1, 5] };
      expectPrinted(b.evaluate(rows, "ndcg", { gain: "linear" }).values.ndcg[0], "0.695694", "ndcg_score");
    });
  });

  describe("ir_measures' README example (pypi.org/project/ir-measures)", () => {
    // calc_aggregate([AP, nDCG, RR, nDCG@10, P(rel=2)@10], qrels, run) ->
    // {AP: 0.75, nDCG: 0.8154648767857288, RR: 0.75, nDCG@10: 0.8154648767857288, P(rel=2)@10: 0.05},
    // per query AP 0.5 / 1.0, nDCG 0.6309297535714575 / 1.0, P(rel=2)@10 0.0 / 0.1.
    const qrels = { Q0: { D0: 0, D1: 1 }, Q1: { D0: 0, D3: 2 } };
    const run = { Q0: { D0: 1.2, D1: 1.0 }, Q1: { D0: 2.4, D3: 3.6 } };
    it("gives its numbers under its names, with no options", () => {
      const r = b.evaluateRun(qrels, run, ["AP", "nDCG", "RR", "nDCG@10", "P(rel=2)@10"]);
      expect(r.qids).toEqual(["Q0", "Q1"]);
      const want: Record<string, [number, number]> = {
        AP: [0.5, 1],
        nDCG: [0.6309297535714575, 1],
        RR: [0.5, 1],
        "nDCG@10": [0.6309297535714575, 1],
        "P(rel=2)@10": [0, 0.1],
      };
      for (const [m, [q0, q1]] of Object.entries(want)) {
        expect(r.values[m][0], `${m} Q0`).toBeCloseTo(q0, 15);
        expect(r.values[m][1], `${m} Q1`).toBeCloseTo(q1, 15);
      }
    });
  });

  describe.skipIf(!haveShared)("ir_measures fixtures (../shared/golden/ir_measures)", () => {
    const pair = (name: string) => ({
      qrels: readQrels(shared(`golden/ir_measures/${name}.qrels`)),
      run: readRun(shared(`golden/ir_measures/${name}.run`)),
    });
    const check = (r: Values, expected: Record<string, [string, string]>) => {
      expect(r.qids).toEqual(["0", "1"]);
      for (const [m, [q0, q1]] of Object.entries(expected)) {
        expectPrinted(r.values[m][0], q0, `${m} q0`);
        expectPrinted(r.values[m][1], q1, `${m} q1`);
      }
    };

    // Each tool's numbers under its own names, with no options: the names carry the conventions.
    it("tiny_a, gdeval under ir_measures' names (exp gain, ERR with max 4)", () => {
      const { qrels, run } = pair("tiny_a");
      check(b.evaluateRun(qrels, run, ["nDCG(dcg='exp-log2')@20", "nDCG(dcg='exp-log2')@2", "ERR@20", "ERR@2"]), {
        "nDCG(dcg='exp-log2')@20": ["0.6201", "0.35099"],
        "nDCG(dcg='exp-log2')@2": ["0.17377", "0.38685"],
        "ERR@20": ["0.10175", "0.09375"],
        "ERR@2": ["0.03125", "0.09375"],
      });
    });

    it("tiny_a, trec_eval (linear gain) under trec_eval's names and ir_measures' (pytrec_eval)", () => {
      const { qrels, run } = pair("tiny_a");
      check(
        b.evaluateRun(qrels, run, ["ndcg_cut.2", "map", "recip_rank", "P.2", "nDCG", "nDCG@2", "AP", "RR", "P@2"]),
        {
          ndcg_cut_2: ["0.2398", "0.3869"],
          map: ["0.6389", "0.1667"],
          recip_rank: ["0.5", "0.5"],
          P_2: ["0.5", "0.5"],
          nDCG: ["0.6585", "0.3354"],
          "nDCG@2": ["0.2398", "0.3869"],
          AP: ["0.6389", "0.1667"],
          RR: ["0.5", "0.5"],
          "P@2": ["0.5", "0.5"],
        },
      );
      // The library's own ndcg is exp-gain: another number on the same data, under another key.
      check(b.evaluateRun(qrels, run, ["ndcg@20"]), { "ndcg@20": ["0.6201", "0.35099"] });
    });

    it("tiny_neg, pytrec_eval under ir_measures' names (linear gain; -1 labels)", () => {
      const { qrels, run } = pair("tiny_neg");
      check(b.evaluateRun(qrels, run, ["nDCG", "nDCG@3"]), {
        nDCG: ["0.76018", "0.32739"],
        "nDCG@3": ["0.76018", "0.00000"], // published as 0.0
      });
      // Its third published case, gains {0: 1, 1: 4}, gives label 0 a gain: rankeval's labels <= 0
      // always gain 0, so it is refused rather than computed otherwise.
      expect(() => b.evaluateRun(qrels, run, ["nDCG(gains={0:1,1:4})"])).toThrow(/gives label 0 no gain/);
      // A table that leaves label 0 alone maps the labels as pytrec_eval does: trec_eval's ndcg.1=4.
      const r = b.evaluateRun(qrels, run, ["nDCG(gains={1:4})", "ndcg.1=4"]);
      expect([...r.values["nDCG(gains={1:4})"]]).toEqual([...r.values["ndcg_1=4"]]);
      expect(r.values["nDCG(gains={1:4})"][0]).not.toBeCloseTo(0.76018, 3);
    });
  });

  describe.skipIf(!haveShared)("LightGBM lambdarank test data scored by feature 34, against trec_eval -q -c", () => {
    // See ../shared/data/lightgbm-lambdarank/SOURCE.txt: 50 queries, 215 of 768 rows in tied-score
    // groups, so trec_eval's tie rule (document id descending) decides many ranks.
    const dir = "data/lightgbm-lambdarank/reference/";
    // trec_eval's names (bare map, ndcg, num_ret, num_rel are the library's own: given gain "linear")
    const measures = ["map", "ndcg", "ndcg_cut.1,3,5,10", "P.1,5,10", "recip_rank", "recall.10", "num_ret", "num_rel"];
    const trecName: Record<string, string> = {
      map: "map",
      ndcg: "ndcg",
      ndcg_cut_1: "ndcg_cut_1",
      ndcg_cut_3: "ndcg_cut_3",
      ndcg_cut_5: "ndcg_cut_5",
      ndcg_cut_10: "ndcg_cut_10",
      P_1: "P_1",
      P_5: "P_5",
      P_10: "P_10",
      recip_rank: "recip_rank",
      recall_10: "recall_10",
      num_ret: "num_ret",
      num_rel: "num_rel",
      "ndcg@1": "ndcg_cut_1",
      "ndcg@3": "ndcg_cut_3",
      "ndcg@5": "ndcg_cut_5",
      "ndcg@10": "ndcg_cut_10",
    };
    const compare = (r: Values, golden: Record<string, Record<string, number>>, names: string[], text: string) => {
      expect(r.qids.length).toBe(50);
      let compared = 0;
      for (const name of names) {
        const want = golden[trecName[name]];
        expect(want, `${trecName[name]} in the trec_eval output`).toBeDefined();
        r.qids.forEach((qid, q) => {
          const w = want[String(qid)];
          expect(w, `${trecName[name]} of ${String(qid)}`).toBeDefined();
          // trec_eval prints %6.4f: the printed value is within half a unit of the 4th decimal
          const ok = Math.abs(r.values[name][q] - w) <= 0.5e-4 + 1e-9;
          expect(ok, `${name} of ${String(qid)} (${text}): got ${r.values[name][q]}, trec_eval ${w}`).toBe(true);
          compared++;
        });
      }
      expect(compared).toBe(names.length * 50);
    };

    it("linear gain: map, ndcg, ndcg_cut_1,3,5,10, P_1,5,10, recip_rank, recall_10, num_ret, num_rel per query", () => {
      const qrels = readQrels(shared(`${dir}lgb_rank_test_f34.qrels`));
      const run = readRun(shared(`${dir}lgb_rank_test_f34.run`));
      const golden = readTrecEval(shared(`${dir}lgb_rank_test_f34.trec_eval_q_linear.txt`));
      const r = b.evaluateRun(qrels, run, measures, { gain: "linear" });
      compare(
        r,
        golden,
        Object.keys(trecName).filter((n) => !n.includes("@")),
        "linear",
      );
    });

    // The exp-gain file is trec_eval (linear gain) run on _exp.qrels, whose labels are already
    // 2^l - 1: so it equals gain "exp" on the original qrels, and gain "linear" on _exp.qrels.
    // (gain "exp" on _exp.qrels would apply the exponential twice.)
    const expNames = ["ndcg", "ndcg@1", "ndcg@3", "ndcg@5", "ndcg@10"];
    it('exp gain: ndcg, ndcg_cut_1,3,5,10 = gain "exp" on the original qrels', () => {
      const qrels = readQrels(shared(`${dir}lgb_rank_test_f34.qrels`));
      const run = readRun(shared(`${dir}lgb_rank_test_f34.run`));
      const golden = readTrecEval(shared(`${dir}lgb_rank_test_f34.trec_eval_q_expgain.txt`));
      compare(b.evaluateRun(qrels, run, "ndcg ndcg@1,3,5,10", { gain: "exp" }), golden, expNames, "exp");
    });
    it('exp gain: the same with gain "linear" on _exp.qrels', () => {
      const qrels = readQrels(shared(`${dir}lgb_rank_test_f34_exp.qrels`));
      const run = readRun(shared(`${dir}lgb_rank_test_f34.run`));
      const golden = readTrecEval(shared(`${dir}lgb_rank_test_f34.trec_eval_q_expgain.txt`));
      compare(
        b.evaluateRun(qrels, run, "ndcg ndcg@1,3,5,10", { gain: "linear" }),
        golden,
        expNames,
        "linear on _exp.qrels",
      );
    });
  });
});
