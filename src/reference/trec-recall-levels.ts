/**
 * trec_eval's recall-level measures (TREC_EVAL_SEMANTICS.md (a)). P(j) = rel(j)/j.
 *
 * iprec_at_recall(recall=x): c = lround(x·R) (trec_eval 10). 0 if c > rel(N); otherwise the
 *   interpolated precision max{P(j) : j >= rank of the c-th relevant document} (c = 0: of the first
 *   relevant document; with none ranked the value is P(N) = 0).          trec_eval iprec_at_recall_x
 * 11pt_avg: the mean of iprec_at_recall at x = 0.0, 0.1, ..., 1.0.      trec_eval 11pt_avg
 * rprec_mult(x=x): precision at c = trunc(x·R + 0.9) ranks, ranks past N non-relevant; 0 if c = 0.
 *                                                                        trec_eval Rprec_mult_x
 */
import type { ResolvedOptions } from "../options.js";
import { isRelevant, numRelevant, relevantInTop, type Query } from "./ranking.js";

export function iprecAtRecall(q: Query, x: number, o: ResolvedOptions): number {
  const n = q.ranking.length;
  const relRet = relevantInTop(q, 0, o);
  const c = Math.round(x * numRelevant(q, o)); // x·R >= 0: Math.round's halves up are lround's
  if (c > relRet || n === 0) return 0;
  if (relRet === 0) return 0;
  // The rank of the max(c, 1)-th relevant document.
  let seen = 0;
  let from = 0;
  for (let j = 1; j <= n; j++) {
    if (isRelevant(q.ranking[j - 1].label, o) && ++seen === Math.max(c, 1)) {
      from = j;
      break;
    }
  }
  let best = 0;
  for (let j = from; j <= n; j++) best = Math.max(best, relevantInTop(q, j, o) / j);
  return best;
}

export function elevenPointAverage(q: Query, o: ResolvedOptions): number {
  let sum = 0;
  for (let i = 0; i <= 10; i++) sum += iprecAtRecall(q, i / 10, o);
  return sum / 11;
}

export function rPrecisionMult(q: Query, x: number, o: ResolvedOptions): number {
  const c = Math.trunc(x * numRelevant(q, o) + 0.9);
  return c <= 0 ? 0 : relevantInTop(q, c, o) / c;
}
