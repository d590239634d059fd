// An evaluator said as data, so a worker can make the same one (src/pipeline/partition.ts).
import type { Measure } from "../measures/measure.js";
import type { ExplicitOptions } from "../measures/options.js";
import type { EvaluatorFor } from "../pipeline/partition.js";
import { withCurve } from "./curve.js";
import { evaluateBlock } from "./evaluate-block.js";
import { measuresPlan, options, plan, type Conventions, type Plan } from "./plan.js";

export { measuresPlan };

export type EvaluationSpec =
  /** The CLI's -m names (none: `fallback`); `curve`: the page's (src/app/curve.ts). */
  | {
      names: readonly string[];
      fallback: readonly string[] | null;
      conventions: Conventions;
      tieRange: boolean;
      curve?: boolean;
    }
  /** evaluateFiles'. */
  | { measures: readonly Measure[]; options: ExplicitOptions; tieRange: boolean };

/** Every key of Conventions: all a spec carries of the CLI's arguments. */
const CONVENTION_KEYS = {
  gain: true,
  threshold: true,
  trecThreshold: true,
  depth: true,
  judgedOnly: true,
  numDocs: true,
  noRelevant: true,
  beyondList: true,
  ties: true,
  preset: true,
  relFormat: true,
} satisfies Record<keyof Conventions, true>;

export function conventionsOf(args: Conventions) {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(CONVENTION_KEYS) as (keyof Conventions)[])
    if (args[key] !== undefined) out[key] = args[key];
  return out as Conventions;
}

function specPlan(spec: EvaluationSpec) {
  if ("names" in spec) {
    const p = plan(spec.names, spec.fallback, spec.conventions);
    const o = options(spec.conventions, p.kind === "trec");
    return { plan: (spec.curve ? withCurve(p, spec.conventions, o)?.plan : undefined) ?? p, options: o };
  }
  return { plan: measuresPlan(spec.measures), options: spec.options };
}

/** Summaries are left to mergeBlocks; `name`: a file's name in warnings. */
export function evaluatorFor(p: Plan, opts: ExplicitOptions, tieRange: boolean, name = (f: string) => f): EvaluatorFor {
  return (file, warn) => (joined) =>
    evaluateBlock(p, joined.batch, joined.qids, opts, name(file), warn, joined.placeholders, {
      tieRange,
      summaries: false,
    });
}

export function specEvaluator(spec: EvaluationSpec, name?: (file: string) => string) {
  const { plan: p, options: opts } = specPlan(spec);
  return evaluatorFor(p, opts, spec.tieRange, name);
}
