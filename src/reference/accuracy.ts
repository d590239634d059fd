/**
 * ir_measures' Accuracy: of the pairs (relevant, non-relevant) among the top k retrieved documents,
 * the share with the relevant one ranked first; relevant: label >= the threshold, a document without
 * a judgment counting as label 0. NaN when the top k has no relevant or no non-relevant document.
 */
import type { ResolvedOptions } from "../options.js";
import type { Query } from "./ranking.js";

export function pairAccuracy(q: Query, k: number, o: ResolvedOptions): number {
  const top = k === 0 ? q.ranking : q.ranking.slice(0, k);
  const rel = top.map((d) => (d.label ?? 0) >= o.relevanceThreshold);
  let pairs = 0;
  let ordered = 0;
  for (let i = 0; i < rel.length; i++) {
    for (let j = 0; j < rel.length; j++) {
      if (!rel[i] || rel[j]) continue;
      pairs++;
      if (i < j) ordered++;
    }
  }
  return pairs === 0 ? NaN : ordered / pairs;
}
