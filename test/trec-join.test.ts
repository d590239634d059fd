// joinParsed: the command line's run/judgment join over per-row document ids.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../src/errors/errors.js";
import { evaluateBatch, evaluateRun } from "../src/pipeline/evaluate.js";
import { docidString, Interner, QrelsParser, RunParser } from "../src/io/index.js";
import { parseMeasures } from "../src/names/resolve.js";
import { explicitOptions } from "../src/measures/options.js";
import { groupJudgments, joinParsed, type JoinedRun, type JoinOptions } from "../src/pipeline/join-rows.js";
import { rowHash } from "../src/io/rows.js";
import { bytes, haveShared, sharedPath } from "./io/_helpers.js";
import { runs } from "./_seed.js";

function parse(qrelsText: string | Uint8Array, runText: string | Uint8Array) {
  const qids = new Interner();
  const q = new QrelsParser({ file: "qrels.txt", qids, docids: "per-row" });
  const r = new RunParser({ file: "run.txt", qids, docids: "per-row" });
  q.push(typeof qrelsText === "string" ? bytes(qrelsText) : qrelsText);
  r.push(typeof runText === "string" ? bytes(runText) : runText);
  return { qrels: q.finish(), run: r.finish() };
}

function join(qrelsText: string, runText: string, options?: JoinOptions): JoinedRun & { docs: string[] } {
  const { qrels, run } = parse(qrelsText, runText);
  const j = joinParsed(qrels, run, options);
  return { ...j, docs: Array.from(j.batch.docids!, (row) => docidString(run.docids, row)) };
}

/** Per query: [qid, [doc, score, label][], judged labels]. */
function describeJoin(j: JoinedRun & { docs: string[] }) {
  const b = j.batch;
  return j.qids.map((qid, q) => {
    const rows: [string, number, number][] = [];
    for (let i = b.offsets[q]; i < b.offsets[q + 1]; i++) rows.push([j.docs[i], b.scores[i], b.labels[i]]);
    return [qid, rows, Array.from(b.judged!.subarray(b.judgedOffsets![q], b.judgedOffsets![q + 1]))];
  });
}

const QRELS = `q2 0 a 1
q2 0 b 0
q2 0 c 2
q2 0 n -1
q1 0 x 1
q3 0 z 1
10 0 d 1
9 0 d 2
`;
const RUN = `q1 Q0 x 1 1.0 t
q1 Q0 y 2 0.5 t
q2 Q0 b 1 3 t
q2 Q0 n 2 2 t
q2 Q0 zz 3 1 t
q4 Q0 a 1 1 t
9 Q0 d 1 1 t
10 Q0 d 1 1 last
`;

