// What evaluate() and evaluateRun() remember from call to call (src/pipeline/evaluate.ts optionsOf,
// parsedMeasures, batchPlan; src/names/resolve.ts resolveWord; src/kernel/kernel.ts specsOf;
// src/pipeline/join-memory.ts's buffer of labels): a program calls them every epoch with the same names
// and options, and must get what a first call gets, whatever it changed in between.
import { describe, expect, it } from "vitest";
import { evaluate, evaluateRun, type Options } from "../src/index.js";
import { intervalsOf, tInterval } from "../src/pipeline/interval.js";

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

  it("read a list of measures again when it changed in place", () => {
    const measures = ["ndcg@3", "map"];
    expect(evaluate(rows, measures).measures).toEqual(["ndcg@3", "map"]);
    measures[1] = "mrr";
    expect(evaluate(rows, measures).measures).toEqual(["ndcg@3", "mrr"]);
    measures.push("P@1");
    const r = evaluate(rows, measures);
    expect(r.measures).toEqual(["ndcg@3", "mrr", "P@1"]);
    expect(r.mean["P@1"]).toBe(evaluate(rows, "P@1").mean["P@1"]);
  });

  it("give each result its own objects: changing one changes nothing the next call sees", () => {
    const a = evaluate(rows, ["ndcg@3", "map"]);
    (a.measures as string[]).push("x");
    (a.measureConventions as Record<string, string>)["ndcg@3"] = "changed";
    (a.warnings as string[]).push("changed");
    const b = evaluate(rows, ["ndcg@3", "map"]);
    expect(b.measures).toEqual(["ndcg@3", "map"]);
    expect(b.measureConventions["ndcg@3"]).not.toBe("changed");
    expect(b.warnings).toEqual([]);
  });

  it("give t intervals as tInterval does, and a bootstrap's when first read: a plain value to spread, JSON and structuredClone", () => {
    const r = evaluate(rows, ["ndcg@3", "map", "NumRet"]);
    for (const k of ["ndcg@3", "map"]) expect(r.interval[k]).toEqual(tInterval(r.values[k]));
    expect(r.interval.NumRet).toBeUndefined(); // a sum: no interval
    // evaluateRun takes summaries (and intervals) over queries in byte order ("b" before "c").
    const run = evaluateRun({ c: { d1: 1, d2: 0 }, b: { d1: 1 } }, { c: { d1: 0.2, d2: 0.9 }, b: { d1: 0.5 } }, "map");
    expect(run.qids).toEqual(["c", "b"]);
    expect(run.interval.map).toEqual(tInterval([run.values.map[1], run.values.map[0]]));
    const interval = { method: "bootstrap", samples: 500, seed: 7 } as const;
    const boot = evaluate(rows, ["ndcg@3", "map", "NumRet"], { interval });
    const settings = { level: 0.95, ...interval };
    const expected = intervalsOf(boot.values, (k) => (k === "NumRet" ? "sum" : "mean"), settings);
    expect(Object.getOwnPropertyDescriptor(boot, "interval")?.get).toBeTypeOf("function");
    expect(boot.interval).toEqual(expected);
    expect(boot.interval).toBe(boot.interval);
    expect({ ...boot }.interval).toEqual(expected);
    expect(JSON.parse(JSON.stringify(boot)).interval).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(structuredClone(boot).interval).toEqual(expected);
    expect(Object.keys(boot)).toEqual(Object.keys(r));
  });

  it("read options.interval again at every call, as it may change in place", () => {
    const interval = { level: 0.5 };
    const options: Options = { interval };
    const narrow = evaluate(rows, "ndcg@3", options).interval["ndcg@3"];
    interval.level = 0.99;
    const wide = evaluate(rows, "ndcg@3", options).interval["ndcg@3"];
    expect(wide).toEqual(evaluate(rows, "ndcg@3", { interval: { level: 0.99 } }).interval["ndcg@3"]);
    expect(wide[1] - wide[0]).toBeGreaterThan(narrow[1] - narrow[0]);
  });

  it("give evaluateRun the columns' numbers after a call whose judgments outgrew the buffer kept", () => {
    // 70,000 labels: more than join-memory.ts keeps between calls (2^16).
    const big: Record<string, Record<string, number>> = {};
    const bigRun: Record<string, Record<string, number>> = {};
    for (let q = 0; q < 70; q++) {
      big[`q${q}`] = {};
      bigRun[`q${q}`] = {};
      for (let d = 0; d < 1000; d++) big[`q${q}`][`d${d}`] = (q + d) % 3;
      for (let d = 0; d < 5; d++) bigRun[`q${q}`][`d${d * 7}`] = d;
    }
    const columns = (o: Record<string, Record<string, number>>, value: "rel" | "score") => {
      const c = { qid: [] as string[], docid: [] as string[], [value]: [] as number[] };
      for (const [q, docs] of Object.entries(o))
        for (const [d, v] of Object.entries(docs)) {
          c.qid.push(q);
          c.docid.push(d);
          (c[value] as number[]).push(v);
        }
      return c as { qid: string[]; docid: string[]; rel: number[]; score: number[] };
    };
    const asked = ["ndcg@10", "map", "P@5"];
    expect(evaluateRun(big, bigRun, asked).mean).toEqual(
      evaluateRun(columns(big, "rel"), columns(bigRun, "score"), asked).mean,
    );
    const qrels = { a: { d1: 1, d2: 0, d3: 2 }, b: { d3: 2 } };
    const run = { a: { d1: 0.2, d2: 0.9, d3: 0.1 }, b: { d3: 0.5, d4: 0.7 } };
    expect(evaluateRun(qrels, run, asked)).toEqual(evaluateRun(columns(qrels, "rel"), columns(run, "score"), asked));
  });

  it("still name the first score or label that is no finite number, in row order, before anything else", () => {
    const qid = ["a", "a", "b"];
    const bad = (score: unknown, rel: unknown, options?: Options, measures = "map") =>
      expect(() => evaluate({ qid, score, rel } as never, measures, options));
    bad([1, "2", 3], [0, 1, 0]).toThrow('rows.score[1] is "2", not a number (query "a")');
    bad([1, 2, 3], [0, 1n, 0]).toThrow('rows.rel[1] is 1n, not a number (query "a")');
    bad([1, Number.NaN, 3], [0, 1, 0]).toThrow('rows.score[1] is NaN, not a finite number (query "a")');
    bad([1, 2, Infinity], [Infinity, 1, 0]).toThrow('rows.rel[0] is Infinity, not a finite number (query "a")');
    // A typed column beside a plain one is checked as early: before the options' own errors.
    bad(Float64Array.of(1, Infinity, 3), [0, 1, 0], { ties: "average" }, "err@10").toThrow(
      'rows.score[1] is Infinity, not a finite number (query "a")',
    );
    expect(() => evaluate({ qid, score: [1, 2, 3], rel: [0, 1, 0] }, "err@10", { ties: "average" })).toThrow(
      /ties "average" has no exact closed form/,
    );
  });
});
