import { sortedOrder } from "../c/strings.js";
import { geoLogs, hasGeoLogs, knownGeoLogs, summariesOf, tieRangeOf } from "./aggregate.js";
import type { Evaluated, TieRange } from "./evaluate.js";

/** One run's results from blocks of disjoint queries: queries in strcmp order, summaries taken as for the whole run. */
export function mergeBlocks(parts: readonly Evaluated[], notJudged: number, notInRun: number): Evaluated {
  const first = parts[0].result;
  const aggregates = parts[0].aggregates ?? {};
  const aggregateOf = (key: string) => aggregates[key] ?? "mean";
  // One block: its queries keep their order.
  const qids = parts.length === 1 ? first.qids : parts.flatMap((p) => p.result.qids);
  const order = parts.length === 1 ? null : sortedOrder(qids);
  /** Blocks' arrays in strcmp order (a plain loop: Float64Array.from's callback was slow). */
  const gather = (of: (p: Evaluated) => Float64Array) => {
    if (!order) return of(parts[0]);
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
    // The blocks' geometric-mean logs, gathered too, not made again.
    if (order && aggregates[key] === "geomean" && parts.every((p) => hasGeoLogs(p.result.values[key]))) {
      knownGeoLogs(
        values[key],
        gather((p) => geoLogs(p.result.values[key])),
      );
    }
  }
  const { mean, counted, interval } = summariesOf(values, aggregateOf);
  let tieRange: Record<string, TieRange> | undefined;
  if (first.tieRange) {
    tieRange = {};
    for (const key of Object.keys(first.tieRange)) {
      const side = (w: "worst" | "best") => gather((p) => p.result.tieRange![key][w]);
      tieRange[key] = tieRangeOf(side("worst"), side("best"), aggregateOf(key));
    }
  }
  let strings = parts[0].strings;
  if (order) {
    strings = {};
    for (const key of Object.keys(parts[0].strings)) {
      const all = parts.flatMap((p) => p.strings[key]);
      strings[key] = order.map((i) => all[i]);
    }
  }
  const noRelevant = parts.reduce((n, p) => n + p.result.queries.skipped.noRelevant, 0);
  const queries = { evaluated: qids.length, skipped: { noRelevant, notJudged, notInRun } };
  return {
    result: {
      ...first,
      qids: order ? order.map((i) => qids[i]) : qids,
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
