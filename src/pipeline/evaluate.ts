// The library's path: rows grouped or a run joined into a batch, the kernel, then summaries.
import { meansOf, summaryOf } from "./aggregate.js";
import { DEFAULT_INTERVAL, intervalSettings, intervalsOf, type Interval, type IntervalSettings } from "./interval.js";
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
import { inByteOrder, sortedOrder } from "../c/strings.js";
import { labelsWarning, numberLabelsRead, readsTrecLabels, trecLabelled } from "./trec-labels.js";
import { runPreparation, type RunPrepared, type RunPreparation } from "./prepare-run.js";

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
  /**
   * Each mean's `[lo, hi]`: 95% Student t by default (scipy.stats.t.interval), or per `options.interval`.
   * A bootstrap's is taken when first read (its resamples cost far more than the call), from `values` as
   * they are then.
   */
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
  /** With `rollup` or `dropSelf` (evaluateRun, evaluateFiles): what they did to the run's rows. */
  readonly prepared?: RunPrepared;
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
  const { explicit, extras, prepare } = optionsOf(options);
  if (prepare)
    throw new RankevalError(
      "bad-option",
      "rollup and dropSelf prepare a run's documents: give them to evaluateRun or evaluateFiles (evaluate's rows are ranked as given)",
    );
  const parsed = parsedMeasures(measures);
  const warnings = [...parsed.warnings];
  const { batch, qids } = groupRows(rows);
  if (parsed.readsTrecLabels) {
    const read = numberLabelsRead(rows.rel, (i) => `rows.rel[${i}] (query ${JSON.stringify(String(rows.qid[i]))})`);
    if (read) warnings.push(labelsWarning(read));
  }
  return evaluateBatch(batch, qids, parsed.measures, explicit, 0, 0, warnings, extras);
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
  return evaluateJoined((prepare) => joinRun(qrels, run, prepare), measures, options);
}

/**
 * evaluateRun of a join made by `join` under the options' run preparation (called after the measures
 * and options are checked, so errors come in evaluateRun's order): qrelsCompare joins each run to
 * judgments read once (JudgmentsInMemory).
 */
export function evaluateJoined(
  join: (prepare: RunPreparation | undefined) => JoinedQueries,
  measures: Measures,
  options?: Options,
): Result<string> {
  const { explicit, extras, prepare } = optionsOf(options);
  const parsed = parsedMeasures(measures);
  const warnings = [...parsed.warnings];
  const { batch, qids, notJudged, notInRun, labelsRead, prepared } = join(prepare);
  if (labelsRead && parsed.readsTrecLabels) warnings.push(labelsWarning(labelsRead));
  // Summaries add queries in ids' byte order, as the command line does (same doubles); most runs'
  // queries are in that order already, and then no order is made.
  let summaryOrder: Int32Array | undefined;
  if (!inByteOrder(qids)) {
    const order = sortedOrder(qids);
    if (!order.every((q, i) => q === i)) summaryOrder = Int32Array.from(order);
  }
  const result = evaluateBatch(
    batch,
    qids,
    parsed.measures,
    explicit,
    notJudged,
    notInRun,
    warnings,
    summaryOrder ? { ...extras, summaryOrder } : extras,
  );
  return prepared ? { ...result, prepared } : result;
}

/** A call's options read: what the measures are resolved under, and what is computed besides values. */
interface OptionsRead {
  readonly explicit: ExplicitOptions;
  readonly extras: BatchExtras;
  /** rollup and dropSelf checked: what evaluateRun's join does to the run first (none: undefined). */
  readonly prepare?: RunPreparation;
}

const NO_OPTIONS: OptionsRead = Object.freeze({
  explicit: Object.freeze(explicitOptions()),
  extras: Object.freeze({ tieRange: false, interval: DEFAULT_INTERVAL }),
});

/** An options object's keys and values when last read, and what they were read as (see optionsOf). */
const optionsRead = new WeakMap<object, { values: unknown[]; read: OptionsRead }>();

