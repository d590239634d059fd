// Discounted cumulative gain (Järvelin & Kekäläinen 2002), discount 1/log2(rank + 1).
//
// dcg@k  = sum over ranks i <= k of gain(label_i) / log2(i + 1)
// ndcg@k = dcg@k / idcg@k, where the ideal ranking sorts the gains of ALL the query's judged documents,
//          retrieved or not (trec_eval ndcg_cut_k; ndcg without cutoff = trec_eval ndcg). 0 if idcg = 0.
import { J, cumDcg, idcg, f64At, ranksFor } from "../state";

export function dcg(k: i32): f64 {
  return f64At(cumDcg, ranksFor(k));
}

export function ndcg(k: i32): f64 {
  const ideal = f64At(idcg, k == 0 || k > J ? J : k);
  return ideal > 0 ? f64At(cumDcg, ranksFor(k)) / ideal : 0;
}
