import { summaryOf } from "./aggregate.js";
import { groupRows, type Qid, type Rows } from "./group.js";
import { joinRun, type Qrels, type Run } from "./join.js";
import { withTies, type Batch } from "./kernel/batch.js";
import { runKernel } from "./kernel/kernel.js";
import { makeMeasure, measureOptions, type Measure } from "./measures/measure.js";
import type { MeasureSpec } from "./measures/names.js";
import { findFamily } from "./measures/registry.js";
import { parseMeasures } from "./measures/resolve.js";
import { DEFAULT_OPTIONS, describeOptions, explicitOptions, type ExplicitOptions, type Options, type ResolvedOptions } from "./options.js";
import { RankevalError } from "./errors.js";

/** The measures to compute: names (any tool's spelling; see `MeasureName`) or parsed measures. */
export type Measures = MeasureSpec | readonly (MeasureSpec | Measure)[];

export interface Result<Q = Qid> {
  /**
   * The measures' keys, in the order asked: each name in its tool's canonical spelling (`ndcg@10`,
   * trec_eval's `ndcg_cut_10`, ir_measures' `nDCG@10`, ranx's `hits@10`), so that one family asked
   * under two tools' names gives two keys and two numbers.
   */
  readonly measures: string[];
  /** The evaluated queries; `values[name][i]` belongs to `qids[i]`. */
  readonly qids: Q[];
  /** Per-query values, one Float64Array per measure. NaN where a convention says "no value". */
  readonly values: Record<string, Float64Array>;
  /**
   * Each measure's summary over the queries that count (values that are not NaN), in query order:
   * the mean; for a tool's name whose tool sums it instead (ir_measures' NumRet and NumRel,
   * trec_eval's num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret) the sum, and for trec_eval's
   * gm_map and gm_bpref its geometric mean.
   */
  readonly mean: Record<string, number>;
  /** How many queries each summary is over. */
  readonly counted: Record<string, number>;
  readonly queries: {
    /** Queries evaluated (the length of qids). */
    readonly evaluated: number;
    /** Queries left out of means, by reason. */
    readonly skipped: {
      /**
       * No relevant judged document, with `noRelevant: "skip"` (for some measure). They stay in qids,
       * with NaN values for the measures computed under "skip".
       */
      readonly noRelevant: number;
      /** evaluateRun: run queries without any judgment (ignored, as trec_eval does). */
      readonly notJudged: number;
      /** evaluateRun: judged queries absent from the run. */
      readonly notInRun: number;
    };
  };
  /** The options given, over the library's defaults (a tool's name may be computed with others: see `measureConventions`). */
  readonly options: ResolvedOptions;
  /** The options given, over the library's defaults, in one line. */
  readonly conventions: string;
  /**
   * The conventions each measure was computed with, by key: its tool ("rankeval" for the library's
   * own names), then `describeOptions` of its options: the library's defaults, under its tool's
   * conventions, under the options given, under its own parameters.
   */
  readonly measureConventions: Readonly<Record<string, string>>;
  /** What the measure names were read as where that may surprise (a decimal cutoff, ignored parameters). */
  readonly warnings: readonly string[];
}

/**
 * Evaluates rankings given as rows (query, score, label[, document id]): the LETOR case, where each
 * query's ideal ranking comes from its rows' labels. The result's qids have the type of the rows'.
 *
 * @example
 * evaluate({ qid: [1, 1, 1], score: [0.3, 0.9, 0.1], rel: [0, 2, 1] }, ["ndcg@10", "map"]).mean
 */
export function evaluate(rows: Rows<string>, measures: Measures, options?: Options): Result<string>;
export function evaluate(rows: Rows<number>, measures: Measures, options?: Options): Result<number>;
export function evaluate(rows: Rows, measures: Measures, options?: Options): Result<Qid>;
export function evaluate(rows: Rows, measures: Measures, options?: Options): Result<Qid> {
  const explicit = explicitOptions(options);
  const warnings: string[] = [];
  const ms = parseMeasures(measures, warnings);
  const { batch, qids } = groupRows(rows);
  return evaluateBatch(batch, qids, ms, explicit, 0, 0, warnings);
}

