// A run's precision-recall curve (`-m iprec_at_recall`'s means), computed beside -m in the same pass
// for --report and the page, then taken out of the results. Browser-safe.
import { measureOptions } from "../measures/measure.js";
import { resultConventions, type ExplicitOptions } from "../measures/options.js";
import { parseMeasures } from "../names/resolve.js";
import { trecLines, type TrecLine } from "../trec/measures.js";
import type { Evaluated } from "../pipeline/evaluate.js";
import { lineKey, plan, trecOptions, type Conventions, type Plan } from "./plan.js";

/** Mean interpolated precision at a recall level (NaN where no query counts). */
export interface CurvePoint {
  readonly recall: number;
  readonly precision: number;
}

export interface CurvePlan {
  readonly plan: Plan;
  /** In recall order. */
  readonly lines: readonly TrecLine[];
  /** Keys the plan alone lacks: takeCurve removes them. */
  readonly added: ReadonlySet<string>;
}

/**
 * `p` computing the curve too, its printed rows unchanged. Null for -R other than qrels, subtopic
 * judgments, and options under which the curve would fail or change the plan's results (ties "average":
 * no closed form; noRelevant "skip" where no plan measure skips alike).
 */
export function withCurve(p: Plan, conventions: Conventions, explicit: ExplicitOptions): CurvePlan | null {
  if ((conventions.relFormat ?? "qrels") !== "qrels" || p.measures.some((m) => m.family.diversity)) return null;
  const c = plan(["iprec_at_recall"], null, conventions);
  // As evaluateBlock.
  const base = p.measures.length ? p.measures : parseMeasures("num_ret");
  if (c.exact.length) {
    // trecExtras refuses other orders.
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

/** The curve out of what `c.plan` evaluated, and the evaluation as the plan alone gives it. */
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
  // Every record keyed by measure, now or to come, loses the curve's keys.
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

const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !ArrayBuffer.isView(v);
