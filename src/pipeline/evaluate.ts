// The library's path (evaluate, evaluateRun): rows grouped by query (rows-by-query.ts) or a run joined
// to its judgments (join-memory.ts) into a batch, the kernel, then summaries. evaluateBatch is shared.
import { summariesOf, summaryOf } from "./aggregate.js";
import { intervalSettings, type Interval, type IntervalSettings } from "./interval.js";
import { groupRows, type Qid, type Rows } from "./rows-by-query.js";
import { joinRun, type Qrels, type Run } from "./join-memory.js";
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

/**
 * The measures: names (any tool's spelling) or parsed measures, one or a list; a literal name is
 * checked at compile time (`CheckedMeasures`). (`string & {}` keeps the names' completion.)
 */
export type Measures = MeasureSpec | (string & {}) | readonly (MeasureSpec | (string & {}) | Measure)[];

export interface Result<Q = Qid> {
  /** The measures' keys in the order asked, in their tool's spelling (`ndcg@10`, `ndcg_cut_10`, `nDCG@10`). */
  readonly measures: string[];
  /** The evaluated queries; `values[name][i]` belongs to `qids[i]`. */
  readonly qids: Q[];
  /** Per-query values, one Float64Array per measure. NaN where a convention says "no value". */
  readonly values: Record<string, Float64Array>;
  /**
   * Each measure's summary over the queries whose value is not NaN: the mean, or the sum where its
   * tool sums (NumRet, num_rel, ...), or the geometric mean (gm_map, gm_bpref).
   */
  readonly mean: Record<string, number>;
  /** How many queries each summary is over. */
  readonly counted: Record<string, number>;
  /**
   * Each mean's interval `[lo, hi]`: the 95% Student t interval by default
   * (scipy.stats.t.interval(0.95, n - 1, mean, sem)), or as `options.interval` says; means only.
   */
  readonly interval: Record<string, Interval>;
  readonly queries: {
    /** Queries evaluated (the length of qids). */
    readonly evaluated: number;
    /** Queries left out of means, by reason. */
    readonly skipped: {
      /** No relevant judged document, under `noRelevant: "skip"`: in qids, with NaN values. */
      readonly noRelevant: number;
      /** evaluateRun: run queries without any judgment (ignored, as trec_eval does). */
      readonly notJudged: number;
      /** evaluateRun: judged queries absent from the run. */
      readonly notInRun: number;
    };
  };
  /** The options given, over the library's defaults (a tool's name may use others: `measureConventions`). */
  readonly options: ResolvedOptions;
  /** The conventions every measure followed, in one line, else each measure's own (`measureConventions`). */
  readonly conventions: string;
  /**
   * Each measure's conventions, by key: its tool ("rankeval" for the library's names), then
   * `describeOptions` of its options (defaults, under its tool's, the options given, its parameters).
   */
  readonly measureConventions: Readonly<Record<string, string>>;
  /** What the measure names were read as where that may surprise (a decimal cutoff, ignored parameters). */
  readonly warnings: readonly string[];
  /**
   * With `tieRange: true`: each measure under ties "worst" and "best" (lower or higher labels first
   * within equal scores), per query and summarised: how far the tie order alone moves the number.
   */
  readonly tieRange?: Readonly<Record<string, TieRange>>;
}

/** A block's or a run's values as the command line and the page evaluate them (src/app/evaluate-block.ts). */
export interface Evaluated {
  result: Result<string>;
  /** relstring's values, by line name. */
  strings: Record<string, string[]>;
  /** Summaries not made from the per-query values (num_rel under -c), by line name. */
  summary?: Record<string, number>;
  /** How each key's summary is taken where not the mean (sums, geometric means), for mergeBlocks. */
  aggregates?: Readonly<Record<string, Aggregate>>;
}

/** A measure's values under the worst and the best order of tied documents (`Result.tieRange`). */
export interface TieRange {
  readonly worst: Float64Array;
  readonly best: Float64Array;
  /** Their summaries, as `Result.mean` summarises the values. */
  readonly mean: { readonly worst: number; readonly best: number };
}

/** What `evaluateBatch` computes besides the values. */
export interface BatchExtras {
  /** Also the values under ties "worst" and "best" (`Result.tieRange`). */
  readonly tieRange?: boolean;
  /** How the means' intervals are taken (`Options.interval`, checked). @default 95% t */
  readonly interval?: IntervalSettings;
  /**
   * Take each measure's summary. Blocks go without (NaN and 0), as mergeBlocks takes them again from
   * the run's values (a geometric mean's logs cost a microsecond a query). @default true
   */
  readonly summaries?: boolean;
  /**
   * The order the summaries add the queries in, where not the result's: evaluateRun sums in byte order
   * of the ids, as the command line does (the same doubles, to the last bit).
   */
  readonly summaryOrder?: Int32Array;
}

