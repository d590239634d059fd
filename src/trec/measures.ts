/**
 * trec_eval 10's measure table, nicknames and `-m NAME.PARAMS` syntax (trec_eval.c mark_measure,
 * measures.c, meas_init.c), resolved to its printed lines and to rankeval's measures. Browser-safe.
 * Also takes the printed spelling (`ndcg_cut_10`; they add up), which trec_eval refuses. Long cutoffs
 * are read by atol ("23.4" is 23, warned); text that is no number is an error (deliberate: a typo must
 * not become a cutoff). trec_eval keeps a measure's FIRST parameters and ignores them on a nickname or
 * a measure without any (warned).
 */
import { RankevalError } from "../errors/errors.js";
import { TREC_EVAL } from "../measures/conventions.js";
import { makeMeasure, parseCanonical, strictNumber, type Aggregate, type Measure } from "../measures/measure.js";
import { gainTableOf } from "../measures/options.js";
import { didYouMean } from "../errors/suggest.js";
import { atol } from "../c/strings.js";
import { compareLongAsC, glibcQsort } from "../c/qsort.js";
import { withTies, type Batch } from "../kernel/batch.js";
import { formatFixed } from "../c/printf.js";
import type { TrecPrint } from "./format.js";
import { PREFS_MEASURES } from "./prefs-measures.js";
import { formResRels, PORTS, validInt, type Epi, type Port } from "./port.js";

/** How the summary ("all") line is made: geomean is exp(mean of log(max(v, 1e-5))); count is num_q. */
export type TrecAggregation = "mean" | "sum" | "geomean" | "count" | "runid" | "none";

type TrecGainTable = Readonly<Record<number, number>>;

/** A line's measure, named as the line (`ndcg.1=3,2=9`'s table is its `fixed.gain`). */
interface TrecKernel {
  readonly measure: Measure;
}

/** One printed line of a measure. */
export interface TrecLine {
  /** As printed: `P_5`, `iprec_at_recall_0.10`. */
  readonly name: string;
  /** trec_eval's measure: `P`. */
  readonly measure: string;
  readonly cutoff?: number;
  readonly aggregation: TrecAggregation;
  readonly print: TrecPrint;
  /** Printed with -q; in the "all" summary. */
  readonly perQuery: boolean;
  readonly summary: boolean;
  /** The per-query value's measure (gm_map's: map); null if the kernel lacks it. */
  readonly kernel: TrecKernel | null;
  /** The line is their mean, summed last to first as m_11pt_avg.c (11pt_avg at chosen points). */
  readonly meanOf?: readonly TrecKernel[];
  readonly relstring?: number;
  /** Set by the plan where the C port computes the line: its values' key (name, plus position if printed twice). */
  readonly exact?: string;
}

export interface TrecMeasure {
  readonly name: string;
  /** -m's parameter string; null: the defaults. */
  readonly params: string | null;
  readonly cutoffs?: readonly number[];
  readonly values?: readonly number[];
  readonly pairs?: readonly (readonly [string, number])[];
  readonly lines: readonly TrecLine[];
  readonly format?: "prefs" | "qrels_jg";
}

type ParamKind = "none" | "longCutoffs" | "doubleCutoffs" | "doubleParams" | "pairs";
type Shape = "mean" | "long" | "runid" | "numq" | "geomean" | "relstring";

/** The judgment formats of trec_eval's -R (formats.c). */
export type RelFormat = "qrels" | "prefs" | "qrels_prefs" | "qrels_jg";
export const REL_FORMATS: readonly RelFormat[] = ["qrels", "prefs", "qrels_prefs", "qrels_jg"];

type KernelOf = (
  k: number | undefined,
  custom: boolean,
  values: readonly number[],
  pairs: readonly (readonly [string, number])[],
) => { spec: string; table?: TrecGainTable } | { meanOf: readonly string[] } | { relstring: number } | null;

