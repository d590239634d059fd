// Power and topic set size (src/compare/power.ts) against scipy's noncentral t (fixtures made by
// scripts/power-fixtures.py from Debian's python3-scipy; the power is statsmodels' TTestPower's
// two-sided formula), and the calls' errors.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { minimumDetectableDifference, noncentralTCdf, power, topicSetSize } from "../src/index.js";
import { cli } from "./_cli.js";

const fixtures = JSON.parse(readFileSync(new URL("./fixtures/power/cases.json", import.meta.url), "utf8")) as {
  cdf: { t: number; df: number; delta: number; cdf: number }[];
  power: { n: number; sd: number; delta: number; alpha: number; power: number }[];
  topicSetSize: { sd: number; delta: number; alpha: number; power: number; n: number }[];
  minimumDetectableDifference: { n: number; sd: number; alpha: number; power: number; delta: number }[];
};

describe("the noncentral t distribution and the paired t-test's power, as scipy's", () => {
  it(`gives scipy.stats.nct.cdf to 1e-9 on ${fixtures.cdf.length} points`, () => {
    for (const c of fixtures.cdf)
      expect(Math.abs(noncentralTCdf(c.t, c.df, c.delta) - c.cdf), `t ${c.t} df ${c.df} delta ${c.delta}`).toBeLessThan(
        1e-9,
      );
  });

  it(`gives statsmodels' two-sided power to 1e-9 on ${fixtures.power.length} cases`, () => {
    for (const { power: want, ...c } of fixtures.power)
      expect(Math.abs(power(c) - want), JSON.stringify(c)).toBeLessThan(1e-9);
  });

  it(`gives the fewest queries reaching the power on ${fixtures.topicSetSize.length} designs`, () => {
    for (const { n, ...design } of fixtures.topicSetSize) expect(topicSetSize(design), JSON.stringify(design)).toBe(n);
  });

  it(`gives the minimum detectable difference to 1e-9 on ${fixtures.minimumDetectableDifference.length} cases`, () => {
    for (const c of fixtures.minimumDetectableDifference) {
      const delta = minimumDetectableDifference({ n: c.n, sd: c.sd, alpha: c.alpha, power: c.power });
      expect(Math.abs(delta - c.delta) / c.delta, JSON.stringify(c)).toBeLessThan(1e-9);
      // At that difference the power is what was asked.
      expect(Math.abs(power({ n: c.n, sd: c.sd, delta, alpha: c.alpha }) - c.power)).toBeLessThan(1e-9);
    }
  });

  it("is alpha itself for no difference, and symmetric in the sign of the difference", () => {
    expect(power({ n: 30, sd: 0.1, delta: 0 })).toBeCloseTo(0.05, 12);
    expect(power({ n: 30, sd: 0.1, delta: -0.04 })).toBe(power({ n: 30, sd: 0.1, delta: 0.04 }));
  });
});

describe("the calls' errors name the argument and what it must be", () => {
  it.each([
    [
      () => power({ n: 10, sd: 0.1, delta: 0.02, alfa: 0.01 } as never),
      /power: unknown option "alfa" \(the options are n, sd, delta, alpha\)/,
    ],
    [() => power({ n: 1, sd: 0.1, delta: 0.02 }), /power: n must be a whole number of queries, 2 or more, not 1/],
    [() => power({ n: 10.5, sd: 0.1, delta: 0.02 }), /power: n must be a whole number/],
    [() => power({ n: 10, sd: 0, delta: 0.02 }), /power: sd must be a finite number above 0, not 0/],
    [() => power({ n: 10, sd: 0.1, delta: Number.NaN }), /power: delta must be a finite number, not NaN/],
    [() => power({ n: 10, sd: 0.1, delta: 0.1, alpha: 1 }), /power: alpha must be a number between 0 and 1, not 1/],
    [() => topicSetSize({ sd: 0.1, delta: 0 }), /topicSetSize: delta must be a finite number other than 0, not 0/],
    [() => topicSetSize({ sd: 0.1, delta: 0.01, power: 0.01 }), /topicSetSize: power \(0.01\) must be above alpha/],
    [() => topicSetSize({ sd: 1, delta: 1e-6 }), /topicSetSize: more than 10,000,000 queries would be needed/],
    [() => minimumDetectableDifference({ n: 2.5, sd: 0.1 }), /minimumDetectableDifference: n must be a whole number/],
  ])("%#", (call, message) => {
    expect(call).toThrow(message);
  });
});

describe("--compare --detect DELTA: the queries each pair needs, from the pilot's sd of differences", () => {
  const dir = new URL("./fixtures/compare-cli/", import.meta.url).pathname;
  const files = ["qrels.txt", "bm25.run", "rerank.run"].map((f) => dir + f);

  it("prints topicSetSize of each pair's sd(diff) at the power asked", async () => {
    const { status, stdout } = await cli(["--compare", "--detect", "0.02", "--power", "0.9", "-m", "map", ...files]);
    expect(status).toBe(0);
    // The pilot's per-query values, paired by query, as the comparison pairs them.
    const perQuery = async (run: string) => {
      const j = JSON.parse((await cli(["-q", "--format", "json", "-m", "map", files[0], run])).stdout);
      return j.runs[0].perQuery as Record<string, { map: number }>;
    };
    const [base, run] = [await perQuery(files[1]), await perQuery(files[2])];
    const d = Object.keys(base).map((q) => run[q].map - base[q].map);
    const mean = d.reduce((s, x) => s + x, 0) / d.length;
    const sd = Math.sqrt(d.reduce((s, x) => s + (x - mean) ** 2, 0) / (d.length - 1));
    const needed = topicSetSize({ sd, delta: 0.02, power: 0.9 });
    expect(stdout).toContain(
      "find a difference of 0.02 significant 90% of the time (paired t-test, two-sided, alpha 0.05)",
    );
    expect(stdout).toMatch(new RegExp(`map +\\S*bm25\\.run +\\S*rerank\\.run +20 +${sd.toFixed(4)} +${needed}\\n`));
  });

  it("refuses --power without --detect, or not above alpha", async () => {
    for (const [args, message] of [
      [["--power", "0.9"], /--power is --detect's/],
      [["--detect", "0.02", "--power", "0.01"], /--power 0.01 must be above alpha \(0.05\)/],
      [["--detect", "0"], /--detect: "0" is not a difference other than 0/],
    ] as const) {
      const r = await cli(["--compare", ...args, "-m", "map", ...files]);
      expect(r.status, args.join(" ")).toBe(1);
      expect(r.stderr).toMatch(message);
    }
  });
});
