/**
 * map@k = (1/R) Σ over relevant documents at ranks i <= k of rel(i) / i      (0/0 = 0)
 * Without a cutoff the sum runs over the whole ranking. R counts relevant judged documents,
 * retrieved or not, so relevant documents never retrieved add 0 to the sum but count in R.
 */
import type { ResolvedOptions } from "../options.js";
import { isRelevant, numRelevant, ranksRead, ratio, type Query } from "./ranking.js";

export function averagePrecision(q: Query, k: number, o: ResolvedOptions): number {
  let sum = 0;
  let relSoFar = 0;
  for (let i = 1; i <= ranksRead(q, k); i++) {
    if (!isRelevant(q.ranking[i - 1].label, o)) continue;
    relSoFar++; // rel(i)
    sum += relSoFar / i;
  }
  return ratio(sum, numRelevant(q, o));
}
