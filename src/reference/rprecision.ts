/**
 * r-precision = rel(R) / R      (0/0 = 0; rel(R) counts relevant documents in ranks 1..min(R, N))
 */
import type { ResolvedOptions } from "../options.js";
import { numRelevant, ratio, relevantInTop, type Query } from "./ranking.js";

export function rPrecision(q: Query, o: ResolvedOptions): number {
  const r = numRelevant(q, o);
  return r === 0 ? 0 : ratio(relevantInTop(q, r, o), r);
}
