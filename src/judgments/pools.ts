// Pools: which documents to judge, from the runs (issue 38). "depth:K" is TREC's depth-k pool, the union of
// every run's top K (Spärck Jones & van Rijsbergen 1975; Harman 1992). "rbp:P" ranks documents by their
// rank-biased precision weight (1-P)·P^(rank-1) summed (or maxed) over the runs, Moffat, Webber & Zobel
// 2007 ("Strategic system comparisons via targeted relevance judgments"), and "rrf:K" by reciprocal rank
// fusion's 1/(K+rank), Cormack, Clarke & Büttcher 2009; both keep a per-query budget, as trectools'
// TrecPoolMaker. A rank is the one evaluation reads: score descending, ties by id descending in bytes
// (trec_eval; src/reference/ranking.ts rank()). Browser-safe.
import { badInput, checkOptions, oneOf, ANY, shown, usageError, type OptionType } from "../errors/errors.js";
import { Interner } from "../io/interner.js";
import { compareIds, type ParsedRows } from "../io/rows.js";
import { sortedOrder, sortQids } from "../c/strings.js";
import type { Qrels, Run } from "../pipeline/join-memory.js";
import {
  type DocTable,
  groupSource,
  groupSpans,
  parsedSource,
  QueryDocs,
  QueryStrings,
  READ_AS_BYTES,
  readSource,
  readStrings,
  type Source,
  type StringSource,
} from "./query-docs.js";

export type PoolMethod = "depth" | "rbp" | "rrf";

export interface PoolOptions {
  /**
   * `"depth:K"`, `"rbp:P"` or `"rrf:K"`. `"rbp"` is `"rbp:0.8"` and `"rrf"` `"rrf:60"` (trectools'
   * defaults); `"depth"` takes its K from `depth`.
   */
  readonly method: string;
  /** Each run's top `depth` documents are read: the pool's K for "depth"; for "rbp" and "rrf" @default Infinity */
  readonly depth?: number;
  /** "rbp" and "rrf": documents pooled per query; with `judged`, new documents only. Required there. */
  readonly budget?: number;
  /** "rbp" and "rrf": a document's weight is the sum, or the largest, of its weights in the runs. @default "sum" */
  readonly combine?: "sum" | "max";
  /** Judgments made already (any label): their documents are never pooled (incremental pooling). */
  readonly judged?: Qrels;
  /** Coverage reads each run's top `coverageDepth`. @default K for "depth", 10 for "rbp" and "rrf" */
  readonly coverageDepth?: number;
}

export interface PooledQuery {
  readonly qid: string;
  /** "depth": by id in bytes (strcmp, as trectools writes a pool); "rbp", "rrf": by weight, ties by id ascending. */
  readonly docids: string[];
  /** "rbp", "rrf": each document's weight. */
  readonly weights?: number[];
}

export interface RunCoverage {
  /** The run's index in `runs`. */
  readonly run: number;
  /** Of the run's top `coverageDepth` documents over every query: those in the pool or judged already. */
  readonly covered: number;
  /** The run's top `coverageDepth` documents over every query (fewer where a query ranks fewer). */
  readonly ranked: number;
  /** covered / ranked; null where the run ranks nothing. */
  readonly share: number | null;
  /** Per query, aligned with `Pool.queries` (0 of 0 where the run lacks the query). */
  readonly perQuery: { readonly covered: number[]; readonly ranked: number[] };
}

/** A pool: plain objects and arrays (JSON.stringify writes it whole). */
export interface Pool {
  readonly method: PoolMethod;
  /** K of "depth:K" and "rrf:K", P of "rbp:P". */
  readonly parameter: number;
  /** Ranks read from each run; null: all. */
  readonly depth: number | null;
  readonly budget: number | null;
  readonly combine: "sum" | "max" | null;
  readonly coverageDepth: number;
  /** Every query of the runs, by id in bytes (trec_eval's -q order), pooled documents or none. */
  readonly queries: PooledQuery[];
  /** Documents pooled, all queries. */
  readonly size: number;
  readonly coverage: RunCoverage[];
}

const POSITIVE_INTEGER: OptionType = {
  test: (v) => typeof v === "number" && Number.isSafeInteger(v) && v >= 1,
  is: "an integer >= 1",
};
const POOL_OPTIONS: Readonly<Record<keyof PoolOptions, OptionType>> = {
  method: { test: (v) => typeof v === "string", is: 'a string: "depth:K", "rbp:P" or "rrf:K"', required: true },
  depth: { test: (v) => v === Infinity || POSITIVE_INTEGER.test(v), is: "an integer >= 1 or Infinity" },
  budget: { ...POSITIVE_INTEGER, is: "an integer >= 1" },
  combine: oneOf(["sum", "max"]),
  judged: ANY,
  coverageDepth: POSITIVE_INTEGER,
};

