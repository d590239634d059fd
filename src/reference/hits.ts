/**
 * hits@k = rel(k): the number of relevant documents in ranks 1..min(k, N), the whole list without a
 * cutoff (ranx's hits: ranx/metrics/hits.py _hits, which counts the run's top k found among the
 * qrels with a label >= rel_lvl).
 */
import type { ResolvedOptions } from "../options.js";
import { relevantInTop, type Query } from "./ranking.js";

export function hits(q: Query, k: number, o: ResolvedOptions): number {
  return relevantInTop(q, k, o);
}
