// test/fixtures/compare-cli/expected/ is written by rankeval's own command line (make.mjs there), and
// test/cli-compare.test.ts holds the command line to it byte for byte: alone, that would keep any
// wrong number. Here every-test.json's numbers are held to values made without rankeval
// (independent.json, by scripts/compare-cli-independent.py): per-query values from trec_eval's
// definitions written in Python, scipy's paired tests, and the randomization test's exact p-value over
// all 2^n sign flips, which rankeval's 10,000 sampled flips must estimate within their sampling error,
// and which rankeval must give exactly when asked for at least 2^n permutations (it enumerates them).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cli } from "./_cli.js";

/** What a comparison is and its means, in both files. */
interface Pair {
  measure: string;
  baseline: string;
  run: string;
  n: number;
  baselineMean: number;
  runMean: number;
}
interface Independent {
  made_by: string;
  comparisons: (Pair & {
    t_p: number;
    wilcoxon_p: number;
    sign_p: number;
    randomization_exact_p: number;
    minimum_detectable: number;
  })[];
}
type Test = { p: number };
interface Comparison extends Pair {
  minimumDetectable: number;
  tests: { t: Test; wilcoxon: Test; sign: Test; randomization: Test };
}

const read = (path: string) =>
  JSON.parse(readFileSync(new URL(`fixtures/compare-cli/${path}`, import.meta.url), "utf8"));
const independent: Independent = read("independent.json");
const fixture: { comparisons: Comparison[] } = read("expected/every-test.json");
/** every-test.json's command line gives no --permutations: compare()'s default. */
const ITERATIONS = 10_000;

const near = (got: number, want: number, relative: number) =>
  Math.abs(got - want) <= relative * Math.max(Math.abs(want), Number.MIN_VALUE);

describe(`compare-cli's every-test.json against values made without rankeval (${independent.made_by})`, () => {
  it("has the same comparisons", () => {
    const key = (c: { measure: string; baseline: string; run: string }) => `${c.measure} ${c.run} vs ${c.baseline}`;
    expect(fixture.comparisons.map(key).sort()).toEqual(independent.comparisons.map(key).sort());
  });

  for (const want of independent.comparisons) {
    it(`${want.measure}: ${want.run} against ${want.baseline}`, () => {
      const got = fixture.comparisons.find(
        (c) => c.measure === want.measure && c.run === want.run && c.baseline === want.baseline,
      )!;
      expect(got.n).toBe(want.n);
      expect(near(got.baselineMean, want.baselineMean, 1e-12), `${got.baselineMean} ${want.baselineMean}`).toBe(true);
      expect(near(got.runMean, want.runMean, 1e-12), `${got.runMean} ${want.runMean}`).toBe(true);
      // The minimum detectable difference: statsmodels' power formula solved by scipy's brentq.
      expect(
        near(got.minimumDetectable, want.minimum_detectable, 1e-9),
        `${got.minimumDetectable} ${want.minimum_detectable}`,
      ).toBe(true);
      for (const [test, p] of [
        ["t", want.t_p],
        ["wilcoxon", want.wilcoxon_p],
        ["sign", want.sign_p],
      ] as const)
        expect(near(got.tests[test].p, p, 1e-9), `${test}: rankeval ${got.tests[test].p}, scipy ${p}`).toBe(true);
      // (count + 1) / (B + 1) from B sampled flips: within 5 standard errors of the exact p, plus the +1.
      const exact = want.randomization_exact_p;
      const bound = 5 * Math.sqrt((exact * (1 - exact)) / ITERATIONS) + 1 / (ITERATIONS + 1);
      const p = got.tests.randomization.p;
      expect(Math.abs(p - exact), `randomization: rankeval ${p}, exact ${exact}`).toBeLessThanOrEqual(bound);
    });
  }

  it("the randomization test's exact p-values, with --permutations 2^21 (every sign flip, enumerated)", async () => {
    const dir = fileURLToPath(new URL("fixtures/compare-cli/", import.meta.url));
    const files = ["qrels.txt", "bm25.run", "rerank.run", "weak.run"].map((f) => dir + f);
    const args = ["--compare", "--test", "randomization", "--permutations", String(2 ** 21), "--format", "json"];
    const { status, stdout, stderr } = await cli([
      ...args,
      "--baseline",
      `${dir}rerank.run`,
      "-m",
      "map",
      "-m",
      "ndcg_cut.5",
      ...files,
    ]);
    expect(status, stderr).toBe(0);
    const got: Comparison[] = JSON.parse(stdout).comparisons;
    for (const want of independent.comparisons) {
      const c = got.find((x) => x.measure === want.measure && x.run.endsWith(want.run))!;
      expect(near(c.tests.randomization.p, want.randomization_exact_p, 1e-12), `${want.measure} ${want.run}`).toBe(
        true,
      );
    }
  });
});
