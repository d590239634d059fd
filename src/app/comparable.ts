// What --compare and the page's comparison share. Browser-safe.
import type { Result } from "../pipeline/evaluate.js";
import { conventionsLine } from "../measures/options.js";
import { sortedOrder } from "../c/strings.js";
import { parseTrecMeasures, trecLines } from "../trec/measures.js";
import type { Plan } from "./plan.js";
/** A report row: printed name, key of its values. */
export interface Row {
  readonly name: string;
  readonly measure: string;
}

/** trec_eval lines with no per-query number: text, counts, gm_* (map and bpref compare theirs). */
const NOT_PER_QUERY = new Set(
  trecLines(parseTrecMeasures(["all_trec"], []))
    .filter((l) => !l.perQuery || (l.print !== "float" && l.print !== "long"))
    .map((l) => l.name),
);

export function notPerQuery(name: string) {
  return NOT_PER_QUERY.has(name);
}

/**
 * A plan's comparable rows in report order; left out: `left`, no per-query number; `counts`, counts not in
 * `named` (num_ret, num_rel...: fixed by judgments or depth, their tests say nothing or NaN).
 */
export function comparableRows(p: Plan, named?: readonly string[]) {
  const perQuery = p.rows.filter((r) => !notPerQuery(r.name));
  const asked = new Set(named);
  const isCount = (r: Row) => p.measures.some((m) => m.name === r.measure && m.family.isCount === true);
  const counts = named ? perQuery.filter((r) => isCount(r) && !asked.has(r.name)).map((r) => r.name) : [];
  const rows = perQuery.filter((r) => !counts.includes(r.name));
  const kept = new Set(perQuery.map((r) => r.name));
  const left = trecLines(p.trec)
    .filter((l) => l.summary && !kept.has(l.name))
    .map((l) => l.name);
  return { rows, left, counts };
}

export function leftOutOfComparison(c: { left: readonly string[]; counts: readonly string[] }) {
  return [
    ...(c.left.length ? [`not per-query numbers, left out of the comparison: ${c.left.join(", ")}`] : []),
    ...(c.counts.length ? [`counts, left out of the comparison (-m NAME compares one): ${c.counts.join(", ")}`] : []),
  ];
}

/** A result as compare() takes it: rows by printed name, queries in byte order (as per-query files: same p-values). */
export function comparableResult(result: Result<string>, rows: readonly Row[]): Result<string> {
  const order = sortedOrder(result.qids);
  const sorted = order.every((q, i) => q === i);
  const values: Record<string, Float64Array> = {};
  const mean: Record<string, number> = {};
  const counted: Record<string, number> = {};
  const measureConventions: Record<string, string> = {};
  for (const r of rows) {
    const v = result.values[r.measure];
    values[r.name] = sorted ? v : Float64Array.from(order, (i) => v[i]);
    mean[r.name] = result.mean[r.measure];
    counted[r.name] = result.counted[r.measure];
    measureConventions[r.name] = result.measureConventions[r.measure] ?? "";
  }
  const conventions = conventionsLine(rows.map((r) => ({ name: r.name, conventions: measureConventions[r.name] })));
  return {
    ...result,
    measures: rows.map((r) => r.name),
    qids: sorted ? result.qids : order.map((i) => result.qids[i]),
    values,
    mean,
    counted,
    conventions,
    measureConventions,
  };
}
