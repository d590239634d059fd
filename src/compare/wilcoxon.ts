// The Wilcoxon signed-rank test over paired differences, as scipy 1.17's
// `scipy.stats.wilcoxon(run, baseline)` with its defaults (zero_method="wilcox", correction=False,
// method="auto"; scipy/stats/_wilcoxon.py):
//   - zeros are dropped; the others are ranked by |d|, equal |d| sharing their average rank;
//   - R+ and R- are the rank sums of the positive and negative d; the statistic is min(R+, R-);
//   - p, two-sided, by the first rule that applies, where n counts the zeros too:
//       n > 50                          the normal approximation
//       no ties and no zeros            the exact distribution of R+ (2^count equally likely signs)
//       n <= 13                         the permutation distribution: all 2^n sign flips of d
//       otherwise                       the normal approximation
//     normal approximation: z = (R+ - count(count+1)/4) / sqrt((count(count+1)(2count+1) -
//     sum(t^3 - t)/2) / 24) over the tie groups t of the nonzero |d|; p = 2 Phi(-|z|), no
//     continuity correction.
import { normalTwoSided } from "./dists.js";

export interface WilcoxonResult {
  /** min(R+, R-). */
  readonly statistic: number;
  readonly p: number;
  /** Which rule gave p. */
  readonly method: "exact" | "permutation" | "normal";
}

/** scipy's size limits for method="auto". */
export const WILCOXON_EXACT_MAX_N = 50;
export const WILCOXON_PERMUTATION_MAX_N = 13;

export function wilcoxon(d: ArrayLike<number>): WilcoxonResult {
  const n = d.length;
  const nonzero: number[] = [];
  for (let i = 0; i < n; i++) if (d[i] !== 0) nonzero.push(i);
  const count = nonzero.length;
  const rank = new Float64Array(n); // 0 for zeros
  const order = nonzero.slice().sort((a, b) => Math.abs(d[a]) - Math.abs(d[b]));
  let tieCorrection = 0;
  let hasTies = false;
  for (let i = 0; i < count; ) {
    let j = i + 1;
    while (j < count && Math.abs(d[order[j]]) === Math.abs(d[order[i]])) j++;
    const t = j - i;
    const average = (i + 1 + j) / 2; // ranks i+1 .. j
    for (let k = i; k < j; k++) rank[order[k]] = average;
    if (t > 1) {
      hasTies = true;
      tieCorrection += t * t * t - t;
    }
    i = j;
  }
  let rPlus = 0;
  let rMinus = 0;
  for (let i = 0; i < n; i++) {
    if (d[i] > 0) rPlus += rank[i];
    else if (d[i] < 0) rMinus += rank[i];
  }
  const statistic = Math.min(rPlus, rMinus);
  const zeros = n - count;
  if (n <= WILCOXON_EXACT_MAX_N && !hasTies && zeros === 0) {
    return { statistic, p: exactP(rPlus, count), method: "exact" };
  }
  if (n <= WILCOXON_EXACT_MAX_N && n <= WILCOXON_PERMUTATION_MAX_N) {
    return { statistic, p: permutationP(d, rank, rPlus), method: "permutation" };
  }
  const mean = (count * (count + 1)) / 4;
  const se = Math.sqrt((count * (count + 1) * (2 * count + 1) - tieCorrection / 2) / 24);
  return { statistic, p: normalTwoSided((rPlus - mean) / se), method: "normal" };
}

const distributions = new Map<number, Float64Array>();

/**
 * counts[k] = how many of the 2^n sign assignments of the ranks 1..n give R+ = k (subsets of
 * {1..n} summing to k); below 2^50 for n <= 50, so exact in doubles.
 */
export function signedRankCounts(n: number): Float64Array {
  let counts = distributions.get(n);
  if (counts) return counts;
  const max = (n * (n + 1)) / 2;
  counts = new Float64Array(max + 1);
  counts[0] = 1;
  for (let r = 1; r <= n; r++) {
    for (let k = (r * (r + 1)) / 2; k >= r; k--) counts[k] += counts[k - r];
  }
  distributions.set(n, counts);
  return counts;
}

/**
 * 2 min(P(R+ >= floor(r)), P(R+ <= ceil(r))), at most 1: scipy's exact two-sided p (a statistic
 * that is not an integer, which only ties make, is rounded away from the centre, as scipy does).
 */
function exactP(rPlus: number, n: number): number {
  const counts = signedRankCounts(n);
  const total = 2 ** n;
  let lower = 0;
  for (let k = 0; k <= Math.min(Math.ceil(rPlus), counts.length - 1); k++) lower += counts[k];
  let upper = 0;
  for (let k = Math.max(0, Math.floor(rPlus)); k < counts.length; k++) upper += counts[k];
  return Math.min(1, (2 * Math.min(lower, upper)) / total);
}

/**
 * scipy.stats.permutation_test over all 2^n sign flips of d (zeros included: their flips change
 * nothing), the statistic R+ of each: 2 min(#{R+* <= R+}, #{R+* >= R+}) / 2^n, at most 1, with
 * scipy's tolerance of 100 ulp of the observed statistic.
 */
function permutationP(d: ArrayLike<number>, rank: Float64Array, rPlus: number): number {
  const n = d.length;
  const gamma = Math.abs(rPlus) * 100 * Number.EPSILON;
  let less = 0;
  let greater = 0;
  const flips = 2 ** n;
  for (let mask = 0; mask < flips; mask++) {
    let r = 0;
    for (let i = 0; i < n; i++) {
      const positive = (mask >> i) & 1 ? d[i] < 0 : d[i] > 0;
      if (positive) r += rank[i];
    }
    if (r <= rPlus + gamma) less++;
    if (r >= rPlus - gamma) greater++;
  }
  return Math.min(1, (2 * Math.min(less, greater)) / flips);
}
