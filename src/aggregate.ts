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
