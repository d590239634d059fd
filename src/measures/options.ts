import {
  ANY,
  BOOLEAN,
  checkOptions,
  notAnObject,
  oneOf,
  RankevalError,
  shown,
  type OptionType,
} from "../errors/errors.js";
import { PRESETS, presetName, type PresetName } from "./presets.js";

const bad = (what: string) => new RankevalError("bad-option", what);

/** The conventions on which ranking tools disagree; every report prints them. */
export interface Options {
  /**
   * Gain of a label in DCG-based measures: `"exp"` 2^rel − 1 (LightGBM, XGBoost), `"linear"` rel
   * (trec_eval, ranx), or a table of labels >= 1 to gains (others linear). Labels <= 0 and unjudged gain 0.
   * @default "exp"
   */
  gain?: "exp" | "linear" | Readonly<Record<number, number>>;
  /**
   * Binary measures count labels >= this (>= 0) relevant (trec_eval's `-l`); never unjudged or negative ones.
   * @default 1
   */
  relevanceThreshold?: number;
  /**
   * A query without a relevant document scores `"zero"` (trec_eval), `"one"` (LightGBM, XGBoost),
   * `"skip"` (left out of every mean) or `"nan"` (means skip NaN) in measures that need one.
   * @default "zero"
   */
  noRelevant?: "zero" | "one" | "skip" | "nan";
  /**
   * A cutoff k past the list's N documents: `"pad"` missing ranks non-relevant (trec_eval), `"clip"`
   * k = N (LightGBM), `"nan"` NaN (skipped by means), `"zero"` 0.
   * @default "pad"
   */
  beyondList?: "pad" | "clip" | "nan" | "zero";
  /**
   * Keep each ranking's top `depth` documents after sorting (trec_eval's `-M`).
   * @default Infinity
   */
  depth?: number;
  /**
   * Rank only judged documents, after the `depth` cut (trec_eval's `-J`); judgments are kept whole.
   * @default false
   */
  judgedOnly?: boolean;
  /**
   * Order of equal scores: `"docid"` by id descending in UTF-8 bytes (trec_eval; no ids: input order),
   * `"input"`, `"average"` the exact mean over every tie order (measures with a closed form),
   * `"best"`/`"worst"` higher labels first/last.
   * @default "docid"
   */
  ties?: Ties;
  /**
   * A tool's conventions and definitions in one word (`PRESETS`): `"xgboost"` gives what XGBoost prints.
   * Overrides a measure name's tool, overridden by the other options.
   */
  preset?: PresetName;
  /**
   * Also compute every measure with ties "worst" and "best" (`Result.tieRange`); values stay `ties`'.
   * @default false
   */
  tieRange?: boolean;
  /**
   * How each mean's interval (`Result.interval`) is taken: `{ level: 0.9 }`, or `{ method: "bootstrap",
   * samples, seed }`. Not a convention: values stay the same.
   * @default { level: 0.95, method: "t" }
   */
  interval?: IntervalOptions;
  /**
   * evaluateRun and evaluateFiles: roll passages up to their documents before the join, a passage's
   * document being its id cut at the last `rollup` (`"#"`: `doc#3` is `doc`); the document's score by
   * `rollupMethod`. Not a convention: the run's rows change. `Result.prepared` counts them.
   */
  rollup?: string;
  /**
   * With `rollup`: a document's score is its best passage's (`"max"`, MaxP), the passages' sum (`"sum"`),
   * or its first passage's (`"first"`, FirstP: the passage of least number after the separator).
   * @default "max"
   */
  rollupMethod?: "max" | "sum" | "first";
  /**
   * evaluateRun and evaluateFiles: leave out each document whose id is its query's (BEIR's ArguAna and
   * Quora), after any rollup; `Result.prepared.selfDropped` counts them.
   * @default false
   */
  dropSelf?: boolean;
}

/** The options that prepare a run, not conventions of the measures. */
const RUN_PREPARATIONS: ReadonlySet<keyof Options> = new Set(["rollup", "rollupMethod", "dropSelf"]);

/** `Options.interval`. */
export interface IntervalOptions {
  /** The confidence level. @default 0.95 */
  level?: number;
  /** `"t"`: Student's t (scipy.stats.t.interval); `"bootstrap"`: percentile bootstrap. @default "t" */
  method?: "t" | "bootstrap";
  /** The bootstrap's resamples. @default 10000 */
  samples?: number;
  /** A safe integer >= 0. @default 42 */
  seed?: number;
}

/** Tie orders: see `Options.ties`. */
export type Ties = "docid" | "input" | "average" | "best" | "worst";
export const TIES: readonly Ties[] = ["docid", "input", "average", "best", "worst"];
export const BEYOND_LIST: readonly ResolvedOptions["beyondList"][] = ["pad", "clip", "nan", "zero"];

export type GainTable = ReadonlyMap<number, number>;

