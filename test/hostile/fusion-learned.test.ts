// Hostile calls of optimizeFusion and of the learned methods' train and fuse, against the built package:
// each must throw a RankevalError that names the argument and what was expected (never a TypeError, a
// hang, or a value); ids named "__proto__" come back as own keys.
import { describe, expect, it } from "vitest";
import { type ErrorCase, hostile, wrongErrors } from "./_call.js";

const CASES: readonly ErrorCase[] = [
  {
    call: "rankeval.optimizeFusion(qrels, two, 7)",
    code: "bad-option",
    says: /optimizeFusion: options must be an object/,
  },
  {
    call: "rankeval.optimizeFusion(qrels, two, { method: 'wsun' })",
    code: "bad-option",
    says: /method must be one ranx optimises \(wsum, .*not "wsun"/,
  },
  {
    call: "rankeval.optimizeFusion(qrels, two, { method: 'toString' })",
    code: "bad-option",
    says: /method must be one ranx optimises .*not "toString"/,
  },
  {
    call: "rankeval.optimizeFusion(qrels, two, { step: 1e-9 })",
    code: "bad-option",
    says: /the grid has \d+ values from 0 .*more than 1,000,000 candidates; a larger step/,
  },
  {
    call: "rankeval.optimizeFusion(qrels, [r, r, r, r, r, r, r, r, r], { step: 0.05 })",
    code: "bad-option",
    says: /the grid has 21\^9 tuples of weights \(step 0.05\)/,
  },
  {
    call: "rankeval.optimizeFusion(qrels, two, { method: 'rrf', max_k: 1e12 })",
    code: "bad-option",
    says: /the grid has k from 10 to 1000000000000 by 10/,
  },
  { call: "rankeval.optimizeFusion(qrels, two, { stpe: 0.1 })", code: "bad-option", says: /unknown option "stpe"/ },
  { call: "rankeval.optimizeFusion(qrels, two, { step: 0 })", code: "bad-option", says: /step must be > 0, not 0/ },
  { call: "rankeval.optimizeFusion(qrels, two, { step: '0.1' })", code: "bad-option", says: /step must be a finite/ },
  {
    call: "rankeval.optimizeFusion(qrels, two, { method: 'rrf', min_k: 1.5 })",
    code: "bad-option",
    says: /min_k must be an integer, not 1.5/,
  },
  {
    call: "rankeval.optimizeFusion(qrels, two, { method: 'wsum', max_w: 3 })",
    code: "bad-option",
    says: /wsum takes no option max_w \(its options: step\)/,
  },
  { call: "rankeval.optimizeFusion(qrels, two, { norm: 'l2' })", code: "bad-option", says: /norm must be one of/ },
  { call: "rankeval.optimizeFusion(qrels, two, { metric: 'ndgc@10' })", code: "bad-measure", says: /ndgc/ },
  { call: "rankeval.optimizeFusion(qrels, two, { gain: 'cubic' })", code: "bad-option", says: /gain must be/ },
  { call: "rankeval.optimizeFusion(qrels, [r])", code: "bad-option", says: /runs must be an array of at least two/ },
  { call: "rankeval.optimizeFusion(null, two)", code: "bad-option", says: /qrels must be \{ qid/ },
  {
    call: "rankeval.optimizeFusion(qrels, [r, { q2: { d1: 1 } }])",
    code: "bad-option",
    says: /runs\[1\] and qrels have different queries \(query "q1"/,
  },
  {
    call: "rankeval.optimizeFusion(qrels, [r, { q1: { d1: 'x' } }])",
    code: "bad-input",
    says: /runs\[1\]\["q1"\]\["d1"\] is "x", not a finite number/,
  },
  { call: "rankeval.optimizeFusion(qrels, two, {}, {})", code: "bad-option", says: /report must be an array/ },
  {
    call: "rankeval.LEARNED_METHODS.probfuse.train(qrels, two, {})",
    code: "bad-option",
    says: /probfuse: n_segments must be an integer >= 1 and <= 1000000, not undefined/,
  },
  {
    call: "rankeval.LEARNED_METHODS.probfuse.train(qrels, two, { n_segments: 1e12 })",
    code: "bad-option",
    says: /probfuse: n_segments must be an integer >= 1 and <= 1000000, not 1000000000000/,
  },
  {
    call: "rankeval.LEARNED_METHODS.probfuse.train(qrels, two, { n_segment: 3 })",
    code: "bad-option",
    says: /probfuse: unknown option "n_segment" \(probfuse takes n_segments\)/,
  },
  {
    call: "rankeval.LEARNED_METHODS.posfuse.train({ q9: { d1: 1 } }, two, {})",
    code: "bad-input",
    says: /posfuse: runs\[0\] and qrels have different queries/,
  },
  { call: "rankeval.LEARNED_METHODS.posfuse.train([], two, {})", code: "bad-input", says: /qrels must be \{ qid/ },
  {
    call: "rankeval.LEARNED_METHODS.mapfuse.train({ q1: { d1: 'rel' } }, two, {})",
    code: "bad-input",
    says: /qrels\["q1"\]\["d1"\] must be a finite number, not "rel"/,
  },
  {
    call: "rankeval.LEARNED_METHODS.posfuse.fuse(two, { probs: [[1]] })",
    code: "bad-option",
    says: /posfuse: params.probs must be 2 arrays of numbers/,
  },
  {
    call: "rankeval.LEARNED_METHODS.slidefuse.fuse(two, { probs: [[1], [1]], w: -1 })",
    code: "bad-option",
    says: /slidefuse: w must be an integer >= 0, not -1/,
  },
  {
    call: "rankeval.LEARNED_METHODS.mapfuse.fuse(two, { map_scores: [0.1, 0.2], weights: [1, 1] })",
    code: "bad-option",
    says: /mapfuse: unknown param "weights" \(mapfuse takes map_scores\)/,
  },
  {
    call: "rankeval.LEARNED_METHODS.mapfuse.fuse([r, { q2: { d1: 1 } }], { map_scores: [0.1, 0.2] })",
    code: "bad-input",
    says: /runs 0 and 1 have different queries/,
  },
  {
    call: "rankeval.LEARNED_METHODS.bayesfuse.fuse(two, { log_odds: [[0], [0]] })",
    code: "bad-input",
    says: /bayesfuse: query "q1" of runs\[0\] ranks 2 documents, past the 1 ranks its log odds cover/,
  },
  {
    call: "rankeval.fuse(two, { method: 'probfuse', params: { probs: 'x' } })",
    code: "bad-option",
    says: /probfuse: params.probs must be 2 arrays/,
  },
];

describe("optimizeFusion and the learned methods, hostile calls", () => {
  it("throw RankevalErrors naming the argument", async () => {
    const setup = `
      const r = { q1: { d1: 1, d2: 0.5 } };
      const two = [r, { q1: { d2: 3 } }];
      const qrels = { q1: { d1: 1, d2: 0 } };`;
    expect(await wrongErrors(setup, CASES)).toEqual([]);
  });

  it('keeps "__proto__" as a query and a document id in a learned fusion', async () => {
    const o = await hostile(`
      const run = JSON.parse('{"__proto__": {"__proto__": 2, "d": 1}}');
      const qrels = JSON.parse('{"__proto__": {"__proto__": 1}}');
      const params = rankeval.LEARNED_METHODS.posfuse.train(qrels, [run, run], {});
      const f = rankeval.fuse([run, run], { method: "posfuse", params });
      const best = rankeval.optimizeFusion(qrels, [run, run], { metric: "ndcg" });
      return [Object.keys(f), Object.keys(f["__proto__"]), f["__proto__"]["__proto__"], params.probs, best];
    `);
    expect(o.kind, o.error?.message).toBe("returned");
    expect(o.value).toEqual([
      ["__proto__"],
      ["__proto__", "d"],
      2,
      [
        [1, 0],
        [1, 0],
      ],
      { weights: [1, 0] },
    ]);
  });
});
