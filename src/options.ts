import { RankevalError } from "./errors.js";
import { didYouMean } from "./measures/suggest.js";
import { PRESETS, presetName, type PresetName } from "./presets.js";

/**
 * The conventions on which ranking tools disagree, written once. Every report prints them (see
 * `describeOptions`), so a number never travels without the conventions that made it.
 */
export interface Options {
  /**
   * Gain of a judged label in DCG-based measures. `"exp"` is 2^rel − 1 (Burges et al. 2005; LightGBM,
   * XGBoost, ptranking, gdeval); `"linear"` is rel itself (trec_eval, ranx `ndcg`, scikit-learn). A
   * table maps integer labels >= 1 to gains >= 0; labels it does not list keep their linear gain
   * (trec_eval's `ndcg.1=3,2=9`). Labels <= 0 and unjudged documents always gain 0.
   * @default "exp"
   */
  gain?: "exp" | "linear" | Readonly<Record<number, number>>;
  /**
   * Binary measures (P, recall, MAP, MRR, ...) count a document as relevant when its label is at least
   * this (trec_eval's `-l`). At least 0: with 0, every document judged with a label >= 0 is relevant
   * (documents without a judgment or with a negative label never are). trec_eval's `-l` below 0,
   * which counts those at their ranks but not in R, is the command line's (src/trec/exact.ts).
   * @default 1
   */
  relevanceThreshold?: number;
  /**
   * What a query without any relevant judged document scores in the measures that need one (see the
   * README): `"zero"` (trec_eval), `"one"` (LightGBM, XGBoost), `"skip"` (left out of every mean, as
   * PyTorch-Ignite's ignore_zero_hits) or `"nan"` (NaN for those measures; means skip NaN).
   * @default "zero"
   */
  noRelevant?: "zero" | "one" | "skip" | "nan";
  /**
   * A cutoff k beyond the query's ranked list of N documents: `"pad"` treats the missing ranks as
   * non-relevant (trec_eval: P@k divides by k), `"clip"` reads the measure at k = N (LightGBM's and
   * TF-Ranking's "k clamped to n": P@k divides by N, nDCG's ideal ranking is cut at N too), `"nan"`
   * gives NaN and means skip it (the MSLR notebook), `"zero"` gives 0 (ptranking pads its P@k, AP@k,
   * nDCG@k and ERR@k with 0).
   * @default "pad"
   */
  beyondList?: "pad" | "clip" | "nan" | "zero";
  /**
   * Keep only the top `depth` documents of each ranking after sorting (trec_eval's `-M`); 0 keeps none.
   * @default Infinity
   */
  depth?: number;
  /**
   * Rank only the judged documents: after the `depth` cut, documents without a judgment or with a
   * negative label leave the ranking and the ranks below close up (trec_eval's `-J`, which it applies
   * after `-M`, so fewer than `depth` may remain). Judgments are kept whole (R, the ideal ranking).
   * @default false
   */
  judgedOnly?: boolean;
  /**
   * The order of equal scores, the first cause of numbers that differ between tools. `"docid"`: by
   * document id, descending in UTF-8 byte order (trec_eval, pytrec_eval, ir_measures); rows without ids
   * keep their input order. `"input"`: input order (the row or file order within the query) even when
   * ids are given, as a stable sort by score does (Python's `sorted(..., reverse=True)`, most short
   * evaluation helpers). The tie-aware orders: `"average"` is the mean of the measure over every
   * order of each run of tied documents, computed exactly in closed form (McSherry & Najork 2008;
   * scikit-learn's ndcg_score), for the measures that have one; `"best"` and `"worst"` put, within
   * each run of equal scores, higher labels first or last (ties among equal labels in input order).
   * @default "docid"
   */
  ties?: Ties;
  /**
   * A tool's conventions and measure definitions in one word (see `PRESETS`): `"xgboost"` gives the
   * numbers XGBoost prints. It stands above the conventions a tool's measure name carries and below
   * the other options given here and a measure's own parameters.
   */
  preset?: PresetName;
  /**
   * Also compute every measure with ties "worst" and "best" (`Result.tieRange`): how far the order
   * of tied documents alone can move each number. Not a convention: the values stay those of `ties`.
   * @default false
   */
  tieRange?: boolean;
}

