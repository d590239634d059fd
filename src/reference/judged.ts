/**
 * judged@k = (documents in ranks 1..n that have a judgment, whatever its label) / n, n = min(k, N);
 * 0 when N = 0. ir_measures' Judged@k (providers/judged_provider.py: the count of the top `cutoff`
 * found in the query's qrels, divided by the cutoff cut to the length of the run).
 */
import { ranksRead, ratio, type Query } from "./ranking.js";

export function judgedAt(q: Query, k: number): number {
  const n = ranksRead(q, k);
  let judged = 0;
  for (let i = 0; i < n; i++) if (q.ranking[i].label !== undefined) judged++;
  return ratio(judged, n);
}
