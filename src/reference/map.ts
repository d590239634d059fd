/**
 * map@k = (1/R) Σ over relevant documents at ranks i <= k of rel(i) / i      (0/0 = 0)
 * Without a cutoff the sum runs over the whole ranking. R counts relevant judged documents,
 * retrieved or not, so relevant documents never retrieved add 0 to the sum but count in R.
 */
import type { ResolvedOptions } from "../options.js";
import { isRelevant, numRelevant, ranksRead, ratio, relevantInTop, type Query } from "./ranking.js";

export function averagePrecision(q: Query, k: number, o: ResolvedOptions): number {
  return ratio(precisionSum(q, k, o), numRelevant(q, o));
}

/** S(k): the sum over relevant documents at ranks i <= k of rel(i) / i. */
function precisionSum(q: Query, k: number, o: ResolvedOptions): number {
  let sum = 0;
  let relSoFar = 0;
  for (let i = 1; i <= ranksRead(q, k); i++) {
    if (!isRelevant(q.ranking[i - 1].label, o)) continue;
    relSoFar++; // rel(i)
    sum += relSoFar / i;
  }
  return sum;
}

/** LightGBM's map@k (map_metric.hpp CalMapAtK): S(k) / min(R, k, N); k = 0 reads N. */
export function mapLightgbm(q: Query, k: number, o: ResolvedOptions): number {
  return ratio(precisionSum(q, k, o), Math.min(numRelevant(q, o), ranksRead(q, k)));
}

/** XGBoost's map@k (rank_metric.cc EvalMAP): S(k) / rel(N), the relevant documents ranked. */
export function mapXgboost(q: Query, k: number, o: ResolvedOptions): number {
  return ratio(precisionSum(q, k, o), relevantInTop(q, 0, o));
}

/** torchmetrics' and TF-Ranking's AP@k: S(k) / rel(k), the relevant documents in the top k. */
export function mapTorchmetrics(q: Query, k: number, o: ResolvedOptions): number {
  return ratio(precisionSum(q, k, o), relevantInTop(q, k, o));
}

/**
 * ptranking's AP@k (adhoc_metric.py torch_ap_at_ks): S(k) / the sum of the top min(k, ...) labels of
 * the ideal ranking (the query's judged labels sorted descending; labels <= 0 add nothing).
 */
export function mapPtranking(q: Query, k: number, o: ResolvedOptions): number {
  const ideal = q.judged.filter((l) => l > 0).sort((a, b) => b - a);
  const top = k === 0 ? ideal : ideal.slice(0, k);
  return ratio(precisionSum(q, k, o), top.reduce((a, b) => a + b, 0));
}
