// utility(a, b, c, d, n) = a rel(N) + b (N - rel(N)) + c (R - rel(N)) + d (n + rel(N) - N - R):
//   the contingency table of retrieved x relevant weighted; n is the number of documents in the
//   collection (trec_eval -N, default 0). Default (1, -1, 0, 0, 0).       trec_eval utility
import { N, R, cumRel, f64At } from "../state";

export function utility(a: f64, b: f64, c: f64, d: f64, n: f64): f64 {
  const relRet = f64At(cumRel, N);
  return a * relRet + b * (<f64>N - relRet) + c * (<f64>R - relRet) + d * (n + relRet - <f64>N - <f64>R);
}
