/**
 * trec_eval 10's measure names, nicknames and `-m` syntax (trec_eval.c mark_measure, measures.c,
 * meas_init.c), resolved to the lines trec_eval prints, in its order, and to rankeval's canonical
 * measures where one computes the same per-query value. Browser-safe.
 *
 * `-m NAME` or `-m NAME.PARAMS`: everything after the first '.' is the parameter string.
 *  - long cutoffs (P, recall, ndcg_cut, map_cut, relative_P, success, unj): split on ',', each read
 *    with atol ("23.4" -> 23, "x" -> 0), sorted ascending; a value <= 0 is trec_eval's "Negative
 *    cutoff detected", a repeated one "duplicate cutoffs detected". Printed `P_5`.
 *  - double cutoffs (iprec_at_recall, Rprec_mult): atof, sorted, duplicates rejected (no sign check).
 *    Printed `%s_%3.2f`: `iprec_at_recall_0.10`.
 *  - single values with parameters (utility, 11pt_avg, relstring, set_F) and level=gain pairs (G, dcg,
 *    ideal_dcg, ndcg, ndcg_rel, Rndcg, rbp, rbp_resid): one line, named `name_<param string>` when
 *    parameters were given (`utility_2,-1,0,0`, `ndcg_1=3,2=9,4=4.5`), else the plain name.
 *  - an empty parameter string (`P.`) is "improper measure in parameter".
 * The same measure given twice with parameters: trec_eval looks the parameters up at initialisation
 * and takes the FIRST `-m` entry naming that measure, so `-m P.5 -m P.10` prints only P_5; use
 * `-m P.5,10`. A plain `-m P` (or a nickname containing P) does not reset given parameters, so
 * `-m official -m P.5` prints P_5 only. Parameters on a nickname (`all_trec.5`) are ignored, as there.
 * Output order is always the order of trec_eval's measure table, never the command line's.
 */
import { RankevalError } from "../errors.js";
import { parseMeasures, type Measure } from "../measures/measure.js";
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

/** A canonical rankeval measure computing a line's per-query value. */
export interface TrecKernel {
  readonly measure: Measure;
  /**
   * The gain convention it must be computed with: "linear" (ndcg, ndcg_cut: trec_eval's gain is the
   * label), or a table from `ndcg.1=3,2=9` (labels not listed keep their linear gain).
   */
  readonly gain?: "linear" | TrecGainTable;
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
}

type ParamKind = "none" | "longCutoffs" | "doubleCutoffs" | "doubleParams" | "pairs";
type Shape = "mean" | "long" | "runid" | "numq" | "geomean" | "relstring";

