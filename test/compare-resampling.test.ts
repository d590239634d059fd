// The resampling tests: the kernel (assembly/significance.ts through src/compare/resampling.ts) against
// the plain-TypeScript reference (test/_resampling-reference.ts) on the same random stream, p-values
// exactly equal; and both converging, as B grows, to the exact p of full enumeration.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { kernelBootstrapSums, kernelRandomizationSums, kernelTukeyRanges } from "../src/kernel/significance-kernel.js";
import {
  referenceBootstrap,
  referenceBootstrapMeans,
  referenceRandomization,
  referenceTukey,
  referenceTukeyRanges,
} from "./_resampling-reference.js";
import { drawDigits, HalfStream, IterationStream, planBatches, signFlips } from "./_splitmix.js";
import { bootstrapTests, randomizationTests, tukeyTests } from "../src/compare/resampling.js";
import { randomizationExact, tolerance } from "../src/compare/resampling-rules.js";
import { runs } from "./_seed.js";

/** A seeded column of n values: continuous in [0, 1), or on a grid of `step` (ties and zeros). */
function column(seed: number, n: number, step = 0): Float64Array {
  let s = seed >>> 0;
  return Float64Array.from({ length: n }, () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    const u = s / 2 ** 32;
    return step ? Math.round(u / step) * step : u;
  });
}

const closeTo = (a: number, b: number, relative = 1e-12) =>
  Math.abs(a - b) <= relative * Math.max(1, Math.abs(a), Math.abs(b));

describe("the random stream", () => {
  it("SplitMix64: the first outputs of seed 0 are the published ones", () => {
    // SplitMix64 seeded with 0 starts 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4 (Vigna's splitmix64.c);
    // iteration b's sequence starts at output b of it.
    const s = new IterationStream(0, -1); // start_{-1} = mix(0) = 0, so its words are splitmix64(0)'s
    expect(s.next().toString(16)).toBe("e220a8397b1dcdaf");
    expect(s.next().toString(16)).toBe("6e789e6aa1b965f4");
  });

  it("batches of digits stay below 2^32 and each digit is below its bound", () => {
    const bounds = [10, 9, 8, 7, 6, 5, 4, 3, 2];
    expect(planBatches(bounds)).toHaveLength(1);
    expect(planBatches([13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2])).toHaveLength(2); // 13! > 2^32 > 12!
    expect(planBatches(new Array(10).fill(10_000))).toHaveLength(5); // 10^8 < 2^32 < 10^12
    const batches = planBatches(bounds);
    const seen = new Set<string>();
    for (let b = 0; b < 2000; b++) {
      const digits = drawDigits(new HalfStream(7, b), bounds, batches);
      digits.forEach((d, i) => expect(d).toBeLessThan(bounds[i]));
      seen.add(digits.slice(6).join());
    }
    expect(seen.size).toBe(4 * 3 * 2); // the last three digits take all 24 values
  });
});

