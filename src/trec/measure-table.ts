/**
 * trec_eval 10's measure names, nicknames and `-m` syntax (trec_eval.c mark_measure, measures.c,
 * meas_init.c), resolved to the lines trec_eval prints, in its order, and to rankeval's canonical
 * measures where one computes the same per-query value. Browser-safe.
 *
 * `-m NAME` or `-m NAME.PARAMS`: everything after the first '.' is the parameter string. rankeval
 * also takes the spelling trec_eval prints, `NAME_PARAMS` (`ndcg_cut_10`, `P_5`,
 * `iprec_at_recall_0.50`, `utility_2,-1,0,0`), which trec_eval itself refuses: several of these for
 * one measure add up (`-m P_5 -m P_10` is `P.5,10`).
 *  - long cutoffs (P, recall, ndcg_cut, map_cut, relative_P, success, unj): split on ',', sorted
 *    ascending; a value <= 0 is trec_eval's "Negative cutoff detected", a repeated one "duplicate
 *    cutoffs detected". Printed `P_5`. trec_eval reads each with atol, so "23.4" is 23 (rankeval does
 *    too, with a warning) and "1O" is 1 or "x" 0 (rankeval: an error naming it, a deliberate
 *    divergence: a typo must not silently become another cutoff).
 *  - double cutoffs (iprec_at_recall, Rprec_mult): numbers (atof; rankeval refuses text that is not
 *    one), sorted, duplicates rejected (no sign check). Printed `%s_%3.2f`: `iprec_at_recall_0.10`.
 *  - single values with parameters (utility, 11pt_avg, relstring, set_F) and level=gain pairs (G, dcg,
 *    ideal_dcg, ndcg, ndcg_rel, Rndcg, rbp, rbp_resid): one line, named `name_<param string>` when
 *    parameters were given (`utility_2,-1,0,0`, `ndcg_1=3,2=9,4=4.5`), else the plain name.
 *  - an empty parameter string (`P.`) is "improper measure in parameter".
 * The same measure given twice with parameters: trec_eval looks the parameters up at initialisation
 * and takes the FIRST `-m` entry naming that measure, so `-m P.5 -m P.10` prints only P_5 (rankeval
 * too, with a warning); use `-m P.5,10`. A plain `-m P` (or a nickname containing P) does not reset
 * given parameters, so `-m official -m P.5` prints P_5 only. Parameters on a nickname (`all_trec.5`)
 * or on a measure that takes none (`map.5`) are ignored, as there, with a warning.
 *
 * Warnings go to the `warnings` array the caller passes (the command line prints them on stderr, the
 * library returns them in `Result.warnings`).
 * Output order is always the order of trec_eval's measure table, never the command line's.
 */
import { RankevalError } from "../errors.js";
import { TREC_EVAL } from "../measures/conventions.js";
import { makeMeasure, parseCanonical, strictNumber, type Aggregate, type Measure } from "../measures/measure.js";
import { gainTableOf } from "../options.js";
import { didYouMean } from "../measures/suggest.js";
import { atol } from "../c/strings.js";
import { compareLongAsC, glibcQsort } from "../c/qsort.js";
import { formatFixed, type TrecPrint } from "./format.js";

export type { TrecPrint } from "./format.js";

/** How the summary ("all") line is made from the per-query values. */
export type TrecAggregation =
  | "mean" // sum left to right in qid order, divided by num_q
  | "sum" // num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret
  | "geomean" // gm_map, gm_bpref: exp(mean of log(max(v, 1e-5)))
  | "count" // num_q: the number of queries
  | "runid" // the run tag, not a per-query value
  | "none"; // relstring: no summary line

/** A gain table as the library's `gain` option takes it: integer label >= 1 -> gain >= 0. */
export type TrecGainTable = Readonly<Record<number, number>>;

/**
 * The measure computing a line's per-query value: rankeval's family under trec_eval's name (the
 * line's, `ndcg_cut_10`) and conventions (linear gain, ...); a gain table from `ndcg.1=3,2=9` is its
 * `fixed.gain` (labels not listed keep their linear gain).
 */
export interface TrecKernel {
  readonly measure: Measure;
}

