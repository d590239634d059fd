// trec_eval's remaining all_trec measures (TREC_EVAL_SEMANTICS.md (a)): hand-computed cases on both
// backends (the reference and the kernel), then per-query golden checks against trec_eval 10's own
// output on its test collection (../shared/golden/trec_eval: out.test.aq = `-m all_trec -q`,
// out.test.aql = the same with graded qrels and -l2), read in place and skipped where absent.
import { describe, expect, it } from "vitest";
import { evaluateRun, type Options, type Qrels, type Run } from "../src/index.js";
import { backends, expectValues } from "./_backends.js";
import { haveGolden, readGolden, splitLine } from "./trec/_shared.js";

// One query with every kind of ranked document. Judgments: a 1, b 0, c 2, d -1 (judged "unjudged"),
// e 1, and f 0, g 1 never ranked. Ranked by score: a, x (no judgment: "nonpool"), b, d, c, e, so the
// labels read [1, -, 0, -1, 2, 1]; N = 6. At threshold 1: relevant ranks 1, 5, 6, R = 4 (a c e g),
// rel(N) = 3. At threshold 2: relevant rank 5 only, R = 1.
const qrels: Qrels = { q: { a: 1, b: 0, c: 2, d: -1, e: 1, f: 0, g: 1 } };
const run: Run = { q: { a: 0.9, x: 0.8, b: 0.7, d: 0.6, c: 0.5, e: 0.4 } };
// A query with judgments but nothing relevant.
const noRel: Qrels = { z: { z1: 0, z2: 0 } };
const noRelRun: Run = { z: { z1: 1, z3: 0.5 } };

