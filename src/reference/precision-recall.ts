/**
 * precision@k = rel(k) / k            (without a cutoff: rel(N) / N; 0/0 = 0)
 * recall@k    = rel(k) / R            (0/0 = 0)
 * f1@k        = 2·P·Rc / (P + Rc), P = precision@k, Rc = recall@k   (van Rijsbergen 1979; 0/0 = 0)
 * rel(k) counts relevant documents in ranks 1..min(k, N): ranks past N count as non-relevant.
 */
import type { ResolvedOptions } from "../options.js";
import { numRelevant, ratio, relevantInTop, type Query } from "./ranking.js";

export function precision(q: Query, k: number, o: ResolvedOptions): number {
  return ratio(relevantInTop(q, k, o), k === 0 ? q.ranking.length : k);
}

export function recall(q: Query, k: number, o: ResolvedOptions): number {
  return ratio(relevantInTop(q, k, o), numRelevant(q, o));
}

export function f1(q: Query, k: number, o: ResolvedOptions): number {
  const p = precision(q, k, o);
  const rc = recall(q, k, o);
  return ratio(2 * p * rc, p + rc);
}
