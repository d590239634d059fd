// The closed-form tests against scipy: test/fixtures/compare/scipy.json, made by
// make_scipy_fixtures.py beside it (scipy 1.17.1). p-values to 1e-9 relative.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { adjust } from "../src/compare/correct.js";
import { studentQuantile } from "../src/stats/dists.js";
import { describe as describePair, pairedT, signTest } from "../src/compare/paired.js";
import { wilcoxon } from "../src/compare/wilcoxon.js";

type Num = number | "NaN" | "Infinity" | "-Infinity";
interface Case {
  name: string;
  run: Num[];
  baseline: Num[];
  t: { statistic: Num; p: Num; ci95: [Num, Num] };
  wilcoxon: { statistic: Num; p: Num };
  sign: { wins: number; losses: number; p: Num };
  mean: Num;
  sd: Num;
}
const fixtures = JSON.parse(readFileSync(new URL("fixtures/compare/scipy.json", import.meta.url), "utf8")) as {
  made_by: string;
  cases: Case[];
  sign: { wins: number; losses: number; p: Num }[];
  bh: { p: number[]; adjusted: Num[] }[];
  t_quantiles: { df: number; q975: Num }[];
};
const num = (x: Num): number =>
  typeof x === "number" ? x : x === "NaN" ? NaN : x === "Infinity" ? Infinity : -Infinity;

/** Equal to `relative` of the larger magnitude; NaN equals NaN, infinities themselves. */
function close(got: number, want: number, relative = 1e-9): boolean {
  if (Number.isNaN(want) || !Number.isFinite(want))
    return Object.is(got, want) || (Number.isNaN(got) && Number.isNaN(want));
  return Math.abs(got - want) <= relative * Math.max(Math.abs(want), Math.abs(got)) || got === want;
}

function expectClose(got: number, want: number, what: string, relative = 1e-9) {
  if (!close(got, want, relative))
    expect.fail(`${what}: ${got}, scipy ${want} (relative ${Math.abs(got - want) / Math.abs(want)})`);
}

describe(`the paired tests equal scipy (${fixtures.made_by})`, () => {
  for (const c of fixtures.cases) {
    it(c.name, () => {
      const run = c.run.map(num);
      const baseline = c.baseline.map(num);
      const d = run.map((x, i) => x - baseline[i]);
      const t = pairedT(d);
      expectClose(t.statistic, num(c.t.statistic), "t statistic");
      expectClose(t.p, num(c.t.p), "t p");
      const description = describePair(run, baseline, d);
      expectClose(description.ci95[0], num(c.t.ci95[0]), "ci95 low");
      expectClose(description.ci95[1], num(c.t.ci95[1]), "ci95 high");
      expectClose(description.difference, num(c.mean), "mean difference", 1e-15);
      expectClose(description.effectSize, num(c.mean) / num(c.sd), "effect size", 1e-12);
      const w = wilcoxon(d);
      expectClose(w.statistic, num(c.wilcoxon.statistic), "wilcoxon statistic", 0);
      expectClose(w.p, num(c.wilcoxon.p), `wilcoxon p (${w.method})`);
      expect(description.wins).toBe(c.sign.wins);
      expect(description.losses).toBe(c.sign.losses);
      expectClose(signTest(description.wins, description.losses).p, num(c.sign.p), "sign p");
    });
  }

  it("the sign test on its own", () => {
    for (const s of fixtures.sign) expectClose(signTest(s.wins, s.losses).p, num(s.p), `sign ${s.wins}/${s.losses}`);
  });

  it("Benjamini-Hochberg as scipy.stats.false_discovery_control", () => {
    for (const b of fixtures.bh)
      b.adjusted.forEach((want, i) => expectClose(adjust(b.p, "bh")[i], num(want), `bh ${b.p}`, 1e-12));
  });

  it("Student t quantiles", () => {
    for (const q of fixtures.t_quantiles)
      expectClose(studentQuantile(0.975, q.df), num(q.q975), `t quantile df=${q.df}`, 1e-12);
  });

  it("covers every rule of scipy's wilcoxon", () => {
    const methods = new Set(
      fixtures.cases.map((c) => wilcoxon(c.run.map((x, i) => num(x) - num(c.baseline[i]))).method),
    );
    expect([...methods].sort()).toEqual(["exact", "normal", "permutation"]);
  });
});