describe.each(backends)("$name", (b) => {
  describe("family 1: relative_p, set measures, num_nonrel_judged_ret, unj", () => {
    it("at threshold 1", () => {
      const r = b.evaluateRun(qrels, run, [
        "relative_p@1,2,5,10",
        "set_p",
        "set_relative_p",
        "set_recall",
        "set_map",
        "set_f",
        "set_f(beta=0.5)",
        "num_nonrel_judged_ret",
        "unj@2,4,10",
      ]);
      expectValues(r, {
        "relative_p@1": 1, // 1 / min(1, 4)
        "relative_p@2": 1 / 2,
        "relative_p@5": 2 / 4, // rel(5) = 2, min(5, 4) = 4
        "relative_p@10": 3 / 4,
        set_p: 3 / 6,
        set_relative_p: 3 / 4, // min(N, R) = 4
        set_recall: 3 / 4,
        set_map: 9 / 24, // 3² / (6·4)
        set_f: (2 * 0.5 * 0.75) / (0.5 + 0.75), // = 0.6
        "set_f(beta=0.5)": (1.5 * 0.5 * 0.75) / (0.5 * 0.5 + 0.75), // = 0.5625
        num_nonrel_judged_ret: 1, // b (x has no judgment, d a negative one)
        "unj@2": 1 / 2, // x
        "unj@4": 2 / 4, // x, d
        "unj@10": 2 / 10, // padded with judged ranks
      });
    });

    it("at threshold 2 (trec_eval -l2)", () => {
      const r = b.evaluateRun(
        qrels,
        run,
        ["relative_p@5", "set_p", "set_relative_p", "set_map", "set_f", "num_nonrel_judged_ret", "unj@4"],
        { relevanceThreshold: 2 },
      );
      expectValues(r, {
        "relative_p@5": 1, // 1 / min(5, 1)
        set_p: 1 / 6,
        set_relative_p: 1,
        set_map: 1 / 6,
        set_f: (2 * (1 / 6) * 1) / (1 / 6 + 1),
        num_nonrel_judged_ret: 3, // a, b, e: judged below the threshold
        "unj@4": 2 / 4, // unaffected by the threshold
      });
    });

    it("trec_eval's spellings give trec_eval's lines, keyed as it prints them, with the canonical names' values", () => {
      const r = b.evaluateRun(qrels, run, ["relative_P.5", "set_P", "set_relative_P", "set_F", "unj_10", "unj.2"]);
      expect(Object.keys(r.values).sort()).toEqual([
        "relative_P_5",
        "set_F",
        "set_P",
        "set_relative_P",
        "unj_10",
        "unj_2",
      ]);
      const c = b.evaluateRun(qrels, run, ["relative_p@5", "set_f", "set_p", "set_relative_p", "unj@10", "unj@2"]);
      expect(r.values.relative_P_5).toEqual(c.values["relative_p@5"]);
      expect(r.values.set_F).toEqual(c.values.set_f);
      expect(r.values.unj_2).toEqual(c.values["unj@2"]);
    });

    it("a query without relevant documents", () => {
      const ms = [
        "relative_p@5",
        "set_p",
        "set_relative_p",
        "set_recall",
        "set_map",
        "set_f",
        "num_nonrel_judged_ret",
        "unj@2",
      ];
      expectValues(b.evaluateRun(noRel, noRelRun, ms), {
        "relative_p@5": 0,
        set_p: 0,
        set_relative_p: 0,
        set_recall: 0,
        set_map: 0,
        set_f: 0,
        num_nonrel_judged_ret: 1,
        "unj@2": 1 / 2,
      });
      expectValues(b.evaluateRun(noRel, noRelRun, ms, { noRelevant: "nan" }), {
        "relative_p@5": NaN,
        set_p: 0,
        set_relative_p: NaN,
        set_recall: NaN,
        set_map: NaN,
        set_f: NaN,
        num_nonrel_judged_ret: 1,
        "unj@2": 1 / 2,
      });
    });
  });

  describe("family 2: iprec_at_recall, 11pt_avg, rprec_mult, infap, bing", () => {
    // P(j) for j = 1..6: 1, 1/2, 1/3, 1/4, 2/5, 1/2; relevant ranks 1, 5, 6; R = 4; rel(N) = 3.
    it("at threshold 1", () => {
      const e = 1e-5;
      const r = b.evaluateRun(qrels, run, [
        "iprec_at_recall",
        "iprec_at_recall(recall=0.1)",
        "iprec_at_recall(recall=0.2)",
        "iprec_at_recall(recall=0.375)",
        "iprec_at_recall(recall=0.5)",
        "iprec_at_recall(recall=0.7)",
        "iprec_at_recall(recall=0.9)",
        "11pt_avg",
        "rprec_mult",
        "rprec_mult(x=0.2)",
        "rprec_mult(x=0.5)",
        "rprec_mult(x=2)",
        "rprec_mult(x=0.01)",
        "infap",
        "bing",
      ]);
      expectValues(r, {
        iprec_at_recall: 1, // c = 0: max P(j) from the first relevant rank
        "iprec_at_recall(recall=0.1)": 1, // c = lround(0.4) = 0
        "iprec_at_recall(recall=0.2)": 1, // c = lround(0.8) = 1
        "iprec_at_recall(recall=0.375)": 1 / 2, // c = lround(1.5) = 2 (halves round up): max(P(5), P(6))
        "iprec_at_recall(recall=0.5)": 1 / 2, // c = 2
        "iprec_at_recall(recall=0.7)": 1 / 2, // c = lround(2.8) = 3: P(6)
        "iprec_at_recall(recall=0.9)": 0, // c = lround(3.6) = 4 > rel(N) = 3
        // c over the 11 points: 0 0 1 1 2 2 2 3 3 4 4 -> values 1 1 1 1 .5 .5 .5 .5 .5 0 0
        "11pt_avg": 6.5 / 11,
        rprec_mult: 1 / 4, // c = (long)(4 + 0.9) = 4: rel(4) / 4
        "rprec_mult(x=0.2)": 1, // c = (long)(0.8 + 0.9) = 1
        "rprec_mult(x=0.5)": 1 / 2, // c = 2
        "rprec_mult(x=2)": 3 / 8, // c = 8 > N: rel(N) / 8
        "rprec_mult(x=0.01)": 0, // c = (long)0.94 = 0
        // positions 0..5: a rel, x nonpool, b nonrel, d unjudged, c rel, e rel
        infap:
          (1 +
            (1 / 5 + (4 / 5) * (3 / 4) * ((1 + e) / (2 + 2 * e))) +
            (1 / 6 + (5 / 6) * (4 / 5) * ((2 + e) / (3 + 2 * e)))) /
          4,
        bing: (1 + 2 / Math.log2(5)) / 4, // non-relevant above: 0, 3 (x, b, d), 3
      });
    });

    it("at threshold 2 (trec_eval -l2)", () => {
      const e = 1e-5;
      const r = b.evaluateRun(
        qrels,
        run,
        ["iprec_at_recall", "iprec_at_recall(recall=1)", "11pt_avg", "rprec_mult", "infap", "bing"],
        { relevanceThreshold: 2 },
      );
      expectValues(r, {
        iprec_at_recall: 1 / 5, // only c (rank 5) relevant, R = 1: max(P(5) = 1/5, P(6) = 1/6)
        "iprec_at_recall(recall=1)": 1 / 5,
        "11pt_avg": 1 / 5,
        rprec_mult: 0, // c = (long)1.9 = 1: rel(1) = 0
        infap: 1 / 5 + (4 / 5) * (3 / 4) * (e / (2 + 2 * e)), // above c: a and b judged non-relevant, d unjudged
        bing: 1 / Math.log2(6),
      });
    });

    it("a query without relevant documents", () => {
      const ms = ["iprec_at_recall", "11pt_avg", "rprec_mult", "infap", "bing"];
      expectValues(b.evaluateRun(noRel, noRelRun, ms), {
        iprec_at_recall: 0,
        "11pt_avg": 0,
        rprec_mult: 0,
        infap: 0,
        bing: 0,
      });
      expectValues(b.evaluateRun(noRel, noRelRun, ms, { noRelevant: "one" }), {
        iprec_at_recall: 1,
        "11pt_avg": 1,
        rprec_mult: 1,
        infap: 1,
        bing: 1,
      });
    });
  });

  describe("family 3: rbp, rbp_resid, utility", () => {
    it("rbp: gains divided per query by the largest level gain when it exceeds 1", () => {
      // judged labels reach L = 2; ranked labels [1, -, 0, -1, 2, 1]
      const linear = b.evaluateRun(qrels, run, ["rbp", "rbp(p=0.5)"], { gain: "linear" });
      expectValues(linear, {
        rbp: 0.1 * (0.5 + 1 * 0.9 ** 4 + 0.5 * 0.9 ** 5), // gains / 2
        "rbp(p=0.5)": 0.5 * (0.5 + 0.5 ** 4 + 0.5 * 0.5 ** 5),
      });
      const exp = b.evaluateRun(qrels, run, ["rbp"], { gain: "exp", relevanceThreshold: 2 }); // -l leaves rbp alone
      expectValues(exp, { rbp: 0.1 * (1 / 3 + 0.9 ** 4 + (1 / 3) * 0.9 ** 5) }); // gains 1, 3, 1 over 3
      // Binary judgments: gains already in [0, 1], unchanged.
      expectValues(b.evaluateRun({ q: { a: 1, b: 0 } }, { q: { b: 2, a: 1 } }, ["rbp"]), { rbp: 0.1 * 0.9 });
    });

    it("rbp_resid: p^N plus the weight of the open ranks, only when there is one", () => {
      expectValues(b.evaluateRun(qrels, run, ["rbp_resid", "rbp_resid(p=0.5)"]), {
        rbp_resid: 0.9 ** 6 + 0.1 * (0.9 + 0.9 ** 3), // ranks 2 (no judgment) and 4 (negative label)
        "rbp_resid(p=0.5)": 0.5 ** 6 + 0.5 * (0.5 + 0.5 ** 3),
      });
      expectValues(b.evaluateRun({ q: { a: 1, b: 0 } }, { q: { b: 2, a: 1 } }, ["rbp_resid"]), { rbp_resid: 0 });
      expectValues(b.evaluateRun(noRel, noRelRun, ["rbp_resid"]), { rbp_resid: 0.9 ** 2 + 0.1 * 0.9 });
    });

    it("utility", () => {
      // rel(N) = 3, N = 6, R = 4
      expectValues(b.evaluateRun(qrels, run, ["utility", "utility(a=2)", "utility(d=1,n=100)", "utility(c=-2)"]), {
        utility: 3 - 3,
        "utility(a=2)": 6 - 3,
        "utility(d=1,n=100)": 0 + (100 + 3 - 6 - 4),
        "utility(c=-2)": 0 - 2 * (4 - 3),
      });
      expectValues(b.evaluateRun(qrels, run, ["utility"], { relevanceThreshold: 2 }), { utility: 1 - 5 });
    });
  });
});

