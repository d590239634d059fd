// Measures of the ranks at which relevant documents appear.
//
// map@k = (1/R) * sum over relevant documents at ranks i <= k of rel(i)/i      trec_eval map, map_cut_k
//         (the denominator is R, not min(R, k), as trec_eval; 0 if R = 0)
// mrr@k = 1 / rank of the first relevant document if it is within k, else 0   trec_eval recip_rank
import { R, apSum, cumRel, firstRel, f64At, ranksFor } from "../state";

export function averagePrecision(k: i32): f64 {
  return R == 0 ? 0 : f64At(apSum, <i32>f64At(cumRel, ranksFor(k))) / <f64>R;
}

export function reciprocalRank(k: i32): f64 {
  return firstRel != 0 && firstRel <= ranksFor(k) ? 1.0 / <f64>firstRel : 0;
}
