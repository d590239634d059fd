import { counted } from "../errors/counted.js";
import { ANY, BOOLEAN, checkOptions, RankevalError } from "../errors/errors.js";
import type { Result } from "../pipeline/evaluate.js";
import { mergeConventions } from "../measures/options.js";
import { compareBytes } from "../c/strings.js";
import type { IntervalOptions } from "../measures/options.js";
import { describeInterval, intervalSettings } from "../pipeline/interval.js";
import { tableValue } from "../app/value-print.js";

// A value as the tables print it, for the tables of src/judgments (which src/app may not be read by).
export { tableValue };

export interface TableColumn {
  readonly name: string;
  readonly result: Result<unknown>;
}

export interface TableRow {
  readonly label: string;
  readonly measure: string;
}

export interface TableOptions {
  /** The measures shown, in order, and their labels. @default every measure of the columns, in order of first appearance */
  rows?: readonly TableRow[];
  /** A row per query and measure too (labelled by the query id), before the means. @default false */
  perQuery?: boolean;
  /** The means (rows labelled "all") and the row of query counts. @default true */
  summary?: boolean;
  /** Each mean's `Result.interval` as "(lo, hi)": `true`, or the settings for the note (`Options.interval`). @default false */
  interval?: boolean | IntervalOptions;
}

type WithMeasureConventions = Result<unknown> & { readonly measureConventions?: Readonly<Record<string, string>> };
const conventionsOf = (r: Result<unknown>, measure: string): string =>
  (r as WithMeasureConventions).measureConventions?.[measure] ?? r.conventions;

/** " (0.7226, 0.7913)" */
export const intervalText = ([lo, hi]: readonly [number, number]): string => ` (${tableValue(lo)}, ${tableValue(hi)})`;

/**
 * A plain-text table, measures down, a column per run, a "queries" row (a mean over another count says
 * `(n=3)`), then the queries skipped and the conventions (one line, or a legend [1], [2]).
 *
 * @example
 * formatTable(result)
 * formatTable([{ name: "bm25", result: a }, { name: "rerank", result: b }], { perQuery: true })
 */