/** Options with defaults filled in, checked. */
export interface ResolvedOptions {
  gain: "exp" | "linear" | GainTable;
  relevanceThreshold: number;
  noRelevant: "zero" | "one" | "skip" | "nan";
  beyondList: "pad" | "clip" | "nan" | "zero";
  depth: number;
  judgedOnly: boolean;
  ties: Ties;
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

/** The options a user set, checked. */
export type ExplicitOptions = Readonly<Partial<ResolvedOptions>>;

/** Every option's key and type, for checkOptions (evaluateFiles adds its own); values: explicitOptions. */
export const OPTION_TYPES: Readonly<Record<keyof Options, OptionType>> = {
  gain: ANY,
  relevanceThreshold: ANY,
  noRelevant: ANY,
  beyondList: ANY,
  depth: ANY,
  judgedOnly: BOOLEAN,
  ties: ANY,
  preset: ANY,
  tieRange: BOOLEAN,
  interval: ANY,
  // runPreparation (src/pipeline/prepare-run.ts) checks them.
  rollup: ANY,
  rollupMethod: ANY,
  dropSelf: ANY,
};

/** Value checks (gain and preset have their own). */
const CHECKS: Partial<Record<keyof Options, OptionType>> = {
  relevanceThreshold: { test: (t) => typeof t === "number" && Number.isFinite(t) && t >= 0, is: "a number >= 0" },
  noRelevant: oneOf(["zero", "one", "skip", "nan"]),
  beyondList: oneOf(BEYOND_LIST),
  depth: { test: (d) => d === Infinity || (Number.isInteger(d) && (d as number) >= 0), is: "an integer >= 0" },
  ties: oneOf(TIES),
};

/**
 * The options set (not undefined), checked, so a measure's tool can supply the rest. An unknown key is
 * an error: a misspelling would otherwise change nothing.
 */
export function explicitOptions(options: Options = {}): ExplicitOptions {
  checkOptions(options, OPTION_TYPES);
  const r: Record<string, unknown> = {};
  for (const key of Object.keys(OPTION_TYPES) as (keyof Options)[]) {
    const v = options[key];
    if (v === undefined || key === "tieRange" || key === "interval" || RUN_PREPARATIONS.has(key)) continue;
    if (key === "gain") {
      if (v === "exp" || v === "linear") r.gain = v;
      else if (typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Map))
        r.gain = gainTableOf(v as Record<number, number>);
      else throw bad(`gain must be "exp", "linear" or an object of label: gain, not ${shown(v)}`);
    } else if (key === "preset") r.preset = presetName(v as string);
    else if (CHECKS[key] && !CHECKS[key].test(v)) throw bad(`${key} must be ${CHECKS[key].is}, not ${shown(v)}`);
    else r[key] = v;
  }
  return r as ExplicitOptions;
}

/** `Options.tieRange`. */
export function wantsTieRange(options: Options | undefined): boolean {
  return options?.tieRange === true;
}

/** A label: gain table, checked. */
export function gainTableOf(g: Readonly<Record<number, number>>): GainTable {
  const table = new Map<number, number>();
  for (const [label, gain] of Object.entries(g)) {
    const l = Number(label);
    if (!Number.isInteger(l) || l < 1 || l > 1_000_000)
      throw bad(`gain table: label ${shown(label)} is not an integer from 1 to 1000000 (labels <= 0 always gain 0)`);
    if (typeof gain !== "number" || !Number.isFinite(gain) || gain < 0)
      throw bad(`gain table: gain of label ${label} must be a finite number >= 0, not ${shown(gain)}`);
    table.set(l, gain);
  }
  return table;
}

/** The defaults, under the preset's conventions, under the other options given. */
export function resolveOptions(options: Options = {}): ResolvedOptions {
  return overPreset(DEFAULT_OPTIONS, explicitOptions(options));
}

/** `{ ...base, ...preset's conventions, ...the other options }`. */
export function overPreset(base: Readonly<ResolvedOptions>, explicit: ExplicitOptions): ResolvedOptions {
  const { preset, ...rest } = explicit;
  if (preset === undefined) return { ...base, ...rest };
  return { ...base, ...PRESETS[preset].conventions, ...rest, preset };
}

/** The conventions that can change a measure's value (its description names only those). */
export interface DependsOn {
  readonly gain: boolean;
  readonly threshold: boolean;
  readonly noRelevant: boolean;
  readonly beyondList: boolean;
  readonly ties: boolean;
}

const EVERYTHING: DependsOn = { gain: true, threshold: true, noRelevant: true, beyondList: true, ties: true };

/**
 * The conventions (those `on` names) in one line. noRelevant other than "zero" depends on R, so brings
 * the threshold; "skip" changes every mean, so is always printed.
 */
