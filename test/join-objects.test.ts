// evaluateRun on { qid: { docid: value } } objects joins plain ones as they are (src/pipeline/join-memory.ts joinObjects):
// the same batch, values and errors as the same rows given as columns, which the rows' join reads.
import { describe, expect, it } from "vitest";
import { evaluateRun, RankevalError } from "../src/index.js";

type Objects = Record<string, Record<string, number>>;

/** The rows of objects, as columns (Object.entries order). */
function columns(x: Objects, value: "rel" | "score") {
  const qid: string[] = [];
  const docid: string[] = [];
  const v: number[] = [];
  for (const [q, docs] of Object.entries(x)) {
    for (const [d, n] of Object.entries(docs)) {
      qid.push(q);
      docid.push(d);
      v.push(n);
    }
  }
  return { qid, docid, [value]: v } as { qid: string[]; docid: string[] } & Record<typeof value, number[]>;
}

const error = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof RankevalError ? e.message : `not a RankevalError: ${String(e)}`;
  }
  return null;
};

describe("evaluateRun on objects", () => {
  // ASCII ids only (joinObjects' fast path), and some ids not ASCII (the rows' join).
  it.each([0, 0.1])(
    "equals the columns' join on random collections: values, queries, counts, ties (non-ASCII ids: %s)",
    (accents) => {
      let seed = 12345;
      const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      const measures = ["ndcg@10", "map", "mrr", "recall@5", "bpref", "num_ret", "P_5"];
      for (let trial = 0; trial < 200; trial++) {
        const qrels: Objects = {};
        const run: Objects = {};
        const nq = 1 + Math.floor(next() * 6);
        for (let q = 0; q < nq; q++) {
          const name = next() < 0.2 ? String(q) : `q${q}`;
          if (next() < 0.85) {
            qrels[name] = {};
            for (let d = 0; d < 8; d++)
              if (next() < 0.6)
                qrels[name][next() < accents ? `é${d}` : `d${d}`] = Math.floor(next() * 4) - (next() < 0.1 ? 1 : 0);
          }
          if (next() < 0.85) {
            run[name] = {};
            // Rounded scores: ties, broken by document id.
            for (let d = 0; d < 10; d++)
              if (next() < 0.7) run[name][next() < accents ? `é${d}` : `d${d}`] = Math.round(next() * 4) / 4;
          }
        }
        const a = error(() => evaluateRun(qrels, run, measures));
        const b = error(() => evaluateRun(columns(qrels, "rel"), columns(run, "score"), measures));
        expect(a).toBe(b);
        if (a !== null) continue;
        const x = evaluateRun(qrels, run, measures);
        const y = evaluateRun(columns(qrels, "rel"), columns(run, "score"), measures);
        expect(x.qids).toEqual(y.qids);
        expect(x.values).toEqual(y.values);
        expect(x.mean).toEqual(y.mean);
        expect(x.queries).toEqual(y.queries);
      }
    },
  );

  it("says what the columns' join says, in the same order: shapes, then labels, then scores of judged queries", () => {
    const both = (qrels: unknown, run: unknown) => {
      const a = error(() => evaluateRun(qrels as Objects, run as Objects, "map"));
      const asColumns = (x: unknown, v: "rel" | "score") =>
        x !== null && typeof x === "object" && Object.values(x).every((d) => d !== null && typeof d === "object")
          ? columns(x as Objects, v)
          : x;
      const b = error(() => evaluateRun(asColumns(qrels, "rel") as Objects, asColumns(run, "score") as Objects, "map"));
      return [a, b];
    };
    for (const [qrels, run, message] of [
      [{ q1: 5 }, { q1: { d1: 1 } }, 'qrels["q1"] must be an object of docid: rel'],
      [{ q1: { d1: 1 } }, { q1: null }, 'run["q1"] must be an object of docid: score'],
      [
        { q1: { d1: 1, d2: NaN } },
        { q1: { d1: "x" } },
        'qrels row 1 (query "q1", document "d2"): label NaN is not a finite number',
      ],
      [
        { q1: { d1: 1 }, q2: { d1: 1 } },
        { q0: { d1: "x" }, q2: { d2: 1, d3: Infinity } },
        'run row 2 (query "q2", document "d3"): score Infinity is not a finite number',
      ],
      [{ q1: {} }, { q1: { d1: 1 } }, "no query in common"],
    ] as const) {
      const [a, b] = both(qrels, run);
      expect(a).toContain(message);
      // Shapes the columns cannot show (a query that is not an object) are said by the objects' join only.
      if (!String(message).includes("must be an object")) expect(a).toBe(b);
    }
  });

  it("joins query and document ids longer than the room made for them, ASCII or not", () => {
    for (const long of ["q".repeat(100), "é".repeat(100)]) {
      const r = evaluateRun(
        { [long]: { [long]: 1 }, q2: { d: 1 } },
        { q2: { d: 1 }, [long]: { [long]: 1, d: 0 } },
        "P@1",
      );
      expect(r.qids).toEqual(["q2", long]);
      expect(Array.from(r.values["P@1"])).toEqual([1, 1]);
    }
  });

  it("reads an own __proto__ key as a document, and ignores inherited properties", () => {
    const qrels = JSON.parse('{"q1": {"__proto__": 2, "d1": 1}}') as Objects;
    const run = JSON.parse('{"q1": {"__proto__": 0.9, "d2": 0.8, "d1": 0.1}}') as Objects;
    const r = evaluateRun(qrels, run, ["P@1", "recall@3"]);
    expect(r.mean["P@1"]).toBe(1);
    expect(r.mean["recall@3"]).toBe(1);
    const inherited = Object.create({ d9: 5 }) as Record<string, number>;
    inherited.d1 = 1;
    expect(evaluateRun({ q1: inherited }, { q1: { d9: 1, d1: 0.5 } }, "P@1").mean["P@1"]).toBe(0);
  });
});
