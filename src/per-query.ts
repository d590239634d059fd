/**
 * Per-query results as a table (`--per-query-out`): a row per run and query, the run's name, the
 * query id and one column per value the reports read, with what the reports need besides in the
 * table's metadata; and such tables, from shards of one evaluation that hold disjoint queries, merged
 * back into the runs' results (`--merge`), from which every report prints exactly what one process
 * evaluating the whole input prints.
 *
 * What a shard must carry for that, beyond each query's values:
 *  - every value a report reads, not only the printed lines: gm_map's per-query APs, the points of
 *    11pt_avg, trec_eval's own algorithm's lines (src/trec/plan.ts lineKey), relstring's strings,
 *    each [worst, best] under --tie-range. Values are doubles written exactly (Parquet DOUBLE, Arrow
 *    Float64, the shortest round-trip decimal in CSV and JSON, -0 and NaN kept), so the merged means,
 *    sums and geometric means, taken again in query order, are the same doubles;
 *  - how each line is summarised (a mean, trec_eval's num_ret sum, gm_map's geometric mean);
 *  - what is not a per-query value: the queries a run has without judgments (`notJudged`), the judged
 *    queries absent from it (`notInRun`), those skipped for having nothing relevant, and under -c
 *    trec_eval's num_rel, which it counts over every judgment rather than the evaluated queries
 *    (m_num_rel.c): each shard's, summed; -c itself counts a shard's judged queries its run lacks as
 *    rows (placeholders), so num_q and the means come out right when the judgments are partitioned as
 *    the runs are;
 *  - the run's tag (trec_eval's runid), and the command's measures and conventions, which must be the
 *    same in every shard (the plan is made again from them).
 *
 * Browser compatible.
 */
import { RankevalError } from "./errors.js";
import type { Result, TieRange } from "./evaluate.js";
import type { Aggregate } from "./measures/measure.js";
import { DEFAULT_OPTIONS, overPreset } from "./options.js";
import { summaryOf } from "./aggregate.js";
import { compareBytes, sortedOrder } from "./trec/format.js";
import { lineKey, options, plan, type Conventions, type Plan, type RunResult } from "./trec/plan.js";
import { trecLines } from "./trec/names.js";

/** The metadata key (Parquet key-value, Arrow schema metadata) holding PerQueryMeta as JSON. */
export const META_KEY = "rankeval";
/** A second key with the conventions line alone, for people and tools that show metadata. */
export const CONVENTIONS_KEY = "rankeval.conventions";
/** The first characters of a per-query CSV file: its metadata line, a comment. */
export const CSV_PREFIX = "# rankeval per-query results ";

/** How the command evaluated: what every shard of one evaluation must share. */
export interface PerQuerySettings {
  /** The -m names as given ([]: trec_eval's default). */
  measures: string[];
  /** The conventions given (-l, -M, -J, -N, --gain, --ties, ...). */
  conventions: Conventions;
  /** -c: judged queries absent from a run evaluated too. */
  complete: boolean;
  /** --tie-range: each value's [worst, best] too. */
  tieRange: boolean;
}

/** A column of the table: a value's key (as the run's result has it), its kind, and for --tie-range its side. */
export interface PerQueryColumn {
  name: string;
  key: string;
  kind: "number" | "string";
  tie?: "worst" | "best";
}

/** A run's facts that are not per-query values. */
export interface PerQueryRun {
  /** The run's name in reports (the file as given; a dataset's partition: the dataset's name). */
  name: string;
  /** trec_eval's runid: the tag of the run's last line (or its file's name). */
  runTag: string;
  /** Its rows in the table (its evaluated queries). */
  queries: number;
  noRelevant: number;
  notJudged: number;
  notInRun: number;
  /** Summary values trec_eval takes otherwise than from the per-query values (num_rel under -c). */
  summary?: Record<string, number>;
}

/** The metadata of a per-query table. */
export interface PerQueryMeta {
  format: "rankeval-per-query";
  version: 1;
  /** The rankeval that wrote it. */
  rankeval?: string;
  settings: PerQuerySettings;
  /** The conventions line every report prints, and each value's. */
  conventions: string;
  measureConventions: Record<string, string>;
  /** The summaries that are not means, by key. */
  aggregates: Record<string, Aggregate>;
  /** The kernel's measures, by key, in order (Result.measures). */
  measures: string[];
  columns: PerQueryColumn[];
  runs: PerQueryRun[];
}

