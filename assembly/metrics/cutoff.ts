// Binary measures read at a cutoff from cumRel, the count of relevant documents in ranks 1..i.
// Ranks past the list are non-relevant (trec_eval's padding).
//
// precision@k   = rel(k) / k                                     trec_eval P_k
// recall@k      = rel(k) / R                                     trec_eval recall_k
// f1@k          = 2 P R / (P + R), 0 when both are 0              (van Rijsbergen's F with beta = 1, at k)
// hit_rate@k    = 1 if rel(k) > 0 else 0                          trec_eval success_k
//                 (with ties "average" the probability of that: metrics/rank.ts)
// hits@k        = rel(k), the whole list without a cutoff           ranx hits (metrics/hits.py)
// r-precision   = rel(R) / R                                     trec_eval Rprec
// (0 where the denominator is 0.)
import { N, R, cumRel, firstRel, firstTieSize, firstTieRelevant, tieMode, TieMode, f64At, ranksFor } from "../state";

export function precision(k: i32): f64 {
  const n = ranksFor(k);
  const denominator = k == 0 ? n : k; // precision without a cutoff is over the whole list (set_P)
  return denominator == 0 ? 0 : f64At(cumRel, n) / <f64>denominator;
}

export function recall(k: i32): f64 {
  return R == 0 ? 0 : f64At(cumRel, ranksFor(k)) / <f64>R;
}

export function f1(k: i32): f64 {
  const p = precision(k);
  const r = recall(k);
  return p + r == 0 ? 0 : (2 * p * r) / (p + r);
}

export function hitRate(k: i32): f64 {
  if (tieMode != TieMode.AVERAGE) return f64At(cumRel, ranksFor(k)) > 0 ? 1 : 0;
  // The mean over tie orders (metrics/rank.ts): 1 - C(t - r, m) / C(t, m) within the first tie
  // holding a relevant document, m = k - a of its t places read (0 for m <= 0, 1 for m > t - r).
  if (firstRel == 0) return 0;
  const m = ranksFor(k) - (firstRel - 1);
  const t = firstTieSize;
  const r = firstTieRelevant;
  if (m <= 0) return 0;
  if (m >= t - r + 1) return 1;
  let none: f64 = 1;
  for (let i = 0; i < m; i++) none *= <f64>(t - r - i) / <f64>(t - i);
  return 1 - none;
}

export function hits(k: i32): f64 {
  return f64At(cumRel, ranksFor(k));
}

export function rPrecision(): f64 {
  return R == 0 ? 0 : f64At(cumRel, R < N ? R : N) / <f64>R;
}
