// Hostile calls of fuse() and normalize(), against the built package: each must throw a RankevalError that
// names the argument and what was expected (never a TypeError, a hang, or a value), and a document or
// query named "__proto__" must come back as an own key, not a prototype.
import { describe, expect, it } from "vitest";
import { type ErrorCase, hostile, wrongErrors } from "./_call.js";

const CASES: readonly ErrorCase[] = [
  {
    call: "rankeval.fuse(two)",
    code: "bad-option",
    says: /fuse: options must be an object \{ method, norm, params \}/,
  },
  { call: "rankeval.fuse(two, {})", code: "bad-option", says: /fuse: option method is missing/ },
  { call: "rankeval.fuse(two, { method: 7 })", code: "bad-option", says: /method must be one of rrf, .*not 7/ },
  { call: "rankeval.fuse(two, { method: 'wsun' })", code: "bad-option", says: /not "wsun" \(did you mean wsum/ },
  { call: "rankeval.fuse(two, { method: 'rrf', norm: 'l2' })", code: "bad-option", says: /fuse: norm must be one of/ },
  { call: "rankeval.fuse(two, { method: 'rrf', nrom: 'max' })", code: "bad-option", says: /unknown option "nrom"/ },
  { call: "rankeval.fuse(two, { method: 'rrf', params: [60] })", code: "bad-option", says: /params: options must be/ },
  { call: "rankeval.fuse(two, { method: 'rrf', params: { k: '60' } })", code: "bad-option", says: /k must be/ },
  { call: "rankeval.fuse(two, { method: 'rrf', params: { k: NaN } })", code: "bad-option", says: /k must be/ },
  {
    call: "rankeval.fuse(two, { method: 'wsum', params: { weights: [1, 'x'] } })",
    code: "bad-option",
    says: /weights must be an array of finite numbers, one per run/,
  },
  {
    call: "rankeval.fuse(two, { method: 'mixed', params: { weights: [1, 2, 3] } })",
    code: "bad-option",
    says: /weights must have one weight per run \(2\)/,
  },
  { call: "rankeval.fuse(two, { method: 'rbc', params: { phi: 1.5 } })", code: "bad-option", says: /phi must be/ },
  { call: "rankeval.fuse(r, { method: 'rrf' })", code: "bad-option", says: /runs must be an array of runs/ },
  { call: "rankeval.fuse([], { method: 'rrf' })", code: "bad-option", says: /at least 2 runs/ },
  { call: "rankeval.fuse([r, null], { method: 'rrf' })", code: "bad-input", says: /runs\[1\] must be \{ qid/ },
  { call: "rankeval.fuse([r, { q1: [1] }], { method: 'rrf' })", code: "bad-input", says: /runs\[1\]\["q1"\] must be/ },
  {
    call: "rankeval.fuse([r, { q1: { d1: Infinity } }], { method: 'sum' })",
    code: "bad-input",
    says: /runs\[1\]\["q1"\]\["d1"\] is Infinity, not a finite number/,
  },
  { call: "rankeval.normalize(r, 'minmax')", code: "bad-option", says: /normalize: norm must be one of min-max/ },
  { call: "rankeval.normalize(null, 'max')", code: "bad-input", says: /normalize: run must be/ },
];

describe("fuse and normalize, hostile calls", () => {
  it("throw RankevalErrors naming the argument", async () => {
    const setup = `
      const r = { q1: { d1: 1, d2: 0.5 } };
      const two = [r, { q1: { d2: 3 } }];`;
    expect(await wrongErrors(setup, CASES)).toEqual([]);
  });

  it('keeps "__proto__" as a query and a document id', async () => {
    const o = await hostile(`
      const run = JSON.parse('{"__proto__": {"__proto__": 2, "d": 1}}');
      const f = rankeval.fuse([run, run], { method: "sum" });
      const n = rankeval.normalize(run, "max");
      return [Object.keys(f), Object.keys(f["__proto__"]), Object.getPrototypeOf(f) === Object.prototype, n["__proto__"]["__proto__"]];
    `);
    expect(o.kind, o.error?.message).toBe("returned");
    expect(o.value).toEqual([["__proto__"], ["__proto__", "d"], true, 1]);
  });
});