interface Settings {
  method: PoolMethod;
  parameter: number;
  depth: number;
  budget: number;
  combine: "sum" | "max";
  coverageDepth: number;
}

function settings(options: PoolOptions): Settings {
  const o = checkOptions(options, POOL_OPTIONS, "pool");
  const m = /^(depth|rbp|rrf)(?::(.*))?$/.exec(o.method);
  if (!m) throw usageError(`pool: method must be "depth:K", "rbp:P" or "rrf:K", not ${shown(o.method)}`);
  const method = m[1] as PoolMethod;
  const given = m[2] === undefined ? undefined : m[2].trim() === "" ? NaN : Number(m[2]);
  if (method === "depth") {
    if (given !== undefined && !POSITIVE_INTEGER.test(given))
      throw usageError(`pool: "depth:K" needs K an integer >= 1, not ${shown(m[2])}`);
    if (given !== undefined && o.depth !== undefined && o.depth !== given)
      throw usageError(`pool: method ${shown(o.method)} and depth ${o.depth} disagree: give K once`);
    const k = given ?? o.depth;
    if (k === undefined || k === Infinity)
      throw usageError(`pool: method "depth" needs its K: "depth:100", or depth: 100`);
    if (o.budget !== undefined) throw usageError(`pool: budget is for "rbp" and "rrf"; a depth pool has no budget`);
    if (o.combine !== undefined) throw usageError(`pool: combine is for "rbp" and "rrf", not "depth"`);
    return { method, parameter: k, depth: k, budget: Infinity, combine: "sum", coverageDepth: o.coverageDepth ?? k };
  }
  const parameter = given ?? (method === "rbp" ? 0.8 : 60);
  if (method === "rbp" && !(parameter > 0 && parameter < 1))
    throw usageError(`pool: "rbp:P" needs P a number between 0 and 1 (exclusive), not ${shown(m[2])}`);
  if (method === "rrf" && !(parameter >= 0 && Number.isFinite(parameter)))
    throw usageError(`pool: "rrf:K" needs K a number >= 0, not ${shown(m[2])}`);
  if (o.budget === undefined)
    throw usageError(`pool: method ${shown(o.method)} needs budget, the documents to pool per query`);
  return {
    method,
    parameter,
    depth: o.depth ?? Infinity,
    budget: o.budget,
    combine: o.combine ?? "sum",
    coverageDepth: o.coverageDepth ?? 10,
  };
}

/**
 * The documents to judge next, per query, and how much of each run's top `coverageDepth` they (and the
 * judgments made) cover. Runs are `{ qid: { docid: score } }` or columns, as `evaluateRun` reads them.
 * Budgeted methods keep the `budget` documents of highest weight, ties by id ascending in bytes; a
 * document's weights are added run by run in the order of `runs`.
 */
export function pool(runs: readonly Run[], options: PoolOptions): Pool {
  const s = settings(options);
  if (!Array.isArray(runs)) throw badInput(`pool: runs must be an array of runs, not ${shown(runs)}`);
  if (runs.length === 0) throw badInput("pool: runs is empty: give at least one run");
  const strings = readStringSources(runs, options.judged);
  if (strings)
    try {
      return pooled(strings, s);
    } catch (e) {
      if (e !== READ_AS_BYTES) throw e;
    }
  return pooled(readByteSources(runs, options.judged), s);
}

