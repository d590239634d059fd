/**
 * Per-query results as a table (`--per-query-out`), and shards' tables merged back (`--merge`) to print
 * what one evaluation of the whole input prints. So a shard carries every value a report reads as exact
 * doubles, the counts that are not per-query values (-c's num_rel counts every judgment), the run's tag,
 * and the measures and conventions, which must agree across shards. Browser compatible.
 */
import { counted } from "../errors/counted.js";
import { badInput } from "../errors/errors.js";
import { resultOf, type Result, type TieRange } from "../pipeline/evaluate.js";
import type { Aggregate } from "../measures/measure.js";
import { DEFAULT_OPTIONS, overPreset } from "../measures/options.js";
import { MomentSummary, summariesOf, tieRangeOf } from "../pipeline/aggregate.js";
import type { Interval } from "../pipeline/interval.js";
import { compareBytes, sortedOrder } from "../c/strings.js";
import { lineKey, options, plan, planConventions, type Conventions, type Plan, type RunResult } from "../app/plan.js";
import { trecLines } from "../trec/measures.js";

/** The metadata key holding PerQueryMeta as JSON. */
export const META_KEY = "rankeval";
/** A key with the conventions alone, for tools that show metadata. */
export const CONVENTIONS_KEY = "rankeval.conventions";

export const CSV_PREFIX = "# rankeval per-query results ";

export interface PerQuerySettings {
  /** -m ([]: trec_eval's default). */
  measures: string[];
  conventions: Conventions;
  /** -c */
  complete: boolean;
  /** --tie-range */
  tieRange: boolean;
}

export interface PerQueryColumn {
  name: string;
  key: string;
  kind: "number" | "string";
  tie?: "worst" | "best";
}

export interface PerQueryRun {
  name: string;
  runTag: string;
  /** Its rows in the table. */
  queries: number;
  noRelevant: number;
  notJudged: number;
  notInRun: number;
  /** Summary values not from the per-query values (num_rel under -c). */
  summary?: Record<string, number>;
}

export interface PerQueryMeta {
  format: "rankeval-per-query";
  version: 1;
  rankeval?: string;
  settings: PerQuerySettings;
  /** Result.conventions and measureConventions. */
  conventions: string;
  measureConventions: Record<string, string>;
  /** As the table prints them: one line, or one per measure. */
  conventionLines: string[];
  /** Summaries that are not means. */
  aggregates: Record<string, Aggregate>;
  /** Result.measures */
  measures: string[];
  columns: PerQueryColumn[];
  runs: PerQueryRun[];
}

export interface PerQueryTable {
  meta: PerQueryMeta;
  run: string[];
  qid: string[];
  numbers: Record<string, Float64Array>;
  strings: Record<string, string[]>;
}

const tieColumn = (key: string, side: "worst" | "best") => `${key} ${side}`;

/** The keys of a run's values in report order: the plan's rows, then the rest. */
function valueKeys(p: Plan, result: Result<string>): string[] {
  const first = [...p.rows.map((r) => r.measure), ...trecLines(p.trec).map(lineKey)].filter(
    (k) => k !== null && result.values[k],
  ) as string[];
  return [...new Set([...first, ...Object.keys(result.values)])];
}