describe("the kernel against the reference", () => {
  it("randomization: the kernel's sign-flipped sums are the reference's flips", () => {
    for (const n of [1, 7, 8, 63, 64, 65, 300, 700]) {
      const columns = [column(1, n), column(2, n, 0.1), column(3, n)];
      const sums = kernelRandomizationSums(columns, n, 40, 99);
      for (let b = 0; b < 40; b++) {
        const flips = signFlips(99, b, n);
        columns.forEach((x, c) => {
          let want = 0;
          for (let q = 0; q < n; q++) want += flips[q] ? -x[q] : x[q];
          if (!closeTo(sums[c][b], want)) expect.fail(`n=${n} b=${b} column ${c}: ${sums[c][b]} vs ${want}`);
        });
      }
    }
  });

  it("randomization: the same p as the reference, pair by pair", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 14, max: 300 }),
        fc.integer({ min: 1, max: 600 }),
        fc.nat(1000),
        fc.constantFrom(0, 0.1, 0.25),
        fc.integer({ min: 2, max: 5 }),
        (n, iterations, seed, step, runs) => {
          const columns = Array.from({ length: runs }, (_, r) => column(seed * 7 + r, n, step));
          const pairs = Array.from({ length: runs - 1 }, (_, r) => ({ baseline: 0, run: r + 1 }));
          const got = randomizationTests(columns, n, pairs, iterations, seed);
          pairs.forEach((p, i) => {
            const want = referenceRandomization(columns[p.run], columns[p.baseline], iterations, seed);
            expect(got[i].p).toBe(want.p);
            expect(closeTo(got[i].statistic, want.statistic)).toBe(true);
          });
        },
      ),
      { numRuns: runs(40) },
    );
  });

  it("randomization: a pair identical but for one query ties with itself (|T*| = |T| counts)", () => {
    const x = column(5, 40, 0.1);
    const y = Float64Array.from(x);
    y[3] += 0.1;
    const [r] = randomizationTests([x, y], 40, [{ baseline: 0, run: 1 }], 999, 1);
    expect(r.p).toBe(1); // every sign vector gives |T*| = |T|
  });

  it("bootstrap: the same resamples, the same p and interval", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 120 }),
        fc.integer({ min: 1, max: 400 }),
        fc.nat(1000),
        fc.constantFrom(0, 0.1),
        (n, iterations, seed, step) => {
          const columns = [column(seed, n, step), column(seed + 1, n, step), column(seed + 2, n, step)];
          const pairs = [
            { baseline: 0, run: 1 },
            { baseline: 0, run: 2 },
            { baseline: 1, run: 2 },
          ];
          const got = bootstrapTests(columns, n, pairs, iterations, seed);
          pairs.forEach((p, i) => {
            const want = referenceBootstrap(columns[p.run], columns[p.baseline], iterations, seed);
            expect(got[i].p).toBe(want.p);
            expect(closeTo(got[i].ci95![0], want.ci95![0])).toBe(true);
            expect(closeTo(got[i].ci95![1], want.ci95![1])).toBe(true);
          });
          // The kernel's sums are the reference's resamples.
          const sums = kernelBootstrapSums([columns[0]], n, iterations, seed)[0];
          const means = referenceBootstrapMeans(columns[0], iterations, seed);
          for (let b = 0; b < iterations; b++) expect(sums[b] / n).toBe(means[b]);
        },
      ),
      { numRuns: runs(30) },
    );
  });

  it("tukey: the same permutations, bit for bit, for every measure at once", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 2, max: 12 }),
        fc.integer({ min: 1, max: 300 }),
        fc.nat(1000),
        fc.integer({ min: 1, max: 5 }),
        (n, runs, iterations, seed, measures) => {
          const values = Array.from({ length: measures }, (_, s) =>
            Array.from({ length: runs }, (_, r) => column(seed * 31 + s * 7 + r, n, s % 2 ? 0.1 : 0)),
          );
          const ranges = kernelTukeyRanges(values, n, iterations, seed);
          const pairs = [];
          for (let a = 0; a < runs; a++) for (let b = a + 1; b < runs; b++) pairs.push({ baseline: a, run: b });
          const got = tukeyTests(values, n, pairs, iterations, seed);
          values.forEach((runsOf, s) => {
            expect(Array.from(ranges[s])).toEqual(Array.from(referenceTukeyRanges(runsOf, iterations, seed)));
            const want = referenceTukey(runsOf, pairs, iterations, seed);
            pairs.forEach((_, i) => expect(got[s][i].p).toBe(want[i].p));
          });
        },
      ),
      { numRuns: runs(30) },
    );
  });

  it("tukey: more than 12 runs take more than one half-word a query", () => {
    const runs = 23;
    const values = [Array.from({ length: runs }, (_, r) => column(r, 9))];
    expect(Array.from(kernelTukeyRanges(values, 9, 50, 3)[0])).toEqual(
      Array.from(referenceTukeyRanges(values[0], 50, 3)),
    );
  });
});

