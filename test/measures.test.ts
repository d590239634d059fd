import { describe, expect, it } from "vitest";
import { RankevalError } from "../src/errors/errors.js";
import { evaluate } from "../src/pipeline/evaluate.js";
import { describeMeasureOptions, measureOptions } from "../src/measures/measure.js";
import { parseMeasures } from "../src/names/resolve.js";
import { editDistance, nearest } from "../src/errors/suggest.js";
import { describeOptions, explicitOptions, resolveOptions } from "../src/measures/options.js";

const names = (spec: string | string[]) => parseMeasures(spec).map((m) => m.name);
const one = (spec: string) => {
  const ms = parseMeasures(spec);
  expect(ms.length).toBe(1);
  return ms[0];
};
const what = (spec: string) =>
  parseMeasures(spec).map((m) => `${m.tool} ${m.family.name}${m.k ? `@${m.k}` : ""} ${m.name}`);
const rejects = (spec: string | string[], message: RegExp) => {
  let err: unknown;
  try {
    parseMeasures(spec);
  } catch (e) {
    err = e;
  }
  expect(err, `${JSON.stringify(spec)} should be refused`).toBeInstanceOf(RankevalError);
  expect((err as RankevalError).code).toBe("bad-measure");
  expect((err as Error).message).toMatch(message);
};