/**
 * Evaluates rankings given as rows (query, score, label[, document id]): the LETOR case, where each
 * query's ideal ranking comes from its rows' labels. The result's qids have the type of the rows'.
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
 * Evaluates a run against judgments, each `{ qid: { docid: value } }` or columns. Unjudged ranked
 * documents are non-relevant (and unjudged for bpref); judged unranked ones count in recall and the
 * ideal ranking. Ties: document id descending (trec_eval), or the run's order with `ties: "input"`.
 * Throws a RankevalError ("bad-input") when the run and the judgments share no query.
 */
export function evaluateRun<const M extends Measures>(
  qrels: Qrels,
  run: Run,
  measures: CheckedMeasures<M>,
  options?: Options,
): Result<string>;
export function evaluateRun(qrels: Qrels, run: Run, measures: Measures, options?: Options): Result<string> {
  const explicit = explicitOf(options);
  const extras = extrasOf(options);
  const warnings: string[] = [];
  const ms = parseMeasures(measures, warnings);
  const { batch, qids, notJudged, notInRun, labelsRead } = joinRun(qrels, run);
  if (labelsRead && readsTrecLabels(ms)) warnings.push(labelsWarning(labelsRead));
  const order = sortedOrder(qids);
  const summaryOrder = order.every((q, i) => q === i) ? undefined : Int32Array.from(order);
  return evaluateBatch(batch, qids, ms, explicit, notJudged, notInRun, warnings, { ...extras, summaryOrder });
}

/** The tie range and the intervals' settings the options ask. */
function extrasOf(options: Options | undefined): BatchExtras {
  return { tieRange: wantsTieRange(options), interval: intervalSettings(options?.interval) };
}

/** The options of a call that gives none, made once. */
const NO_OPTIONS: ExplicitOptions = Object.freeze(explicitOptions());

/** The options a caller passed, checked, and the plain values they were made from (see explicitOf). */
const explicitMade = new WeakMap<object, { values: unknown[]; explicit: ExplicitOptions }>();

/**
 * explicitOptions(options), made once for no options or for the same object of plain values at every
 * call (a training loop), so the measures resolved under them are found again; an object holding an
 * object (a gain table) is read again.
 */
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

/** A measure under the options given: its options, their description (the group's key), its conventions line, its preset's definition. */
interface ResolvedMeasure {
  options: ResolvedOptions;
  key: string;
  described: string;
  defined: Measure;
}

function resolvedMeasure(m: Measure, explicit: ExplicitOptions): ResolvedMeasure {
  const options = measureOptions(m, explicit);
  return {
    options,
    key: describeOptions(options),
    described: describeMeasureOptions(m, explicit),
    defined: definedMeasure(m, explicit),
  };
}

/**
 * Measures' options resolved under one options object (made by explicitOptions, never changed): the
 * command line evaluates every block under one, and resolving them was a tenth of a small run's time.
 */
const resolvedUnder = new WeakMap<ExplicitOptions, Map<Measure, ResolvedMeasure>>();

function resolvedFor(explicit: ExplicitOptions): Map<Measure, ResolvedMeasure> {
  let r = resolvedUnder.get(explicit);
  if (!r) resolvedUnder.set(explicit, (r = new Map()));
  return r;
}

/**
 * The pipeline after grouping: measures grouped by the options each is computed with, the kernel once
 * per group, the conventions that act across a group (noRelevant "skip"), summaries.
 */
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
  // trec_eval's names read labels as atol does (1.5 is 1): a group of their own where some label is fractional.
  const trecBatch = readsTrecLabels(measures) ? trecLabelled(batch) : batch;
  // Each measure as its preset defines it (LightGBM's map@k is map_lightgbm@k), under its name.
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
  /** Every measure's values under the options of its group, `ties` replaced when given. */
  const compute = (ties?: ResolvedOptions["ties"]): Float64Array[] => {
    const columns: Float64Array[] = new Array(measures.length);
    for (const { options: groupOptions, members, batch } of groups.values()) {
      const options = ties === undefined ? groupOptions : { ...groupOptions, ties };
      const ms = members.map((i) => defined[i]);
      // noRelevant "skip": a query the kernel's num_rel (under the group's threshold) finds no relevant document in leaves the means.
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
      tieRange![m.name] = {
        worst: worst[s],
        best: best[s],
        mean: summarise
          ? {
              worst: summaryOf(ordered(worst[s]), m.aggregate).value,
              best: summaryOf(ordered(best[s]), m.aggregate).value,
            }
          : { worst: NaN, best: NaN },
      };
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

/** A Result of its parts, its keys in one order (evaluateBatch's, --merge's in src/output/per-query.ts). */
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

/** Each key of `record` mapped to `value`. */
const mapKeys = <T>(record: Readonly<Record<string, unknown>>, value: T): Record<string, T> =>
  Object.fromEntries(Object.keys(record).map((k) => [k, value]));

const mapValues = <T, U>(record: Readonly<Record<string, T>>, f: (v: T) => U): Record<string, U> =>
  Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
