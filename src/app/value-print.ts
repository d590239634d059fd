// A per-query value as the command line prints it (trec_eval's `%6.4f` and `%ld` for its names, the
// table's four decimals otherwise), for --explain, the report and the page's drill-downs. Browser-safe.
import { formatLong } from "../c/printf.js";
import { fixed, formatTrecFixed } from "../trec/format.js";
import { trecLines } from "../trec/measures.js";
import { comparableRows } from "./comparable.js";
import type { Plan } from "./plan.js";

/** A value as every cell of a table prints it: four decimals always (1.0000 beside 0.7166), NaN as NaN. */
export const tableValue = (v: number): string => fixed(v, 4);

export type ValuePrint = "float" | "long" | "table";

/** `v` as the CLI prints it under `print` (no padding). */
export function printValue(v: number, print: ValuePrint): string {
  if (print === "long") return formatLong(v);
  if (print === "float") return formatTrecFixed(v, 4);
  return tableValue(v);
}

/** A row of a plan that is a number per query: its printed name, the key of its values, how it prints. */
export interface ValueRow {
  readonly name: string;
  readonly key: string;
  readonly print: ValuePrint;
}

/**
 * The plan's rows that are numbers per query (those --compare compares: not runid, num_q, relstring,
 * gm_map, gm_bpref), in report order, with their printing.
 */
export function valueRows(p: Plan): ValueRow[] {
  // trec_eval's text only when every name is trec_eval's (its default output); else the CLI's table.
  const prints = new Map<string, ValuePrint>();
  if (p.kind === "trec")
    for (const l of trecLines(p.trec)) if (l.print === "float" || l.print === "long") prints.set(l.name, l.print);
  return comparableRows(p).rows.map((r) => ({ name: r.name, key: r.measure, print: prints.get(r.name) ?? "table" }));
}
