/**
 * utility(a, b, c, d, n) = a·rel(N) + b·(N − rel(N)) + c·(R − rel(N)) + d·(n + rel(N) − N − R):
 * the retrieved/relevant contingency table, weighted; n is the number of documents in the collection
 * (trec_eval -N, default 0).                                              trec_eval utility
 */
import type { ResolvedOptions } from "../options.js";
import { numRelevant, relevantInTop, type Query } from "./ranking.js";

export function utility(q: Query, w: Readonly<Record<string, number>>, o: ResolvedOptions): number {
  const relRet = relevantInTop(q, 0, o);
  const ret = q.ranking.length;
  const rel = numRelevant(q, o);
  return w.a * relRet + w.b * (ret - relRet) + w.c * (rel - relRet) + w.d * (w.n + relRet - ret - rel);
}
