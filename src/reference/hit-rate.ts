/**
 * hit_rate@k = 1 if rel(k) > 0 else 0
 */
import type { ResolvedOptions } from "../options.js";
import { relevantInTop, type Query } from "./ranking.js";

export function hitRate(q: Query, k: number, o: ResolvedOptions): number {
  return relevantInTop(q, k, o) > 0 ? 1 : 0;
}
