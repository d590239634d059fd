import { sortedOrder } from "../c/strings.js";
import { geoLogs, hasGeoLogs, knownGeoLogs, summariesOf, tieRangeOf } from "./aggregate.js";
import type { Evaluated } from "./evaluate.js";
import type { TieRange } from "./evaluate.js";

/**
 * One run's results from blocks of disjoint queries (blocks.ts): queries in strcmp order, every summary
 * taken here in that order from the per-query values, as for the run read whole.
 */
export function mergeBlocks(parts: readonly Evaluated[], notJudged: number, notInRun: number): Evaluated {
  const first = parts[0].result;
  if (parts.length === 1) {
    // One block (a whole run, a LETOR file): its queries stay in their order.
    const queries = { ...first.queries, skipped: { ...first.queries.skipped, notJudged, notInRun } };
    const aggregates = parts[0].aggregates ?? {};
    const { mean, counted, interval } = summariesOf(first.values, (key) => aggregates[key] ?? "mean");
    let tieRange: Record<string, TieRange> | undefined;
    if (first.tieRange) {
      tieRange = {};
      for (const [key, t] of Object.entries(first.tieRange)) {
        tieRange[key] = tieRangeOf(t.worst, t.best, aggregates[key] ?? "mean");
      }
    }
    return {
      result: { ...first, mean, counted, interval, queries, ...(tieRange ? { tieRange } : {}) },
      strings: parts[0].strings,
      aggregates: parts[0].aggregates,
    };
  }
  // Each key summarised as its blocks were (a sum, a geometric mean: not always the mean).
  const aggregates = parts[0].aggregates ?? {};
  const qids = parts.flatMap((p) => p.result.qids);
  const order = sortedOrder(qids);
  /** The blocks' arrays end to end, in strcmp order (a plain loop: Float64Array.from's callback was slow). */
  const gather = (of: (p: Evaluated) => Float64Array) => {
    const all = new Float64Array(qids.length);
    let at = 0;
    for (const p of parts) {
      all.set(of(p), at);
      at += p.result.qids.length;
    }
    const sorted = new Float64Array(qids.length);
    for (let i = 0; i < sorted.length; i++) sorted[i] = all[order[i]];
    return sorted;
  };
  const values: Record<string, Float64Array> = {};
  for (const key of Object.keys(first.values)) {
    values[key] = gather((p) => p.result.values[key]);
    // A geometric mean's logs, made for each block's values, gathered the same way (not made again).
    if (aggregates[key] === "geomean" && parts.every((p) => hasGeoLogs(p.result.values[key]))) {
      knownGeoLogs(
        values[key],
        gather((p) => geoLogs(p.result.values[key])),
      );
    }
  }
  const { mean, counted, interval } = summariesOf(values, (key) => aggregates[key] ?? "mean");
  let tieRange: Record<string, TieRange> | undefined;
  if (first.tieRange) {
    tieRange = {};
    for (const key of Object.keys(first.tieRange)) {
      const side = (w: "worst" | "best") => gather((p) => p.result.tieRange![key][w]);
      tieRange[key] = tieRangeOf(side("worst"), side("best"), aggregates[key] ?? "mean");
    }
  }
  const strings: Record<string, string[]> = {};
  for (const key of Object.keys(parts[0].strings)) {
    const all = parts.flatMap((p) => p.strings[key]);
    strings[key] = order.map((i) => all[i]);
  }
  const noRelevant = parts.reduce((n, p) => n + p.result.queries.skipped.noRelevant, 0);
  const queries = { evaluated: qids.length, skipped: { noRelevant, notJudged, notInRun } };
  return {
    result: {
      ...first,
      qids: order.map((i) => qids[i]),
      values,
      mean,
      counted,
      interval,
      queries,
      ...(tieRange ? { tieRange } : {}),
    },
    strings,
    aggregates: parts[0].aggregates,
  };
}