/** One printed line of a measure (one per cutoff for cutoff measures). */
export interface TrecLine {
  /** As printed: `P_5`, `iprec_at_recall_0.10`, `utility_2,-1,0,0`. */
  readonly name: string;
  /** trec_eval's measure: `P`. */
  readonly measure: string;
  /** The cutoff this line is at, for cutoff measures. */
  readonly cutoff?: number;
  readonly aggregation: TrecAggregation;
  /** `%6.4f` ("float"), `%ld` ("long"), the run tag ("string"), `'%s'` ("quoted"). */
  readonly print: TrecPrint;
  /** Printed per query with -q. */
  readonly perQuery: boolean;
  /** Printed in the summary block ("all"). */
  readonly summary: boolean;
  /**
   * rankeval's measure for the per-query value (for gm_map / gm_bpref: the per-query map / bpref the
   * geometric mean is taken over); null when rankeval does not compute it yet (and for runid and num_q,
   * which the report makes itself: see `reportMakesIt`).
   */
  readonly kernel: TrecKernel | null;
  /**
   * Lines computed from other measures rather than by one: the per-query value is the mean of these
   * (`11pt_avg..25,.5,.75`: iprec_at_recall at each point, summed last to first as m_11pt_avg.c does).
   */
  readonly meanOf?: readonly TrecKernel[];
  /** relstring: the number of characters (trec_eval's (long) of the parameter, at least 0). */
  readonly relstring?: number;
  /**
   * Computed by trec_eval's own algorithm (src/trec/exact.ts) rather than by the kernel: set by the
   * plan (src/app/plan.ts) for the measures the kernel does not compute as trec_eval does, to the
   * key of the line's values: its name, or with a name printed twice (cutoffs comp_long keeps apart,
   * `map_cut.1,2147483649,1`), its name and position.
   */
  readonly exact?: string;
}

export interface TrecMeasure {
  /** trec_eval's name: `P`, `ndcg_cut`. */
  readonly name: string;
  /** The parameter string given with -m, or null for the defaults. */
  readonly params: string | null;
  /** Resolved cutoffs (long or double cutoff measures), ascending. */
  readonly cutoffs?: readonly number[];
  /** Resolved numeric parameters (utility, 11pt_avg, relstring, set_F). */
  readonly values?: readonly number[];
  /** Resolved level=gain pairs (G, dcg, ideal_dcg, ndcg, ndcg_rel, Rndcg, rbp, rbp_resid); keys as given. */
  readonly pairs?: readonly (readonly [string, number])[];
  readonly lines: readonly TrecLine[];
  /** The judgments it needs besides qrels (the table's `format`): computed by src/trec/prefs-measures.ts or jg.ts. */
  readonly format?: "prefs" | "qrels_jg";
}

type ParamKind = "none" | "longCutoffs" | "doubleCutoffs" | "doubleParams" | "pairs";
type Shape = "mean" | "long" | "runid" | "numq" | "geomean" | "relstring";

/**
 * The judgment formats of trec_eval's -R (formats.c): `qrels` (the default), `prefs` and
 * `qrels_prefs` (preferences: src/trec/prefs-measures.ts), `qrels_jg` (judgment groups: src/trec/jg.ts).
 */
export type RelFormat = "qrels" | "prefs" | "qrels_prefs" | "qrels_jg";
export const REL_FORMATS: readonly RelFormat[] = ["qrels", "prefs", "qrels_prefs", "qrels_jg"];

interface Entry {
  readonly name: string;
  readonly kind: ParamKind;
  readonly shape: Shape;
  readonly defaults?: readonly number[];
  /**
   * The judgments the measure reads when not qrels: "prefs" (-R prefs or -R qrels_prefs, both read
   * as preferences: form_prefs_counts.c) or "qrels_jg" (form_res_rels_jg.c).
   */
  readonly format?: "prefs" | "qrels_jg";
  /** The canonical spec for one line, or null. k = cutoff; custom = parameters were given. */
  readonly kernel?: (
    k: number | undefined, custom: boolean, values: readonly number[], pairs: readonly (readonly [string, number])[],
  ) => { spec: string; table?: TrecGainTable } | { meanOf: readonly string[] } | { relstring: number } | null;
}

const LONG_DEFAULT = [5, 10, 15, 20, 30, 100, 200, 500, 1000];
const IPREC_DEFAULT = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
const RPREC_MULT_DEFAULT = [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0];

const plain = (spec: string) => () => ({ spec });
/** A measure whose one parameter is the line's double cutoff: iprec_at_recall(recall=0.1). */
const param = (family: string, key: string) => (k: number | undefined) => ({ spec: `${family}(${key}=${k})` });
/** rbp and rbp_resid: the persistence p; custom level=gain pairs are not computed yet. */
const persistence = (family: string) => (_k: number | undefined, _custom: boolean, _v: readonly number[], pairs: readonly (readonly [string, number])[]) => {
  if (pairs.some(([key]) => key !== "p")) return null;
  const p = pairs.find(([key]) => key === "p")?.[1] ?? 0.9;
  return { spec: `${family}(p=${p})` };
};
const at = (family: string) => (k: number | undefined) => ({ spec: `${family}@${k}` });
/**
 * A family taking trec_eval's level=gain pairs (ndcg, G, ndcg_rel, Rndcg): trec_eval's linear gains
 * by default, a gain table with parameters (null when the library cannot take that table: see
 * `gainTable`).
 */
const gains = (spec: string) => (_k: number | undefined, custom: boolean, _v: readonly number[], pairs: readonly (readonly [string, number])[]) => {
  if (!custom) return { spec };
  const table = gainTable(pairs);
  return table ? { spec, table } : null;
};
/**
 * 11pt_avg with its own recall points: the mean of iprec_at_recall at each. m_11pt_avg.c walks the
 * points from the last to the first assuming they ascend; for points that do not (or a negative one)
 * it gives other values, and the line is left out.
 */
