// Hostile calls of rbo and systemCorrelation (the built package): shapes read as something else, scores
// that are no order, options misspelled or out of range, ids that are Object's own names; and sizes
// that a quadratic slip would hang on. Each bad call throws a RankevalError naming the argument.
import { describe, expect, it } from "vitest";
import { type ErrorCase, hostile, wrongErrors } from "./_call.js";

const CASES: readonly ErrorCase[] = [
  {
    call: "rankeval.rbo(null, r)",
    code: "bad-input",
    says: /^rbo: runA must be \{ qid: \{ docid: score \} \}, not null$/,
  },
  { call: "rankeval.rbo(r, new Map())", code: "bad-input", says: /^rbo: runB must be .*not a Map$/ },
  {
    call: 'rankeval.rbo(r, { q1: ["d1"] })',
    code: "bad-input",
    says: /runB\["q1"\] must be an object of docid: score, not an array/,
  },
  {
    call: 'rankeval.rbo(r, { q1: { d1: "1" } })',
    code: "bad-input",
    says: /runB\["q1"\]\["d1"\]: score "1" is not a finite number/,
  },
  {
    call: "rankeval.rbo(r, { q1: { d1: Infinity } })",
    code: "bad-input",
    says: /score Infinity is not a finite number/,
  },
  { call: "rankeval.rbo(r, { q1: { d1: 1n } })", code: "bad-input", says: /score 1n is not a finite number/ },
  { call: "rankeval.rbo(r, r, 0.9)", code: "bad-option", says: /^rbo: options must be an object \{ p \}, not 0.9$/ },
  {
    call: 'rankeval.rbo(r, r, { p: "0.9" })',
    code: "bad-option",
    says: /^rbo: p must be a number between 0 and 1, not "0.9"$/,
  },
  {
    call: "rankeval.rbo(r, r, { p: 1 })",
    code: "bad-option",
    says: /^rbo: p must be a number between 0 and 1, not 1$/,
  },
  { call: "rankeval.rbo(r, r, { persistence: 0.9 })", code: "bad-option", says: /^rbo: unknown option "persistence"/ },
  { call: "rankeval.rbo({}, {})", code: "bad-input", says: /no query to compare/ },
  { call: "rankeval.rbo(r, { Q1: { d1: 1 } })", code: "bad-input", says: /no query in common/ },
  {
    call: "rankeval.systemCorrelation(undefined, {})",
    code: "bad-input",
    says: /^systemCorrelation: a must be \{ system: score \}, not undefined$/,
  },
  {
    call: "rankeval.systemCorrelation({ a: 1, b: 2 }, [1, 2])",
    code: "bad-input",
    says: /b must be \{ system: score \}, not an array/,
  },
  {
    call: "rankeval.systemCorrelation({ a: 1, b: 2 }, { a: 1, b: null })",
    code: "bad-input",
    says: /b\["b"\] = null is not a finite number/,
  },
  {
    call: "rankeval.systemCorrelation({ a: 1, b: 2 }, { a: 1 })",
    code: "bad-input",
    says: /must score the same systems; b lacks "b"$/,
  },
  { call: "rankeval.systemCorrelation({}, {})", code: "bad-input", says: /at least 2 systems, not 0/ },
];

describe("hostile calls of rbo and systemCorrelation", () => {
  it("each throws a RankevalError that names the argument and what it must be", async () => {
    const setup = `
      const r = { q1: { d1: 0.5, d2: 0.2 } };`;
    expect(await wrongErrors(setup, CASES, { ms: 30_000 })).toEqual([]);
  });

  it("reads Object's own names as ids (__proto__, constructor) and ranks them as any other", async () => {
    const o = await hostile(`
      const a = JSON.parse('{"__proto__": {"__proto__": 3, "constructor": 2, "x": 1}}');
      const b = JSON.parse('{"__proto__": {"constructor": 3, "__proto__": 2, "x": 1}, "toString": {"d": 1}}');
      const r = rankeval.rbo(a, b);
      const c = rankeval.systemCorrelation(JSON.parse('{"__proto__": 1, "hasOwnProperty": 2}'), JSON.parse('{"hasOwnProperty": 1, "__proto__": 2}'));
      return { qids: r.qids, values: [...r.values], tau: c.tau, tauAP: c.tauAP };`);
    expect(o.kind, o.error?.message).toBe("returned");
    // __proto__: A = 0, 1, 1 (its first two swapped): 0.1 (0.9 + 0.81) + 0.729 = 0.9.
    const v = o.value as { qids: string[]; values: number[]; tau: number; tauAP: number };
    expect(v.qids).toEqual(["__proto__", "toString"]);
    expect(v.values[0]).toBeCloseTo(0.9, 12);
    expect(v.values[1]).toBe(0);
    expect([v.tau, v.tauAP]).toEqual([-1, -1]);
  });

  it("takes a query of 200,000 documents and 3,000 systems in bounded time", async () => {
    const o = await hostile(
      `
      const a = {}, b = {};
      for (let i = 0; i < 200000; i++) { a["d" + i] = i % 1000; b["d" + (i * 7) % 200000] = -i; }
      const started = Date.now();
      const r = rankeval.rbo({ q: a }, { q: b });
      const x = {}, y = {};
      for (let i = 0; i < 3000; i++) { x["s" + i] = i; y["s" + i] = (i * 37) % 3000; }
      const c = rankeval.systemCorrelation(x, y);
      return { rbo: r.mean, tau: c.tau, ms: Date.now() - started };`,
      { ms: 60_000 },
    );
    expect(o.kind, o.why ?? o.error?.message).toBe("returned");
    const v = o.value as { rbo: number; tau: number; ms: number };
    expect(v.rbo).toBeGreaterThanOrEqual(0);
    expect(v.rbo).toBeLessThanOrEqual(1);
    expect(Number.isFinite(v.tau)).toBe(true);
    expect(v.ms).toBeLessThan(20_000);
  });
});
