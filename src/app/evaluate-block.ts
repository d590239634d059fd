// A block of rows through the kernel, then what trec_eval's lines add (its own algorithm, lines of several
// measures, relstring, -c's placeholders). Browser-safe.
import { withTies, type Batch } from "../kernel/batch.js";
import type { Aggregate, Measure } from "../measures/measure.js";
import { parseMeasures } from "../names/resolve.js";
import { describeOptions, resultConventions, type ExplicitOptions, type ResolvedOptions } from "../measures/options.js";
import { RankevalError } from "../errors/errors.js";
import { exactValues, gainTies, trecLines, trecMeasure } from "../trec/measures.js";
import { lineKey, trecOptions, type Plan } from "./plan.js";
import { relstrings } from "../trec/relstring.js";
import { summaryOf, tieRangeOf } from "../pipeline/aggregate.js";
import { evaluateBatch, type BatchExtras, type Evaluated, type Result } from "../pipeline/evaluate.js";
import { trecLabelled } from "../pipeline/trec-labels.js";

/** Adds the lines of `p.exact` and `meanOf`; `batch` labelled as trec_eval reads it (trecLabelled). */
export function trecExtras(p: Plan, result: Result<string>, batch: Batch, explicit: ExplicitOptions): Result<string> {
  const { values, mean, counted, put } = copied(result);
  const measureConventions = { ...result.measureConventions };
  if (p.exact.length) {
    const o = trecOptions(explicit);
    if (o.ties !== "docid" && o.ties !== "input") {
      throw new RankevalError(
        "bad-option",
        `ties "${o.ties}": ${p.exact.map((m) => m.name).join(", ")} ${p.exact.length === 1 ? "is" : "are"} computed by trec_eval's own algorithm here, which takes ties "docid" or "input"`,
      );
    }
    const exact = exactValues(p.exact, batch, o.ties, { ...p.epi, maxDocs: o.depth, judgedOnly: o.judgedOnly });
    const conventions = `trec_eval: ${describeOptions({ ...o, relevanceThreshold: p.epi.relevanceLevel })}`; // as planConventions
    trecLines(p.exact).forEach((l, i) => {
      put(lineKey(l)!, exact[i], aggregationOf(l));
      measureConventions[lineKey(l)!] = conventions;
    });
  }
  const tieRange = result.tieRange ? { ...result.tieRange } : undefined;
  const pointsMean = (cols: Float64Array[]) => {
    const v = new Float64Array(result.qids.length);
    for (let q = 0; q < v.length; q++) {
      let s = 0;
      for (let i = cols.length - 1; i >= 0; i--) s += cols[i][q];
      v[q] = s / cols.length;
    }
    return v;
  };
  for (const l of trecLines(p.trec)) {
    if (!l.meanOf) continue;
    if (tieRange) {
      const side = (w: "worst" | "best") => pointsMean(l.meanOf!.map((k) => result.tieRange![k.measure.name][w]));
      tieRange[l.name] = tieRangeOf(side("worst"), side("best"), "mean");
    }
    // m_11pt_avg.c sums the points last to first (pointsMean).
    put(l.name, pointsMean(l.meanOf.map((k) => result.values[k.measure.name])), "mean");
    measureConventions[l.name] = result.measureConventions[l.meanOf[0].measure.name];
  }
  const conventions = resultConventions(measureConventions, result.options);
  return { ...result, values, mean, counted, conventions, measureConventions, ...(tieRange ? { tieRange } : {}) };
}

function copied(r: Result<string>) {
  const values = { ...r.values };
  const mean = { ...r.mean };
  const counted = { ...r.counted };
  const put = (key: string, v: Float64Array, agg: Aggregate) => {
    values[key] = v;
    ({ value: mean[key], count: counted[key] } = summaryOf(v, agg));
  };
  return { values, mean, counted, put };
}

