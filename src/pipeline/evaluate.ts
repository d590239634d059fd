// The library's path: rows grouped or a run joined into a batch, the kernel, then summaries.
import { summariesOf, summaryOf } from "./aggregate.js";
import { intervalSettings, type Interval, type IntervalSettings } from "./interval.js";
import { groupRows, type Qid, type Rows } from "./rows-by-query.js";
import { type JoinedQueries, joinRun, type Qrels, type Run } from "./join-memory.js";
import { withTies, type Batch } from "../kernel/batch.js";
import { runKernel } from "../kernel/kernel.js";
import {
  definedMeasure,
  describeMeasureOptions,
  makeMeasure,
  measureOptions,
  type Aggregate,
  type Measure,
} from "../measures/measure.js";
import type { CheckedMeasures, MeasureSpec } from "../names/name-types.js";
import { findFamily } from "../measures/registry.js";
import { parseMeasures } from "../names/resolve.js";
import {
  DEFAULT_OPTIONS,
  describeOptions,
  explicitOptions,
  overPreset,
  wantsTieRange,
  type ExplicitOptions,
  type Options,
  type ResolvedOptions,
  resultConventions,
} from "../measures/options.js";
import { RankevalError } from "../errors/errors.js";
import { sortedOrder } from "../c/strings.js";
import { labelsWarning, numberLabelsRead, readsTrecLabels, trecLabelled } from "./trec-labels.js";

/** Measure names (any tool's spelling) or parsed measures, one or a list. `string & {}` keeps completion. */
export type Measures = MeasureSpec | (string & {}) | readonly (MeasureSpec | (string & {}) | Measure)[];

export interface Result<Q = Qid> {
  /** The measures' keys in the order asked, in their tool's spelling. */
  readonly measures: string[];
  /** The evaluated queries; `values[name][i]` belongs to `qids[i]`. */
  readonly qids: Q[];
  /** Per-query values per measure; NaN where a convention says "no value". */
  readonly values: Record<string, Float64Array>;
  /** Each measure's summary over non-NaN values: mean, or sum (NumRet, ...) or geometric mean (gm_map) as its tool does. */
  readonly mean: Record<string, number>;
  /** How many queries each summary is over. */
  readonly counted: Record<string, number>;
  /** Each mean's `[lo, hi]`: 95% Student t by default (scipy.stats.t.interval), or per `options.interval`. */
  readonly interval: Record<string, Interval>;
  readonly queries: {
    readonly evaluated: number;
    readonly skipped: {
      /** No relevant document, under `noRelevant: "skip"` (NaN values). */
      readonly noRelevant: number;
      /** evaluateRun: run queries without judgments (ignored, as trec_eval). */
      readonly notJudged: number;
      /** evaluateRun: judged queries absent from the run. */
      readonly notInRun: number;
    };
  };
  /** The options given, over the library's defaults. */
  readonly options: ResolvedOptions;
  /** The conventions all measures followed, in one line. */
  readonly conventions: string;
  /** Each measure's conventions, by key: its tool, then `describeOptions` of its options. */
  readonly measureConventions: Readonly<Record<string, string>>;
  /** Surprising readings of the measure names (a decimal cutoff, ignored parameters). */
  readonly warnings: readonly string[];
  /** With `tieRange: true`: each measure under ties "worst" and "best", per query and summarised. */
  readonly tieRange?: Readonly<Record<string, TieRange>>;
}

/** A block's or run's values as the command line and page evaluate them. */
export interface Evaluated {
  result: Result<string>;
  /** relstring's values, by line name. */
  strings: Record<string, string[]>;
  /** Summaries not made from the per-query values (num_rel under -c), by line name. */
  summary?: Record<string, number>;
  /** Each key's summary where not the mean, for mergeBlocks. */
  aggregates?: Readonly<Record<string, Aggregate>>;
}

/** A measure's values under the worst and best tie order. */
export interface TieRange {
  readonly worst: Float64Array;
  readonly best: Float64Array;
  readonly mean: { readonly worst: number; readonly best: number };
}

export interface BatchExtras {
  readonly tieRange?: boolean;
  /** @default 95% t */
  readonly interval?: IntervalSettings;
  /** Blocks skip summaries (NaN, 0): mergeBlocks takes them from the run's values. @default true */
  readonly summaries?: boolean;
  /** The order summaries add queries in: evaluateRun's is ids' byte order, as the CLI's (same doubles). */
  readonly summaryOrder?: Int32Array;
}

/**
 * Evaluates rows (query, score, label[, docid]), each query's ideal ranking from its rows' labels.
 *
 * @example
 * evaluate({ qid: [1, 1, 1], score: [0.3, 0.9, 0.1], rel: [0, 2, 1] }, ["ndcg@10", "map"]).mean
 */
