// Type-checked by test/types.test.ts (never run): measure names are typed, so the compiler completes
// them and catches a misspelled one, while a string or string[] known only at run time is accepted;
// evaluate's result keeps the type of the rows' query ids; a comparison's tests asked are there. Every
// `@ts-expect-error` line must be an error: if one stops being one, the test fails.
import {
  agreement,
  compare,
  compareAsync,
  evaluate,
  evaluateDiversity,
  evaluateRun,
  parseMeasures,
  type CompareOptions,
  type MeasureName,
  type Result,
  type TestName,
  type TestResult,
} from "../../src/index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const stringRows = { qid: ["a", "a", "b"], score: [1, 2, 3], rel: [0, 1, 1] };
const numberRows = { qid: [1, 1, 2], score: [1, 2, 3], rel: [0, 1, 1] };
const typedRows = { qid: Int32Array.from([1, 1, 2]), score: Float64Array.from([1, 2, 3]), rel: [0, 1, 1] };
const mixedRows = { qid: ["a", 1, 1] as (string | number)[], score: [1, 2, 3], rel: [0, 1, 1] };

const s = evaluate(stringRows, "ndcg@10");
const n = evaluate(numberRows, ["ndcg@10", "map"]);
const t = evaluate(typedRows, "map");
const m = evaluate(mixedRows, "map");
const r = evaluateRun({ q: { d: 1 } }, { q: { d: 1 } }, "nDCG@10");
export const qidTypes: [
  Equal<typeof s, Result<string>>,
  Equal<typeof n, Result<number>>,
  Equal<typeof t, Result<number>>,
  Equal<typeof m, Result<string | number>>,
  Equal<typeof r, Result<string>>,
] = [true, true, true, true, true];
export const firstQid: string = s.qids[0];

// Every tool's names, as they are written.
export const names: MeasureName[] = [
  // rankeval
  "ndcg@10",
  "ndcg@1,3,5,10",
  "ndcg",
  "map",
  "mrr@10",
  "precision@5",
  "p@5",
  "recall@100",
  "err(max=3)@20",
  "err@20",
  "hit_rate@5",
  "hits@10",
  "judged@10",
  "r-precision",
  "bpref",
  "num_rel_ret",
  "iprec_at_recall(recall=0.5)",
  "rbp(p=0.8)",
  // trec_eval, in -m syntax and as it prints them
  "ndcg_cut.10",
  "ndcg_cut.5,10,20",
  "ndcg_cut_10",
  "P.5,10",
  "P_5",
  "P",
  "recip_rank",
  "Rprec",
  "success.1,5",
  "map_cut.100",
  "iprec_at_recall_0.50",
  "iprec_at_recall..10,.20",
  "set_F.0.5",
  "set_F_0.5",
  "utility.2,-1,0,0",
  "utility_2,-1,0,0",
  "ndcg.1=3,2=9",
  "ndcg_1=3,2=9",
  "11pt_avg..25,.5",
  "11pt_avg_.25,.5",
  "gm_map",
  "official",
  "all_trec",
  // ir_measures
  "nDCG@10",
  "nDCG",
  "NDCG@10",
  "AP",
  "AP@100",
  "MAP",
  "RR",
  "RR(rel=2)",
  "MRR@10",
  "P@10",
  "P(rel=2)@10",
  "R@100",
  "nDCG(dcg='exp-log2')@10",
  "Judged@10",
  "IPrec@0.5",
  "ERR@20",
  "Bpref",
  "infAP",
  "NumRet",
  "NumRel",
  "NumRelRet",
  "SetP",
  "SetR",
  "SetF",
  "SetF(beta=0.5)",
  "Success@5",
  // ranx
  "hits@10",
  "ndcg_burges@10",
  "dcg_burges@10",
  "dcg_burges",
  "hits@10-l2",
];

evaluate(stringRows, "ndcg@10 map P@5"); // several words: the first is checked
evaluate(stringRows, names);
evaluate(stringRows, parseMeasures(["nd" + "cg@10"])); // names known only at run time
evaluate(stringRows, [...parseMeasures("map"), "ndcg@10"]);

// @ts-expect-error a misspelled family
evaluate(stringRows, "ndgc@10");
// @ts-expect-error a misspelled cutoff
evaluate(stringRows, "ndcg@1O");
// @ts-expect-error trec_eval's syntax, misspelled cutoff
evaluate(stringRows, "ndcg_cut.1O");
// @ts-expect-error trec_eval's syntax, misspelled cutoff
evaluate(stringRows, "P.1O");
// @ts-expect-error trec_eval's printed spelling, misspelled cutoff
evaluate(stringRows, "ndcg_cut_1O");
// @ts-expect-error ir_measures' names are case-sensitive
evaluate(stringRows, "nDGC@10");
// @ts-expect-error one misspelled name in a list
evaluate(stringRows, ["ndcg@10", "mapp"]);
// @ts-expect-error precision needs a cutoff
evaluate(stringRows, "precision");
// @ts-expect-error num_ret takes none
evaluate(stringRows, "num_ret@10");
// @ts-expect-error Rprec takes none
evaluate(stringRows, "Rprec@10");
// @ts-expect-error ERR needs one (gdeval computes it)
evaluate(stringRows, "ERR");
// @ts-expect-error not ir_measures' name (IPrec is)
evaluate(stringRows, "iP@0.5");
// @ts-expect-error runid is a line of trec_eval's report, not a measure
evaluate(stringRows, "runid");
// @ts-expect-error an unknown option
evaluate(stringRows, "map", { tie: "input" });

