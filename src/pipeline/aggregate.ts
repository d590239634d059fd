// The summary of a measure's per-query values: the mean (as trec_eval sums it), a sum, a geometric mean.
import { exp, geoLogs } from "../trec/cmath.js";

/** Mean of the values that are not NaN, summed left to right in query order (as trec_eval). */
export function meanOf(values: Float64Array): { mean: number; count: number } {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === v) {
      sum += v;
      count++;
    }
  }
  return { mean: count === 0 ? NaN : sum / count, count };
}

/**
 * The summary of a measure's per-query values that are not NaN, in query order: their mean, sum, or
 * geometric mean as trec_eval takes it (exp of the mean of log(max(v, 1e-5)): gm_map, gm_bpref).
 */
export function summaryOf(values: Float64Array, aggregate: "mean" | "sum" | "geomean"): { value: number; count: number } {
  if (aggregate === "mean") {
    const { mean, count } = meanOf(values);
    return { value: mean, count };
  }
  let sum = 0;
  let count = 0;
  // log and exp as glibc rounds them, as trec_eval's are (src/trec/cmath.ts).
  const terms = aggregate === "sum" ? values : geoLogs(values);
  for (let i = 0; i < values.length; i++) {
    if (values[i] !== values[i]) continue;
    sum += terms[i];
    count++;
  }
  if (aggregate === "sum") return { value: sum, count };
  return { value: count === 0 ? NaN : exp(sum / count), count };
}
