// Summaries the library's way (over non-NaN) and trec_eval's (over num_q), whole or streamed: same additions, same order.
import { RankevalError } from "../errors/errors.js";
import type { Aggregate } from "../measures/measure.js";
import { exp, log } from "../c/math.js";
import type { TrecAggregation } from "../trec/measures.js";
import type { TieRange } from "./evaluate.js";
import { DEFAULT_INTERVAL, intervalsOf, type Interval, type IntervalSettings } from "./interval.js";
import { tIntervalOf } from "../stats/dists.js";

/** trec_eval.h MIN_GEO_MEAN: the floor before gm_map's log. */
const MIN_GEO_MEAN = 0.00001;

/** trec_eval's per-query gm_map value (m_gm_map.c). */
export const geoLog = (v: number): number => log(Math.max(v, MIN_GEO_MEAN));

/** geoLogs cached per array: a 300,000-query run spent a second in these logs. */
const logsOf = new WeakMap<Float64Array, Float64Array>();

export function geoLogs(values: Float64Array): Float64Array {
  let logs = logsOf.get(values);
  if (logs && logs.length === values.length) return logs;
  logs = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) logs[i] = geoLog(values[i]);
  logsOf.set(values, logs);
  return logs;
}

export function knownGeoLogs(values: Float64Array, logs: Float64Array): void {
  logsOf.set(values, logs);
}

export function hasGeoLogs(values: Float64Array): boolean {
  return logsOf.get(values)?.length === values.length;
}

export class RunningSummary {
  /** All values (trec_eval's), then the non-NaN (the library's). */
  n = 0;
  sum = 0;
  logSum = 0;
  kept = 0;
  keptSum = 0;
  keptLogSum = 0;

  constructor(readonly logs: boolean) {}

  add(v: number, l = this.logs ? geoLog(v) : 0): void {
    this.n++;
    this.sum += v;
    this.logSum += l;
    if (v === v) {
      this.kept++;
      this.keptSum += v;
      this.keptLogSum += l;
    }
  }

  addAll(values: ArrayLike<number>, logs?: ArrayLike<number>): this {
    const l = logs ?? (this.logs && values instanceof Float64Array ? geoLogs(values) : undefined);
    for (let i = 0; i < values.length; i++) this.add(values[i], l?.[i]);
    return this;
  }

  summary(agg: Aggregate): { value: number; count: number } {
    const count = this.kept;
    if (agg === "mean") return { value: count === 0 ? NaN : this.keptSum / count, count };
    if (agg === "sum") return { value: this.keptSum, count };
    return { value: count === 0 ? NaN : exp(this.keptLogSum / count), count };
  }

  /** trec_eval's summary over `numQ` (meas_avg.c); a missing query adds log(1e-5) to a geomean. */
  trec(kind: "mean" | "sum" | "geomean", numQ: number): number {
    if (kind === "mean") return this.sum / numQ;
    if (kind === "sum") return this.sum;
    let s = this.logSum;
    if (numQ > this.n) s += (numQ - this.n) * log(MIN_GEO_MEAN);
    return exp(s / numQ);
  }
}

/** A RunningSummary with Welford moments: a t interval in one pass (--merge). */
export class MomentSummary extends RunningSummary {
  private mean = 0;
  private squares = 0;

  override add(v: number, l = this.logs ? geoLog(v) : 0): void {
    super.add(v, l);
    if (v !== v) return;
    const delta = v - this.mean;
    this.mean += delta / this.kept;
    this.squares += delta * (v - this.mean);
  }

  interval(level = DEFAULT_INTERVAL.level): Interval {
    return tIntervalOf(
      this.keptSum / this.kept,
      this.kept < 2 ? NaN : this.squares / (this.kept - 1),
      this.kept,
      level,
    );
  }
}

export function summaryOf(values: Float64Array, aggregate: Aggregate): { value: number; count: number } {
  return new RunningSummary(aggregate === "geomean").addAll(values).summary(aggregate);
}

export function summariesOf(
  values: Readonly<Record<string, Float64Array>>,
  aggregateOf: (key: string) => Aggregate,
  settings?: Readonly<IntervalSettings>,
): { mean: Record<string, number>; counted: Record<string, number>; interval: Record<string, Interval> } {
  return { ...meansOf(values, aggregateOf), interval: intervalsOf(values, aggregateOf, settings) };
}

/** summariesOf without the intervals (evaluateBatch takes them when first read). */
export function meansOf(
  values: Readonly<Record<string, Float64Array>>,
  aggregateOf: (key: string) => Aggregate,
): { mean: Record<string, number>; counted: Record<string, number> } {
  const mean: Record<string, number> = {};
  const counted: Record<string, number> = {};
  for (const key of Object.keys(values))
    ({ value: mean[key], count: counted[key] } = summaryOf(values[key], aggregateOf(key)));
  return { mean, counted };
}

export function tieRangeOf(worst: Float64Array, best: Float64Array, agg: Aggregate): TieRange {
  return { worst, best, mean: { worst: summaryOf(worst, agg).value, best: summaryOf(best, agg).value } };
}

/** A summary as trec_eval accumulates it over `count` (num_q); `logged`: values are gm_map's logs (-Z). */
export function aggregate(kind: TrecAggregation, values: ArrayLike<number>, count = values.length, logged = false) {
  if (kind === "count") return count;
  if (kind === "runid" || kind === "none") {
    throw new RankevalError("bad-option", `aggregate: "${kind}" has no numeric summary`);
  }
  return new RunningSummary(kind === "geomean").addAll(values, logged ? values : undefined).trec(kind, count);
}
