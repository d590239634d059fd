/**
 * ir_measures' names (case-sensitive: `nDCG@10`, `P(rel=2)@10`) as rankeval's families with its
 * conventions. Syntax as util.parse_measure (`Name(k=v, ...)@at`, Python literals). The key is
 * Measure.__repr__: defaults left out, an alias gives the measure's name (`MAP@10` -> `AP@10`).
 */
import { RankevalError } from "../errors/errors.js";
import { gainTableOf, type ExplicitOptions } from "./options.js";
import { formatFixed } from "../c/printf.js";
import { GDEVAL, IR_MEASURES, RANX } from "./conventions.js";
import { makeMeasure, type Aggregate, type Measure } from "./measure.js";
import { findFamily } from "./registry.js";

type Value = number | string | boolean | Readonly<Record<number, number>>;
type P = Readonly<Record<string, Value | undefined>>;
type ValueType = "int" | "float" | "str" | "bool" | "dict";

/** ir_measures' ParamInfo. */
interface Param {
  readonly type: ValueType;
  readonly default?: Value;
  readonly choices?: readonly Value[];
  /** ParamInfo required=True, or its provider's Any(required=True). */
  readonly required?: boolean;
}

/** What a name computes. */
interface Built {
  readonly family: string;
  readonly k?: number;
  readonly params?: Readonly<Record<string, number>>;
  readonly fixed?: ExplicitOptions;
  readonly conventions?: ExplicitOptions;
  readonly aggregate?: Aggregate;
}

interface Entry {
  /** ir_measures' __name__. */
  readonly name: string;
  /** The parameter `@` sets (AT_PARAM). */
  readonly at: "cutoff" | "recall" | null;
  readonly atRequired: boolean;
  /** SUPPORTED_PARAMS. */
  readonly params: Readonly<Record<string, Param>>;
  readonly build: (p: P, word: string) => Built;
}

const INT: Param = { type: "int" };
const REL: Param = { type: "int", default: 1 };
const JUDGED_ONLY: Param = { type: "bool", default: false };
/** cwl_eval's gains: (label - min_rel) / (max_rel - min_rel), clipped. */
const MIN_REL: Param = { type: "int", default: 0 };
const MAX_REL: Param = { type: "int", required: true };
const T: Param = { type: "float", default: 1 };
/** pyndeval's alpha and beta. */
const ALPHA: Param = { type: "float", default: 0.5 };

/** max_rel must exceed min_rel (IrmQrelHandler asserts it). */
const scale = (p: P, word: string) => {
  const min = (p.min_rel ?? 0) as number;
  const max = p.max_rel as number;
  if (!(min < max))
    throw fail(word, `min_rel (${min}) must be less than max_rel (${max}) (cwl_eval scales the gains between them)`);
  return { min, max };
};

const fail = (word: string, why: string) => new RankevalError("bad-measure", `ir_measures measure "${word}": ${why}`);

/** `rel` is "minimum relevance score ... inclusive": the threshold. */
const rel = (p: P): ExplicitOptions =>
  p.rel === undefined || p.rel === 1 ? {} : { relevanceThreshold: p.rel as number };

const cut = (p: P) => (p.cutoff ?? 0) as number;

/** A row; `at` and `atRequired` keep their literal types for the name types. */
const row = <const N extends string, const A extends "cutoff" | "recall" | null, const R extends boolean>(
  name: N,
  at: A,
  atRequired: R,
  params: Readonly<Record<string, Param>>,
  build: (p: P, word: string) => Built,
) => ({ name, at, atRequired, params, build });
const RJ = { rel: REL, judged_only: JUDGED_ONLY };
/** Parameters `rel` (and `judged_only` unless `judged` is false). */
const relRow = <const N extends string, const A extends "cutoff" | null, const R extends boolean>(
  name: N,
  family: string,
  at: A,
  atRequired: R,
  judged = true,
) => row(name, at, atRequired, judged ? RJ : { rel: REL }, (p) => ({ family, k: cut(p), fixed: rel(p) }));
/** A cwl_eval measure, with its own parameter `own` (T or p). */
const cwlRow = <const N extends string, const A extends "cutoff" | null, const R extends boolean>(
  name: N,
  family: string,
  at: A,
  atRequired: R,
  own?: { key: string; as: string; param: Param },
) =>
  row(
    name,
    at,
    atRequired,
    { ...(own ? { [own.key]: own.param } : {}), min_rel: MIN_REL, max_rel: MAX_REL },
    (p, word) => ({
      family,
      k: cut(p),
      params: { ...(own ? { [own.as]: (p[own.key] ?? own.param.default) as number } : {}), ...scale(p, word) },
    }),
  );
