// log, log2 and exp as glibc rounds them (src/c/math.ts), where V8's Math functions differ.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exp, log, log2, log2Slow, logSlow } from "../../src/c/math.js";
import { runs } from "../_seed.js";

describe("glibc's log, log2 and exp", () => {
  // Pairs (x, f(x)) printed by glibc 2.36 (printf("%a") of log(x), log2(x), exp(x)), where V8 gives another double.
  it.each([
    [1.1536523929471032, 0.14293290342699447],
    [1.7134935304990757, 0.5385342867193735],
    [2.833147460051415, 1.0413882703414392],
    [1.0949656750572083, 0.09072301579741887],
  ])("log(%d) = %d", (x, want) => {
    expect(log(x)).toBe(want);
  });
  it.each([
    [-4.350352112676056, 0.012902268728183746],
    [-3.7020955321854427, 0.02467177177064164],
    [1.1263983259566128, 3.0845270088918437],
    [-4.541304347826087, 0.01065949379439896],
  ])("exp(%d) = %d", (x, want) => {
    expect(exp(x)).toBe(want);
  });
  it("log2 of trec_eval's discount ranks, exact at powers of two", () => {
    expect(log2(1375)).toBe(10.425215903299383); // Math.log2: 10.425215903299385
    // (At near-ties glibc, which guarantees 0.52 ulp, not correct rounding, may round the other way:
    // log2(1621) is 10.662668375517542 there, 10.66266837551754 correctly rounded.)
    for (let k = 0; k < 60; k++) expect(log2(2 ** k)).toBe(k);
  });
  it("cancels where glibc cancels: yaap's log(3) + log(1/3) is 0 (trec_eval prints 0.0000, not -0.0000)", () => {
    expect(log(3) + log(1 / 3)).toBe(0);
    expect(log(1)).toBe(0);
    expect(exp(0)).toBe(1);
  });
  it("leaves the edges to Math", () => {
    expect(log(0)).toBe(-Infinity);
    expect(log(-1)).toBeNaN();
    expect(exp(1000)).toBe(Infinity);
    expect(exp(-1000)).toBe(0);
  });
});

describe("the scalar double-double arithmetic", () => {
  it("gives the array-based version's doubles bit for bit (test/trec/cmath-pairs.ts)", async () => {
    const pairs = await import("./cmath-pairs.js");
    // Seeded (xorshift), over every exponent: the values trec_eval's logs and exps see, and far beyond.
    let state = 0x2545f491;
    const next = () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) / 2 ** 32;
    };
    const inputs = [
      1,
      2,
      3,
      1 / 3,
      0.5,
      1e-5,
      0.75,
      1375,
      1621,
      2 ** 52 + 1,
      1e300,
      2.2250738585072014e-308,
      0,
      -1,
      NaN,
      Infinity,
      699.9,
      -699.9,
    ];
    for (let i = 0; i < 100_000; i++)
      inputs.push(
        next() * 2 ** Math.floor(next() * 200 - 100),
        next(),
        1 + next() * 1e-9,
        (next() - 0.5) * 1400,
        Math.floor(next() * 100_000) + 1,
      );
    const differ: string[] = [];
    for (const x of inputs) {
      if (!Object.is(log(x), pairs.log(x))) differ.push(`log(${x})`);
      if (!Object.is(log2(x), pairs.log2(x))) differ.push(`log2(${x})`);
      if (!Object.is(exp(x), pairs.exp(x))) differ.push(`exp(${x})`);
    }
    expect(differ).toEqual([]);
  });
});

