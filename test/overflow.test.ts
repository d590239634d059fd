// Numbers whose sums would overflow: labels with gains past 2^970 are refused by the kernel's path and
// the reference with the same words (never a NaN nDCG that silently leaves the mean), and compare()
// refuses per-query values it cannot sum, naming run, measure and query; its p-values are never 0.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compare, evaluate, evaluateRun, RankevalError, type Options } from "../src/index.js";
import { randomizationExact } from "../src/compare/resampling-rules.js";
import { runKernel } from "../src/kernel/kernel.js";
import { resolveOptions } from "../src/measures/options.js";
import { parseMeasures } from "../src/names/resolve.js";
import { evaluateFiles } from "../src/node/index.js";
import { groupRows } from "../src/pipeline/rows-by-query.js";
import { referenceEvaluate, referenceEvaluateRun } from "../src/reference/index.js";

function error(f: () => unknown): RankevalError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(RankevalError);
    return e as RankevalError;
  }
  throw new Error("no error");
}

const words = (query: string, label: string, gain: string) =>
  new RegExp(
    `^query "${query}": label ${label.replace("+", "\\+")} under ${gain} gains more than the 2\\^970 \\(about 1e292\\)`,
  );

const EXP = 'gain "exp" \\(2\\^label - 1\\)';

describe("gains past 2^970", () => {
  const cases: [string, { qid: string[]; score: number[]; rel: number[] }, Options, RegExp][] = [
    [
      "exp, a label of 1024 (2^1024 - 1 is Infinity)",
      { qid: ["a", "a", "b", "b", "b"], score: [3, 2, 3, 2, 1], rel: [1, 0, 3, 1024, 0] },
      {},
      words("b", "1024", EXP),
    ],
    [
      "exp, 971: the first label past the limit, the larger of two named",
      { qid: ["a", "a", "a"], score: [3, 2, 1], rel: [971, 2000, 5] },
      {},
      words("a", "2000", EXP),
    ],
    [
      "linear, three labels of 1e308 (their DCG overflows)",
      { qid: ["q", "q", "q"], score: [3, 2, 1], rel: [1e308, 1e308, 1e308] },
      { gain: "linear" },
      words("q", "1e+308", 'gain "linear"'),
    ],
    [
      "a gain table's gain of 1e300",
      { qid: ["x", "y"], score: [1, 1], rel: [1, 5] },
      { gain: { 5: 1e300 } },
      words("y", "5", "the gain table"),
    ],
  ];

  it.each(cases)("refuses %s, in the kernel's path and the reference alike", (_, rows, options, message) => {
    const kernel = error(() => evaluate(rows, ["ndcg@10", "map"], options));
    const reference = error(() => referenceEvaluate(rows, ["ndcg@10", "map"], options));
    expect(kernel.code).toBe("bad-input");
    expect(kernel.message).toMatch(message);
    expect(reference.message).toBe(kernel.message);
  });

  it("keeps labels up to the limit, and measures that sum no gain", () => {
    const r = evaluate({ qid: ["a", "a"], score: [2, 1], rel: [970, 1] }, ["ndcg", "dcg"]);
    expect(r.values.ndcg[0]).toBe(1);
    expect(r.values.dcg[0]).toBe(2 ** 970);
    const linear = evaluate({ qid: ["q", "q"], score: [2, 1], rel: [2 ** 970, 2 ** 970] }, ["ndcg"], {
      gain: "linear",
    });
    expect(linear.values.ndcg[0]).toBe(1);
    const binary = { qid: ["a", "b"], score: [1, 1], rel: [1e300, 2000] };
    expect(evaluate(binary, ["map", "P@2"]).mean).toEqual({ map: 1, "P@2": 0.5 });
    expect(() => evaluate(binary, ["map", "ndcg"])).toThrow(/query "a": label 1e\+300/);
  });

  it("counts judged documents the run did not retrieve, by evaluateRun and its reference", () => {
    const qrels = { q1: { d1: 1 }, q2: { d1: 1, d2: 3000 } };
    const run = { q1: { d1: 1 }, q2: { d1: 1 } };
    const kernel = error(() => evaluateRun(qrels, run, ["ndcg"]));
    expect(kernel.message).toMatch(words("q2", "3000", EXP));
    expect(error(() => referenceEvaluateRun(qrels, run, ["ndcg"])).message).toBe(kernel.message);
  });

  it("names the query in a later block of the kernel", () => {
    const n = 300;
    const rows = {
      qid: Array.from({ length: 3 * n }, (_, i) => `q${Math.floor(i / 3)}`),
      score: Array.from({ length: 3 * n }, (_, i) => 3 - (i % 3)),
      rel: Array.from({ length: 3 * n }, (_, i) => (i === 3 * 250 + 1 ? 1500 : i % 2)),
    };
    const { batch, qids } = groupRows(rows);
    const measures = parseMeasures(["ndcg@5"]);
    const options = resolveOptions({});
    const e = error(() => runKernel(batch, measures, options, { blockBytes: 2000, queryName: (q) => String(qids[q]) }));
    expect(e.message).toMatch(words("q250", "1500", EXP));
  });

  it("refuses them in judgments evaluated where they were parsed (files)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rankeval-gains-"));
    const qrels = join(dir, "qrels");
    const run = join(dir, "run");
    writeFileSync(qrels, "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 1\nq2 0 d9 1100\n");
    writeFileSync(run, "q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\nq2 Q0 d1 1 2.0 t\n");
    await expect(evaluateFiles(qrels, run, ["ndcg@10"])).rejects.toThrow(words("q2", "1100", EXP));
    expect((await evaluateFiles(qrels, run, ["P@10"])).mean["P@10"]).toBe(0.1);
  });
});

describe("compare() and values it cannot sum", () => {
  const result = (mse: number[]) =>
    evaluate({ qid: mse.map((_, i) => `q${i}`), score: mse.map(Math.sqrt), rel: mse.map(() => 0) }, ["mse"]);

  it("refuses Infinity, -Infinity and values past 2^970, naming the run, the measure and the query", () => {
    const base = { name: "base", result: result([1, 2, 3]) };
    const big = (values: number[]) => ({
      name: "big",
      result: { ...result([1, 2, 3]), values: { mse: new Float64Array(values) } },
    });
    expect(error(() => compare([base, big([1, Infinity, 3])])).message).toBe(
      'run "big", measure mse, query "q1": value Infinity is not finite: the tests\' sums would be too, ' +
        "and their p-values meaningless",
    );
    expect(error(() => compare([big([-Infinity, 1, 3]), base])).message).toMatch(
      /^run "big", measure mse, query "q0": value -Infinity/,
    );
    expect(error(() => compare([base, big([1, 2, 1e300])])).message).toMatch(
      /^run "big", measure mse, query "q2": value 1e\+300 is past the 2\^970/,
    );
    // NaN is a query without a value: it leaves the pairs, as before.
    const c = compare([base, big([1, NaN, 3])], { tests: ["randomization"] });
    expect(c.comparisons[0]).toMatchObject({ n: 2, lost: { run: 0, baseline: 1 } });
  });

  it("never gives an exact randomization p of 0, even where the sums are not numbers", () => {
    expect(randomizationExact([1, 2, 3], 0)).toBeGreaterThan(0);
    expect(randomizationExact([Infinity, -Infinity, 2], 0)).toBe(1 / 8);
    expect(randomizationExact([NaN, 1], 0)).toBe(1 / 4);
  });
});
