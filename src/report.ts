import type { Result } from "./evaluate.js";
import { formatFixed4 } from "./trec/format.js";

/** One column of a table: a run's result under a name. */
export interface TableColumn {
  readonly name: string;
  readonly result: Result<unknown>;
}

/** A row of a table: the label printed and the measure whose mean it shows. */
export interface TableRow {
  readonly label: string;
  readonly measure: string;
}

/**
 * A plain-text table of means, measures down. For one result: its means and how many queries each is
 * over; for several named results (runs): one column each, side by side. Then the queries evaluated
 * and skipped, and the conventions.
 */
export function formatTable(results: Result<unknown> | readonly TableColumn[], rows?: readonly TableRow[]): string {
  const single = !Array.isArray(results);
  const columns: readonly TableColumn[] = single ? [{ name: "mean", result: results as Result<unknown> }] : (results as readonly TableColumn[]);
  const first = columns[0].result;
  const show = (v: number) => (Number.isNaN(v) ? "NaN" : Number.isInteger(v) ? String(v) : formatFixed4(v).trim());
  const header = ["measure", ...columns.map((c) => c.name), ...(single ? ["queries"] : [])];
  const body = (rows ?? first.measures.map((m) => ({ label: m, measure: m }))).map((r) => [
    r.label,
    ...columns.map((c) => show(c.result.mean[r.measure])),
    ...(single ? [String(first.counted[r.measure])] : []),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...body.map((row) => row[c].length)));
  const line = (cells: string[]) => cells.map((s, c) => (c === 0 ? s.padEnd(widths[c]) : s.padStart(widths[c]))).join("  ");
  const { evaluated, skipped } = first.queries;
  const notes = [
    skipped.noRelevant ? `${skipped.noRelevant} without relevant documents skipped` : "",
    skipped.notJudged ? `${skipped.notJudged} run queries without judgments ignored` : "",
    skipped.notInRun ? `${skipped.notInRun} judged queries absent from the run` : "",
  ].filter(Boolean);
  return [line(header), ...body.map(line), "", `${evaluated} queries${notes.length ? `; ${notes.join("; ")}` : ""}`, `conventions: ${first.conventions}`].join("\n");
}
