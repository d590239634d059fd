// Graded measures from the prefix arrays; definitions: src/reference/formulas-graded.ts.
import {
  N, R, J, order, scores, keys, rankLabel, cumDcg, idcg, discount, idealKeys, idealIdx, tmpA, tmpB, gainOf, gainTable,
  gainTableLength, judged, judgedStart, judgedEnd, levelOf, f64At, i32At, ranksFor, positiveJudged,
} from "../ranking/state";
import { sortDescCountInversions, sortPairs } from "../ranking/sort";

/** ndcg without a cutoff is trec_eval's ndcg; with one, ndcg_cut_k. */
export function dcg(k: i32): f64 {
  return f64At(cumDcg, ranksFor(k));
}

export function ndcg(k: i32): f64 {
  const ideal = f64At(idcg, k == 0 || k > J ? J : k);
  return ideal > 0 ? f64At(cumDcg, ranksFor(k)) / ideal : 0;
}

/** ERR as gdeval computes it: labels above max count as max. */
export function err(k: i32, maxGrade: f64): f64 {
  const n = ranksFor(k);
  const scale = Math.pow(2.0, maxGrade);
  let notYetStopped: f64 = 1;
  let sum: f64 = 0;
  for (let r = 0; r < n; r++) {
    const label = f64At(rankLabel, r);
    if (label > 0) {
      const g = label < maxGrade ? label : maxGrade;
      const p = (Math.pow(2.0, g) - 1) / scale;
      sum += (notYetStopped * p) / <f64>(r + 1);
      notYetStopped *= 1 - p;
    }
  }
  return sum;
}

/** mse: no ranking measure, but the seed notebooks report it. */
export function mse(): f64 {
  if (N == 0) return 0;
  let sum: f64 = 0;
  for (let r = 0; r < N; r++) {
    const l = f64At(rankLabel, r);
    const d = f64At(scores, i32At(order, r)) - (l == l ? l : 0);
    sum += d * d;
  }
  return sum / <f64>N;
}

// trec_eval's rbp and rbp_resid: its rbp reads min and max uninitialised (this is the intended one);
// rbp_resid adds the tail p^N only when some document is unjudged (trec_eval's quirk).
/** The largest gain over levels 0..L, L the highest judged label >= 0 (-1: none). */
function maxLevelGain(): f64 {
  let top: f64 = -1;
  for (let j = judgedStart; j < judgedEnd; j++) {
    const label = f64At(judged, j);
    if (label > top) top = label;
  }
  if (top < 0) return 0;
  // The table's levels (custom tables need not grow), then the top label's gain, which bounds those
  // past the table.
  let best = gainOf(top);
  const last = levelOf(top) >= 0 ? <i32>top : (top >= <f64>gainTableLength ? gainTableLength - 1 : <i32>top);
  for (let l = 0; l <= last; l++) {
    const g = f64At(gainTable, l);
    if (g > best) best = g;
  }
  return best;
}

export function rbp(p: f64): f64 {
  const top = maxLevelGain();
  const scale = top > 1 ? top : 1;
  let weight: f64 = 1; // p^(i-1)
  let sum: f64 = 0;
  for (let i = 0; i < N; i++) {
    const g = gainOf(f64At(rankLabel, i));
    if (g != 0) sum += (g / scale) * weight;
    weight *= p;
  }
  return (1 - p) * sum;
}

export function rbpResidual(p: f64): f64 {
  let weight: f64 = 1;
  let sum: f64 = 0;
  let any = false;
  for (let i = 0; i < N; i++) {
    if (!(f64At(rankLabel, i) >= 0)) {
      any = true;
      sum += weight;
    }
    weight *= p;
  }
  return any ? weight + (1 - p) * sum : 0;
}

// trec_eval's G, ndcg_rel and Rndcg: ndcg_rel reads idcg(min(i, J)); rndcg adds dcg(N) / idcg(J) only
// when N >= J + 2, as trec_eval's loop. idealKeys is free: prefix-sums.ts uses it only while ranking.
function idealGains(): i32 {
  const n = positiveJudged(judged, judgedStart, judgedEnd, true, idealKeys, idealIdx);
  sortPairs(idealKeys, idealIdx, n);
  return n;
}

