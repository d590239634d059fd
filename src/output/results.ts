// trec_eval's text, and a table, JSON or CSV of several runs: the CLI's and the page's. Browser-safe.
import { RankevalError } from "../errors/errors.js";
import type { Result } from "../pipeline/evaluate.js";
import { formatTable } from "./table.js";
import { trecLines, type TrecLine } from "../trec/measures.js";
import { lineKey, type Plan, type RunResult } from "../app/plan.js";
import { formatTrecReport } from "./trec-text.js";
import type { ZscoreLookup } from "../trec/zscore-lookup.js";
import { csvField } from "./csv.js";
import { describeInterval, type Interval, type IntervalSettings } from "../pipeline/interval.js";

export interface TrecTextOptions {
  /** -q */
  perQuery: boolean;
  /** -n */
  noSummary?: boolean;
  /** -c: with `debugQuery`, means stay over every judged query (meas_avg.c). */
  complete?: boolean;
  /** -D n.qid: only that query (trec_eval.c). */
  debugQuery?: string;
  /** -Z */
  zscores?: ZscoreLookup;
}

export function trecText(p: Plan, r: RunResult, args: TrecTextOptions): string {
  const values: Record<string, Float64Array | string[]> = {};
  for (const line of trecLines(p.trec)) {
    const key = lineKey(line);
    if (key !== null) values[key] = r.result.values[key];
    else if (line.relstring !== undefined) values[line.name] = r.strings[line.name];
  }
  const only = args.debugQuery;
  if (only !== undefined && !r.result.qids.includes(only))
    throw new RankevalError(
      "bad-input",
      `-D ${only}: query ${JSON.stringify(only)} is not evaluated (it needs judgments${args.complete ? "" : " and a ranking"}; trec_eval: No queries with both results and relevance info)`,
    );
  return formatTrecReport({
    runid: r.runTag,
    measures: p.trec,
    keyOf: (line: TrecLine) => lineKey(line) ?? line.name,
    perQuery: { qids: r.result.qids, values },
    printPerQuery: args.perQuery,
    printSummary: !args.noSummary,
    summary: r.summary,
    ...(only !== undefined ? { onlyQuery: only, numQ: args.complete ? r.result.qids.length : 1 } : {}),
    ...(args.zscores ? { zscores: args.zscores } : {}),
  });
}

export interface NamedResult {
  name: string;
  runTag: string;
  result: Result<string>;
}

/** A report of several runs. `perQuery` (-q): each query's values too; `noSummary` (-n): not the means. */
export function report(
  format: "table" | "json" | "csv",
  runs: NamedResult[],
  p: Plan,
  perQuery: boolean,
  noSummary = false,
  interval?: IntervalSettings,
): string {
  const rows = p.rows;
  const of = (r: { measure: string }) => runs[0].result.measureConventions[r.measure] ?? "";
  if (format === "json") {
    const byRow = (value: (measure: string) => unknown) =>
      Object.fromEntries(rows.map((r) => [r.name, value(r.measure)]));
    const byQuery = (result: Result<string>, value: (measure: string, i: number) => unknown) =>
      Object.fromEntries(result.qids.map((q, i) => [q, byRow((m) => value(m, i))]));
    const doc = {
      conventions: runs[0].result.conventions,
      ...(noSummary ? {} : { interval: describeInterval(interval) }),
      measureConventions: Object.fromEntries(rows.map((r) => [r.name, of(r)])),
      runs: runs.map(({ name, runTag, result }) => {
        const range = (m: string, i?: number) => tieAt(result, m, i);
        const ranges = result.tieRange && {
          tieRange: {
            ...(noSummary ? {} : { mean: byRow((m) => range(m)) }),
            ...(perQuery ? { perQuery: byQuery(result, range) } : {}),
          },
        };
        return {
          run: name,
          runTag,
          queries: result.queries,
          ...(noSummary
            ? {}
            : { mean: byRow((m) => result.mean[m]), interval: byRow((m) => result.interval[m] ?? null) }),
          ...(perQuery ? { perQuery: byQuery(result, (m, i) => result.values[m][i]) } : {}),
          ...ranges,
        };
      }),
    };
    return `${JSON.stringify(doc, (_, v) => (typeof v === "number" && !Number.isFinite(v) ? null : v), 2)}\n`;
  }
  if (format === "csv") {
    const ranged = runs.some((r) => r.result.tieRange);
    const header = `run,qid,measure,value,${interval ? "lo,hi," : ""}${ranged ? "worst,best," : ""}conventions`;
    const out = [header];
    for (const { name, result } of runs) {
      const tail = new Map(rows.map((r) => [r.name, csvField(of(r))]));
      const line = (qid: string, r: { name: string; measure: string }, value: number, i?: number) => {
        const w = tieAt(result, r.measure, i);
        const range = !ranged ? "" : `${w?.worst ?? ""},${w?.best ?? ""},`;
        const ci = i === undefined ? result.interval[r.measure] : undefined;
        const bounds = !interval ? "" : ci ? `${ci[0]},${ci[1]},` : ",,";
        out.push(`${csvField(name)},${qid},${csvField(r.name)},${value},${bounds}${range}${tail.get(r.name)}`);
      };
      if (perQuery) {
        result.qids.forEach((q, i) => rows.forEach((r) => line(csvField(q), r, result.values[r.measure][i], i)));
      }
      if (!noSummary) for (const r of rows) line("all", r, result.mean[r.measure]);
    }
    return `${out.join("\n")}\n`;
  }
  const tableRows = rows.map((r) => ({ label: r.name, measure: r.measure }));
  return `${formatTable(runs, { rows: tableRows, perQuery, summary: !noSummary, ...(interval ? { interval } : {}) })}\n`;
}

/** A value's [worst, best] (--tie-range), or the mean's; null for trec_eval's own algorithm's lines. */
function tieAt(result: Result<string>, m: string, i?: number) {
  const x = result.tieRange?.[m];
  if (!x) return null;
  return i === undefined ? { worst: x.mean.worst, best: x.mean.best } : { worst: x.worst[i], best: x.best[i] };
}

/** trec_eval's summary lines as cells by name: the text and its number (null if none). */
export function summaryCells(text: string): Record<string, { text: string; value: number | null }> {
  const out: Record<string, { text: string; value: number | null }> = {};
  for (const line of text.split("\n")) {
    if (!line) continue;
    const [name, , value] = line.split("\t");
    const n = Number(value);
    out[name.trim()] = { text: value, value: value !== "" && Number.isFinite(n) ? n : null };
  }
  return out;
}

/** The aggregate table's rows, as printed, and their keys in a Result. */
function summaryLines(p: Plan): { name: string; key: string | null }[] {
  return p.kind === "trec"
    ? trecLines(p.trec)
        .filter((l) => l.summary)
        .map((l) => ({ name: l.name, key: lineKey(l) }))
    : p.rows.map((r) => ({ name: r.name, key: r.measure }));
}

export const summaryRows = (p: Plan): string[] => summaryLines(p).map((l) => l.name);

/** Each aggregate row's interval, by printed row. */
export function rowIntervals(p: Plan, result: Result<string>): Record<string, Interval> {
  const out: Record<string, Interval> = {};
  for (const { name, key } of summaryLines(p)) {
    const ci = key === null ? undefined : result.interval[key];
    if (ci) out[name] = ci;
  }
  return out;
}