/** A per-query table: its metadata and its columns (`run`, `qid`, then meta.columns in order). */
export interface PerQueryTable {
  meta: PerQueryMeta;
  run: string[];
  qid: string[];
  numbers: Record<string, Float64Array>;
  strings: Record<string, string[]>;
}

const bad = (message: string) => new RankevalError("bad-input", message);

/** The name of a tie-range column. */
const tieColumn = (key: string, side: "worst" | "best") => `${key} ${side}`;

/** The keys of the values a run's reports read, in report order: the plan's rows, then the rest. */
function valueKeys(p: Plan, result: Result<string>): string[] {
  const keys: string[] = [];
  for (const r of p.rows) if (!keys.includes(r.measure) && result.values[r.measure]) keys.push(r.measure);
  for (const l of trecLines(p.trec)) {
    const k = lineKey(l);
    if (k !== null && !keys.includes(k) && result.values[k]) keys.push(k);
  }
  for (const k of Object.keys(result.values)) if (!keys.includes(k)) keys.push(k);
  return keys;
}

/**
 * The per-query table of runs evaluated under one plan: a row per run and query (each run's queries
 * in the order of its result: byte order of qid). `names`: each run's name in the table.
 */
export function perQueryTable(p: Plan, settings: PerQuerySettings, runs: readonly RunResult[], names: readonly string[], rankeval?: string): PerQueryTable {
  if (!runs.length) throw new Error("perQueryTable: no runs");
  const first = runs[0].result;
  const keys = valueKeys(p, first);
  const stringKeys = Object.keys(runs[0].strings);
  const columns: PerQueryColumn[] = [];
  for (const key of keys) {
    columns.push({ name: key, key, kind: "number" });
    if (first.tieRange?.[key]) for (const tie of ["worst", "best"] as const) columns.push({ name: tieColumn(key, tie), key, kind: "number", tie });
  }
  for (const key of stringKeys) columns.push({ name: key, key, kind: "string" });
  const n = runs.reduce((s, r) => s + r.result.qids.length, 0);
  const run: string[] = new Array(n);
  const qid: string[] = new Array(n);
  const numbers: Record<string, Float64Array> = {};
  const strings: Record<string, string[]> = {};
  for (const c of columns) {
    if (c.kind === "number") numbers[c.name] = new Float64Array(n);
    else strings[c.name] = new Array<string>(n);
  }
  let at = 0;
  runs.forEach((r, i) => {
    const m = r.result.qids.length;
    for (let q = 0; q < m; q++) {
      run[at + q] = names[i];
      qid[at + q] = r.result.qids[q];
    }
    for (const c of columns) {
      if (c.kind === "string") {
        const s = r.strings[c.key];
        for (let q = 0; q < m; q++) strings[c.name][at + q] = s[q];
        continue;
      }
      const v = c.tie ? r.result.tieRange?.[c.key]?.[c.tie] : r.result.values[c.key];
      if (!v) throw new Error(`perQueryTable: run ${names[i]} has no values of ${c.name}`);
      numbers[c.name].set(v, at);
    }
    at += m;
  });
  const meta: PerQueryMeta = {
    format: "rankeval-per-query",
    version: 1,
    ...(rankeval ? { rankeval } : {}),
    settings,
    conventions: first.conventions,
    measureConventions: { ...first.measureConventions },
    aggregates: { ...(runs[0].aggregates ?? {}) },
    measures: [...first.measures],
    columns,
    runs: runs.map((r, i) => ({
      name: names[i],
      runTag: r.runTag,
      queries: r.result.qids.length,
      noRelevant: r.result.queries.skipped.noRelevant,
      notJudged: r.result.queries.skipped.notJudged,
      notInRun: r.result.queries.skipped.notInRun,
      ...(r.summary ? { summary: { ...r.summary } } : {}),
    })),
  };
  return { meta, run, qid, numbers, strings };
}

/** Checks that a metadata object read from a file is a PerQueryMeta rankeval can merge. */
export function checkMeta(value: unknown, file: string): PerQueryMeta {
  const m = value as Partial<PerQueryMeta> | null;
  if (!m || typeof m !== "object" || m.format !== "rankeval-per-query") throw bad(`${file}: not per-query results rankeval wrote with --per-query-out (no "${META_KEY}" metadata of format "rankeval-per-query")`);
  if (m.version !== 1) throw bad(`${file}: per-query results of version ${String(m.version)}, which this rankeval does not read (it reads version 1)`);
  for (const k of ["settings", "conventions", "measureConventions", "aggregates", "measures", "columns", "runs"] as const) {
    if (m[k] === undefined || m[k] === null) throw bad(`${file}: damaged per-query results: the metadata has no "${k}"`);
  }
  return m as PerQueryMeta;
}

