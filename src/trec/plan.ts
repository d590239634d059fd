// What to compute and how to print it, shared by the command line (src/node/cli.ts) and the page
// (web/worker.ts): the plan for a list of -m names (trec_eval's lines when every name is one of
// trec_eval's, else canonical measures), the options, the extra evaluations trec lines need, and the
// reports (trec_eval's text, JSON, CSV, table). No Node built-ins here.
import { withTies, type Batch } from "../kernel/batch.js";
import { evaluateBatch, type Result } from "../evaluate.js";
import { parseMeasures, type Measure } from "../measures/measure.js";
import { describeOptions, resolveOptions, type Options, type ResolvedOptions } from "../options.js";
import { formatTable } from "../report.js";
import { gainTies, isComputed, parseTrecMeasures, trecLines, type TrecGainTable, type TrecKernel, type TrecLine, type TrecMeasure } from "./names.js";
import { relstrings } from "./relstring.js";
import { formatTrecReport } from "./report.js";
import { sortedOrder } from "./format.js";
import { meanOf } from "../aggregate.js";

/** The conventions the user chose (the CLI's --gain, -l, -M, --no-relevant, --beyond-list, --ties); unset: the defaults. */
export interface Conventions {
  gain?: string;
  threshold?: number;
  depth?: number;
  noRelevant?: string;
  beyondList?: string;
  ties?: string;
}

/** What to compute: trec_eval's lines (when every -m is a trec_eval name), else canonical measures. */
export type Plan =
  | { kind: "trec"; trec: TrecMeasure[]; measures: Measure[]; tables: GainGroup[]; left: string[] }
  | { kind: "canonical"; measures: Measure[] };

/** Measures to evaluate with their own gain table (trec_eval `ndcg.1=3,2=9`): one evaluation each. */
export interface GainGroup {
  readonly key: string;
  readonly gain: TrecGainTable;
  readonly measures: Measure[];
}

const tableKey = (gain: TrecGainTable) => JSON.stringify(gain);

/**
 * The key under which a numeric trec line's per-query values are found in the run's merged result:
 * the canonical name; for a measure under its own gain table, the name and the table; for a line made
 * of several measures (`meanOf`), its printed name. Null for lines that are not numbers per query.
 */
export function lineKey(l: TrecLine): string | null {
  if (l.kernel) return typeof l.kernel.gain === "object" ? `${l.kernel.measure.name} gain=${tableKey(l.kernel.gain)}` : l.kernel.measure.name;
  if (l.meanOf) return l.name;
  return null;
}

/** The measures of a LETOR file and its predictions when none are named (the CLI's --letor, the page). */
export const LETOR_DEFAULT_MEASURES: readonly string[] = ["ndcg@1,3,5,10", "map", "mrr"];

export function plan(specs: readonly string[], fallback: readonly string[] | null): Plan {
  if (specs.length === 0 && fallback) return { kind: "canonical", measures: parseMeasures(fallback) };
  let trec: TrecMeasure[] | null = null;
  try {
    trec = parseTrecMeasures(specs);
  } catch (trecError) {
    try {
      return { kind: "canonical", measures: parseMeasures(specs) };
    } catch {
      throw trecError;
    }
  }
  // Lines rankeval does not compute yet are left out, and said so.
  const kept: TrecMeasure[] = [];
  const left: string[] = [];
  const measures = new Map<string, Measure>();
  const tables = new Map<string, GainGroup>();
  const add = (k: TrecKernel) => {
    if (typeof k.gain !== "object") {
      measures.set(k.measure.name, k.measure);
      return;
    }
    const key = tableKey(k.gain);
    let g = tables.get(key);
    if (!g) tables.set(key, (g = { key, gain: k.gain, measures: [] }));
    if (!g.measures.some((m) => m.name === k.measure.name)) g.measures.push(k.measure);
  };
  for (const m of trec) {
    const lines = trecLines([m]);
    if (lines.every(isComputed)) {
      kept.push(m);
      for (const l of lines) {
        if (l.kernel) add(l.kernel);
        for (const k of l.meanOf ?? []) add(k);
      }
    } else left.push(m.name);
  }
  return { kind: "trec", trec: kept, measures: [...measures.values()], tables: [...tables.values()], left };
}

/**
 * Options: the user's, else trec_eval's conventions for trec_eval names and the library's otherwise;
 * `table` (a trec_eval `ndcg.1=3,2=9`) replaces the gain.
 */