/** The per-query table of runs evaluated under one plan: a row per run and query (byte order of qid). */
export function perQueryTable(
  p: Plan,
  settings: PerQuerySettings,
  runs: readonly RunResult[],
  names: readonly string[],
  rankeval?: string,
): PerQueryTable {
  if (!runs.length) throw new Error("perQueryTable: no runs");
  const first = runs[0].result;
  const keys = valueKeys(p, first);
  const stringKeys = Object.keys(runs[0].strings);
  const columns: PerQueryColumn[] = [];
  for (const key of keys) {
    columns.push({ name: key, key, kind: "number" });
    if (first.tieRange?.[key])
      for (const tie of ["worst", "best"] as const)
        columns.push({ name: tieColumn(key, tie), key, kind: "number", tie });
  }
  for (const key of stringKeys) columns.push({ name: key, key, kind: "string" });
  const meta: PerQueryMeta = {
    format: "rankeval-per-query",
    version: 1,
    ...(rankeval ? { rankeval } : {}),
    settings,
    conventions: first.conventions,
    measureConventions: { ...first.measureConventions },
    conventionLines: planConventions(p, options(settings.conventions, p.kind === "trec")),
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
  const t = emptyTable(
    meta,
    runs.reduce((s, r) => s + r.result.qids.length, 0),
  );
  const { run, qid, numbers, strings } = t;
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
  return t;
}

export function emptyTable(meta: PerQueryMeta, n: number): PerQueryTable {
  const numbers: Record<string, Float64Array> = {};
  const strings: Record<string, string[]> = {};
  for (const c of meta.columns) {
    if (c.kind === "number") numbers[c.name] = new Float64Array(n);
    else strings[c.name] = new Array<string>(n);
  }
  return { meta, run: new Array<string>(n), qid: new Array<string>(n), numbers, strings };
}

export const damaged = (file: string, what: string) => badInput(`${file}: damaged per-query results: ${what}`);

/** Checks that a metadata object read from a file is a PerQueryMeta rankeval can merge. */
export function checkMeta(value: unknown, file: string): PerQueryMeta {
  const m = value as Partial<PerQueryMeta> | null;
  if (!m || typeof m !== "object" || m.format !== "rankeval-per-query")
    throw badInput(
      `${file}: not per-query results rankeval wrote with --per-query-out (no "${META_KEY}" metadata of format "rankeval-per-query")`,
    );
  if (m.version !== 1)
    throw badInput(
      `${file}: per-query results of version ${String(m.version)}, which this rankeval does not read (it reads version 1)`,
    );
  for (const k of [
    "settings",
    "conventions",
    "measureConventions",
    "aggregates",
    "measures",
    "columns",
    "runs",
  ] as const) {
    if (m[k] === undefined || m[k] === null) throw damaged(file, `the metadata has no "${k}"`);
  }
  return m as PerQueryMeta;
}

/** JSON with object keys sorted, so equal settings compare equal. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_, x) =>
    x && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, x[k]]),
        )
      : x,
  );
}

/** What differs between two shards' settings, as a message says it: null when they agree. */
function settingsDiffer(a: PerQueryMeta, b: PerQueryMeta): string | null {
  const sa = a.settings;
  const sb = b.settings;
  const given = (x: boolean) => (x ? "given" : "not given");
  if (canonical(sa.measures) !== canonical(sb.measures))
    return `measures (${describeMeasures(sa.measures)}; ${describeMeasures(sb.measures)})`;
  if (canonical(sa.conventions) !== canonical(sb.conventions))
    return `conventions (${describeConventions(sa.conventions)}; ${describeConventions(sb.conventions)})`;
  if (sa.complete !== sb.complete) return `-c (${given(sa.complete)}; ${given(sb.complete)})`;
  if (sa.tieRange !== sb.tieRange) return `--tie-range (${given(sa.tieRange)}; ${given(sb.tieRange)})`;
  if (canonical(a.measureConventions) !== canonical(b.measureConventions))
    return `conventions (${a.conventions}; ${b.conventions})`;
  if (canonical(a.columns) !== canonical(b.columns) || canonical(a.aggregates) !== canonical(b.aggregates))
    return "values (their columns differ)";
  return null;
}

/** Conventions as the command line gives them: `-l 2 --gain exp`, or "none given". */
function describeConventions(c: Conventions): string {
  const parts: string[] = [];
  if (c.threshold !== undefined) parts.push(`-l ${c.threshold}`);
  if (c.depth !== undefined) parts.push(`-M ${c.depth}`);
  if (c.judgedOnly) parts.push("-J");
  if (c.numDocs !== undefined) parts.push(`-N ${c.numDocs}`);
  for (const [k, flag] of [
    ["gain", "--gain"],
    ["noRelevant", "--no-relevant"],
    ["beyondList", "--beyond-list"],
    ["ties", "--ties"],
    ["preset", "--preset"],
  ] as const) {
    if (c[k] !== undefined) parts.push(`${flag} ${c[k]}`);
  }
  return parts.length ? parts.join(" ") : "none given";
}

const describeMeasures = (m: readonly string[]) =>
  m.length ? m.map((x) => `-m ${x}`).join(" ") : "trec_eval's default measures";

export interface NamedTable {
  file: string;
  table: PerQueryTable;
}

export interface Merged {
  p: Plan;
  settings: PerQuerySettings;
  runs: RunResult[];
  meta: PerQueryMeta;
  shards: { file: string; meta: PerQueryMeta }[];
}

/**
 * Merges per-query tables into the results one evaluation of the whole input gives (queries in byte
 * order, counts summed). Other settings, a query in two tables, or two tags of a run are errors.
 */
export function mergeTables(tables: readonly NamedTable[]): Merged {
  if (!tables.length) throw new Error("mergeTables: no tables");
  const shards = tables.map((t) => ({ file: t.file, meta: t.table.meta }));
  checkSameEvaluation(shards);
  const meta = shards[0].meta;
  const settings = meta.settings;
  const p = plan(settings.measures, null, settings.conventions);
  const resolved = resolvedOf(meta, p);
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
      if (rows.length !== info.queries)
        throw damaged(
          file,
          `run ${JSON.stringify(info.name)} has ${counted(rows.length, "row")}, its metadata says ${info.queries}`,
        );
      parts.get(info.name)!.push({ file, table, info, rows });
    }
    for (const name of rowsOf.keys()) {
      if (!table.meta.runs.some((r) => r.name === name))
        throw damaged(file, `rows of run ${JSON.stringify(name)}, which its metadata does not list`);
    }
  }
  const columns = meta.columns;
  const runs: RunResult[] = order.map((name) => {
    const ps = parts.get(name)!;
    const runTag = oneTag(name, ps);
    const qids: string[] = [];
    const from: { part: number; row: number }[] = [];
    const seen = new Map<string, number>();
    ps.forEach((x, k) => {
      for (const row of x.rows) {
        const q = x.table.qid[row];
        const before = seen.get(q);
        if (before !== undefined) {
          const where =
            before === k
              ? `${x.file} holds query ${JSON.stringify(q)} of run ${JSON.stringify(name)} twice`
              : `${ps[before].file} and ${x.file} both hold query ${JSON.stringify(q)} of run ${JSON.stringify(name)}`;
          throw badInput(
            `${where}: the shards of a run must hold disjoint queries (were the judgments, or the runs, not partitioned alike?)`,
          );
        }
        seen.set(q, k);
        qids.push(q);
        from.push({ part: k, row });
      }
    });
    const sorted = sortedOrder(qids);
    const values: Record<string, Float64Array> = {};
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
      else values[c.key] = v;
    }
    const aggregateOf = (key: string) => meta.aggregates[key] ?? "mean";
    const { mean, counted, interval } = summariesOf(values, aggregateOf);
    const ties = Object.keys(worst);
    const tieRange = ties.length
      ? Object.fromEntries(ties.map((key) => [key, tieRangeOf(worst[key], best[key], aggregateOf(key))]))
      : undefined;
    const { queries, summary } = summedCounts(ps, qids.length);
    const result = resultOf(
      [...meta.measures],
      sorted.map((i) => qids[i]),
      values,
      { mean, counted, interval },
      queries.skipped,
      {
        options: resolved,
        conventions: meta.conventions,
        measureConventions: { ...meta.measureConventions },
        warnings: [...p.warnings],
        tieRange,
      },
    );
    return {
      file: name,
      runTag,
      result,
      strings,
      ...(summary ? { summary } : {}),
      aggregates: meta.aggregates,
    };
  });
  return { p, settings, runs, meta, shards };
}