/** The pool of inputs read. */
function pooled(read: Read, s: Settings): Pool {
  const { sources, judged, qids, table, idAfter } = read;
  const R = sources.length - (judged ? 1 : 0);
  const order = sortedOrder(qids);
  let flags = new Uint8Array(0);
  let weight = new Float64Array(0);
  // Documents of each run by rank, runs one after another: rankStart[r] is run r's first.
  let byRank = new Int32Array(0);
  const rankStart = new Int32Array(R + 1);
  const weights = new RankWeights(s.method, s.parameter);
  let chosen = new Int32Array(0);
  const scratch = new Scratch();
  const coverage = Array.from({ length: R }, () => ({ covered: [] as number[], ranked: [] as number[] }));
  const queries: PooledQuery[] = [];
  let size = 0;

  for (const q of order) {
    let rows = 0;
    for (const source of sources) rows += source.begin[q + 1] - source.begin[q];
    table.reset(rows);
    if (flags.length < rows) {
      flags = new Uint8Array(rows);
      weight = new Float64Array(rows);
      byRank = new Int32Array(rows);
      chosen = new Int32Array(rows);
    } else {
      flags.fill(0, 0, rows);
      weight.fill(0, 0, rows);
    }
    if (judged)
      for (let i = judged.begin[q]; i < judged.begin[q + 1]; i++) flags[table.add(R, judged.order[i], q)] |= JUDGED;
    let at = 0;
    for (let r = 0; r < R; r++) {
      const run = sources[r];
      const ranked = run.order.subarray(run.begin[q], run.begin[q + 1]);
      const score = run.value;
      sortRows(ranked, (a, b) => score[a] > score[b] || (score[a] === score[b] && idAfter(r, a, b)), scratch);
      rankStart[r] = at;
      const read = Math.min(ranked.length, s.depth);
      for (let i = 0; i < ranked.length; i++) {
        const u = table.add(r, ranked[i], q);
        byRank[at++] = u;
        if (i >= read) continue;
        flags[u] |= CANDIDATE;
        if (s.method === "depth") continue;
        const w = weights.at(i);
        if (s.combine === "sum") weight[u] += w;
        else if (w > weight[u]) weight[u] = w;
      }
    }
    rankStart[R] = at;

    let n = 0;
    for (let u = 0; u < table.size; u++) if (flags[u] === CANDIDATE) chosen[n++] = u;
    const kept = s.method === "depth" ? chosen.subarray(0, n) : topWeights(chosen, n, s.budget, weight, table, scratch);
    for (let k = 0; k < kept.length; k++) flags[kept[k]] |= POOLED;
    size += kept.length;
    if (s.method === "depth") queries.push({ qid: qids[q], docids: inIdOrder(kept, table, scratch) });
    else queries.push({ qid: qids[q], docids: table.strings(kept), weights: Array.from(kept, (u) => weight[u]) });

    for (let r = 0; r < R; r++) {
      const ranked = Math.min(rankStart[r + 1] - rankStart[r], s.coverageDepth);
      let covered = 0;
      for (let i = 0; i < ranked; i++) if (flags[byRank[rankStart[r] + i]] & (POOLED | JUDGED)) covered++;
      coverage[r].covered.push(covered);
      coverage[r].ranked.push(ranked);
    }
  }

  return {
    method: s.method,
    parameter: s.parameter,
    depth: s.depth === Infinity ? null : s.depth,
    budget: s.method === "depth" ? null : s.budget,
    combine: s.method === "depth" ? null : s.combine,
    coverageDepth: s.coverageDepth,
    queries,
    size,
    coverage: coverage.map((c, run) => {
      let covered = 0;
      let ranked = 0;
      for (let k = 0; k < c.covered.length; k++) {
        covered += c.covered[k];
        ranked += c.ranked[k];
      }
      return { run, covered, ranked, share: ranked === 0 ? null : covered / ranked, perQuery: c };
    }),
  };
}

/** The inputs read, grouped by query, and a table of one query's documents over them. */
interface Read {
  /** The runs, then the judgments made already (if given). */
  readonly sources: readonly { readonly value: Float64Array; readonly begin: Int32Array; readonly order: Int32Array }[];
  readonly judged: { readonly begin: Int32Array; readonly order: Int32Array } | null;
  /** The runs' queries' ids, by number. */
  readonly qids: string[];
  readonly table: DocTable;
  /** Whether row a's id of source s is after row b's in bytes (the rank's tie order). */
  readonly idAfter: (s: number, a: number, b: number) => boolean;
}

/**
 * Columns of string ids, as a run parsed or made in memory usually is, read as they are; null where
 * any input is otherwise (readStrings says which): readByteSources reads those, and says bad input.
 */
function readStringSources(runs: readonly Run[], judged: Qrels | undefined): Read | null {
  const names = new Map<string, number>();
  const sources: StringSource[] = [];
  for (let r = 0; r < runs.length; r++) {
    const source = readStrings(runs[r], `runs[${r}]`, "score", names);
    if (!source) return null;
    sources.push(source);
  }
  const qids = [...names.keys()];
  const judgedSource = judged === undefined ? null : readStrings(judged, "judged", "rel", names);
  if (judgedSource) sources.push(judgedSource);
  else if (judged !== undefined) return null;
  for (const source of sources) groupSpans(source, names.size);
  const docids = sources.map((source) => source.docid);
  return {
    sources,
    judged: judgedSource,
    qids,
    table: new QueryStrings(sources),
    // Ids not strings yet (QueryStrings.add sends those back to bytes) compare as anything: no throw.
    idAfter: (s, a, b) => {
      const x = docids[s][a];
      const y = docids[s][b];
      return typeof x === "string" && typeof y === "string" && x > y;
    },
  };
}