describe("joinParsed", () => {
  it("joins per query: labels, NaN for unjudged, all judgments, strcmp query order, counts", () => {
    const j = join(QRELS, RUN);
    expect(describeJoin(j)).toEqual([
      ["10", [["d", 1, 1]], [1]],
      ["9", [["d", 1, 2]], [2]],
      [
        "q1",
        [
          ["x", 1, 1],
          ["y", 0.5, NaN],
        ],
        [1],
      ],
      [
        "q2",
        [
          ["b", 3, 0],
          ["n", 2, -1],
          ["zz", 1, NaN],
        ],
        [1, 0, 2, -1],
      ],
    ]);
    expect(j.notJudged).toBe(1); // q4
    expect(j.notInRun).toBe(1); // q3
    expect(j.notInRunQids).toEqual(["q3"]);
    expect(j.runTag).toBe("last");
    const b = j.batch;
    expect(b.numQueries).toBe(4);
    expect(Array.from(b.offsets)).toEqual([0, 1, 2, 4, 7]);
    expect(Array.from(b.judgedOffsets!)).toEqual([0, 1, 2, 3, 7]);
    // The pool is the run's rows, one entry each: docids[i] is batch row i's run row.
    expect(Array.from(b.docids!)).toEqual([7, 6, 0, 1, 2, 3, 4]);
    expect(b.pool!.offsets.length).toBe(9);
  });

  it("evaluates judged queries absent from the run with an empty ranking when complete (trec_eval -c)", () => {
    const j = join(QRELS + "Q 0 a 1\n", RUN, { complete: true });
    expect(describeJoin(j).map(([q, rows, judged]) => [q, (rows as unknown[]).length, judged])).toEqual([
      ["10", 1, [1]],
      ["9", 1, [2]],
      ["Q", 0, [1]],
      ["q1", 2, [1]],
      ["q2", 3, [1, 0, 2, -1]],
      ["q3", 0, [1]],
    ]);
    expect([j.notJudged, j.notInRun, j.notInRunQids]).toEqual([1, 2, ["Q", "q3"]]);
  });

  it("keeps rows of a query in run order, when a query's rows are not contiguous", () => {
    const j = join("a 0 d1 1\nb 0 d1 1\na 0 d2 0\n", "a Q0 d2 1 1 t\nb Q0 d1 1 1 t\na Q0 d1 2 2 t\na Q0 d3 3 0 t\n");
    expect(describeJoin(j)).toEqual([
      [
        "a",
        [
          ["d2", 1, 0],
          ["d1", 2, 1],
          ["d3", 0, NaN],
        ],
        [1, 0],
      ],
      ["b", [["d1", 1, 1]], [1]],
    ]);
  });

  it("gives an empty batch when nothing matches", () => {
    const j = join("1 0 a 1\n", "2 Q0 a 1 1 t\n");
    expect(j.batch.numQueries).toBe(0);
    expect(j.qids).toEqual([]);
    expect([j.notJudged, j.notInRun]).toEqual([1, 1]);
    expect(join("", "").batch.numQueries).toBe(0);
  });

  it("rejects a document twice in one query of the run, naming file and line", () => {
    const run = "q1 Q0 x 1 1 t\nq1 Q0 y 2 1 t\n\n# c\nq2 Q0 x 1 1 t\nq1 Q0 x 3 0 t\n";
    expect(() => join("q1 0 x 1\nq2 0 x 1\n", run)).toThrow(
      new InputError("run.txt", 6, 0, 'document "x" appears twice in query "q1"'),
    );
    expect(() => join("q1 0 x 1\n", run)).toThrow('run.txt:6: document "x" appears twice in query "q1"');
    // Unjudged documents too.
    expect(() => join("q1 0 a 1\n", "q1 Q0 u 1 1 t\nq1 Q0 u 2 1 t\n")).toThrow(
      'run.txt:2: document "u" appears twice in query "q1"',
    );
  });

  it("rejects a document twice in one query of the judgments, naming file and line", () => {
    const qrels = "# judged\nq1 0 x 1\nq2 0 x 1\nq1 0 y 0\nq1 0 x 0\n";
    expect(() => join(qrels, "q1 Q0 x 1 1 t\n")).toThrow('qrels.txt:5: document "x" appears twice in query "q1"');
  });

  it("checks only the evaluated queries for duplicates, as trec_eval", () => {
    const j = join("q1 0 x 1\nq3 0 d 1\nq3 0 d 1\n", "q1 Q0 x 1 1 t\nq2 Q0 d 1 1 t\nq2 Q0 d 2 1 t\n");
    expect(j.qids).toEqual(["q1"]);
  });

  it("joins exactly when every hash collides", () => {
    const same = describeJoin(join(QRELS, RUN));
    expect(describeJoin(join(QRELS, RUN, { hash: () => 0 }))).toEqual(same);
    expect(describeJoin(join(QRELS, RUN, { hash: (_b, s, e) => e - s }))).toEqual(same);
    expect(() => join("q 0 a 1\nq 0 b 1\nq 0 a 0\n", "q Q0 a 1 1 t\n", { hash: () => 7 })).toThrow(
      'qrels.txt:3: document "a" appears twice in query "q"',
    );
    expect(() => join("q 0 a 1\n", "q Q0 b 1 1 t\nq Q0 a 1 1 t\nq Q0 b 1 1 t\n", { hash: () => 7 })).toThrow(
      'run.txt:3: document "b" appears twice in query "q"',
    );
  });

  it("tells apart ids of every length that differ in any one byte, when every hash collides", () => {
    // Ids are compared 4 bytes at a time, in words that overlap when the length is not a multiple of 4.
    const base = "abcdefghijklmnopqrstu";
    for (let len = 1; len <= base.length; len++) {
      const id = base.slice(0, len);
      for (let p = 0; p < len; p++) {
        const other = id.slice(0, p) + "X" + id.slice(p + 1);
        const j = join(`q 0 ${id} 1\nq 0 ${other} 2\n`, `q Q0 ${other} 1 2 t\nq Q0 ${id} 2 1 t\n`, { hash: () => 0 });
        expect(describeJoin(j)).toEqual([
          [
            "q",
            [
              [other, 2, 2],
              [id, 1, 1],
            ],
            [1, 2],
          ],
        ]);
      }
      expect(() =>
        join(`q 0 ${id} 1\n`, `q Q0 ${id} 1 2 t\nq Q0 ${id}X 2 1 t\nq Q0 ${id} 3 0 t\n`, { hash: () => 0 }),
      ).toThrow(`run.txt:3: document "${id}" appears twice in query "q"`);
    }
  });

  it("equals a join by JavaScript strings on random inputs, with real, tiny and constant hashes", () => {
    const doc = fc.constantFrom(
      "a",
      "b",
      "c",
      "ab",
      "ba",
      "d1",
      "d10",
      "é",
      "doc-0001",
      "doc-0010",
      "doc-1000",
      "clueweb09-en0000-00-00001",
      "clueweb09-en0000-00-10000",
    );
    const qid = fc.constantFrom("1", "2", "10", "x");
    const rows = <T>(value: fc.Arbitrary<T>) =>
      fc.uniqueArray(fc.tuple(qid, doc, value), { selector: ([q, d]) => `${q} ${d}`, maxLength: 30 });
    fc.assert(
      fc.property(rows(fc.integer({ min: -2, max: 3 })), rows(fc.integer({ min: -5, max: 5 })), (judgments, ranked) => {
        const qrelsText = judgments.map(([q, d, v]) => `${q} 0 ${d} ${v}\n`).join("");
        const runText = ranked.map(([q, d, v], i) => `${q} Q0 ${d} ${i} ${v} t\n`).join("");
        const expected = naiveJoin(judgments, ranked);
        for (const hash of [undefined, (_b: Uint8Array, s: number, e: number) => (e - s) & 1, () => 0]) {
          expect(describeJoin(join(qrelsText, runText, { hash }))).toEqual(expected);
        }
      }),
      { numRuns: runs(300) },
    );
  });
});

