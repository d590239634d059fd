// From @stdlib's per-function packages, bundled at build time: Boost/Cephes ports with scipy's accuracy.
import { binomialCdf, normalCdf, tCdf } from "./stdlib.generated.js";

/** P(T <= x), df degrees of freedom. */
export function studentCdf(x: number, df: number) {
  return tCdf(x, df) as number;
}

/** 2 P(T <= -|t|), the lower tail keeping small p's precision (scipy: 2 * stdtr(df, -|t|)). NaN for df < 1. */
export function studentTwoSided(t: number, df: number) {
  if (Number.isNaN(t) || !(df >= 1)) return NaN;
  return 2 * studentCdf(-Math.abs(t), df);
}

/** The cdf bisected to the last bit: @stdlib's quantile package would add 48 KB of inverse beta. */
export function studentQuantile(q: number, df: number) {
  if (!(df >= 1) || !(q > 0 && q < 1)) return NaN;
  // Keyed by numbers, not a string made per call: a small evaluate() asks one per measure.
  let byDf = quantiles.get(q);
  if (byDf === undefined) {
    if (quantiles.size > 100) quantiles.clear();
    quantiles.set(q, (byDf = new Map()));
  }
  let x = byDf.get(df);
  if (x === undefined) {
    x = bisectQuantile(q, df);
    if (byDf.size > 1000) byDf.clear();
    byDf.set(df, x);
  }
  return x;
}

/**
 * scipy's t.interval(level, n - 1, mean, sem), sem = sqrt(variance) / sqrt(n) (ddof 1). n < 2: [NaN, NaN];
 * variance 0: [mean, mean] (scipy: NaN).
 */
export function tIntervalOf(mean: number, variance: number, n: number, level: number): readonly [number, number] {
  if (n < 2) return [NaN, NaN];
  const sem = Math.sqrt(variance) / Math.sqrt(n);
  if (sem === 0) return [mean, mean];
  const half = studentQuantile((1 + level) / 2, n - 1) * sem;
  return [mean - half, mean + half];
}

/** Quantiles made, by q, then by df. */
const quantiles = new Map<number, Map<number, number>>();

function bisectQuantile(q: number, df: number): number {
  if (q === 0.5) return 0;
  if (q < 0.5) return -bisectQuantile(1 - q, df);
  let lo = 0;
  let hi = 1;
  while (studentCdf(hi, df) < q) {
    lo = hi;
    hi *= 2;
  }
  for (;;) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) return studentCdf(hi, df) - q <= q - studentCdf(lo, df) ? hi : lo;
    if (studentCdf(mid, df) < q) lo = mid;
    else hi = mid;
  }
}

/** scipy's 2 * ndtr(-|z|). */
export function normalTwoSided(z: number) {
  if (Number.isNaN(z)) return NaN;
  return 2 * (normalCdf(-Math.abs(z), 0, 1) as number);
}

/** P(X <= k) for X ~ Binomial(n, p). */
export function binomialLowerTail(k: number, n: number, p: number) {
  return binomialCdf(k, n, p) as number;
}