const WITH_T = { key: "T", as: "t", param: T };
const alphaRow = <const N extends string>(name: N, family: string) =>
  row(name, "cutoff", true, { rel: REL, alpha: ALPHA, judged_only: JUDGED_ONLY }, (p) => ({
    family,
    k: cut(p),
    params: { alpha: (p.alpha ?? 0.5) as number },
    fixed: rel(p),
  }));
const ALPHA_BETA = { rel: REL, alpha: ALPHA, beta: ALPHA };
const alphaBeta = (p: P) => ({ alpha: (p.alpha ?? 0.5) as number, beta: (p.beta ?? 0.5) as number });

/** Each measure as its DefaultPipeline provider computes it. */
const ENTRY_DATA = [
  // pytrec_eval; RR with a cutoff: MS MARCO's MRR (msmarco_provider.py)
  relRow("P", "precision", "cutoff", true),
  relRow("R", "recall", "cutoff", true),
  relRow("AP", "map", "cutoff", false),
  relRow("RR", "mrr", "cutoff", false),
  row(
    "nDCG",
    "cutoff",
    false,
    {
      dcg: { type: "str", default: "log2", choices: ["log2", "exp-log2"] },
      gains: { type: "dict" },
      judged_only: JUDGED_ONLY,
    },
    (p, word) => {
      if (p.dcg === "exp-log2") {
        if (p.gains !== undefined)
          throw fail(word, "no ir_measures provider computes nDCG with both dcg='exp-log2' and gains");
        // Without a cutoff gdeval passes and ranx computes it (ndcg_burges).
        if (p.cutoff === undefined) return { family: "ndcg", fixed: { gain: "exp" }, conventions: RANX };
        // gdeval: 2^label - 1.
        return { family: "ndcg", k: cut(p), fixed: { gain: "exp" }, conventions: GDEVAL };
      }
      if (p.gains !== undefined)
        return { family: "ndcg", k: cut(p), fixed: { gain: gainsOf(p.gains as Record<number, number>, word) } };
      return { family: "ndcg", k: cut(p) };
    },
  ),
  relRow("Rprec", "r-precision", null, false),
  relRow("Bpref", "bpref", null, false, false),
  relRow("infAP", "infap", null, false, false),
  // num_ret, or num_rel_ret with rel; summed (SumAgg).
  row("NumRet", null, false, { rel: INT }, (p) =>
    p.rel === undefined
      ? { family: "num_ret", aggregate: "sum" }
      : { family: "num_rel_ret", fixed: { relevanceThreshold: p.rel as number }, aggregate: "sum" },
  ),
  row("NumRel", null, false, { rel: { type: "int", default: 1, choices: [1] } }, () => ({
    family: "num_rel",
    aggregate: "sum",
  })),
  row("SetP", null, false, { rel: REL, relative: { type: "bool", default: false }, judged_only: JUDGED_ONLY }, (p) => ({
    family: p.relative === true ? "set_relative_p" : "set_p",
    fixed: rel(p),
  })),
  relRow("SetR", "set_recall", null, false, false),
  row("SetF", null, false, { rel: REL, beta: { type: "float", default: 1 }, judged_only: JUDGED_ONLY }, (p) => ({
    family: "set_f",
    params: { beta: (p.beta ?? 1) as number },
    fixed: rel(p),
  })),
  relRow("SetAP", "set_map", null, false),
  relRow("Success", "hit_rate", "cutoff", true),
  // pytrec_eval prints iprec_at_recall_%.2f: the level is rounded to two places.
  row("IPrec", "recall", true, RJ, (p) => ({
    family: "iprec_at_recall",
    params: { recall: Number(formatFixed(p.recall as number, 2, 0)) },
    fixed: rel(p),
  })),
  row("Judged", "cutoff", true, {}, (p) => ({ family: "judged", k: cut(p) })),
  // cwl_eval
  row(
    "SDCG",
    "cutoff",
    true,
    { dcg: { type: "str", default: "log2", choices: ["log2"] }, min_rel: MIN_REL, max_rel: MAX_REL },
    (p, word) => ({ family: "sdcg", k: cut(p), params: scale(p, word) }),
  ),
  cwlRow("INST", "inst", null, false, WITH_T),
  cwlRow("INSQ", "insq", null, false, WITH_T),
  cwlRow("NERR8", "nerr8", "cutoff", true),
  cwlRow("NERR9", "nerr9", "cutoff", true),
  cwlRow("NERR10", "nerr10", null, false, { key: "p", as: "p", param: { type: "float", default: 0.9 } }),
  cwlRow("NERR11", "nerr11", null, false, WITH_T),
  cwlRow("BPM", "bpm", "cutoff", true, WITH_T),
  // cwl_eval's RBP: binary gains (rel), depth 1000, no cutoff.
  row(
    "RBP",
    "cutoff",
    false,
    { p: { type: "float", default: 0.8 }, rel: { type: "int", required: true } },
    (p, word) => {
      if (p.cutoff !== undefined) throw fail(word, "ir_measures computes RBP with cwl_eval, which takes no cutoff");
      return {
        family: "rbp_cwl",
        params: { p: (p.p ?? 0.8) as number },
        fixed: { relevanceThreshold: p.rel as number },
      };
    },
  ),
  row(
    "Compat",
    null,
    false,
    { p: { type: "float", default: 0.95 }, normalize: { type: "bool", default: true } },
    (p) => ({ family: "compat", params: { p: (p.p ?? 0.95) as number, normalize: p.normalize === false ? 0 : 1 } }),
  ),
  relRow("Accuracy", "accuracy", "cutoff", false, false),
  // 1 per query, summed (SumAgg).
  row("NumQ", null, false, {}, () => ({ family: "numq", aggregate: "sum" })),
  // pyndeval; a cutoff is needed (it reads ERR-IA@k).
  relRow("ERR_IA", "err_ia", "cutoff", true),
  relRow("nERR_IA", "nerr_ia", "cutoff", true),
  alphaRow("alpha_DCG", "alpha_dcg"),
  alphaRow("alpha_nDCG", "alpha_ndcg"),
  row("NRBP", null, false, ALPHA_BETA, (p) => ({ family: "nrbp", params: alphaBeta(p), fixed: rel(p) })),
  // 0/0 without a relevant subtopic: NaN.
  row("nNRBP", null, false, ALPHA_BETA, (p) => ({
    family: "nnrbp",
    params: alphaBeta(p),
    fixed: { ...rel(p), noRelevant: "nan" },
  })),
  relRow("AP_IA", "map_ia", null, false),
  relRow("P_IA", "p_ia", "cutoff", true),
  relRow("STREC", "strec", "cutoff", true, false),
  // gdeval: grades up to 4 ($MAX_JUDGMENT); no provider computes it without a cutoff.
  row("ERR", "cutoff", true, {}, (p) => ({ family: "err", k: cut(p), params: { max: 4 }, conventions: GDEVAL })),
] as const satisfies readonly Entry[];
const ENTRIES: readonly Entry[] = ENTRY_DATA;