export function formatTable(
  results: Result<unknown> | readonly TableColumn[],
  options: readonly TableRow[] | TableOptions = {},
): string {
  const opts: TableOptions = Array.isArray(options)
    ? { rows: options as readonly TableRow[] }
    : checkOptions(
        options as TableOptions,
        { rows: ANY, perQuery: BOOLEAN, summary: BOOLEAN, interval: ANY },
        "formatTable",
      );
  const interval = opts.interval ? intervalSettings(opts.interval === true ? undefined : opts.interval) : null;
  const single = !Array.isArray(results);
  const columns: readonly TableColumn[] = single
    ? [{ name: opts.perQuery ? "value" : "mean", result: results as Result<unknown> }]
    : (results as readonly TableColumn[]);
  if (columns.length === 0)
    throw new RankevalError(
      "bad-input",
      "formatTable: no results to show (give a Result, or [{ name, result }, ...] with at least one)",
    );
  if (
    columns.some(
      (c) => c === null || typeof c !== "object" || typeof c.name !== "string" || typeof c.result?.mean !== "object",
    )
  )
    throw new RankevalError(
      "bad-input",
      "formatTable: give a Result, or [{ name, result }, ...] (each column a name and a Result)",
    );
  const summary = opts.summary ?? true;
  const perQuery = opts.perQuery ?? false;
  const rows = opts.rows ?? unionOf(columns.map((c) => c.result.measures)).map((m) => ({ label: m, measure: m }));
  const has = (c: TableColumn, measure: string) => Object.hasOwn(c.result.mean, measure);

  // Conventions: one line where all agree; else a legend, its marks on rows, columns or cells.
  const legend: string[] = [];
  const mark = (conventions: string) => {
    let i = legend.indexOf(conventions);
    if (i < 0) i = legend.push(conventions) - 1;
    return ` [${i + 1}]`;
  };
  // Measures computed alike share a line; one fitting several takes its row's, else its column's.
  const described: string[] = [];
  for (const r of rows)
    for (const c of columns)
      if (has(c, r.measure) && !described.includes(conventionsOf(c.result, r.measure)))
        described.push(conventionsOf(c.result, r.measure));
  const merged = mergeConventions(described);
  const own = (c: TableColumn, measure: string) => (has(c, measure) ? conventionsOf(c.result, measure) : null);
  const cellsOf = (cs: readonly TableColumn[], rs: readonly TableRow[]) =>
    rs.flatMap((r) => cs.map((c) => own(c, r.measure))).filter((d): d is string => d !== null);
  const common = (ds: readonly string[]) => merged.lines.findIndex((_, i) => ds.every((d) => merged.fits(d, i)));
  const everywhere = common(cellsOf(columns, rows));
  const rowLine = new Map(rows.map((r) => [r.measure, common(cellsOf(columns, [r]))]));
  const columnLine = new Map(columns.map((c) => [c, common(cellsOf([c], rows))]));
  const byRow = everywhere < 0 && rows.every((r) => rowLine.get(r.measure)! >= 0);
  const byColumn = everywhere < 0 && !byRow && columns.every((c) => columnLine.get(c)! >= 0);
  const byCell = everywhere < 0 && !byRow && !byColumn;
  const conv = (c: TableColumn, measure: string) =>
    has(c, measure) ? merged.lines[merged.index[described.indexOf(own(c, measure)!)]] : null;
  const rowMark = new Map<string, string>();
  const columnMark = new Map<TableColumn, string>();
  if (byRow) for (const r of rows) rowMark.set(r.measure, mark(merged.lines[rowLine.get(r.measure)!]));
  if (byColumn) for (const c of columns) columnMark.set(c, mark(merged.lines[columnLine.get(c)!]));

  // Each column's query count: the one most of its measures have.
  const columnCount = new Map<TableColumn, number>();
  for (const c of columns)
    columnCount.set(
      c,
      commonest(rows.filter((r) => has(c, r.measure)).map((r) => c.result.counted[r.measure])) ??
        c.result.queries.evaluated,
    );

  const range = (c: TableColumn, measure: string, q?: number): string => {
    const t = c.result.tieRange?.[measure];
    if (!t) return "";
    const [worst, best] = q === undefined ? [t.mean.worst, t.mean.best] : [t.worst[q], t.best[q]];
    return ` [${tableValue(worst)}, ${tableValue(best)}]`;
  };
  const mean = (c: TableColumn, measure: string): string => {
    if (!has(c, measure)) return "";
    const n = c.result.counted[measure];
    const ci = interval && c.result.interval?.[measure];
    const cell = tableValue(c.result.mean[measure]) + (ci ? intervalText(ci) : "") + range(c, measure);
    return `${cell}${!single && n !== columnCount.get(c) ? ` (n=${n})` : ""}${byCell ? mark(conv(c, measure)!) : ""}`;
  };

  const header = [
    ...(perQuery ? ["query"] : []),
    "measure",
    ...columns.map((c) => c.name + (columnMark.get(c) ?? "")),
    ...(single ? ["queries"] : []),
  ];
  const body: string[][] = [];
  const label = (r: TableRow) => r.label + (rowMark.get(r.measure) ?? "");
  if (perQuery) {
    const index = columns.map((c) => new Map(c.result.qids.map((q, i) => [String(q), i])));
    for (const q of queryOrder(columns)) {
      for (const r of rows) {
        const cells = columns.map((c, k) => {
          const i = index[k].get(q);
          const values = c.result.values[r.measure];
          if (i === undefined || !values) return "";
          return `${tableValue(values[i])}${range(c, r.measure, i)}${byCell ? mark(conv(c, r.measure)!) : ""}`;
        });
        if (cells.some((cell) => cell !== "")) body.push([q, label(r), ...cells, ...(single ? [""] : [])]);
      }
    }
  }
  if (summary) {
    for (const r of rows) {
      const cells = columns.map((c) => mean(c, r.measure));
      body.push([
        ...(perQuery ? ["all"] : []),
        label(r),
        ...cells,
        ...(single ? [has(columns[0], r.measure) ? String(columns[0].result.counted[r.measure]) : ""] : []),
      ]);
    }
    if (!single)
      body.push([...(perQuery ? ["all"] : []), "queries", ...columns.map((c) => String(columnCount.get(c)))]);
  }
  const notes = columns.map((c) => queriesNote(c.result));
  const footer = new Set(notes).size === 1 ? [notes[0]] : columns.map((c, k) => `${c.name}: ${notes[k]}`);
  if (interval && summary)
    footer.push(`(lo, hi): each mean's ${describeInterval(interval)} over the queries that count`);
  if (columns.some((c) => c.result.tieRange))
    footer.push(
      "[worst, best]: each value with tied documents in their worst and their best order (lower or higher labels first)",
    );
  const one =
    everywhere >= 0 ? merged.lines[everywhere] : described.length === 0 ? columns[0].result.conventions : null;
  const conventions =
    one !== null ? [`conventions: ${one}`] : legend.map((text, i) => `[${i + 1}] conventions: ${text}`);
  return [...alignedLines([header, ...body], perQuery ? 2 : 1), "", ...footer, ...conventions].join("\n");
}

/** Rows of cells as aligned text: the first `labels` columns left-aligned, the rest right. */
export function alignedLines(rows: readonly (readonly string[])[], labels: number): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((cells) =>
    cells
      .map((s, i) => (i < labels ? s.padEnd(widths[i]) : s.padStart(widths[i])))
      .join("  ")
      .trimEnd(),
  );
}

function queriesNote(r: Result<unknown>): string {
  const { evaluated, skipped } = r.queries;
  const notes = [
    skipped.noRelevant ? `${skipped.noRelevant} without relevant documents skipped` : "",
    skipped.notJudged ? `${counted(skipped.notJudged, "run query", "run queries")} without judgments ignored` : "",
    skipped.notInRun ? `${counted(skipped.notInRun, "judged query", "judged queries")} absent from the run` : "",
  ].filter(Boolean);
  return `${counted(evaluated, "query", "queries")}${notes.length ? `; ${notes.join("; ")}` : ""}`;
}

const unionOf = (lists: readonly (readonly string[])[]) => [...new Set(lists.flat())];

/** The commonest value (the larger on a tie). */
function commonest(values: readonly number[]): number | undefined {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: number | undefined;
  let most = 0;
  for (const [v, n] of counts) if (n > most || (n === most && v > best!)) [best, most] = [v, n];
  return best;
}

/** Every column's queries: in byte order when each column lists them so, else as they first appear. */
function queryOrder(columns: readonly TableColumn[]): string[] {
  const lists = columns.map((c) => c.result.qids.map(String));
  const union = unionOf(lists);
  const sorted = lists.every((l) => l.every((q, i) => i === 0 || compareBytes(l[i - 1], q) < 0));
  return sorted ? union.sort(compareBytes) : union;
}

/** Several runs' texts, each after `==> NAME <==` (as head prints files); one text as it is. */
export function labelledTexts(parts: readonly { readonly name: string; readonly text: string }[]): string {
  if (parts.length === 1) return parts[0].text;
  return parts.map((p, i) => `${i ? "\n" : ""}==> ${p.name} <==\n${p.text}`).join("");
}