/** Tie orders: see `Options.ties`. */
export type Ties = "docid" | "input" | "average" | "best" | "worst";
export const TIES: readonly Ties[] = ["docid", "input", "average", "best", "worst"];
export const BEYOND_LIST: readonly ResolvedOptions["beyondList"][] = ["pad", "clip", "nan", "zero"];

export type GainTable = ReadonlyMap<number, number>;

/** Options with every default filled in and every value checked. */
export interface ResolvedOptions {
  gain: "exp" | "linear" | GainTable;
  relevanceThreshold: number;
  noRelevant: "zero" | "one" | "skip" | "nan";
  beyondList: "pad" | "clip" | "nan" | "zero";
  depth: number;
  judgedOnly: boolean;
  ties: Ties;
  /** The preset the options came from (printed with them), if one was given. */
  preset?: PresetName;
}

/** The one place where defaults live. */
export const DEFAULT_OPTIONS: Readonly<ResolvedOptions> = Object.freeze({
  gain: "exp",
  relevanceThreshold: 1,
  noRelevant: "zero",
  beyondList: "pad",
  depth: Infinity,
  judgedOnly: false,
  ties: "docid",
});

/** The options a user set, checked: only the keys given (each convention's value as resolved). */
export type ExplicitOptions = Readonly<Partial<ResolvedOptions>>;

/** The keys of `Options`, for checking that no other key was given. */
const OPTION_KEYS: readonly (keyof Options)[] = ["gain", "relevanceThreshold", "noRelevant", "beyondList", "depth", "judgedOnly", "ties", "preset", "tieRange"];

/**
 * Checks the options a user gave and returns only those they set (undefined counts as not set), so
 * that a measure's tool can supply its own conventions for the rest (see `measureOptions`). An
 * unknown key is an error naming it: a misspelled option would otherwise change nothing, silently.
 */
export function explicitOptions(options: Options = {}): ExplicitOptions {
  const bad = (what: string) => new RankevalError("bad-option", what);
  if (options === null || typeof options !== "object") throw bad(`options must be an object, not ${options === null ? "null" : typeof options}`);
  for (const key of Object.keys(options)) {
    if ((OPTION_KEYS as readonly string[]).includes(key)) continue;
    throw bad(`unknown option "${key}"${didYouMean(key, OPTION_KEYS)} (the options are ${OPTION_KEYS.join(", ")})`);
  }
  const r: Partial<ResolvedOptions> = {};
  if (options.gain !== undefined) {
    const g = options.gain;
    if (g === "exp" || g === "linear") r.gain = g;
    else if (typeof g === "object" && g !== null) r.gain = gainTableOf(g);
    else throw bad(`gain must be "exp", "linear" or a table of label: gain, not ${JSON.stringify(g)}`);
  }
  if (options.relevanceThreshold !== undefined) {
    // Negative labels mark judged-but-unjudged documents (trec_eval), never relevant: the threshold is >= 0.
    if (!(Number.isFinite(options.relevanceThreshold) && options.relevanceThreshold >= 0)) throw bad(`relevanceThreshold must be a number >= 0, not ${options.relevanceThreshold}`);
    r.relevanceThreshold = options.relevanceThreshold;
  }
  if (options.noRelevant !== undefined) {
    if (!["zero", "one", "skip", "nan"].includes(options.noRelevant)) throw bad(`noRelevant must be "zero", "one", "skip" or "nan", not ${JSON.stringify(options.noRelevant)}`);
    r.noRelevant = options.noRelevant;
  }
  if (options.beyondList !== undefined) {
    if (!BEYOND_LIST.includes(options.beyondList)) throw bad(`beyondList must be ${orList(BEYOND_LIST)}, not ${JSON.stringify(options.beyondList)}`);
    r.beyondList = options.beyondList;
  }
  if (options.depth !== undefined) {
    if (!(options.depth === Infinity || (Number.isInteger(options.depth) && options.depth >= 0))) throw bad(`depth must be an integer >= 0, not ${options.depth}`);
    r.depth = options.depth;
  }
  if (options.judgedOnly !== undefined) {
    if (typeof options.judgedOnly !== "boolean") throw bad(`judgedOnly must be true or false, not ${JSON.stringify(options.judgedOnly)}`);
    r.judgedOnly = options.judgedOnly;
  }
  if (options.ties !== undefined) {
    if (!TIES.includes(options.ties)) throw bad(`ties must be ${orList(TIES)}, not ${JSON.stringify(options.ties)}`);
    r.ties = options.ties;
  }
  if (options.preset !== undefined) r.preset = presetName(options.preset);
  if (options.tieRange !== undefined && typeof options.tieRange !== "boolean") throw bad(`tieRange must be true or false, not ${JSON.stringify(options.tieRange)}`);
  return r;
}