// Names known only at run time (argv, a config file, an inferred array): accepted as they are and
// checked at run time, with the same did-you-mean errors.
const dynamic: string = "map";
evaluate(stringRows, dynamic);
const fromArgv: string[] = ["ndcg@10", "map"];
evaluate(stringRows, fromArgv);
evaluate(numberRows, fromArgv as readonly string[]);
const inferred = ["ndcg@10", "map"]; // string[]
evaluate(stringRows, inferred);
evaluateRun({ q: { d: 1 } }, { q: { d: 1 } }, inferred);
evaluateDiversity({ q: { "1": { d: 1 } } }, { q: { d: 1 } }, inferred);
// A literal beside a string: the list is a string[], checked at run time.
evaluate(stringRows, ["ndcg@10", dynamic]);
evaluate(stringRows, [...parseMeasures("map"), dynamic]);
declare const k: number;
evaluate(stringRows, `ndcg@${k}`);
// Templates are wider than literals: checked at run time.
const family: string = "ndcg";
evaluate(stringRows, `${family}@10`);
evaluate(stringRows, `ndgc@${k}`);
export const dynamicQids: Result<string> = evaluate(stringRows, fromArgv);
// @ts-expect-error an inferred array of literals keeps its check (const type parameter)
evaluate(stringRows, ["ndcg@10", "ndgc@5"] as const);
// @ts-expect-error a literal misspelled in evaluateRun
evaluateRun({ q: { d: 1 } }, { q: { d: 1 } }, ["ndcg@10", "mapp"]);
// @ts-expect-error and in evaluateDiversity
evaluateDiversity({ q: { "1": { d: 1 } } }, { q: { d: 1 } }, "alpha-ndgc@10");
// @ts-expect-error not a string
evaluate(stringRows, [3]);
// @ts-expect-error not a list of strings
evaluate(stringRows, fromArgv.length);

// Presets, tie orders, the tie range, XGBoost's names and other tools' AP families.
const xgb = evaluate(stringRows, ["ndcg@10", "ndcg@10-", "map-", "pre@5", "map_lightgbm@10", "map_ptranking"], {
  preset: "xgboost",
  tieRange: true,
});
const range: Float64Array | undefined = xgb.tieRange?.["ndcg@10"].worst;
void range;
evaluate(stringRows, "ndcg@10", { preset: "sklearn", ties: "average", beyondList: "clip" });
evaluate(stringRows, "map", { ties: "best" });
// @ts-expect-error an unknown preset
evaluate(stringRows, "map", { preset: "xgb" });
// @ts-expect-error an unknown tie order
evaluate(stringRows, "map", { ties: "random" });
// @ts-expect-error XGBoost's pre needs a cutoff
evaluate(stringRows, "pre");

// A comparison's tests: those asked (or the defaults) are surely there, so `tests.t.p` compiles under
// strict as the README writes it; others, and every test of a list known only at run time, may be absent.
const run = evaluate(stringRows, "map");
const runs = [
  { name: "a", result: run },
  { name: "b", result: run },
];
export const tP: number = compare(runs, { tests: ["t", "randomization"] }).comparisons[0].tests.t.p;
export const byDefault: number = compare(runs).comparisons[0].tests.randomization.p;
export const wilcoxon: number = compare(runs, { tests: ["wilcoxon"], seed: 1 }).comparisons[0].tests.wilcoxon.p;
export const later: Promise<number> = compareAsync(runs, { tests: ["sign"] }).then(
  (c) => c.comparisons[0].tests.sign.p,
);
// @ts-expect-error a test not asked may be absent
export const notAsked: TestResult = compare(runs, { tests: ["t"] }).comparisons[0].tests.wilcoxon;
const someTests: TestName[] = ["t"];
// @ts-expect-error a list known only at run time promises no test
export const unknownTests: TestResult = compare(runs, { tests: someTests }).comparisons[0].tests.t;
const options: CompareOptions = { tests: ["t"] };
export const viaOptions: TestResult | undefined = compare(runs, options).comparisons[0].tests.t;
// @ts-expect-error an unknown test
compare(runs, { tests: ["tt"] });
// @ts-expect-error an unknown option (excess properties are still checked)
compare(runs, { test: ["t"] });

// Agreement between judgments: the two-set values may be null (undefined kappa) or absent (three sets).
const agreed = agreement([{ q: { d: 1 } }, { q: { d: 0 } }], { threshold: 1, bins: [0.5, 1.5] });
export const kappa: number | null | undefined = agreed.cohen_kappa;
export const alphaInterval: number | null = agreed.krippendorff_alpha.interval;
// @ts-expect-error an unknown option
agreement([{ q: { d: 1 } }, { q: { d: 0 } }], { treshold: 1 });