const pointsAvg = (_k: number | undefined, custom: boolean, values: readonly number[]) => {
  if (!custom) return { spec: "11pt_avg" };
  if (values.length === 0 || values.some((x, i) => !(x >= 0 && x < Infinity) || (i > 0 && x < values[i - 1]))) return null;
  return { meanOf: values.map((x) => `iprec_at_recall(recall=${x})`) };
};
/** relstring's length: trec_eval's (long) of the parameter, at least 0. */
const relstringLength = (_k: number | undefined, _custom: boolean, [n]: readonly number[]) => ({
  relstring: Number.isNaN(n) || n <= 0 ? 0 : Math.trunc(n),
});

/**
 * trec_eval 10's measure table (measures.c te_trec_measures), in output order. Lines without a kernel
 * measure (yaap, ideal_dcg, and any whose parameters the kernel cannot take) are computed by
 * trec_eval's own algorithm (src/trec/exact.ts); those over preferences or judgment groups (-R
 * prefs, qrels_prefs, qrels_jg) by src/trec/prefs-measures.ts and src/trec/jg.ts.
 */
const TABLE_DATA = [
  { name: "runid", kind: "none", shape: "runid" },
  { name: "num_q", kind: "none", shape: "numq" },
  { name: "num_ret", kind: "none", shape: "long", kernel: plain("num_ret") },
  { name: "num_rel", kind: "none", shape: "long", kernel: plain("num_rel") },
  { name: "num_rel_ret", kind: "none", shape: "long", kernel: plain("num_rel_ret") },
  { name: "map", kind: "none", shape: "mean", kernel: plain("map") },
  { name: "gm_map", kind: "none", shape: "geomean", kernel: plain("map") },
  { name: "Rprec", kind: "none", shape: "mean", kernel: plain("r-precision") },
  { name: "bpref", kind: "none", shape: "mean", kernel: plain("bpref") },
  { name: "recip_rank", kind: "none", shape: "mean", kernel: plain("mrr") },
  { name: "iprec_at_recall", kind: "doubleCutoffs", shape: "mean", defaults: IPREC_DEFAULT, kernel: param("iprec_at_recall", "recall") },
  { name: "P", kind: "longCutoffs", shape: "mean", defaults: LONG_DEFAULT, kernel: at("precision") },
  { name: "relstring", kind: "doubleParams", shape: "relstring", defaults: [10], kernel: relstringLength },
  { name: "recall", kind: "longCutoffs", shape: "mean", defaults: LONG_DEFAULT, kernel: at("recall") },
  { name: "infAP", kind: "none", shape: "mean", kernel: plain("infap") },
  { name: "gm_bpref", kind: "none", shape: "geomean", kernel: plain("bpref") },
  { name: "Rprec_mult", kind: "doubleCutoffs", shape: "mean", defaults: RPREC_MULT_DEFAULT, kernel: param("rprec_mult", "x") },
  { name: "utility", kind: "doubleParams", shape: "mean", defaults: [1, -1, 0, 0], kernel: (_k, _c, [a, b, c, d]) => ({ spec: `utility(a=${a},b=${b},c=${c},d=${d})` }) },
  { name: "11pt_avg", kind: "doubleParams", shape: "mean", defaults: IPREC_DEFAULT, kernel: pointsAvg },
  { name: "binG", kind: "none", shape: "mean", kernel: plain("bing") },
  { name: "G", kind: "pairs", shape: "mean", kernel: gains("g") },
  { name: "dcg", kind: "pairs", shape: "mean", kernel: gains("dcg") },
  { name: "ideal_dcg", kind: "pairs", shape: "mean" },
  { name: "ndcg", kind: "pairs", shape: "mean", kernel: gains("ndcg") },
  { name: "ndcg_rel", kind: "pairs", shape: "mean", kernel: gains("ndcg_rel") },
  { name: "Rndcg", kind: "pairs", shape: "mean", kernel: gains("rndcg") },
  { name: "ndcg_cut", kind: "longCutoffs", shape: "mean", defaults: LONG_DEFAULT, kernel: at("ndcg") },
  { name: "map_cut", kind: "longCutoffs", shape: "mean", defaults: LONG_DEFAULT, kernel: at("map") },
  { name: "relative_P", kind: "longCutoffs", shape: "mean", defaults: LONG_DEFAULT, kernel: at("relative_p") },
  { name: "success", kind: "longCutoffs", shape: "mean", defaults: [1, 5, 10], kernel: at("hit_rate") },
  { name: "set_P", kind: "none", shape: "mean", kernel: plain("set_p") },
  { name: "set_relative_P", kind: "none", shape: "mean", kernel: plain("set_relative_p") },
  { name: "set_recall", kind: "none", shape: "mean", kernel: plain("set_recall") },
  { name: "set_map", kind: "none", shape: "mean", kernel: plain("set_map") },
  { name: "set_F", kind: "doubleParams", shape: "mean", defaults: [1.0], kernel: (_k, _custom, values) => ({ spec: `set_f(beta=${values[0]})` }) },
  { name: "num_nonrel_judged_ret", kind: "none", shape: "long", kernel: plain("num_nonrel_judged_ret") },
  // Preferences (-R prefs, -R qrels_prefs): m_prefs_*.c.
  { name: "prefs_num_prefs_poss", kind: "none", shape: "long", format: "prefs" },
  { name: "prefs_num_prefs_ful", kind: "none", shape: "long", format: "prefs" },
  { name: "prefs_num_prefs_ful_ret", kind: "none", shape: "long", format: "prefs" },
  { name: "prefs_simp", kind: "none", shape: "mean", format: "prefs" },
  { name: "prefs_pair", kind: "none", shape: "mean", format: "prefs" },
  { name: "prefs_avgjg", kind: "none", shape: "mean", format: "prefs" },
  { name: "prefs_avgjg_Rnonrel", kind: "none", shape: "mean", format: "prefs" },
  { name: "prefs_simp_ret", kind: "none", shape: "mean", format: "prefs" },
  { name: "prefs_pair_ret", kind: "none", shape: "mean", format: "prefs" },
  { name: "prefs_avgjg_ret", kind: "none", shape: "mean", format: "prefs" },
  { name: "prefs_avgjg_Rnonrel_ret", kind: "none", shape: "mean", format: "prefs" },
  { name: "prefs_simp_imp", kind: "none", shape: "mean", format: "prefs" },
  { name: "prefs_pair_imp", kind: "none", shape: "mean", format: "prefs" },
  { name: "prefs_avgjg_imp", kind: "none", shape: "mean", format: "prefs" },
  // Judgment groups (-R qrels_jg): m_map_avgjg.c, m_P_avgjg.c, m_Rprec_mult_avgjg.c.
  { name: "map_avgjg", kind: "none", shape: "mean", format: "qrels_jg" },
  { name: "P_avgjg", kind: "longCutoffs", shape: "mean", defaults: LONG_DEFAULT, format: "qrels_jg" },
  { name: "Rprec_mult_avgjg", kind: "doubleCutoffs", shape: "mean", defaults: RPREC_MULT_DEFAULT, format: "qrels_jg" },
  { name: "yaap", kind: "none", shape: "mean" },
  { name: "rbp", kind: "pairs", shape: "mean", kernel: persistence("rbp") },
  { name: "rbp_resid", kind: "pairs", shape: "mean", kernel: persistence("rbp_resid") },
  { name: "unj", kind: "longCutoffs", shape: "mean", defaults: [5, 10, 20], kernel: at("unj") },
] as const satisfies readonly Entry[];
const TABLE: readonly Entry[] = TABLE_DATA;