/** `"a", "b" or "c"`. */
function orList(values: readonly string[]): string {
  const q = values.map((v) => JSON.stringify(v));
  return `${q.slice(0, -1).join(", ")} or ${q[q.length - 1]}`;
}

/** Whether the options ask for the tie range (see `Options.tieRange`). */
export function wantsTieRange(options: Options | undefined): boolean {
  return options?.tieRange === true;
}

/** A gain table (label: gain) as the kernel and the reference read it, checked. */
export function gainTableOf(g: Readonly<Record<number, number>>): GainTable {
  const bad = (what: string) => new RankevalError("bad-option", what);
  const table = new Map<number, number>();
  for (const [label, gain] of Object.entries(g)) {
    const l = Number(label);
    if (!Number.isInteger(l) || l < 1 || l > 1_000_000) throw bad(`gain table: label "${label}" is not an integer from 1 to 1000000 (labels <= 0 always gain 0)`);
    if (typeof gain !== "number" || !Number.isFinite(gain) || gain < 0) throw bad(`gain table: gain of label ${label} must be a finite number >= 0, not ${gain}`);
    table.set(l, gain);
  }
  return table;
}

/**
 * The options with every default filled in: the library's defaults, under the preset's conventions
 * (if one is given), under the other options given.
 */
export function resolveOptions(options: Options = {}): ResolvedOptions {
  return overPreset(DEFAULT_OPTIONS, explicitOptions(options));
}

/**
 * `base` under the explicit options, the preset first: `{ ...base, ...preset's conventions,
 * ...the other options given }`, with the preset's name kept for the description.
 */
export function overPreset(base: Readonly<ResolvedOptions>, explicit: ExplicitOptions): ResolvedOptions {
  const { preset, ...rest } = explicit;
  if (preset === undefined) return { ...base, ...rest };
  return { ...base, ...PRESETS[preset].conventions, ...rest, preset };
}

/**
 * Which conventions can change a measure's value (src/measures/registry.ts says per family): the
 * description of a measure's options names only those, so measures computed alike share one line.
 */
export interface DependsOn {
  /** gain (and its table): the gain-based families. */
  readonly gain: boolean;
  /** relevanceThreshold: the binary families. */
  readonly threshold: boolean;
  /** noRelevant: the families that need a relevant document. */
  readonly noRelevant: boolean;
  /** beyondList: a measure with a cutoff. */
  readonly beyondList: boolean;
  /** ties: the families whose value depends on the order of the ranking. */
  readonly ties: boolean;
}

const EVERYTHING: DependsOn = { gain: true, threshold: true, noRelevant: true, beyondList: true, ties: true };

/**
 * One line naming the conventions, printed with every report: all of them (`describeOptions(o)`), or
 * those a measure depends on (`describeOptions(o, dependsOn)`). A noRelevant other than "zero" decides
 * by R, the relevant documents at the threshold, so it brings the threshold in; "skip" takes a query
 * out of every measure's mean, so it is printed for every measure. The preset, depth and judgedOnly,
 * when set, always.
 */
