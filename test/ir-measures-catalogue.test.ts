// ir_measures' measures beyond pytrec_eval's: cwl_eval's C/W/L measures (SDCG, INST, INSQ, NERR8-11,
// BPM, RBP), Compat, Accuracy, NumQ, and the judged_only and dcg parameters. Each against the values
// ir_measures publishes in its tests (test/test_cwl_eval.py, ../shared/golden/ir_measures/SOURCE.txt)
// where the fixtures are present, and worked by hand; both backends (kernel and reference).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { evaluate, evaluateRun, parseMeasures } from "../src/index.js";
import { referenceEvaluate, referenceEvaluateRun } from "../src/reference/index.js";

const SHARED = new URL("../../shared/golden/ir_measures/", import.meta.url);
const have = existsSync(fileURLToPath(SHARED));
if (!have)
  console.warn(
    "ir-measures-catalogue.test.ts: ../shared/golden/ir_measures is absent: skipping ir_measures' published values",
  );
const read = (name: string) => readFileSync(fileURLToPath(new URL(name, SHARED)), "utf8");

/** TREC text as columns (the second column and the rank ignored). */
function columns(text: string, value: number) {
  const c = { qid: [] as string[], docid: [] as string[], v: [] as number[] };
  for (const line of text.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f.length < 4) continue;
    c.qid.push(f[0]);
    c.docid.push(f[2]);
    c.v.push(Number(f[value]));
  }
  return c;
}
const qrelsOf = (t: string) => {
  const c = columns(t, 3);
  return { qid: c.qid, docid: c.docid, rel: c.v };
};
const runOf = (t: string) => {
  const c = columns(t, 4);
  return { qid: c.qid, docid: c.docid, score: c.v };
};

const BACKENDS = [
  ["kernel", evaluateRun],
  ["reference", referenceEvaluateRun],
] as const;

describe.skipIf(!have)("ir_measures' published values", () => {
  for (const [name, run] of BACKENDS) {
    it(`cwl_eval's measures on cwl.qrels / cwl.run (test_cwl_eval.py), ${name}`, () => {
      const r = run(qrelsOf(read("cwl.qrels")), runOf(read("cwl.run")), [
        "RBP(p=0.9,rel=1)",
        "SDCG(max_rel=1)@10",
        "INST(T=1.0,max_rel=1)",
        "INST(T=2.0,max_rel=1)",
        "INSQ(T=1.0,max_rel=1)",
        "INSQ(T=2.0,max_rel=1)",
        "NERR8(max_rel=1)@10",
        "NERR9(max_rel=1)@10",
        "NERR10(p=0.8,max_rel=1)",
        "NERR11(T=2.0,max_rel=1)",
        "BPM(T=1.0,max_rel=1)@20",
        "BPM(T=2.0,max_rel=1)@10",
      ]);
      expect(r.qids).toEqual(["T1", "T2", "T3"]);
      const want: Record<string, [number, number, number]> = {
        "RBP(p=0.9,rel=1)": [0.3501, 0.3996, 0.1988],
        "SDCG(max_rel=1)@10": [0.5645, 0.6531, 0.2848],
        "INST(max_rel=1)": [0.7934, 0.9226, 0.0888], // T=1.0 is the default: ir_measures' key leaves it out
        "INST(T=2.0,max_rel=1)": [0.5994, 0.6924, 0.1397],
        "INSQ(max_rel=1)": [0.5872, 0.6629, 0.088],
        "INSQ(T=2.0,max_rel=1)": [0.4513, 0.5068, 0.1292],
        "NERR8(max_rel=1)@10": [1, 1, 0.1667],
        "NERR9(max_rel=1)@10": [1, 1, 0.068],
        "NERR10(p=0.8,max_rel=1)": [1, 1, 0.0888],
        "NERR11(T=2.0,max_rel=1)": [1, 1, 0.0691],
        "BPM(max_rel=1)@20": [1, 1, 0.1667],
        "BPM(T=2.0,max_rel=1)@10": [0.6667, 1, 0.2857],
      };
      for (const [m, v] of Object.entries(want))
        for (let q = 0; q < 3; q++)
          expect(Math.abs(r.values[m][q] - v[q]), `${m} ${r.qids[q]}`).toBeLessThan(0.00005 + 1e-12);
    });
    it(`Compat(p=0.95) on compat.qrels / compat.run (test_compat.py), ${name}`, () => {
      // (p=0.95 is Compat's default: its key is "Compat", as ir_measures prints it.)
      const r = run(qrelsOf(read("compat.qrels")), runOf(read("compat.run")), ["Compat(p=0.95)"]);
      expect(r.values.Compat[0]).toBeCloseTo(0.51779512165509, 13);
      expect(r.values.Compat[1]).toBeCloseTo(0.018400100569017922, 13);
    });
  }
});

