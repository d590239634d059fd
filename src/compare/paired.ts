// The closed-form paired statistics and the t and sign tests. d = run - baseline over the paired queries.
import { binomialLowerTail, studentTwoSided, tIntervalOf } from "../stats/dists.js";
import { npMean, npVarDdof1 } from "../stats/numeric.js";

export interface TestStatistic {
  readonly statistic: number;
  readonly p: number;
}

/**
 * scipy's ttest_rel: t = mean(d) / (sd(d) / sqrt(n)), df = n - 1. NaN for n < 2; sd(d) = 0: t = +-Infinity,
 * p = 0, or both NaN when every d is 0.
 */
export function pairedT(d: ArrayLike<number>): TestStatistic {
  const n = d.length;
  if (n < 2) return { statistic: NaN, p: NaN };
  const mean = npMean(d);
  const t = mean / Math.sqrt(npVarDdof1(d, mean) / n);
  return { statistic: t, p: Number.isNaN(t) ? NaN : Number.isFinite(t) ? studentTwoSided(t, n - 1) : 0 };
}

/**
 * The sign test, scipy's binomtest(wins, wins + losses): p = min(1, 2 P(X <= min(wins, losses))), 1 when
 * wins = losses (Binomial(n, 1/2) is symmetric); NaN when every query ties.
 */
export function signTest(wins: number, losses: number): TestStatistic {
  const n = wins + losses;
  if (n === 0) return { statistic: NaN, p: NaN };
  const p = wins === losses ? 1 : Math.min(1, 2 * binomialLowerTail(Math.min(wins, losses), n, 0.5));
  return { statistic: wins / n, p };
}

export interface Description {
  /** Means over the n paired queries. */
  readonly baselineMean: number;
  readonly runMean: number;
  /** mean(run - baseline). */
  readonly difference: number;
  /** 95% Student t interval of the difference. */
  readonly ci95: readonly [number, number];
  /** (runMean - baselineMean) / baselineMean, in percent; NaN when baselineMean is 0. */
  readonly relative: number;
  /** d_z = mean(d) / sd(d). */
  readonly effectSize: number;
  /** sd(d), with n - 1. */
  readonly sd: number;
  readonly wins: number;
  readonly ties: number;
  readonly losses: number;
}

export function describe(run: ArrayLike<number>, baseline: ArrayLike<number>, d: ArrayLike<number>): Description {
  const n = d.length;
  const baselineMean = npMean(baseline);
  const runMean = npMean(run);
  const difference = npMean(d);
  const variance = npVarDdof1(d, difference);
  const sd = Math.sqrt(variance);
  let wins = 0;
  let ties = 0;
  for (let q = 0; q < n; q++) {
    if (run[q] > baseline[q]) wins++;
    else if (run[q] === baseline[q]) ties++;
  }
  return {
    baselineMean,
    runMean,
    difference,
    ci95: tIntervalOf(difference, variance, n, 0.95),
    relative: baselineMean === 0 ? NaN : ((runMean - baselineMean) / baselineMean) * 100,
    effectSize: difference / sd,
    sd,
    wins,
    ties,
    losses: n - wins - ties,
  };
}