export function describeOptions(o: ResolvedOptions, on: DependsOn = EVERYTHING): string {
  const parts: string[] = [];
  if (o.preset !== undefined) parts.push(`preset=${o.preset}`);
  const skip = o.noRelevant === "skip";
  if (on.gain) parts.push(`gain=${typeof o.gain === "string" ? o.gain : `{${[...o.gain].map(([l, g]) => `${l}:${g}`).join(",")}}`}`);
  if (on.threshold || skip || (on.noRelevant && o.noRelevant !== "zero")) parts.push(`relevanceThreshold=${o.relevanceThreshold}`);
  if (on.noRelevant || skip) parts.push(`noRelevant=${o.noRelevant}`);
  if (on.beyondList) parts.push(`beyondList=${o.beyondList}`);
  // ties is printed always where it matters, the default too: it is the convention readers most often assume wrongly.
  if (on.ties) parts.push(`ties=${o.ties}`);
  if (o.depth !== Infinity) parts.push(`depth=${o.depth}`);
  if (o.judgedOnly) parts.push("judgedOnly=true");
  return parts.join(" ");
}

/** The order in which a description names the conventions. */
const DESCRIBED = ["preset", "gain", "relevanceThreshold", "noRelevant", "beyondList", "ties", "depth", "judgedOnly", "definition"];

/**
 * Descriptions of measures' conventions (`[tool: ]key=value ...`, as `describeMeasureOptions` makes
 * them) merged where they agree: two measures share a line when every convention both name has the
 * same value in both, and their definitions (a preset's `definition=`) are the same. A merged line
 * names the union of their conventions, prefixed with the tool when all its measures are one tool's
 * other than rankeval. So `ndcg@10` (gain=exp ... ties=docid) and trec_eval's `map` (relevanceThreshold=1
 * noRelevant=zero ties=docid: gain never changes MAP) share one line. A description that is not made
 * of key=value pairs merges only with the same text. Returns the lines, for each description given
 * the index of the line it was merged into, and `fits(description, line)`: whether the description
 * agrees with a line (a measure that depends on fewer conventions fits several).
 */
export function mergeConventions(descriptions: readonly string[]): {
  lines: string[];
  index: number[];
  fits: (description: string, line: number) => boolean;
} {
  const parse = (d: string) => {
    const colon = d.indexOf(": ");
    const tool = colon >= 0 && !d.slice(0, colon).includes("=") ? d.slice(0, colon) : null;
    const values = new Map<string, string>();
    const tokens = (tool === null ? d : d.slice(colon + 2)).split(" ").filter((t) => t !== "");
    // Opaque text: it merges only with itself.
    if (tokens.some((t) => t.indexOf("=") <= 0)) values.set("\0text", d);
    else for (const t of tokens) values.set(t.slice(0, t.indexOf("=")), t.slice(t.indexOf("=") + 1));
    return { tool, values };
  };
  const entries: { tools: Set<string | null>; values: Map<string, string> }[] = [];
  const agrees = (values: Map<string, string>, e: { values: Map<string, string> }) =>
    e.values.get("definition") === values.get("definition") &&
    e.values.get("\0text") === values.get("\0text") &&
    [...values].every(([k, v]) => !e.values.has(k) || e.values.get(k) === v);
  const index = descriptions.map((d) => {
    const { tool, values } = parse(d);
    const at = entries.findIndex((e) => agrees(values, e));
    if (at >= 0) {
      for (const [k, v] of values) entries[at].values.set(k, v);
      entries[at].tools.add(tool);
      return at;
    }
    entries.push({ tools: new Set([tool]), values: new Map(values) });
    return entries.length - 1;
  });
  const lines = entries.map((e) => {
    if (e.values.has("\0text")) return e.values.get("\0text")!;
    const tools = [...e.tools];
    const prefix = tools.length === 1 && tools[0] !== null && tools[0] !== "rankeval" ? `${tools[0]}: ` : "";
    const known = DESCRIBED.filter((k) => e.values.has(k)).map((k) => `${k}=${e.values.get(k)}`);
    const other = [...e.values].filter(([k]) => !DESCRIBED.includes(k)).map(([k, v]) => `${k}=${v}`);
    return prefix + [...known, ...other].join(" ");
  });
  const fits = (description: string, line: number) => {
    const { tool, values } = parse(description);
    const e = entries[line];
    // A line that names its tool takes only that tool's measures.
    const named = lines[line].includes(": ") && !lines[line].startsWith("\0") ? [...e.tools][0] : undefined;
    return agrees(values, e) && (e.tools.size > 1 || named === undefined || named === null || named === "rankeval" || named === tool);
  };
  return { lines, index, fits };
}