describe("the join in the kernel (src/pipeline/join-kernel.ts)", () => {
  /** The batch's arrays and the join's counts, or the InputError's message. */
  function outcome(qrelsText: string, runText: string, how: "kernel" | "transient" | "own", complete = false): unknown {
    const { qrels, run } = parse(qrelsText, runText);
    // The same hashes through JoinOptions.hash: join-rows.ts's own loop.
    const grouped = groupJudgments(qrels, how === "own" ? { hash: rowHash } : {});
    expect(grouped.inKernel).toBe(how !== "own");
    try {
      const j = joinParsed(grouped, run, { transient: how === "transient", complete });
      expect(j.batch.inPlace !== undefined).toBe(how === "transient");
      const b = j.batch;
      const measures = parseMeasures(MEASURES);
      const values = evaluateBatch(b, j.qids, measures, explicitOptions(), 0, 0).values;
      return {
        arrays: [b.offsets, b.judgedOffsets!, b.scores, b.labels, b.judged!, b.docids!].map((a) => Array.from(a)),
        values,
        qids: j.qids,
        notJudged: j.notJudged,
        notInRunQids: j.notInRunQids,
        runTag: j.runTag,
      };
    } catch (e) {
      if (e instanceof InputError) return { error: e.message };
      throw e;
    }
  }
  it("equals join-rows.ts's own loop, batch and errors, on random files (scattered queries, documents twice, ids that collide)", () => {
    const doc = fc.constantFrom(
      "a",
      "b",
      "ab",
      "ba",
      "d1",
      "d10",
      "é",
      "doc-0001",
      "doc-0010",
      "0123456789abcdef",
      "0123456789abcdeX",
      "clueweb09-en0000-00-00001",
      "clueweb09-en0000-00-10000",
    );
    const qid = fc.constantFrom("1", "2", "10", "x");
    const rows = <T>(value: fc.Arbitrary<T>) => fc.array(fc.tuple(qid, doc, value), { maxLength: 40 });
    fc.assert(
      fc.property(
        rows(fc.integer({ min: -2, max: 3 })),
        rows(fc.integer({ min: -5, max: 5 })),
        fc.boolean(),
        fc.boolean(),
        (judgments, ranked, sorted, complete) => {
          // Files that list each query's rows together, as most are, or not.
          const order = (r: [string, string, number][]) =>
            sorted ? [...r].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) : r;
          const qrelsText = order(judgments)
            .map(([q, d, v]) => `${q} 0 ${d} ${v}\n`)
            .join("");
          const runText = order(ranked)
            .map(([q, d, v], i) => `${q} Q0 ${d} ${i} ${v} t${i}\n`)
            .join("");
          const own = outcome(qrelsText, runText, "own", complete);
          expect(outcome(qrelsText, runText, "kernel", complete)).toEqual(own);
          expect(outcome(qrelsText, runText, "transient", complete)).toEqual(own);
        },
      ),
      { numRuns: runs(400) },
    );
  });
  it("evaluates a transient batch where it lies, and each block of a run over the one before", () => {
    const lines: string[] = [];
    const judged: string[] = [];
    for (let q = 0; q < 300; q++) {
      for (let d = 0; d < 40; d++) lines.push(`q${q} Q0 d${(d * 7 + q) % 53} ${d} ${((q * 31 + d * 17) % 13) / 4} t`);
      for (let d = 0; d < 53; d += 3) judged.push(`q${q} 0 d${d} ${(q + d) % 4}`);
    }
    const { qrels, run } = parse(judged.join("\n") + "\n", lines.join("\n") + "\n");
    const g = groupJudgments(qrels);
    const measures = parseMeasures(MEASURES);
    const valuesOf = (j: JoinedRun) => {
      const r = evaluateBatch(j.batch, j.qids, measures, explicitOptions(), 0, 0);
      return r.qids.map((q, i) => [q, ...MEASURES.map((m) => r.values[m][i])]);
    };
    const whole = joinParsed(g, run);
    expect(whole.batch.inPlace).toBeUndefined();
    const want = valuesOf(whole);
    expect(want[0].slice(1).every((v) => typeof v === "number")).toBe(true);
    const r2 = new RunParser({ file: "run.txt", qids: qrels.qidNames, docids: "per-row" });
    const all = bytes(lines.join("\n") + "\n");
    const got: unknown[][] = [];
    let blocks = 0;
    for (let i = 0; i < all.length; i += 4096) {
      r2.push(all.subarray(i, i + 4096));
      const rows = r2.takeQueries(1000);
      if (!rows) continue;
      const j = joinParsed(g, rows, { block: true, transient: true });
      expect(j.batch.inPlace).toBeDefined();
      got.push(...valuesOf(j));
      blocks++;
    }
    got.push(...valuesOf(joinParsed(g, r2.finish(), { block: true, transient: true })));
    expect(blocks).toBeGreaterThan(5);
    const byQid = (rows: unknown[][]) => [...rows].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
    expect(byQid(got)).toEqual(byQid(want));
  });
});