export function options(args: Conventions, trecNames: boolean, table?: TrecGainTable): ResolvedOptions {
  const o: Options = {};
  o.gain = (table ?? args.gain ?? (trecNames ? "linear" : undefined)) as Options["gain"];
  if (args.threshold !== undefined) o.relevanceThreshold = args.threshold;
  if (args.depth !== undefined) o.depth = args.depth;
  if (args.noRelevant !== undefined) o.noRelevant = args.noRelevant as Options["noRelevant"];
  if (args.beyondList !== undefined) o.beyondList = args.beyondList as Options["beyondList"];
  if (args.ties !== undefined) o.ties = args.ties as Options["ties"];
  return resolveOptions(o);
}

export interface RunResult {
  file: string;
  runTag: string;
  result: Result<string>;
  /** relstring's values, by printed line name. */
  strings: Record<string, string[]>;
}

/**
 * The run's result with what trec lines need beyond one evaluation: the measures under their own gain
 * tables (one more evaluation of the same batch per table) and the lines made of several measures
 * (`meanOf`), merged in under their `lineKey`.
 */
export function trecExtras(p: Extract<Plan, { kind: "trec" }>, batch: Batch, result: Result<string>, args: Conventions): Result<string> {
  const values = { ...result.values };
  const mean = { ...result.mean };
  const counted = { ...result.counted };
  const put = (key: string, v: Float64Array) => {
    values[key] = v;
    ({ mean: mean[key], count: counted[key] } = meanOf(v));
  };
  for (const g of p.tables) {
    const r = evaluateBatch(batch, result.qids, g.measures, options(args, true, g.gain), result.queries.skipped.notJudged, result.queries.skipped.notInRun);
    for (const m of g.measures) put(`${m.name} gain=${g.key}`, r.values[m.name]);
  }
  for (const l of trecLines(p.trec)) {
    if (!l.meanOf) continue;
    // m_11pt_avg.c adds the points from the last to the first, then divides by their number.
    const cols = l.meanOf.map((k) => result.values[k.measure.name]);
    const v = new Float64Array(result.qids.length);
    for (let q = 0; q < v.length; q++) {
      let s = 0;
      for (let i = cols.length - 1; i >= 0; i--) s += cols[i][q];
      v[q] = s / cols.length;
    }
    put(l.name, v);
  }
  return { ...result, values, mean, counted };
}

/** A run's values, or one block's, as the reports need them. */
export type Evaluated = Omit<RunResult, "file" | "runTag">;

/**
 * One batch's values as the command line and the page compute them: the kernel, then what trec_eval's
 * lines add (gain tables, lines made of several measures, relstring); `warn` gets what to tell the user.
 */
export function evaluateBlock(p: Plan, batch: Batch, qids: string[], opts: ResolvedOptions, args: Conventions, file: string, warn: (message: string) => void): Evaluated {
  // trec_eval lines that need no measure (runid, num_q) still need the queries: num_ret gives them.
  const measures = p.measures.length ? p.measures : parseMeasures("num_ret");
  const result = evaluateBatch(batch, qids, measures, opts, 0, 0);
  if (p.kind !== "trec") return { result, strings: {} };
  for (const w of gainTieWarnings(p, batch, file)) warn(w);
  return { result: trecExtras(p, batch, result, args), strings: relstringValues(p, batch, opts) };
}

/**
 * One run's results from blocks of disjoint queries (src/run-blocks.ts) as one: the queries in strcmp
 * order, as the join of the whole file gives them, and the means taken in that order, so every
 * report prints the same numbers as for the run read whole.
 */
export function mergeBlocks(parts: readonly Evaluated[], notJudged: number, notInRun: number): Evaluated {
  const first = parts[0].result;
  if (parts.length === 1) {
    // One block (a whole run, a LETOR file): its queries stay in the order they have.
    const queries = { ...first.queries, skipped: { ...first.queries.skipped, notJudged, notInRun } };
    return { result: { ...first, queries }, strings: parts[0].strings };
  }
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
    ({ mean: mean[key], count: counted[key] } = meanOf(values[key]));
  }
  const strings: Record<string, string[]> = {};
  for (const key of Object.keys(parts[0].strings)) {
    const all = parts.flatMap((p) => p.strings[key]);
    strings[key] = order.map((i) => all[i]);
  }
  const noRelevant = parts.reduce((n, p) => n + p.result.queries.skipped.noRelevant, 0);
  const queries = { evaluated: qids.length, skipped: { noRelevant, notJudged, notInRun } };
  return { result: { ...first, qids: order.map((i) => qids[i]), values, mean, counted, queries }, strings };
}

