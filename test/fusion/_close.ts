// The fusion fixtures' comparison: ranx's numbers (made by test/fusion/make-ranx-learned-fixtures.py) to 1e-9.
import { expect } from "vitest";

/** Every number of `actual` within 1e-9 of `expected`'s, in the same shape (arrays, objects with the same keys). */
export function close(actual: unknown, expected: unknown, at = ""): void {
  if (typeof expected === "number") {
    expect(typeof actual, at).toBe("number");
    expect(Math.abs((actual as number) - expected), `${at}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9);
    return;
  }
  if (Array.isArray(expected)) {
    expect(Array.from(actual as ArrayLike<unknown>).length, at).toBe(expected.length);
    expected.forEach((e, i) => close((actual as ArrayLike<unknown>)[i], e, `${at}[${i}]`));
    return;
  }
  const keys = Object.keys(expected as object).sort();
  expect(Object.keys(actual as object).sort(), at).toEqual(keys);
  for (const k of keys)
    close((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k], `${at}.${k}`);
}
