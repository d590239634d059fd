// Measure names known only at run time (a string[] from argv or a config file, which the types accept
// since they cannot check it): each call checks them as it runs, with the did-you-mean errors a
// misspelled literal would get from the compiler.
import { describe, expect, it } from "vitest";
import { thrown } from "./_call.js";

const ROWS = "{ qid: ['a', 'a'], score: [1, 2], rel: [0, 1] }";

describe("names from a string[] are checked at run time", () => {
  it.each([
    [
      "evaluate",
      `rankeval.evaluate(${ROWS}, JSON.parse('["ndcg@10", "ndgc@5"]'))`,
      /unknown measure "ndgc@5" \(did you mean ndcg@5\?\)/,
    ],
    [
      "evaluateRun",
      "rankeval.evaluateRun({ q: { d: 1 } }, { q: { d: 1 } }, process.argv.slice(9).concat('mapp'))",
      /unknown measure "mapp" \(did you mean map\b/,
    ],
    [
      "evaluateDiversity",
      "rankeval.evaluateDiversity({ q: { 1: { d: 1 } } }, { q: { d: 1 } }, ['alpha-ndgc@10'])",
      /unknown measure "alpha-ndgc@10" \(did you mean/,
    ],
    [
      "evaluateFiles",
      "await node.evaluateFiles('no-such-qrels', 'no-such-run', [String('ndcg@1O')])",
      /measure "ndcg@1O": cutoff "1O" is not a positive integer/,
    ],
  ])("%s", async (_name, call, message) => {
    const e = await thrown(`return ${call}`);
    expect(e).toMatchObject({ name: "RankevalError", code: "bad-measure" });
    expect(e.message).toMatch(message);
  });
});
