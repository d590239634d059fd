// One block of rows (a run, a block of one, a LETOR file) through the kernel as the command line and the
// page evaluate it, then what trec_eval's lines add (its own algorithm where the kernel differs, lines
// made of several measures, relstring, -c's placeholders). No Node built-ins here.
import { withTies, type Batch } from "../kernel/batch.js";
import type { Aggregate, Measure } from "../measures/measure.js";
import { parseMeasures } from "../names/resolve.js";
import { describeOptions, resultConventions, type ExplicitOptions, type ResolvedOptions } from "../measures/options.js";
import { RankevalError } from "../errors/errors.js";
import { exactValues, gainTies, trecLines, trecMeasure } from "../trec/measures.js";
import { lineKey, trecOptions, type Plan } from "./plan.js";
import { relstrings } from "../trec/relstring.js";
import { summaryOf, tieRangeOf } from "../pipeline/aggregate.js";
import { evaluateBatch, type BatchExtras, type Evaluated, type Result, type TieRange } from "../pipeline/evaluate.js";
import { trecLabelled } from "../pipeline/trec-labels.js";

/**
 * The result with the trec lines of trec_eval's own algorithm (`p.exact`) and of several measures
 * (`meanOf`); `batch` with its labels as trec_eval reads them (trecLabelled).
 */
export function trecExtras(p: Plan, result: Result<string>, batch: Batch, explicit: ExplicitOptions): Result<string> {
  const { values, mean, counted, put } = copied(result);
  const measureConventions = { ...result.measureConventions };
  if (p.exact.length) {
    const o = trecOptions(explicit);
    // trec_eval's algorithm ranks one order: by document id or as given.
    if (o.ties !== "docid" && o.ties !== "input") {
      throw new RankevalError(
        "bad-option",
        `ties "${o.ties}": ${p.exact.map((m) => m.name).join(", ")} ${p.exact.length === 1 ? "is" : "are"} computed by trec_eval's own algorithm here, which takes ties "docid" or "input"`,
      );
    }
    const exact = exactValues(p.exact, batch, o.ties, { ...p.epi, maxDocs: o.depth, judgedOnly: o.judgedOnly });
    const conventions = `trec_eval: ${describeOptions({ ...o, relevanceThreshold: p.epi.relevanceLevel })}`; // as planConventions says
    trecLines(p.exact).forEach((l, i) => {
      put(lineKey(l)!, exact[i], aggregationOf(l));
      measureConventions[lineKey(l)!] = conventions;
    });
  }
  const tieRange: Record<string, TieRange> | undefined = result.tieRange ? { ...result.tieRange } : undefined;
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
    // m_11pt_avg.c adds the points from the last to the first, then divides by their number (pointsMean).
    put(l.name, pointsMean(l.meanOf.map((k) => result.values[k.measure.name])), "mean");
    measureConventions[l.name] = result.measureConventions[l.meanOf[0].measure.name];
  }
  // trec_eval's own algorithm's lines bring their conventions: the one line says them too.
  const conventions = resultConventions(measureConventions, result.options);
  return { ...result, values, mean, counted, conventions, measureConventions, ...(tieRange ? { tieRange } : {}) };
}

/** A result's values, means and counts, copied, and `put` to set a line's. */
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

/** One batch's values as the command line and the page compute them; `warn` gets what to tell the user. */
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
  // trec_eval lines that need no measure (runid, num_q) still need the queries: num_ret gives them.
  const measures = p.measures.length ? p.measures : parseMeasures("num_ret");
  const result = evaluateBatch(batch, qids, measures, explicit, 0, 0, p.warnings, extras);
  const aggregates = aggregatesOf(p, measures);
  // (A plan's exact lines are trec lines, but for those a curve adds: src/app/curve.ts.)
  if (!p.trec.length && !p.exact.length) return { result, strings: {}, aggregates };
  // What trec_eval's lines add reads labels as trec_eval does (atol), as its names' kernel measures did.
  const trecBatch = trecLabelled(batch);
  for (const w of gainTieWarnings(p, trecBatch, file)) warn(w);
  const evaluated = {
    result: trecExtras(p, result, trecBatch, explicit),
    strings: relstringValues(p, trecBatch, trecOptions(explicit)),
    aggregates,
  };
  return placeholders.length ? clearPlaceholders(p, evaluated, placeholders) : evaluated;
}

/** The summaries that are not means, by key, of a plan's measures and trec lines (made once per plan). */
const aggregatesMade = new WeakMap<Plan, Readonly<Record<string, Aggregate>>>();

function aggregatesOf(p: Plan, measures: readonly Measure[]): Readonly<Record<string, Aggregate>> {
  let a = aggregatesMade.get(p);
  if (a) return a;
  const out: Record<string, Aggregate> = {};
  for (const m of measures) if (m.aggregate !== "mean") out[m.name] = m.aggregate;
  // trec_eval's own algorithm's lines, as trecExtras summarises them.
  for (const l of trecLines(p.exact)) if (aggregationOf(l) !== "mean") out[lineKey(l)!] = aggregationOf(l);
  aggregatesMade.set(p, (a = Object.freeze(out)));
  return a;
}

/**
 * trec_eval.c, after evaluating a judged query absent from the run on its placeholder ranking (-c):
 * "clean up leftovers", by the value's name (the rows' `cleared`): the lines of parameterised
 * utility, rbp_resid and relstring keep the placeholder's values.
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

function aggregationOf(l: { aggregation: string }): Aggregate {
  return l.aggregation === "sum" || l.aggregation === "geomean" ? l.aggregation : "mean";
}

/** relstring's per-query strings, by printed line name (`opts`: trec_eval's conventions under the options given). */
export function relstringValues(p: Plan, batch: Batch, opts: ResolvedOptions): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  // The ranking the kernel evaluated: the same tie order.
  const ranked = withTies(batch, opts.ties);
  for (const l of trecLines(p.trec))
    if (l.relstring !== undefined) out[l.name] = relstrings(ranked, l.relstring, opts.depth, opts.judgedOnly);
  return out;
}

/** Says so where comp_rel_gain's comparison of gains as integers unsorts the ideal ranking (reproduced). */
function gainTieWarnings(p: Plan, batch: Batch, file: string): string[] {
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
