import { meanOf } from "./aggregate.js";
import { groupRows, type Qid, type Rows } from "./group.js";
import { joinRun, type Qrels, type Run } from "./join.js";
import { withTies, type Batch } from "./kernel/batch.js";
import { runKernel } from "./kernel/kernel.js";
import { makeMeasure, parseMeasures, type Measure } from "./measures/measure.js";
import { findFamily } from "./measures/registry.js";
import { describeOptions, resolveOptions, type Options, type ResolvedOptions } from "./options.js";
import { RankevalError } from "./errors.js";

export interface Result<Q = Qid> {
  /** Canonical measure names, in the order asked (`"ndcg@10"`). */
  readonly measures: string[];
  /** The evaluated queries; `values[name][i]` belongs to `qids[i]`. */
  readonly qids: Q[];
  /** Per-query values, one Float64Array per measure. NaN where a convention says "no value". */
  readonly values: Record<string, Float64Array>;
  /** Mean over the queries that count (values that are not NaN), in query order. */
  readonly mean: Record<string, number>;
  /** How many queries each mean is over. */
  readonly counted: Record<string, number>;
  readonly queries: {
    /** Queries evaluated (the length of qids). */
    readonly evaluated: number;
    /** Queries left out of every mean, by reason. */
    readonly skipped: {
      /** No relevant judged document, with `noRelevant: "skip"`. They stay in qids with NaN values. */
      readonly noRelevant: number;
      /** evaluateRun: run queries without any judgment (ignored, as trec_eval does). */
      readonly notJudged: number;
      /** evaluateRun: judged queries absent from the run. */
      readonly notInRun: number;
    };
  };
  readonly options: ResolvedOptions;
  /** The conventions in one line, to print with every report. */
  readonly conventions: string;
}

/**
 * Evaluates rankings given as rows (query, score, label[, document id]): the LETOR case, where each
 * query's ideal ranking comes from its rows' labels.
 *
 * @example
 * evaluate({ qid: [1, 1, 1], score: [0.3, 0.9, 0.1], rel: [0, 2, 1] }, ["ndcg@10", "map"]).mean
 */
export function evaluate(rows: Rows, measures: string | readonly string[], options?: Options): Result {
  const opts = resolveOptions(options);
  const ms = parseMeasures(measures);
  const { batch, qids } = groupRows(rows);
  return evaluateBatch(batch, qids, ms, opts, 0, 0);
}

/**
 * Evaluates a run against judgments, each `{ qid: { docid: value } }` or columns. Ranked documents
 * without a judgment are non-relevant (and unjudged for bpref); judged documents that were never
 * ranked count in recall and in the ideal ranking. Ties in score: document id descending (trec_eval),
 * or the run's order with `ties: "input"` (for `{ qid: { docid: score } }`, Object.entries order).
 * Throws a RankevalError ("bad-input") when the run and the judgments share no query.
 */
export function evaluateRun(qrels: Qrels, run: Run, measures: string | readonly string[], options?: Options): Result<string> {
  const opts = resolveOptions(options);
  const ms = parseMeasures(measures);
  const { batch, qids, notJudged, notInRun } = joinRun(qrels, run);
  // Means over no query would be NaN: a run and judgments that share no query are a mistake (ids
  // written otherwise, "q1" against "1", or the wrong file), said as such.
  if (qids.length === 0) {
    throw new RankevalError("bad-input", `the run and the judgments have no query in common (the run has ${notJudged} ${notJudged === 1 ? "query" : "queries"}, the judgments ${notInRun})`);
  }
  return evaluateBatch(batch, qids, ms, opts, notJudged, notInRun);
}

/** The pipeline after grouping: kernel, conventions that act across measures, means. */
export function evaluateBatch<Q>(
  batch: Batch, qids: Q[], measures: readonly Measure[], options: ResolvedOptions, notJudged: number, notInRun: number,
): Result<Q> {
  // With noRelevant = "skip" a query without relevant documents leaves every mean: the kernel's
  // num_rel says which.
  const skip = options.noRelevant === "skip";
  const numRel = makeMeasure(findFamily("num_rel")!);
  const asked = skip && !measures.some((m) => m.name === numRel.name) ? [...measures, numRel] : measures;
  const columns = runKernel(withTies(batch, options.ties), asked, options);
  let skipped = 0;
  if (skip) {
    const r = columns[asked.findIndex((m) => m.name === numRel.name)];
    for (let q = 0; q < batch.numQueries; q++) {
      if (r[q] > 0) continue;
      skipped++;
      for (let s = 0; s < measures.length; s++) columns[s][q] = NaN;
    }
  }
  const values: Record<string, Float64Array> = {};
  const mean: Record<string, number> = {};
  const counted: Record<string, number> = {};
  measures.forEach((m, s) => {
    values[m.name] = columns[s];
    ({ mean: mean[m.name], count: counted[m.name] } = meanOf(columns[s]));
  });
  return {
    measures: measures.map((m) => m.name),
    qids,
    values,
    mean,
    counted,
    queries: { evaluated: qids.length, skipped: { noRelevant: skipped, notJudged, notInRun } },
    options,
    conventions: describeOptions(options),
  };
}