// @ts-ignore: decorator
@inline function ideal(i: i32, j: i32): f64 {
  return i < j ? f64At(idealKeys, i) : 0;
}

export function trecG(): f64 {
  const J = idealGains();
  if (J == 0) return 0;
  let total: f64 = 0;
  for (let i = 0; i < J; i++) total += f64At(idealKeys, i);
  let results: f64 = 0;
  let cost: f64 = 0;
  let sum: f64 = 0;
  for (let i = 0; i < N; i++) {
    const g = gainOf(f64At(rankLabel, i));
    results += g;
    const ig = ideal(i, J);
    cost += ig >= 1 ? ig : 1;
    if (g != 0) sum += g / Math.log2(2 + cost - results);
  }
  return sum / total;
}

export function ndcgRel(): f64 {
  const J = idealGains();
  if (J == 0) return 0;
  let idcg: f64 = 0;
  let sum: f64 = 0;
  let counted = 0;
  for (let i = 0; i < N; i++) {
    if (i < J) idcg += f64At(idealKeys, i) * f64At(discount, i + 1);
    if (gainOf(f64At(rankLabel, i)) > 0) {
      sum += f64At(cumDcg, i + 1) / idcg;
      counted++;
    }
  }
  for (let i = N; i < J; i++) idcg += f64At(idealKeys, i) * f64At(discount, i + 1);
  sum += <f64>(J - counted) * f64At(cumDcg, N) / idcg;
  return sum > 0 ? sum / <f64>J : 0;
}

export function rndcg(): f64 {
  if (R == 0) return 0;
  const J = idealGains();
  let idcg: f64 = 0;
  let sum: f64 = 0;
  let points = 0;
  for (let i = 1; i <= J; i++) {
    idcg += f64At(idealKeys, i - 1) * f64At(discount, i);
    if (ideal(i, J) != f64At(idealKeys, i - 1)) {
      sum += f64At(cumDcg, i < N ? i : N) / idcg;
      points++;
    }
  }
  if (J > 0 && N >= J + 2) {
    sum += f64At(cumDcg, N) / idcg;
    points++;
  }
  return sum / <f64>points;
}

// inversions: counted by merge sort in O(n log n); kendall_tau: tau-b (scipy.stats.kendalltau's default).
// @ts-ignore: decorator
@inline function labelAt(r: i32): f64 {
  const l = f64At(rankLabel, r);
  return l == l ? l : 0;
}

export function inversions(): f64 {
  for (let r = 0; r < N; r++) store<f64>(tmpA + (<usize>r << 3), labelAt(r));
  return sortDescCountInversions(tmpA, N, tmpB);
}

// @ts-ignore: decorator
@inline function tiedPairs(t: i32): f64 {
  return (<f64>t * <f64>(t - 1)) / 2;
}

/** Tied pairs of n sorted values: t(t-1)/2 per run of t equal ones. */
function tiedPairsIn(a: usize, n: i32): f64 {
  let pairs: f64 = 0;
  let same = 1;
  for (let j = 1; j <= n; j++) {
    if (j < n && f64At(a, j) == f64At(a, j - 1)) same++;
    else {
      pairs += tiedPairs(same);
      same = 1;
    }
  }
  return pairs;
}

export function kendallTau(): f64 {
  const n = N;
  let n1: f64 = 0;
  let n3: f64 = 0;
  // Labels descending within equal scores: score-tied pairs are never discordant, and n3 can be counted.
  let runStart = 0;
  for (let r = 0; r < n; r++) store<f64>(tmpA + (<usize>r << 3), labelAt(r));
  for (let i = 1; i <= n; i++) {
    if (i == n || f64At(keys, i) != f64At(keys, runStart)) {
      const t = i - runStart;
      if (t > 1) {
        n1 += tiedPairs(t);
        const run = tmpA + (<usize>runStart << 3);
        sortDescCountInversions(run, t, tmpB);
        n3 += tiedPairsIn(run, t);
      }
      runStart = i;
    }
  }
  const discordant = sortDescCountInversions(tmpA, n, tmpB);
  const n2 = tiedPairsIn(tmpA, n);
  const n0 = tiedPairs(n);
  const denominator = Math.sqrt((n0 - n1) * (n0 - n2));
  return denominator > 0 ? (n0 - n1 - n2 + n3 - 2 * discordant) / denominator : 0;
}
