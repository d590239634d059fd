// A run's precision-recall curve: trec_eval's interpolated precision at the 11 recall levels
// (iprec_at_recall_0.00 ... _1.00), each the mean over the queries as `-m iprec_at_recall` prints it
// under the same options. --report and the page compute it beside whatever -m asked, in the same pass,
// and take it out of the results again, so that every table, text and download stays as without it.
// No Node built-ins here.
import { measureOptions } from "../measures/measure.js";
import { resultConventions, type ExplicitOptions } from "../measures/options.js";
import { parseMeasures } from "../names/resolve.js";
import { trecLines, type TrecLine } from "../trec/measures.js";
import type { Evaluated } from "../pipeline/evaluate.js";
import { lineKey, plan, trecOptions, type Conventions, type Plan } from "./plan.js";

/** One point of a curve: the mean interpolated precision at a recall level (NaN where no query counts). */
export interface CurvePoint {
  readonly recall: number;
  readonly precision: number;
}

/** A plan that computes the curve too. */
export interface CurvePlan {
  /** What to evaluate: the plan's measures and lines, and the curve's. */
  readonly plan: Plan;
  /** The curve's lines, in recall order: each one's values are under lineKey(line). */
  readonly lines: readonly TrecLine[];
  /** The keys the plan alone does not compute: takeCurve takes them out of the results. */
  readonly added: ReadonlySet<string>;
}

/**
 * `p` computing the curve as well, under the same options (`conventions` as given to plan(), `explicit`
 * as options() makes them); its rows and trec lines, so what is printed, unchanged. Null where no curve
 * is computed: judgments other than qrels (-R), subtopic judgments, and options under which adding it
 * would change the plan's own results or fail (ties "average", which iprec_at_recall has no closed form
 * for; noRelevant "skip" at a threshold none of the plan's measures skips at, which would skip queries
 * the plan counts).
 */
export function withCurve(p: Plan, conventions: Conventions, explicit: ExplicitOptions): CurvePlan | null {
  if ((conventions.relFormat ?? "qrels") !== "qrels" || p.measures.some((m) => m.family.diversity)) return null;
  const c = plan(["iprec_at_recall"], null, conventions);
  // The measures evaluateBlock computes for the plan alone (num_ret where it has none).
  const base = p.measures.length ? p.measures : parseMeasures("num_ret");
  if (c.exact.length) {
    // trec_eval's own algorithm ranks by document id or as given (trecExtras refuses other orders).
    const ties = trecOptions(explicit).ties;
    if (ties !== "docid" && ties !== "input") return null;
  }
  for (const m of c.measures) {
    const o = measureOptions(m, explicit);
    if (o.ties === "average") return null;
    const skipsAlike = (b: (typeof base)[number]) => {
      const x = measureOptions(b, explicit);
      return x.noRelevant === "skip" && x.relevanceThreshold === o.relevanceThreshold;
    };
    if (o.noRelevant === "skip" && !base.some(skipsAlike)) return null;
  }
  const had = new Set<string>([
    ...base.map((m) => m.name),
    ...trecLines(p.exact).map((l) => lineKey(l)!),
    ...trecLines(p.trec)
      .filter((l) => l.meanOf)
      .map((l) => l.name),
  ]);
  const lines = trecLines(c.trec);
  const added = new Set(lines.map((l) => lineKey(l)!).filter((k) => !had.has(k)));
  const names = new Set(base.map((m) => m.name));
  return {
    plan: {
      ...p,
      measures: [...base, ...c.measures.filter((m) => !names.has(m.name))],
      exact: [...p.exact, ...c.exact.filter((m) => m.lines.some((l) => added.has(lineKey(l)!)))],
    },
    lines,
    added,
  };
}

/**
 * A run's curve out of what `c.plan` evaluated (its blocks merged), and the evaluation as the plan
 * alone gives it: the curve's keys taken out, the conventions line made again without them.
 */
export function takeCurve<E extends Evaluated>(
  c: CurvePlan | null,
  e: E,
): { evaluated: E; curve: readonly CurvePoint[] | null } {
  if (!c) return { evaluated: e, curve: null };
  const r = e.result;
  const curve = c.lines.map((l) => ({ recall: l.cutoff!, precision: r.mean[lineKey(l)!] }));
  if (!c.added.size) return { evaluated: e, curve };
  const kept = <T>(o: Readonly<Record<string, T>>) =>
    Object.fromEntries(Object.entries(o).filter(([k]) => !c.added.has(k)));
  // Every record of the result keyed by measure (values, mean, counted, measureConventions, tieRange, and
  // any such record to come) loses the curve's keys; its other records (options, queries) have none.
  const keyed = (v: unknown) => isRecord(v) && Object.keys(v).some((k) => c.added.has(k));
  const records = Object.entries(r).map(([field, v]) => [field, keyed(v) ? kept(v as Record<string, unknown>) : v]);
  const measureConventions = kept(r.measureConventions);
  const result: typeof r = {
    ...(Object.fromEntries(records) as typeof r),
    measures: r.measures.filter((k) => !c.added.has(k)),
    measureConventions,
    conventions: resultConventions(measureConventions, r.options),
  };
  return {
    evaluated: { ...e, result, ...(e.aggregates ? { aggregates: kept(e.aggregates) } : {}) },
    curve,
  };
}

/** A plain object (not an array or typed array): a record the result may key by measure. */
const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);
