// What evaluate() and evaluateRun() remember from call to call (src/pipeline/evaluate.ts explicitOf,
// resolvedFor; src/names/resolve.ts resolveWord): a program calls them every epoch with the same
// names and options, and must get what a first call gets, whatever it changed in between.
import { describe, expect, it } from "vitest";
import { evaluate, evaluateRun, type Options } from "../src/index.js";

const rows = { qid: ["a", "a", "a", "b", "b"], score: [0.9, 0.5, 0.1, 0.8, 0.2], rel: [0, 2, 1, 1, 0] };

describe("calls made again", () => {
  it("read an options object again when its values changed, and never keep a gain table's object", () => {
    const options: Options = { gain: "linear" };
    const linear = evaluate(rows, "ndcg@3", options).mean["ndcg@3"];
    expect(evaluate(rows, "ndcg@3", options).mean["ndcg@3"]).toBe(linear);
    options.gain = "exp";
    const exp = evaluate(rows, "ndcg@3", options).mean["ndcg@3"];
    expect(exp).toBe(evaluate(rows, "ndcg@3", { gain: "exp" }).mean["ndcg@3"]);
    expect(exp).not.toBe(linear);
    delete options.gain;
    expect(evaluate(rows, "ndcg@3", options).mean["ndcg@3"]).toBe(evaluate(rows, "ndcg@3").mean["ndcg@3"]);
    // A table changed in place is read as it is now.
    const table: Record<number, number> = { 1: 1, 2: 3 };
    const withTable: Options = { gain: table };
    const first = evaluate(rows, "ndcg@3", withTable).mean["ndcg@3"];
    table[2] = 10;
    expect(evaluate(rows, "ndcg@3", withTable).mean["ndcg@3"]).not.toBe(first);
    expect(evaluate(rows, "ndcg@3", withTable).mean["ndcg@3"]).toBe(
      evaluate(rows, "ndcg@3", { gain: { 1: 1, 2: 10 } }).mean["ndcg@3"],
    );
  });

  it("still refuse bad options at every call, and name the same measures with the same warnings", () => {
    const bad = { gian: "exp" } as unknown as Options;
    for (let i = 0; i < 2; i++) expect(() => evaluate(rows, "ndcg@3", bad)).toThrow(/unknown option "gian"/);
    const a = evaluate(rows, ["P.1.5", "map"]);
    const b = evaluate(rows, ["P.1.5", "map"]);
    expect(b.measures).toEqual(a.measures);
    expect(b.warnings).toEqual(a.warnings);
    expect(a.warnings.length).toBeGreaterThan(0);
    // The result's options are its own: changing them changes nothing the next call sees.
    (a.options as { gain: string }).gain = "exp";
    expect(evaluate(rows, "ndcg@3").options.gain).toBe(evaluate(rows, "ndcg@3", {}).options.gain);
  });

  it("give evaluateRun the same numbers on the same objects, call after call", () => {
    const qrels = { a: { d1: 1, d2: 0 }, b: { d3: 2 } };
    const run = { a: { d1: 0.2, d2: 0.9 }, b: { d3: 0.5, d4: 0.7 } };
    const first = evaluateRun(qrels, run, ["ndcg@10", "map"]);
    for (let i = 0; i < 3; i++) expect(evaluateRun(qrels, run, ["ndcg@10", "map"])).toEqual(first);
  });
});
