/**
 * num_ret     = N, the length of the ranking (after depth)
 * num_rel     = R, relevant documents among the query's judgments
 * num_rel_ret = rel(N)
 */
import type { ResolvedOptions } from "../options.js";
import { numRelevant, relevantInTop, type Query } from "./ranking.js";

export const numRet = (q: Query): number => q.ranking.length;
export const numRel = (q: Query, o: ResolvedOptions): number => numRelevant(q, o);
export const numRelRet = (q: Query, o: ResolvedOptions): number => relevantInTop(q, 0, o);
