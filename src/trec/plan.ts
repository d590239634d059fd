// What to compute and how to print it, shared by the command line (src/node/cli.ts) and the page
// (web/worker.ts): the plan for a list of -m names (trec_eval's lines when every name is one of
// trec_eval's, else canonical measures), the options, the extra evaluations trec lines need, and the
// reports (trec_eval's text, JSON, CSV, table). No Node built-ins here.
import { withTies, type Batch } from "../kernel/batch.js";
import { evaluateBatch, type Result } from "../evaluate.js";
import { TREC_EVAL } from "../measures/conventions.js";
import { describeMeasureOptions, type Measure } from "../measures/measure.js";
import { isTrecName, parseMeasures } from "../measures/resolve.js";
import { DEFAULT_OPTIONS, describeOptions, explicitOptions, type ExplicitOptions, type Options, type ResolvedOptions } from "../options.js";
import { formatTable } from "../report.js";
import { gainTies, isComputed, parseTrecMeasures, trecLines, type TrecLine, type TrecMeasure } from "./names.js";
import { relstrings } from "./relstring.js";
import { formatTrecReport } from "./report.js";
import { sortedOrder } from "./format.js";
import { meanOf } from "../aggregate.js";

/** The conventions the user chose (the CLI's --gain, -l, -M, --no-relevant, --beyond-list, --ties); unset: the measures' own. */
export interface Conventions {
  gain?: string;
  threshold?: number;
  depth?: number;
  noRelevant?: string;
  beyondList?: string;
  ties?: string;
}

/**
 * What to compute for a list of -m names. Every -m is read as trec_eval reads it first, then as any
 * other tool's name (src/measures/resolve.ts); each measure is computed with its tool's conventions.
 */
export interface Plan {
  /**
   * "trec" when every name is trec_eval's: the output is then trec_eval's text by default; else a
   * table ("measures").
   */
  readonly kind: "trec" | "measures";
  /** trec_eval's measures asked (none: `[]`), in its table order, as it prints them. */
  readonly trec: TrecMeasure[];
  /** Everything the kernel computes, each once, keyed by name. */
  readonly measures: Measure[];
  /** The rows of a table, JSON or CSV report: the printed name and the key of its values, in order. */
  readonly rows: readonly { readonly name: string; readonly measure: string }[];
  /** trec_eval measures rankeval does not compute yet, left out. */
  readonly left: string[];
  /** What the names were read as where that may surprise (a decimal cutoff, ignored parameters). */
  readonly warnings: string[];
}

/**
 * The key under which a numeric trec line's per-query values are found in the run's merged result:
 * its measure's key (the printed name); for a line made of several measures (`meanOf`), its printed
 * name. Null for lines that are not numbers per query.
 */
export function lineKey(l: TrecLine): string | null {
  if (l.kernel) return l.kernel.measure.name;
  if (l.meanOf) return l.name;
  return null;
}

/** The measures of a LETOR file and its predictions when none are named (the CLI's --letor, the page). */
export const LETOR_DEFAULT_MEASURES: readonly string[] = ["ndcg@1,3,5,10", "map", "mrr"];

/**
 * The plan for -m names (none: trec_eval's default, `official`, or `fallback` when given). The
 * names that are trec_eval's are read together as trec_eval reads its -m list (its table order, the
 * first parameters given for a measure, nicknames); the others one by one. In a table, trec_eval's
 * lines stand where the first of its names was given.
 */
