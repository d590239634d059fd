// Cutoff measures of trec_eval's all_trec that the prefix arrays of cutoff.ts do not cover.
//
// relative_p@k = rel(k) / min(k, R); 0 if R = 0                       trec_eval relative_P_k
//   (precision relative to the best possible at k: precision up to R, recall after it)
// unj@k        = (documents in ranks 1..min(k, N) without a judgment or with a negative label) / k
//   (ranks past the list count as judged, as trec_eval pads)           trec_eval unj_k
// judged@k     = (documents in ranks 1..n with a judgment, any label) / n, n = min(k, N); 0 if N = 0
//   (ir_measures' Judged@k: providers/judged_provider.py divides by the cutoff cut to the list)
import { N, R, cumRel, rankLabel, f64At, ranksFor } from "../state";

export function relativeP(k: i32): f64 {
  if (R == 0) return 0;
  const best = k < R ? k : R;
  return f64At(cumRel, ranksFor(k)) / <f64>best;
}

export function unjudgedAt(k: i32): f64 {
  const n = ranksFor(k);
  let unjudged = 0;
  for (let r = 0; r < n; r++) unjudged += <i32>!(f64At(rankLabel, r) >= 0); // NaN (no judgment) or negative
  const denominator = k == 0 ? N : k;
  return denominator == 0 ? 0 : <f64>unjudged / <f64>denominator;
}

export function judgedAt(k: i32): f64 {
  const n = ranksFor(k);
  let judged = 0;
  for (let r = 0; r < n; r++) judged += <i32>(f64At(rankLabel, r) == f64At(rankLabel, r)); // not NaN: judged
  return n == 0 ? 0 : <f64>judged / <f64>n;
}
