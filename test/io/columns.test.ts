import { describe, expect, it } from "vitest";
import { Float64Column, Int32Column } from "../../src/io/index.js";

describe("columns", () => {
  it("return exactly the values pushed, across many blocks", () => {
    const a = new Int32Column();
    const f = new Float64Column();
    const n = 100_003;
    for (let i = 0; i < n; i++) {
      a.push(i * 7 - 5);
      f.push(i / 4);
    }
    expect(a.length).toBe(n);
    const ai = a.finish();
    const fi = f.finish();
    expect(ai).toBeInstanceOf(Int32Array);
    expect(fi).toBeInstanceOf(Float64Array);
    expect(ai.length).toBe(n);
    expect(fi.length).toBe(n);
    for (let i = 0; i < n; i += 1009) {
      expect(ai[i]).toBe(i * 7 - 5);
      expect(fi[i]).toBe(i / 4);
    }
    expect(ai[n - 1]).toBe((n - 1) * 7 - 5);
    expect(a.length).toBe(0);
    expect(a.finish().length).toBe(0);
  });

  it("appends many values at once across block boundaries", () => {
    const a = new Int32Column();
    const src = Int32Array.from({ length: 1000 }, (_, i) => i);
    const expected: number[] = [];
    for (let r = 0; r < 70; r++) {
      a.push(-r - 1);
      expected.push(-r - 1);
      a.pushMany(src, 300 + r);
      for (let i = 0; i < 300 + r; i++) expected.push(i);
    }
    expect(Array.from(a.finish())).toEqual(expected);
  });
});