/**
 * The options checked, once for a call that gives none, and once for the same object given again
 * unchanged, as a training loop gives it: its keys and values are compared with those read last time
 * (a changed value is read again, never a stale one), and the measures resolved under it are then found
 * again (evaluateBatch). An object held by the options (a gain table, `interval`) may change unseen: an
 * options object holding a gain table is read at every call; `interval` is read at every call.
 */
function optionsOf(options: Options | undefined): OptionsRead {
  if (options === undefined) return NO_OPTIONS;
  if (options === null || typeof options !== "object") return readOptions(options);
  const keys = Object.keys(options);
  const values = keys.map((k) => (options as Record<string, unknown>)[k]);
  if (keys.some((k, i) => k !== "interval" && values[i] !== null && typeof values[i] === "object"))
    return readOptions(options);
  const made = optionsRead.get(options);
  let read: OptionsRead;
  if (
    made &&
    made.values.length === keys.length * 2 &&
    keys.every((k, i) => made.values[2 * i] === k && made.values[2 * i + 1] === values[i])
  )
    read = made.read;
  else {
    read = readOptions(options);
    optionsRead.set(options, { values: keys.flatMap((k, i) => [k, values[i]]), read });
  }
  // The interval's settings are an object of their own, which may have changed since: read again.
  return options.interval === undefined ? read : { ...read, extras: extrasOf(options) };
}

function readOptions(options: Options): OptionsRead {
  const explicit = Object.freeze(explicitOptions(options));
  const prepare = runPreparation(options ?? {});
  return Object.freeze({
    explicit,
    extras: Object.freeze(extrasOf(options)),
    ...(prepare ? { prepare } : {}),
  });
}

function extrasOf(options: Options | undefined): BatchExtras {
  return { tieRange: wantsTieRange(options), interval: intervalSettings(options?.interval) };
}

/** A measures spec parsed: the measures (frozen), their names' warnings, whether trec_eval's names are among them. */
interface ParsedMeasures {
  readonly measures: readonly Measure[];
  readonly warnings: readonly string[];
  readonly readsTrecLabels: boolean;
}

/** Specs given as one string, parsed (a bounded cache: a program that makes names afresh each call). */
const parsedNames = new Map<string, ParsedMeasures>();
/** Specs given as a list, parsed, with the list's elements when parsed: a list changed since is parsed again. */
const parsedLists = new WeakMap<object, { given: readonly unknown[]; parsed: ParsedMeasures }>();

/** parseMeasures, once per spec: the same string, or the same unchanged list, gives the same measures (identity). */
export function parsedMeasures(spec: Measures): ParsedMeasures {
  if (typeof spec === "string") {
    let p = parsedNames.get(spec);
    if (!p) {
      p = parseSpec(spec);
      if (parsedNames.size >= 256) parsedNames.clear();
      parsedNames.set(spec, p);
    }
    return p;
  }
  if (!Array.isArray(spec)) return parseSpec(spec);
  const list = spec as readonly unknown[];
  const made = parsedLists.get(list);
  if (made && sameElements(made.given, list)) return made.parsed;
  const parsed = parseSpec(spec);
  parsedLists.set(list, { given: [...list], parsed });
  return parsed;
}

function parseSpec(spec: Measures): ParsedMeasures {
  const warnings: string[] = [];
  const measures = Object.freeze(parseMeasures(spec, warnings));
  return Object.freeze({
    measures,
    warnings: Object.freeze(warnings),
    readsTrecLabels: readsTrecLabels(measures),
  });
}

