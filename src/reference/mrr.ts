/**
 * mrr@k = 1/i for the rank i of the first relevant document if i <= k, else 0   (Voorhees 1999)
 * Without a cutoff: the whole ranking.
 */
import type { ResolvedOptions } from "../options.js";
import { isRelevant, ranksRead, type Query } from "./ranking.js";

export function reciprocalRank(q: Query, k: number, o: ResolvedOptions): number {
  for (let i = 1; i <= ranksRead(q, k); i++) {
    if (isRelevant(q.ranking[i - 1].label, o)) return 1 / i;
  }
  return 0;
}
