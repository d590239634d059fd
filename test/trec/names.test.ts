import { describe, expect, it } from "vitest";
import { RankevalError } from "../../src/errors/errors.js";
import { canonicalName } from "../../src/measures/measure.js";
import {
  gainTies,
  isComputed,
  parseTrecMeasures,
  reportMakesIt,
  splitTrecArg,
  TREC_MEASURE_NAMES,
  TREC_NICKNAMES,
  trecLines,
  trecMeasuresOf,
  type TrecLine,
} from "../../src/trec/measures.js";
import { atof, atol } from "../../src/c/strings.js";

const gainTablesOf = (args: string[], warnings: string[]) =>
  trecLines(parseTrecMeasures(args, warnings)).map((l) => {
    const g = l.kernel!.measure.fixed.gain;
    return g instanceof Map ? Object.fromEntries(g) : g;
  });

const names = (args: string[]) => trecLines(parseTrecMeasures(args)).map((l) => l.name);
const line = (args: string[], name: string) => trecLines(parseTrecMeasures(args)).find((l) => l.name === name)!;
const bad = (args: string[], text: RegExp) => {
  let err: unknown;
  try {
    parseTrecMeasures(args);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(RankevalError);
  expect((err as RankevalError).code).toBe("bad-measure");
  expect((err as Error).message).toMatch(text);
};

describe("parseTrecMeasures: names and parameters", () => {
  it("a plain measure", () => {
    expect(names(["map"])).toEqual(["map"]);
    expect(line(["map"], "map")).toMatchObject({
      measure: "map",
      aggregation: "mean",
      print: "float",
      perQuery: true,
      summary: true,
    });
    expect(line(["map"], "map").kernel!.measure.name).toBe("map");
  });

  it("default cutoffs", () => {
    const d = ["5", "10", "15", "20", "30", "100", "200", "500", "1000"];
    for (const m of ["P", "recall", "ndcg_cut", "map_cut", "relative_P"])
      expect(names([m])).toEqual(d.map((k) => `${m}_${k}`));
    expect(names(["success"])).toEqual(["success_1", "success_5", "success_10"]);
    expect(names(["unj"])).toEqual(["unj_5", "unj_10", "unj_20"]);
    expect(names(["iprec_at_recall"])).toEqual(
      ["0.00", "0.10", "0.20", "0.30", "0.40", "0.50", "0.60", "0.70", "0.80", "0.90", "1.00"].map(
        (x) => `iprec_at_recall_${x}`,
      ),
    );
    expect(names(["Rprec_mult"])).toEqual(
      ["0.20", "0.40", "0.60", "0.80", "1.00", "1.20", "1.40", "1.60", "1.80", "2.00"].map((x) => `Rprec_mult_${x}`),
    );
  });

  it("P.5,10 and cutoffs sorted ascending, atol-read (23.4 -> 23)", () => {
    expect(names(["P.5,10"])).toEqual(["P_5", "P_10"]);
    expect(names(["P.5,7,3"])).toEqual(["P_3", "P_5", "P_7"]);
    expect(names(["ndcg_cut.10,20,23.4"])).toEqual(["ndcg_cut_10", "ndcg_cut_20", "ndcg_cut_23"]);
    expect(parseTrecMeasures(["ndcg_cut.10,20,23.4"])[0].cutoffs).toEqual([10, 20, 23]);
    expect(names(["success.2,5,20"])).toEqual(["success_2", "success_5", "success_20"]);
    expect(names(["recall.20,2000"])).toEqual(["recall_20", "recall_2000"]);
    expect(names(["P. 7"])).toEqual(["P_7"]); // atol skips leading blanks
  });

  it("double cutoffs: atof, sorted, named %3.2f (the golden meas_params command)", () => {
    expect(names(["iprec_at_recall..10,.20,.25,.75,.50"])).toEqual(
      ["0.10", "0.20", "0.25", "0.50", "0.75"].map((x) => `iprec_at_recall_${x}`),
    );
    expect(names(["Rprec_mult.5.0,0.2,0.35"])).toEqual(["Rprec_mult_0.20", "Rprec_mult_0.35", "Rprec_mult_5.00"]);
  });

  it("single-value parameters and level=gain pairs print the parameter string", () => {
    expect(names(["utility.2,-1,0,0"])).toEqual(["utility_2,-1,0,0"]);
    expect(parseTrecMeasures(["utility.2,-1,0,0"])[0].values).toEqual([2, -1, 0, 0]);
    expect(names(["utility"])).toEqual(["utility"]);
    expect(parseTrecMeasures(["utility"])[0].values).toEqual([1, -1, 0, 0]);
    expect(names(["11pt_avg..25,.5,.75"])).toEqual(["11pt_avg_.25,.5,.75"]);
    expect(names(["relstring.20"])).toEqual(["relstring_20"]);
    expect(names(["set_F.0.5"])).toEqual(["set_F_0.5"]);
    expect(names(["ndcg.1=3,2=9,4=4.5"])).toEqual(["ndcg_1=3,2=9,4=4.5"]);
    expect(parseTrecMeasures(["ndcg.1=3,2=9,4=4.5"])[0].pairs).toEqual([
      ["1", 3],
      ["2", 9],
      ["4", 4.5],
    ]);
    expect(names(["rbp.p=0.95"])).toEqual(["rbp_p=0.95"]);
  });

  it("the same measure twice with parameters: only the first is used (trec_eval's behaviour)", () => {
    expect(names(["P.5", "P.10"])).toEqual(["P_5"]);
    expect(names(["P.5", "P"])).toEqual(["P_5"]);
    expect(names(["P", "P.10"])).toEqual(["P_10"]); // parameters apply whenever given
    expect(names(["official", "P.5"]).filter((n) => n.startsWith("P_"))).toEqual(["P_5"]);
    expect(names(["all_trec", "relstring.20"]).filter((n) => n.startsWith("relstring"))).toEqual(["relstring_20"]);
  });

  it("output order is trec_eval's table order, not the command line's", () => {
    expect(names(["success.1", "map", "num_q", "runid", "P.5"])).toEqual(["runid", "num_q", "map", "P_5", "success_1"]);
    expect(names(["map", "map"])).toEqual(["map"]);
  });

  it("no argument means official", () => {
    expect(names([])).toEqual(names(["official"]));
  });
});

describe("the spelling trec_eval prints (NAME_PARAMS), which rankeval takes too", () => {
  it("splits at the longest measure name taking parameters", () => {
    expect(splitTrecArg("ndcg_cut_10")).toEqual({ name: "ndcg_cut", params: "10", printed: true });
    expect(splitTrecArg("ndcg_cut.10")).toEqual({ name: "ndcg_cut", params: "10", printed: false });
    expect(splitTrecArg("iprec_at_recall_0.50")).toEqual({ name: "iprec_at_recall", params: "0.50", printed: true });
    expect(splitTrecArg("Rprec_mult_0.20")).toEqual({ name: "Rprec_mult", params: "0.20", printed: true });
    expect(splitTrecArg("ndcg_1=3,2=9")).toEqual({ name: "ndcg", params: "1=3,2=9", printed: true });
    expect(splitTrecArg("num_rel_ret")).toEqual({ name: "num_rel_ret", params: null, printed: false });
    expect(splitTrecArg("set_F_0.5")).toEqual({ name: "set_F", params: "0.5", printed: true });
    expect(splitTrecArg("map_5")).toBeNull(); // map takes no parameters: no printed spelling
    expect(splitTrecArg("ndcg@10")).toBeNull();
    expect(splitTrecArg("P_")).toBeNull();
  });
  it("gives the same lines as -m syntax; several for one measure add up", () => {
    expect(names(["ndcg_cut_10"])).toEqual(["ndcg_cut_10"]);
    expect(names(["P_5", "P_10", "P_5"])).toEqual(["P_5", "P_10"]);
    expect(names(["P.20", "P_5"])).toEqual(["P_5", "P_20"]);
    expect(names(["iprec_at_recall_0.50"])).toEqual(["iprec_at_recall_0.50"]);
    expect(names(["utility_2,-1,0,0"])).toEqual(["utility_2,-1,0,0"]);
    expect(names(["set_F_0.5"])).toEqual(["set_F_0.5"]);
    bad(["P_1O"], /cutoff "1O" is not a number/);
  });
});

describe("trecMeasuresOf: trec_eval's names in the library", () => {
  it("one measure per line, keyed by the printed name", () => {
    expect(trecMeasuresOf("P.5,10", [])!.map((m) => m.name)).toEqual(["P_5", "P_10"]);
    expect(trecMeasuresOf("ndcg@10", [])).toBeNull();
  });
  it("refuses what is not a per-query number; a nickname leaves those out", () => {
    expect(() => trecMeasuresOf("num_q", [])).toThrow(/num_q is a line of trec_eval's report/);
    expect(() => trecMeasuresOf("11pt_avg..25,.5", [])).toThrow(/made from several measures/);
    expect(() => trecMeasuresOf("yaap", [])).toThrow(
      /yaap is computed by trec_eval's own algorithm, which the library does not run; the command line prints it/,
    );
    const warnings: string[] = [];
    const official = trecMeasuresOf("official", warnings)!.map((m) => m.name);
    expect(official.slice(0, 3)).toEqual(["num_ret", "num_rel", "num_rel_ret"]);
    expect(warnings).toEqual([]);
    const all: string[] = [];
    trecMeasuresOf("all_trec", all);
    expect(all).toEqual(['trec_eval measure "all_trec": left out (the library does not compute them): relstring']);
  });
});

describe("parseTrecMeasures: nicknames", () => {
  it("official: 30 lines, as out.test", () => {
    const n = names(["official"]);
    expect(n.length).toBe(30);
    expect(n.slice(0, 10)).toEqual([
      "runid",
      "num_q",
      "num_ret",
      "num_rel",
      "num_rel_ret",
      "map",
      "gm_map",
      "Rprec",
      "bpref",
      "recip_rank",
    ]);
    expect(n[10]).toBe("iprec_at_recall_0.00");
    expect(n[29]).toBe("P_1000");
  });

  it("all_trec: every measure of the table but dcg and ideal_dcg, in table order", () => {
    expect(parseTrecMeasures(["all_trec"]).map((m) => m.name)).toEqual([
      "runid",
      "num_q",
      "num_ret",
      "num_rel",
      "num_rel_ret",
      "map",
      "gm_map",
      "Rprec",
      "bpref",
      "recip_rank",
      "iprec_at_recall",
      "P",
      "relstring",
      "recall",
      "infAP",
      "gm_bpref",
      "Rprec_mult",
      "utility",
      "11pt_avg",
      "binG",
      "G",
      "ndcg",
      "ndcg_rel",
      "Rndcg",
      "ndcg_cut",
      "map_cut",
      "relative_P",
      "success",
      "set_P",
      "set_relative_P",
      "set_recall",
      "set_map",
      "set_F",
      "num_nonrel_judged_ret",
      "rbp",
      "rbp_resid",
      "unj",
    ]);
    expect(TREC_MEASURE_NAMES.indexOf("dcg")).toBe(TREC_MEASURE_NAMES.indexOf("G") + 1);
  });

  it("set", () => {
    expect(names(["set"])).toEqual([
      "runid",
      "num_q",
      "num_ret",
      "num_rel",
      "num_rel_ret",
      "utility",
      "set_P",
      "set_relative_P",
      "set_recall",
      "set_map",
      "set_F",
    ]);
    expect(TREC_NICKNAMES.set.length).toBe(11);
  });

  it("nicknames and names mix; parameters on a nickname are ignored", () => {
    expect(names(["set", "map"]).slice(0, 6)).toEqual(["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map"]);
    expect(names(["official.5"])).toEqual(names(["official"]));
  });
});

describe("parseTrecMeasures: aggregation and printing", () => {
  const all = trecLines(parseTrecMeasures(["all_trec"]));
  const by = (n: string) => all.find((l) => l.name === n)!;
  it("sums, counts, geometric means, run tag, relstring", () => {
    for (const n of ["num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"])
      expect(by(n)).toMatchObject({ aggregation: "sum", print: "long", perQuery: true, summary: true });
    expect(by("num_q")).toMatchObject({ aggregation: "count", print: "long", perQuery: false, summary: true });
    expect(by("runid")).toMatchObject({ aggregation: "runid", print: "string", perQuery: false, summary: true });
    for (const n of ["gm_map", "gm_bpref"])
      expect(by(n)).toMatchObject({ aggregation: "geomean", print: "float", perQuery: false, summary: true });
    expect(by("relstring")).toMatchObject({ aggregation: "none", print: "quoted", perQuery: true, summary: false });
    expect(by("utility")).toMatchObject({ aggregation: "mean", print: "float" });
    expect(reportMakesIt(by("runid")) && reportMakesIt(by("num_q")) && !reportMakesIt(by("map"))).toBe(true);
  });

  it("computes each line by rankeval's family, keyed by the printed name, with trec_eval's conventions", () => {
    // the family's canonical name, and the gain table the line fixes (trec_eval's ndcg.1=3,2=9)
    const of = (l: TrecLine) => {
      const m = l.kernel!.measure;
      expect(m.name).toBe(l.name);
      expect(m.tool).toBe("trec_eval");
      expect(m.conventions).toMatchObject({ gain: "linear", noRelevant: "zero", beyondList: "pad", ties: "docid" });
      const g = m.fixed.gain;
      return { name: canonicalName(m.family, m.k, m.params), gain: g instanceof Map ? Object.fromEntries(g) : g };
    };
    const k = (n: string) => by(n).kernel && of(by(n));
    expect(k("map")).toEqual({ name: "map", gain: undefined });
    expect(k("gm_map")).toEqual({ name: "map", gain: undefined });
    expect(by("gm_map").kernel!.measure.aggregate).toBe("geomean");
    expect(by("num_ret").kernel!.measure.aggregate).toBe("sum");
    expect(by("map").kernel!.measure.aggregate).toBe("mean");
    expect(k("gm_bpref")).toEqual({ name: "bpref", gain: undefined });
    expect(k("P_5")!.name).toBe("precision@5");
    expect(k("recall_1000")!.name).toBe("recall@1000");
    expect(k("ndcg")).toEqual({ name: "ndcg", gain: undefined });
    expect(k("ndcg_cut_10")).toEqual({ name: "ndcg@10", gain: undefined });
    expect(k("map_cut_100")!.name).toBe("map@100");
    expect(k("recip_rank")!.name).toBe("mrr");
    expect(k("Rprec")!.name).toBe("r-precision");
    expect(k("bpref")!.name).toBe("bpref");
    expect(k("success_10")!.name).toBe("hit_rate@10");
    for (const n of ["num_ret", "num_rel", "num_rel_ret"]) expect(k(n)!.name).toBe(n);
    expect(k("iprec_at_recall_0.10")!.name).toBe("iprec_at_recall(recall=0.1)");
    expect(k("Rprec_mult_0.20")!.name).toBe("rprec_mult(x=0.2)");
    expect(k("relative_P_5")!.name).toBe("relative_p@5");
    expect(k("set_F")!.name).toBe("set_f");
    expect(k("unj_5")!.name).toBe("unj@5");
    expect(k("rbp")!.name).toBe("rbp");
    expect(k("utility")!.name).toBe("utility");
    expect(of(line(["utility.2,-1,0,0"], "utility_2,-1,0,0")).name).toBe("utility(a=2)");
    expect(of(line(["rbp.p=0.95"], "rbp_p=0.95")).name).toBe("rbp(p=0.95)");
    const none = all.filter((l) => l.kernel === null).map((l) => l.measure);
    // runid and num_q are made by the report, relstring from the batch.
    expect([...new Set(none)]).toEqual(["runid", "num_q", "relstring"]);
    expect(k("G")).toEqual({ name: "g", gain: undefined });
    expect(k("ndcg_rel")).toEqual({ name: "ndcg_rel", gain: undefined });
    expect(k("Rndcg")).toEqual({ name: "rndcg", gain: undefined });
    expect(of(line(["Rndcg.2=5"], "Rndcg_2=5"))).toEqual({ name: "rndcg", gain: { 2: 5 } });
    expect(of(line(["ndcg.1=3,2=9"], "ndcg_1=3,2=9"))).toEqual({ name: "ndcg", gain: { 1: 3, 2: 9 } });
    // Keys that are not integers are ignored (gain_init.c valid_int).
    expect(of(line(["ndcg.1=3,0=0,2.7=4"], "ndcg_1=3,0=0,2.7=4")).gain).toEqual({ 1: 3 });
    // What the kernel would compute otherwise than trec_eval goes to src/trec/port.ts (no kernel here):
    // a level twice, a gain for level 0 or a negative level, a negative or fractional gain.
    for (const bad of ["ndcg.1=3,1=5", "ndcg.0=1", "ndcg.-1=2", "ndcg.1=-2", "ndcg.1=0.5"])
      expect(line([bad], `ndcg_${bad.slice(5)}`).kernel).toBeNull();
    expect(line(["relstring"], "relstring").relstring).toBe(10);
    expect(line(["relstring.20.7"], "relstring_20.7").relstring).toBe(20);
    expect(line(["relstring.-3"], "relstring_-3").relstring).toBe(0);
    const pts = line(["11pt_avg..25,.5"], "11pt_avg_.25,.5");
    expect(pts.kernel).toBeNull();
    expect(pts.meanOf!.map((k) => canonicalName(k.measure.family, k.measure.k, k.measure.params))).toEqual([
      "iprec_at_recall(recall=0.25)",
      "iprec_at_recall(recall=0.5)",
    ]);
    expect(pts.meanOf!.map((k) => k.measure.name)).toEqual(["11pt_avg_.25,.5@0.25", "11pt_avg_.25,.5@0.5"]);
    expect(line(["11pt_avg..5,.25"], "11pt_avg_.5,.25").meanOf).toBeUndefined(); // not ascending: trec_eval's own loop (src/trec/port.ts)
    expect(
      isComputed(line(["relstring.1"], "relstring_1")) && isComputed(pts) && isComputed(line(["ndcg.1=2"], "ndcg_1=2")),
    ).toBe(true);
    // Every all_trec line has a kernel measure; yaap and ideal_dcg (not in all_trec) have none.
    expect(all.every(isComputed)).toBe(true);
    expect(isComputed(line(["yaap"], "yaap")) || isComputed(line(["ideal_dcg"], "ideal_dcg"))).toBe(false);
  });

  it("gainTies: gains trec_eval's comp_rel_gain would compare as equal", () => {
    const pairs = (o: Record<number, number>) => Object.entries(o).map(([k, v]) => [k, v] as const);
    expect(gainTies(pairs({ 1: 3, 2: 9, 4: 4.5 }), 1)).toEqual([]);
    expect(gainTies(pairs({ 1: 3, 2: 9, 4: 4.5 }), 4)).toEqual([]);
    expect(gainTies(pairs({ 1: 3, 2: 9, 4: 4.5 }), 5)).toEqual([[4.5, 5]]);
    expect(gainTies(pairs({ 1: 0.5 }), 1)).toEqual([[0, 0.5]]);
    expect(gainTies([["x", 0.5]], 1)).toEqual([]); // not a level: ignored
    expect(line(["rbp.1=2"], "rbp_1=2").kernel).toBeNull();
  });
});

describe("parseTrecMeasures: errors (where trec_eval exits)", () => {
  it("unknown names", () => {
    bad(["nope"], /illegal measure 'nope'/);
    bad(["p.5"], /illegal measure/); // names are case-sensitive, as strcmp
    bad(["ndcg@10"], /illegal measure/);
  });
  it("cutoffs <= 0", () => {
    bad(["P.0"], /Negative cutoff detected/);
    bad(["P.5,-3"], /Negative cutoff detected/);
  });
  it("cutoffs and parameters that are not numbers (trec_eval's atol/atof would read a prefix or 0: a deliberate divergence)", () => {
    bad(["P.x"], /cutoff "x" is not a number/);
    bad(["P.5,,10"], /cutoff "" is not a number/);
    bad(["ndcg_cut.1O"], /trec_eval measure "ndcg_cut.1O": cutoff "1O" is not a number/);
    bad(["P.5x"], /cutoff "5x" is not a number/);
    bad(["iprec_at_recall.0.5x"], /cutoff "0.5x" is not a number/);
    bad(["Rprec_mult.inf"], /cutoff "inf" is not a number/);
    bad(["utility.1,-1,0,x"], /parameter "x" is not a number/);
    bad(["ndcg.x=1"], /level "x" is not a number/);
    bad(["set_F.beta"], /parameter "beta" is not a number/);
    bad(["ndcg.1=3,2=9x"], /value of 2 "9x" is not a number/);
  });
  it("a decimal cutoff is read as trec_eval reads it (atol), with a warning", () => {
    const warnings: string[] = [];
    expect(trecLines(parseTrecMeasures(["ndcg_cut.23.4"], warnings)).map((l) => l.name)).toEqual(["ndcg_cut_23"]);
    expect(warnings).toEqual([
      'trec_eval measure "ndcg_cut.23.4": cutoff "23.4" is read as 23, as trec_eval reads it (atol)',
    ]);
    // A decimal level: trec_eval ignores the pair (gain_init.c valid_int), and so does rankeval, saying so.
    const w2: string[] = [];
    expect(gainTablesOf(["ndcg.1.5=3,2=4"], w2)).toEqual([{ 2: 4 }]);
    expect(w2).toEqual([
      'trec_eval measure "ndcg.1.5=3,2=4": trec_eval ignores the pair "1.5=3": its level is not an integer (gain_init.c valid_int)',
    ]);
  });
  it("duplicate cutoffs, also after atol", () => {
    bad(["P.5,5"], /duplicate cutoffs/);
    bad(["ndcg_cut.10,10.7"], /duplicate cutoffs/);
    bad(["iprec_at_recall.0.5,.50"], /duplicate cutoffs/);
  });
  it("an empty parameter string", () => {
    bad(["P."], /improper measure in parameter 'P'/);
  });
  it("malformed pairs", () => {
    bad(["ndcg.1=3,2"], /malformed pair/);
    bad(["ndcg.1=3=4"], /malformed pair/);
    bad(["ndcg.,1=3"], /malformed pair/);
    bad(["ndcg.1"], /malformed pair/);
  });
  it("preference and judgment-group measures parse (the command line computes them from -R's judgments); the library refuses them", () => {
    expect(trecLines(parseTrecMeasures(["all_prefs"])).map((l) => l.name)).toEqual([
      "runid",
      "num_q",
      "prefs_num_prefs_poss",
      "prefs_num_prefs_ful",
      "prefs_num_prefs_ful_ret",
      "prefs_simp",
      "prefs_pair",
      "prefs_avgjg",
      "prefs_avgjg_Rnonrel",
      "prefs_simp_ret",
      "prefs_pair_ret",
      "prefs_avgjg_ret",
      "prefs_avgjg_Rnonrel_ret",
      "prefs_simp_imp",
      "prefs_pair_imp",
      "prefs_avgjg_imp",
    ]);
    expect(parseTrecMeasures(["P_avgjg.10,5"])[0]).toMatchObject({
      name: "P_avgjg",
      cutoffs: [5, 10],
      format: "qrels_jg",
    });
    expect(
      trecLines(parseTrecMeasures(["qrels_jg"]))
        .map((l) => l.name)
        .slice(0, 4),
    ).toEqual(["runid", "num_q", "map_avgjg", "P_avgjg_5"]);
    expect(() => trecMeasuresOf("prefs_simp", [])).toThrow(/-R prefs or -R qrels_prefs/);
    expect(() => trecMeasuresOf("qrels_jg", [])).toThrow(/-R qrels_jg/);
  });
  it("the only-first rule is applied before checking: a later bad parameter string is never read", () => {
    const warnings: string[] = [];
    expect(trecLines(parseTrecMeasures(["P.5", "P.0"], warnings)).map((l) => l.name)).toEqual(["P_5"]);
    expect(warnings).toEqual([
      'trec_eval measure "P.0" is ignored: trec_eval uses the first parameters given for P (-m P.5); give them in one: -m P.5,0',
    ]);
  });
});

describe("atol / atof", () => {
  it("read a leading number as C does", () => {
    expect(atol("23.4")).toBe(23n);
    expect(atol("  -7x")).toBe(-7n);
    expect(atol("x")).toBe(0n);
    expect(atol("99999999999999999999")).toBe(2n ** 63n - 1n);
    expect(atof(".25")).toBe(0.25);
    expect(atof("5.0")).toBe(5);
    expect(atof("1e-1x")).toBe(0.1);
    expect(atof("-inf")).toBe(-Infinity);
    expect(atof("NaN")).toBeNaN();
    expect(atof("abc")).toBe(0);
  });
});