export function evaluateBlock(
  p: Plan,
  batch: Batch,
  qids: string[],
  explicit: ExplicitOptions,
  file: string,
  warn: (message: string) => void,
  placeholders: readonly number[] = [],
  extras: BatchExtras = {},
): Evaluated {
  // runid, num_q need no measure but the queries: num_ret gives them.
  const measures = p.measures.length ? p.measures : parseMeasures("num_ret");
  const result = evaluateBatch(batch, qids, measures, explicit, 0, 0, p.warnings, extras);
  const aggregates = aggregatesOf(p, measures);
  // (Exact lines are trec lines, but a curve's: src/app/curve.ts.)
  if (!p.trec.length && !p.exact.length) return { result, strings: {}, aggregates };
  const trecBatch = trecLabelled(batch);
  for (const w of gainTieWarnings(p, trecBatch, file)) warn(w);
  const evaluated = {
    result: trecExtras(p, result, trecBatch, explicit),
    strings: relstringValues(p, trecBatch, trecOptions(explicit)),
    aggregates,
  };
  return placeholders.length ? clearPlaceholders(p, evaluated, placeholders) : evaluated;
}

/** A plan's non-mean summaries by key, made once. */
const aggregatesMade = new WeakMap<Plan, Readonly<Record<string, Aggregate>>>();

function aggregatesOf(p: Plan, measures: readonly Measure[]) {
  let a = aggregatesMade.get(p);
  if (a) return a;
  const out: Record<string, Aggregate> = {};
  for (const m of measures) if (m.aggregate !== "mean") out[m.name] = m.aggregate;
  for (const l of trecLines(p.exact)) if (aggregationOf(l) !== "mean") out[lineKey(l)!] = aggregationOf(l);
  aggregatesMade.set(p, (a = Object.freeze(out)));
  return a;
}

/**
 * trec_eval.c's "clean up leftovers" after a -c placeholder query, by `cleared`: parameterised utility,
 * rbp_resid and relstring keep the placeholder's values.
 */
function clearPlaceholders(p: Plan, e: Evaluated, placeholders: readonly number[]): Evaluated {
  const { values, mean, counted, put } = copied(e.result);
  const strings = { ...e.strings };
  const tieRange = e.result.tieRange ? { ...e.result.tieRange } : undefined;
  const zeroed = (x: Float64Array) => {
    const y = Float64Array.from(x);
    for (const q of placeholders) y[q] = 0;
    return y;
  };
  for (const l of trecLines(p.trec)) {
    const cleared = trecMeasure(l.measure).cleared;
    if (!cleared || (cleared === "name" && l.name !== l.measure)) continue;
    if (l.relstring !== undefined) {
      if (!strings[l.name]) continue;
      const s = [...strings[l.name]];
      for (const q of placeholders) s[q] = "";
      strings[l.name] = s;
      continue;
    }
    const key = lineKey(l);
    if (key === null) continue;
    const agg = aggregationOf(l);
    put(key, zeroed(values[key]), agg);
    const t = tieRange?.[key];
    if (t) tieRange![key] = tieRangeOf(zeroed(t.worst), zeroed(t.best), agg);
  }
  return {
    result: { ...e.result, values, mean, counted, ...(tieRange ? { tieRange } : {}) },
    strings,
    aggregates: e.aggregates,
  };
}

function aggregationOf(l: { aggregation: string }) {
  return l.aggregation === "sum" || l.aggregation === "geomean" ? l.aggregation : "mean";
}

/** relstring's per-query strings by line name (`opts`: trecOptions). */
export function relstringValues(p: Plan, batch: Batch, opts: ResolvedOptions) {
  const out: Record<string, string[]> = {};
  const ranked = withTies(batch, opts.ties);
  for (const l of trecLines(p.trec))
    if (l.relstring !== undefined) out[l.name] = relstrings(ranked, l.relstring, opts.depth, opts.judgedOnly);
  return out;
}

/** Where comp_rel_gain's integer comparison of gains unsorts the ideal ranking (reproduced). */
function gainTieWarnings(p: Plan, batch: Batch, file: string) {
  const measures = p.exact.filter((m) => trecMeasure(m.name).gains && m.pairs?.length);
  if (!measures.length) return [];
  let maxLevel = 0;
  const judged = batch.judged ?? batch.labels;
  for (let i = 0; i < judged.length; i++) if (judged[i] > maxLevel) maxLevel = judged[i];
  const out: string[] = [];
  for (const m of measures) {
    const ties = gainTies(m.pairs!, Math.floor(maxLevel));
    if (!ties.length) continue;
    const which = ties.map(([a, b]) => `${a} and ${b}`).join(", ");
    out.push(
      `${file}: ${m.name}.${m.params}: gains ${which} differ by less than 1, which trec_eval's comp_rel_gain compares as equal: its ideal ranking then follows its sort rather than the gains, and so do these numbers`,
    );
  }
  return out;
}
