import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareBytes, sortQids } from "../../src/c/strings.js";
import { formatFixed, formatFixedExact, formatLong, signBit } from "../../src/c/printf.js";
import { fixed, formatFixed4, formatLine, formatTrecFixed, padName, signed } from "../../src/trec/format.js";
import { haveGolden, readGolden, splitLine } from "./_shared.js";
import { runs } from "../_seed.js";

// Expected strings are glibc's printf("%6.4f"); the comment gives the double's exact decimal value
// where the rounding is the point.
const CASES: [number, string][] = [
  [0, "0.0000"],
  [-0, "-0.0000"],
  [1, "1.0000"],
  [0.5, "0.5000"],
  [0.1, "0.1000"],
  [0.3, "0.3000"],
  [1 / 3, "0.3333"],
  [2 / 3, "0.6667"],
  [0.00005, "0.0001"], // 0.0000500000000000000023960868... above the half
  [0.00015, "0.0001"], // 0.0001499999999999999868594696... below the half
  [0.00025, "0.0003"], // 0.0002500000000000000052041704... above
  [0.00075, "0.0008"], // 0.0007500000000000000156125112... above
  [2.5e-5, "0.0000"], // 0.0000250000000000000011980434... rounds down at 4 places anyway
  [0.12345, "0.1235"], // 0.1234500000000000041744385725... above
  [0.12355, "0.1235"], // 0.1235499999999999931610261683... below (toFixed agrees: not a tie)
  [0.33335, "0.3333"], // 0.3333499999999999796607141888... below
  [1.00005, "1.0001"], // 1.0000500000000001055155962603... above
  [0.99995, "1.0000"], // 0.9999500000000000055067062021... above, carries into the units
  [0.99985, "0.9999"], // 0.9998500000000000165201186064... above
  [123.45675, "123.4567"], // 123.456749999999999545252649113... below
  [123456.78905, "123456.7891"], // 123456.789050000006682239472866... above
  // Exact ties (odd multiples of 1/32): glibc goes to the even digit, toFixed away from zero.
  [0.03125, "0.0312"],
  [-0.03125, "-0.0312"],
  [0.09375, "0.0938"],
  [0.15625, "0.1562"],
  [0.46875, "0.4688"],
  [0.0859375, "0.0859"], // 11/128: exact, 0.08593|75 is not a tie
  [-0.00001, "-0.0000"],
  [-0.00004, "-0.0000"],
  [-287, "-287.0000"],
  [-412.66666666666669, "-412.6667"],
  [1234567, "1234567.0000"],
  [5e-324, "0.0000"],
  [1e20, "100000000000000000000.0000"],
  [1e21, "1000000000000000000000.0000"],
  [1e22, "10000000000000000000000.0000"],
  [2 ** 70, "1180591620717411303424.0000"],
  [Infinity, "   inf"],
  [-Infinity, "  -inf"],
  [NaN, "   nan"],
];

describe("formatFixed4 (%6.4f as glibc prints it)", () => {
  it.each(CASES)("%s -> %s", (x, want) => {
    expect(formatFixed4(x)).toBe(want);
    expect(formatFixedExact(x, 4, 6)).toBe(want);
  });

  it("right-aligns in 6 columns", () => {
    expect(formatFixed(0.5, 2, 6)).toBe("  0.50");
    expect(formatFixed4(-0.5)).toBe("-0.5000");
  });

  it("prints a NaN with its sign bit set as -nan (x86's 0/0)", () => {
    const neg = new Float64Array(1);
    new Uint32Array(neg.buffer)[1] = 0xfff80000; // little-endian high word: the default x86 NaN
    if (Number.isNaN(neg[0]) && signBit(neg[0])) expect(formatFixed4(neg[0])).toBe("  -nan");
    expect(signBit(-0)).toBe(true);
    expect(signBit(0)).toBe(false);
  });

  it("rounds %3.2f as glibc (trec_eval's iprec_at_recall and Rprec_mult names)", () => {
    expect(formatFixed(0.125, 2, 3)).toBe("0.12"); // tie to even
    expect(formatFixed(0.375, 2, 3)).toBe("0.38");
    expect(formatFixed(0.35, 2, 3)).toBe("0.35");
    expect(formatFixed(5, 2, 3)).toBe("5.00");
    expect(formatFixed(0, 2, 3)).toBe("0.00");
  });

  it("the toFixed fast path agrees with the exact BigInt path on random doubles", () => {
    let seed = 12345;
    const rand = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const bits = new Float64Array(1);
    const words = new Uint32Array(bits.buffer);
    for (let i = 0; i < 20000; i++) {
      let x: number;
      switch (i % 4) {
        case 0: // near 4-place ties: k/20000 and k/32 neighbourhoods
          x = Math.floor(rand() * 200000) / 20000;
          break;
        case 1:
          x = (Math.floor(rand() * 4000) - 2000) / 32;
          break;
        case 2: // any bit pattern
          words[0] = (rand() * 2 ** 32) >>> 0;
          words[1] = (rand() * 2 ** 32) >>> 0;
          x = bits[0];
          break;
        default:
          x = (rand() - 0.5) * 10 ** Math.floor(rand() * 30 - 8);
      }
      for (const d of [2, 4]) expect(formatFixed(x, d, 6)).toBe(formatFixedExact(x, d, 6));
    }
  });
});

