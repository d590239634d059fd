// Resampling tests over the kernel. Pairs over the same queries share one call: a pair's statistic is
// the difference of its runs' sums, so ten runs cost ten columns, not forty-five pairs.
import { badInput, shown } from "../errors/errors.js";
import { kernelBootstrapSums, kernelRandomizationSums, kernelTukeyRanges } from "../kernel/significance-kernel.js";
import { pairwiseSum, quantileSorted } from "../stats/numeric.js";
import { monteCarloP, randomizationExact, tolerance } from "./resampling-rules.js";

/** Column indices. */
export interface ColumnPair {
  readonly run: number;
  readonly baseline: number;
}

export interface ResamplingResult {
  /** The observed mean difference (run - baseline). */
  readonly statistic: number;
  readonly p: number;
  /** bootstrap: the 95% percentile interval. */
  readonly ci95?: readonly [number, number];
}

function differences(run: ArrayLike<number>, baseline: ArrayLike<number>): { d: Float64Array; absoluteSum: number } {
  const d = new Float64Array(run.length);
  let absoluteSum = 0;
  for (let q = 0; q < d.length; q++) {
    d[q] = run[q] - baseline[q];
    absoluteSum += Math.abs(run[q]) + Math.abs(baseline[q]);
  }
  return { d, absoluteSum };
}

/** Iterations first .. first + iterations - 1 of a test: plain data, for a worker. */
export type ResamplingJob = {
  readonly rows: number;
  readonly iterations: number;
  readonly first: number;
  readonly seed: number;
} & (
  | { readonly kind: "randomization" | "bootstrap"; readonly columns: readonly Float64Array[] }
  | { readonly kind: "tukey"; readonly values: readonly (readonly Float64Array[])[] }
);

/** Runs a job in this thread: `iterations` values per column (per measure for tukey). */
export function runResamplingJob(job: ResamplingJob): Float64Array[] {
  const kind = (job as { kind?: unknown } | null)?.kind;
  if (kind !== "randomization" && kind !== "bootstrap" && kind !== "tukey")
    throw badInput(`runResamplingJob: job must be a ResamplingJob (compareAsync's pool runs them), not ${shown(job)}`);
  switch (job.kind) {
    case "randomization":
      return kernelRandomizationSums(job.columns, job.rows, job.iterations, job.seed, job.first);
    case "bootstrap":
      return kernelBootstrapSums(job.columns, job.rows, job.iterations, job.seed, job.first);
    case "tukey":
      return kernelTukeyRanges(job.values, job.rows, job.iterations, job.seed, job.first);
  }
}

type FromSums = (
  columns: readonly ArrayLike<number>[],
  rows: number,
  pairs: readonly ColumnPair[],
  iterations: number,
  sums: readonly Float64Array[],
) => ResamplingResult[];

/** Else: no rows, or exact enumeration. */
export function randomizationNeedsKernel(rows: number, iterations: number) {
  return rows > 0 && 2 ** rows > iterations;
}

/**
 * Fisher's paired randomization test of the mean difference: p = (1 + #{|T*| >= |T|}) / (1 + B) over B
 * random sign vectors (the kernel's sums), or exactly over all 2^rows when 2^rows <= B.
 */
export const randomizationFromSums: FromSums = (columns, rows, pairs, iterations, sums) => {
  if (rows === 0) return pairs.map(() => ({ statistic: NaN, p: NaN }));
  const exact = !randomizationNeedsKernel(rows, iterations);
  return pairs.map(({ run, baseline }) => {
    const { d, absoluteSum } = differences(columns[run], columns[baseline]);
    const observed = pairwiseSum(d);
    const tol = tolerance(absoluteSum);
    if (exact) return { statistic: observed / rows, p: randomizationExact(d, tol) };
    const threshold = Math.abs(observed) - tol;
    const x = sums[run];
    const y = sums[baseline];
    let hits = 0;
    for (let b = 0; b < iterations; b++) if (Math.abs(x[b] - y[b]) >= threshold) hits++;
    return { statistic: observed / rows, p: monteCarloP(hits, iterations) };
  });
};