function naiveJoin(judgments: [string, string, number][], ranked: [string, string, number][]) {
  const byQuery = new Map<string, Map<string, number>>();
  for (const [q, d, v] of judgments) {
    if (!byQuery.has(q)) byQuery.set(q, new Map());
    byQuery.get(q)!.set(d, v);
  }
  const runQids = [...new Set(ranked.map(([q]) => q))].filter((q) => byQuery.has(q));
  runQids.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return runQids.map((q) => {
    const docs = byQuery.get(q)!;
    const rows = ranked
      .filter(([rq]) => rq === q)
      .map(([, d, s]): [string, number, number] => [d, s, docs.get(d) ?? NaN]);
    return [q, rows, [...docs.values()]];
  });
}

// End to end: the kernel on the joined batch gives what evaluateRun (plain JS strings) gives.
const MEASURES = "map ndcg ndcg@10 precision@10 recall@100 mrr bpref".split(" ");

function columns(text: string, valueField: number) {
  const qid: string[] = [];
  const docid: string[] = [];
  const value: number[] = [];
  for (const line of text.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f.length < 4 || f[0].startsWith("#")) continue;
    qid.push(f[0]);
    docid.push(f[2]);
    value.push(Number(f[valueField]));
  }
  return { qid, docid, value };
}

const pairs: [string, string, string][] = [
  ["trec_eval", "qrels.test", "results.test"],
  ["synthetic-small", "qrels.txt", "run.txt"],
];

describe("joinParsed, end to end", () => {
  for (const [dir, qrelsName, runName] of pairs) {
    it.skipIf(!haveShared("golden", dir, qrelsName) || !haveShared("golden", dir, runName))(
      `kernel values on ${dir}/${runName} equal evaluateRun's`,
      () => {
        const qrelsBytes = new Uint8Array(readFileSync(sharedPath("golden", dir, qrelsName)));
        const runBytes = new Uint8Array(readFileSync(sharedPath("golden", dir, runName)));
        const { qrels, run } = parse(qrelsBytes, runBytes);
        const joined = joinParsed(qrels, run);
        const options = explicitOptions();
        const got = evaluateBatch(
          joined.batch,
          joined.qids,
          parseMeasures(MEASURES),
          options,
          joined.notJudged,
          joined.notInRun,
        );

        const latin1 = new TextDecoder("latin1");
        const j = columns(latin1.decode(qrelsBytes), 3);
        const r = columns(latin1.decode(runBytes), 4);
        const want = evaluateRun(
          { qid: j.qid, docid: j.docid, rel: j.value },
          { qid: r.qid, docid: r.docid, score: r.value },
          MEASURES,
          options,
        );

        expect([...got.qids].sort()).toEqual([...want.qids].sort());
        expect(got.qids).toEqual([...got.qids].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
        expect(got.queries).toEqual(want.queries);
        const at = new Map(want.qids.map((q, i) => [q, i]));
        for (const m of got.measures) {
          const g = got.values[m];
          const w = want.values[m];
          const mismatches = got.qids.filter((q, i) => !Object.is(g[i], w[at.get(q)!]));
          expect(mismatches, m).toEqual([]);
        }
        expect(got.qids.length).toBeGreaterThan(2);
      },
    );
  }
});