type RunPart = { readonly file: string; readonly info: PerQueryRun };

/** A run's one tag across its shards (two are an error). */
function oneTag(name: string, parts: readonly RunPart[]): string {
  const tag = parts[0].info.runTag;
  const other = parts.find((x) => x.info.runTag !== tag);
  if (other)
    throw badInput(
      `${parts[0].file} and ${other.file} give run ${JSON.stringify(name)} different tags (${JSON.stringify(tag)}, ${JSON.stringify(other.info.runTag)}): trec_eval's runid would depend on the shard read last`,
    );
  return tag;
}

/** A run's counts and -c's num_rel, summed. */
function summedCounts(parts: readonly RunPart[], evaluated: number) {
  const sum = (f: (r: PerQueryRun) => number) => parts.reduce((s, x) => s + f(x.info), 0);
  let summary: Record<string, number> | undefined;
  for (const x of parts) {
    if (!x.info.summary) continue;
    summary ??= {};
    for (const [k, v] of Object.entries(x.info.summary)) summary[k] = (summary[k] ?? 0) + v;
  }
  const skipped = {
    noRelevant: sum((r) => r.noRelevant),
    notJudged: sum((r) => r.notJudged),
    notInRun: sum((r) => r.notInRun),
  };
  return { queries: { evaluated, skipped }, summary };
}

export interface ShardRows {
  file: string;
  chunks: AsyncIterator<{ qid: string[]; numbers: Record<string, ArrayLike<number>> }>;
}

