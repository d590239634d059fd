// systemCorrelation: Kendall's tau_b against scipy.stats.kendalltau (test/fixtures/correlation/, made by
// make_scipy_fixtures.py), tau_AP on cases worked by hand and, with ties in b, against the mean of
// tau_AP over every order of the tied systems; and its errors.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { systemCorrelation } from "../src/index.js";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/correlation/scipy.json", import.meta.url), "utf8")) as {
  cases: { name: string; x: number[]; y: number[]; tau: number | "NaN" }[];
};

/** Scores as `{ system: score }`, the systems s0, s1, ... */
const systems = (scores: readonly number[]) => Object.fromEntries(scores.map((v, i) => [`s${i}`, v]));

/** tau_AP as Yilmaz et al. write it, for orders without ties: `ref` and `est` as lists of names, best first. */
function tauAPOfOrders(ref: readonly string[], est: readonly string[]): number {
  const n = est.length;
  let sum = 0;
  for (let i = 1; i < n; i++) {
    let c = 0;
    for (let j = 0; j < i; j++) if (ref.indexOf(est[j]) < ref.indexOf(est[i])) c++;
    sum += c / i;
  }
  return (2 / (n - 1)) * sum - 1;
}

/** Every order of `groups` (lists of tied names) with each group permuted, flattened. */
function tieOrders(groups: readonly string[][]): string[][] {
  const perms = (xs: readonly string[]): string[][] =>
    xs.length <= 1
      ? [[...xs]]
      : xs.flatMap((x, i) => perms([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
  let out: string[][] = [[]];
  for (const g of groups) out = out.flatMap((prefix) => perms(g).map((p) => [...prefix, ...p]));
  return out;
}

describe("systemCorrelation: Kendall's tau_b", () => {
  it.each(fixture.cases)("is scipy.stats.kendalltau's on $name", ({ x, y, tau }) => {
    const r = systemCorrelation(systems(x), systems(y));
    if (tau === "NaN") expect(r.tau).toBeNaN();
    else expect(r.tau).toBeCloseTo(tau, 12);
  });
});

describe("systemCorrelation: tau_AP", () => {
  const a = { A: 4, B: 3, C: 2, D: 1 };
  it("is 1 for the same order and -1 for the reverse", () => {
    expect(systemCorrelation(a, { A: 40, B: 30, C: 20, D: 10 }).tauAP).toBeCloseTo(1, 15);
    expect(systemCorrelation(a, { A: 1, B: 2, C: 3, D: 4 }).tauAP).toBeCloseTo(-1, 15);
  });

  it("weighs a swap by where it is (worked by hand)", () => {
    // b: A C B D. Down b: C has A above it, right in a (1/1); B has A, C: A right (1/2); D: 3/3.
    // tau_AP = 2/3 (1 + 1/2 + 1) - 1 = 2/3, as tau (5 of 6 pairs agree: 4/6).
    let r = systemCorrelation(a, { A: 4, C: 3, B: 2, D: 1 });
    expect(r.tauAP).toBeCloseTo(2 / 3, 15);
    expect(r.tau).toBeCloseTo(2 / 3, 15);
    // b: B A C D, the top swapped: A has B above it, wrong (0/1); C 2/2; D 3/3: 2/3 (0 + 1 + 1) - 1 = 1/3.
    r = systemCorrelation(a, { B: 4, A: 3, C: 2, D: 1 });
    expect(r.tauAP).toBeCloseTo(1 / 3, 15);
    expect(r.tau).toBeCloseTo(2 / 3, 15);
    // b: A B D C, the bottom swapped: B 1/1; D 2/2; C has A, B right and D wrong (2/3): 2/3 (8/3) - 1 = 7/9.
    expect(systemCorrelation(a, { A: 4, B: 3, D: 2, C: 1 }).tauAP).toBeCloseTo(7 / 9, 15);
  });

  it("takes the first argument's order as the reference", () => {
    // a: A B C; b: C A B. Down b: A under C, wrong (0/1); B under C, A: A right (1/2): 2/2 (1/2) - 1 = -1/2.
    // Down a with b the reference: B under A, right (1/1); C under A, B: both wrong (0/2): 1 - 1 = 0.
    const x = { A: 3, B: 2, C: 1 };
    const y = { C: 3, A: 2, B: 1 };
    expect(systemCorrelation(x, y).tauAP).toBeCloseTo(-0.5, 15);
    expect(systemCorrelation(y, x).tauAP).toBeCloseTo(0, 15);
    expect(systemCorrelation(x, y).tau).toBe(systemCorrelation(y, x).tau);
  });

  it("matches the definition on random orders without ties", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 50; trial++) {
      const n = 2 + (trial % 12);
      const x = systems(Array.from({ length: n }, random));
      const y = systems(Array.from({ length: n }, random));
      const order = (s: Record<string, number>) => Object.keys(s).sort((i, j) => s[j] - s[i]);
      expect(systemCorrelation(x, y).tauAP).toBeCloseTo(tauAPOfOrders(order(x), order(y)), 12);
    }
  });

  it("with ties in b, is the mean of tau_AP over the orders of the tied systems", () => {
    // a: A B C; b ties A and B on top. A B C gives 1; B A C gives 2/2 (0 + 2/2) - 1 = 0: the mean is 1/2.
    expect(systemCorrelation({ A: 3, B: 2, C: 1 }, { A: 1, B: 1, C: 0 }).tauAP).toBeCloseTo(0.5, 15);
    const ref = ["s0", "s1", "s2", "s3", "s4", "s5", "s6"];
    const a7 = systems([7, 6, 5, 4, 3, 2, 1]);
    for (const groups of [
      [["s3"], ["s0", "s5"], ["s1"], ["s6", "s2", "s4"]],
      [
        ["s6", "s0", "s1"],
        ["s2", "s3", "s4", "s5"],
      ],
      [["s1", "s0"], ["s2"], ["s4", "s3"], ["s5"], ["s6"]],
    ]) {
      const b = Object.fromEntries(groups.flatMap((g, k) => g.map((s) => [s, groups.length - k])));
      const orders = tieOrders(groups);
      const mean = orders.reduce((m, o) => m + tauAPOfOrders(ref, o), 0) / orders.length;
      expect(systemCorrelation(a7, b).tauAP).toBeCloseTo(mean, 12);
    }
  });

  it("is NaN where the reference ties systems", () => {
    const r = systemCorrelation({ A: 2, B: 2, C: 1 }, { A: 3, B: 2, C: 1 });
    expect(r.tauAP).toBeNaN();
    expect(r.tau).toBeCloseTo(Math.sqrt(2 / 3), 15); // 2 agreeing of 3 pairs, 1 tied in a: 2 / sqrt(2 * 3)
  });
});

describe("systemCorrelation: errors", () => {
  /** `call` throws a RankevalError of code bad-input and this message. */
  const throwsInput = (call: () => unknown, message: string) =>
    expect(call).toThrow(expect.objectContaining({ name: "RankevalError", code: "bad-input", message }));

  it("says which systems one side lacks", () => {
    throwsInput(
      () => systemCorrelation({ A: 1, B: 2, C: 3 }, { A: 1, B: 2, D: 3 }),
      'systemCorrelation: a and b must score the same systems; b lacks "C"; a lacks "D"',
    );
  });

  it("refuses fewer than two systems, scores that are not finite numbers, and what is not an object", () => {
    throwsInput(
      () => systemCorrelation({ A: 1 }, { A: 2 }),
      "systemCorrelation: an order needs at least 2 systems, not 1",
    );
    throwsInput(
      () => systemCorrelation({ A: 1, B: Number.NaN }, { A: 1, B: 2 }),
      'systemCorrelation: a["B"] = NaN is not a finite number',
    );
    throwsInput(
      () => systemCorrelation({ A: 1, B: 2 }, { A: 1, B: "2" } as never),
      'systemCorrelation: b["B"] = "2" is not a finite number',
    );
    throwsInput(
      () => systemCorrelation([1, 2] as never, { A: 1 }),
      "systemCorrelation: a must be { system: score }, not an array (length 2)",
    );
  });
});
