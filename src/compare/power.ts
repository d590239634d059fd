// The two-sided paired t-test's power, as statsmodels' TTestPower; Sakai's topic set size is its inverse
// in n, the minimum detectable difference its inverse in delta.
import { checkOptions, type OptionType, PROBABILITY, required, usageError } from "../errors/errors.js";
import { studentCdf, studentQuantile } from "../stats/dists.js";
import { normalCdf } from "../stats/stdlib.generated.js";

/** ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms: about 15 significant digits). */
function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  const y = x - 1;
  let a = c[0];
  const t = y + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

const ERROR_MAX = 1e-12;
const TERMS_MAX = 1000;

/**
 * P(T <= t) of the noncentral t (`df` degrees of freedom, noncentrality `delta`): AS 243 as R's pnt;
 * Abramowitz & Stegun 26.7.10's normal approximation past delta 37.62 or df 400,000.
 */
export function noncentralTCdf(t: number, df: number, delta: number) {
  if (Number.isNaN(t) || !(df > 0) || Number.isNaN(delta)) return NaN;
  if (delta === 0) return studentCdf(t, df);
  if (t === Number.POSITIVE_INFINITY) return 1;
  if (t === Number.NEGATIVE_INFINITY) return 0;
  // The series is for t >= 0: P(T <= t) = 1 - P(T <= -t) at -delta.
  const negative = t < 0;
  const tt = negative ? -t : t;
  const del = negative ? -delta : delta;
  if (df > 4e5 || del * del > 2 * Math.LN2 * 1021) {
    const s = 1 / (4 * df);
    const p = normalCdf(tt * (1 - s), del, Math.sqrt(1 + tt * tt * 2 * s)) as number;
    return negative ? 1 - p : p;
  }
  const x = (tt * tt) / (tt * tt + df);
  let tnc = 0;
  if (x > 0) {
    const lambda = del * del;
    let p = 0.5 * Math.exp(-0.5 * lambda);
    if (p === 0) return negative ? 1 : 0;
    let q = Math.sqrt(2 / Math.PI) * p * del;
    let s = 0.5 - p;
    if (s < 1e-7) s = -0.5 * Math.expm1(-0.5 * lambda);
    let a = 0.5;
    const b = 0.5 * df;
    const rxb = (1 - x) ** b;
    const lnBeta = 0.5 * Math.log(Math.PI) + lnGamma(b) - lnGamma(0.5 + b);
    // I_x(1/2, df/2) = 2 P(T <= tt) - 1 of the central t.
    let xodd = 2 * studentCdf(tt, df) - 1;
    let godd = 2 * rxb * Math.exp(a * Math.log(x) - lnBeta);
    const bx = b * x;
    let xeven = bx < Number.EPSILON ? bx : 1 - rxb;
    let geven = bx * rxb;
    tnc = p * xodd + q * xeven;
    for (let it = 1; it <= TERMS_MAX; it++) {
      a += 1;
      xodd -= godd;
      xeven -= geven;
      godd *= (x * (a + b - 1)) / a;
      geven *= (x * (a + b - 0.5)) / (a + 0.5);
      p *= lambda / (2 * it);
      q *= lambda / (2 * it + 1);
      tnc += p * xodd + q * xeven;
      s -= p;
      if (s < -1e-10 || (s <= 0 && it > 1)) break;
      if (Math.abs(2 * s * (xodd - godd)) < ERROR_MAX) break;
    }
  }
  tnc += normalCdf(-del, 0, 1) as number;
  const lower = Math.min(tnc, 1);
  return negative ? 1 - lower : lower;
}

export interface PowerOptions {
  /** Queries (paired values), 2 or more. */
  n: number;
  /** The standard deviation of the per-query differences. */
  sd: number;
  /** The true difference of the means to detect (either sign). */
  delta: number;
  /** The test's level. @default 0.05 */
  alpha?: number;
}