export function plan(specs: readonly string[], fallback: readonly string[] | null): Plan {
  const warnings: string[] = [];
  if (specs.length === 0 && fallback) {
    const measures = parseMeasures(fallback, warnings);
    return { kind: "measures", trec: [], measures, rows: measures.map((m) => ({ name: m.name, measure: m.name })), left: [], warnings };
  }
  const words = specs.length ? specs : ["official"];
  const trecWords = words.filter((w) => typeof w === "string" && isTrecName(w));
  const trec: TrecMeasure[] = [];
  const left: string[] = [];
  const measures = new Map<string, Measure>();
  const add = (m: Measure) => {
    if (!measures.has(m.name)) measures.set(m.name, m);
  };
  if (trecWords.length) {
    // Lines rankeval does not compute yet are left out, and said so.
    for (const m of parseTrecMeasures(trecWords, warnings)) {
      const lines = trecLines([m]);
      if (!lines.every(isComputed)) {
        left.push(m.name);
        continue;
      }
      trec.push(m);
      for (const l of lines) {
        if (l.kernel) add(l.kernel.measure);
        for (const k of l.meanOf ?? []) add(k.measure);
      }
    }
  }
  const trecRows = trecLines(trec).flatMap((l) => {
    const key = lineKey(l);
    return key === null ? [] : [{ name: l.name, measure: key }];
  });
  const rows: { name: string; measure: string }[] = [];
  let trecPlaced = false;
  for (const w of words) {
    if (typeof w === "string" && isTrecName(w)) {
      if (!trecPlaced) rows.push(...trecRows);
      trecPlaced = true;
      continue;
    }
    for (const m of parseMeasures(w, warnings)) {
      if (measures.has(m.name)) continue;
      add(m);
      rows.push({ name: m.name, measure: m.name });
    }
  }
  return { kind: trecWords.length === words.length ? "trec" : "measures", trec, measures: [...measures.values()], rows, left, warnings };
}

/** The options the user set on the command line or the page, checked (those unset are each measure's own). */
export function options(args: Conventions): ExplicitOptions {
  const o: Options = {};
  if (args.gain !== undefined) o.gain = args.gain as Options["gain"];
  if (args.threshold !== undefined) o.relevanceThreshold = args.threshold;
  if (args.depth !== undefined) o.depth = args.depth;
  if (args.noRelevant !== undefined) o.noRelevant = args.noRelevant as Options["noRelevant"];
  if (args.beyondList !== undefined) o.beyondList = args.beyondList as Options["beyondList"];
  if (args.ties !== undefined) o.ties = args.ties as Options["ties"];
  return explicitOptions(o);
}

/**
 * The conventions of a plan's rows under the options given, as lines: one (`gain=exp ...`) when every
 * row is computed with the options given (the library's own names), one (`trec_eval: gain=linear ...`)
 * when every row shares one tool's, else one per row (`nDCG@10  ir_measures: gain=linear ...`).
 */
export function planConventions(p: Plan, explicit: ExplicitOptions): string[] {
  const byKey = new Map(p.measures.map((m) => [m.name, describeMeasureOptions(m, explicit)]));
  // A line made of several measures (11pt_avg at chosen points) has its parts' conventions.
  for (const l of trecLines(p.trec)) if (l.meanOf) byKey.set(l.name, byKey.get(l.meanOf[0].measure.name)!);
  const rows = p.rows.length ? p.rows : p.measures.map((m) => ({ name: m.name, measure: m.name }));
  const given = describeOptions({ ...DEFAULT_OPTIONS, ...explicit });
  const own = rows.map((r) => byKey.get(r.measure) ?? `rankeval: ${given}`);
  if (own.every((c) => c === `rankeval: ${given}`)) return [given];
  if (own.every((c) => c === own[0])) return [own[0]];
  const width = Math.max(...rows.map((r) => r.name.length));
  return rows.map((r, i) => `${r.name.padEnd(width)}  ${own[i]}`);
}

/** trec_eval's conventions under the options given: what relstring (which is no measure) ranks by. */
export function trecOptions(explicit: ExplicitOptions): ResolvedOptions {
  return { ...DEFAULT_OPTIONS, ...TREC_EVAL, ...explicit };
}

export interface RunResult {
  file: string;
  runTag: string;
  result: Result<string>;
  /** relstring's values, by printed line name. */
  strings: Record<string, string[]>;
}

/**
 * The run's result with the trec lines made of several measures (`meanOf`: 11pt_avg at chosen
 * points), merged in under their `lineKey`.
 */
export function trecExtras(p: Plan, result: Result<string>): Result<string> {
  const values = { ...result.values };
  const mean = { ...result.mean };
  const counted = { ...result.counted };
  const measureConventions = { ...result.measureConventions };
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
    values[l.name] = v;
    ({ mean: mean[l.name], count: counted[l.name] } = meanOf(v));
    measureConventions[l.name] = result.measureConventions[l.meanOf[0].measure.name];
  }
  return { ...result, values, mean, counted, measureConventions };
}

/** A run's values, or one block's, as the reports need them. */
export type Evaluated = Omit<RunResult, "file" | "runTag">;

/**
 * One batch's values as the command line and the page compute them: the kernel (each measure under
 * its own conventions and the options given), then what trec_eval's lines add (lines made of several
 * measures, relstring); `warn` gets what to tell the user.
 */
