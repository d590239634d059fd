// The numbers behind the page's charts (web/charts.ts), computed by hand.
import { describe, expect, it } from "vitest";
import { differences, histogramBins } from "../web/charts.js";

describe("histogramBins", () => {
  it("bins values in [0, 1] over [0, 1], the last bin closed, NaN counted apart", () => {
    const { bins, nan } = histogramBins([0, 0.05, 0.1, 0.5, 0.99, 1, NaN], 10);
    expect(bins.map((b) => b.count)).toEqual([2, 1, 0, 0, 0, 1, 0, 0, 0, 2]);
    expect(bins[0]).toMatchObject({ lo: 0 });
    expect(bins[9].hi).toBe(1);
    expect(nan).toBe(1);
  });

  it("bins other values over [min, max]", () => {
    const { bins } = histogramBins([2, 4, 4, 6], 2);
    expect(bins).toEqual([
      { lo: 2, hi: 4, count: 1 },
      { lo: 4, hi: 6, count: 3 },
    ]);
  });

  it("puts equal values outside [0, 1] in one bin, and has no bins without a number", () => {
    expect(histogramBins([7, 7, 7]).bins).toEqual([{ lo: 7, hi: 7, count: 3 }]);
    expect(histogramBins([NaN, NaN])).toEqual({ bins: [], nan: 2 });
    expect(histogramBins([])).toEqual({ bins: [], nan: 0 });
  });
});

describe("differences", () => {
  it("takes b − a over the queries both runs scored, largest first, and counts wins and losses", () => {
    const a = { qids: ["q1", "q2", "q3", "q4"], values: [0.5, 0.2, 1, 0.3] };
    const b = { qids: ["q4", "q2", "q1", "q5"], values: [0.3, 0.6, 0.25, 1] };
    const d = differences(a, b);
    expect([...d.sorted]).toEqual([0.6 - 0.2, 0, -0.25]);
    expect([d.better, d.worse, d.equal]).toEqual([1, 1, 1]);
    expect(d.mean).toBeCloseTo((0.4 - 0.25) / 3, 15);
  });

  it("leaves out a query with NaN on either side; no common query gives a NaN mean", () => {
    const d = differences({ qids: ["q1", "q2"], values: [NaN, 0.5] }, { qids: ["q1", "q2"], values: [1, NaN] });
    expect(d.sorted.length).toBe(0);
    expect(d.mean).toBeNaN();
  });
});
