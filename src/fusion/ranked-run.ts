import { setOwn } from "../errors/errors.js";
import { queryIds, queryObject, type Ranked, rankedQuery, reordered } from "./normalize.js";
import { rankOrder } from "./order.js";
import type { ScoredRun } from "./run-shapes.js";

/** A run as ranx's Run holds it: queries and each query's documents in ranx's order. */
export interface RankedRun<D = string> {
  readonly qids: readonly string[];
  readonly lists: Map<string, Ranked<D>>;
}

/** ranx's Run(run): each query sorted from its Object.keys order (integer-like ids first). */
export function rankedRun(run: ScoredRun, where: string): RankedRun {
  const qids = queryIds(run);
  const lists = new Map<string, Ranked>();
  for (const q of qids) lists.set(q, rankedQuery(run[q], `${where}[${JSON.stringify(q)}]`));
  return { qids, lists };
}

/** ranx's Run.sort() of a run already in an order. */
export function resortedList(list: Ranked): Ranked {
  return reordered(list, rankOrder(list.scores));
}

/** Run.sort() of a run not marked sorted (a normalised one). */
export function resorted(run: RankedRun): RankedRun {
  const lists = new Map<string, Ranked>();
  for (const q of run.qids) lists.set(q, resortedList(run.lists.get(q)!));
  return { qids: run.qids, lists };
}

export function scoredRun(run: RankedRun): ScoredRun {
  const out: Record<string, Record<string, number>> = {};
  for (const q of run.qids) setOwn(out, q, queryObject(run.lists.get(q)!));
  return out;
}