describe("measure names: each tool's name, keyed in its tool's spelling", () => {
  it.each([
    // rankeval's own names (lower case)
    ["ndcg@10", ["rankeval ndcg@10 ndcg@10"]],
    [
      "ndcg@1,3,5,10",
      ["rankeval ndcg@1 ndcg@1", "rankeval ndcg@3 ndcg@3", "rankeval ndcg@5 ndcg@5", "rankeval ndcg@10 ndcg@10"],
    ],
    ["ndcg", ["rankeval ndcg ndcg"]],
    ["map", ["rankeval map map"]],
    ["bpref", ["rankeval bpref bpref"]],
    ["p@5", ["rankeval precision@5 precision@5"]],
    ["err(max=4)@20", ["rankeval err@20 err@20"]],
    ["err(max=3)@20", ["rankeval err@20 err(max=3)@20"]],
    ["num_rel_ret", ["rankeval num_rel_ret num_rel_ret"]],
    ["tau", ["rankeval kendall_tau kendall_tau"]],
    // trec_eval's names, in its -m syntax and as it prints them
    ["ndcg_cut.10,20", ["trec_eval ndcg@10 ndcg_cut_10", "trec_eval ndcg@20 ndcg_cut_20"]],
    ["ndcg_cut_10", ["trec_eval ndcg@10 ndcg_cut_10"]],
    ["P.5,10", ["trec_eval precision@5 P_5", "trec_eval precision@10 P_10"]],
    ["P_5", ["trec_eval precision@5 P_5"]],
    ["recall_1000", ["trec_eval recall@1000 recall_1000"]],
    ["map_cut.10", ["trec_eval map@10 map_cut_10"]],
    ["recip_rank", ["trec_eval mrr recip_rank"]],
    ["success.1,5", ["trec_eval hit_rate@1 success_1", "trec_eval hit_rate@5 success_5"]],
    ["iprec_at_recall_0.50", ["trec_eval iprec_at_recall iprec_at_recall_0.50"]],
    ["set_F.0.5", ["trec_eval set_f set_F_0.5"]],
    ["gm_map", ["trec_eval map gm_map"]],
    // ir_measures' names (case-sensitive)
    ["nDCG@10", ["ir_measures ndcg@10 nDCG@10"]],
    ["NDCG@10", ["ir_measures ndcg@10 nDCG@10"]],
    ["nDCG", ["ir_measures ndcg nDCG"]],
    ["P@5", ["ir_measures precision@5 P@5"]],
    ["P(rel=2)@10", ["ir_measures precision@10 P(rel=2)@10"]],
    ["P(rel=1)@10", ["ir_measures precision@10 P@10"]],
    ["R@100", ["ir_measures recall@100 R@100"]],
    ["AP", ["ir_measures map AP"]],
    ["MAP@100", ["ir_measures map@100 AP@100"]],
    ["RR", ["ir_measures mrr RR"]],
    ["RR(rel=2)", ["ir_measures mrr RR(rel=2)"]],
    ["MRR@10", ["ir_measures mrr@10 RR@10"]],
    ["nDCG(dcg='exp-log2')@10", ["ir_measures ndcg@10 nDCG(dcg='exp-log2')@10"]],
    ['nDCG(dcg="exp-log2")@10', ["ir_measures ndcg@10 nDCG(dcg='exp-log2')@10"]],
    ["nDCG(dcg='log2')@10", ["ir_measures ndcg@10 nDCG@10"]],
    ["Judged@10", ["ir_measures judged@10 Judged@10"]],
    ["IPrec@0.5", ["ir_measures iprec_at_recall IPrec@0.5"]],
    ["IPrec@1.0", ["ir_measures iprec_at_recall IPrec@1.0"]],
    ["ERR@20", ["ir_measures err@20 ERR@20"]],
    ["Rprec", ["ir_measures r-precision Rprec"]],
    ["RPrec", ["ir_measures r-precision Rprec"]],
    ["Bpref", ["ir_measures bpref Bpref"]],
    ["infAP", ["ir_measures infap infAP"]],
    ["NumRet", ["ir_measures num_ret NumRet"]],
    ["NumRet(rel=2)", ["ir_measures num_rel_ret NumRet(rel=2)"]],
    ["NumRelRet", ["ir_measures num_rel_ret NumRet(rel=1)"]],
    ["NumRel", ["ir_measures num_rel NumRel"]],
    ["SetP", ["ir_measures set_p SetP"]],
    ["SetRelP", ["ir_measures set_relative_p SetP(relative=True)"]],
    ["SetR", ["ir_measures set_recall SetR"]],
    ["SetF(beta=0.5)", ["ir_measures set_f SetF(beta=0.5)"]],
    ["SetAP", ["ir_measures set_map SetAP"]],
    ["Success@5", ["ir_measures hit_rate@5 Success@5"]],
    // ranx's names that are not rankeval's
    ["hits@10", ["ranx hits@10 hits@10"]],
    ["hits", ["ranx hits hits"]],
    ["ndcg_burges@10", ["ranx ndcg@10 ndcg_burges@10"]],
    ["dcg_burges", ["ranx dcg dcg_burges"]],
    ["hits@10-l2", ["ranx hits@10 hits@10-l2"]],
  ])("%s", (spec, expected) => {
    expect(what(spec)).toEqual(expected);
  });

  it("a bare name that is both rankeval's and trec_eval's is rankeval's; one rankeval cannot read falls to trec_eval", () => {
    expect(one("map").tool).toBe("rankeval");
    expect(one("ndcg").tool).toBe("rankeval");
    // recall and unj need a cutoff as rankeval's names: trec_eval's give every default cutoff
    expect(names("recall")).toEqual([
      "recall_5",
      "recall_10",
      "recall_15",
      "recall_20",
      "recall_30",
      "recall_100",
      "recall_200",
      "recall_500",
      "recall_1000",
    ]);
    expect(names("unj")).toEqual(["unj_5", "unj_10", "unj_20"]);
    // ir_measures' P needs a cutoff: trec_eval's P has defaults
    expect(names("P")[0]).toBe("P_5");
  });

  it("keeps an alias's preset parameter in its place (ir_measures' dict), shown when not its default", () => {
    expect(names("NumRelRet(rel=2)")).toEqual(["NumRet(rel=2)"]);
    expect(names("SetRelP(rel=2)")).toEqual(["SetP(relative=True,rel=2)"]);
  });

  it("takes parsed measures as they are (names known only at run time)", () => {
    const parsed = parseMeasures(["nDCG@10", "ndcg@10"]);
    const rows = { qid: ["q", "q"], score: [2, 1], rel: [1, 2] };
    const r = evaluate(rows, [...parsed, "map"]);
    expect(r.measures).toEqual(["nDCG@10", "ndcg@10", "map"]);
    expect(r.values["nDCG@10"][0]).toBeCloseTo((1 + 2 / Math.log2(3)) / (2 + 1 / Math.log2(3)), 12);
    expect(r.values["ndcg@10"][0]).toBeCloseTo((1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3)), 12);
  });

  it("takes several specs, separated by spaces or as a list, without duplicates by key", () => {
    expect(names("ndcg@10 map  P@10")).toEqual(["ndcg@10", "map", "P@10"]);
    expect(names(["ndcg@5", "ndcg_cut.5", "map", "ndcg@5"])).toEqual(["ndcg@5", "ndcg_cut_5", "map"]);
    // in the library each word is read alone: P.5 and P.10 are both computed
    expect(names(["P.5", "P.10"])).toEqual(["P_5", "P_10"]);
  });

  it("carries each tool's conventions, under the options given, under the measure's own parameters", () => {
    const none = explicitOptions({});
    // Each names the conventions its family depends on (registry: gain, binary, needsRelevant, a cutoff, orderFree).
    expect(describeMeasureOptions(one("ndcg@10"), none)).toBe(
      "rankeval: gain=exp noRelevant=zero beyondList=pad ties=docid",
    );
    expect(describeMeasureOptions(one("ndcg_cut.10"), none)).toBe(
      "trec_eval: gain=linear noRelevant=zero beyondList=pad ties=docid",
    );
    expect(describeMeasureOptions(one("nDCG@10"), none)).toBe(
      "ir_measures: gain=linear noRelevant=zero beyondList=pad ties=docid",
    );
    expect(describeMeasureOptions(one("hits@10"), none)).toBe("ranx: relevanceThreshold=1 beyondList=pad ties=input");
    expect(describeMeasureOptions(one("map"), none)).toBe("rankeval: relevanceThreshold=1 noRelevant=zero ties=docid");
    expect(describeMeasureOptions(one("num_ret"), none)).toBe("rankeval: ");
    // a noRelevant other than zero decides by R, at the threshold; skip acts on every measure
    expect(describeMeasureOptions(one("ndcg@10"), explicitOptions({ noRelevant: "one" }))).toBe(
      "rankeval: gain=exp relevanceThreshold=1 noRelevant=one beyondList=pad ties=docid",
    );
    expect(describeMeasureOptions(one("num_ret"), explicitOptions({ noRelevant: "skip", depth: 5 }))).toBe(
      "rankeval: relevanceThreshold=1 noRelevant=skip depth=5",
    );
    // a preset is named, with the definition it gives
    expect(describeMeasureOptions(one("map@10"), explicitOptions({ preset: "lightgbm" }))).toBe(
      "rankeval: preset=lightgbm relevanceThreshold=1 noRelevant=one beyondList=clip ties=input definition=map_lightgbm",
    );
    // options given beat a tool's conventions ...
    const exp = explicitOptions({ gain: "exp", relevanceThreshold: 3 });
    expect(measureOptions(one("ndcg_cut.10"), exp)).toMatchObject({ gain: "exp", relevanceThreshold: 3 });
    // ... and a measure's own parameters beat the options given
    expect(measureOptions(one("P(rel=2)@10"), exp).relevanceThreshold).toBe(2);
    expect(measureOptions(one("nDCG(dcg='exp-log2')@10"), explicitOptions({ gain: "linear" })).gain).toBe("exp");
    expect(measureOptions(one("ndcg_burges@10"), explicitOptions({ gain: "linear" })).gain).toBe("exp");
    expect(measureOptions(one("hits@10-l2"), exp).relevanceThreshold).toBe(2);
    const table = measureOptions(one("ndcg.1=3,2=9"), exp).gain;
    expect(table instanceof Map ? Object.fromEntries(table) : table).toEqual({ 1: 3, 2: 9 });
  });

  it("sums or takes the geometric mean where the tool does", () => {
    expect(one("NumRet").aggregate).toBe("sum");
    expect(one("NumRel").aggregate).toBe("sum");
    expect(one("num_ret").aggregate).toBe("mean"); // rankeval's own
    expect(parseMeasures("num_rel_ret.x")[0].aggregate).toBe("sum"); // trec_eval's (parameters ignored)
    expect(one("gm_map").aggregate).toBe("geomean");
    const rows = { qid: ["a", "a", "b", "b", "b"], score: [2, 1, 3, 2, 1], rel: [1, 0, 0, 0, 1] };
    const r = evaluate(rows, ["NumRet", "num_ret", "gm_map", "map", "NumRet(rel=1)"]);
    expect(r.mean.NumRet).toBe(5);
    expect(r.mean.num_ret).toBe(2.5);
    expect(r.mean["NumRet(rel=1)"]).toBe(2);
    expect(r.mean.map).toBeCloseTo((1 + 1 / 3) / 2, 12);
    expect(r.mean.gm_map).toBeCloseTo(Math.sqrt(1 / 3), 12);
  });
});