export interface MergedSummary {
  name: string;
  runTag: string;
  queries: Result<string>["queries"];
  sums: Record<string, MomentSummary>;
  summary?: Record<string, number>;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** One run's summaries from its shards, merged k ways in byte order of qid, a chunk of each shard held. */
export async function mergeRunSummaries(
  name: string,
  meta: PerQueryMeta,
  infos: { file: string; info: PerQueryRun }[],
  shards: ShardRows[],
  logKeys: ReadonlySet<string>,
): Promise<MergedSummary> {
  const runTag = oneTag(name, infos);
  const columns = meta.columns.filter((c) => c.kind === "number");
  const sums: Record<string, MomentSummary> = {};
  for (const c of columns) sums[c.name] = new MomentSummary(logKeys.has(c.key));
  // A heap of shards by their current qid.
  interface Cursor {
    k: number;
    qid: string[];
    numbers: Record<string, ArrayLike<number>>;
    at: number;
    wide: boolean;
  }
  // Without surrogates code-unit order is UTF-8's byte order.
  const order = (x: string, xWide: boolean, y: string, yWide: boolean): number =>
    xWide || yWide ? compareBytes(x, y) : x < y ? -1 : x === y ? 0 : 1;
  const before = (a: Cursor, b: Cursor): boolean => order(a.qid[a.at], a.wide, b.qid[b.at], b.wide) < 0;
  const load = async (k: number): Promise<Cursor | null> => {
    for (;;) {
      const r = await shards[k].chunks.next();
      if (r.done) return null;
      if (r.value.qid.length) return { k, ...r.value, at: 0, wide: r.value.qid.some((q) => SURROGATE.test(q)) };
    }
  };
  const heap: Cursor[] = [];
  const push = (c: Cursor) => {
    heap.push(c);
    for (let i = heap.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (!before(heap[i], heap[p])) break;
      [heap[i], heap[p]] = [heap[p], heap[i]];
      i = p;
    }
  };
  const siftDown = () => {
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l], heap[m])) m = l;
      if (r < heap.length && before(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (let k = 0; k < shards.length; k++) {
    const c = await load(k);
    if (c) push(c);
  }
  const disorder = (k: number, q: string, prev: string) =>
    damaged(
      shards[k].file,
      `run ${JSON.stringify(name)}'s query ${JSON.stringify(q)} is ${q === prev ? "there twice" : "out of byte order"}`,
    );
  let last: string | null = null;
  let lastWide = false;
  let lastShard = -1;
  let n = 0;
  while (heap.length) {
    const c = heap[0];
    const q = c.qid[c.at];
    if (last !== null && order(q, c.wide, last, lastWide) <= 0)
      throw q === last && lastShard !== c.k
        ? badInput(
            `${shards[lastShard].file} and ${shards[c.k].file} both hold query ${JSON.stringify(q)} of run ${JSON.stringify(name)}: the shards of a run must hold disjoint queries (were the judgments, or the runs, not partitioned alike?)`,
          )
        : disorder(c.k, q, last);
    for (const col of columns) sums[col.name].add(col.name in c.numbers ? Number(c.numbers[col.name][c.at]) : NaN);
    last = q;
    lastWide = c.wide;
    lastShard = c.k;
    n++;
    c.at++;
    if (c.at < c.qid.length) {
      if (order(c.qid[c.at], c.wide, q, c.wide) <= 0) throw disorder(c.k, c.qid[c.at], q);
      siftDown();
    } else {
      const next = await load(c.k);
      if (next) {
        if (order(next.qid[0], next.wide, q, lastWide) <= 0) throw disorder(c.k, next.qid[0], q);
        heap[0] = next;
      } else {
        heap[0] = heap[heap.length - 1];
        heap.pop();
      }
      if (heap.length) siftDown();
    }
  }
  const total = (f: (r: PerQueryRun) => number) => infos.reduce((s, x) => s + f(x.info), 0);
  if (n !== total((r) => r.queries))
    throw badInput(
      `damaged per-query results: run ${JSON.stringify(name)}: ${counted(n, "row")} read, the files' metadata say ${total((r) => r.queries)}`,
    );
  const { queries, summary } = summedCounts(infos, n);
  return {
    name,
    runTag,
    queries,
    sums,
    ...(summary ? { summary } : {}),
  };
}

/** The merged summaries as a Result without per-query values, each mean's t interval at `level` (default 95%). */
export function summaryResult(meta: PerQueryMeta, p: Plan, m: MergedSummary, level?: number): Result<string> {
  const mean: Record<string, number> = {};
  const counted: Record<string, number> = {};
  const interval: Record<string, Interval> = {};
  const tieRange: Record<string, TieRange> = {};
  for (const c of meta.columns) {
    if (c.kind !== "number") continue;
    const agg = meta.aggregates[c.key] ?? "mean";
    const s = m.sums[c.name].summary(agg);
    if (!c.tie) {
      mean[c.key] = s.value;
      counted[c.key] = s.count;
      if (agg === "mean") interval[c.key] = m.sums[c.name].interval(level);
    } else {
      const t = (tieRange[c.key] ??= {
        worst: new Float64Array(0),
        best: new Float64Array(0),
        mean: { worst: NaN, best: NaN },
      }) as { mean: { worst: number; best: number } };
      t.mean[c.tie] = s.value;
    }
  }
  return {
    measures: [...meta.measures],
    qids: [],
    values: {},
    mean,
    counted,
    interval,
    queries: m.queries,
    options: resolvedOf(meta, p),
    conventions: meta.conventions,
    measureConventions: { ...meta.measureConventions },
    warnings: [...p.warnings],
    ...(Object.keys(tieRange).length ? { tieRange } : {}),
  };
}

const resolvedOf = (meta: PerQueryMeta, p: Plan) =>
  overPreset(DEFAULT_OPTIONS, options(meta.settings.conventions, p.kind === "trec"));

/** trec_eval's summary lines of merged summaries by line name; null where two lines share a name. */
export function trecSummaryValues(p: Plan, meta: PerQueryMeta, m: MergedSummary): Record<string, number> | null {
  const out: Record<string, number> = { ...(m.summary ?? {}) };
  const numQ = m.queries.evaluated;
  const seen = new Set<string>();
  for (const l of trecLines(p.trec)) {
    if (!l.summary) continue;
    if (seen.has(l.name)) return null;
    seen.add(l.name);
    if (l.aggregation === "runid" || l.aggregation === "count" || out[l.name] !== undefined) continue;
    const key = lineKey(l);
    const column = key === null ? undefined : meta.columns.find((c) => c.key === key && !c.tie);
    if (!column || (l.aggregation !== "mean" && l.aggregation !== "sum" && l.aggregation !== "geomean")) return null;
    out[l.name] = m.sums[column.name].trec(l.aggregation, numQ);
  }
  return out;
}

/** The keys whose geometric means a plan's reports take (gm_map, gm_bpref). */
export function geometricKeys(p: Plan, meta: PerQueryMeta): Set<string> {
  const keys = new Set(
    Object.entries(meta.aggregates)
      .filter(([, a]) => a === "geomean")
      .map(([k]) => k),
  );
  for (const l of trecLines(p.trec))
    if (l.aggregation === "geomean") {
      const k = lineKey(l);
      if (k !== null) keys.add(k);
    }
  return keys;
}

/** Checks that shards were made under one evaluation's settings. */
export function checkSameEvaluation(metas: readonly { file: string; meta: PerQueryMeta }[]): void {
  for (const t of metas.slice(1)) {
    const why = settingsDiffer(metas[0].meta, t.meta);
    if (why)
      throw badInput(
        `${metas[0].file} and ${t.file} were made under different ${why}: only shards of one evaluation merge`,
      );
  }
}

/**
 * Runs that look like one run's shards under several names: one tag, no shard in common. Runs merge by
 * name, so these merge as several runs: said, not refused (runs evaluated one per task can look alike).
 */
export function shardsUnderSeveralNames(metas: readonly { file: string; meta: PerQueryMeta }[]): string[] {
  const runs: { name: string; tag: string; files: Set<string> }[] = [];
  for (const { file, meta } of metas)
    for (const r of meta.runs) {
      let run = runs.find((x) => x.name === r.name && x.tag === r.runTag);
      if (!run) runs.push((run = { name: r.name, tag: r.runTag, files: new Set() }));
      run.files.add(file);
    }
  const group = runs.map((_, i) => i);
  const root = (i: number): number => (group[i] === i ? i : (group[i] = root(group[i])));
  for (let i = 0; i < runs.length; i++)
    for (let j = i + 1; j < runs.length; j++)
      if (runs[i].tag === runs[j].tag && ![...runs[i].files].some((f) => runs[j].files.has(f)))
        group[root(j)] = root(i);
  const said: string[] = [];
  for (let g = 0; g < runs.length; g++) {
    const members = runs.filter((_, i) => root(i) === g);
    if (members.length < 2) continue;
    const named = members.map((r) => `"${r.name}" (${[...r.files][0]}${r.files.size > 1 ? ", ..." : ""})`);
    const some =
      named.length > 3 ? `${named.slice(0, 2).join(", ")} and ${named.length - 2} more` : named.join(" and ");
    said.push(
      `runs ${some} have one tag (${JSON.stringify(members[0].tag)}) and no shard in common: merged as ` +
        `${counted(members.length, "run")}, each over its own shards' queries. Shards merge as one run under ` +
        "one name (a path without its key=value parts: runs/bm25/bucket=3 is runs/bm25); if these are one " +
        "run's shards, evaluate them under such paths",
    );
  }
  return said;
}
