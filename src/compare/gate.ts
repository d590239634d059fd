// `--gate "ndcg@10>=-0.01"`: a run fails when its mean is below the baseline's by more than the budget
// and the drop is significant (the first test, corrected): a drop not told from chance does not fail.
import { usageError } from "../errors/errors.js";
import type { Comparison, PairComparison } from "./compare.js";
import type { TestName } from "./tests.js";

/** `MEASURE>=BOUND`: run - baseline must be at least BOUND (<= 0). */
export interface Gate {
  readonly measure: string;
  readonly bound: number;
  readonly text: string;
}

const GATE = /^\s*(.+?)\s*>=\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*$/;

export function parseGate(spec: string): Gate {
  const m = GATE.exec(spec);
  if (!m)
    throw usageError(
      `--gate "${spec}": expected MEASURE>=BOUND, the least difference run - baseline allowed (as "ndcg@10>=-0.01")`,
    );
  const bound = Number(m[2]);
  // A bound above 0 is no budget: significance would not say "worse".
  if (bound > 0)
    throw usageError(`--gate "${spec}": the bound is a budget, 0 or below (as "${m[1]}>=-0.01"), not ${m[2]}`);
  return { measure: m[1], bound, text: `${m[1]}>=${m[2]}` };
}

export interface GateVerdict {
  readonly gate: Gate;
  readonly comparison: PairComparison;
  /** The deciding test; p corrected. */
  readonly test: TestName;
  readonly p: number;
  readonly significant: boolean;
  readonly failed: boolean;
  /** At most five, worst first. */
  readonly losses: readonly { readonly qid: string; readonly difference: number }[];
}

export type PerQueryValues = (run: string, measure: string) => { qids: readonly string[]; values: ArrayLike<number> };

/** Every gate on every pair compared. `measureOf`: the comparison's name of a gate's measure (null: not compared). */
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