export function describeOptions(o: ResolvedOptions, on: DependsOn = EVERYTHING): string {
  if (notAnObject(o))
    throw new RankevalError("bad-option", `describeOptions: options must be resolveOptions()'s, not ${shown(o)}`);
  const parts: string[] = [];
  if (o.preset !== undefined) parts.push(`preset=${o.preset}`);
  const skip = o.noRelevant === "skip";
  if (on.gain)
    parts.push(
      `gain=${typeof o.gain === "string" ? o.gain : `{${[...o.gain].map(([l, g]) => `${l}:${g}`).join(",")}}`}`,
    );
  if (on.threshold || skip || (on.noRelevant && o.noRelevant !== "zero"))
    parts.push(`relevanceThreshold=${o.relevanceThreshold}`);
  if (on.noRelevant || skip) parts.push(`noRelevant=${o.noRelevant}`);
  if (on.beyondList) parts.push(`beyondList=${o.beyondList}`);
  // Even the default: the one readers most often assume wrongly.
  if (on.ties) parts.push(`ties=${o.ties}`);
  if (o.depth !== Infinity) parts.push(`depth=${o.depth}`);
  if (o.judgedOnly) parts.push("judgedOnly=true");
  return parts.join(" ");
}

/** The order in which a description names the conventions. */
const DESCRIBED = [
  "preset",
  "gain",
  "relevanceThreshold",
  "noRelevant",
  "beyondList",
  "ties",
  "depth",
  "judgedOnly",
  "definition",
];

/**
 * Convention descriptions (`[tool: ]key=value ...`) merged where one tool's (or none), the shared keys
 * and definitions agreeing; a line names the union, prefixed by its one tool (not rankeval). Other
 * text merges only with itself. Returns the lines, each description's line, and `fits`.
 */
export function mergeConventions(descriptions: readonly string[]) {
  const parse = (d: string) => {
    const colon = d.indexOf(": ");
    const tool = colon >= 0 && !d.slice(0, colon).includes("=") ? d.slice(0, colon) : null;
    const values = new Map<string, string>();
    const tokens = (tool === null ? d : d.slice(colon + 2)).split(" ").filter((t) => t !== "");
    if (tokens.some((t) => t.indexOf("=") <= 0)) values.set("\0text", d);
    else for (const t of tokens) values.set(t.slice(0, t.indexOf("=")), t.slice(t.indexOf("=") + 1));
    return { tool, values };
  };
  const entries: { tools: Set<string | null>; values: Map<string, string> }[] = [];
  // trec_eval's map keeps its own line beside rankeval's ndcg@10: else it reads as under gain=exp ...
  const sameTool = (tool: string | null, e: { tools: Set<string | null> }) =>
    tool === null || [...e.tools].every((t) => t === null || t === tool);
  const agrees = (tool: string | null, values: Map<string, string>, e: (typeof entries)[number]) =>
    sameTool(tool, e) &&
    e.values.get("definition") === values.get("definition") &&
    e.values.get("\0text") === values.get("\0text") &&
    [...values].every(([k, v]) => !e.values.has(k) || e.values.get(k) === v);
  const index = descriptions.map((d) => {
    const { tool, values } = parse(d);
    const at = entries.findIndex((e) => agrees(tool, values, e));
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
    return agrees(tool, values, entries[line]);
  };
  return { lines, index, fits };
}

/**
 * `Result.conventions`: `given` where every measure was computed under it, else the measures' own
 * merged (`[ndcg@10] gain=exp ...; [ndcg_cut_10] trec_eval: ...`).
 */
export function conventionsLine(rows: readonly { name: string; conventions: string }[], given?: string): string {
  let key = given ?? "\0";
  for (const r of rows) key += `\u0001${r.name}\u0002${r.conventions}`;
  let line = linesMade.get(key);
  if (line === undefined) {
    if (linesMade.size >= 256) linesMade.clear();
    linesMade.set(key, (line = lineOf(rows, given)));
  }
  return line;
}

/** conventionsLine's answers by its input: a training loop asks the same each call (15% of a small evaluateRun). */
const linesMade = new Map<string, string>();

function lineOf(rows: readonly { name: string; conventions: string }[], given?: string): string {
  // A definition comes with the name or the preset, which are shown already.
  const fits = (c: string) => mergeConventions([given!, c.replace(/ definition=\S+/, "")]).lines.length === 1;
  if (given !== undefined && rows.every((r) => fits(r.conventions))) return given;
  const merged = mergeConventions(rows.map((r) => r.conventions));
  if (merged.lines.length === 1) return merged.lines[0];
  return merged.lines
    .map(
      (line, i) =>
        `[${rows
          .filter((_, k) => merged.index[k] === i)
          .map((r) => r.name)
          .join(", ")}] ${line}`,
    )
    .join("; ");
}

/** `Result.conventions` from each measure's conventions and the options. */
export function resultConventions(measureConventions: Readonly<Record<string, string>>, o: ResolvedOptions): string {
  const rows = Object.entries(measureConventions).map(([name, conventions]) => ({ name, conventions }));
  return conventionsLine(rows, describeOptions(o));
}
