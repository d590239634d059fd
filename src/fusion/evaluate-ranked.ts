// ranx's evaluate() of runs in ranx's order (ranx preset, numpy's mean); judgments laid out once.
import { npMean } from "../stats/numeric.js";
import { badInput, notAnObject, shown } from "../errors/errors.js";
import type { Batch } from "../kernel/batch.js";
import type { Measure } from "../measures/measure.js";
import { explicitOptions, type ExplicitOptions, type Options } from "../measures/options.js";
import { parseMeasures } from "../names/resolve.js";
import { evaluateBatch } from "../pipeline/evaluate.js";
import { queryIds, type Ranked } from "./normalize.js";
import type { RankedRun } from "./ranked-run.js";
import type { Judgments } from "./run-shapes.js";

export class RankedEvaluator {
  /** In code point order (ranx's). */
  readonly qids: string[];
  private readonly labels: Map<string, number>[];
  private readonly judgedOffsets: Int32Array;
  private readonly judged: Float64Array;
  private readonly measures: Measure[];
  private readonly explicit: ExplicitOptions;

  constructor(qrels: Judgments, metric: string, options: Options = {}) {
    const j = judgedLabels(qrels);
    this.qids = j.qids;
    this.labels = j.labels;
    this.judgedOffsets = new Int32Array(this.qids.length + 1);
    this.labels.forEach((m, i) => (this.judgedOffsets[i + 1] = this.judgedOffsets[i] + m.size));
    this.judged = new Float64Array(this.judgedOffsets[this.qids.length]);
    let at = 0;
    for (const m of this.labels) for (const l of m.values()) this.judged[at++] = l;
    this.measures = parseMeasures(metric);
    if (this.measures.length !== 1) throw badInput(`metric must be one measure, not ${shown(metric)}`);
    this.explicit = explicitOptions({ preset: "ranx", ...options });
  }

  /** NaN where unjudged. */
  labelsOf(i: number, ids: readonly string[]): Float64Array {
    const m = this.labels[i];
    return Float64Array.from(ids, (d) => m.get(d) ?? NaN);
  }

  /** Query i: rows [offsets[i], offsets[i+1]) in ranked order (ties as given). */
  evaluateColumns(
    offsets: Int32Array,
    scores: Float64Array,
    labels: Float64Array,
  ): { values: Float64Array; mean: number } {
    const batch: Batch = {
      numQueries: this.qids.length,
      offsets,
      scores,
      labels,
      judgedOffsets: this.judgedOffsets,
      judged: this.judged,
      docids: null,
      pool: null,
    };
    const r = evaluateBatch(batch, this.qids, this.measures, this.explicit, 0, 0, [], { summaries: false });
    const values = r.values[r.measures[0]];
    return { values, mean: npMean(values) };
  }

  /** lists(i): query i's documents in ranked order. */
  evaluateLists(lists: (i: number) => Ranked): { values: Float64Array; mean: number } {
    const all = this.qids.map((_, i) => lists(i));
    const offsets = new Int32Array(all.length + 1);
    all.forEach((l, i) => (offsets[i + 1] = offsets[i] + l.docs.length));
    const scores = new Float64Array(offsets[all.length]);
    const labels = new Float64Array(offsets[all.length]);
    all.forEach((l, i) => {
      scores.set(l.scores, offsets[i]);
      labels.set(this.labelsOf(i, l.docs), offsets[i]);
    });
    return this.evaluateColumns(offsets, scores, labels);
  }
}

/** `qrels` checked (`where` prefixes the messages): query ids in code point order, each one's labels. */
export function judgedLabels(qrels: Judgments, where = "") {
  if (notAnObject(qrels)) throw badInput(`${where}qrels must be { qid: { docid: label } }, not ${shown(qrels)}`);
  const qids = queryIds(qrels);
  const labels = qids.map((q) => {
    const docs = qrels[q];
    if (notAnObject(docs))
      throw badInput(`${where}qrels[${JSON.stringify(q)}] must be { docid: label }, not ${shown(docs)}`);
    const m = new Map<string, number>();
    for (const [d, l] of Object.entries(docs)) {
      if (typeof l !== "number" || !Number.isFinite(l))
        throw badInput(
          `${where}qrels[${JSON.stringify(q)}][${JSON.stringify(d)}] must be a finite number, not ${shown(l)}`,
        );
      m.set(d, l);
    }
    return m;
  });
  return { qids, labels };
}

/** ranx's evaluate(qrels, run, metric); the run's queries are the judged ones. */
export function evaluateRanked(
  qrels: Judgments,
  run: RankedRun,
  metric: string,
  options: Options = {},
): { values: Float64Array; mean: number } {
  const e = new RankedEvaluator(qrels, metric, options);
  return e.evaluateLists((i) => run.lists.get(e.qids[i])!);
}
