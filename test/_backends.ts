// The two backends every measure is checked on: the plain-TypeScript reference (src/reference/) and
// the real API (the WebAssembly kernel); and the comparison the tests use.
import { expect } from "vitest";
import { evaluate, evaluateRun, type Options, type Qrels, type Rows, type Run } from "../src/index.js";
import { referenceEvaluate, referenceEvaluateRun } from "../src/reference/index.js";

export type Values = { qids: unknown[]; values: Record<string, Float64Array> };

export interface Backend {
  name: string;
  evaluate: (rows: Rows, measures: string | string[], options?: Options) => Values;
  evaluateRun: (qrels: Qrels, run: Run, measures: string | string[], options?: Options) => Values;
}

export const backends: Backend[] = [
  { name: "reference", evaluate: referenceEvaluate, evaluateRun: referenceEvaluateRun },
  { name: "kernel", evaluate, evaluateRun },
];

/** Asserts values[name] equals `expected` (1e-12 relative, NaN where NaN), naming the measure. */
export function expectValues(result: Values, expected: Record<string, number | number[]>): void {
  for (const [name, want] of Object.entries(expected)) {
    const got = result.values[name];
    expect(got, `no values for ${name}`).toBeDefined();
    const wants = Array.isArray(want) ? want : [want];
    expect(got.length, name).toBe(wants.length);
    wants.forEach((w, q) => {
      const g = got[q];
      const ok = Number.isNaN(w) ? Number.isNaN(g) : Math.abs(g - w) <= 1e-12 * Math.max(1, Math.abs(g), Math.abs(w));
      expect(ok, `${name} of query ${q}: got ${g}, expected ${w}`).toBe(true);
    });
  }
}