export function evaluate<const M extends Measures>(
  rows: Rows<string>,
  measures: CheckedMeasures<M>,
  options?: Options,
): Result<string>;
export function evaluate<const M extends Measures>(
  rows: Rows<number>,
  measures: CheckedMeasures<M>,
  options?: Options,
): Result<number>;
export function evaluate<const M extends Measures>(
  rows: Rows,
  measures: CheckedMeasures<M>,
  options?: Options,
): Result<Qid>;
export function evaluate(rows: Rows, measures: Measures, options?: Options): Result<Qid> {
  const explicit = explicitOf(options);
  const extras = extrasOf(options);
  const warnings: string[] = [];
  const ms = parseMeasures(measures, warnings);
  const { batch, qids } = groupRows(rows);
  if (readsTrecLabels(ms)) {
    const read = numberLabelsRead(rows.rel, (i) => `rows.rel[${i}] (query ${JSON.stringify(String(rows.qid[i]))})`);
    if (read) warnings.push(labelsWarning(read));
  }
  return evaluateBatch(batch, qids, ms, explicit, 0, 0, warnings, extras);
}

/**
 * Evaluates a run against judgments, each `{ qid: { docid: value } }` or columns. Unjudged documents are
 * non-relevant; ties by docid descending (trec_eval). Throws RankevalError "bad-input" if no query is shared.
 */
export function evaluateRun<const M extends Measures>(
  qrels: Qrels,
  run: Run,
  measures: CheckedMeasures<M>,
  options?: Options,
): Result<string>;
export function evaluateRun(qrels: Qrels, run: Run, measures: Measures, options?: Options): Result<string> {
  return evaluateJoined(() => joinRun(qrels, run), measures, options);
}

/**
 * evaluateRun of a join made by `join` (called after the measures and options are checked, so errors
 * come in evaluateRun's order): qrelsCompare joins each run to judgments read once (JudgmentsInMemory).
 */
export function evaluateJoined(join: () => JoinedQueries, measures: Measures, options?: Options): Result<string> {
  const explicit = explicitOf(options);
  const extras = extrasOf(options);
  const warnings: string[] = [];
  const ms = parseMeasures(measures, warnings);
  const { batch, qids, notJudged, notInRun, labelsRead } = join();
  if (labelsRead && readsTrecLabels(ms)) warnings.push(labelsWarning(labelsRead));
  const order = sortedOrder(qids);
  const summaryOrder = order.every((q, i) => q === i) ? undefined : Int32Array.from(order);
  return evaluateBatch(batch, qids, ms, explicit, notJudged, notInRun, warnings, { ...extras, summaryOrder });
}

function extrasOf(options: Options | undefined): BatchExtras {
  return { tieRange: wantsTieRange(options), interval: intervalSettings(options?.interval) };
}

const NO_OPTIONS: ExplicitOptions = Object.freeze(explicitOptions());

const explicitMade = new WeakMap<object, { values: unknown[]; explicit: ExplicitOptions }>();

/** explicitOptions, cached for an unchanged options object of plain values, so resolved measures are reused. */
function explicitOf(options: Options | undefined): ExplicitOptions {
  if (options === undefined) return NO_OPTIONS;
  if (options === null || typeof options !== "object") return explicitOptions(options);
  const keys = Object.keys(options);
  const values = keys.map((k) => (options as Record<string, unknown>)[k]);
  if (values.some((v) => v !== null && typeof v === "object")) return explicitOptions(options);
  const made = explicitMade.get(options);
  if (
    made &&
    made.values.length === keys.length * 2 &&
    keys.every((k, i) => made.values[2 * i] === k && made.values[2 * i + 1] === values[i])
  )
    return made.explicit;
  const explicit = Object.freeze(explicitOptions(options));
  explicitMade.set(options, { values: keys.flatMap((k, i) => [k, values[i]]), explicit });
  return explicit;
}

type ResolvedMeasure = ReturnType<typeof resolvedMeasure>;

function resolvedMeasure(m: Measure, explicit: ExplicitOptions) {
  const options = measureOptions(m, explicit);
  return {
    options,
    key: describeOptions(options),
    described: describeMeasureOptions(m, explicit),
    defined: definedMeasure(m, explicit),
  };
}

/** Measures resolved per options object: resolving was a tenth of a small run's time. */
const resolvedUnder = new WeakMap<ExplicitOptions, Map<Measure, ResolvedMeasure>>();

function resolvedFor(explicit: ExplicitOptions): Map<Measure, ResolvedMeasure> {
  let r = resolvedUnder.get(explicit);
  if (!r) resolvedUnder.set(explicit, (r = new Map()));
  return r;
}

