/**
 * fall_out@k = (judged non-relevant documents in ranks 1..min(k, N)) / NR, NR = the query's judged
 * non-relevant documents; 1 if NR = 0 (torchmetrics' RetrievalFallOut, empty_target_action "pos").
 */
import type { ResolvedOptions } from "../options.js";
import { isJudgedNonRelevant, ranksRead, type Query } from "./ranking.js";

export function fallOut(q: Query, k: number, o: ResolvedOptions): number {
  const all = q.judged.filter((label) => isJudgedNonRelevant(label, o)).length;
  if (all === 0) return 1;
  return q.ranking.slice(0, ranksRead(q, k)).filter((d) => isJudgedNonRelevant(d.label, o)).length / all;
}