// What every readable output prints (tables, comparisons, the report, the page). Expected strings are
// C's printf("%.*f") of the double, checked with gcc/glibc and with python's '%.*f' % x (both round
// the exact binary value, ties to even); toFixed differs on the ties (0.28125 -> "0.2813").
describe("fixed and signed (%.Df of the exact double, the readable outputs' numbers)", () => {
  it.each([
    [0.28125, 4, "0.2812"], // a mean of four P.8 values (9/32), an exact tie: to even
    [-0.28125, 4, "-0.2812"],
    [0.03125, 4, "0.0312"],
    [0.46875, 4, "0.4688"],
    [0.00005, 4, "0.0001"], // 0.0000500000000000000023960868...: not a tie, above it
    [-0.00005, 4, "-0.0001"],
    [0.00015, 4, "0.0001"], // 0.0001499999999999999868594696...: below
    [0.125, 2, "0.12"],
    [0.375, 2, "0.38"],
    [0.25, 1, "0.2"], // a relative change's one decimal: ties to even too
    [0.35, 1, "0.3"], // 0.34999999999999997779...
    [0.45, 1, "0.5"], // 0.45000000000000001110...
    [-88.88888888888889, 1, "-88.9"],
    [1e21, 4, "1000000000000000000000.0000"], // toFixed switches to exponents from 1e21
    [-1e21, 4, "-1000000000000000000000.0000"],
    [1e22, 2, "10000000000000000000000.00"],
    [-0, 4, "-0.0000"], // toFixed drops the sign
    [0, 4, "0.0000"],
    [Infinity, 4, "inf"],
    [-Infinity, 2, "-inf"],
    [NaN, 4, "NaN"],
  ])("fixed(%s, %s) is %s", (x, digits, want) => {
    expect(fixed(x, digits)).toBe(want);
  });

  it("puts + before a positive finite value only", () => {
    expect(signed(0.28125)).toBe("+0.2812");
    expect(signed(0.00005)).toBe("+0.0001");
    expect(signed(-0.28125)).toBe("-0.2812");
    expect(signed(12.25, 1)).toBe("+12.2");
    expect(signed(0)).toBe("0.0000");
    expect(signed(-0)).toBe("-0.0000");
    expect(signed(Infinity)).toBe("inf");
    expect(signed(-Infinity)).toBe("-inf");
    expect(signed(NaN)).toBe("NaN");
  });

  it("spells trec_eval's and ndeval's NaN -nan, whatever its sign bit", () => {
    expect(formatTrecFixed(NaN, 4, 6)).toBe("  -nan");
    expect(formatTrecFixed(-NaN, 6)).toBe("-nan");
    expect(formatTrecFixed(0.28125, 4)).toBe("0.2812");
    expect(formatTrecFixed(1 / 3, 6)).toBe("0.333333");
    expect(formatTrecFixed(Infinity, 4, 6)).toBe("   inf");
  });
});