/** The table's literal type: the measure name types (src/measures/names.ts) are made from it. */
export type TrecTable = typeof TABLE_DATA;

const BY_NAME = new Map(TABLE.map((e) => [e.name, e]));

/** trec_eval's measure names, in its output order. */
export const TREC_MEASURE_NAMES: readonly string[] = TABLE.map((e) => e.name);

export type TrecNickname = "official" | "all_trec" | "set" | "all_prefs" | "prefs" | "qrels_jg";

/**
 * trec_eval 10's nicknames (measures.c). all_trec has neither dcg, ideal_dcg, yaap nor the measures
 * of other judgment formats in v10; all_prefs and prefs are preference measures (-R prefs or
 * qrels_prefs), qrels_jg the judgment-group ones (-R qrels_jg).
 */
export const TREC_NICKNAMES: Readonly<Record<TrecNickname, readonly string[]>> = {
  official: ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"],
  all_trec: TABLE.map((e) => e.name).filter((n) => n !== "dcg" && n !== "ideal_dcg" && n !== "yaap" && !BY_NAME.get(n)!.format),
  set: ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall", "set_relative_P", "set_map", "set_F"],
  all_prefs: ["runid", "num_q", ...TABLE.filter((e) => e.format === "prefs").map((e) => e.name)],
  prefs: [
    "runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
  ],
  qrels_jg: ["runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"],
};

/** Whether the kernel computes a line: by a measure, from several (`meanOf`), as relstring, or in the report. */
export function isComputed(line: TrecLine): boolean {
  return line.kernel !== null || line.meanOf !== undefined || line.relstring !== undefined || reportMakesIt(line);
}

/** gain_init.c valid_int: the pairs whose key is not an optional sign and digits are ignored. */
export function validLevel(key: string): boolean {
  return /^[+-]?\d+$/.test(key);
}

