// log, log2 and exp as glibc rounds them (src/trec/cmath.ts), where V8's Math functions differ.
import { describe, expect, it } from "vitest";
import { exp, log, log2 } from "../../src/trec/cmath.js";

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
    const inputs = [1, 2, 3, 1 / 3, 0.5, 1e-5, 0.75, 1375, 1621, 2 ** 52 + 1, 1e300, 2.2250738585072014e-308, 0, -1, NaN, Infinity, 699.9, -699.9];
    for (let i = 0; i < 100_000; i++) inputs.push(next() * 2 ** Math.floor(next() * 200 - 100), next(), 1 + next() * 1e-9, (next() - 0.5) * 1400, Math.floor(next() * 100_000) + 1);
    const differ: string[] = [];
    for (const x of inputs) {
      if (!Object.is(log(x), pairs.log(x))) differ.push(`log(${x})`);
      if (!Object.is(log2(x), pairs.log2(x))) differ.push(`log2(${x})`);
      if (!Object.is(exp(x), pairs.exp(x))) differ.push(`exp(${x})`);
    }
    expect(differ).toEqual([]);
  });
});