/**
 * Evaluates a run against judgments, each `{ qid: { docid: value } }` or columns. Ranked documents
 * without a judgment are non-relevant (and unjudged for bpref); judged documents that were never
 * ranked count in recall and in the ideal ranking. Ties in score: document id descending (trec_eval),
 * or the run's order with `ties: "input"` (for `{ qid: { docid: score } }`, Object.entries order).
 * Throws a RankevalError ("bad-input") when the run and the judgments share no query.
 */
export function evaluateRun(qrels: Qrels, run: Run, measures: Measures, options?: Options): Result<string> {
  const explicit = explicitOptions(options);
  const warnings: string[] = [];
  const ms = parseMeasures(measures, warnings);
  const { batch, qids, notJudged, notInRun } = joinRun(qrels, run);
  // Means over no query would be NaN: a run and judgments that share no query are a mistake (ids
  // written otherwise, "q1" against "1", or the wrong file), said as such.
  if (qids.length === 0) {
    throw new RankevalError("bad-input", `the run and the judgments have no query in common (the run has ${notJudged} ${notJudged === 1 ? "query" : "queries"}, the judgments ${notInRun})`);
  }
  return evaluateBatch(batch, qids, ms, explicit, notJudged, notInRun, warnings);
}

/**
 * The pipeline after grouping: the measures grouped by the options each is computed with (its tool's
 * conventions under the options given, under its own parameters), the kernel once per group, the
 * conventions that act across a group's measures (noRelevant "skip"), summaries.
 */
export function evaluateBatch<Q>(
  batch: Batch, qids: Q[], measures: readonly Measure[], explicit: ExplicitOptions, notJudged: number, notInRun: number,
  warnings: readonly string[] = [],
): Result<Q> {
  const groups = new Map<string, { options: ResolvedOptions; members: number[] }>();
  const described: string[] = [];
  measures.forEach((m, i) => {
    const o = measureOptions(m, explicit);
    const key = describeOptions(o);
    described.push(`${m.tool}: ${key}`);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { options: o, members: [] }));
    g.members.push(i);
  });
  const columns: Float64Array[] = new Array(measures.length);
  const skippedQuery = new Uint8Array(batch.numQueries);
  for (const { options, members } of groups.values()) {
    const ms = members.map((i) => measures[i]);
    // With noRelevant = "skip" a query without relevant documents leaves the group's means: the
    // kernel's num_rel (under the group's threshold) says which.
    const skip = options.noRelevant === "skip";
    const asked = skip ? [...ms, makeMeasure(findFamily("num_rel")!)] : ms;
    const cols = runKernel(withTies(batch, options.ties), asked, options);
    if (skip) {
      const r = cols[ms.length];
      for (let q = 0; q < batch.numQueries; q++) {
        if (r[q] > 0) continue;
        skippedQuery[q] = 1;
        for (let s = 0; s < ms.length; s++) cols[s][q] = NaN;
      }
    }
    members.forEach((i, s) => (columns[i] = cols[s]));
  }
  const values: Record<string, Float64Array> = {};
  const mean: Record<string, number> = {};
  const counted: Record<string, number> = {};
  const measureConventions: Record<string, string> = {};
  measures.forEach((m, s) => {
    values[m.name] = columns[s];
    ({ value: mean[m.name], count: counted[m.name] } = summaryOf(columns[s], m.aggregate));
    measureConventions[m.name] = described[s];
  });
  const options: ResolvedOptions = { ...DEFAULT_OPTIONS, ...explicit };
  return {
    measures: measures.map((m) => m.name),
    qids,
    values,
    mean,
    counted,
    queries: { evaluated: qids.length, skipped: { noRelevant: skippedQuery.reduce((n, x) => n + x, 0), notJudged, notInRun } },
    options,
    conventions: describeOptions(options),
    measureConventions,
    warnings: [...warnings],
  };
}
