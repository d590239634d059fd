// trec_eval's remaining all_trec measures (TREC_EVAL_SEMANTICS.md (a)): hand-computed cases on both
// backends (the reference and the kernel), then per-query golden checks against trec_eval 10's own
// output on its test collection (../shared/golden/trec_eval: out.test.aq = `-m all_trec -q`,
// out.test.aql = the same with graded qrels and -l2), read in place and skipped where absent.
import { describe, expect, it } from "vitest";
import { evaluate, evaluateRun, type Options, type Qrels, type Rows, type Run } from "../src/index.js";
import { referenceEvaluate, referenceEvaluateRun } from "../src/reference/index.js";
import { haveGolden, readGolden, splitLine } from "./trec/_shared.js";

type Values = { qids: unknown[]; values: Record<string, Float64Array> };
interface Backend {
  name: string;
  evaluate: (rows: Rows, measures: string | string[], options?: Options) => Values;
  evaluateRun: (qrels: Qrels, run: Run, measures: string | string[], options?: Options) => Values;
}

const backends: Backend[] = [
  { name: "reference", evaluate: referenceEvaluate, evaluateRun: referenceEvaluateRun },
  { name: "kernel", evaluate, evaluateRun },
];

/** Asserts values[name] equals `expected` (1e-12 relative, NaN where NaN), naming the measure. */
function expectValues(result: Values, expected: Record<string, number | number[]>): void {
  for (const [name, want] of Object.entries(expected)) {
    const got = result.values[name];
    expect(got, `no values for ${name}`).toBeDefined();
    const wants = Array.isArray(want) ? want : [want];
    expect(got.length, name).toBe(wants.length);
    wants.forEach((w, q) => {
      const g = got[q];
      const ok = Number.isNaN(w) ? Number.isNaN(g) : Math.abs(g - w) <= 1e-12 * Math.max(1, Math.abs(g), Math.abs(w));
      expect(ok, `${name} of query ${q}: got ${g}, expected ${w}`).toBe(true);
    });
  }
}

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
      const r = b.evaluateRun(qrels, run, ["relative_p@1,2,5,10", "set_p", "set_relative_p", "set_recall", "set_map", "set_f", "set_f(beta=0.5)", "num_nonrel_judged_ret", "unj@2,4,10"]);
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
      const r = b.evaluateRun(qrels, run, ["relative_p@5", "set_p", "set_relative_p", "set_map", "set_f", "num_nonrel_judged_ret", "unj@4"], { relevanceThreshold: 2 });
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

    it("trec_eval's spellings parse to the canonical names", () => {
      const r = b.evaluateRun(qrels, run, ["relative_P.5", "set_P", "set_relative_P", "set_F", "unj_10", "unj.2"]);
      expect(Object.keys(r.values).sort()).toEqual(["relative_p@5", "set_f", "set_p", "set_relative_p", "unj@10", "unj@2"]);
    });

    it("a query without relevant documents", () => {
      const ms = ["relative_p@5", "set_p", "set_relative_p", "set_recall", "set_map", "set_f", "num_nonrel_judged_ret", "unj@2"];
      expectValues(b.evaluateRun(noRel, noRelRun, ms), {
        "relative_p@5": 0, set_p: 0, set_relative_p: 0, set_recall: 0, set_map: 0, set_f: 0, num_nonrel_judged_ret: 1, "unj@2": 1 / 2,
      });
      expectValues(b.evaluateRun(noRel, noRelRun, ms, { noRelevant: "nan" }), {
        "relative_p@5": NaN, set_p: 0, set_relative_p: NaN, set_recall: NaN, set_map: NaN, set_f: NaN, num_nonrel_judged_ret: 1, "unj@2": 1 / 2,
      });
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Golden: trec_eval 10 on its test collection (3 queries: 301, 302, 303).

/** Our measure and trec_eval's name for it, per golden line. */
const cut = (ours: string, theirs: string, ks: number[]): [string, string][] => ks.map((k) => [`${ours}@${k}`, `${theirs}_${k}`]);
const GOLDEN: [string, string][] = [
  ...cut("relative_p", "relative_P", [5, 10, 15, 20, 30, 100, 200, 500, 1000]),
  ["set_p", "set_P"],
  ["set_relative_p", "set_relative_P"],
  ["set_recall", "set_recall"],
  ["set_map", "set_map"],
  ["set_f", "set_F"],
  ["num_nonrel_judged_ret", "num_nonrel_judged_ret"],
  ...cut("unj", "unj", [5, 10, 20]),
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
  const result = evaluateRun(q, r, GOLDEN.map(([ours]) => ours), { gain: "linear", ...options });
  const problems: string[] = [];
  for (const [ours, theirs] of GOLDEN) {
    const values = result.values[ours];
    for (const qid of ["301", "302", "303", "all"]) {
      const want = golden.get(`${theirs} ${qid}`);
      if (want === undefined) {
        problems.push(`${theirs} ${qid}: not in ${outFile}`);
        continue;
      }
      const got = qid === "all"
        ? SUMMED.has(ours) ? values.reduce((a, v) => a + v, 0) : result.mean[ours]
        : values[result.qids.indexOf(qid)];
      if (!(Math.abs(got - want) <= 0.5e-4 + 1e-9)) problems.push(`${ours} (${theirs}) ${qid}: got ${got}, trec_eval ${want}`);
    }
  }
  expect(problems).toEqual([]);
}

describe.skipIf(!haveGolden("qrels.test", "results.test", "out.test.aq", "qrels.rel_level", "out.test.aql"))("trec_eval 10 golden output", () => {
  it("out.test.aq: qrels.test x results.test, -m all_trec -q", () => {
    checkGolden("qrels.test", "out.test.aq", {});
  });
  it("out.test.aql: qrels.rel_level (graded, with -1 unjudged) x results.test, -l2", () => {
    checkGolden("qrels.rel_level", "out.test.aql", { relevanceThreshold: 2 });
  });
});
