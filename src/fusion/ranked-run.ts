// Runs as ranx holds them, for the learned methods and optimizeFusion, which read a run whole: query ids
// in ranx's order, each query's documents in ranx's order (normalize.ts's Ranked, sorted by order.ts).
import { setOwn } from "../errors/errors.js";
import { queryIds, queryObject, type Ranked, rankedQuery, reordered } from "./normalize.js";
import { rankOrder } from "./order.js";
import type { ScoredRun } from "./run-shapes.js";

/**
 * A run as ranx's Run holds it: its queries in ranx's order, each query's documents in an order (ids, or
 * numbers for them: normalize.ts's Ranked).
 */
export interface RankedRun<D = string> {
  readonly qids: readonly string[];
  readonly lists: Map<string, Ranked<D>>;
}

/**
 * `run` as ranx's Run(run) makes it: each query's documents sorted from their order in the object
 * (Object.keys: as written, but integer-like ids first, as JavaScript orders an object's keys).
 * `where` names the run in messages.
 */
export function rankedRun(run: ScoredRun, where: string): RankedRun {
  const qids = queryIds(run);
  const lists = new Map<string, Ranked>();
  for (const q of qids) lists.set(q, rankedQuery(run[q], `${where}[${JSON.stringify(q)}]`));
  return { qids, lists };
}

/** `list` sorted again from its present order, as ranx's Run.sort() sorts a run already in one. */
export function resortedList(list: Ranked): Ranked {
  return reordered(list, rankOrder(list.scores));
}

/** `run` sorted again (Run.sort() of a run ranx has not marked sorted: a normalised one). */
export function resorted(run: RankedRun): RankedRun {
  const lists = new Map<string, Ranked>();
  for (const q of run.qids) lists.set(q, resortedList(run.lists.get(q)!));
  return { qids: run.qids, lists };
}

/** A RankedRun as `{ qid: { docid: score } }`, each query's documents in their order. */
export function scoredRun(run: RankedRun): ScoredRun {
  const out: Record<string, Record<string, number>> = {};
  for (const q of run.qids) setOwn(out, q, queryObject(run.lists.get(q)!));
  return out;
}
