// The summary of a measure's per-query values, one computation for every caller: the library's (the
// mean, sum or geometric mean of the values that are not NaN) and trec_eval's (a plain sum over every
// query, divided by num_q), from a whole column or as values stream in (--merge), the same additions in
// the same order, so the same doubles.
import { RankevalError } from "../errors.js";
import type { Aggregate } from "../measures/measure.js";
import { exp, log } from "../c/math.js";
import type { TrecAggregation } from "../trec/measure-table.js";

/** trec_eval.h MIN_GEO_MEAN: the floor under each value before the log of gm_map and gm_bpref. */
export const MIN_GEO_MEAN = 0.00001;

/** What trec_eval holds per query for gm_map and gm_bpref (m_gm_map.c): the log of the floored value. */
export const geoLog = (v: number): number => log(Math.max(v, MIN_GEO_MEAN));

/**
 * log(max(v, 1e-5)) of each value, as glibc rounds it (a double-double, about 0.15 us each):
 * what trec_eval's geometric means (gm_map, gm_bpref) sum. Made once per array and kept beside it:
 * one run's values are summarised several times (each block, the blocks merged, trec_eval's text),
 * and the page spent a second of a 300,000-query run in these logs.
 */
const logsOf = new WeakMap<Float64Array, Float64Array>();

export function geoLogs(values: Float64Array): Float64Array {
  let logs = logsOf.get(values);
  if (logs && logs.length === values.length) return logs;
  logs = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) logs[i] = geoLog(values[i]);
  logsOf.set(values, logs);
  return logs;
}

/** Says that `logs` are geoLogs(values) (values gathered from arrays whose logs were made: mergeBlocks). */
export function knownGeoLogs(values: Float64Array, logs: Float64Array): void {
  logsOf.set(values, logs);
}

/** Whether geoLogs(values) was made (or said) already. */
export function hasGeoLogs(values: Float64Array): boolean {
  return logsOf.get(values)?.length === values.length;
}

/** Running sums of one value's per-query numbers, added in query order. */
export class RunningSummary {
  /** Values added, their plain sum and sum of logs (trec_eval's), and those not NaN (the library's). */
  n = 0;
  sum = 0;
  logSum = 0;
  kept = 0;
  keptSum = 0;
  keptLogSum = 0;

  /** `logs`: the geometric means are wanted (gm_map, gm_bpref): logs are taken of each value. */
  constructor(readonly logs: boolean) {}

  /** Adds a value; `l` its log as the geometric mean takes it (made here when not given). */
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

  /** Adds a column; a run's own (a Float64Array) with its logs made once (geoLogs). */
  addAll(values: ArrayLike<number>, logs?: ArrayLike<number>): this {
    const l = logs ?? (this.logs && values instanceof Float64Array ? geoLogs(values) : undefined);
    for (let i = 0; i < values.length; i++) this.add(values[i], l?.[i]);
    return this;
  }

  /** The library's summary: the mean, sum or geometric mean of the values that are not NaN, and their count. */
  summary(agg: Aggregate): { value: number; count: number } {
    const count = this.kept;
    if (agg === "mean") return { value: count === 0 ? NaN : this.keptSum / count, count };
    if (agg === "sum") return { value: this.keptSum, count };
    return { value: count === 0 ? NaN : exp(this.keptLogSum / count), count };
  }

  /**
   * trec_eval's summary over `numQ` queries (meas_avg.c): mean sum / numQ, sum, geomean
   * exp(Σ log(max(v, 1e-5)) / numQ), a query not evaluated (-c, -D) adding log(1e-5) (te_calc_avg_meas_s_gm).
   */
  trec(kind: "mean" | "sum" | "geomean", numQ: number): number {
    if (kind === "mean") return this.sum / numQ;
    if (kind === "sum") return this.sum;
    let s = this.logSum;
    if (numQ > this.n) s += (numQ - this.n) * log(MIN_GEO_MEAN);
    return exp(s / numQ);
  }
}

/** The library's summary of a column, in query order: see RunningSummary.summary. */
export function summaryOf(values: Float64Array, aggregate: Aggregate): { value: number; count: number } {
  return new RunningSummary(aggregate === "geomean").addAll(values).summary(aggregate);
}

/** Mean of the values that are not NaN, summed left to right in query order (as trec_eval). */
export function meanOf(values: Float64Array): { mean: number; count: number } {
  const { value, count } = summaryOf(values, "mean");
  return { mean: value, count };
}

/**
 * A summary value as trec_eval accumulates it (pass the values in qid strcmp order): mean, sum or
 * geomean over `count` queries (trec_eval's num_q; default the number of values), or the count itself
 * (num_q). `logged`: the values are gm_map's logs already (Z scores of them, under -Z). "runid" and
 * "none" have no numeric summary and throw. log and exp are glibc's (src/c/math.ts).
 */
export function aggregate(kind: TrecAggregation, values: ArrayLike<number>, count = values.length, logged = false) {
  if (kind === "count") return count;
  if (kind === "runid" || kind === "none") {
    throw new RankevalError("bad-option", `aggregate: "${kind}" has no numeric summary`);
  }
  return new RunningSummary(kind === "geomean").addAll(values, logged ? values : undefined).trec(kind, count);
}