const QUERIES = required({
  test: (v) => typeof v === "number" && Number.isInteger(v) && v >= 2,
  is: "a whole number of queries, 2 or more",
});
const SD = required({
  test: (v) => typeof v === "number" && v > 0 && Number.isFinite(v),
  is: "a finite number above 0",
});
const DELTA = required({ test: (v) => typeof v === "number" && Number.isFinite(v), is: "a finite number" });
const NONZERO = required({
  test: (v) => typeof v === "number" && Number.isFinite(v) && v !== 0,
  is: "a finite number other than 0",
});

/** A target's options checked, defaults filled in; power must be above alpha. */
function target<T extends TargetOptions>(call: string, options: T, types: Readonly<Record<string, OptionType>>) {
  const o = checkOptions(options, { ...types, alpha: PROBABILITY, power: PROBABILITY }, call);
  const alpha = o.alpha ?? 0.05;
  const want = o.power ?? 0.8;
  if (!(want > alpha)) throw usageError(`${call}: power (${want}) must be above alpha (${alpha})`);
  return { o, alpha, want };
}

function powerAt(n: number, sd: number, delta: number, alpha: number) {
  const df = n - 1;
  const nc = (Math.abs(delta) / sd) * Math.sqrt(n);
  const critical = studentQuantile(1 - alpha / 2, df);
  return 1 - noncentralTCdf(critical, df, nc) + noncentralTCdf(-critical, df, nc);
}

/**
 * The probability that the two-sided paired t-test at `alpha` finds a difference `delta` significant over
 * `n` queries with differences' sd `sd` (statsmodels' TTestPower().power(delta / sd, n, alpha)).
 *
 * @example
 * ```ts
 * power({ n: 50, sd: 0.1, delta: 0.03 }); // 0.5477...: 50 queries see a 0.03 gain about half the time
 * ```
 */
export function power(options: PowerOptions) {
  const o = checkOptions(options, { n: QUERIES, sd: SD, delta: DELTA, alpha: PROBABILITY }, "power");
  return powerAt(o.n, o.sd, o.delta, o.alpha ?? 0.05);
}

export interface TargetOptions {
  /** The test's level. @default 0.05 */
  alpha?: number;
  /** The probability of finding the difference significant. @default 0.8 */
  power?: number;
}

const MOST_QUERIES = 1e7;

/**
 * The fewest queries with which the paired t-test at `alpha` finds `delta` significant with probability
 * `power`, given the differences' sd `sd` (Sakai's topic set size design).
 *
 * @example
 * ```ts
 * topicSetSize({ sd: 0.1, delta: 0.03 }); // 90 queries for 80% power at 0.05
 * ```
 */
export function topicSetSize(options: { sd: number; delta: number } & TargetOptions) {
  const call = "topicSetSize";
  const { o, alpha, want } = target(call, options, { sd: SD, delta: NONZERO });
  const { sd, delta } = o;
  // Power grows with n: double, then bisect.
  let lo = 2;
  if (powerAt(lo, sd, delta, alpha) >= want) return lo;
  let hi = 4;
  while (powerAt(hi, sd, delta, alpha) < want) {
    lo = hi;
    hi *= 2;
    if (hi > MOST_QUERIES)
      throw usageError(`${call}: more than ${MOST_QUERIES.toLocaleString("en-US")} queries would be needed`);
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (powerAt(mid, sd, delta, alpha) >= want) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The smallest difference of the means the paired t-test at `alpha` finds significant with probability
 * `power` over `n` queries with differences' sd `sd`.
 *
 * @example
 * ```ts
 * minimumDetectableDifference({ n: 50, sd: 0.1 }); // 0.0404...
 * ```
 */
export function minimumDetectableDifference(options: { n: number; sd: number } & TargetOptions) {
  const { o, alpha, want } = target("minimumDetectableDifference", options, { n: QUERIES, sd: SD });
  const { n, sd } = o;
  let lo = 0;
  let hi = sd;
  while (powerAt(n, sd, hi, alpha) < want) {
    lo = hi;
    hi *= 2;
  }
  for (let i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (powerAt(n, sd, mid, alpha) >= want) hi = mid;
    else lo = mid;
  }
  return hi;
}