/** Any input as the library reads a run or judgments (join-memory.ts), ids as UTF-8 bytes. */
function readByteSources(runs: readonly Run[], judged: Qrels | undefined): Read {
  const names = new Interner(1024);
  const sources: Source[] = runs.map((run, r) => readSource(run, `runs[${r}]`, "score", names));
  const runQueries = names.size;
  const judgedSource = judged === undefined ? null : readSource(judged, "judged", "rel", names);
  return byteRead(sources, judgedSource, runQueries, names);
}

/**
 * pool() of files' rows as their parsers give them (src/judgments/on-files.ts): ids read as the parser's
 * bytes, never a string each (10M of them were most of the command line's depth:100 pool of 10 runs x 1M
 * rows). Null where pool() on the files' columns may read them otherwise (a value not finite, an id not
 * UTF-8): pool() then reads, or says what is wrong, as it always has.
 */
export function poolOfParsed(
  runs: readonly ParsedRows[],
  judged: ParsedRows | undefined,
  options: PoolOptions,
): Pool | null {
  const s = settings(options);
  if (runs.length === 0) throw badInput("pool: runs is empty: give at least one run");
  const names = new Interner(1024);
  const sources: Source[] = [];
  for (let r = 0; r < runs.length; r++) {
    const source = parsedSource(runs[r], `runs[${r}]`, names);
    if (!source) return null;
    sources.push(source);
  }
  const runQueries = names.size;
  const judgedSource = judged === undefined ? null : parsedSource(judged, "judged", names);
  if (judged !== undefined && !judgedSource) return null;
  return pooled(byteRead(sources, judgedSource, runQueries, names), s);
}

/** Sources of ids as bytes (the runs, then the judgments made if any), queries by `names` (the runs' first). */
function byteRead(sources: Source[], judgedSource: Source | null, runQueries: number, names: Interner): Read {
  if (judgedSource) sources.push(judgedSource);
  for (const source of sources) groupSource(source, names.size);
  const ids = sources.map((source) => source.ids);
  return {
    sources,
    judged: judgedSource,
    qids: names.stringsOf(Array.from({ length: runQueries }, (_, q) => q)),
    table: new QueryDocs(sources),
    idAfter: (s, a, b) => compareIds(ids[s], a, b) > 0,
  };
}

/** The ids of documents `us` in byte order (strcmp), as a depth pool gives them; `us` is sorted so. */
function inIdOrder(us: Int32Array, table: DocTable, scratch: Scratch): string[] {
  if (table instanceof QueryDocs) {
    const keys = table.idKeys(us);
    sortRows(us, (u, v) => keys[u] < keys[v] || (keys[u] === keys[v] && table.compare(u, v) < 0), scratch);
    return table.strings(us);
  }
  // Sorted as strings: a comparator call per pair was a third of a depth pool's time.
  const docids = table.strings(us);
  return table.ascii ? docids.sort() : sortQids(docids);
}

/**
 * chosen[0, n)'s `budget` documents of highest weight, ties by id ascending, in that order. The edge's weight
 * is found by a sort of the weights alone (no comparator calls); only the kept ones are sorted by pairs.
 */
function topWeights(
  chosen: Int32Array,
  n: number,
  budget: number,
  weight: Float64Array,
  table: DocTable,
  scratch: Scratch,
): Int32Array {
  let kept = chosen.subarray(0, n);
  if (n > budget) {
    const w = new Float64Array(n);
    for (let k = 0; k < n; k++) w[k] = weight[chosen[k]];
    w.sort();
    const edge = w[n - budget];
    const above: number[] = [];
    const at: number[] = [];
    for (let k = 0; k < n; k++) {
      const u = chosen[k];
      if (weight[u] > edge) above.push(u);
      else if (weight[u] === edge) at.push(u);
    }
    at.sort((u, v) => table.compare(u, v));
    kept = Int32Array.from([...above, ...at.slice(0, budget - above.length)]);
  }
  sortRows(kept, (u, v) => weight[u] > weight[v] || (weight[u] === weight[v] && table.compare(u, v) < 0), scratch);
  return kept;
}

