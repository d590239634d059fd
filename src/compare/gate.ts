// A regression gate for CI (`rankeval --compare ... --gate "ndcg@10>=-0.01"`): a run fails a gate
// when its mean on the gate's measure is below the baseline's by more than the budget and the drop is
// significant (the comparison's first test, corrected, at its alpha). A drop that the queries cannot
// tell from chance does not fail: the gate is about evidence, not noise. The verdicts are written by
// src/output/comparison.ts (gateMarkdown, gateJunit). Browser compatible.
import { usageError } from "../errors/errors.js";
import type { Comparison, PairComparison } from "./compare.js";
import type { TestName } from "./tests.js";

/** `MEASURE>=BOUND`: the run's mean minus the baseline's must be at least BOUND (a budget is a BOUND below 0). */
export interface Gate {
  readonly measure: string;
  readonly bound: number;
  /** As written, for messages. */
  readonly text: string;
}

const GATE = /^\s*(.+?)\s*>=\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*$/;

/** A gate as the command line gives it; a usage error naming it where it is not MEASURE>=NUMBER. */
export function parseGate(spec: string): Gate {
  const m = GATE.exec(spec);
  if (!m)
    throw usageError(
      `--gate "${spec}": expected MEASURE>=BOUND, the least difference run - baseline allowed (as "ndcg@10>=-0.01")`,
    );
  const bound = Number(m[2]);
  // A gain asked for (a bound above 0) is no regression budget: significance would not say "worse".
  if (bound > 0)
    throw usageError(`--gate "${spec}": the bound is a budget, 0 or below (as "${m[1]}>=-0.01"), not ${m[2]}`);
  return { measure: m[1], bound, text: `${m[1]}>=${m[2]}` };
}

/** One gate on one run against its baseline. */
export interface GateVerdict {
  readonly gate: Gate;
  readonly comparison: PairComparison;
  /** The test that decides, and its corrected p. */
  readonly test: TestName;
  readonly p: number;
  readonly significant: boolean;
  /** The difference is below the bound and significant. */
  readonly failed: boolean;
  /** The queries the run lost most on, worst first (at most five). */
  readonly losses: readonly { readonly qid: string; readonly difference: number }[];
}

/** Per-query values of a run on a measure, by qid (the comparison's inputs). */
export type PerQueryValues = (run: string, measure: string) => { qids: readonly string[]; values: ArrayLike<number> };

/**
 * Every gate on every run compared with a baseline (`--all-pairs` compares runs with each other too:
 * each pair is gated). `measureOf` gives the comparison's name of a gate's measure (null: not
 * compared), which is said as a usage error with the measures compared.
 */
export function checkGates(
  c: Comparison,
  gates: readonly Gate[],
  measureOf: (name: string) => string | null,
  perQuery: PerQueryValues,
): GateVerdict[] {
  const test = c.settings.tests[0];
  const out: GateVerdict[] = [];
  for (const gate of gates) {
    const measure = c.measures.includes(gate.measure) ? gate.measure : measureOf(gate.measure);
    if (measure === null || !c.measures.includes(measure))
      throw usageError(
        `--gate ${gate.text}: ${gate.measure} is not among the measures compared (${c.measures.join(", ")}); give one of those, or add it with -m`,
      );
    for (const pair of c.comparisons) {
      if (pair.measure !== measure) continue;
      const result = pair.tests[test];
      const p = result?.pAdjusted ?? Number.NaN;
      const significant = result?.significant === true;
      out.push({
        gate,
        comparison: pair,
        test,
        p,
        significant,
        failed: pair.difference < gate.bound && significant,
        losses: worstQueries(perQuery(pair.run, measure), perQuery(pair.baseline, measure)),
      });
    }
  }
  return out;
}

function worstQueries(
  run: { qids: readonly string[]; values: ArrayLike<number> },
  baseline: { qids: readonly string[]; values: ArrayLike<number> },
): { qid: string; difference: number }[] {
  const base = new Map<string, number>();
  baseline.qids.forEach((q, i) => base.set(q, baseline.values[i]));
  const d: { qid: string; difference: number }[] = [];
  run.qids.forEach((qid, i) => {
    const b = base.get(qid);
    const difference = run.values[i] - (b ?? Number.NaN);
    if (difference < 0) d.push({ qid, difference });
  });
  return d.sort((x, y) => x.difference - y.difference || (x.qid < y.qid ? -1 : 1)).slice(0, 5);
}