/** The pipeline after grouping: measures grouped by options, the kernel once per group, summaries. */
export function evaluateBatch<Q>(
  batch: Batch,
  qids: Q[],
  measures: readonly Measure[],
  explicit: ExplicitOptions,
  notJudged: number,
  notInRun: number,
  warnings: readonly string[] = [],
  extras: BatchExtras = {},
): Result<Q> {
  const groups = new Map<string, { options: ResolvedOptions; members: number[]; batch: Batch }>();
  const described: string[] = [];
  // trec_eval's names read labels as atol (1.5 is 1): their own group where a label is fractional.
  const trecBatch = readsTrecLabels(measures) ? trecLabelled(batch) : batch;
  // Each measure as its preset defines it (LightGBM's map@k is map_lightgbm@k).
  const resolved = resolvedFor(explicit);
  const defined: Measure[] = new Array(measures.length);
  measures.forEach((m, i) => {
    let r = resolved.get(m);
    if (!r) resolved.set(m, (r = resolvedMeasure(m, explicit)));
    const { options: o } = r;
    const trec = m.tool === "trec_eval" && trecBatch !== batch;
    const key = trec ? `atol labels; ${r.key}` : r.key;
    defined[i] = r.defined;
    described.push(r.described);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { options: o, members: [], batch: trec ? trecBatch : batch }));
    g.members.push(i);
  });
  for (const { options, members } of groups.values()) {
    if (options.ties !== "average") continue;
    const refused = members
      .filter((i) => !defined[i].family.tieAverage)
      .map((i) => measures[i].name + (defined[i] !== measures[i] ? ` (${defined[i].family.name})` : ""));
    if (refused.length) {
      throw new RankevalError(
        "bad-option",
        `ties "average" has no exact closed form for ${refused.join(", ")}: use ties "best" and "worst" (or tieRange) for the range the tie order allows, or another tie order`,
      );
    }
  }
  const skippedQuery = new Uint8Array(batch.numQueries);
  const compute = (ties?: ResolvedOptions["ties"]): Float64Array[] => {
    const columns: Float64Array[] = new Array(measures.length);
    for (const { options: groupOptions, members, batch } of groups.values()) {
      const options = ties === undefined ? groupOptions : { ...groupOptions, ties };
      const ms = members.map((i) => defined[i]);
      // noRelevant "skip": queries with num_rel 0 (group's threshold) leave the means.
      const skip = options.noRelevant === "skip";
      const asked = skip ? [...ms, makeMeasure(findFamily("num_rel")!)] : ms;
      const cols = runKernel(withTies(batch, options.ties), asked, options, { queryName: (q) => String(qids[q]) });
      if (skip) {
        const r = cols[ms.length];
        for (let q = 0; q < batch.numQueries; q++) {
          if (r[q] > 0) continue;
          skippedQuery[q] = 1;
          for (let s = 0; s < ms.length; s++) cols[s][q] = NaN;
        }
      }
      members.forEach((i, s) => (columns[i] = cols[s]));
    }
    return columns;
  };
  const columns = compute();
  const values: Record<string, Float64Array> = {};
  const measureConventions: Record<string, string> = {};
  const aggregates: Record<string, Aggregate> = {};
  measures.forEach((m, s) => {
    values[m.name] = columns[s];
    aggregates[m.name] = m.aggregate;
    measureConventions[m.name] = described[s];
  });
  const summarise = extras.summaries !== false;
  const order = extras.summaryOrder;
  const ordered = (v: Float64Array) => (order ? Float64Array.from(order, (q) => v[q]) : v);
  const summaries = summarise
    ? summariesOf(order ? mapValues(values, ordered) : values, (k) => aggregates[k], extras.interval)
    : { mean: mapKeys(values, NaN), counted: mapKeys(values, 0), interval: {} };
  let tieRange: Record<string, TieRange> | undefined;
  if (extras.tieRange) {
    const worst = compute("worst");
    const best = compute("best");
    tieRange = {};
    measures.forEach((m, s) => {
      const sum = (v: Float64Array) => (summarise ? summaryOf(ordered(v), m.aggregate).value : NaN);
      tieRange![m.name] = { worst: worst[s], best: best[s], mean: { worst: sum(worst[s]), best: sum(best[s]) } };
    });
  }
  const options: ResolvedOptions = overPreset(DEFAULT_OPTIONS, explicit);
  const noRelevant = skippedQuery.reduce((n, x) => n + x, 0);
  return resultOf(
    measures.map((m) => m.name),
    qids,
    values,
    summaries,
    { noRelevant, notJudged, notInRun },
    {
      options,
      conventions: resultConventions(measureConventions, options),
      measureConventions,
      warnings: [...warnings],
      tieRange,
    },
  );
}

/** A Result of its parts, keys in one order. */
export function resultOf<Q>(
  measures: string[],
  qids: Q[],
  values: Record<string, Float64Array>,
  { mean, counted, interval }: Pick<Result, "mean" | "counted" | "interval">,
  skipped: Result["queries"]["skipped"],
  how: Pick<Result, "options" | "conventions" | "measureConventions" | "warnings" | "tieRange">,
): Result<Q> {
  const { options, conventions, measureConventions, warnings, tieRange } = how;
  return {
    measures,
    qids,
    values,
    mean,
    counted,
    interval,
    queries: { evaluated: qids.length, skipped },
    options,
    conventions,
    measureConventions,
    warnings,
    ...(tieRange ? { tieRange } : {}),
  };
}

const mapKeys = <T>(record: Readonly<Record<string, unknown>>, value: T): Record<string, T> =>
  Object.fromEntries(Object.keys(record).map((k) => [k, value]));

const mapValues = <T, U>(record: Readonly<Record<string, T>>, f: (v: T) => U): Record<string, U> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