describe("Monte Carlo p converges to the exact p of full enumeration", () => {
  /** |estimate - exact| within 4.5 standard errors of a proportion over B draws. */
  function expectConverged(estimate: number, exact: number, iterations: number) {
    const se = Math.sqrt((exact * (1 - exact)) / iterations) + 1 / iterations;
    expect(Math.abs(estimate - exact)).toBeLessThan(4.5 * se);
  }

  it("randomization: 2^n <= B is the exact enumeration; above, B random flips approach it", () => {
    const x = column(11, 16, 0.1);
    const y = column(12, 16, 0.1);
    const d = x.map((v, i) => v - y[i]);
    let abs = 0;
    for (let i = 0; i < 16; i++) abs += Math.abs(x[i]) + Math.abs(y[i]);
    const exact = randomizationExact(d, tolerance(abs));
    expect(randomizationTests([y, x], 16, [{ baseline: 0, run: 1 }], 2 ** 16, 1)[0].p).toBe(exact);
    for (const iterations of [2000, 20_000, 200_000]) {
      expectConverged(randomizationTests([y, x], 16, [{ baseline: 0, run: 1 }], iterations, 5)[0].p, exact, iterations);
    }
    // n = 13 with the default B: exact (2^13 <= 10,000), a multiple of 1 / 2^13.
    const [x13, y13, d13] = [x.subarray(0, 13), y.subarray(0, 13), d.subarray(0, 13)];
    let abs13 = 0;
    for (let i = 0; i < 13; i++) abs13 += Math.abs(x13[i]) + Math.abs(y13[i]);
    const p13 = randomizationTests([y13, x13], 13, [{ baseline: 0, run: 1 }], 10_000, 1)[0].p;
    expect(p13).toBe(randomizationExact(d13, tolerance(abs13)));
    expect(Number.isInteger(p13 * 2 ** 13)).toBe(true);
  });

  it("tukey: 3 runs x 5 queries, all 6^5 permutation sets", () => {
    const runs = [
      Float64Array.from([0.2, 0.5, 0.1, 0.9, 0.4]),
      Float64Array.from([0.3, 0.7, 0.1, 0.8, 0.6]),
      Float64Array.from([0.6, 0.9, 0.4, 0.9, 0.7]),
    ];
    const perms = [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ];
    const sumsOf = (r: number) => runs[r].reduce((a, b) => a + b, 0);
    const pairs = [
      { baseline: 0, run: 1 },
      { baseline: 0, run: 2 },
      { baseline: 1, run: 2 },
    ];
    const hits = pairs.map(() => 0);
    const total = 6 ** 5;
    for (let code = 0; code < total; code++) {
      const s = [0, 0, 0];
      let c = code;
      for (let q = 0; q < 5; q++) {
        const p = perms[c % 6];
        c = Math.floor(c / 6);
        for (let r = 0; r < 3; r++) s[r] += runs[p[r]][q];
      }
      const range = Math.max(...s) - Math.min(...s);
      pairs.forEach(({ baseline, run }, i) => {
        if (range >= Math.abs(sumsOf(run) - sumsOf(baseline)) - 1e-12) hits[i]++;
      });
    }
    for (const iterations of [2000, 50_000]) {
      const got = tukeyTests([runs], 5, pairs, iterations, 8)[0];
      pairs.forEach((_, i) => expectConverged(got[i].p, hits[i] / total, iterations));
    }
  });

  it("bootstrap: 6 queries, all 6^6 resamples", () => {
    const x = Float64Array.from([0.5, 0.2, 0.9, 0.4, 0.7, 0.3]);
    const y = Float64Array.from([0.3, 0.3, 0.5, 0.1, 0.6, 0.4]);
    const d = x.map((v, i) => v - y[i]);
    const mean = d.reduce((a, b) => a + b, 0) / 6;
    let hits = 0;
    const total = 6 ** 6;
    for (let code = 0; code < total; code++) {
      let s = 0;
      let c = code;
      for (let k = 0; k < 6; k++) {
        s += d[c % 6];
        c = Math.floor(c / 6);
      }
      if (Math.abs(s / 6 - mean) >= Math.abs(mean) - 1e-12) hits++;
    }
    for (const iterations of [2000, 50_000]) {
      expectConverged(
        bootstrapTests([y, x], 6, [{ baseline: 0, run: 1 }], iterations, 4)[0].p,
        hits / total,
        iterations,
      );
    }
  });
});

describe("the iterations can be split", () => {
  it("iterations 0..B-1 in two calls are the one call's, for every kernel entry point", () => {
    const columns = [column(1, 300, 0.1), column(2, 300), column(3, 300)];
    const join = (a: Float64Array[], b: Float64Array[]) => a.map((x, i) => [...x, ...b[i]]);
    const whole = (xs: Float64Array[]) => xs.map((x) => [...x]);
    expect(
      join(kernelRandomizationSums(columns, 300, 70, 9), kernelRandomizationSums(columns, 300, 50, 9, 70)),
    ).toEqual(whole(kernelRandomizationSums(columns, 300, 120, 9)));
    expect(join(kernelBootstrapSums(columns, 300, 70, 9), kernelBootstrapSums(columns, 300, 50, 9, 70))).toEqual(
      whole(kernelBootstrapSums(columns, 300, 120, 9)),
    );
    const values = [columns, [column(4, 300), column(5, 300), column(6, 300)]];
    expect(join(kernelTukeyRanges(values, 300, 70, 9), kernelTukeyRanges(values, 300, 50, 9, 70))).toEqual(
      whole(kernelTukeyRanges(values, 300, 120, 9)),
    );
  });

  it("tukey with more than 8 measures (in passes of four vectors) and more than 16 runs", () => {
    const values = Array.from({ length: 10 }, (_, s) =>
      Array.from({ length: 5 }, (_, r) => column(s * 10 + r, 40, s % 3 ? 0 : 0.1)),
    );
    const ranges = kernelTukeyRanges(values, 40, 60, 2);
    values.forEach((runs, s) => expect(Array.from(ranges[s])).toEqual(Array.from(referenceTukeyRanges(runs, 60, 2))));
    const many = [Array.from({ length: 18 }, (_, r) => column(r, 12))];
    expect(Array.from(kernelTukeyRanges(many, 12, 40, 5)[0])).toEqual(Array.from(referenceTukeyRanges(many[0], 40, 5)));
  });
});