interface Entry {
  readonly name: string;
  readonly kind: ParamKind;
  readonly shape: Shape;
  readonly defaults?: readonly number[];
  /** The canonical spec for one line, or null. k = cutoff; custom = parameters were given. */
  readonly kernel?: (
    k: number | undefined, custom: boolean, values: readonly number[], pairs: readonly (readonly [string, number])[],
  ) => { spec: string; gain?: "linear" | TrecGainTable } | { meanOf: readonly string[] } | { relstring: number } | null;
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
const at = (family: string, gain?: "linear") => (k: number | undefined) => ({ spec: `${family}@${k}`, gain });
/**
 * A family taking trec_eval's level=gain pairs (ndcg, G, ndcg_rel, Rndcg): linear gains by default,
 * a gain table with parameters (null when the library cannot take that table: see `gainTable`).
 */
const gains = (spec: string) => (_k: number | undefined, custom: boolean, _v: readonly number[], pairs: readonly (readonly [string, number])[]) => {
  if (!custom) return { spec, gain: "linear" as const };
  const table = gainTable(pairs);
  return table ? { spec, gain: table } : null;
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

/** trec_eval 10's measure table (measures.c te_trec_measures), in output order; prefs / qrels_jg left out. */
const TABLE: readonly Entry[] = [
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
  { name: "dcg", kind: "pairs", shape: "mean" },
  { name: "ideal_dcg", kind: "pairs", shape: "mean" },
  { name: "ndcg", kind: "pairs", shape: "mean", kernel: gains("ndcg") },
  { name: "ndcg_rel", kind: "pairs", shape: "mean", kernel: gains("ndcg_rel") },
  { name: "Rndcg", kind: "pairs", shape: "mean", kernel: gains("rndcg") },
  { name: "ndcg_cut", kind: "longCutoffs", shape: "mean", defaults: LONG_DEFAULT, kernel: at("ndcg", "linear") },
  { name: "map_cut", kind: "longCutoffs", shape: "mean", defaults: LONG_DEFAULT, kernel: at("map") },
  { name: "relative_P", kind: "longCutoffs", shape: "mean", defaults: LONG_DEFAULT, kernel: at("relative_p") },
  { name: "success", kind: "longCutoffs", shape: "mean", defaults: [1, 5, 10], kernel: at("hit_rate") },
  { name: "set_P", kind: "none", shape: "mean", kernel: plain("set_p") },
  { name: "set_relative_P", kind: "none", shape: "mean", kernel: plain("set_relative_p") },
  { name: "set_recall", kind: "none", shape: "mean", kernel: plain("set_recall") },
  { name: "set_map", kind: "none", shape: "mean", kernel: plain("set_map") },
  { name: "set_F", kind: "doubleParams", shape: "mean", defaults: [1.0], kernel: (_k, _custom, values) => ({ spec: `set_f(beta=${values[0]})` }) },
  { name: "num_nonrel_judged_ret", kind: "none", shape: "long", kernel: plain("num_nonrel_judged_ret") },
  { name: "rbp", kind: "pairs", shape: "mean", kernel: persistence("rbp") },
  { name: "rbp_resid", kind: "pairs", shape: "mean", kernel: persistence("rbp_resid") },
  { name: "unj", kind: "longCutoffs", shape: "mean", defaults: [5, 10, 20], kernel: at("unj") },
];

const BY_NAME = new Map(TABLE.map((e) => [e.name, e]));

/** trec_eval's measure names, in its output order. */
export const TREC_MEASURE_NAMES: readonly string[] = TABLE.map((e) => e.name);

/** trec_eval 10's nicknames (measures.c). all_trec has neither dcg nor ideal_dcg in v10. */
export const TREC_NICKNAMES: Readonly<Record<string, readonly string[]>> = {
  official: ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"],
  all_trec: TABLE.map((e) => e.name).filter((n) => n !== "dcg" && n !== "ideal_dcg"),
  set: ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall", "set_relative_P", "set_map", "set_F"],
};

/** Measures and nicknames of trec_eval that need another judgment format (-R prefs, qrels_jg). */
const OTHER_FORMATS = new Set([
  "all_prefs", "prefs", "qrels_jg", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
  "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
  "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp", "map_avgjg", "P_avgjg",
  "Rprec_mult_avgjg", "yaap",
]);

/** Whether rankeval computes a line: by a measure, from several (`meanOf`), as relstring, or in the report. */
export function isComputed(line: TrecLine): boolean {
  return line.kernel !== null || line.meanOf !== undefined || line.relstring !== undefined || reportMakesIt(line);
}

/**
 * trec_eval's level=gain pairs as a gain table for the library's `gain` option: each level read with
 * atol, the first pair naming a level wins (setup_gains / get_gain). Null when the library cannot take
 * it: a level below 1 (other than level 0 keeping its gain 0: negative levels would give documents
 * outside the judgments a gain), a level past 1000000, a gain that is negative or not finite.
 */
export function gainTable(pairs: readonly (readonly [string, number])[]): TrecGainTable | null {
  const table: Record<number, number> = {};
  const seen = new Set<bigint>();
  for (const [key, gain] of pairs) {
    const level = atol(key);
    if (seen.has(level)) continue;
    seen.add(level);
    if (level === 0n && gain === 0) continue;
    if (level < 1n || level > 1_000_000n || !Number.isFinite(gain) || gain < 0) return null;
    table[Number(level)] = gain;
  }
  return Object.freeze(table);
}

/**
 * Gains of a table that trec_eval's comp_rel_gain, which returns (int)(g1 - g2), compares as equal
 * though they differ (by less than 1), among the levels 0..maxLevel: trec_eval's ideal ranking may
 * then order those levels either way (rankeval orders by the exact gains). Empty when it cannot matter.
 */
export function gainTies(table: TrecGainTable, maxLevel: number): [number, number][] {
  const gainOf = (l: number) => (Object.hasOwn(table, l) ? table[l] : l);
  const levels: number[] = [];
  for (let l = 0; l <= Math.min(maxLevel, 1_000_000); l++) levels.push(l);
  const distinct = [...new Set(levels.map(gainOf))].sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (let i = 1; i < distinct.length; i++) if (distinct[i] - distinct[i - 1] < 1) out.push([distinct[i - 1], distinct[i]]);
  return out;
}

/** Lines whose value the report makes itself (no per-query measure): runid and num_q. */
export function reportMakesIt(line: TrecLine): boolean {
  return line.aggregation === "runid" || line.aggregation === "count";
}

const fail = (msg: string) => new RankevalError("bad-measure", msg);

const LONG_MAX = 2n ** 63n - 1n;
const LONG_MIN = -(2n ** 63n);

/** C's atol (strtol base 10, clamped as glibc does on overflow): the leading integer, 0 if none. */
export function atol(s: string): bigint {
  const m = /^[\t\n\v\f\r ]*([+-]?\d+)/.exec(s);
  if (!m) return 0n;
  const v = BigInt(m[1]);
  return v > LONG_MAX ? LONG_MAX : v < LONG_MIN ? LONG_MIN : v;
}

/**
 * C's atof (strtod) on a decimal prefix: the longest leading number, 0 if none; "inf", "infinity" and
 * "nan" in any case. (Hexadecimal floats, which glibc also reads, are not handled: read as 0.)
 */
export function atof(s: string): number {
  const m = /^[\t\n\v\f\r ]*([+-]?)(?:(infinity|inf)|(nan)|((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?))/i.exec(s);
  if (!m) return 0;
  const sign = m[1] === "-" ? -1 : 1;
  if (m[2]) return sign * Infinity;
  if (m[3]) return NaN;
  return sign * Number(m[4]);
}

/**
 * Resolves trec_eval `-m` arguments (each is what follows one `-m`) to the measures to print, in
 * trec_eval's output order. Throws a RankevalError ("bad-measure") where trec_eval exits: an unknown
 * name ("illegal measure"), an empty parameter string, a cutoff <= 0, duplicate cutoffs, malformed
 * level=gain pairs. An empty list means trec_eval's default, `official`.
 */
export function parseTrecMeasures(args: readonly string[]): TrecMeasure[] {
  const marked = new Set<string>();
  const params = new Map<string, string>(); // first parameter string per name
  for (const arg of args.length ? args : ["official"]) {
    if (typeof arg !== "string") throw fail(`trec_eval measure must be a string, not ${typeof arg}`);
    const dot = arg.indexOf(".");
    const name = dot < 0 ? arg : arg.slice(0, dot);
    if (dot >= 0) {
      const p = arg.slice(dot + 1);
      if (p === "") throw fail(`trec_eval measure "${arg}": improper measure in parameter '${name}' (nothing after the '.')`);
      if (!params.has(name)) params.set(name, p);
    }
    const nick = Object.hasOwn(TREC_NICKNAMES, name) ? TREC_NICKNAMES[name] : undefined;
    if (nick) for (const n of nick) marked.add(n);
    else if (BY_NAME.has(name)) marked.add(name);
    else if (OTHER_FORMATS.has(name)) throw fail(`trec_eval measure "${arg}" needs preference or judgment-group judgments (-R prefs / qrels_jg), which rankeval does not read`);
    else throw fail(`trec_eval: illegal measure '${arg}' (known: ${TREC_MEASURE_NAMES.join(", ")}; nicknames: ${Object.keys(TREC_NICKNAMES).join(", ")})`);
  }
  return TABLE.filter((e) => marked.has(e.name)).map((e) => resolve(e, params.get(e.name) ?? null));
}

function resolve(e: Entry, p: string | null): TrecMeasure {
  const what = `trec_eval measure "${e.name}${p === null ? "" : `.${p}`}"`;
  const line = (name: string, cutoff?: number, custom = false, values: readonly number[] = [], pairs: readonly (readonly [string, number])[] = []): TrecLine => {
    const k = e.kernel?.(cutoff, custom, values, pairs) ?? null;
    const make = (spec: string, gain?: "linear" | TrecGainTable): TrecKernel | null => {
      try {
        return Object.freeze({ measure: parseMeasures(spec)[0], ...(gain ? { gain } : {}) });
      } catch {
        return null; // a cutoff or parameter rankeval cannot take (past 2^31 - 1)
      }
    };
    let kernel: TrecKernel | null = null;
    let extra: { meanOf?: readonly TrecKernel[]; relstring?: number } = {};
    if (k && "spec" in k) kernel = make(k.spec, k.gain);
    else if (k && "meanOf" in k) {
      const parts = k.meanOf.map((spec) => make(spec));
      if (parts.every((x) => x !== null)) extra = { meanOf: Object.freeze(parts as TrecKernel[]) };
    } else if (k && "relstring" in k) extra = { relstring: k.relstring };
    const shape = {
      mean: ["mean", "float", true, true],
      long: ["sum", "long", true, true],
      runid: ["runid", "string", false, true],
      numq: ["count", "long", false, true],
      geomean: ["geomean", "float", false, true],
      relstring: ["none", "quoted", true, false],
    } as const;
    const [aggregation, print, perQuery, summary] = shape[e.shape];
    return Object.freeze({ name, measure: e.name, ...(cutoff !== undefined ? { cutoff } : {}), aggregation, print, perQuery, summary, kernel, ...extra });
  };
  switch (e.kind) {
    case "none":
      // trec_eval ignores parameters on these.
      return Object.freeze({ name: e.name, params: p, lines: [line(e.name)] });
    case "longCutoffs": {
      let cut: bigint[];
      if (p === null) cut = e.defaults!.map((d) => BigInt(d));
      else {
        cut = p.split(",").map(atol).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        if (cut[0] <= 0n) throw fail(`${what}: trec_eval: Negative cutoff detected (a cutoff read as ${cut[0]}; cutoffs are read with atol and must be > 0)`);
        for (let i = 1; i < cut.length; i++) if (cut[i] === cut[i - 1]) throw fail(`${what}: trec_eval: duplicate cutoffs detected (${cut[i]})`);
      }
      const cutoffs = cut.map(Number);
      return Object.freeze({ name: e.name, params: p, cutoffs, lines: cut.map((c, i) => line(`${e.name}_${c}`, cutoffs[i], p !== null)) });
    }
    case "doubleCutoffs": {
      const cutoffs = p === null ? [...e.defaults!] : p.split(",").map(atof).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      for (let i = 1; i < cutoffs.length; i++) if (cutoffs[i] === cutoffs[i - 1]) throw fail(`${what}: trec_eval: duplicate cutoffs detected (${cutoffs[i]})`);
      return Object.freeze({ name: e.name, params: p, cutoffs, lines: cutoffs.map((c) => line(`${e.name}_${formatFixed(c, 2, 3)}`, c, p !== null)) });
    }
    case "doubleParams": {
      const values = p === null ? [...e.defaults!] : p.split(",").map(atof);
      return Object.freeze({ name: e.name, params: p, values, lines: [line(p === null ? e.name : `${e.name}_${p}`, undefined, p !== null, values)] });
    }
    case "pairs": {
      const pairs = p === null ? [] : parsePairs(p, what);
      return Object.freeze({ name: e.name, params: p, pairs, lines: [line(p === null ? e.name : `${e.name}_${p}`, undefined, p !== null, [], pairs)] });
    }
  }
}

/** meas_init.c get_param_pairs: `name=value,...`, rejected unless every item has exactly one '='. */
function parsePairs(p: string, what: string): [string, number][] {
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
    return [item.slice(0, eq), atof(item.slice(eq + 1))];
  });
}

/** Every line of the measures, in print order. */
export function trecLines(measures: readonly TrecMeasure[]): TrecLine[] {
  return measures.flatMap((m) => m.lines);
}
