// The resampling tests written plainly, one pair at a time, from the definitions: the oracle the
// kernel-backed tests (src/compare/resampling.ts) are checked against. It draws the same random stream
// (_splitmix.ts), so the p-values must be equal, not only close.
import { pairwiseSum } from "../src/stats/numeric.js";
import { drawDigits, HalfStream, planBatches, signFlips } from "./_splitmix.js";
import { bootstrapSummary, tukeyCounts, type ColumnPair, type ResamplingResult } from "../src/compare/resampling.js";
import { monteCarloP, randomizationExact, tolerance } from "../src/compare/resampling-rules.js";

function differences(run: ArrayLike<number>, baseline: ArrayLike<number>) {
  const d = Float64Array.from({ length: run.length }, (_, q) => run[q] - baseline[q]);
  let absoluteSum = 0;
  for (let q = 0; q < d.length; q++) absoluteSum += Math.abs(run[q]) + Math.abs(baseline[q]);
  return { d, absoluteSum };
}

export function referenceRandomization(
  run: ArrayLike<number>,
  baseline: ArrayLike<number>,
  iterations: number,
  seed: number,
): ResamplingResult {
  const n = run.length;
  if (n === 0) return { statistic: NaN, p: NaN };
  const { d, absoluteSum } = differences(run, baseline);
  const observed = pairwiseSum(d);
  const tol = tolerance(absoluteSum);
  if (2 ** n <= iterations) return { statistic: observed / n, p: randomizationExact(d, tol) };
  let hits = 0;
  for (let b = 0; b < iterations; b++) {
    const flips = signFlips(seed, b, n);
    let t = 0;
    for (let q = 0; q < n; q++) t += flips[q] ? -d[q] : d[q];
    if (Math.abs(t) >= Math.abs(observed) - tol) hits++;
  }
  return { statistic: observed / n, p: monteCarloP(hits, iterations) };
}

/** The resampled means of the bootstrap: resample b draws n indices (bounds n, batched). */
export function referenceBootstrapMeans(d: ArrayLike<number>, iterations: number, seed: number): Float64Array {
  const n = d.length;
  const bounds = new Array<number>(n).fill(n);
  const batches = planBatches(bounds);
  const means = new Float64Array(iterations);
  for (let b = 0; b < iterations; b++) {
    const picks = drawDigits(new HalfStream(seed, b), bounds, batches);
    let s = 0;
    for (const j of picks) s += d[j];
    means[b] = s / n;
  }
  return means;
}

export function referenceBootstrap(
  run: ArrayLike<number>,
  baseline: ArrayLike<number>,
  iterations: number,
  seed: number,
): ResamplingResult {
  const { d, absoluteSum } = differences(run, baseline);
  if (d.length < 2) return { statistic: d.length === 1 ? d[0] : NaN, p: NaN, ci95: [NaN, NaN] };
  return bootstrapSummary(d, absoluteSum, referenceBootstrapMeans(d, iterations, seed));
}

/** Every permutation of offset..offset+n-1, in lexicographic order. */
function permutations(n: number, offset: number): number[][] {
  if (n === 0) return [[]];
  const out: number[][] = [];
  for (let first = 0; first < n; first++) {
    for (const rest of permutations(n - 1, 0))
      out.push([first, ...rest.map((v) => (v >= first ? v + 1 : v))].map((v) => v + offset));
  }
  return out;
}

/**
 * A query's permutation of m runs from the stream (assembly/significance.ts, tukeyRanges): up to 12 runs,
 * one uniform index read as (subset, permutation of the first half, of the second); above,
 * Fisher-Yates. Run r receives the value of run perm[r].
 */
export function tukeyPermutations(m: number): (halves: HalfStream) => number[] {
  if (m <= 12) {
    const h = m >> 1;
    const riffles: number[][] = [];
    for (let mask = 0; mask < 1 << m; mask++) {
      let bits = 0;
      for (let r = 0; r < m; r++) bits += (mask >> r) & 1;
      if (bits !== h) continue;
      let inside = 0;
      let outside = h;
      riffles.push(Array.from({ length: m }, (_, r) => ((mask >> r) & 1 ? inside++ : outside++)));
    }
    const first = permutations(h, 0);
    const second = permutations(m - h, h);
    const bounds = [riffles.length, first.length, second.length];
    const batches = planBatches(bounds);
    return (halves) => {
      const [c, a, b] = drawDigits(halves, bounds, batches);
      const ab = [...first[a], ...second[b]];
      return riffles[c].map((k) => ab[k]);
    };
  }
  const bounds = Array.from({ length: m - 1 }, (_, i) => m - i);
  const batches = planBatches(bounds);
  return (halves) => {
    const digits = drawDigits(halves, bounds, batches);
    const perm = Array.from({ length: m }, (_, r) => r);
    for (let i = m - 1; i >= 1; i--) {
      const j = digits[m - 1 - i];
      [perm[i], perm[j]] = [perm[j], perm[i]];
    }
    return perm;
  };
}

/** The range of the run sums in each iteration: runs[r] is run r's column, n queries. */
export function referenceTukeyRanges(
  runs: readonly ArrayLike<number>[],
  iterations: number,
  seed: number,
): Float64Array {
  const m = runs.length;
  const n = runs[0].length;
  const draw = tukeyPermutations(m);
  const ranges = new Float64Array(iterations);
  for (let b = 0; b < iterations; b++) {
    const halves = new HalfStream(seed, b);
    const sums = new Array<number>(m).fill(0);
    for (let q = 0; q < n; q++) {
      const perm = draw(halves);
      for (let r = 0; r < m; r++) sums[r] += runs[perm[r]][q];
    }
    ranges[b] = Math.max(...sums) - Math.min(...sums);
  }
  return ranges;
}

export function referenceTukey(
  runs: readonly ArrayLike<number>[],
  pairs: readonly ColumnPair[],
  iterations: number,
  seed: number,
): ResamplingResult[] {
  const n = runs[0].length;
  if (n === 0) return pairs.map(() => ({ statistic: NaN, p: NaN }));
  return tukeyCounts(runs, n, pairs, referenceTukeyRanges(runs, iterations, seed));
}
