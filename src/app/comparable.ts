// What --compare and the page's comparison share: the rows of a plan that can be compared, and a run's
// result made ready for compare() under their printed names and conventions. Browser-safe.
import type { Result } from "../pipeline/evaluate.js";
import { conventionsLine } from "../measures/options.js";
import { sortedOrder } from "../c/strings.js";
import { parseTrecMeasures, trecLines } from "../trec/measures.js";
import type { Plan } from "./plan.js";
/** A row of a report: its printed name and the key of its values in a run's result. */
export interface Row {
  readonly name: string;
  readonly measure: string;
}

/** trec_eval's lines that are no per-query number: text, counts, and geometric means (map and bpref compare theirs). */
const NOT_PER_QUERY: ReadonlySet<string> = new Set(
  trecLines(parseTrecMeasures(["all_trec"], []))
    .filter((l) => !l.perQuery || (l.print !== "float" && l.print !== "long"))
    .map((l) => l.name),
);

/** Whether a printed name is one of trec_eval's lines that are no per-query number (NOT_PER_QUERY). */
export function notPerQuery(name: string): boolean {
  return NOT_PER_QUERY.has(name);
}

/**
 * The rows of a plan that can be compared, in report order, and the names of those left out: `left`,
 * no per-query number; `counts`, given `named` (the -m names), the counts not named there (num_ret,
 * num_rel, num_rel_ret of trec_eval's default set: what the judgments or the depth fix, not a ranking's
 * quality, whose tests say nothing or NaN).
 */
export function comparableRows(p: Plan, named?: readonly string[]): { rows: Row[]; left: string[]; counts: string[] } {
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

/** What comparableRows left out, said (without the program's name). */
export function leftOutOfComparison(c: { left: readonly string[]; counts: readonly string[] }): string[] {
  return [
    ...(c.left.length ? [`not per-query numbers, left out of the comparison: ${c.left.join(", ")}`] : []),
    ...(c.counts.length ? [`counts, left out of the comparison (-m NAME compares one): ${c.counts.join(", ")}`] : []),
  ];
}

/**
 * A run's result as compare() takes it: the rows given under their printed names, queries in byte
 * order (the per-query files' order: resampling's random signs follow it, so p-values come out the same).
 */
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