/** A row of trec_eval's measure table, with its quirks. */
interface Entry {
  readonly name: string;
  /** meas_init.c's parameter parser (default "none"). */
  readonly kind?: ParamKind;
  /** SHAPES (default "mean"). */
  readonly shape?: Shape;
  readonly defaults?: readonly number[];
  /** The judgments (-R) it reads besides qrels. */
  readonly format?: "prefs" | "qrels_jg";
  /** The kernel's spec for one line, or null. k = cutoff; custom = parameters given. */
  readonly kernel?: KernelOf;
  /** Nicknames besides all_trec (measures.c). */
  readonly nick?: "official" | "set" | "official set";
  /** On an empty ranking (-M 0, -J) the kernel's 0/0 is 0, not trec_eval's: the port computes it. */
  readonly emptyExact?: true;
  /** trec_eval.c's "clean up leftovers" after -c zeroes by name: the measure's own line, or every line (unj_*). */
  readonly cleared?: "name" | "lines";
  /** level=gain pairs; comp_rel_gain compares gains as ints. */
  readonly gains?: true;
  /** Reads -N (the collection size). */
  readonly numDocs?: true;
  /** m_utility.c's coefficient count. */
  readonly arity?: number;
}

/** A trec_eval table row and its C port, if any. */
export type TrecRow = Entry & { readonly port?: Port };

const LONG = { kind: "longCutoffs", defaults: [5, 10, 15, 20, 30, 100, 200, 500, 1000] } as const;
const IPREC_DEFAULT = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
const RPREC_MULT_DEFAULT = [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0];

const plain = (spec: string) => () => ({ spec });
const param = (family: string, key: string) => (k: number | undefined) => ({ spec: `${family}(${key}=${k})` });
/** rbp, rbp_resid: only the pair p. */
const persistence =
  (family: string): KernelOf =>
  (_k, _custom, _v, pairs) => {
    if (pairs.some(([key]) => key !== "p")) return null;
    const p = pairs.find(([key]) => key === "p")?.[1] ?? 0.9;
    return { spec: `${family}(p=${p})` };
  };
const at = (family: string) => (k: number | undefined) => ({ spec: `${family}@${k}` });
/** level=gain pairs as a gain table; null if the kernel cannot take it. */
const gains =
  (spec: string): KernelOf =>
  (_k, custom, _v, pairs) => {
    if (!custom) return { spec };
    const table = gainTable(pairs);
    return table ? { spec, table } : null;
  };
/** 11pt_avg at chosen points; m_11pt_avg.c assumes they ascend, so others go to the port. */
const pointsAvg: KernelOf = (_k, custom, values) => {
  if (!custom) return { spec: "11pt_avg" };
  if (values.length === 0 || values.some((x, i) => !(x >= 0 && x < Infinity) || (i > 0 && x < values[i - 1])))
    return null;
  return { meanOf: values.map((x) => `iprec_at_recall(recall=${x})`) };
};
const relstringLength: KernelOf = (_k, _custom, [n]) => ({ relstring: Number.isNaN(n) || n <= 0 ? 0 : Math.trunc(n) });