/** relstring's per-query strings, by printed line name. */
export function relstringValues(p: Extract<Plan, { kind: "trec" }>, batch: Batch, opts: ResolvedOptions): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  // The ranking the kernel evaluated: the same tie order.
  const ranked = withTies(batch, opts.ties);
  for (const l of trecLines(p.trec)) if (l.relstring !== undefined) out[l.name] = relstrings(ranked, l.relstring, opts.depth);
  return out;
}

/** Says so where trec_eval's comp_rel_gain quirk could order a gain table's ideal ranking otherwise. */
export function gainTieWarnings(p: Extract<Plan, { kind: "trec" }>, batch: Batch, file: string): string[] {
  if (!p.tables.length) return [];
  let maxLevel = 0;
  const judged = batch.judged ?? batch.labels;
  for (let i = 0; i < judged.length; i++) if (judged[i] > maxLevel) maxLevel = judged[i];
  const out: string[] = [];
  for (const g of p.tables) {
    const ties = gainTies(g.gain, Math.floor(maxLevel));
    if (!ties.length) continue;
    const which = ties.map(([a, b]) => `${a} and ${b}`).join(", ");
    out.push(`${file}: gains ${which} differ by less than 1: trec_eval's comp_rel_gain compares them as equal and may order its ideal ranking otherwise (rankeval orders by the exact gains)`);
  }
  return out;
}

/** trec_eval's text for one run. */
export function trecText(p: Extract<Plan, { kind: "trec" }>, r: RunResult, args: { perQuery: boolean; noSummary?: boolean }): string {
  const values: Record<string, Float64Array | string[]> = {};
  for (const line of trecLines(p.trec)) {
    const key = lineKey(line);
    if (key !== null) values[line.name] = r.result.values[key];
    else if (line.relstring !== undefined) values[line.name] = r.strings[line.name];
  }
  return formatTrecReport({
    runid: r.runTag,
    measures: p.trec,
    perQuery: { qids: r.result.qids, values },
    printPerQuery: args.perQuery,
    printSummary: !args.noSummary,
  });
}

export interface NamedResult {
  name: string;
  runTag: string;
  result: Result<string>;
}

/** The rows of a report: (printed name, canonical measure) in order. */
export function rowsOf(p: Plan): { name: string; measure: string }[] {
  if (p.kind === "canonical") return p.measures.map((m) => ({ name: m.name, measure: m.name }));
  return trecLines(p.trec).flatMap((l) => {
    const key = lineKey(l);
    return key === null ? [] : [{ name: l.name, measure: key }];
  });
}

/**
 * A report of several runs. `perQuery` (-q): each query's values too; `noSummary` (-n): not the means
 * (the table's "all" rows, JSON's mean, CSV's "all" lines).
 */
export function report(format: "table" | "json" | "csv", runs: NamedResult[], p: Plan, perQuery: boolean, noSummary = false): string {
  const rows = rowsOf(p);
  const conventions = describeOptions(runs[0].result.options);
  if (format === "json") {
    return `${JSON.stringify(
      {
        conventions,
        runs: runs.map(({ name, runTag, result }) => ({
          run: name,
          runTag,
          queries: result.queries,
          ...(noSummary ? {} : { mean: Object.fromEntries(rows.map((r) => [r.name, result.mean[r.measure]])) }),
          ...(perQuery ? { perQuery: Object.fromEntries(result.qids.map((q, i) => [q, Object.fromEntries(rows.map((r) => [r.name, result.values[r.measure][i]]))])) } : {}),
        })),
      },
      (_, v) => (typeof v === "number" && !Number.isFinite(v) ? null : v),
      2,
    )}\n`;
  }
  if (format === "csv") {
    const out = ["run,qid,measure,value"];
    const cell = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    for (const { name, result } of runs) {
      if (perQuery) result.qids.forEach((q, i) => rows.forEach((r) => out.push(`${cell(name)},${cell(q)},${cell(r.name)},${result.values[r.measure][i]}`)));
      if (!noSummary) for (const r of rows) out.push(`${cell(name)},all,${cell(r.name)},${result.mean[r.measure]}`);
    }
    return `${out.join("\n")}\n`;
  }
  // table: measures down, runs across; with -q a row per query and measure first, as trec_eval -q.
  const columns = runs.map((r) => ({ name: r.name, result: r.result }));
  return `${formatTable(columns, { rows: rows.map((r) => ({ label: r.name, measure: r.measure })), perQuery, summary: !noSummary })}\n`;
}
