// relstring (m_relstring.c): the top-n selection against a full sort, the characters, and trec_eval's
// own relstring lines (out.test.aq: relstring, out.test.aql: -mrelstring.20 -l2).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Interner, QrelsParser, RunParser } from "../../src/io/index.js";
import type { Batch } from "../../src/kernel/batch.js";
import { StringPool } from "../../src/kernel/kernel-pool.js";
import { rank } from "../../src/reference/ranking.js";
import { joinParsed } from "../../src/pipeline/join-rows.js";
import { rankedLabels, rankedRows, relstringChar, relstrings } from "../../src/trec/relstring.js";
import { goldenUrl, haveGolden, readGolden, splitLine } from "./_shared.js";
import { runs } from "../_seed.js";

/** A batch of queries given as [score, label, docid?][] each. */
function batchOf(queries: [number, number, string?][][]): Batch {
  const rows = queries.flat();
  const withIds = rows.length > 0 && rows.every((r) => r[2] !== undefined);
  const pool = new StringPool();
  const offsets = new Int32Array(queries.length + 1);
  queries.forEach((q, i) => (offsets[i + 1] = offsets[i] + q.length));
  return {
    numQueries: queries.length,
    offsets,
    scores: Float64Array.from(rows, (r) => r[0]),
    labels: Float64Array.from(rows, (r) => r[1]),
    judgedOffsets: null,
    judged: null,
    docids: withIds ? Int32Array.from(rows, (r) => pool.intern(r[2]!)) : null,
    pool: withIds ? pool.pool() : null,
  };
}

describe("rankedRows", () => {
  it("score descending, ties by document id descending in byte order, the top n only", () => {
    const b = batchOf([
      [
        [1, 0, "d2"],
        [3, 1, "a"],
        [1, 2, "d3"],
        [1, 3, "D0-9"],
        [1, 4, "D0-10"],
        [0.5, 5, "z"],
      ],
    ]);
    expect(Array.from(rankedRows(b, 0, 10))).toEqual([1, 2, 0, 3, 4, 5]);
    expect(Array.from(rankedRows(b, 0, 3))).toEqual([1, 2, 0]);
    expect(Array.from(rankedRows(b, 0, 0))).toEqual([]);
    expect(Array.from(rankedLabels(b, 0, 4))).toEqual([1, 2, 0, 3]);
  });

  it("ties in input order without document ids; a shorter id ranks below its extension", () => {
    expect(
      Array.from(
        rankedRows(
          batchOf([
            [
              [1, 0],
              [2, 0],
              [1, 0],
              [1, 0],
            ],
          ]),
          0,
          3,
        ),
      ),
    ).toEqual([1, 0, 2]);
    expect(
      Array.from(
        rankedRows(
          batchOf([
            [
              [1, 0, "ab"],
              [1, 0, "abc"],
              [1, 0, "a"],
            ],
          ]),
          0,
          3,
        ),
      ),
    ).toEqual([1, 0, 2]);
  });

  it("equals the reference's full sort, for every n", () => {
    const doc = fc.tuple(
      fc.integer({ min: 0, max: 4 }),
      fc.integer({ min: -1, max: 3 }),
      fc.stringMatching(/^[a-c]{0,3}$/),
    );
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(doc, { selector: (d) => d[2], maxLength: 30 }), { maxLength: 4 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 35 }),
        (qs, ids, n) => {
          const b = batchOf(
            qs.map((q) => q.map(([s, l, d]) => (ids ? [s, l, d] : [s, l]) as [number, number, string?])),
          );
          qs.forEach((q, qi) => {
            const want = rank(
              q.map(([score, label, docid]) => ({ score, label, ...(ids ? { docid } : {}) })),
              n,
            ).map((d) => d.label);
            expect(Array.from(rankedLabels(b, qi, n))).toEqual(want);
          });
        },
      ),
      { numRuns: runs(300) },
    );
  });
});

describe("relstring", () => {
  it("characters as m_relstring.c prints them", () => {
    expect([0, 1, 9, 10, 42, NaN, -1, -2, 2.7].map(relstringChar).join("")).toBe("019>>-..2");
  });

  it("the first n labels, within -M depth", () => {
    const b = batchOf([
      [
        [3, 1, "a"],
        [2, NaN, "b"],
        [1, -1, "c"],
        [0, 12, "d"],
      ],
      [],
    ]);
    expect(relstrings(b, 10)).toEqual(["1-.>", ""]);
    expect(relstrings(b, 2)).toEqual(["1-", ""]);
    expect(relstrings(b, 10, 3)).toEqual(["1-.", ""]);
    expect(relstrings(b, 0)).toEqual(["", ""]);
  });

  const cases: [string, string, string, number][] = [
    ["out.test.aq", "qrels.test", "results.test", 10],
    ["out.test.aql", "qrels.rel_level", "results.test", 20],
  ];
  it.skipIf(!haveGolden(...cases.flatMap((c) => c.slice(0, 3) as string[])))("trec_eval's relstring lines", () => {
    for (const [out, qrelsFile, runFile, n] of cases) {
      const qids = new Interner();
      const q = new QrelsParser({ file: qrelsFile, qids, docids: "per-row" });
      const r = new RunParser({ file: runFile, qids, docids: "per-row" });
      q.push(readFileSync(fileURLToPath(goldenUrl(qrelsFile))));
      r.push(readFileSync(fileURLToPath(goldenUrl(runFile))));
      const joined = joinParsed(q.finish(), r.finish());
      const got = relstrings(joined.batch, n);
      const want = readGolden(out)
        .split("\n")
        .filter((l) => l.startsWith("relstring"))
        .map(splitLine);
      expect(want.length).toBe(3);
      for (const w of want) expect(`'${got[joined.qids.indexOf(w.qid)]}'`).toBe(w.value);
    }
  });
});