/** measures.c te_trec_measures, in output order. Lines without a kernel measure are computed by the ports. */
const TABLE_DATA = [
  { name: "runid", shape: "runid", nick: "official set" },
  { name: "num_q", shape: "numq", nick: "official set" },
  { name: "num_ret", shape: "long", kernel: plain("num_ret"), nick: "official set", cleared: "name" },
  { name: "num_rel", shape: "long", kernel: plain("num_rel"), nick: "official set" },
  { name: "num_rel_ret", shape: "long", kernel: plain("num_rel_ret"), nick: "official set" },
  { name: "map", kernel: plain("map"), nick: "official" },
  { name: "gm_map", shape: "geomean", kernel: plain("map"), nick: "official" },
  { name: "Rprec", kernel: plain("r-precision"), nick: "official" },
  { name: "bpref", kernel: plain("bpref"), nick: "official" },
  { name: "recip_rank", kernel: plain("mrr"), nick: "official" },
  {
    name: "iprec_at_recall",
    kind: "doubleCutoffs",
    defaults: IPREC_DEFAULT,
    kernel: param("iprec_at_recall", "recall"),
    nick: "official",
    emptyExact: true,
  },
  { name: "P", ...LONG, kernel: at("precision"), nick: "official" },
  {
    name: "relstring",
    kind: "doubleParams",
    shape: "relstring",
    defaults: [10],
    kernel: relstringLength,
    cleared: "name",
  },
  { name: "recall", ...LONG, kernel: at("recall") },
  { name: "infAP", kernel: plain("infap") },
  { name: "gm_bpref", shape: "geomean", kernel: plain("bpref") },
  { name: "Rprec_mult", kind: "doubleCutoffs", defaults: RPREC_MULT_DEFAULT, kernel: param("rprec_mult", "x") },
  {
    name: "utility",
    kind: "doubleParams",
    defaults: [1, -1, 0, 0],
    kernel: (_k, _c, [a, b, c, d]) => ({ spec: `utility(a=${a},b=${b},c=${c},d=${d})` }),
    nick: "set",
    cleared: "name",
    numDocs: true,
    arity: 4,
  },
  { name: "11pt_avg", kind: "doubleParams", defaults: IPREC_DEFAULT, kernel: pointsAvg, emptyExact: true },
  { name: "binG", kernel: plain("bing") },
  { name: "G", kind: "pairs", kernel: gains("g"), gains: true },
  { name: "dcg", kind: "pairs", kernel: gains("dcg"), gains: true },
  { name: "ideal_dcg", kind: "pairs", gains: true },
  { name: "ndcg", kind: "pairs", kernel: gains("ndcg"), gains: true },
  { name: "ndcg_rel", kind: "pairs", kernel: gains("ndcg_rel"), gains: true },
  { name: "Rndcg", kind: "pairs", kernel: gains("rndcg"), gains: true },
  { name: "ndcg_cut", ...LONG, kernel: at("ndcg") },
  { name: "map_cut", ...LONG, kernel: at("map") },
  { name: "relative_P", ...LONG, kernel: at("relative_p") },
  { name: "success", kind: "longCutoffs", defaults: [1, 5, 10], kernel: at("hit_rate") },
  { name: "set_P", kernel: plain("set_p"), nick: "set" },
  { name: "set_relative_P", kernel: plain("set_relative_p"), nick: "set" },
  { name: "set_recall", kernel: plain("set_recall"), nick: "set" },
  { name: "set_map", kernel: plain("set_map"), nick: "set" },
  {
    name: "set_F",
    kind: "doubleParams",
    defaults: [1.0],
    kernel: (_k, _c, [beta]) => ({ spec: `set_f(beta=${beta})` }),
    nick: "set",
  },
  { name: "num_nonrel_judged_ret", shape: "long", kernel: plain("num_nonrel_judged_ret") },
  // m_prefs_*.c (-R prefs, qrels_prefs)
  ...PREFS_MEASURES.map(
    (name) => ({ name, shape: name.startsWith("prefs_num") ? "long" : "mean", format: "prefs" }) as const,
  ),
  // m_*_avgjg.c (-R qrels_jg)
  { name: "map_avgjg", format: "qrels_jg" },
  { name: "P_avgjg", ...LONG, format: "qrels_jg" },
  { name: "Rprec_mult_avgjg", kind: "doubleCutoffs", defaults: RPREC_MULT_DEFAULT, format: "qrels_jg" },
  { name: "yaap" },
  { name: "rbp", kind: "pairs", kernel: persistence("rbp") },
  { name: "rbp_resid", kind: "pairs", kernel: persistence("rbp_resid"), cleared: "name" },
  { name: "unj", kind: "longCutoffs", defaults: [5, 10, 20], kernel: at("unj"), cleared: "lines" },
] as const satisfies readonly Entry[];
const TABLE: readonly TrecRow[] = TABLE_DATA.map((e) =>
  Object.freeze({ ...e, port: (PORTS as Record<string, Port>)[e.name] }),
);

/** For the measure name types. */
export type TrecTable = typeof TABLE_DATA;

const BY_NAME = new Map(TABLE.map((e) => [e.name, e]));

/** The row of trec_eval measure `name`. */
export function trecMeasure(name: string): TrecRow {
  return BY_NAME.get(name)!;
}

export const TREC_MEASURE_NAMES: readonly string[] = TABLE.map((e) => e.name);

export type TrecNickname = "official" | "all_trec" | "set" | "all_prefs" | "prefs" | "qrels_jg";

const named = (keep: (e: TrecRow) => unknown) => TABLE.filter(keep).map((e) => e.name);