// The table-driven log (logDD: x = c (1 + r) 2^k, c on a grid of 256 points a unit, six terms of the
// series) against the series about 1 it replaced (logDDSlow, ~49 terms), kept as the reference: the
// same doubles for log and log2. Seeded (test/_seed.ts), so a failure replays; the inputs are the ones a reduction
// could get wrong: every exponent, the values trec_eval takes logs of, 1 and its neighbours, powers of
// two, the grid points and the boundaries between them (where the nearest point changes), sqrt(2).
describe("the table-driven log equals the slow double-double series (logSlow, log2Slow)", () => {
  const RUNS = runs(20_000);
  const MIN_NORMAL = 2.2250738585072014e-308;
  const bits = new Float64Array(1);
  const ints = new BigInt64Array(bits.buffer);
  /** The double n steps of one ulp away from x (n may be negative; x positive). */
  const stepUlps = (x: number, n: number) => {
    bits[0] = x;
    ints[0] += BigInt(n);
    return bits[0];
  };
  const same = (x: number) => {
    if (!Object.is(log(x), logSlow(x))) throw new Error(`log(${x}) = ${log(x)}, the slow series ${logSlow(x)}`);
    if (!Object.is(log2(x), log2Slow(x))) throw new Error(`log2(${x}) = ${log2(x)}, the slow series ${log2Slow(x)}`);
  };
  const check = (inputs: fc.Arbitrary<number>) => fc.assert(fc.property(inputs, same), { numRuns: RUNS });
  const ulps = fc.integer({ min: -4, max: 4 });
  const exponent = fc.integer({ min: -1022, max: 1023 });

  it("on doubles over the whole positive normal range", () => {
    check(fc.double({ min: MIN_NORMAL, max: Number.MAX_VALUE, noNaN: true }));
  });

  it("on values in (0, 1] like average precisions: ratios i/j of small integers, and means of them", () => {
    const ratio = fc.integer({ min: 1, max: 1000 }).chain((j) => fc.integer({ min: 1, max: j }).map((i) => i / j));
    check(ratio);
    check(fc.array(ratio, { minLength: 1, maxLength: 50 }).map((rs) => rs.reduce((a, b) => a + b, 0) / rs.length));
    check(
      fc
        .tuple(fc.array(ratio, { minLength: 1, maxLength: 50 }), fc.integer({ min: 1, max: 200 }))
        .map(([rs, rel]) => Math.min(1, rs.reduce((a, b) => a + b, 0) / (rs.length + rel))),
    );
  });

  it("near 1: 1 plus or minus a few ulps, and 1 plus or minus tiny amounts", () => {
    check(fc.integer({ min: -1000, max: 1000 }).map((n) => stepUlps(1, n)));
    check(
      fc
        .tuple(fc.double({ min: 2 ** -60, max: 2 ** -8, noNaN: true }), fc.boolean())
        .map(([d, up]) => (up ? 1 + d : 1 - d)),
    );
  });

  it("on powers of two and their neighbours", () => {
    check(
      fc.tuple(exponent, ulps).map(([e, n]) => Math.max(MIN_NORMAL, Math.min(Number.MAX_VALUE, stepUlps(2 ** e, n)))),
    );
    for (let e = -1022; e <= 1023; e++)
      for (let n = -2; n <= 2; n++) if (2 ** e > MIN_NORMAL || n >= 0) same(stepUlps(2 ** e, n));
    same(Number.MAX_VALUE); // Math.log2 rounds it to 1024, and 2^1024 is Infinity (the reduction's edge)
  });

  it("on the grid points c = 1 + j/256, the boundaries between them, sqrt(2), times powers of two, and their neighbours", () => {
    const grid = fc.integer({ min: -75 * 2, max: 106 * 2 + 1 }).map((h) => 1 + h / 512); // points and midpoints
    const edges = fc.constantFrom(Math.SQRT2, Math.SQRT1_2, 2 * Math.SQRT1_2, Math.SQRT2 / 2);
    const scaled = (m: fc.Arbitrary<number>) =>
      fc.tuple(m, fc.integer({ min: -1020, max: 1020 }), ulps).map(([c, e, n]) => stepUlps(c * 2 ** e, n));
    check(scaled(grid));
    check(scaled(edges));
    for (let h = -75 * 2; h <= 106 * 2 + 1; h++) for (let n = -3; n <= 3; n++) same(stepUlps(1 + h / 512, n));
  });
});