describe("worked by hand", () => {
  // One query: ranks 1..4 hold labels 2, 0, (no judgment), 1; a document judged 3 is not retrieved.
  const rows = { qid: ["q", "q", "q", "q"], docid: ["a", "b", "c", "d"], score: [4, 3, 2, 1] };
  const qrels = { qid: ["q", "q", "q", "q"], docid: ["a", "b", "d", "e"], rel: [2, 0, 1, 3] };
  const both = (measures: string[]) => [
    evaluateRun(qrels, rows, measures),
    referenceEvaluateRun(qrels, rows, measures),
  ];

  it("Accuracy: (relevant, non-relevant) pairs in order among the retrieved", () => {
    for (const r of both(["Accuracy", "Accuracy@2", "Accuracy(rel=2)", "Accuracy@1"])) {
      // rel 1: a, d relevant; b, c not: pairs (a,b) (a,c) in order, (d,b) (d,c) not: 2/4.
      expect(r.values.Accuracy[0]).toBe(0.5);
      expect(r.values["Accuracy@2"][0]).toBe(1); // a over b
      // rel 2: a relevant; b, c, d not: 3/3.
      expect(r.values["Accuracy(rel=2)"][0]).toBe(1);
      expect(r.values["Accuracy@1"][0]).toBeNaN(); // no non-relevant document: ir_measures divides by 0
    }
  });

  it("RBP(p, rel): binary gains, weights normalised over cwl_eval's 1000 ranks", () => {
    for (const r of both(["RBP(p=0.5,rel=1)"])) {
      // a and d relevant at ranks 1 and 4: (1 + 0.5^3) (1 - 0.5) / (1 - 0.5^1000)
      expect(r.values["RBP(p=0.5,rel=1)"][0]).toBeCloseTo(0.5625, 15);
    }
  });

  it("SDCG@k: DCG over gains scaled by max_rel, divided by the ideal's of k documents of gain 1", () => {
    for (const r of both(["SDCG(max_rel=2)@2"])) {
      // gains a 2/2 = 1, b 0: (1 / log2 2) / (1 / log2 2 + 1 / log2 3)
      expect(r.values["SDCG(max_rel=2)@2"][0]).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 15);
    }
  });

  it("Compat: RBO with the ideal ranking e, a, d (label order), normalised", () => {
    for (const r of both(["Compat(p=0.5,normalize=False)", "Compat(p=0.5)"])) {
      // depth 4; the first i of the ranking (a, b, c, d) and of the ideal (e, a, d) share 0, 1, 1, 2
      // documents for i = 1..4 (a from 2 on, d at 4).
      const rbo = (0 / 1 + (0.5 * 1) / 2 + (0.25 * 1) / 3 + (0.125 * 2) / 4) / (1 + 0.5 + 0.25 + 0.125);
      const best = (1 + (0.5 * 2) / 2 + (0.25 * 3) / 3 + (0.125 * 3) / 4) / (1 + 0.5 + 0.25 + 0.125);
      expect(r.values["Compat(p=0.5,normalize=False)"][0]).toBeCloseTo(rbo, 15);
      expect(r.values["Compat(p=0.5)"][0]).toBeCloseTo(rbo / best, 15);
    }
  });

  it("NumQ counts the queries (summed, as ir_measures' SumAgg)", () => {
    const r = evaluate({ qid: [1, 1, 2], score: [1, 2, 3], rel: [0, 1, 1] }, ["NumQ"]);
    expect(Array.from(r.values.NumQ)).toEqual([1, 1]);
    expect(r.mean.NumQ).toBe(2);
    expect(referenceEvaluate({ qid: [1, 1, 2], score: [1, 2, 3], rel: [0, 1, 1] }, ["NumQ"]).values.NumQ).toEqual(
      new Float64Array([1, 1]),
    );
  });

  it("judged_only=True ranks the judged documents only (pytrec_eval's judged_docs_only_flag)", () => {
    for (const r of both(["P(judged_only=True)@3", "P@3"])) {
      expect(r.values["P(judged_only=True)@3"][0]).toBe(2 / 3); // a, b, d
      expect(r.values["P@3"][0]).toBe(1 / 3); // a, b, c
    }
  });
});

describe("names and parameters", () => {
  it("keys as ir_measures prints them (parameters at their defaults left out)", () => {
    expect(
      parseMeasures([
        "INST(T=1.0,max_rel=3)",
        "RBP(p=0.8,rel=1)",
        "Compat(p=0.95,normalize=True)",
        "nDCG(dcg='exp-log2')",
      ]).map((m) => m.name),
    ).toEqual(["INST(max_rel=3)", "RBP(rel=1)", "Compat", "nDCG(dcg='exp-log2')"]);
  });
  it("errors where ir_measures or its provider refuses", () => {
    expect(() => parseMeasures("SDCG@10")).toThrow(/SDCG needs max_rel/);
    expect(() => parseMeasures("INST(min_rel=2,max_rel=2)")).toThrow(/min_rel \(2\) must be less than max_rel \(2\)/);
    expect(() => parseMeasures("RBP")).toThrow(/RBP needs rel/);
    expect(() => parseMeasures("RBP(rel=1)@10")).toThrow(/takes no cutoff/);
    expect(() => parseMeasures("RR(judged_only=True)@10")).toThrow(/MS MARCO/);
    expect(() => parseMeasures("nDCG(dcg='exp-log2',judged_only=True)@10")).toThrow(/gdeval or ranx/);
    expect(() => parseMeasures("Bpref(judged_only=True)")).toThrow(/Bpref has no parameter "judged_only"/);
  });
});
