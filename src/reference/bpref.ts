/**
 * bpref = (1/R) Σ over relevant ranked documents d of (1 − min(n_d, R) / min(NR, R))
 *                                                                    (Buckley & Voorhees 2004)
 * n_d = judged non-relevant documents ranked above d; NR = the query's judged non-relevant
 * documents (0 <= label < threshold), retrieved or not. Unjudged ranked documents (no judgment, or a
 * negative label) are skipped. A term is 1 when n_d = 0. 0/0 = 0.
 */
import type { ResolvedOptions } from "../options.js";
import { isJudgedNonRelevant, isRelevant, numRelevant, ratio, type Query } from "./ranking.js";

export function bpref(q: Query, o: ResolvedOptions): number {
  const R = numRelevant(q, o);
  const NR = q.judged.filter((label) => isJudgedNonRelevant(label, o)).length;
  let sum = 0;
  let nonRelevantAbove = 0;
  for (const d of q.ranking) {
    if (isRelevant(d.label, o)) {
      sum += nonRelevantAbove === 0 ? 1 : 1 - Math.min(nonRelevantAbove, R) / Math.min(NR, R);
    } else if (isJudgedNonRelevant(d.label, o)) {
      nonRelevantAbove++;
    } // else: unjudged, skipped
  }
  return ratio(sum, R);
}
