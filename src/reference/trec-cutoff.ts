/**
 * relative_p@k = rel(k) / min(k, R); 0 when R = 0                       trec_eval relative_P_k
 *   (precision against the best possible at k: precision up to R, recall past it)
 * unj@k        = (ranks 1..min(k, N) holding a document without a judgment ("nonpool") or with a
 *                negative label ("unjudged")) / k; ranks past N count as judged  trec_eval unj_k
 */
import type { ResolvedOptions } from "../options.js";
import { numRelevant, ranksRead, ratio, relevantInTop, type Query } from "./ranking.js";

export function relativeP(q: Query, k: number, o: ResolvedOptions): number {
  const r = numRelevant(q, o);
  return ratio(relevantInTop(q, k, o), Math.min(k, r));
}

export function unjudgedAt(q: Query, k: number): number {
  let count = 0;
  for (let i = 0; i < ranksRead(q, k); i++) {
    const label = q.ranking[i].label;
    if (label === undefined || label < 0) count++;
  }
  return ratio(count, k === 0 ? q.ranking.length : k);
}
