// mse = mean over the ranked documents of (score - label)^2; unjudged documents count as label 0.
// 0 for an empty ranking. Not a ranking measure: the seed notebooks report it beside nDCG.
import { N, order, rankLabel, scores, f64At, i32At } from "../state";

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