/** trec_eval 10's nicknames (measures.c). */
export const TREC_NICKNAMES: Readonly<Record<TrecNickname, readonly string[]>> = {
  official: named((e) => e.nick?.includes("official")),
  all_trec: named((e) => e.name !== "dcg" && e.name !== "ideal_dcg" && e.name !== "yaap" && !e.format),
  set: named((e) => e.nick?.includes("set")),
  all_prefs: ["runid", "num_q", ...named((e) => e.format === "prefs")],
  prefs: ["runid", "num_q", ...PREFS_MEASURES.slice(0, 6)],
  qrels_jg: ["runid", "num_q", ...named((e) => e.format === "qrels_jg")],
};

/** Whether the kernel (or the report) computes a line. */
export function isComputed(line: TrecLine): boolean {
  return line.kernel !== null || line.meanOf !== undefined || line.relstring !== undefined || reportMakesIt(line);
}

/**
 * level=gain pairs as the kernel's gain table, or null where it would differ from trec_eval: a level
 * given twice (get_gain answers from the sorted order), a level < 1 or > 1000000, a gain not an
 * integer in [0, 2^31 - 1] (comp_rel_gain compares by the int of the difference).
 */
export function gainTable(pairs: readonly (readonly [string, number])[]): TrecGainTable | null {
  const table: Record<number, number> = {};
  const seen = new Set<bigint>();
  for (const [key, gain] of pairs) {
    if (!validInt(key)) continue;
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
 * Gains (given, or linear for unnamed levels 0..maxLevel) less than 1 apart, which comp_rel_gain calls
 * equal: trec_eval's ideal ranking then follows glibc's merge sort, not the gains.
 */
export function gainTies(pairs: readonly (readonly [string, number])[], maxLevel: number): [number, number][] {
  const named = new Set<bigint>();
  const gains: number[] = [];
  for (const [key, gain] of pairs) {
    if (!validInt(key)) continue;
    named.add(atol(key));
    gains.push(gain);
  }
  for (let l = 0; l <= Math.min(maxLevel, 1_000_000); l++) if (!named.has(BigInt(l))) gains.push(l);
  const distinct = [...new Set(gains)].filter((g) => !Number.isNaN(g)).sort((a, b) => a - b);
  const out: [number, number][] = [];
  for (let i = 1; i < distinct.length; i++)
    if (distinct[i] - distinct[i - 1] < 1) out.push([distinct[i - 1], distinct[i]]);
  return out;
}

/** runid and num_q: made by the report. */
export function reportMakesIt(line: TrecLine): boolean {
  return line.aggregation === "runid" || line.aggregation === "count";
}

const fail = (msg: string) => new RankevalError("bad-measure", msg);

/** Splits `-m NAME.PARAMS` or the printed spelling (longest name with parameters, '_', ...). */
export function splitTrecArg(arg: string): { name: string; params: string | null; printed: boolean } | null {
  const dot = arg.indexOf(".");
  const name = dot < 0 ? arg : arg.slice(0, dot);
  if (BY_NAME.has(name) || Object.hasOwn(TREC_NICKNAMES, name))
    return { name, params: dot < 0 ? null : arg.slice(dot + 1), printed: false };
  let best: TrecRow | undefined;
  for (const e of TABLE) {
    if (
      e.kind &&
      arg.length > e.name.length + 1 &&
      arg.startsWith(`${e.name}_`) &&
      (!best || e.name.length > best.name.length)
    )
      best = e;
  }
  return best ? { name: best.name, params: arg.slice(best.name.length + 1), printed: true } : null;
}

/** For "did you mean". */
export function trecNames(): string[] {
  return [...TREC_MEASURE_NAMES, ...Object.keys(TREC_NICKNAMES)];
}

/**
 * trec_eval `-m` arguments as the measures to print, in table order (none: `official`). Throws where
 * trec_eval exits or a parameter is no number; likely mistakes go to `warnings`.
 */
export function parseTrecMeasures(args: readonly string[], warnings: string[] = []): TrecMeasure[] {
  const marked = new Set<string>();
  const params = new Map<string, { text: string; arg: string }>(); // the first, per name
  const printed = new Map<string, string[]>();
  for (const arg of args.length ? args : ["official"]) {
    if (typeof arg !== "string") throw fail(`trec_eval measure must be a string, not ${typeof arg}`);
    const a = splitTrecArg(arg);
    if (!a) throw fail(`trec_eval: illegal measure '${arg}'${didYouMean(arg, trecNames())}`);
    const { name } = a;
    if (a.params === "")
      throw fail(`trec_eval measure "${arg}": improper measure in parameter '${name}' (nothing after the '.')`);
    const nick = Object.hasOwn(TREC_NICKNAMES, name) ? TREC_NICKNAMES[name as TrecNickname] : undefined;
    if (nick) {
      if (a.params !== null)
        warnings.push(`trec_eval measure "${arg}": trec_eval ignores parameters on a nickname: read as ${name}`);
      for (const n of nick) marked.add(n);
      continue;
    }
    marked.add(name);
    if (a.params === null) continue;
    const e = BY_NAME.get(name)!;
    if (!e.kind) warnings.push(`trec_eval measure "${arg}": trec_eval ignores parameters on ${name}: read as ${name}`);
    else if (a.printed) printed.set(name, [...(printed.get(name) ?? []), a.params]);
    else if (!params.has(name)) params.set(name, { text: a.params, arg });
    else {
      const first = params.get(name)!;
      const merged =
        e.kind === "longCutoffs" || e.kind === "doubleCutoffs"
          ? `; give them in one: -m ${name}.${first.text},${a.params}`
          : "";
      warnings.push(
        `trec_eval measure "${arg}" is ignored: trec_eval uses the first parameters given for ${name} (-m ${first.arg})${merged}`,
      );
    }
  }
  return TABLE.filter((e) => marked.has(e.name)).map((e) =>
    resolve(e, params.get(e.name)?.text ?? null, printed.get(e.name) ?? [], warnings),
  );
}

/**
 * The library's measures for a trec_eval name, one per printed line (null: not trec_eval's). Throws for
 * a line the library does not compute; a nickname leaves those out.
 */
export function trecMeasuresOf(word: string, warnings: string[]): Measure[] | null {
  const a = splitTrecArg(word);
  if (!a) return null;
  const nickname = Object.hasOwn(TREC_NICKNAMES, a.name);
  const format = nickname
    ? TREC_NICKNAMES[a.name as TrecNickname].map((n) => BY_NAME.get(n)!.format).find((f) => f)
    : BY_NAME.get(a.name)!.format;
  if (format) {
    const r = format === "prefs" ? "-R prefs or -R qrels_prefs" : "-R qrels_jg";
    throw fail(
      `trec_eval measure "${word}" reads ${format === "prefs" ? "preference judgments" : "judgment groups"} (trec_eval's ${r}), which the command line reads (rankeval ${r} -m ${word} JUDGMENTS RUN)`,
    );
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
    if (!nickname)
      throw fail(
        `trec_eval measure "${word}": ${l.name} is ${why}; the command line prints it (rankeval -m ... QRELS RUN)`,
      );
    if (!reportMakesIt(l)) left.push(l.name);
  }
  if (left.length)
    warnings.push(`trec_eval measure "${word}": left out (the library does not compute them): ${left.join(", ")}`);
  return out;
}

const LONG_CUTOFF = /^[\t\n\v\f\r ]*[+-]?[0-9]+(\.[0-9]*)?$/;

/** A long cutoff as atol reads it (a decimal warned; no number: error). */
function longCutoff(text: string, what: string, warnings: string[]): bigint {
  const m = LONG_CUTOFF.exec(text);
  if (!m) throw fail(`${what}: cutoff "${text}" is not a number`);
  const v = atol(text);
  if (m[1] !== undefined) warnings.push(`${what}: cutoff "${text}" is read as ${v}, as trec_eval reads it (atol)`);
  return v;
}

/** A double parameter (atof there), written in full. */
function doubleParam(text: string, what: string, role = "parameter"): number {
  const v = strictNumber(text);
  if (Number.isNaN(v)) throw fail(`${what}: ${role} "${text}" is not a number`);
  return v;
}

const byValue = (a: number | bigint, b: number | bigint) => (a < b ? -1 : a > b ? 1 : 0);

/** [aggregation, print, per query, in the summary]. */
const SHAPES = {
  mean: ["mean", "float", true, true],
  long: ["sum", "long", true, true],
  runid: ["runid", "string", false, true],
  numq: ["count", "long", false, true],
  geomean: ["geomean", "float", false, true],
  relstring: ["none", "quoted", true, false],
} as const;

function resolve(e: TrecRow, p: string | null, extra: readonly string[], warnings: string[]): TrecMeasure {
  const what = `trec_eval measure "${e.name}${p === null ? "" : `.${p}`}"`;
  const kind = e.kind ?? "none";
  const shape = e.shape ?? "mean";
  const line = (
    name: string,
    cutoff?: number,
    custom = false,
    values: readonly number[] = [],
    pairs: readonly (readonly [string, number])[] = [],
  ): TrecLine => {
    const k = e.kernel?.(cutoff, custom, values, pairs) ?? null;
    const make = (spec: string, key: string, table?: TrecGainTable, as: Aggregate = "mean"): TrecKernel | null => {
      let base: Measure;
      try {
        base = parseCanonical(spec)![0];
      } catch {
        return null; // past 2^31 - 1
      }
      const fixed = table ? { gain: gainTableOf(table) } : {};
      return Object.freeze({
        measure: makeMeasure(base.family, base.k, base.params, {
          tool: "trec_eval",
          name: key,
          conventions: TREC_EVAL,
          fixed,
          aggregate: as,
        }),
      });
    };
    let kernel: TrecKernel | null = null;
    let extraFields: { meanOf?: readonly TrecKernel[]; relstring?: number } = {};
    if (k && "spec" in k)
      kernel = make(k.spec, name, k.table, shape === "long" ? "sum" : shape === "geomean" ? "geomean" : "mean");
    else if (k && "meanOf" in k) {
      // Keyed by line and point: unique.
      const parts = k.meanOf.map((spec, i) => make(spec, `${name}@${values[i]}`));
      if (parts.every((x) => x !== null)) extraFields = { meanOf: Object.freeze(parts as TrecKernel[]) };
    } else if (k && "relstring" in k) extraFields = { relstring: k.relstring };
    const [aggregation, print, perQuery, summary] = SHAPES[shape];
    return Object.freeze({
      name,
      measure: e.name,
      ...(cutoff !== undefined ? { cutoff } : {}),
      aggregation,
      print,
      perQuery,
      summary,
      kernel,
      ...extraFields,
    });
  };
  const format = e.format ? { format: e.format } : {};
  const cutoffs = kind === "longCutoffs" || kind === "doubleCutoffs";
  // The printed spelling: cutoffs add to those after a '.'; other parameters stand for them if none.
  if (extra.length && !cutoffs) {
    if (p === null) p = extra[0];
    const ignored = extra.filter((x) => x !== p);
    if (ignored.length)
      warnings.push(
        `${what}: trec_eval uses the first parameters given for ${e.name}: ${ignored.map((x) => `${e.name}_${x}`).join(", ")} ignored`,
      );
    return resolve(e, p, [], warnings);
  }
  if (kind === "none") return Object.freeze({ name: e.name, params: p, lines: [line(e.name)], ...format });
  const custom = p !== null || extra.length > 0;
  if (cutoffs) {
    const long = kind === "longCutoffs";
    const read = (t: string, w: string) => (long ? longCutoff(t, w, warnings) : doubleParam(t, w, "cutoff"));
    let cut: (number | bigint)[] = custom ? [] : e.defaults!.map((d) => (long ? BigInt(d) : d));
    if (custom) {
      if (p !== null) {
        const given = p.split(",").map((t) => read(t, what));
        // trec_eval's order (comp_long: past 2^31 out of order), checked as it does.
        cut = long ? glibcQsort(given as bigint[], compareLongAsC) : given.sort(byValue);
      }
      if (long && cut.length && cut[0] <= 0n)
        throw fail(`${what}: trec_eval: Negative cutoff detected (a cutoff read as ${cut[0]}; cutoffs must be > 0)`);
      for (let i = 1; i < cut.length; i++)
        if (cut[i] === cut[i - 1]) throw fail(`${what}: trec_eval: duplicate cutoffs detected (${cut[i]})`);
      for (const x of extra) {
        for (const t of x.split(",")) {
          const c = read(t, `trec_eval measure "${e.name}_${x}"`);
          if (long && c <= 0n) throw fail(`trec_eval measure "${e.name}_${x}": cutoff ${c} is not > 0`);
          if (!cut.includes(c)) cut.push(c);
        }
      }
      if (extra.length || !long) cut.sort(byValue);
    }
    // meas_init.c append_double: snprintf into strlen(name) + 10 bytes.
    const printed = (c: number | bigint) =>
      long ? `${e.name}_${c}` : `${e.name}_${formatFixed(c as number, 2, 3)}`.slice(0, e.name.length + 9);
    const values = cut.map(Number);
    return Object.freeze({
      name: e.name,
      params: p,
      cutoffs: values,
      lines: cut.map((c, i) => line(printed(c), values[i], custom)),
      ...format,
    });
  }
  const printed = p === null ? e.name : `${e.name}_${p}`;
  if (kind === "pairs") {
    const pairs = p === null ? [] : parsePairs(p, what, e.gains ? warnings : null);
    return Object.freeze({ name: e.name, params: p, pairs, lines: [line(printed, undefined, custom, [], pairs)] });
  }
  const values = p === null ? [...e.defaults!] : p.split(",").map((t) => doubleParam(t, what));
  // m_utility.c (trec_eval exits 4 at the first query).
  if (e.arity !== undefined && values.length !== e.arity)
    throw fail(
      `${what}: trec_eval: calc_utility: improper number of coefficients (${values.length}; it takes ${e.arity})`,
    );
  return Object.freeze({ name: e.name, params: p, values, lines: [line(printed, undefined, custom, values)] });
}

/**
 * meas_init.c get_param_pairs: `name=value,...`. For gain tables (`warnings` given), a decimal level
 * ("1.0") is ignored (gain_init.c valid_int), warned.
 */
function parsePairs(p: string, what: string, warnings: string[] | null): [string, number][] {
  // Its check: '=' and ',' alternate, '=' first and last.
  if (!/^(=,)*=$/.test(p.replace(/[^,=]/g, "")))
    throw fail(`${what}: trec_eval: malformed pair parameters in '${p}' (expected level=gain,...)`);
  return p.split(",").map((item) => {
    const eq = item.indexOf("=");
    const key = item.slice(0, eq);
    if (warnings && !validInt(key)) {
      // "x" is refused as a typo (deliberate: trec_eval ignores it).
      if (!LONG_CUTOFF.test(key)) throw fail(`${what}: level "${key}" is not a number`);
      warnings.push(
        `${what}: trec_eval ignores the pair "${item}": its level is not an integer (gain_init.c valid_int)`,
      );
    }
    return [key, doubleParam(item.slice(eq + 1), what, `value of ${key}`)];
  });
}

/** Every line, in print order; cached per list. */
export function trecLines(measures: readonly TrecMeasure[]): TrecLine[] {
  const known = linesOf.get(measures);
  if (known && known.of.length === measures.length && known.of.every((m, i) => m === measures[i])) return known.lines;
  const lines = measures.flatMap((m) => m.lines);
  linesOf.set(measures, { of: [...measures], lines });
  return lines;
}

const linesOf = new WeakMap<readonly TrecMeasure[], { of: readonly TrecMeasure[]; lines: TrecLine[] }>();

/** Per-query values by the C ports (not runid, num_q, relstring), one array per trecLines line. */
export function exactValues(
  measures: readonly TrecMeasure[],
  batch: Batch,
  ties: "docid" | "input",
  epi: Epi,
): Float64Array[] {
  const ranked = withTies(batch, ties);
  const out: Float64Array[][] = measures.map((m) => m.lines.map(() => new Float64Array(batch.numQueries)));
  const ports = measures.map((m) => {
    const port = trecMeasure(m.name).port;
    if (!port) throw new RankevalError("bad-measure", `trec_eval measure ${m.name}: not ported (a bug)`);
    return port;
  });
  for (let q = 0; q < batch.numQueries; q++) {
    const rr = formResRels(ranked, q, epi);
    measures.forEach((m, j) => {
      const v = ports[j](rr, m, epi);
      for (let i = 0; i < v.length; i++) out[j][i][q] = v[i];
    });
  }
  return out.flat();
}