export function evaluateBlock(p: Plan, batch: Batch, qids: string[], explicit: ExplicitOptions, file: string, warn: (message: string) => void): Evaluated {
  // trec_eval lines that need no measure (runid, num_q) still need the queries: num_ret gives them.
  const measures = p.measures.length ? p.measures : parseMeasures("num_ret");
  const result = evaluateBatch(batch, qids, measures, explicit, 0, 0, p.warnings);
  if (!p.trec.length) return { result, strings: {} };
  for (const w of gainTieWarnings(p, batch, file)) warn(w);
  return { result: trecExtras(p, result), strings: relstringValues(p, batch, trecOptions(explicit)) };
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

/** relstring's per-query strings, by printed line name (`opts`: trec_eval's conventions under the options given). */
export function relstringValues(p: Plan, batch: Batch, opts: ResolvedOptions): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  // The ranking the kernel evaluated: the same tie order.
  const ranked = withTies(batch, opts.ties);
  for (const l of trecLines(p.trec)) if (l.relstring !== undefined) out[l.name] = relstrings(ranked, l.relstring, opts.depth);
  return out;
}

/** Says so where trec_eval's comp_rel_gain quirk could order a gain table's ideal ranking otherwise. */
export function gainTieWarnings(p: Plan, batch: Batch, file: string): string[] {
  // The gain tables of trec_eval lines (`ndcg.1=3,2=9`), each once.
  const tables = new Map<string, Record<number, number>>();
  for (const m of p.measures) {
    const g = m.fixed.gain;
    if (m.tool === "trec_eval" && typeof g === "object") tables.set(JSON.stringify([...g]), Object.fromEntries(g));
  }
  if (!tables.size) return [];
  let maxLevel = 0;
  const judged = batch.judged ?? batch.labels;
  for (let i = 0; i < judged.length; i++) if (judged[i] > maxLevel) maxLevel = judged[i];
  const out: string[] = [];
  for (const table of tables.values()) {
    const ties = gainTies(table, Math.floor(maxLevel));
    if (!ties.length) continue;
    const which = ties.map(([a, b]) => `${a} and ${b}`).join(", ");
    out.push(`${file}: gains ${which} differ by less than 1: trec_eval's comp_rel_gain compares them as equal and may order its ideal ranking otherwise (rankeval orders by the exact gains)`);
  }
  return out;
}

/** trec_eval's text for one run. */
export function trecText(p: Plan, r: RunResult, args: { perQuery: boolean; noSummary?: boolean }): string {
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

/** The rows of a report: (printed name, key of its values) in order. */
export function rowsOf(p: Plan): { name: string; measure: string }[] {
  return [...p.rows];
}

/**
 * A report of several runs. `perQuery` (-q): each query's values too; `noSummary` (-n): not the means
 * (the table's "all" rows, JSON's mean, CSV's "all" lines).
 */
export function report(format: "table" | "json" | "csv", runs: NamedResult[], p: Plan, perQuery: boolean, noSummary = false): string {
  const rows = rowsOf(p);
  const conventions = runs[0].result.conventions;
  // Each row's conventions: its tool and the options its measure was computed with.
  const of = (r: { measure: string }) => runs[0].result.measureConventions[r.measure] ?? "";
  if (format === "json") {
    return `${JSON.stringify(
      {
        conventions,
        measureConventions: Object.fromEntries(rows.map((r) => [r.name, of(r)])),
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
    const out = ["run,qid,measure,value,conventions"];
    const cell = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    for (const { name, result } of runs) {
      const tail = new Map(rows.map((r) => [r.name, cell(of(r))]));
      if (perQuery) result.qids.forEach((q, i) => rows.forEach((r) => out.push(`${cell(name)},${cell(q)},${cell(r.name)},${result.values[r.measure][i]},${tail.get(r.name)}`)));
      if (!noSummary) for (const r of rows) out.push(`${cell(name)},all,${cell(r.name)},${result.mean[r.measure]},${tail.get(r.name)}`);
    }
    return `${out.join("\n")}\n`;
  }
  // table: measures down, runs across; with -q a row per query and measure first, as trec_eval -q.
  const columns = runs.map((r) => ({ name: r.name, result: r.result }));
  return `${formatTable(columns, { rows: rows.map((r) => ({ label: r.name, measure: r.measure })), perQuery, summary: !noSummary })}\n`;
}
