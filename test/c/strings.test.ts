import { describe, expect, it } from "vitest";
import { atol, atolBytes, compareBytes } from "../../src/c/strings.js";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("atol on a string and on bytes", () => {
  const cases: [string, bigint][] = [
    ["23.4", 23n],
    ["  -7x", -7n],
    ["\t\n\v\f\r 5", 5n],
    ["+12", 12n],
    ["-0", 0n],
    ["+", 0n],
    ["-", 0n],
    ["", 0n],
    ["x", 0n],
    ["1e3", 1n],
    ["++1", 0n],
    ["- 1", 0n],
    ["123456789012345", 123456789012345n],
    ["1234567890123456", 1234567890123456n],
    ["9007199254740993", 9007199254740993n],
    ["9223372036854775807", 2n ** 63n - 1n],
    ["9223372036854775808", 2n ** 63n - 1n],
    ["99999999999999999999", 2n ** 63n - 1n],
    ["-9223372036854775808", -(2n ** 63n)],
    ["-99999999999999999999junk", -(2n ** 63n)],
    ["000000000000000000042", 42n],
  ];
  it.each(cases)("atol(%j)", (text, want) => {
    expect(atol(text)).toBe(want);
    const b = bytes(`#${text}#`);
    const v = atolBytes(b, 1, b.length - 1);
    expect(Object.is(v, Number(want))).toBe(true);
  });

  it("reads bytes only up to the end given", () => {
    const b = bytes("12345");
    expect(atolBytes(b, 0, 2)).toBe(12);
    expect(atolBytes(b, 2, 2)).toBe(0);
  });
});

describe("compareBytes", () => {
  it("is strcmp on UTF-8 bytes", () => {
    expect(["9", "100", "10", "é", "z", "\u{1F600}", "\uFFFD"].sort(compareBytes)).toEqual([
      "10",
      "100",
      "9",
      "z",
      "é",
      "\uFFFD",
      "\u{1F600}",
    ]);
  });
});