/**
 * trec_eval's level=gain pairs as a gain table for the kernel (the library's `gain` option), or null
 * where the kernel would not compute what trec_eval does (src/trec/exact.ts does): a level given
 * twice (gain_init.c counts the first but get_gain answers from the sorted order), a level below 1 (0
 * keeping its gain 0 aside: the kernel gives labels <= 0 and unjudged documents no gain), a level past
 * 1000000, and a gain that is not an integer from 0 to 2^31 - 1, since comp_rel_gain compares gains
 * by the int of their difference: gains less than 1 apart (a fractional gain and a neighbouring
 * label's) compare equal, and glibc's merge sort then orders trec_eval's ideal ranking otherwise.
 * Pairs whose key is not an integer ("p", "1.0") are ignored, as there.
 */
export function gainTable(pairs: readonly (readonly [string, number])[]): TrecGainTable | null {
  const table: Record<number, number> = {};
  const seen = new Set<bigint>();
  for (const [key, gain] of pairs) {
    if (!validLevel(key)) continue;
    const level = atol(key);
    if (seen.has(level)) return null;
    seen.add(level);
    if (!Number.isInteger(gain) || gain < 0 || gain > 2147483647) return null;
    if (level === 0n && gain === 0) continue;
    if (level < 1n || level > 1_000_000n) return null;
    table[Number(level)] = gain;
  }
  return Object.freeze(table);
}

/**
 * Gains of level=gain pairs that trec_eval's comp_rel_gain, which returns (int)(g1 - g2), compares
 * as equal though they differ (by less than 1), among the pairs' gains and the linear gains of the
 * levels 0..maxLevel they do not name: trec_eval's ideal ranking then follows glibc's merge sort
 * rather than the gains (src/trec/exact.ts reproduces it). Empty when it cannot matter.
 */
export function gainTies(pairs: readonly (readonly [string, number])[], maxLevel: number): [number, number][] {
  const named = new Set<bigint>();
  const gains: number[] = [];
  for (const [key, gain] of pairs) {
    if (!validLevel(key)) continue;
    named.add(atol(key));
    gains.push(gain);
  }
  for (let l = 0; l <= Math.min(maxLevel, 1_000_000); l++) if (!named.has(BigInt(l))) gains.push(l);
  const distinct = [...new Set(gains)].filter((g) => !Number.isNaN(g)).sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (let i = 1; i < distinct.length; i++) if (distinct[i] - distinct[i - 1] < 1) out.push([distinct[i - 1], distinct[i]]);
  return out;
}

/** Lines whose value the report makes itself (no per-query measure): runid and num_q. */
export function reportMakesIt(line: TrecLine): boolean {
  return line.aggregation === "runid" || line.aggregation === "count";
}

const fail = (msg: string) => new RankevalError("bad-measure", msg);

/** One `-m` argument split into trec_eval's measure (or nickname) and its parameter string. */
export interface TrecArg {
  readonly name: string;
  /** What follows the name's '.' (or '_' in the printed spelling); null when nothing does. */
  readonly params: string | null;
  /** Written in the spelling trec_eval prints (`ndcg_cut_10`) rather than its -m syntax. */
  readonly printed: boolean;
}

const isTrecName = (name: string) => BY_NAME.has(name) || Object.hasOwn(TREC_NICKNAMES, name);

/**
 * Splits a `-m` argument as trec_eval reads it (the name before the first '.', the parameters after
 * it), or in the spelling trec_eval prints (the longest measure name taking parameters, '_', the
 * parameters: `ndcg_cut_10`, `iprec_at_recall_0.50`). Null when neither names one of trec_eval's
 * measures or nicknames.
 */
export function splitTrecArg(arg: string): TrecArg | null {
  const dot = arg.indexOf(".");
  const name = dot < 0 ? arg : arg.slice(0, dot);
  if (isTrecName(name)) return { name, params: dot < 0 ? null : arg.slice(dot + 1), printed: false };
  let best: Entry | undefined;
  for (const e of TABLE) {
    if (e.kind !== "none" && arg.length > e.name.length + 1 && arg.startsWith(`${e.name}_`) && (!best || e.name.length > best.name.length)) best = e;
  }
  return best ? { name: best.name, params: arg.slice(best.name.length + 1), printed: true } : null;
}

/** Every name trec_eval's -m takes (measures, nicknames), for "did you mean". */
export function trecNames(): string[] {
  return [...TREC_MEASURE_NAMES, ...Object.keys(TREC_NICKNAMES)];
}

/**
 * Resolves trec_eval `-m` arguments (each is what follows one `-m`) to the measures to print, in
 * trec_eval's output order. Throws a RankevalError ("bad-measure") where trec_eval exits: an unknown
 * name ("illegal measure"), an empty parameter string, a cutoff <= 0, duplicate cutoffs, malformed
 * level=gain pairs; and where rankeval refuses what trec_eval would misread: a cutoff or parameter
 * that is not a number. An empty list means trec_eval's default, `official`. What rankeval reads as
 * trec_eval does but the user likely did not mean (a decimal cutoff, ignored parameters) is said in
 * `warnings`.
 */