/** For the measure name types. */
export type IrMeasuresTable = typeof ENTRY_DATA;

/** measures.register's aliases and presets registered by name. */
const ALIAS_DATA = {
  MAP: { of: "AP" },
  MRR: { of: "RR" },
  NDCG: { of: "nDCG" },
  Precision: { of: "P" },
  Recall: { of: "R" },
  RPrec: { of: "Rprec" },
  BPref: { of: "Bpref" },
  NumRelRet: { of: "NumRet", preset: { rel: 1 } },
  SetRelP: { of: "SetP", preset: { relative: true } },
  MAP_IA: { of: "AP_IA" },
  StRecall: { of: "STREC" },
  α_DCG: { of: "alpha_DCG" },
  α_nDCG: { of: "alpha_nDCG" },
} as const;
const ALIASES: Readonly<Record<string, { readonly of: string; readonly preset?: Readonly<Record<string, Value>> }>> =
  ALIAS_DATA;

/** For the measure name types. */
export type IrMeasuresAliases = typeof ALIAS_DATA;

const BY_NAME = new Map(ENTRIES.map((e) => [e.name, e]));

/** For "did you mean". */
export const IR_MEASURES_NAMES: readonly string[] = [...ENTRIES.map((e) => e.name), ...Object.keys(ALIASES)];

