// A run read in blocks of whole queries (src/pipeline/blocks.ts), its blocks' per-query values
// merged into the run's, in the order and with the summaries the run read whole would have.
import { sortedOrder } from "../c/strings.js";
import { geoLogs, hasGeoLogs, knownGeoLogs, summaryOf } from "./aggregate.js";
import type { Evaluated } from "./evaluate-block.js";
import type { TieRange } from "./evaluate.js";

/**
 * One run's results from blocks of disjoint queries (src/pipeline/blocks.ts) as one: the queries in strcmp
 * order, as the join of the whole file gives them, and the means taken in that order, so every
 * report prints the same numbers as for the run read whole. Every summary is taken here, from the
 * per-query values (the blocks' own are not read: they may have none, BatchExtras.summaries).
 */
export function mergeBlocks(parts: readonly Evaluated[], notJudged: number, notInRun: number): Evaluated {
  const first = parts[0].result;
  if (parts.length === 1) {
    // One block (a whole run, a LETOR file): its queries stay in the order they have, its summaries
    // taken here (a block may come without: BatchExtras.summaries).
    const queries = { ...first.queries, skipped: { ...first.queries.skipped, notJudged, notInRun } };
    const aggregates = parts[0].aggregates ?? {};
    const mean: Record<string, number> = {};
    const counted: Record<string, number> = {};
    for (const key of Object.keys(first.values)) ({ value: mean[key], count: counted[key] } = summaryOf(first.values[key], aggregates[key] ?? "mean"));
    let tieRange: Record<string, TieRange> | undefined;
    if (first.tieRange) {
      tieRange = {};
      for (const [key, t] of Object.entries(first.tieRange)) {
        const agg = aggregates[key] ?? "mean";
        tieRange[key] = { ...t, mean: { worst: summaryOf(t.worst, agg).value, best: summaryOf(t.best, agg).value } };
      }
    }
    return { result: { ...first, mean, counted, queries, ...(tieRange ? { tieRange } : {}) }, strings: parts[0].strings, aggregates: parts[0].aggregates };
  }
  // Each key summarised as its blocks were (a sum, a geometric mean: not always the mean).
  const aggregates = parts[0].aggregates ?? {};
  const qids = parts.flatMap((p) => p.result.qids);
  const order = sortedOrder(qids);
  const values: Record<string, Float64Array> = {};
  const mean: Record<string, number> = {};
  const counted: Record<string, number> = {};
  for (const key of Object.keys(first.values)) {
    const all = new Float64Array(qids.length);
    let at = 0;
    for (const p of parts) {
      all.set(p.result.values[key], at);
      at += p.result.qids.length;
    }
    // A plain loop: Float64Array.from's callback was most of this function's time.
    const sorted = new Float64Array(qids.length);
    for (let i = 0; i < sorted.length; i++) sorted[i] = all[order[i]];
    values[key] = sorted;
    // A geometric mean's logs, made for each block's values, gathered the same way (not made again).
    if (aggregates[key] === "geomean" && parts.every((p) => hasGeoLogs(p.result.values[key]))) {
      const logs = new Float64Array(qids.length);
      at = 0;
      for (const p of parts) {
        logs.set(geoLogs(p.result.values[key]), at);
        at += p.result.qids.length;
      }
      const sortedLogs = new Float64Array(qids.length);
      for (let i = 0; i < sortedLogs.length; i++) sortedLogs[i] = logs[order[i]];
      knownGeoLogs(sorted, sortedLogs);
    }
    ({ value: mean[key], count: counted[key] } = summaryOf(values[key], aggregates[key] ?? "mean"));
  }
  let tieRange: Record<string, TieRange> | undefined;
  if (first.tieRange) {
    tieRange = {};
    for (const key of Object.keys(first.tieRange)) {
      const side = (which: "worst" | "best") => {
        const all = new Float64Array(qids.length);
        let at = 0;
        for (const p of parts) {
          all.set(p.result.tieRange![key][which], at);
          at += p.result.qids.length;
        }
        const sorted = new Float64Array(qids.length);
        for (let i = 0; i < sorted.length; i++) sorted[i] = all[order[i]];
        return sorted;
      };
      const worst = side("worst");
      const best = side("best");
      const agg = aggregates[key] ?? "mean";
      tieRange[key] = { worst, best, mean: { worst: summaryOf(worst, agg).value, best: summaryOf(best, agg).value } };
    }
  }
  const strings: Record<string, string[]> = {};
  for (const key of Object.keys(parts[0].strings)) {
    const all = parts.flatMap((p) => p.strings[key]);
    strings[key] = order.map((i) => all[i]);
  }
  const noRelevant = parts.reduce((n, p) => n + p.result.queries.skipped.noRelevant, 0);
  const queries = { evaluated: qids.length, skipped: { noRelevant, notJudged, notInRun } };
  return { result: { ...first, qids: order.map((i) => qids[i]), values, mean, counted, queries, ...(tieRange ? { tieRange } : {}) }, strings, aggregates: parts[0].aggregates };
}