export function parseTrecMeasures(args: readonly string[], warnings: string[] = []): TrecMeasure[] {
  const marked = new Set<string>();
  const params = new Map<string, { text: string; arg: string }>(); // the first parameter string per name
  const printed = new Map<string, string[]>(); // parameters in the printed spelling, per name
  for (const arg of args.length ? args : ["official"]) {
    if (typeof arg !== "string") throw fail(`trec_eval measure must be a string, not ${typeof arg}`);
    const a = splitTrecArg(arg);
    if (!a) throw fail(`trec_eval: illegal measure '${arg}'${didYouMean(arg, trecNames())}`);
    const { name } = a;
    if (a.params === "") throw fail(`trec_eval measure "${arg}": improper measure in parameter '${name}' (nothing after the '.')`);
    const nick = Object.hasOwn(TREC_NICKNAMES, name) ? TREC_NICKNAMES[name as TrecNickname] : undefined;
    if (nick) {
      if (a.params !== null) warnings.push(`trec_eval measure "${arg}": trec_eval ignores parameters on a nickname: read as ${name}`);
      for (const n of nick) marked.add(n);
      continue;
    }
    marked.add(name);
    if (a.params === null) continue;
    const e = BY_NAME.get(name)!;
    if (e.kind === "none") warnings.push(`trec_eval measure "${arg}": trec_eval ignores parameters on ${name}: read as ${name}`);
    else if (a.printed) printed.set(name, [...(printed.get(name) ?? []), a.params]);
    else if (!params.has(name)) params.set(name, { text: a.params, arg });
    else {
      const first = params.get(name)!;
      const merged = e.kind === "longCutoffs" || e.kind === "doubleCutoffs" ? `; give them in one: -m ${name}.${first.text},${a.params}` : "";
      warnings.push(`trec_eval measure "${arg}" is ignored: trec_eval uses the first parameters given for ${name} (-m ${first.arg})${merged}`);
    }
  }
  return TABLE.filter((e) => marked.has(e.name)).map((e) => resolve(e, params.get(e.name)?.text ?? null, printed.get(e.name) ?? [], warnings));
}

/**
 * The measures a trec_eval name (in either spelling) asks for, as the library computes them: one per
 * line, each keyed by the line's printed name. Null when `word` is not one of trec_eval's names.
 * Throws for a line that is not a per-query number the library computes (runid, num_q, relstring,
 * 11pt_avg at chosen points: the command line prints those); a nickname leaves them out.
 */
export function trecMeasuresOf(word: string, warnings: string[]): Measure[] | null {
  const a = splitTrecArg(word);
  if (!a) return null;
  const nickname = Object.hasOwn(TREC_NICKNAMES, a.name);
  const format = nickname ? TREC_NICKNAMES[a.name as TrecNickname].map((n) => BY_NAME.get(n)!.format).find((f) => f) : BY_NAME.get(a.name)!.format;
  if (format) {
    const r = format === "prefs" ? "-R prefs or -R qrels_prefs" : "-R qrels_jg";
    throw fail(`trec_eval measure "${word}" reads ${format === "prefs" ? "preference judgments" : "judgment groups"} (trec_eval's ${r}), which the command line reads (rankeval ${r} -m ${word} JUDGMENTS RUN)`);
  }
  const out: Measure[] = [];
  const left: string[] = [];
  for (const l of trecLines(parseTrecMeasures([word], warnings))) {
    if (l.kernel) {
      out.push(l.kernel.measure);
      continue;
    }
    const why = reportMakesIt(l)
      ? "a line of trec_eval's report, not a measure"
      : l.relstring !== undefined
        ? "a string per query, not a number"
        : l.meanOf
          ? "made from several measures"
          : "computed by trec_eval's own algorithm, which the library does not run";
    if (!nickname) throw fail(`trec_eval measure "${word}": ${l.name} is ${why}; the command line prints it (rankeval -m ... QRELS RUN)`);
    if (!reportMakesIt(l)) left.push(l.name);
  }
  if (left.length) warnings.push(`trec_eval measure "${word}": left out (the library does not compute them): ${left.join(", ")}`);
  return out;
}

const LONG_CUTOFF = /^[\t\n\v\f\r ]*[+-]?[0-9]+(\.[0-9]*)?$/;

/**
 * A long cutoff's text as trec_eval reads it (atol): an integer; a decimal is truncated as atol does
 * ("23.4" -> 23), with a warning; anything else (`1O`, `x`, ``) is an error naming it, where atol
 * would read a prefix or 0.
 */
function longCutoff(text: string, what: string, warnings: string[]): bigint {
  const m = LONG_CUTOFF.exec(text);
  if (!m) throw fail(`${what}: cutoff "${text}" is not a number`);
  const v = atol(text);
  if (m[1] !== undefined) warnings.push(`${what}: cutoff "${text}" is read as ${v}, as trec_eval reads it (atol)`);
  return v;
}

