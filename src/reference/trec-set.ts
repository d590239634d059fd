/**
 * trec_eval's set measures (TREC_EVAL_SEMANTICS.md (a)): the ranking taken as a set of N documents
 * of which a = rel(N) are relevant; R as in the README. "0/0 = 0".
 *
 * set_p          = a / N                                   trec_eval set_P
 * set_relative_p = a / min(N, R)                           trec_eval set_relative_P
 * set_recall     = a / R                                   trec_eval set_recall
 * set_map        = a² / (N·R)                              trec_eval set_map
 * set_f(beta)    = (beta + 1)·P·Rc / (beta·P + Rc) with P = set_p, Rc = set_recall, 0 when a = 0
 *                                                          trec_eval set_F (van Rijsbergen 1979)
 * num_nonrel_judged_ret = ranked documents with a judgment 0 <= label < threshold (judged, not
 *                  relevant; documents without a judgment or with a negative label are left out)
 */
import type { ResolvedOptions } from "../options.js";
import { isRelevant, numRelevant, ratio, type Query } from "./ranking.js";

const relRet = (q: Query, o: ResolvedOptions) => q.ranking.filter((d) => isRelevant(d.label, o)).length;

export const setP = (q: Query, o: ResolvedOptions): number => ratio(relRet(q, o), q.ranking.length);

export const setRelativeP = (q: Query, o: ResolvedOptions): number =>
  ratio(relRet(q, o), Math.min(q.ranking.length, numRelevant(q, o)));

export const setRecall = (q: Query, o: ResolvedOptions): number => ratio(relRet(q, o), numRelevant(q, o));

export const setMap = (q: Query, o: ResolvedOptions): number =>
  ratio(relRet(q, o) ** 2, q.ranking.length * numRelevant(q, o));

export function setF(q: Query, o: ResolvedOptions, beta: number): number {
  if (relRet(q, o) === 0) return 0;
  const p = setP(q, o);
  const rc = setRecall(q, o);
  return ((beta + 1) * p * rc) / (beta * p + rc);
}

export const numNonrelJudgedRet = (q: Query, o: ResolvedOptions): number =>
  q.ranking.filter((d) => d.label !== undefined && d.label >= 0 && !isRelevant(d.label, o)).length;