function sameElements(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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

/** Measures computed together: one kernel call (per tie order). */
interface MeasureGroup {
  readonly options: ResolvedOptions;
  /** Indices in the measures asked. */
  readonly members: readonly number[];
  /** What the kernel computes (frozen: its specs are kept by identity): the members as defined, then num_rel under "skip". */
  readonly asked: readonly Measure[];
  /** noRelevant "skip": the last column asked (num_rel) says which queries leave the means. */
  readonly skip: boolean;
  /** On the batch with labels as trec_eval reads them (atol). */
  readonly trec: boolean;
}

/**
 * Everything evaluateBatch makes of the measures and options alone, made once and reused by every call
 * with the same (a training loop's): grouping, conventions, their one line, the resolved options.
 */
interface BatchPlan {
  readonly groups: readonly MeasureGroup[];
  readonly names: readonly string[];
  readonly aggregates: Readonly<Record<string, Aggregate>>;
  readonly measureConventions: Readonly<Record<string, string>>;
  readonly options: Readonly<ResolvedOptions>;
  readonly conventions: string;
}

/** Plans by measures list, with the list's elements when made (a list changed since is planned again), then by options. */
const plansOf = new WeakMap<
  readonly Measure[],
  { given: readonly Measure[]; under: WeakMap<ExplicitOptions, { whole?: BatchPlan; atol?: BatchPlan }> }
>();

/** The plan of `measures` under `explicit`; `atol`: trec_eval's names read the batch's labels truncated (another batch). */
function batchPlan(measures: readonly Measure[], explicit: ExplicitOptions, atol: boolean): BatchPlan {
  let byList = plansOf.get(measures);
  if (!byList || !sameElements(byList.given, measures))
    plansOf.set(measures, (byList = { given: [...measures], under: new WeakMap() }));
  let plans = byList.under.get(explicit);
  if (!plans) byList.under.set(explicit, (plans = {}));
  if (atol) return (plans.atol ??= makePlan(measures, explicit, true));
  return (plans.whole ??= makePlan(measures, explicit, false));
}

function makePlan(measures: readonly Measure[], explicit: ExplicitOptions, atol: boolean): BatchPlan {
  const groups = new Map<string, { options: ResolvedOptions; members: number[]; trec: boolean }>();
  const described: string[] = [];
  // Each measure as its preset defines it (LightGBM's map@k is map_lightgbm@k).
  const resolved = resolvedFor(explicit);
  const defined: Measure[] = new Array(measures.length);
  measures.forEach((m, i) => {
    let r = resolved.get(m);
    if (!r) resolved.set(m, (r = resolvedMeasure(m, explicit)));
    // trec_eval's names read labels as atol (1.5 is 1): their own group where a label is fractional.
    const trec = atol && m.tool === "trec_eval";
    const key = trec ? `atol labels; ${r.key}` : r.key;
    defined[i] = r.defined;
    described.push(r.described);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { options: r.options, members: [], trec }));
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
  const measureConventions: Record<string, string> = {};
  const aggregates: Record<string, Aggregate> = {};
  measures.forEach((m, s) => {
    aggregates[m.name] = m.aggregate;
    measureConventions[m.name] = described[s];
  });
  const options = Object.freeze(overPreset(DEFAULT_OPTIONS, explicit));
  return Object.freeze({
    groups: [...groups.values()].map(({ options, members, trec }): MeasureGroup => {
      const skip = options.noRelevant === "skip";
      const ms = members.map((i) => defined[i]);
      return Object.freeze({
        options,
        members: Object.freeze(members),
        asked: Object.freeze(skip ? [...ms, makeMeasure(findFamily("num_rel")!)] : ms),
        skip,
        trec,
      });
    }),
    names: Object.freeze(measures.map((m) => m.name)),
    aggregates: Object.freeze(aggregates),
    measureConventions: Object.freeze(measureConventions),
    options,
    conventions: resultConventions(measureConventions, options),
  });
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
  const trecBatch = readsTrecLabels(measures) ? trecLabelled(batch) : batch;
  const plan = batchPlan(measures, explicit, trecBatch !== batch);
  const { aggregates } = plan;
  let skippedQuery: Uint8Array | null = null;
  const queryName = (q: number) => String(qids[q]);
  const compute = (ties?: ResolvedOptions["ties"]): Float64Array[] => {
    const columns: Float64Array[] = new Array(measures.length);
    for (const { options: groupOptions, members, asked, skip, trec } of plan.groups) {
      const options = ties === undefined ? groupOptions : { ...groupOptions, ties };
      const cols = runKernel(withTies(trec ? trecBatch : batch, options.ties), asked, options, { queryName });
      // noRelevant "skip": queries with num_rel 0 (group's threshold) leave the means.
      if (skip) {
        const r = cols[members.length];
        skippedQuery ??= new Uint8Array(batch.numQueries);
        for (let q = 0; q < batch.numQueries; q++) {
          if (r[q] > 0) continue;
          skippedQuery[q] = 1;
          for (let s = 0; s < members.length; s++) cols[s][q] = NaN;
        }
      }
      for (let s = 0; s < members.length; s++) columns[members[s]] = cols[s];
    }
    return columns;
  };
  const columns = compute();
  const values: Record<string, Float64Array> = {};
  for (let s = 0; s < measures.length; s++) values[plan.names[s]] = columns[s];
  const summarise = extras.summaries !== false;
  const order = extras.summaryOrder;
  const ordered = (v: Float64Array) => (order ? Float64Array.from(order, (q) => v[q]) : v);
  const aggregateOf = (k: string) => aggregates[k];
  let mean: Record<string, number>;
  let counted: Record<string, number>;
  let interval: Record<string, Interval> | (() => Record<string, Interval>);
  if (summarise) {
    const summarised = order ? mapValues(values, ordered) : values;
    ({ mean, counted } = meansOf(summarised, aggregateOf));
    // t intervals cost less than deferring them (resultOf); a bootstrap's 10,000 resamples are taken
    // when first read, from the values as they are then.
    const settings = extras.interval ?? DEFAULT_INTERVAL;
    interval =
      settings.method === "t"
        ? intervalsOf(summarised, aggregateOf, settings)
        : () => intervalsOf(order ? mapValues(values, ordered) : values, aggregateOf, settings);
  } else {
    mean = mapKeys(values, NaN);
    counted = mapKeys(values, 0);
    interval = {};
  }
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
  let noRelevant = 0;
  if (skippedQuery) for (const x of skippedQuery as Uint8Array) noRelevant += x;
  // The plan's objects are shared by every call: each result gets its own copies.
  return resultOf(
    [...plan.names],
    qids,
    values,
    { mean, counted, interval },
    { noRelevant, notJudged, notInRun },
    {
      options: { ...plan.options },
      conventions: plan.conventions,
      measureConventions: { ...plan.measureConventions },
      warnings: [...warnings],
      tieRange,
    },
  );
}

/**
 * A Result of its parts, keys in one order. `interval` may be given as its maker, called when first read
 * (an accessor: spread, JSON.stringify and structuredClone read it as a value). Only for what costs more
 * than the accessor (3 us a result: its object leaves V8's fast properties), as a bootstrap does.
 */
export function resultOf<Q>(
  measures: string[],
  qids: Q[],
  values: Record<string, Float64Array>,
  {
    mean,
    counted,
    interval,
  }: Pick<Result, "mean" | "counted"> & { interval: Result["interval"] | (() => Result["interval"]) },
  skipped: Result["queries"]["skipped"],
  how: Pick<Result, "options" | "conventions" | "measureConventions" | "warnings" | "tieRange">,
): Result<Q> {
  const { options, conventions, measureConventions, warnings, tieRange } = how;
  const queries = { evaluated: qids.length, skipped };
  let result: { -readonly [K in keyof Result<Q>]: Result<Q>[K] };
  if (typeof interval === "function") {
    let made: Result["interval"] | undefined;
    result = {
      measures,
      qids,
      values,
      mean,
      counted,
      get interval() {
        return (made ??= interval());
      },
      set interval(v: Result["interval"]) {
        made = v;
      },
      queries,
      options,
      conventions,
      measureConventions,
      warnings,
    };
  } else
    result = {
      measures,
      qids,
      values,
      mean,
      counted,
      interval,
      queries,
      options,
      conventions,
      measureConventions,
      warnings,
    };
  if (tieRange) result.tieRange = tieRange;
  return result;
}

const mapKeys = <T>(record: Readonly<Record<string, unknown>>, value: T): Record<string, T> =>
  Object.fromEntries(Object.keys(record).map((k) => [k, value]));

const mapValues = <T, U>(record: Readonly<Record<string, T>>, f: (v: T) => U): Record<string, U> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