describe("typos and bad names are errors, naming them", () => {
  it.each([
    ["bleu@4", /unknown measure "bleu@4"/],
    ["ndgc@10", /unknown measure "ndgc@10" \(did you mean ndcg@10/],
    ["nDGC@10", /did you mean nDCG@10/],
    ["recip_rnak", /did you mean recip_rank\?/],
    ["Map", /did you mean (map|MAP)/],
    ["ndcg@1O", /cutoff "1O" is not a positive integer/],
    ["ndcg@0", /cutoff "0" is not a positive integer/],
    ["ndcg@-3", /cutoff "-3" is not a positive integer/],
    ["P@2.5", /cutoff=2\.5 is not an integer/],
    ["P@1O", /cutoff=1O is not an integer/],
    ["nDCG@1O", /cutoff=1O is not an integer/],
    ["ndcg_cut.1O", /cutoff "1O" is not a number/],
    ["P.1O", /cutoff "1O" is not a number/],
    ["P_1O", /cutoff "1O" is not a number/],
    ["iprec_at_recall.0.5x", /cutoff "0\.5x" is not a number/],
    ["utility.1,-1,x,0", /parameter "x" is not a number/],
    ["ndcg.1=3,2=x", /value of 2 "x" is not a number/],
    ["ndcg.1x=3", /level "1x" is not a number/],
    ["hits@1O", /cutoff "1O" is not a positive integer/],
    ["hits@10-lx", /relevance level "x"/],
    ["precision", /precision needs a cutoff/],
    ["num_ret@10", /num_ret takes no cutoff/],
    ["Rprec@10", /Rprec takes no cutoff/],
    ["err(p=3)@10", /err has no parameter "p"/],
    ["err(max=0)@10", /max grade must be an integer from 1 to 30/],
    ["err(max=x)@10", /parameter max: "x" is not a number/],
    ["P(rell=2)@10", /P has no parameter "rell"/],
    ["P(rel=2.5)@10", /rel=2\.5 is not an integer/],
    ["P(rel=2,rel=3)@10", /parameter rel given twice/],
    ["nDCG(dcg='exp')@10", /dcg='exp' is not one of 'log2', 'exp-log2'/],
    // (nDCG(dcg='exp-log2') without a cutoff is ranx's, and judged_only=True is -J, since issue 14)
    [
      "nDCG(dcg='exp-log2',judged_only=True)@10",
      /judged_only=True: ir_measures computes this with gdeval or ranx, which does not take it/,
    ],
    ["NumRel(rel=2)", /only at rel=1/],
    ["ERR", /ERR needs a cutoff \(ir_measures computes ERR with gdeval, which needs one\), as ERR@20/],
    ["RBP", /RBP needs rel \(as RBP\(rel=1\)\)/],
    ["iP@0.5", /did you mean IPrec@0\.5/],
    ["nDCG@10,AP", /separate words or -m options \(nDCG@10 AP\)/],
    ["ndcg@10,map", /separate words or -m options \(ndcg@10 map\)/],
    ["runid", /runid is a line of trec_eval's report/],
    ["relstring", /a string per query/],
    ["", /no measure given/],
  ])("%j", (spec, message) => rejects(spec, message));

  it("reads a decimal cutoff in trec_eval's syntax as trec_eval does, with a warning", () => {
    const warnings: string[] = [];
    // the first '.' splits: the parameter string is "10,23.4"
    expect(parseMeasures("ndcg_cut.10,23.4", warnings).map((m) => m.name)).toEqual(["ndcg_cut_10", "ndcg_cut_23"]);
    expect(warnings).toEqual([
      'trec_eval measure "ndcg_cut.10,23.4": cutoff "23.4" is read as 23, as trec_eval reads it (atol)',
    ]);
    const w2: string[] = [];
    parseMeasures("map.5 all_trec.5", w2);
    expect(w2[0]).toMatch(/ignores parameters on map/);
    expect(w2[1]).toMatch(/ignores parameters on a nickname/);
    const rows = { qid: [1, 1], score: [2, 1], rel: [1, 0] };
    expect(evaluate(rows, ["ndcg_cut.23.4"]).warnings).toEqual([
      'trec_eval measure "ndcg_cut.23.4": cutoff "23.4" is read as 23, as trec_eval reads it (atol)',
    ]);
    expect(evaluate(rows, ["ndcg@10"]).warnings).toEqual([]);
  });

  it("suggests by edit distance, a change of case costing half", () => {
    expect(editDistance("ndgc", "ndcg")).toBe(1);
    expect(editDistance("NDCG", "nDCG")).toBe(0.5);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(nearest("recip_rnak", ["map", "recip_rank", "P"])).toEqual(["recip_rank"]);
    expect(nearest("xyz", ["map", "ndcg"])).toEqual([]);
  });
});

describe("options", () => {
  it("has the documented defaults and prints them", () => {
    const o = resolveOptions();
    expect(o).toMatchObject({
      gain: "exp",
      relevanceThreshold: 1,
      noRelevant: "zero",
      beyondList: "pad",
      depth: Infinity,
      ties: "docid",
    });
    expect(describeOptions(o)).toBe("gain=exp relevanceThreshold=1 noRelevant=zero beyondList=pad ties=docid");
    expect(describeOptions(resolveOptions({ gain: { 1: 3, 2: 9 }, depth: 100, ties: "input" }))).toBe(
      "gain={1:3,2:9} relevanceThreshold=1 noRelevant=zero beyondList=pad ties=input depth=100",
    );
  });

  it("keeps only the options given", () => {
    expect(explicitOptions({ gain: "linear", ties: undefined })).toEqual({ gain: "linear" });
    expect(explicitOptions()).toEqual({});
  });

  it.each([
    [{ gain: "log" }, /gain must be/],
    [{ gain: { 0: 1 } }, /label "0" is not an integer from 1/],
    [{ gain: { 1.5: 1 } }, /label "1.5"/],
    [{ gain: { 2: Infinity } }, /must be a finite number >= 0/],
    [{ gain: { 2: -1 } }, /must be a finite number >= 0/],
    [{ relevanceThreshold: NaN }, /relevanceThreshold/],
    // 0 is allowed (trec_eval -l 0: every label >= 0 relevant); below 0 is trec_eval's CLI-only reading.
    [{ relevanceThreshold: -1 }, /relevanceThreshold must be a number >= 0/],
    [{ noRelevant: "ignore" }, /noRelevant must be/],
    [{ beyondList: "truncate" }, /beyondList must be/],
    // 0 is allowed (trec_eval -M 0 keeps no documents).
    [{ depth: -1 }, /depth must be an integer >= 0/],
    [{ depth: 1.5 }, /depth must be an integer >= 0/],
    [{ judgedOnly: "yes" }, /judgedOnly must be true or false/],
    [{ ties: "score" }, /ties must be "docid", "input", "average", "best" or "worst", not "score"/],
    [{ ties: null }, /ties must be "docid", "input", "average", "best" or "worst", not null/],
    [
      { tie: "input" },
      /unknown option "tie" \(did you mean ties\?\) \(the options are gain, relevanceThreshold, noRelevant, beyondList, depth, judgedOnly, ties, preset, tieRange, interval, rollup, rollupMethod, dropSelf\)/,
    ],
    [
      { preset: "xgb" },
      /unknown preset "xgb" .*\(the presets are trec_eval, pytrec_eval, ir_measures, ranx, sklearn, lightgbm, xgboost, catboost, torchmetrics, ignite, ptranking, ptranking-tutorial, tfranking, rankeval-default\)/,
    ],
    [{ preset: "lightgmb" }, /unknown preset "lightgmb" \(did you mean lightgbm\?\)/],
    [{ tieRange: "yes" }, /tieRange must be true or false/],
    [{ beyondList: "cut" }, /beyondList must be "pad", "clip", "nan" or "zero", not "cut"/],
    [{ relevance_threshold: 2 }, /unknown option "relevance_threshold" \(did you mean relevanceThreshold\?\)/],
    [{ k: 10 }, /unknown option "k" \(the options are/],
  ])("rejects %j", (options, message) => {
    expect(() => resolveOptions(options as never)).toThrow(message);
    let err: unknown;
    try {
      evaluate({ qid: [1], score: [1], rel: [1] }, "map", options as never);
    } catch (e) {
      err = e;
    }
    expect((err as RankevalError).code).toBe("bad-option");
  });
});
