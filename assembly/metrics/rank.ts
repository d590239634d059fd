// Measures of the ranks at which relevant documents appear. S(k) is the sum over relevant documents at
// ranks i <= k of rel(i)/i (with ties "average", its expectation over every order of each tie).
//
// map@k              = S(k) / R                                  trec_eval map, map_cut_k
//                      (the denominator is R, not min(R, k), as trec_eval; 0 if R = 0)
// map_lightgbm@k     = S(k) / min(R, k, N) (k = N without a cutoff)   LightGBM map_metric.hpp CalMapAtK
// map_xgboost@k      = S(k) / rel(N), 0 if rel(N) = 0            XGBoost rank_metric.cc EvalMAP
// map_torchmetrics@k = S(k) / rel(k), 0 if rel(k) = 0            torchmetrics retrieval/average_precision.py,
//                                                                 TF-Ranking MeanAveragePrecisionMetric
// map_ptranking@k    = S(k) / (the sum of the top min(k, J) judged labels), 0 if that is 0
//                                                                 ptranking adhoc_metric.py torch_ap_at_ks
// map_over_k@k       = S(k) / k (S(N) / N without a cutoff), 0 if N = 0   ptranking's seed tutorial tor_ap_at_ks
// mrr@k              = 1 / rank of the first relevant document if it is within k, else 0   trec_eval recip_rank
//
// With ties "average" (McSherry & Najork 2008): let the first tie holding a relevant document start
// after a ranks, hold t documents of which r are relevant. The first relevant document of it is at
// its j-th place with probability P(j) = C(t - j, r - 1) / C(t, r), and
//   E[mrr@k] = sum over j <= min(t, k - a) of P(j) / (a + j)
// (relevance.ts hitRate likewise). S(k)'s expectation: apSumAt below.
import {
  N, R, apSum, cumRel, firstRel, firstTieSize, firstTieRelevant, tieMode, TieMode, idealKeys, idealIdx,
  judged, judgedStart, judgedEnd, tieStart, tieDelta, tieCount, reciprocal, f64At, ranksFor, positiveJudged,
} from "../ranking/state";
import { sortPairs } from "../ranking/sort";

/**
 * S(n) from apSum. With ties "average", its expectation: the given order's S plus the differences of the
 * ties before n (prefix-sums.ts averageTies), and within a tie its expected terms up to n.
 */
export function apSumAt(n: i32): f64 {
  if (tieMode != TieMode.AVERAGE || tieCount == 0) return f64At(apSum, <i32>f64At(cumRel, n));
  let g = -1;
  while (g + 1 < tieCount && load<i32>(tieStart + (<usize>(g + 1) << 4)) < n) g++;
  if (g < 0) return f64At(apSum, <i32>f64At(cumRel, n));
  const at = tieStart + (<usize>g << 4);
  const a = load<i32>(at);
  const t = load<i32>(at, 4);
  const before = g > 0 ? f64At(tieDelta + (<usize>(g - 1) << 4), 0) : 0;
  if (n >= a + t) return f64At(apSum, <i32>f64At(cumRel, n)) + f64At(tieDelta + (<usize>g << 4), 0);
  // n inside the tie: S to its start, plus its expected terms at a+1..n.
  const r = load<i32>(at, 8);
  const c = load<i32>(at, 12);
  const share = <f64>r / <f64>t;
  const spread = t > 1 ? <f64>(r - 1) / <f64>(t - 1) : 0;
  let terms: f64 = 0;
  if (r > 0) for (let p = a; p < n; p++) terms += share * (<f64>c + 1 + <f64>(p - a) * spread) * f64At(reciprocal, p + 1);
  return f64At(apSum, c) + before + terms;
}

export function averagePrecision(k: i32): f64 {
  return R == 0 ? 0 : apSumAt(ranksFor(k)) / <f64>R;
}

export function mapLightgbm(k: i32): f64 {
  const n = ranksFor(k);
  const d = R < n ? R : n;
  return d == 0 ? 0 : apSumAt(n) / <f64>d;
}

export function mapXgboost(k: i32): f64 {
  const d = f64At(cumRel, N);
  return d == 0 ? 0 : apSumAt(ranksFor(k)) / d;
}

export function mapTorchmetrics(k: i32): f64 {
  const n = ranksFor(k);
  const d = f64At(cumRel, n);
  return d == 0 ? 0 : apSumAt(n) / d;
}

export function mapPtranking(k: i32): f64 {
  // The top min(k, count) positive judged labels, summed.
  const count = positiveJudged(judged, judgedStart, judgedEnd, false, idealKeys, idealIdx);
  const top = k == 0 || k > count ? count : k;
  if (top < count) sortPairs(idealKeys, idealIdx, count);
  let d: f64 = 0;
  for (let i = 0; i < top; i++) d += f64At(idealKeys, i);
  return d == 0 ? 0 : apSumAt(ranksFor(k)) / d;
}

export function mapOverK(k: i32): f64 {
  const n = ranksFor(k);
  const d = k == 0 ? n : k;
  return d == 0 ? 0 : apSumAt(n) / <f64>d;
}

export function reciprocalRank(k: i32): f64 {
  if (firstRel == 0) return 0;
  const n = ranksFor(k);
  if (tieMode != TieMode.AVERAGE) return firstRel <= n ? 1.0 / <f64>firstRel : 0;
  const a = firstRel - 1;
  const t = firstTieSize;
  const r = <f64>firstTieRelevant;
  const last = n - a < t ? n - a : t;
  // P(j) = S(j-1) r / (t - j + 1), S(j) = P(first > j) = prod_{i<j} (t - r - i) / (t - i).
  let notYet: f64 = 1;
  let sum: f64 = 0;
  for (let j = 1; j <= last; j++) {
    const p = (notYet * r) / <f64>(t - j + 1);
    sum += p / <f64>(a + j);
    notYet *= (<f64>(t - j + 1) - r) / <f64>(t - j + 1);
  }
  return sum;
}