/** A JSON text of a value with its object keys sorted: two settings compare equal when they mean the same. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x));
}

/** What differs between two shards' settings, as a message says it: null when they agree. */
function settingsDiffer(a: PerQueryMeta, b: PerQueryMeta): string | null {
  const sa = a.settings;
  const sb = b.settings;
  if (canonical(sa.measures) !== canonical(sb.measures)) return `measures (${describeMeasures(sa.measures)}; ${describeMeasures(sb.measures)})`;
  if (canonical(sa.conventions) !== canonical(sb.conventions)) return `conventions (${describeConventions(sa.conventions)}; ${describeConventions(sb.conventions)})`;
  if (sa.complete !== sb.complete) return `-c (${sa.complete ? "given" : "not given"}; ${sb.complete ? "given" : "not given"})`;
  if (sa.tieRange !== sb.tieRange) return `--tie-range (${sa.tieRange ? "given" : "not given"}; ${sb.tieRange ? "given" : "not given"})`;
  if (canonical(a.measureConventions) !== canonical(b.measureConventions)) return `conventions (${a.conventions}; ${b.conventions})`;
  if (canonical(a.columns) !== canonical(b.columns) || canonical(a.aggregates) !== canonical(b.aggregates)) return "values (their columns differ)";
  return null;
}

/** Conventions as the command line gives them: `-l 2 --gain exp`, or "none given". */
function describeConventions(c: Conventions): string {
  const parts: string[] = [];
  if (c.threshold !== undefined) parts.push(`-l ${c.threshold}`);
  if (c.depth !== undefined) parts.push(`-M ${c.depth}`);
  if (c.judgedOnly) parts.push("-J");
  if (c.numDocs !== undefined) parts.push(`-N ${c.numDocs}`);
  for (const [k, flag] of [["gain", "--gain"], ["noRelevant", "--no-relevant"], ["beyondList", "--beyond-list"], ["ties", "--ties"], ["preset", "--preset"]] as const) {
    if (c[k] !== undefined) parts.push(`${flag} ${c[k]}`);
  }
  return parts.length ? parts.join(" ") : "none given";
}

const describeMeasures = (m: readonly string[]) => (m.length ? m.map((x) => `-m ${x}`).join(" ") : "trec_eval's default measures");

/** A file's table, and its name in messages. */
export interface NamedTable {
  file: string;
  table: PerQueryTable;
}

/** What merging gives: the plan made again from the shards' settings, and each run's result. */
export interface Merged {
  p: Plan;
  settings: PerQuerySettings;
  runs: RunResult[];
  /** The metadata the merged runs have in common (for a merged table written again). */
  meta: PerQueryMeta;
}

/**
 * Merges per-query tables: each run (by name) gathered from every table holding it, its queries
 * disjoint across them, into the result one evaluation of the whole input gives: queries in byte
 * order of qid, each value summarised as its line is, the run's counts and -c's num_rel summed.
 * Tables made under other measures or conventions, a query of a run in two tables, or a run whose
 * tables give it different tags are errors naming both files.
 */