/** A double parameter's text (atof in trec_eval): a number written in full, else an error naming it. */
function doubleParam(text: string, what: string, role = "parameter"): number {
  const v = strictNumber(text);
  if (Number.isNaN(v)) throw fail(`${what}: ${role} "${text}" is not a number`);
  return v;
}

const byValue = <T extends number | bigint>(a: T, b: T) => (a < b ? -1 : a > b ? 1 : 0);

function resolve(e: Entry, p: string | null, extra: readonly string[], warnings: string[]): TrecMeasure {
  const what = `trec_eval measure "${e.name}${p === null ? "" : `.${p}`}"`;
  const aggregate: Aggregate = e.shape === "long" ? "sum" : e.shape === "geomean" ? "geomean" : "mean";
  const line = (name: string, cutoff?: number, custom = false, values: readonly number[] = [], pairs: readonly (readonly [string, number])[] = []): TrecLine => {
    const k = e.kernel?.(cutoff, custom, values, pairs) ?? null;
    const make = (spec: string, key: string, table?: TrecGainTable, as: Aggregate = "mean"): TrecKernel | null => {
      let base: Measure;
      try {
        base = parseCanonical(spec)![0];
      } catch {
        return null; // a cutoff or parameter rankeval cannot take (past 2^31 - 1)
      }
      const fixed = table ? { gain: gainTableOf(table) } : {};
      return Object.freeze({ measure: makeMeasure(base.family, base.k, base.params, { tool: "trec_eval", name: key, conventions: TREC_EVAL, fixed, aggregate: as }) });
    };
    let kernel: TrecKernel | null = null;
    let extraFields: { meanOf?: readonly TrecKernel[]; relstring?: number } = {};
    if (k && "spec" in k) kernel = make(k.spec, name, k.table, aggregate);
    else if (k && "meanOf" in k) {
      // Each part keyed by the line and its point, so that no other line's key can be the same.
      const parts = k.meanOf.map((spec, i) => make(spec, `${name}@${values[i]}`));
      if (parts.every((x) => x !== null)) extraFields = { meanOf: Object.freeze(parts as TrecKernel[]) };
    } else if (k && "relstring" in k) extraFields = { relstring: k.relstring };
    const shape = {
      mean: ["mean", "float", true, true],
      long: ["sum", "long", true, true],
      runid: ["runid", "string", false, true],
      numq: ["count", "long", false, true],
      geomean: ["geomean", "float", false, true],
      relstring: ["none", "quoted", true, false],
    } as const;
    const [agg, print, perQuery, summary] = shape[e.shape];
    return Object.freeze({ name, measure: e.name, ...(cutoff !== undefined ? { cutoff } : {}), aggregation: agg, print, perQuery, summary, kernel, ...extraFields });
  };
  // Parameters in the printed spelling: cutoffs add to those given after a '.'; others stand for them.
  if (extra.length && e.kind !== "longCutoffs" && e.kind !== "doubleCutoffs") {
    if (p === null) p = extra[0];
    const ignored = extra.filter((x) => x !== p);
    if (ignored.length) warnings.push(`${what}: trec_eval uses the first parameters given for ${e.name}: ${ignored.map((x) => `${e.name}_${x}`).join(", ")} ignored`);
    return resolve(e, p, [], warnings);
  }
  switch (e.kind) {
    case "none":
      // trec_eval ignores parameters on these.
      return Object.freeze({ name: e.name, params: p, lines: [line(e.name)], ...formatOf(e) });
    case "longCutoffs": {
      let cut: bigint[];
      if (p === null && !extra.length) cut = e.defaults!.map((d) => BigInt(d));
      else {
        // In trec_eval's order (comp_long: cutoffs past 2^31 sort out of order), checked as it checks them.
        cut = p === null ? [] : glibcQsort(p.split(",").map((t) => longCutoff(t, what, warnings)), compareLongAsC);
        if (cut.length && cut[0] <= 0n) throw fail(`${what}: trec_eval: Negative cutoff detected (a cutoff read as ${cut[0]}; cutoffs must be > 0)`);
        for (let i = 1; i < cut.length; i++) if (cut[i] === cut[i - 1]) throw fail(`${what}: trec_eval: duplicate cutoffs detected (${cut[i]})`);
        // rankeval's own spelling (P_5): cutoffs added, in order.
        if (extra.length) cut.sort(byValue);
        for (const x of extra) {
          for (const t of x.split(",")) {
            const c = longCutoff(t, `trec_eval measure "${e.name}_${x}"`, warnings);
            if (c <= 0n) throw fail(`trec_eval measure "${e.name}_${x}": cutoff ${c} is not > 0`);
            if (!cut.includes(c)) cut.push(c);
          }
        }
        if (extra.length) cut.sort(byValue);
      }
      const cutoffs = cut.map(Number);
      return Object.freeze({ name: e.name, params: p, cutoffs, lines: cut.map((c, i) => line(`${e.name}_${c}`, cutoffs[i], p !== null || extra.length > 0)), ...formatOf(e) });
    }
    case "doubleCutoffs": {
      let cutoffs: number[];
      if (p === null && !extra.length) cutoffs = [...e.defaults!];
      else {
        cutoffs = p === null ? [] : p.split(",").map((t) => doubleParam(t, what, "cutoff")).sort(byValue);
        for (let i = 1; i < cutoffs.length; i++) if (cutoffs[i] === cutoffs[i - 1]) throw fail(`${what}: trec_eval: duplicate cutoffs detected (${cutoffs[i]})`);
        for (const x of extra) {
          for (const t of x.split(",")) {
            const c = doubleParam(t, `trec_eval measure "${e.name}_${x}"`, "cutoff");
            if (!cutoffs.includes(c)) cutoffs.push(c);
          }
        }
        cutoffs.sort(byValue);
      }
      const custom = p !== null || extra.length > 0;
      // meas_init.c append_double: snprintf into strlen(name) + 10 bytes, so at most 8 characters of the
      // number are printed ("iprec_at_recall_123456.5" for 123456.5).
      const named = (c: number) => `${e.name}_${formatFixed(c, 2, 3)}`.slice(0, e.name.length + 9);
      return Object.freeze({ name: e.name, params: p, cutoffs, lines: cutoffs.map((c) => line(named(c), c, custom)), ...formatOf(e) });
    }
    case "doubleParams": {
      const values = p === null ? [...e.defaults!] : p.split(",").map((t) => doubleParam(t, what));
      // m_utility.c: "improper number of coefficients" (trec_eval exits 4 at the first query).
      if (e.name === "utility" && values.length !== 4) throw fail(`${what}: trec_eval: calc_utility: improper number of coefficients (${values.length}; it takes 4)`);
      return Object.freeze({ name: e.name, params: p, values, lines: [line(p === null ? e.name : `${e.name}_${p}`, undefined, p !== null, values)] });
    }
    case "pairs": {
      const pairs = p === null ? [] : parsePairs(p, what, e.name === "rbp" || e.name === "rbp_resid" ? null : warnings);
      return Object.freeze({ name: e.name, params: p, pairs, lines: [line(p === null ? e.name : `${e.name}_${p}`, undefined, p !== null, [], pairs)] });
    }
  }
}