const CANDIDATE = 1;
const JUDGED = 2;
const POOLED = 4;

/** A query's rows of a run in evaluation's order: score descending, ties by id descending in bytes. */
export function inTrecOrder(run: Source, rows: Int32Array, scratch: Scratch): void {
  const score = run.value;
  const ids = run.ids;
  sortRows(rows, (a, b) => score[a] > score[b] || (score[a] === score[b] && compareIds(ids, a, b) > 0), scratch);
}

/** A buffer that grows. */
export class Scratch {
  buffer: Int32Array = new Int32Array(256);
  of(n: number): Int32Array {
    if (this.buffer.length < n) this.buffer = new Int32Array(2 * n);
    return this.buffer;
  }
}

/**
 * `rows` sorted, stable, by `before` (a strict order): insertion sort of blocks of 16 (a run file's ranked
 * rows, ties out of order, are one pass), then merges. Typed arrays' sort calls a comparator from a built-in,
 * which took most of a pool's time on 10M rows.
 */
function sortRows(rows: Int32Array, before: (a: number, b: number) => boolean, scratch: Scratch): void {
  const n = rows.length;
  for (let lo = 0; lo < n; lo += 16) {
    const hi = Math.min(lo + 16, n);
    for (let i = lo + 1; i < hi; i++) {
      const x = rows[i];
      let j = i;
      for (; j > lo && before(x, rows[j - 1]); j--) rows[j] = rows[j - 1];
      rows[j] = x;
    }
  }
  if (n <= 16) return;
  let from = rows;
  let to = scratch.of(n).subarray(0, n);
  for (let width = 16; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      // Blocks in order already (a ranked run): copied whole.
      if (mid < hi && !before(from[mid], from[mid - 1])) {
        to.set(from.subarray(lo, hi), lo);
        continue;
      }
      while (i < mid && j < hi) to[k++] = before(from[j], from[i]) ? from[j++] : from[i++];
      while (i < mid) to[k++] = from[i++];
      while (j < hi) to[k++] = from[j++];
    }
    [from, to] = [to, from];
  }
  if (from !== rows) rows.set(from);
}

/** Weight of rank i + 1, made once per rank: RBP's (1-P)·P^i or RRF's 1/(K+i+1). */
class RankWeights {
  private table = new Float64Array(0);

  constructor(
    private readonly method: PoolMethod,
    private readonly parameter: number,
  ) {}

  at(i: number): number {
    if (i >= this.table.length) {
      const old = this.table;
      this.table = new Float64Array(Math.max(2 * old.length, i + 1, 128));
      this.table.set(old);
      const p = this.parameter;
      for (let k = old.length; k < this.table.length; k++)
        this.table[k] = this.method === "rbp" ? (1 - p) * p ** k : 1 / (p + k + 1);
    }
    return this.table[i];
  }
}

export interface FormatPoolOptions {
  /** `"pairs"`: `qid docid` lines; `"qrels"`: TREC qrels lines `qid 0 docid LABEL`. @default "pairs" */
  readonly shape?: "pairs" | "qrels";
  /**
   * The qrels shape's label for documents not judged yet. -1: trec_eval's -J and rankeval's `judgedOnly`
   * read a negative label as not judged. @default -1
   */
  readonly label?: number;
}

const FORMAT_OPTIONS: Readonly<Record<keyof FormatPoolOptions, OptionType>> = {
  shape: oneOf(["pairs", "qrels"]),
  label: { test: (v) => typeof v === "number" && Number.isFinite(v), is: "a finite number" },
};

/** A pool as text, a line a document, in the pool's order (queries by id, then as `Pool.queries`). */
export function formatPool(p: Pool, options: FormatPoolOptions = {}): string {
  const o = checkOptions(options, FORMAT_OPTIONS, "formatPool");
  if (p === null || typeof p !== "object" || !Array.isArray(p.queries))
    throw usageError(`formatPool: give a pool from pool(), not ${shown(p)}`);
  const qrels = o.shape === "qrels";
  const label = String(o.label ?? -1);
  // A query's lines made by one join, not a string a line: 2.8M lines' strings were a third of the
  // command line's depth:100 pool of 10 runs x 1M rows, most of it collecting them.
  const out: string[] = [];
  for (const { qid, docids } of p.queries) {
    if (docids.length === 0) continue;
    const before = qrels ? `${qid} 0 ` : `${qid} `;
    const after = qrels ? ` ${label}\n` : "\n";
    out.push(before + docids.join(after + before) + after);
  }
  return out.join("");
}