describe.each(backends)("$name", (b) => {
  describe("family 4: G, ndcg_rel, Rndcg (trec_eval's experimental gain measures)", () => {
    // Linear gains: ranked [1, 0, 0, 0, 2, 1] (N = 6), ideal [2, 1, 1, 1] (J = 4).
    const lg = Math.log2;
    const dcg5 = 1 + 2 / lg(6);
    const dcg6 = dcg5 + 1 / lg(7);
    const idcg4 = 2 + 1 / lg(3) + 1 / 2 + 1 / lg(5);
    it("at threshold 1", () => {
      expectValues(b.evaluateRun(qrels, run, ["g", "ndcg_rel", "rndcg"], { gain: "linear" }), {
        // costs 2, 3, 4, 5, 6, 7; results 1, 1, 1, 1, 3, 4; ideal total 5
        g: (1 / lg(3) + 2 / lg(5) + 1 / lg(5)) / 5,
        // relevant ranks 1, 5, 6, then J - 3 = 1 more at dcg(N) / idcg(J)
        ndcg_rel: (1 / 2 + dcg5 / idcg4 + 2 * (dcg6 / idcg4)) / 4,
        // level ends at i = 1 (2 -> 1) and i = 4 (1 -> 0), and N >= J + 2 adds dcg(N) / idcg(J)
        rndcg: (1 / 2 + 1 / idcg4 + dcg6 / idcg4) / 3,
      });
    });

    it("-l leaves G and ndcg_rel alone; Rndcg only through R = 0", () => {
      expectValues(b.evaluateRun(qrels, run, ["g", "ndcg_rel", "rndcg"], { gain: "linear", relevanceThreshold: 2 }), {
        g: (1 / lg(3) + 3 / lg(5)) / 5,
        ndcg_rel: (1 / 2 + dcg5 / idcg4 + 2 * (dcg6 / idcg4)) / 4,
        rndcg: (1 / 2 + 1 / idcg4 + dcg6 / idcg4) / 3,
      });
      expectValues(b.evaluateRun(qrels, run, ["rndcg"], { gain: "linear", relevanceThreshold: 3 }), { rndcg: 0 });
    });

    it("Rndcg's last point only when N >= J + 2; 0/0 when R > 0 but no gain is positive", () => {
      const one = { q: { a: 1 } };
      const ms = ["rndcg", "g", "ndcg_rel"];
      expectValues(b.evaluateRun(one, { q: { a: 2, x: 1 } }, ms, { gain: "linear" }), { rndcg: 1, g: 1, ndcg_rel: 1 });
      expectValues(b.evaluateRun(one, { q: { x: 2, a: 1 } }, ["rndcg"], { gain: "linear" }), { rndcg: 0 });
      expectValues(b.evaluateRun(one, { q: { x: 3, a: 2, y: 1 } }, ["rndcg", "g"], { gain: "linear" }), {
        rndcg: 1 / lg(3) / 2,
        g: 1 / lg(2 + 2 - 1), // costs 1 (ideal 1), then 1 (the minimum cost)
      });
      expectValues(b.evaluateRun(one, { q: { a: 1 } }, ms, { gain: { 1: 0 } }), { rndcg: NaN, g: 0, ndcg_rel: 0 });
    });

    it("a gain table; a query without relevant documents", () => {
      // gains 1 -> 3, 2 -> 9: ranked [3, 0, 0, 0, 9, 3], ideal [9, 3, 3, 3]
      const r = b.evaluateRun(qrels, run, ["g"], { gain: { 1: 3, 2: 9 } });
      // costs 9, 12, 15, 18, 19, 20; results 3, 3, 3, 3, 12, 15; ideal total 18
      expectValues(r, { g: (3 / lg(2 + 9 - 3) + 9 / lg(2 + 19 - 12) + 3 / lg(2 + 20 - 15)) / 18 });
      expectValues(b.evaluateRun(noRel, noRelRun, ["g", "ndcg_rel", "rndcg"]), { g: 0, ndcg_rel: 0, rndcg: 0 });
      expectValues(b.evaluateRun(noRel, noRelRun, ["g", "ndcg_rel", "rndcg"], { noRelevant: "one" }), {
        g: 0,
        ndcg_rel: 0,
        rndcg: 1,
      });
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Golden: trec_eval 10 on its test collection (3 queries: 301, 302, 303).

/** Our measure and trec_eval's name for it, per golden line. */
const cut = (ours: string, theirs: string, ks: number[]): [string, string][] =>
  ks.map((k) => [`${ours}@${k}`, `${theirs}_${k}`]);
const GOLDEN: [string, string][] = [
  ...cut("relative_p", "relative_P", [5, 10, 15, 20, 30, 100, 200, 500, 1000]),
  ["set_p", "set_P"],
  ["set_relative_p", "set_relative_P"],
  ["set_recall", "set_recall"],
  ["set_map", "set_map"],
  ["set_f", "set_F"],
  ["num_nonrel_judged_ret", "num_nonrel_judged_ret"],
  ...cut("unj", "unj", [5, 10, 20]),
  ...Array.from({ length: 11 }, (_, i): [string, string] => [
    i === 0 ? "iprec_at_recall" : `iprec_at_recall(recall=${i / 10})`,
    `iprec_at_recall_${(i / 10).toFixed(2)}`,
  ]),
  ["11pt_avg", "11pt_avg"],
  ...Array.from({ length: 10 }, (_, i): [string, string] => [
    i === 4 ? "rprec_mult" : `rprec_mult(x=${(i + 1) / 5})`,
    `Rprec_mult_${((i + 1) / 5).toFixed(2)}`,
  ]),
  ["infap", "infAP"],
  ["bing", "binG"],
  ["rbp", "rbp"],
  ["rbp_resid", "rbp_resid"],
  ["utility", "utility"],
  ["g", "G"],
  ["ndcg_rel", "ndcg_rel"],
  ["rndcg", "Rndcg"],
];
/** Summed, not averaged, in trec_eval's "all" line. */
const SUMMED = new Set(["num_nonrel_judged_ret"]);

function columns(text: string, fields: { qid: number; docid: number; value: number }, valueName: "rel" | "score") {
  const qid: string[] = [];
  const docid: string[] = [];
  const value: number[] = [];
  for (const line of text.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f.length < 4 || f[0].startsWith("#")) continue;
    qid.push(f[fields.qid]);
    docid.push(f[fields.docid]);
    value.push(Number(f[fields.value]));
  }
  return { qid, docid, [valueName]: value } as unknown as Qrels & Run;
}

function checkGolden(qrelsFile: string, outFile: string, options: Options): void {
  const q = columns(readGolden(qrelsFile), { qid: 0, docid: 2, value: 3 }, "rel");
  const r = columns(readGolden("results.test"), { qid: 0, docid: 2, value: 4 }, "score");
  const golden = new Map<string, number>();
  for (const line of readGolden(outFile).split("\n")) {
    if (!line.includes("\t")) continue;
    const { name, qid, value } = splitLine(line);
    golden.set(`${name} ${qid}`, Number(value));
  }
  const result = evaluateRun(
    q,
    r,
    GOLDEN.map(([ours]) => ours),
    { gain: "linear", ...options },
  );
  const problems: string[] = [];
  for (const [ours, theirs] of GOLDEN) {
    const values = result.values[ours];
    for (const qid of ["301", "302", "303", "all"]) {
      const want = golden.get(`${theirs} ${qid}`);
      if (want === undefined) {
        problems.push(`${theirs} ${qid}: not in ${outFile}`);
        continue;
      }
      const got =
        qid === "all"
          ? SUMMED.has(ours)
            ? values.reduce((a, v) => a + v, 0)
            : result.mean[ours]
          : values[result.qids.indexOf(qid)];
      if (!(Math.abs(got - want) <= 0.5e-4 + 1e-9))
        problems.push(`${ours} (${theirs}) ${qid}: got ${got}, trec_eval ${want}`);
    }
  }
  expect(problems).toEqual([]);
}

describe.skipIf(!haveGolden("qrels.test", "results.test", "out.test.aq", "qrels.rel_level", "out.test.aql"))(
  "trec_eval 10 golden output",
  () => {
    it("out.test.aq: qrels.test x results.test, -m all_trec -q", () => {
      checkGolden("qrels.test", "out.test.aq", {});
    });
    it("out.test.aql: qrels.rel_level (graded, with -1 unjudged) x results.test, -l2", () => {
      checkGolden("qrels.rel_level", "out.test.aql", { relevanceThreshold: 2 });
    });
  },
);
