// The definitions the resampling tests share, written once for the library (src/compare/
// resampling.ts, over the kernel) and for the plain-TypeScript reference (test/_resampling-reference.ts).

/**
 * Two statistics of a resampling test count as equal when they differ by at most this, given the
 * sum of the absolute values they are made of: 1e-9 of it. Sums of the same numbers in another
 * order (the kernel adds blocks of queries, the observed value is summed once) differ in their
 * last bits, and a resample whose statistic equals the observed one must count as "at least as
 * extreme" (it always does in exact arithmetic). scipy's permutation_test does the same with
 * 100 ulp of the observed statistic.
 */
export function tolerance(absoluteSum: number): number {
  return 1e-9 * absoluteSum;
}

/**
 * A Monte Carlo p-value: (1 + hits) / (1 + iterations), the observed data counted as one of the
 * resamples, so p is never 0 and the test keeps its level (Phipson & Smyth 2010).
 */
export function monteCarloP(hits: number, iterations: number): number {
  return (1 + hits) / (1 + iterations);
}

/**
 * The paired randomization test by full enumeration, used when 2^n <= iterations: all 2^n sign
 * vectors, each once, p = #{|sum s_q d_q| >= |sum d_q| - tol} / 2^n. The identity is always among
 * them (so p >= 2^-n, never 0, even where a sum is not a number).
 */
export function randomizationExact(d: ArrayLike<number>, tol: number): number {
  const n = d.length;
  let observed = 0;
  for (let q = 0; q < n; q++) observed += d[q];
  const threshold = Math.abs(observed) - tol;
  const flips = 2 ** n;
  let hits = 0;
  for (let mask = 0; mask < flips; mask++) {
    let t = 0;
    for (let q = 0; q < n; q++) t += (mask >> q) & 1 ? -d[q] : d[q];
    if (mask === 0 || Math.abs(t) >= threshold) hits++;
  }
  return hits / flips;
}
