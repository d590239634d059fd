// Hand-computed cases for every measure and convention, each checked against BOTH backends: the
// plain-TypeScript reference (src/reference/) and the real API (the WebAssembly kernel). The arithmetic
// is in the comments; d(i) = 1/log2(i + 1) is the discount at rank i: d(1) = 1, d(2) = 0.6309297535714575,
// d(3) = 0.5, d(4) = 0.43067655807339306, d(5) = 0.38685280723454163.
import { describe, expect, it } from "vitest";
import { evaluate, RankevalError, type Options, type Rows } from "../src/index.js";
import { backends, expectValues } from "./_backends.js";

const d = (i: number) => 1 / Math.log2(i + 1);

/** One query, rows given in rank order: scores n, n-1, ..., 1 (so no ties). */
const ranked = (labels: number[]): Rows => ({
  qid: labels.map(() => "q"),
  score: labels.map((_, i) => labels.length - i),
  rel: labels,
});

// The seed documents' query: labels D1..D5 = 0, 2, 1, 0, 1, scores f1 = 0.3, 0.4, 0.2, 0.5, 1.1.
// Ranked by score (1.1, 0.5, 0.4, 0.3, 0.2) the labels read [1, 0, 2, 0, 1]; R = 3, NR = 2.
const seed: Rows = { qid: [1, 1, 1, 1, 1], score: [0.3, 0.4, 0.2, 0.5, 1.1], rel: [0, 2, 1, 0, 1] };