describe("formatLong (%ld of a (long) cast)", () => {
  it("truncates toward zero", () => {
    expect(formatLong(1500)).toBe("1500");
    expect(formatLong(2.9)).toBe("2");
    expect(formatLong(-2.9)).toBe("-2");
    expect(formatLong(-0.5)).toBe("0");
    expect(formatLong(-0)).toBe("0");
    expect(formatLong(2 ** 60)).toBe("1152921504606846976");
  });
  it("gives x86-64's LONG_MIN outside the range and for NaN", () => {
    expect(formatLong(NaN)).toBe("-9223372036854775808");
    expect(formatLong(1e19)).toBe("-9223372036854775808");
  });
});

describe("formatLine", () => {
  it("pads the name to 22, then TAB qid TAB value", () => {
    expect(formatLine("map", "301", 0.0324, "float")).toBe("map                   \t301\t0.0324\n");
    expect(formatLine("num_ret", "all", 1500, "long")).toBe("num_ret               \tall\t1500\n");
    expect(formatLine("runid", "all", "STANDARD", "string")).toBe("runid                 \tall\tSTANDARD\n");
    expect(formatLine("relstring", "301", "0000011000", "quoted")).toBe("relstring             \t301\t'0000011000'\n");
    expect(formatLine("num_nonrel_judged_ret", "all", 607, "long")).toBe("num_nonrel_judged_ret \tall\t607\n");
    expect(padName("a_name_longer_than_22_chars")).toBe("a_name_longer_than_22_chars");
  });
});

describe("sortQids (strcmp byte order)", () => {
  it("orders digits as bytes, not numbers", () => {
    expect(sortQids(["9", "100", "10", "1"])).toEqual(["1", "10", "100", "9"]);
    expect(sortQids(["b", "B", "a", "A", "_"])).toEqual(["A", "B", "_", "a", "b"]);
  });
  it("compares UTF-8 bytes, not UTF-16 code units", () => {
    // U+FF21 (EF BC A1) sorts before U+1F600 (F0 9F 98 80) in UTF-8, after it in UTF-16.
    expect(sortQids(["\u{1F600}", "\uFF21"])).toEqual(["\uFF21", "\u{1F600}"]);
    expect(compareBytes("é", "z")).toBeGreaterThan(0);
    expect(compareBytes("ab", "abc")).toBeLessThan(0);
    expect(compareBytes("x", "x")).toBe(0);
  });
  it("equals a sort by compareBytes on random ids, with and without characters past U+FFFF", () => {
    const chars = ["a", "b", "Z", "0", "9", "_", "é", "\u00ff", "\uFF21", "\uE000", "\u{1F600}", "\u{10000}"];
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.constantFrom(...chars), { maxLength: 4 }).map((c) => c.join("")),
          { maxLength: 30 },
        ),
        (qids) => {
          const want = [...qids].sort(compareBytes);
          expect(sortQids(qids)).toEqual(want);
          const bmp = qids.map((q) => q.replace(/[\uD800-\uDFFF]/g, "x"));
          expect(sortQids(bmp)).toEqual([...bmp].sort(compareBytes));
        },
      ),
      { numRuns: runs(500) },
    );
  });
  it("does not change its input", () => {
    const q = ["2", "1"];
    sortQids(q);
    expect(q).toEqual(["2", "1"]);
  });
});

describe.skipIf(!haveGolden("out.test.a", "out.test.aq", "out.test.aql", "out.test.meas_params"))(
  "golden value lines re-format to themselves",
  () => {
    it.each(["out.test.a", "out.test.aq", "out.test.aql", "out.test.meas_params"])("%s", (file) => {
      const lines = readGolden(file)
        .split("\n")
        .filter((l) => l !== "");
      let floats = 0;
      for (const line of lines) {
        const { name, qid, value } = splitLine(line);
        let print: "float" | "long" | "string" | "quoted";
        if (name === "runid") print = "string";
        else if (name.startsWith("relstring")) print = "quoted";
        else if (/^-?\d+$/.test(value)) print = "long";
        else print = "float";
        const parsed = print === "quoted" ? value.slice(1, -1) : print === "string" ? value : Number(value);
        if (print === "float") floats++;
        expect(formatLine(name, qid, parsed, print)).toBe(`${line}\n`);
      }
      expect(floats).toBeGreaterThan(50);
    });
  },
);