/**
 * meas_init.c get_param_pairs: `name=value,...`, rejected unless every item has exactly one '='.
 * Values are numbers (atof there; rankeval refuses text that is not one). For gain tables
 * (`warnings` given), a decimal name ("1.0") is no level: gain_init.c valid_int ignores the pair, as
 * rankeval does, and says so; a name that is no number ("x") is refused.
 */
function parsePairs(p: string, what: string, warnings: string[] | null): [string, number][] {
  let last = ",";
  let ok = true;
  for (const ch of p) {
    if (ch === ",") {
      if (last === ",") {
        ok = false;
        break;
      }
      last = ",";
    } else if (ch === "=") {
      if (last === "=") {
        ok = false;
        break;
      }
      last = "=";
    }
  }
  if (!ok || last !== "=") throw fail(`${what}: trec_eval: malformed pair parameters in '${p}' (expected level=gain,...)`);
  return p.split(",").map((item) => {
    const eq = item.indexOf("=");
    const key = item.slice(0, eq);
    if (warnings && !validLevel(key)) {
      // A decimal level ("1.0") trec_eval ignores: so does rankeval, saying so. Anything else ("x",
      // "1x") is refused, as a typo (a deliberate divergence: trec_eval ignores it too).
      if (!LONG_CUTOFF.test(key)) throw fail(`${what}: level "${key}" is not a number`);
      warnings.push(`${what}: trec_eval ignores the pair "${item}": its level is not an integer (gain_init.c valid_int)`);
    }
    return [key, doubleParam(item.slice(eq + 1), what, `value of ${key}`)];
  });
}

/** The `format` field of a measure from its table row (absent for qrels measures). */
function formatOf(e: Entry): { format?: "prefs" | "qrels_jg" } {
  return e.format ? { format: e.format } : {};
}

/** Every line of the measures, in print order. */
export function trecLines(measures: readonly TrecMeasure[]): TrecLine[] {
  // A plan's list is asked for its lines several times per run evaluated: made once per list.
  const known = linesOf.get(measures);
  if (known && known.of.length === measures.length && known.of.every((m, i) => m === measures[i])) return known.lines;
  const lines = measures.flatMap((m) => m.lines);
  linesOf.set(measures, { of: [...measures], lines });
  return lines;
}

/** trecLines of a list of measures, and the measures they were made from (a list may change). */
const linesOf = new WeakMap<readonly TrecMeasure[], { of: readonly TrecMeasure[]; lines: TrecLine[] }>();