describe.each(backends)("$name", (b) => {
  describe("every measure on one query (the seed: labels ranked [1, 0, 2, 0, 1])", () => {
    it("dcg and ndcg, exp gain (default)", () => {
      // gains 2^l - 1 as ranked: [1, 0, 3, 0, 1]; dcg = 1·d(1) + 3·d(3) + 1·d(5) = 1 + 1.5 + 0.386852807 = 2.886852807
      // ideal gains [3, 1, 1, 0, 0]: idcg = 3 + d(2) + d(3) = 3 + 0.630929754 + 0.5 = 4.130929754
      // dcg@1 = 1; idcg@1 = 3 -> ndcg@1 = 1/3; dcg@3 = 2.5, idcg@3 = 4.130929754 -> ndcg@3 = 0.605190635
      expectValues(b.evaluate(seed, ["dcg", "ndcg", "dcg@1", "ndcg@1", "ndcg@3", "ndcg@5"]), {
        dcg: 1 + 3 * d(3) + d(5),
        ndcg: (1 + 3 * d(3) + d(5)) / (3 + d(2) + d(3)),
        "dcg@1": 1,
        "ndcg@1": 1 / 3,
        "ndcg@3": (1 + 3 * d(3)) / (3 + d(2) + d(3)),
        "ndcg@5": 0.6988385132278441,
      });
    });

    it("dcg and ndcg, linear gain", () => {
      // gains = labels [1, 0, 2, 0, 1]: dcg = 1 + 2·0.5 + 0.386852807 = 2.386852807; idcg = 2 + d(2) + d(3) = 3.130929754
      expectValues(b.evaluate(seed, ["dcg", "ndcg", "ndcg@2"], { gain: "linear" }), {
        dcg: 1 + 2 * d(3) + d(5),
        ndcg: (1 + 2 * d(3) + d(5)) / (2 + d(2) + d(3)),
        "ndcg@2": 1 / (2 + d(2)), // dcg@2 = 1, idcg@2 = 2 + 0.630929754
      });
    });

    it("precision, recall, f1, hit_rate", () => {
      // relevant at ranks 1, 3, 5; R = 3
      expectValues(b.evaluate(seed, ["precision@1,2,3,5,10", "recall@1,2,3,5", "f1@2,5", "hit_rate@1,2"]), {
        "precision@1": 1,
        "precision@2": 1 / 2,
        "precision@3": 2 / 3,
        "precision@5": 3 / 5,
        "precision@10": 3 / 10, // k > N pads: divides by k
        "recall@1": 1 / 3,
        "recall@2": 1 / 3,
        "recall@3": 2 / 3,
        "recall@5": 1,
        "f1@2": 0.4, // P = 1/2, Rc = 1/3: 2·(1/6) / (5/6) = 0.4
        "f1@5": 0.75, // P = 3/5, Rc = 1: 2·0.6 / 1.6 = 0.75
        "hit_rate@1": 1,
        "hit_rate@2": 1,
      });
    });

    it("map, mrr, r-precision, bpref", () => {
      // map = (1/3)(1/1 + 2/3 + 3/5) = 0.755555...; map@3 = (1/3)(1 + 2/3) = 5/9; map@1 = 1/3
      // r-precision: rel(3) = 2 -> 2/3
      // bpref: rank 1 relevant, n = 0 -> 1; rank 3: n = 1 -> 1 - min(1,3)/min(2,3) = 1/2; rank 5: n = 2 -> 1 - 2/2 = 0
      //        (1 + 0.5 + 0) / 3 = 0.5
      expectValues(b.evaluate(seed, ["map", "map@3", "map@1", "mrr", "mrr@1", "r-precision", "bpref"]), {
        map: (1 + 2 / 3 + 3 / 5) / 3,
        "map@3": 5 / 9,
        "map@1": 1 / 3,
        mrr: 1,
        "mrr@1": 1,
        "r-precision": 2 / 3,
        bpref: 0.5,
      });
    });

    it("err with the default max = 4 and with max = 3", () => {
      // max 4: p = (2^l - 1)/16: p(1) = 1/16, p(2) = 3/16.
      //   r1: 1·(1/16) = 0.0625; r3: (1/3)(3/16)(15/16) = 15/256 = 0.05859375; r5: (1/5)(1/16)(15/16)(13/16) = 195/20480
      //   err = 0.0625 + 0.05859375 + 0.009521484375 = 0.130615234375; err@2 = 0.0625
      // max 3: p(1) = 1/8, p(2) = 3/8: 0.125 + (1/3)(3/8)(7/8) + (1/5)(1/8)(7/8)(5/8) = 0.125 + 0.109375 + 0.013671875
      expectValues(b.evaluate(seed, ["err", "err@2", "err(max=3)", "err(max=3)@1"]), {
        err: 0.130615234375,
        "err@2": 0.0625,
        "err(max=3)": 0.248046875,
        "err(max=3)@1": 0.125,
      });
    });

    it("err: labels above max count as max", () => {
      // labels ranked [4, 3]. max 4: p = 15/16, 7/16 -> 15/16 + (1/2)(7/16)(1/16) = 0.9375 + 0.013671875
      // max 3: p(4) = p(3) = 7/8 -> 7/8 + (1/2)(7/8)(1/8) = 0.875 + 0.0546875
      expectValues(b.evaluate(ranked([4, 3]), ["err", "err(max=3)"]), { err: 0.951171875, "err(max=3)": 0.9296875 });
    });

    it("num_ret, num_rel, num_rel_ret", () => {
      expectValues(b.evaluate(seed, ["num_ret", "num_rel", "num_rel_ret"]), { num_ret: 5, num_rel: 3, num_rel_ret: 3 });
    });

    it("inversions: labels ranked [0, 2, 1, 0, 1] -> 4", () => {
      // rank 1 (0) < ranks 2, 3, 5; rank 4 (0) < rank 5: 3 + 1 = 4 bubble-sort swaps
      expectValues(b.evaluate(ranked([0, 2, 1, 0, 1]), "inversions"), { inversions: 4 });
      // the seed: [1, 0, 2, 0, 1]: (1<2), (0<2), (0<1), (0<1) = 4
      expectValues(b.evaluate(seed, "inversions"), { inversions: 4 });
      expectValues(b.evaluate(ranked([3, 2, 1]), "inversions"), { inversions: 0 });
      expectValues(b.evaluate(ranked([1, 2, 3]), "inversions"), { inversions: 3 });
    });

    it("kendall_tau (tau-b, scipy.stats.kendalltau semantics)", () => {
      // scores [3, 2, 2, 1], labels [2, 1, 0, 0]: n0 = 6, n1 = 1 (2,2), n2 = 1 (0,0), n3 = 0, D = 0
      //   tau = (6 - 1 - 1 + 0 - 0) / sqrt(5·5) = 0.8   (scipy: kendalltau([3,2,2,1], [2,1,0,0]) = 0.8)
      expectValues(b.evaluate({ qid: [1, 1, 1, 1], score: [3, 2, 2, 1], rel: [2, 1, 0, 0] }, "kendall_tau"), {
        kendall_tau: 0.8,
      });
      // scores [1, 2, 3, 4, 5], labels [0, 1, 1, 2, 0]: n0 = 10, n1 = 0, n2 = 2, n3 = 0; concordant 5, discordant 3
      //   tau = (10 - 0 - 2 + 0 - 6) / sqrt(10·8) = 2/sqrt(80) = 0.22360679774997896
      expectValues(b.evaluate({ qid: [1, 1, 1, 1, 1], score: [1, 2, 3, 4, 5], rel: [0, 1, 1, 2, 0] }, "tau"), {
        kendall_tau: 2 / Math.sqrt(80),
      });
      // the seed: n0 = 10, n2 = 2 (1,1 and 0,0), D = 4 -> (10 - 2 - 8) / sqrt(80) = 0
      expectValues(b.evaluate(seed, "kendall_tau"), { kendall_tau: 0 });
      // scores and labels in opposite orders: -1; all labels equal: undefined -> 0
      expectValues(b.evaluate(ranked([1, 2, 3]), "kendall_tau"), { kendall_tau: -1 });
      expectValues(b.evaluate(ranked([2, 2, 2]), "kendall_tau"), { kendall_tau: 0 });
    });

    it("mse", () => {
      // (1.1-1)² + (0.5-0)² + (0.4-2)² + (0.3-0)² + (0.2-1)² = 0.01 + 0.25 + 2.56 + 0.09 + 0.64 = 3.55; / 5 = 0.71
      expectValues(b.evaluate(seed, "mse"), { mse: 3.55 / 5 });
    });
  });

  describe("hits (ranx) and judged (ir_measures' Judged)", () => {
    it("hits@k counts the relevant documents in the top k (ranx metrics/hits.py), the whole list without k", () => {
      // seed ranked [1, 0, 2, 0, 1]: relevant at ranks 1, 3, 5
      expectValues(b.evaluate(seed, ["hits@1", "hits@2", "hits@3", "hits@10", "hits", "hits@3-l2"]), {
        "hits@1": 1,
        "hits@2": 1,
        "hits@3": 2,
        "hits@10": 3, // k > N reads the list (ranx's fix_k)
        hits: 3,
        "hits@3-l2": 1, // ranx's relevance level 2: only the label-2 document at rank 3
      });
      // a query without relevant documents: 0 (ranx returns 0.0)
      expectValues(b.evaluate(ranked([0, 0]), ["hits@2"], { noRelevant: "one" }), { "hits@2": 0 });
    });

    it("judged@k: the fraction of the top min(k, N) that has a judgment, whatever its label", () => {
      // run ranks a (1), x (unjudged), b (-1, judged), y (unjudged); judgments a, b, c
      const qrels = { q: { a: 1, b: -1, c: 2 } };
      const run = { q: { a: 4, x: 3, b: 2, y: 1 } };
      expectValues(
        b.evaluateRun(qrels, run, ["Judged@1", "Judged@2", "Judged@3", "Judged@4", "Judged@10", "judged@3"]),
        {
          "Judged@1": 1,
          "Judged@2": 1 / 2,
          "Judged@3": 2 / 3, // b's -1 is a judgment
          "Judged@4": 2 / 4,
          "Judged@10": 2 / 4, // divided by the cutoff cut to the list (judged_provider.py)
          "judged@3": 2 / 3,
        },
      );
      // rows are all judged
      expectValues(b.evaluate(seed, ["judged@3"]), { "judged@3": 1 });
      // nothing ranked is judged: 0
      expectValues(b.evaluateRun({ q: { a: 1 } }, { q: { x: 1 } }, ["Judged@5"]), { "Judged@5": 0 });
    });

    it("fall_out@k: the share of the judged non-relevant documents in the top k (torchmetrics' fall-out)", () => {
      // the seed ranks labels [1, 0, 2, 0, 1]: NR = 2 (ranks 2 and 4)
      expectValues(b.evaluate(seed, ["fall_out@1,2,3,4,10", "fall_out"]), {
        "fall_out@1": 0,
        "fall_out@2": 1 / 2,
        "fall_out@3": 1 / 2,
        "fall_out@4": 1,
        "fall_out@10": 1,
        fall_out: 1,
      });
      expectValues(b.evaluate(seed, ["fallout@2"]), { "fall_out@2": 1 / 2 }); // the alias, keyed by the canonical name
      // threshold 2: labels 0 and 1 are non-relevant, NR = 4; the top 2 hold 2 of them, the top 3 still 2
      const threshold2 = { relevanceThreshold: 2 };
      expectValues(b.evaluate(seed, ["fall_out@2,3"], threshold2), { "fall_out@2": 2 / 4, "fall_out@3": 2 / 4 });
      // no judged non-relevant document: 1 (empty_target_action's default "pos"), whatever R
      expectValues(b.evaluate(ranked([1, 2]), ["fall_out@1"]), { "fall_out@1": 1 });
      // torchmetrics' example (RetrievalFallOut(top_k=2)): 0.5 for both queries
      const example = {
        qid: [0, 0, 0, 1, 1, 1, 1],
        score: [0.2, 0.3, 0.5, 0.1, 0.3, 0.5, 0.2],
        rel: [0, 0, 1, 0, 1, 0, 1],
      };
      expectValues(b.evaluate(example, ["fall_out@2"]), { "fall_out@2": [0.5, 0.5] });
      // judgments a 1, b 0, c 0 (never ranked), d -1; the run ranks a, x (unjudged), d, b: NR = 2 (b, c);
      // neither x nor d counts
      const run = { q: { a: 4, x: 3, d: 2, b: 1 } };
      expectValues(b.evaluateRun({ q: { a: 1, b: 0, c: 0, d: -1 } }, run, ["fall_out@3", "fall_out"]), {
        "fall_out@3": 0,
        fall_out: 1 / 2,
      });
    });
  });

  describe("map_over_k (ptranking's seed tutorial, tor_ap_at_ks): S(k) / k", () => {
    it("the sum of the precisions at the relevant ranks i <= k, divided by k; without a cutoff by N", () => {
      // the seed ranks labels [1, 0, 2, 0, 1]: relevant at ranks 1, 3, 5 with precisions 1, 2/3, 3/5;
      // S(1) = S(2) = 1, S(3) = S(4) = 5/3, S(5) = 1 + 2/3 + 3/5 = 34/15
      expectValues(b.evaluate(seed, ["map_over_k@1,2,3,4,5,10", "map_over_k"]), {
        "map_over_k@1": 1,
        "map_over_k@2": 1 / 2,
        "map_over_k@3": 5 / 9, // (5/3) / 3; map@3 divides by R = 3 too, map_ptranking@3 by 2 + 1 + 1
        "map_over_k@4": 5 / 12,
        "map_over_k@5": 34 / 75,
        "map_over_k@10": 34 / 150, // k > N pads: ranks 6..10 add nothing, the divisor stays k
        map_over_k: 34 / 75, // S(N) / N
      });
      // the other ways past the list: 0, NaN, k read as N
      expectValues(b.evaluate(seed, ["map_over_k@10"], { beyondList: "zero" }), { "map_over_k@10": 0 });
      expectValues(b.evaluate(seed, ["map_over_k@10"], { beyondList: "nan" }), { "map_over_k@10": NaN });
      expectValues(b.evaluate(seed, ["map_over_k@10"], { beyondList: "clip" }), { "map_over_k@10": 34 / 75 });
      // threshold 2: only rank 3 is relevant, its precision 1/3: S(3) = 1/3
      expectValues(b.evaluate(seed, ["map_over_k@3"], { relevanceThreshold: 2 }), { "map_over_k@3": 1 / 9 });
    });

    it("needs no relevant document: 0 whatever noRelevant says (but skip)", () => {
      const none = ranked([0, 0, 0]);
      for (const noRelevant of ["zero", "one", "nan"] as const) {
        expectValues(b.evaluate(none, ["map_over_k@2", "map_over_k"], { noRelevant }), {
          "map_over_k@2": 0,
          map_over_k: 0,
        });
      }
      expectValues(b.evaluate(none, ["map_over_k@2"], { noRelevant: "skip" }), { "map_over_k@2": NaN });
    });

    it("ties average: the mean of S(k) / k over every order of the tie", () => {
      // four tied documents, two relevant: S(2) by the places of the relevant ones, each pair equally likely:
      // (1,2) 1 + 1, (1,3) 1, (1,4) 1, (2,3) 1/2, (2,4) 1/2, (3,4) 0 -> mean 5/6; divided by k = 2: 5/12
      const tied = { qid: [1, 1, 1, 1], score: [5, 5, 5, 5], rel: [1, 0, 1, 0] };
      expectValues(b.evaluate(tied, ["map_over_k@2"], { ties: "average" }), { "map_over_k@2": 5 / 12 });
    });

    it("evaluateRun: unjudged ranked documents count as non-relevant, relevant ones never ranked not at all", () => {
      // judgments a 1, b 1 (never ranked), c 0; the run ranks a, x (unjudged), c: S(3) = 1
      const run = { q: { a: 3, x: 2, c: 1 } };
      expectValues(b.evaluateRun({ q: { a: 1, b: 1, c: 0 } }, run, ["map_over_k@2", "map_over_k@3", "map_over_k"]), {
        "map_over_k@2": 1 / 2,
        "map_over_k@3": 1 / 3,
        map_over_k: 1 / 3,
      });
    });
  });

  describe("each tool's name carries its conventions", () => {
    it("ndcg_burges (ranx): exp gain whatever gain is given; ndcg_cut and nDCG: linear unless given", () => {
      // ranx/metrics/ndcg.py _dcg(jarvelin=False): sum of (2^rel - 1) / log2(i + 1) over the top k; the
      // ideal is the qrels sorted, cut at k too (_idcg). Seed ranked [1, 0, 2, 0, 1]
      const exp = (1 + 3 * d(3)) / (3 + d(2) + d(3));
      const linear = (1 + 2 * d(3)) / (2 + d(2) + d(3));
      expectValues(b.evaluate(seed, ["ndcg_burges@3", "ndcg@3", "ndcg_cut.3", "nDCG@3", "dcg_burges@3"]), {
        "ndcg_burges@3": exp,
        "ndcg@3": exp,
        ndcg_cut_3: linear,
        "nDCG@3": linear,
        "dcg_burges@3": 1 + 3 * d(3),
      });
      expectValues(
        b.evaluate(seed, ["ndcg_burges@3", "ndcg@3", "ndcg_cut.3", "nDCG@3", "nDCG(dcg='exp-log2')@3"], {
          gain: "linear",
        }),
        {
          "ndcg_burges@3": exp, // the name fixes the gain
          "ndcg@3": linear,
          ndcg_cut_3: linear,
          "nDCG@3": linear,
          "nDCG(dcg='exp-log2')@3": exp, // the parameter fixes the gain
        },
      );
    });

    it("ranx's names keep ties in input order (its sort leaves them undefined); trec_eval's and ir_measures' by docid descending", () => {
      // two documents tied at 1: input order a (relevant), b; by docid descending b, a
      const rows = { qid: ["q", "q"], score: [1, 1], rel: [1, 0], docid: ["a", "b"] };
      expectValues(b.evaluate(rows, ["hits@1", "success.1", "Success@1", "hit_rate@1"]), {
        "hits@1": 1, // a first
        success_1: 0, // b first
        "Success@1": 0,
        "hit_rate@1": 0, // the library's default: docid
      });
      expectValues(b.evaluate(rows, ["hits@1", "success.1"], { ties: "docid" }), { "hits@1": 0, success_1: 0 });
    });

    it("a measure's own relevance level beats the one given; the one given beats a tool's", () => {
      // seed ranked [1, 0, 2, 0, 1]
      expectValues(b.evaluate(seed, ["P(rel=2)@3", "P@3", "P.3", "precision@3"], { relevanceThreshold: 1.5 }), {
        "P(rel=2)@3": 1 / 3,
        "P@3": 1 / 3, // rel 1.5: only the label 2
        P_3: 1 / 3,
        "precision@3": 1 / 3,
      });
      expectValues(b.evaluate(seed, ["P(rel=2)@3", "P@3"]), { "P(rel=2)@3": 1 / 3, "P@3": 2 / 3 });
    });
  });

  describe("ties", () => {
    it("without document ids: input order", () => {
      // all scores tied: labels ranked as given [0, 1, 2]
      const rows = { qid: ["q", "q", "q"], score: [1, 1, 1], rel: [0, 1, 2] };
      expectValues(b.evaluate(rows, ["mrr", "dcg@1", "precision@1", "inversions"]), {
        mrr: 1 / 2,
        "dcg@1": 0,
        "precision@1": 0,
        inversions: 3,
      });
    });

    it("with document ids: descending, so d3 ranks above d2", () => {
      // d3 (1), d2 (2), d1 (0): dcg@2 = 1 + 3·d(2)
      const rows = { qid: ["q", "q", "q"], score: [1, 1, 1], rel: [0, 1, 2], docid: ["d1", "d3", "d2"] };
      expectValues(b.evaluate(rows, ["mrr", "dcg@1", "dcg@2"]), { mrr: 1, "dcg@1": 1, "dcg@2": 1 + 3 * d(2) });
    });

    it('"D0-9" above "D0-10" (byte order, not numeric)', () => {
      const rows = { qid: ["q", "q"], score: [0.5, 0.5], rel: [0, 1], docid: ["D0-10", "D0-9"] };
      expectValues(b.evaluate(rows, ["mrr"]), { mrr: 1 });
    });

    it("numeric document ids compare as their strings: 9 above 10", () => {
      const rows = { qid: ["q", "q"], score: [2, 2], rel: [0, 1], docid: [10, 9] };
      expectValues(b.evaluate(rows, ["mrr"]), { mrr: 1 });
    });

    it("UTF-8 byte order: an astral character ranks above U+FFFD (UTF-16 order would say the opposite)", () => {
      // "😀" is F0 9F 98 80 in UTF-8 and D83D DE00 in UTF-16; U+FFFD is EF BF BD: bytes say 😀 > U+FFFD
      const rows = { qid: ["q", "q"], score: [1, 1], rel: [0, 1], docid: ["\uFFFD", "😀"] };
      expectValues(b.evaluate(rows, ["mrr"]), { mrr: 1 });
      // a prefix is smaller: "ab" ranks above "a"
      expectValues(b.evaluate({ qid: [1, 1], score: [0, 0], rel: [0, 1], docid: ["a", "ab"] }, "mrr"), { mrr: 1 });
    });

    it("evaluateRun always orders ties by document id, descending", () => {
      // d3 (0), d2 (0), d1 (1): mrr = 1/3 (ascending ids would give 1)
      const qrels = { q: { d1: 1, d2: 0, d3: 0 } };
      const run = { q: { d1: 1, d2: 1, d3: 1 } };
      expectValues(b.evaluateRun(qrels, run, ["mrr", "precision@1"]), { mrr: 1 / 3, "precision@1": 0 });
    });

    it("0 and -0 are the same score", () => {
      // tied, so the ids decide: "b" (1) above "a" (0)
      const rows = { qid: [1, 1], score: [0, -0], rel: [0, 1], docid: ["a", "b"] };
      expectValues(b.evaluate(rows, ["mrr", "kendall_tau"]), { mrr: 1, kendall_tau: 0 });
    });
  });

  describe("a query with no relevant document", () => {
    // query "none": labels ranked [0, 0] (scores 2, 1); query "some": labels ranked [1, 0]
    const rows = { qid: ["none", "none", "some", "some"], score: [2, 1, 2, 1], rel: [0, 0, 1, 0] };
    const needs = ["recall@1", "f1@1", "map", "mrr", "ndcg", "r-precision", "bpref", "hit_rate@1"];
    const others = [
      "precision@1",
      "dcg",
      "err",
      "num_ret",
      "num_rel",
      "num_rel_ret",
      "inversions",
      "kendall_tau",
      "mse",
    ];
    // for "some": recall@1 = 1, f1@1 = 1, map = 1, mrr = 1, ndcg = 1, r-precision = 1, bpref = 1, hit_rate@1 = 1
    // others, "none": precision@1 0, dcg 0, err 0, num_ret 2, num_rel 0, num_rel_ret 0, inversions 0, tau 0 (labels tied),
    //   mse ((2-0)² + (1-0)²)/2 = 2.5;  "some": 1, 1, 1/16, 2, 1, 1, 0, tau (1 - 0 - 0 + 0 - 0)/1 = 1, ((2-1)² + 1²)/2 = 1
    const othersNone = [0, 0, 0, 2, 0, 0, 0, 0, 2.5];
    const othersSome = [1, 1, 1 / 16, 2, 1, 1, 0, 1, 1];
    const expectAll = (o: Options, needsNone: number) => {
      const r = b.evaluate(rows, [...needs, ...others], o);
      expect(r.qids).toEqual(["none", "some"]);
      expectValues(r, Object.fromEntries(needs.map((m) => [m, [needsNone, 1]])));
      const skip = o.noRelevant === "skip";
      expectValues(r, Object.fromEntries(others.map((m, i) => [m, [skip ? NaN : othersNone[i], othersSome[i]]])));
    };
    it('noRelevant "zero" (default): their formula, 0/0 = 0', () => expectAll({}, 0));
    it('noRelevant "one": 1', () => expectAll({ noRelevant: "one" }, 1));
    it('noRelevant "nan": NaN for the measures that need a relevant document', () =>
      expectAll({ noRelevant: "nan" }, NaN));
    it('noRelevant "skip": every value of the query is NaN', () => expectAll({ noRelevant: "skip" }, NaN));

    it('with relevanceThreshold 2, "zero" keeps ndcg\'s formula (label 1 still gains)', () => {
      // labels ranked [0, 1], R = 0 at threshold 2: dcg = 1·d(2) = 0.6309..., idcg = 1 -> 0.6309...
      const r = ranked([0, 1]);
      expectValues(b.evaluate(r, ["ndcg", "map", "num_rel"], { relevanceThreshold: 2 }), {
        ndcg: d(2),
        map: 0,
        num_rel: 0,
      });
      expectValues(b.evaluate(r, ["ndcg", "map"], { relevanceThreshold: 2, noRelevant: "one" }), { ndcg: 1, map: 1 });
    });

    it("evaluateRun: a query whose judgments are all non-relevant", () => {
      const qrels = { q: { a: 0, b: 0 } };
      const run = { q: { a: 2, c: 1 } };
      expectValues(b.evaluateRun(qrels, run, ["map", "ndcg", "num_rel"]), { map: 0, ndcg: 0, num_rel: 0 });
      expectValues(b.evaluateRun(qrels, run, ["map", "ndcg", "num_ret"], { noRelevant: "skip" }), {
        map: NaN,
        ndcg: NaN,
        num_ret: NaN,
      });
    });
  });

  describe("a cutoff beyond the list (k > N)", () => {
    // labels ranked [1, 0, 1], N = 3, R = 2; exp gain: dcg = 1 + d(3) = 1.5, idcg = 1 + d(2) = 1.6309...
    const rows = ranked([1, 0, 1]);
    const at5 = ["precision@5", "recall@5", "f1@5", "map@5", "mrr@5", "dcg@5", "ndcg@5", "err@5", "hit_rate@5"];
    it('beyondList "pad": missing ranks are non-relevant', () => {
      expectValues(b.evaluate(rows, [...at5, "precision@3"]), {
        "precision@5": 2 / 5,
        "recall@5": 1,
        "f1@5": (2 * 0.4) / 1.4, // 2·P·Rc/(P + Rc) with P = 0.4, Rc = 1
        "map@5": (1 + 2 / 3) / 2,
        "mrr@5": 1,
        "dcg@5": 1.5,
        "ndcg@5": 1.5 / (1 + d(2)),
        "err@5": 1 / 16 + (1 / 3) * (1 / 16) * (15 / 16), // 0.0625 + 0.01953125
        "hit_rate@5": 1,
        "precision@3": 2 / 3,
      });
    });
    it('beyondList "nan": NaN for k > N only', () => {
      const r = b.evaluate(rows, [...at5, "precision@3", "ndcg", "map"], { beyondList: "nan" });
      expectValues(r, Object.fromEntries(at5.map((m) => [m, NaN])));
      expectValues(r, { "precision@3": 2 / 3, ndcg: 1.5 / (1 + d(2)), map: (1 + 2 / 3) / 2 });
    });
    it('noRelevant "one" wins over beyondList "nan" (R = 0 and k > N)', () => {
      const r = b.evaluate(ranked([0, 0]), ["ndcg@5", "precision@5", "recall@2"], {
        beyondList: "nan",
        noRelevant: "one",
      });
      expectValues(r, { "ndcg@5": 1, "precision@5": NaN, "recall@2": 1 });
    });
  });

  describe("N = 1", () => {
    it("one relevant row", () => {
      // label 2, score 0.5: dcg = 3, ndcg = 1, err = 3/16, mse = (0.5 - 2)² = 2.25, tau undefined -> 0
      const rows = { qid: ["q"], score: [0.5], rel: [2] };
      expectValues(
        b.evaluate(rows, [
          "dcg",
          "ndcg",
          "ndcg@10",
          "precision@1",
          "precision@10",
          "map",
          "mrr",
          "r-precision",
          "bpref",
          "err",
          "inversions",
          "kendall_tau",
          "mse",
          "num_ret",
        ]),
        {
          dcg: 3,
          ndcg: 1,
          "ndcg@10": 1,
          "precision@1": 1,
          "precision@10": 0.1,
          map: 1,
          mrr: 1,
          "r-precision": 1,
          bpref: 1,
          err: 3 / 16,
          inversions: 0,
          kendall_tau: 0,
          mse: 2.25,
          num_ret: 1,
        },
      );
    });
    it("one non-relevant row", () => {
      expectValues(b.evaluate({ qid: ["q"], score: [0.5], rel: [0] }, ["ndcg", "precision@1", "mse"]), {
        ndcg: 0,
        "precision@1": 0,
        mse: 0.25,
      });
    });
  });

  describe("labels", () => {
    it("negative labels: gain 0, non-relevant, skipped by bpref, used as they are by inversions and mse", () => {
      // labels ranked [-1, 0, 2, 1, 0] (scores 5..1); R = 2 (2 and 1), NR = 2 (the 0s; -1 is "unjudged")
      // exp gains [0, 0, 3, 1, 0]: dcg = 3·d(3) + d(4) = 1.5 + 0.430676558 = 1.930676558; idcg = 3 + d(2) = 3.630929754
      // bpref: -1 skipped; 0: n = 1; 2: 1 - min(1,2)/min(2,2) = 0.5; 1: 0.5; -> (0.5 + 0.5)/2 = 0.5
      //   (were -1 judged non-relevant: NR = 3, n = 2 -> 1 - 2/2 = 0)
      // inversions: -1 < 0, 2, 1, 0 (4); 0 < 2, 1 (2) -> 6
      // mse: (5+1)² + (4-0)² + (3-2)² + (2-1)² + (1-0)² = 36 + 16 + 1 + 1 + 1 = 55; / 5 = 11
      const rows = ranked([-1, 0, 2, 1, 0]);
      expectValues(
        b.evaluate(rows, ["dcg", "ndcg", "num_rel", "precision@5", "map", "mrr", "bpref", "inversions", "mse"]),
        {
          dcg: 3 * d(3) + d(4),
          ndcg: (3 * d(3) + d(4)) / (3 + d(2)),
          num_rel: 2,
          "precision@5": 2 / 5,
          map: (1 / 3 + 2 / 4) / 2,
          mrr: 1 / 3,
          bpref: 0.5,
          inversions: 6,
          mse: 11,
        },
      );
    });

    it("fractional labels", () => {
      // labels ranked [0.5, 1.5, 2.5] (scores 3, 2, 1); threshold 1: R = 2, 0.5 is judged non-relevant
      // exp: dcg = (2^0.5 - 1) + (2^1.5 - 1)·d(2) + (2^2.5 - 1)·d(3); ideal = the same gains in reverse order
      const g = (l: number) => 2 ** l - 1;
      const dcgExp = g(0.5) + g(1.5) * d(2) + g(2.5) * d(3);
      const idcgExp = g(2.5) + g(1.5) * d(2) + g(0.5) * d(3);
      // err: p(l) = (2^l - 1)/16 -> p1 + (1/2) p2 (1 - p1) + (1/3) p3 (1 - p1)(1 - p2)
      const p = (l: number) => g(l) / 16;
      const err = p(0.5) + (1 / 2) * p(1.5) * (1 - p(0.5)) + (1 / 3) * p(2.5) * (1 - p(0.5)) * (1 - p(1.5));
      const rows = ranked([0.5, 1.5, 2.5]);
      expectValues(
        b.evaluate(rows, ["dcg", "ndcg", "map", "mrr", "bpref", "err", "inversions", "kendall_tau", "num_rel"]),
        {
          dcg: dcgExp,
          ndcg: dcgExp / idcgExp,
          map: (1 / 2 + 2 / 3) / 2, // relevant at ranks 2, 3
          mrr: 1 / 2,
          bpref: 0, // 0.5 is above both relevant documents: 1 - min(1,2)/min(1,2) = 0
          err,
          inversions: 3,
          kendall_tau: -1,
          num_rel: 2,
        },
      );
      // linear: dcg = 0.5 + 1.5·d(2) + 2.5·d(3)
      expectValues(b.evaluate(rows, ["dcg"], { gain: "linear" }), { dcg: 0.5 + 1.5 * d(2) + 2.5 * d(3) });
      // threshold 0.5: all three relevant
      expectValues(b.evaluate(rows, ["num_rel", "precision@3"], { relevanceThreshold: 0.5 }), {
        num_rel: 3,
        "precision@3": 1,
      });
    });
  });

  describe("evaluateRun: unjudged ranked documents and relevant documents never retrieved", () => {
    // judged: a 2, b 0, c 1, z 1 (z never ranked); ranked: a (0.9), x (0.8, unjudged), b (0.7), c (0.6)
    // labels as ranked [2, -, 0, 1]; R = 3 (a, c, z), NR = 1 (b)
    const qrels = { qid: ["q1", "q1", "q1", "q1", "q7"], docid: ["a", "b", "c", "z", "a"], rel: [2, 0, 1, 1, 1] };
    const run = {
      qid: ["q1", "q1", "q1", "q1", "q9"],
      docid: ["a", "x", "b", "c", "a"],
      score: [0.9, 0.8, 0.7, 0.6, 1],
    };
    it("counts, precision, recall, map, r-precision, bpref", () => {
      const r = b.evaluateRun(qrels, run, [
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "precision@4",
        "recall@4",
        "map",
        "mrr",
        "r-precision",
        "bpref",
      ]);
      expect(r.qids).toEqual(["q1"]); // q9 has no judgments; q7 is not in the run
      expectValues(r, {
        num_ret: 4,
        num_rel: 3,
        num_rel_ret: 2,
        "precision@4": 2 / 4,
        "recall@4": 2 / 3,
        map: (1 / 1 + 2 / 4) / 3,
        mrr: 1,
        "r-precision": 1 / 3, // rel(3): only a
        bpref: 1 / 3, // a: 1; x skipped; c: n = 1 -> 1 - min(1,3)/min(1,3) = 0
      });
    });
    it("ndcg's ideal ranking includes the never-retrieved z", () => {
      // exp gains as ranked [3, 0, 0, 1]: dcg = 3 + d(4); ideal [3, 1, 1, 0]: 3 + d(2) + d(3)
      expectValues(b.evaluateRun(qrels, run, ["dcg", "ndcg", "ndcg@2"]), {
        dcg: 3 + d(4),
        ndcg: (3 + d(4)) / (3 + d(2) + d(3)),
        "ndcg@2": 3 / (3 + d(2)),
      });
    });
    it("unjudged documents count as 0 in inversions, kendall_tau and mse", () => {
      // labels [2, 0, 0, 1]: inversions (x < c), (b < c) = 2
      // tau: n0 = 6, n1 = 0, n2 = 1 (x, b), n3 = 0, D = 2 -> (6 - 1 - 4)/sqrt(6·5) = 1/sqrt(30)
      // mse: (0.9-2)² + 0.8² + 0.7² + (0.6-1)² = 1.21 + 0.64 + 0.49 + 0.16 = 2.5; / 4 = 0.625
      expectValues(b.evaluateRun(qrels, run, ["inversions", "kendall_tau", "mse"]), {
        inversions: 2,
        kendall_tau: 1 / Math.sqrt(30),
        mse: 0.625,
      });
    });
    it("columns and { qid: { docid: value } } give the same", () => {
      const q = { q1: { a: 2, b: 0, c: 1, z: 1 }, q7: { a: 1 } };
      const rn = { q1: { a: 0.9, x: 0.8, b: 0.7, c: 0.6 }, q9: { a: 1 } };
      const r = b.evaluateRun(q, rn, ["map", "bpref"]);
      expect(r.qids).toEqual(["q1"]);
      expectValues(r, { map: 0.5, bpref: 1 / 3 });
    });
  });

  describe("depth", () => {
    it("keeps the top depth of each ranking; R and the ideal still count every judgment", () => {
      // the seed cut at depth 3: labels [1, 0, 2]; R = 3
      const r = b.evaluate(
        seed,
        ["num_ret", "num_rel", "num_rel_ret", "precision@5", "recall@5", "ndcg", "map", "bpref"],
        { depth: 3 },
      );
      expectValues(r, {
        num_ret: 3,
        num_rel: 3,
        num_rel_ret: 2,
        "precision@5": 2 / 5,
        "recall@5": 2 / 3,
        ndcg: (1 + 3 * d(3)) / (3 + d(2) + d(3)), // dcg 2.5 over the full ideal 4.1309...
        map: (1 + 2 / 3) / 3,
        bpref: 1.5 / 3, // 1 + (1 - 1/2)
      });
      // N = 3 now, so k = 5 is beyond the list
      expectValues(b.evaluate(seed, ["precision@5", "precision@3"], { depth: 3, beyondList: "nan" }), {
        "precision@5": NaN,
        "precision@3": 2 / 3,
      });
    });
  });

  describe("relevanceThreshold 2", () => {
    it("only label 2 is relevant; gains are unchanged", () => {
      // the seed, labels ranked [1, 0, 2, 0, 1]: R = 1 (rank 3); NR = 4 (0, 0, 1, 1)
      // bpref: two judged non-relevant above rank 3 -> 1 - min(2,1)/min(4,1) = 0
      const r = b.evaluate(
        seed,
        ["num_rel", "precision@3", "map", "mrr", "bpref", "hit_rate@2", "hit_rate@3", "r-precision", "ndcg@5"],
        { relevanceThreshold: 2 },
      );
      expectValues(r, {
        num_rel: 1,
        "precision@3": 1 / 3,
        map: 1 / 3,
        mrr: 1 / 3,
        bpref: 0,
        "hit_rate@2": 0,
        "hit_rate@3": 1,
        "r-precision": 0,
        "ndcg@5": 0.6988385132278441,
      });
    });
  });

  describe("gain tables", () => {
    it("listed labels take the table's gain, others their linear gain", () => {
      // { 2: 10 }: the seed's gains as ranked [1, 0, 10, 0, 1]: dcg = 1 + 10·d(3) + d(5); ideal [10, 1, 1]: 10 + d(2) + d(3)
      const r = b.evaluate(seed, ["dcg", "ndcg"], { gain: { 2: 10 } });
      expectValues(r, { dcg: 1 + 10 * d(3) + d(5), ndcg: (1 + 10 * d(3) + d(5)) / (10 + d(2) + d(3)) });
    });
    it("the ideal ranking sorts gains, not labels", () => {
      // { 1: 5, 2: 1 }: gains as ranked [5, 0, 1, 0, 5]: dcg = 5 + 1·d(3) + 5·d(5); ideal [5, 5, 1]: 5 + 5·d(2) + d(3)
      // ndcg@1 = 5/5; ndcg@2 = (5 + 0)/(5 + 5·d(2))
      const r = b.evaluate(seed, ["dcg", "ndcg", "ndcg@1", "ndcg@2"], { gain: { 1: 5, 2: 1 } });
      expectValues(r, {
        dcg: 5 + d(3) + 5 * d(5),
        ndcg: (5 + d(3) + 5 * d(5)) / (5 + 5 * d(2) + d(3)),
        "ndcg@1": 1,
        "ndcg@2": 5 / (5 + 5 * d(2)),
      });
    });
    it("a fractional label is not listed: linear", () => {
      // labels ranked [2.5, 2]: { 2: 7 } -> gains [2.5, 7]: dcg = 2.5 + 7·d(2); ideal [7, 2.5]
      const r = b.evaluate(ranked([2.5, 2]), ["dcg", "ndcg"], { gain: { 2: 7 } });
      expectValues(r, { dcg: 2.5 + 7 * d(2), ndcg: (2.5 + 7 * d(2)) / (7 + 2.5 * d(2)) });
    });
  });

  describe("several queries", () => {
    it("in order of first appearance, rows need not be contiguous", () => {
      // query 2: labels [0, 1] scores [1, 2] -> ranked [1, 0]; query 1: [1, 0] scores [1, 2] -> ranked [0, 1]
      const rows = { qid: [2, 1, 2, 1], score: [1, 1, 2, 2], rel: [0, 1, 1, 0] };
      const r = b.evaluate(rows, ["mrr", "num_ret"]);
      expect(r.qids).toEqual([2, 1]);
      expectValues(r, { mrr: [1, 1 / 2], num_ret: [2, 2] });
    });
  });

  describe("bad input throws a RankevalError naming the row or measure", () => {
    const rows = { qid: [1, 1, 1], score: [0.3, 0.2, 0.1], rel: [1, 0, 1], docid: ["a", "b", "c"] };
    const throws = (f: () => unknown, message: RegExp) => {
      let error: unknown;
      try {
        f();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RankevalError);
      expect((error as Error).message).toMatch(message);
    };
    it("an unknown measure", () => throws(() => b.evaluate(rows, ["ndcg@10", "bleu@4"]), /bleu/));
    it("a cutoff that is not a positive integer", () => {
      throws(() => b.evaluate(rows, "ndcg@0"), /ndcg@0/);
      throws(() => b.evaluate(rows, "P@2.5"), /P@2\.5/);
    });
    it("columns of different lengths", () =>
      throws(() => b.evaluate({ qid: [1, 1, 1], score: [1, 2], rel: [0, 1, 0] }, "map"), /score/));
    it("a NaN score", () => throws(() => b.evaluate({ ...rows, score: [0.3, NaN, 0.1] }, "map"), /score\[1\]/));
    it("an infinite label", () => throws(() => b.evaluate({ ...rows, rel: [0, 1, Infinity] }, "map"), /rel\[2\]/));
    it("a NaN score, an infinite label in typed columns (checked by the kernel as it copies them)", () => {
      const typed = {
        qid: Int32Array.from([1, 1, 2]),
        score: Float64Array.from([0.3, 0.2, 0.1]),
        rel: Float64Array.from([0, 1, 0]),
      };
      throws(() => b.evaluate({ ...typed, score: Float64Array.from([0.3, NaN, 0.1]) }, "map"), /score\[1\].*NaN/);
      throws(() => b.evaluate({ ...typed, rel: Float64Array.from([0, 1, -Infinity]) }, "map"), /rel\[2\].*-Infinity/);
    });
    it("a document twice in one query", () =>
      throws(() => b.evaluate({ ...rows, docid: ["a", "b", "a"] }, "map"), /docid\[2\].*"a"/));
    it("the same document in two queries is fine", () => {
      expectValues(b.evaluate({ qid: [1, 2], score: [1, 1], rel: [1, 1], docid: ["a", "a"] }, "map"), { map: [1, 1] });
    });
    it("evaluateRun: a document ranked twice, a NaN score, a NaN label", () => {
      const qrels = { qid: ["q", "q"], docid: ["a", "b"], rel: [1, 0] };
      throws(
        () => b.evaluateRun(qrels, { qid: ["q", "q", "q"], docid: ["a", "b", "a"], score: [1, 2, 3] }, "map"),
        /run row 2.*"a"/,
      );
      throws(() => b.evaluateRun(qrels, { qid: ["q", "q"], docid: ["a", "b"], score: [1, NaN] }, "map"), /run row 1/);
      throws(
        () => b.evaluateRun({ ...qrels, rel: [NaN, 0] }, { qid: ["q"], docid: ["a"], score: [1] }, "map"),
        /qrels row 0/,
      );
    });
    it("a bad option", () => {
      let error: unknown;
      try {
        b.evaluate(rows, "map", { noRelevant: "maybe" as never });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RankevalError);
      expect((error as RankevalError).code).toBe("bad-option");
    });
  });
});

