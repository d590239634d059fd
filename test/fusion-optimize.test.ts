// optimizeFusion (src/fusion/optimize.ts) against ranx 0.3.20's optimize_fusion: the best parameters
// ranx finds on the fixtures test/fusion/make-ranx-learned-fixtures.py makes, ties between candidates
// included (ranx keeps the last of equal best scores).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { close } from "./fusion/_close.js";
import { arange, optimizeFusion, roundingDigits, weightCandidates } from "../src/fusion/optimize.js";

type Scores = Record<string, Record<string, number>>;
interface Optimization {
  qrels: Scores;
  runs: Scores[];
  norm: "min-max" | null;
  method: string;
  metric: string;
  options: Record<string, number>;
  best: Record<string, unknown>;
  report: { configs: string[]; results: number[] } | null;
}
const fixtures = JSON.parse(readFileSync(new URL("./fixtures/fusion/ranx-learned.json", import.meta.url), "utf8")) as {
  optimizations: Optimization[];
};

describe("ranx's grids", () => {
  it("enumerates weights as get_possible_weights and get_trial_configs do", () => {
    // np.arange(0, 1.1, 0.1): 11 values; np.arange(0, 1.2, 0.2): 6 (1.2 / 0.2 = 5.999999999999999).
    expect(arange(0, 1 + 0.1, 0.1)).toHaveLength(11);
    expect(arange(0, 1 + 0.2, 0.2)).toHaveLength(6);
    expect(roundingDigits(0.1)).toBe(1);
    expect(roundingDigits(0.25)).toBe(2);
    expect(roundingDigits(1e-5)).toBe(-1);
    const c = weightCandidates(0.1, 3);
    expect(c).toHaveLength(62);
    expect(c[0]).toEqual([0, 0, 1]);
    expect(c[1]).toEqual([0, 0.1, 0.9]);
    expect(c[c.length - 1]).toEqual([1, 0, 0]);
    // 0.2 + 0.7 + 0.1 is 0.9999999999999999 in floating point: ranx's sum(seq) == 1.0 leaves it out
    // (and 4 such of the 66 that sum to 1 exactly), not 0.1 + 0.2 + 0.7.
    expect(c).not.toContainEqual([0.2, 0.7, 0.1]);
    expect(c).toContainEqual([0.1, 0.2, 0.7]);
  });
});

describe("optimizeFusion as ranx 0.3.20's optimize_fusion", () => {
  fixtures.optimizations.forEach((o, i) => {
    it(`${i}: ${o.method}, norm ${o.norm}, ${o.metric} ${JSON.stringify(o.options)}`, () => {
      const report: { params: Record<string, unknown>; score: number }[] = [];
      const best = optimizeFusion(
        o.qrels,
        o.runs,
        { method: o.method, norm: o.norm, metric: o.metric, ...o.options },
        report,
      );
      close(best, o.best, o.method);
      // Every candidate's score, in ranx's order, as ranx's optimization report has it.
      if (o.report)
        close(
          report.map((r) => r.score),
          o.report.results,
          "report",
        );
    });
  });
});
