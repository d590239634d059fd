// Hostile calls at the limits of the numbers and the memory: gains and per-query values whose sums
// would overflow (refused, never a silent NaN or a p of 0), and a comparison past the kernel's 4 GiB.
import { describe, expect, it } from "vitest";
import { thrown } from "./_call.js";

describe("hostile calls: overflowing numbers and memory", () => {
  it("refuses a label whose exp gain is infinite, naming query and label, in evaluate and the reference", async () => {
    const rows = "{ qid: ['a', 'b', 'b'], score: [1, 2, 1], rel: [1, 1024, 1] }";
    for (const call of [
      `rankeval.evaluate(${rows}, ['ndcg@10'])`,
      `reference.referenceEvaluate(${rows}, ['ndcg@10'])`,
    ]) {
      const e = await thrown(`return ${call}`);
      expect(e).toMatchObject({ name: "RankevalError", code: "bad-input" });
      expect(e.message).toMatch(/^query "b": label 1024 under gain "exp" \(2\^label - 1\) gains more than the 2\^970/);
    }
  });

  it("refuses labels of 1e308 under linear gain, whose DCG overflows", async () => {
    const e = await thrown(
      `const rows = { qid: [1, 1, 1], score: [3, 2, 1], rel: [1e308, 1e308, 1e308] };
       return rankeval.evaluate(rows, ['ndcg'], { gain: 'linear' })`,
    );
    expect(e).toMatchObject({ name: "RankevalError", code: "bad-input" });
    expect(e.message).toMatch(/^query "1": label 1e\+308 under gain "linear" gains more than/);
  });

  it("refuses a per-query Infinity in compare(), naming the run, the measure and the query", async () => {
    const e = await thrown(`
      const big = rankeval.evaluate({ qid: ['1', '2', '3'], score: [1e200, 1, 2], rel: [1, 0, 1] }, ['mse']);
      const base = rankeval.evaluate({ qid: ['1', '2', '3'], score: [0.5, 1, 2], rel: [1, 0, 1] }, ['mse']);
      return rankeval.compare([{ name: 'base', result: base }, { name: 'big', result: big }],
        { tests: ['randomization', 'bootstrap'] })`);
    expect(e).toMatchObject({ name: "RankevalError", code: "bad-input" });
    expect(e.message).toBe(
      'run "big", measure mse, query "1": value Infinity is not finite: the tests\' sums would be too, and their ' +
        "p-values meaningless",
    );
  });

  it("says how much memory a comparison past 4 GiB needs and what to do, in a bounded time and heap", async () => {
    // 100,000 queries and 10M sign vectors: 125 GB of random bits, refused before any is drawn.
    const e = await thrown(
      `const n = 100000;
       const qid = Array.from({ length: n }, (_, i) => i);
       const a = rankeval.evaluate({ qid, score: new Float64Array(n).fill(1), rel: new Float64Array(n) }, ['num_ret']);
       return rankeval.compare([{ name: 'a', result: a }, { name: 'b', result: a }],
         { tests: ['randomization'], iterations: 1e7 })`,
      { ms: 30_000, heapMb: 512 },
    );
    expect(e).toMatchObject({ name: "RankevalError", code: "too-large" });
    expect(e.message).toMatch(/^this comparison's resampling needs 119,\d{3} MiB of WebAssembly memory, more than /);
    expect(e.message).toMatch(/the 4,096 MiB \(4 GiB\) a WebAssembly memory can address: use fewer iterations/);
  });
});