/**
 * The paired bootstrap of the mean difference: the 95% percentile interval, and the shifted-bootstrap p
 * (Sakai 2006) = (1 + #{|mean* - mean| >= |mean|}) / (1 + B). NaN under 2 queries.
 */
export const bootstrapFromSums: FromSums = (columns, rows, pairs, iterations, sums) => {
  if (rows < 2)
    return pairs.map(({ run, baseline }) => ({
      statistic: rows === 1 ? columns[run][0] - columns[baseline][0] : NaN,
      p: NaN,
      ci95: [NaN, NaN] as const,
    }));
  return pairs.map(({ run, baseline }) => {
    const { d, absoluteSum } = differences(columns[run], columns[baseline]);
    const means = new Float64Array(iterations);
    for (let b = 0; b < iterations; b++) means[b] = (sums[run][b] - sums[baseline][b]) / rows;
    return bootstrapSummary(d, absoluteSum, means);
  });
};

function pairedTest(kind: "randomization" | "bootstrap", fromSums: FromSums) {
  return (
    columns: readonly Float64Array[],
    rows: number,
    pairs: readonly ColumnPair[],
    iterations: number,
    seed: number,
  ): ResamplingResult[] => {
    const needed = kind === "randomization" ? randomizationNeedsKernel(rows, iterations) : rows >= 2;
    const sums = needed ? runResamplingJob({ kind, columns, rows, iterations, first: 0, seed }) : [];
    return fromSums(columns, rows, pairs, iterations, sums);
  };
}

export const randomizationTests = pairedTest("randomization", randomizationFromSums);
export const bootstrapTests = pairedTest("bootstrap", bootstrapFromSums);

/** Shared with the reference. */
export function bootstrapSummary(d: Float64Array, absoluteSum: number, means: Float64Array): ResamplingResult {
  const rows = d.length;
  const mean = pairwiseSum(d) / rows;
  const threshold = Math.abs(mean) - tolerance(absoluteSum) / rows;
  let hits = 0;
  for (let b = 0; b < means.length; b++) if (Math.abs(means[b] - mean) >= threshold) hits++;
  const sorted = means.slice().sort();
  return {
    statistic: mean,
    p: monteCarloP(hits, means.length),
    ci95: [quantileSorted(sorted, 0.025), quantileSorted(sorted, 0.975)],
  };
}

/**
 * The randomised Tukey HSD (Carterette 2012), values[s][r] measure s's column of run r: each query's values
 * shuffled among the runs; p = (1 + #{max mean* - min mean* >= |mean_run - mean_baseline|}) / (1 + B).
 */
export function tukeyTests(
  values: readonly (readonly Float64Array[])[],
  rows: number,
  pairs: readonly ColumnPair[],
  iterations: number,
  seed: number,
): ResamplingResult[][] {
  if (rows === 0) return values.map(() => pairs.map(() => ({ statistic: NaN, p: NaN })));
  const ranges = runResamplingJob({ kind: "tukey", values, rows, iterations, first: 0, seed });
  return values.map((runs, s) => tukeyCounts(runs, rows, pairs, ranges[s]));
}

/** Shared with the reference. */
export function tukeyCounts(
  runs: readonly ArrayLike<number>[],
  rows: number,
  pairs: readonly ColumnPair[],
  ranges: ArrayLike<number>,
): ResamplingResult[] {
  let absoluteSum = 0;
  const sums = runs.map((column) => {
    let s = 0;
    for (let q = 0; q < rows; q++) {
      s += column[q];
      absoluteSum += Math.abs(column[q]);
    }
    return s;
  });
  const tol = tolerance(absoluteSum);
  return pairs.map(({ run, baseline }) => {
    const observed = sums[run] - sums[baseline];
    const threshold = Math.abs(observed) - tol;
    let hits = 0;
    for (let b = 0; b < ranges.length; b++) if (ranges[b] >= threshold) hits++;
    return { statistic: observed / rows, p: monteCarloP(hits, ranges.length) };
  });
}
