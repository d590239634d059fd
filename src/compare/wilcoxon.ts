// scipy 1.17's `wilcoxon(run, baseline)` with its defaults (zero_method="wilcox", correction=False,
// method="auto"; scipy/stats/_wilcoxon.py): zeros dropped, average ranks for ties, statistic min(R+, R-);
// p by the first rule that applies (n counting zeros): n > 50 normal; no ties nor zeros exact; n <= 13
// all 2^n sign flips; else normal, z = (R+ - c(c+1)/4) / sqrt((c(c+1)(2c+1) - sum(t^3 - t)/2) / 24).
import { normalTwoSided } from "../stats/dists.js";

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
  const { rPlus, rMinus, count, hasTies, tieCorrection } = signedRanks(d);
  const statistic = Math.min(rPlus, rMinus);
  const zeros = n - count;
  if (n <= WILCOXON_EXACT_MAX_N && !hasTies && zeros === 0) {
    return { statistic, p: exactP(rPlus, count), method: "exact" };
  }
  if (n <= WILCOXON_EXACT_MAX_N && n <= WILCOXON_PERMUTATION_MAX_N) {
    return { statistic, p: permutationP(d, rPlus), method: "permutation" };
  }
  const mean = (count * (count + 1)) / 4;
  const se = Math.sqrt((count * (count + 1) * (2 * count + 1) - tieCorrection / 2) / 24);
  return { statistic, p: normalTwoSided((rPlus - mean) / se), method: "normal" };
}

/** Sums of half-integers: exact in any order. */
function signedRanks(d: ArrayLike<number>) {
  let np = 0;
  let nn = 0;
  for (let i = 0; i < d.length; i++) {
    if (d[i] > 0) np++;
    else if (d[i] < 0) nn++;
  }
  const pos = new Float64Array(np);
  const neg = new Float64Array(nn);
  np = nn = 0;
  for (let i = 0; i < d.length; i++) {
    if (d[i] > 0) pos[np++] = d[i];
    else if (d[i] < 0) neg[nn++] = -d[i];
  }
  pos.sort();
  neg.sort();
  let rPlus = 0;
  let rMinus = 0;
  let tieCorrection = 0;
  let hasTies = false;
  let ranked = 0;
  for (let i = 0, j = 0; i < np || j < nn; ) {
    const v = j >= nn || (i < np && pos[i] <= neg[j]) ? pos[i] : neg[j];
    let cp = 0;
    let cn = 0;
    while (i < np && pos[i] === v) i++, cp++;
    while (j < nn && neg[j] === v) j++, cn++;
    const t = cp + cn;
    const average = ranked + (t + 1) / 2; // ranks ranked+1 .. ranked+t
    rPlus += cp * average;
    rMinus += cn * average;
    if (t > 1) {
      hasTies = true;
      tieCorrection += t * t * t - t;
    }
    ranked += t;
  }
  return { rPlus, rMinus, count: ranked, hasTies, tieCorrection };
}

const distributions = new Map<number, Float64Array>();

/** counts[k]: subsets of {1..n} summing to k; below 2^50 for n <= 50, so exact. */
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

/** scipy's exact p: 2 min(P(R+ >= floor(r)), P(R+ <= ceil(r))), at most 1. */
function exactP(rPlus: number, n: number) {
  const counts = signedRankCounts(n);
  const total = 2 ** n;
  let lower = 0;
  for (let k = 0; k <= Math.min(Math.ceil(rPlus), counts.length - 1); k++) lower += counts[k];
  let upper = 0;
  for (let k = Math.max(0, Math.floor(rPlus)); k < counts.length; k++) upper += counts[k];
  return Math.min(1, (2 * Math.min(lower, upper)) / total);
}

/** scipy's permutation_test over all 2^n sign flips: 2 min(#{R+* <= R+}, #{R+* >= R+}) / 2^n, tolerance 100 ulp. */
function permutationP(d: ArrayLike<number>, rPlus: number) {
  const n = d.length;
  // Average ranks among the nonzero |d|, by counting.
  const rank = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (d[i] === 0) continue;
    let below = 0;
    let equal = 0;
    for (let k = 0; k < n; k++) {
      if (d[k] === 0) continue;
      if (Math.abs(d[k]) < Math.abs(d[i])) below++;
      else if (Math.abs(d[k]) === Math.abs(d[i])) equal++;
    }
    rank[i] = below + (equal + 1) / 2;
  }
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