const WORD = /^([A-Za-z_α][A-Za-z0-9_]*)(?:\((.*)\))?(?:@(.*))?$/s;

/** An ir_measures word as a measure, or null if it starts with no ir_measures name. */
export function parseIrMeasure(word: string): Measure | null {
  const m = WORD.exec(word);
  if (!m || !IR_MEASURES_NAMES.includes(m[1])) return null;
  const [, written, paramText, atText] = m;
  const alias = Object.hasOwn(ALIASES, written) ? ALIASES[written] : undefined;
  const entry = BY_NAME.get(alias?.of ?? written)!;
  // In ir_measures' dict order: an alias's presets first (one given again keeps its place).
  const given = new Map<string, { value: Value; text: string }>();
  for (const [key, value] of Object.entries(alias?.preset ?? {})) given.set(key, { value, text: repr(value, false) });
  if (paramText !== undefined) {
    for (const item of splitTopLevel(paramText)) {
      const eq = item.indexOf("=");
      const key = item.slice(0, eq).trim();
      if (eq < 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
        throw fail(word, `"${item.trim()}" is not a named parameter (as rel=2)`);
      const spec =
        entry.at !== null && key === entry.at
          ? atParam(entry.at)
          : Object.hasOwn(entry.params, key)
            ? entry.params[key]
            : undefined;
      if (!spec) {
        const known = [...(entry.at ? [entry.at] : []), ...Object.keys(entry.params)];
        throw fail(
          word,
          `${entry.name} has no parameter "${key}"${known.length ? ` (its parameters: ${known.join(", ")})` : ""}`,
        );
      }
      if (given.has(key) && !Object.hasOwn(alias?.preset ?? {}, key)) throw fail(word, `parameter ${key} given twice`);
      given.set(key, literal(item.slice(eq + 1).trim(), spec, key, word));
    }
  }
  if (atText !== undefined) {
    if (entry.at === null) throw fail(word, `${entry.name} takes no cutoff`);
    const parts = atText.split(",");
    if (parts.length > 1) {
      const separate = [
        `${written}${paramText === undefined ? "" : `(${paramText})`}@${parts[0]}`,
        ...parts.slice(1),
      ].join(" ");
      throw fail(
        word,
        `"@${atText}" is not one ${entry.at}: ir_measures takes one per measure; give several measures as separate words or -m options (${separate})`,
      );
    }
    given.set(entry.at, literal(atText, atParam(entry.at), entry.at, word));
  }
  const values: Record<string, Value | undefined> = {};
  for (const [key, { value }] of given) values[key] = value;
  // (Every entry's choices come before its required parameters.)
  for (const [key, spec] of Object.entries(entry.params)) {
    if (spec.choices && values[key] !== undefined && !spec.choices.includes(values[key]!)) {
      throw fail(
        word,
        `${key}=${repr(values[key]!, false)} is not one of ${spec.choices.map((c) => repr(c, false)).join(", ")}${entry.name === "NumRel" ? " (pytrec_eval computes NumRel only at rel=1)" : ""}`,
      );
    }
    if (spec.required && values[key] === undefined)
      throw fail(word, `${entry.name} needs ${key} (as ${entry.name}(${key}=${key === "max_rel" ? 3 : 1}))`);
  }
  if (entry.at !== null && entry.atRequired && values[entry.at] === undefined) {
    const why = entry.name === "ERR" ? " (ir_measures computes ERR with gdeval, which needs one)" : "";
    throw fail(
      word,
      `${entry.name} needs ${entry.at === "cutoff" ? "a cutoff" : "a recall level"}${why}, as ${entry.name}@${entry.at === "cutoff" ? (entry.name === "ERR" ? 20 : 10) : 0.5}`,
    );
  }
  const { cutoff: k, recall } = values as Record<string, number | undefined>;
  if (entry.at === "cutoff" && k !== undefined && !(k > 0 && k <= 2 ** 31 - 1))
    throw fail(word, `cutoff ${k} is not a positive integer`);
  if (entry.at === "recall" && recall !== undefined && !(recall >= 0 && recall <= 1))
    throw fail(word, `recall level ${recall} is not from 0 to 1`);
  let built = entry.build(values, word);
  // judged_only=True: -J, where the provider takes it.
  if (values.judged_only === true) {
    const provider =
      built.conventions === GDEVAL || built.conventions === RANX
        ? "gdeval or ranx"
        : entry.name === "RR" && values.cutoff !== undefined
          ? "MS MARCO's RR@k"
          : null;
    if (provider)
      throw fail(word, `judged_only=True: ir_measures computes this with ${provider}, which does not take it`);
    built = { ...built, fixed: { ...built.fixed, judgedOnly: true } };
  }
  const family = findFamily(built.family)!;
  const shown = [...given].filter(
    ([key, { value }]) =>
      key !== entry.at && !(Object.hasOwn(entry.params, key) && entry.params[key].default === value),
  );
  const at = entry.at !== null ? given.get(entry.at) : undefined;
  const name = `${entry.name}${shown.length ? `(${shown.map(([key, { text }]) => `${key}=${text}`).join(",")})` : ""}${at ? `@${at.text}` : ""}`;
  return makeMeasure(family, built.k ?? 0, built.params ?? {}, {
    tool: "ir_measures",
    name,
    conventions: built.conventions ?? IR_MEASURES,
    fixed: built.fixed ?? {},
    aggregate: built.aggregate ?? "mean",
  });
}

function atParam(at: "cutoff" | "recall"): Param {
  return at === "cutoff" ? INT : { type: "float" };
}

/** Splits `a=1, b={0:1,1:2}, c='x,y'` at the commas outside braces and quotes. */
function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "," && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

const INT_TEXT = /^[+-]?[0-9]+$/;
const FLOAT_TEXT = /^[+-]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** A Python literal of the parameter's type (ParamInfo.validate), with its repr. */
function literal(text: string, spec: Param, key: string, word: string): { value: Value; text: string } {
  const wrong = (what: string) => fail(word, `${key}=${text} is not ${what}`);
  const of = (value: Value, isFloat = false) => ({ value, text: repr(value, isFloat) });
  switch (spec.type) {
    case "int":
      if (!INT_TEXT.test(text)) throw wrong("an integer");
      return of(Number(text));
    case "float":
      // isinstance(v, float); an integer is read as one.
      if (!FLOAT_TEXT.test(text)) throw wrong("a number");
      return of(Number(text), /[.eE]/.test(text));
    case "str": {
      const m = /^(['"])(.*)\1$/.exec(text);
      if (!m) throw wrong("a quoted string (as 'exp-log2')");
      return of(m[2]);
    }
    case "bool":
      if (text === "True") return of(true);
      if (text === "False") return of(false);
      throw wrong("True or False");
    case "dict": {
      const m = /^\{(.*)\}$/.exec(text);
      if (!m) throw wrong("a dict of label: gain (as {1:3,2:9})");
      const table: Record<number, number> = {};
      for (const item of m[1].split(",")) {
        if (item.trim() === "") continue;
        const [l, g] = item.split(":").map((s) => s?.trim());
        if (l === undefined || g === undefined || !INT_TEXT.test(l) || !FLOAT_TEXT.test(g))
          throw wrong("a dict of integer label: number (as {1:3,2:9})");
        table[Number(l)] = Number(g);
      }
      return of(table);
    }
  }
}

/** Python's repr, as Measure._param_repr prints parameters; 1.0 for a float 1. */
function repr(v: Value, isFloat: boolean): string {
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "string") return `'${v}'`;
  if (typeof v === "number") return isFloat && Number.isInteger(v) ? `${v}.0` : String(v);
  // dicts: by key, entries mapping a key to itself left out
  return `{${Object.entries(v)
    .map(([k, g]) => [Number(k), g] as const)
    .sort((a, b) => a[0] - b[0])
    .filter(([k, g]) => k !== g)
    .map(([k, g]) => `${k}:${g}`)
    .join(",")}}`;
}

/** pytrec_eval's `gains` (gains.get(label, label)) as a gain table; labels <= 0 may only gain 0. */
function gainsOf(table: Readonly<Record<number, number>>, word: string) {
  const positive: Record<number, number> = {};
  for (const [label, gain] of Object.entries(table)) {
    const l = Number(label);
    if (l <= 0) {
      if (gain !== 0)
        throw fail(word, `gains: rankeval gives label ${l} no gain (labels <= 0 always gain 0), not ${gain}`);
      continue;
    }
    positive[l] = gain;
  }
  try {
    return gainTableOf(positive);
  } catch (e) {
    throw fail(word, (e as Error).message);
  }
}
