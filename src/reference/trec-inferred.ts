/**
 * Measures of incomplete judgments (TREC_EVAL_SEMANTICS.md (a)). A ranked document is relevant,
 * judged non-relevant (0 <= label < threshold), "unjudged" (a negative label) or "nonpool" (no
 * judgment).
 *
 * infap: Yilmaz & Aslam's inferred AP as trec_eval computes it. For the relevant document at
 *   0-based position j (positions count every ranked document), with rel, nonrel, unj the relevant,
 *   judged non-relevant and unjudged documents above it (nonpool ones are not counted):
 *     term = 1 if j = 0, else 1/(j+1) + (j/(j+1))·((rel+nonrel+unj)/j)·((rel+ε)/(rel+nonrel+2ε)), ε = 1e-5;
 *   infap = Σ terms / R, 0 if R = 0.                                        trec_eval infAP
 * bing: Σ over relevant ranked documents of 1/log2(2 + m), m = documents above it that are not
 *   relevant (of any kind), divided by R; 0 if R = 0.                        trec_eval binG
 */
import type { ResolvedOptions } from "../options.js";
import { isRelevant, numRelevant, ratio, type Query } from "./ranking.js";

const EPSILON = 1e-5;

export function infAP(q: Query, o: ResolvedOptions): number {
  let sum = 0;
  q.ranking.forEach((d, j) => {
    if (!isRelevant(d.label, o)) return;
    if (j === 0) {
      sum += 1;
      return;
    }
    const above = q.ranking.slice(0, j);
    const rel = above.filter((a) => isRelevant(a.label, o)).length;
    const unj = above.filter((a) => a.label !== undefined && a.label < 0).length;
    const nonrel = above.filter((a) => a.label !== undefined && a.label >= 0 && !isRelevant(a.label, o)).length;
    sum += 1 / (j + 1) + (j / (j + 1)) * ((rel + nonrel + unj) / j) * ((rel + EPSILON) / (rel + nonrel + 2 * EPSILON));
  });
  return ratio(sum, numRelevant(q, o));
}

export function binG(q: Query, o: ResolvedOptions): number {
  let sum = 0;
  let notRelevantAbove = 0;
  for (const d of q.ranking) {
    if (isRelevant(d.label, o)) sum += 1 / Math.log2(2 + notRelevantAbove);
    else notRelevantAbove++;
  }
  return ratio(sum, numRelevant(q, o));
}
