// What evaluates a run's joined blocks, said as data, so that a worker thread or a Web Worker can make
// the same evaluator as the thread that asked (src/pipeline/partition.ts): the command line's -m names
// and options, or the library's measures. One place for both, whoever runs it.
import type { Measure } from "../measures/measure.js";
import type { ExplicitOptions } from "../measures/options.js";
import { parseMeasures } from "../names/resolve.js";
import type { EvaluatorFor } from "../pipeline/partition.js";
import { withCurve } from "./curve.js";
import { evaluateBlock } from "./evaluate-block.js";
import { options, plan, type Conventions, type Plan } from "./plan.js";

export type EvaluationSpec =
  /** The command line's: its -m names (none: `fallback`) under its options. */
  /** `curve`: the precision-recall curve's measures too (src/app/curve.ts: the page's). */
  | {
      names: readonly string[];
      fallback: readonly string[] | null;
      conventions: Conventions;
      tieRange: boolean;
      curve?: boolean;
    }
  /** The library's (evaluateFiles): measures parsed, under options checked. */
  | { measures: readonly Measure[]; options: ExplicitOptions; tieRange: boolean };

/** Every key of Conventions, once: a spec carries these of the command line's arguments, nothing else. */
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

/** The conventions of the command line's arguments (which hold much else), as a spec carries them. */
export function conventionsOf(args: Conventions): Conventions {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(CONVENTION_KEYS) as (keyof Conventions)[])
    if (args[key] !== undefined) out[key] = args[key];
  return out as Conventions;
}

/** The plan and options a spec gives (`warnings`: what the names were read as, where that may surprise). */
function specPlan(spec: EvaluationSpec): { plan: Plan; options: ExplicitOptions } {
  if ("names" in spec) {
    const p = plan(spec.names, spec.fallback, spec.conventions);
    const o = options(spec.conventions, p.kind === "trec");
    return { plan: (spec.curve ? withCurve(p, spec.conventions, o)?.plan : undefined) ?? p, options: o };
  }
  return { plan: measuresPlan(spec.measures), options: spec.options };
}

/** The plan of the library's measures: each computed by the kernel, a row each. */
export function measuresPlan(measures: Parameters<typeof parseMeasures>[0], warnings: string[] = []): Plan {
  const ms = parseMeasures(measures, warnings);
  return {
    kind: "measures",
    trec: [],
    measures: ms,
    rows: ms.map((m) => ({ name: m.name, measure: m.name })),
    exact: [],
    epi: { relevanceLevel: 1, numDocsInColl: 0 },
    warnings,
  };
}

/**
 * Evaluates a run's joined blocks as the command line and the library do, its summaries left to the
 * blocks' merge (mergeBlocks); `name` gives a file's name in warnings.
 */
export function evaluatorFor(
  p: Plan,
  opts: ExplicitOptions,
  tieRange: boolean,
  name: (file: string) => string = (f) => f,
): EvaluatorFor {
  return (file, warn) => (joined) =>
    evaluateBlock(p, joined.batch, joined.qids, opts, name(file), warn, joined.placeholders, {
      tieRange,
      summaries: false,
    });
}

/** evaluatorFor the spec's plan. */
export function specEvaluator(spec: EvaluationSpec, name?: (file: string) => string): EvaluatorFor {
  const { plan: p, options: opts } = specPlan(spec);
  return evaluatorFor(p, opts, spec.tieRange, name);
}
