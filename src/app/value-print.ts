// A per-query value as the CLI prints it (--explain, the report, the page). Browser-safe.
import { formatLong } from "../c/printf.js";
import { fixed, formatTrecFixed } from "../trec/format.js";
import { trecLines } from "../trec/measures.js";
import { comparableRows } from "./comparable.js";
import type { Plan } from "./plan.js";

/** Four decimals always (1.0000 beside 0.7166). */
export const tableValue = (v: number) => fixed(v, 4);

export type ValuePrint = "float" | "long" | "table";

export function printValue(v: number, print: ValuePrint) {
  if (print === "long") return formatLong(v);
  if (print === "float") return formatTrecFixed(v, 4);
  return tableValue(v);
}

export interface ValueRow {
  readonly name: string;
  readonly key: string;
  readonly print: ValuePrint;
}

/** The plan's rows --compare compares, with their printing. */
export function valueRows(p: Plan): ValueRow[] {
  const prints = new Map<string, ValuePrint>();
  if (p.kind === "trec")
    for (const l of trecLines(p.trec)) if (l.print === "float" || l.print === "long") prints.set(l.name, l.print);
  return comparableRows(p).rows.map((r) => ({ name: r.name, key: r.measure, print: prints.get(r.name) ?? "table" }));
}
