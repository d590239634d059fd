// The distributions the tests need, from @stdlib's per-function packages (bundled at build time: no
// runtime dependency): ports of Boost/Cephes with scipy's accuracy, stateless, each pulling only what it needs.
import { binomialCdf, normalCdf, tCdf } from "./stdlib.generated.js";

/** P(T <= x) for Student's t with df degrees of freedom. */
export function studentCdf(x: number, df: number): number {
  return tCdf(x, df) as number;
}

/**
 * Two-sided p of a t statistic: 2 P(T <= -|t|), from the lower tail so that small p keep their
 * relative precision (scipy: 2 * stdtr(df, -|t|)). NaN for NaN t or df < 1.
 */
export function studentTwoSided(t: number, df: number): number {
  if (Number.isNaN(t) || !(df >= 1)) return NaN;
  return 2 * studentCdf(-Math.abs(t), df);
}

/**
 * The q quantile of Student's t (df >= 1): the cdf inverted by bisection on the package's cdf
 * (to the last bit: at most 2100 halvings of the double line), which spares the library the
 * inverse-beta code @stdlib's quantile package would add (48 KB).
 */
export function studentQuantile(q: number, df: number): number {
  if (!(df >= 1) || !(q > 0 && q < 1)) return NaN;
  const key = `${q} ${df}`;
  let x = quantiles.get(key);
  if (x === undefined) {
    x = bisectQuantile(q, df);
    if (quantiles.size > 1000) quantiles.clear();
    quantiles.set(key, x);
  }
  return x;
}

/**
 * Student's t interval of a mean from its sample variance (n - 1) over n values: mean +-
 * t_{(1+level)/2, n-1} sem, sem = sqrt(variance) / sqrt(n), as scipy's t.interval(level, n - 1, mean,
 * sem) with scipy.stats.sem's arithmetic. Fewer than 2 values: [NaN, NaN] (as scipy); variance 0:
 * [mean, mean] (scipy gives NaN there, its scale having to be positive; the interval of a constant is
 * the point). The one formula: the interval beside each mean (src/pipeline/interval.ts) and a
 * comparison's 95% interval of the mean difference (src/compare/paired.ts).
 */
export function tIntervalOf(mean: number, variance: number, n: number, level: number): readonly [number, number] {
  if (n < 2) return [NaN, NaN];
  const sem = Math.sqrt(variance) / Math.sqrt(n);
  if (sem === 0) return [mean, mean];
  const half = studentQuantile((1 + level) / 2, n - 1) * sem;
  return [mean - half, mean + half];
}

/** Comparisons over the same number of queries share their quantile. */
const quantiles = new Map<string, number>();

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

/** Two-sided p of a standard normal z: 2 P(Z <= -|z|) (scipy: 2 * ndtr(-|z|)). */
export function normalTwoSided(z: number): number {
  if (Number.isNaN(z)) return NaN;
  return 2 * (normalCdf(-Math.abs(z), 0, 1) as number);
}

/** P(X <= k) for X ~ Binomial(n, p). */
export function binomialLowerTail(k: number, n: number, p: number): number {
  return binomialCdf(k, n, p) as number;
}