describe("the real API's bookkeeping around the same cases", () => {
  it('noRelevant "skip" counts the skipped query and leaves it out of the means', () => {
    const r = evaluate({ qid: ["none", "none", "some"], score: [2, 1, 1], rel: [0, 0, 1] }, ["map", "num_ret"], {
      noRelevant: "skip",
    });
    expect(r.queries.skipped.noRelevant).toBe(1);
    expect(r.mean.map).toBe(1);
    expect(r.counted.map).toBe(1);
    expect(r.mean.num_ret).toBe(1);
  });
});

// Settled disagreement: a gain table could once give a label a negative gain, which the kernel left
// out of the ideal ranking while the reference kept it. Gains are non-negative by definition
// (labels <= 0 gain 0), so tables with negative gains are now refused, by both backends' options.
describe("gain tables", () => {
  it.each(backends)("$name: refuses a negative gain", (b) => {
    expect(() => b.evaluate(ranked([1, 2]), ["dcg", "ndcg"], { gain: { 1: -1 } })).toThrow(
      /gain of label 1 must be a finite number >= 0/,
    );
  });
  // Labels <= 0 are never relevant, so a threshold must be above 0.
  it.each(backends)("$name: refuses a relevance threshold below 0, takes 0 (every label >= 0 relevant)", (b) => {
    expect(() => b.evaluate(ranked([1, 0]), ["map"], { relevanceThreshold: -1 })).toThrow(
      /relevanceThreshold must be a number >= 0/,
    );
    // Labels 1 and 0 at ranks 1 and 2, both relevant at threshold 0: AP = (1/1 + 2/2) / 2.
    expect(b.evaluate(ranked([1, 0]), ["map"], { relevanceThreshold: 0 }).values.map[0]).toBe(1);
  });
});