export function mergeTables(tables: readonly NamedTable[]): Merged {
  if (!tables.length) throw new Error("mergeTables: no tables");
  const first = tables[0];
  for (const t of tables.slice(1)) {
    const why = settingsDiffer(first.table.meta, t.table.meta);
    if (why) throw bad(`${first.file} and ${t.file} were made under different ${why}: only shards of one evaluation merge`);
  }
  const meta = first.table.meta;
  const settings = meta.settings;
  const p = plan(settings.measures, null, settings.conventions);
  const explicit = options(settings.conventions, p.kind === "trec");
  const resolved = overPreset(DEFAULT_OPTIONS, explicit);
  // Each run's parts: the tables holding it, and its rows there.
  const order: string[] = [];
  const parts = new Map<string, { file: string; table: PerQueryTable; info: PerQueryRun; rows: number[] }[]>();
  for (const { file, table } of tables) {
    const rowsOf = new Map<string, number[]>();
    for (let i = 0; i < table.run.length; i++) {
      let r = rowsOf.get(table.run[i]);
      if (!r) rowsOf.set(table.run[i], (r = []));
      r.push(i);
    }
    for (const info of table.meta.runs) {
      if (!parts.has(info.name)) {
        parts.set(info.name, []);
        order.push(info.name);
      }
      const rows = rowsOf.get(info.name) ?? [];
      if (rows.length !== info.queries) throw bad(`${file}: damaged per-query results: run ${JSON.stringify(info.name)} has ${rows.length} rows, its metadata says ${info.queries}`);
      parts.get(info.name)!.push({ file, table, info, rows });
    }
    for (const name of rowsOf.keys()) {
      if (!table.meta.runs.some((r) => r.name === name)) throw bad(`${file}: damaged per-query results: rows of run ${JSON.stringify(name)}, which its metadata does not list`);
    }
  }
  const columns = meta.columns;
  const runs: RunResult[] = order.map((name) => {
    const ps = parts.get(name)!;
    const tags = ps.map((x) => x.info.runTag);
    const other = ps.find((x) => x.info.runTag !== tags[0]);
    if (other) throw bad(`${ps[0].file} and ${other.file} give run ${JSON.stringify(name)} different tags (${JSON.stringify(tags[0])}, ${JSON.stringify(other.info.runTag)}): trec_eval's runid would depend on the shard read last`);
    // The queries of every part, checked disjoint.
    const qids: string[] = [];
    const from: { part: number; row: number }[] = [];
    const seen = new Map<string, number>();
    ps.forEach((x, k) => {
      for (const row of x.rows) {
        const q = x.table.qid[row];
        const before = seen.get(q);
        if (before !== undefined) {
          const where = before === k ? `${x.file} holds query ${JSON.stringify(q)} of run ${JSON.stringify(name)} twice` : `${ps[before].file} and ${x.file} both hold query ${JSON.stringify(q)} of run ${JSON.stringify(name)}`;
          throw bad(`${where}: the shards of a run must hold disjoint queries (were the judgments, or the runs, not partitioned alike?)`);
        }
        seen.set(q, k);
        qids.push(q);
        from.push({ part: k, row });
      }
    });
    const sorted = sortedOrder(qids);
    const values: Record<string, Float64Array> = {};
    const mean: Record<string, number> = {};
    const counted: Record<string, number> = {};
    const worst: Record<string, Float64Array> = {};
    const best: Record<string, Float64Array> = {};
    const strings: Record<string, string[]> = {};
    for (const c of columns) {
      if (c.kind === "string") {
        strings[c.key] = sorted.map((i) => ps[from[i].part].table.strings[c.name][from[i].row]);
        continue;
      }
      const v = new Float64Array(qids.length);
      for (let j = 0; j < v.length; j++) {
        const { part, row } = from[sorted[j]];
        v[j] = ps[part].table.numbers[c.name][row];
      }
      if (c.tie === "worst") worst[c.key] = v;
      else if (c.tie === "best") best[c.key] = v;
      else {
        values[c.key] = v;
        ({ value: mean[c.key], count: counted[c.key] } = summaryOf(v, meta.aggregates[c.key] ?? "mean"));
      }
    }
    let tieRange: Record<string, TieRange> | undefined;
    if (Object.keys(worst).length) {
      tieRange = {};
      for (const key of Object.keys(worst)) {
        const agg = meta.aggregates[key] ?? "mean";
        tieRange[key] = { worst: worst[key], best: best[key], mean: { worst: summaryOf(worst[key], agg).value, best: summaryOf(best[key], agg).value } };
      }
    }
    const sum = (f: (r: PerQueryRun) => number) => ps.reduce((s, x) => s + f(x.info), 0);
    let summary: Record<string, number> | undefined;
    for (const x of ps) {
      if (!x.info.summary) continue;
      summary ??= {};
      for (const [k, v] of Object.entries(x.info.summary)) summary[k] = (summary[k] ?? 0) + v;
    }
    const result: Result<string> = {
      measures: [...meta.measures],
      qids: sorted.map((i) => qids[i]),
      values,
      mean,
      counted,
      queries: { evaluated: qids.length, skipped: { noRelevant: sum((r) => r.noRelevant), notJudged: sum((r) => r.notJudged), notInRun: sum((r) => r.notInRun) } },
      options: resolved,
      conventions: meta.conventions,
      measureConventions: { ...meta.measureConventions },
      warnings: [...p.warnings],
      ...(tieRange ? { tieRange } : {}),
    };
    return { file: name, runTag: tags[0], result, strings, ...(summary ? { summary } : {}), aggregates: meta.aggregates };
  });
  return { p, settings, runs, meta };
}

/** Run names in the order of first appearance, for messages. */
export function runNames(t: PerQueryTable): string[] {
  return t.meta.runs.map((r) => r.name);
}

/** Byte order of strings (trec_eval's strcmp), re-exported for readers that sort. */
export { compareBytes };
