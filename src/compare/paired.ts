// The closed-form paired statistics and the t and sign tests. d = run - baseline over the paired queries.
import { binomialLowerTail, studentTwoSided, tIntervalOf } from "../stats/dists.js";
import { npMean, npVarDdof1 } from "../stats/numeric.js";

export interface TestStatistic {
  readonly statistic: number;
  readonly p: number;
}

/**
 * Paired Student's t: t = mean(d) / (sd(d) / sqrt(n)), sd with n - 1, df = n - 1; p = 2 P(T_df <=
 * -|t|). scipy.stats.ttest_rel(run, baseline). NaN for n < 2; with sd(d) = 0, t is +-Infinity and
 * p = 0 when mean(d) != 0, both NaN when every d is 0 (as scipy).
 */
export function pairedT(d: ArrayLike<number>): TestStatistic {
  const n = d.length;
  if (n < 2) return { statistic: NaN, p: NaN };
  const mean = npMean(d);
  const t = mean / Math.sqrt(npVarDdof1(d, mean) / n);
  return { statistic: t, p: Number.isNaN(t) ? NaN : Number.isFinite(t) ? studentTwoSided(t, n - 1) : 0 };
}

/**
 * The sign test: wins and losses (ties dropped) against Binomial(wins + losses, 1/2), two-sided:
 * p = min(1, 2 P(X <= min(wins, losses))), 1 when wins = losses; the statistic is wins / (wins +
 * losses). scipy.stats.binomtest(wins, wins + losses).pvalue, whose two-sided rule (the outcomes no
 * more likely than the observed one) is this sum for p = 1/2, where the distribution is symmetric.
 * NaN when every query ties.
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
  /** sd(d), with n - 1: what the paired t-test's power and a topic set size depend on. */
  readonly sd: number;
  readonly wins: number;
  readonly ties: number;
  readonly losses: number;
}

/**
 * The comparison's numbers over the paired queries; the interval is mean(d) +- t_{0.975, n-1} sd(d) / sqrt(n)
 * (tIntervalOf, the evaluation's t interval of a mean).
 */
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
