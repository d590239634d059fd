// qrelsStats(): hand-counted cases, a seeded random case against a naive count, the formatters' text
// and CSV, and bad inputs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatQrelsStats, qrelsStats } from "../src/index.js";
import { compareBytes } from "../src/c/strings.js";
import { csvRecords } from "../src/output/csv.js";
import { RUNS } from "./_random.js";

type Obj = Record<string, Record<string, number>>;

const qrels: Obj = {
  q2: { a: 0, b: 1, c: 2, d: 2 },
  q10: { a: 0.5, b: -1, c: 0 },
  q1: {},
};

describe("qrelsStats by hand", () => {
  it("counts per query (by id in bytes) and in all", () => {
    const s = qrelsStats(qrels);
    expect(s).toEqual({
      relevanceThreshold: 1,
      queries: 3,
      judged: 7,
      relevant: 3,
      labels: [
        { label: -1, count: 1 },
        { label: 0, count: 2 },
        { label: 0.5, count: 1 },
        { label: 1, count: 1 },
        { label: 2, count: 2 },
      ],
      fractional: 1,
      negative: 1,
      queriesWithoutRelevant: ["q1", "q10"],
      perQuery: [
        { qid: "q1", judged: 0, relevant: 0, labels: [], fractional: 0, negative: 0 },
        {
          qid: "q10",
          judged: 3,
          relevant: 0,
          labels: [
            { label: -1, count: 1 },
            { label: 0, count: 1 },
            { label: 0.5, count: 1 },
          ],
          fractional: 1,
          negative: 1,
        },
        {
          qid: "q2",
          judged: 4,
          relevant: 3,
          labels: [
            { label: 0, count: 1 },
            { label: 1, count: 1 },
            { label: 2, count: 2 },
          ],
          fractional: 0,
          negative: 0,
        },
      ],
    });
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });

  it("relevanceThreshold: 2 and 0.5; -0 counted as 0", () => {
    expect(qrelsStats(qrels, { relevanceThreshold: 2 }).relevant).toBe(2);
    const half = qrelsStats(qrels, { relevanceThreshold: 0.5 });
    expect([half.relevant, half.queriesWithoutRelevant]).toEqual([4, ["q1"]]);
    expect(qrelsStats({ q: { a: -0, b: 0 } }).labels).toEqual([{ label: 0, count: 2 }]);
    expect(Object.is(qrelsStats({ q: { a: -0 } }).labels[0].label, 0)).toBe(true);
  });

  it("columns as objects", () => {
    const columns = { qid: ["q2", "q10", "q2"], docid: ["a", "a", "b"], rel: [1, 0, 3] };
    const s = qrelsStats(columns);
    expect([s.queries, s.judged, s.relevant, s.queriesWithoutRelevant]).toEqual([2, 3, 2, ["q10"]]);
  });

  it("as trec_eval's text: per query with perQuery, then the summary", () => {
    const s = qrelsStats({ q2: { a: 0, b: 2 }, q10: { c: 0.5 } });
    expect(formatQrelsStats(s)).toBe(
      [
        "num_q                 \tall\t2",
        "num_q_no_rel          \tall\t1",
        "num_judged            \tall\t3",
        "num_rel               \tall\t1",
        "num_label.0           \tall\t1",
        "num_label.0.5         \tall\t1",
        "num_label.2           \tall\t1",
        "num_fractional        \tall\t1",
        "num_negative          \tall\t0",
        "",
      ].join("\n"),
    );
    const text = formatQrelsStats(s, { perQuery: true });
    expect(text.split("\n").slice(0, 6)).toEqual([
      "num_judged            \tq10\t1",
      "num_rel               \tq10\t0",
      "num_label.0.5         \tq10\t1",
      "num_fractional        \tq10\t1",
      "num_negative          \tq10\t0",
      "num_judged            \tq2\t2",
    ]);
  });

  it("as CSV: qid,measure,value, read back by the project's CSV reader", () => {
    const s = qrelsStats({ "q,1": { a: 1 } });
    const csv = formatQrelsStats(s, { format: "csv", perQuery: true });
    expect(csv.split("\n")[0]).toBe("qid,measure,value");
    const records = [...csvRecords(csv)].map((r) => r.fields);
    expect(records[1]).toEqual(["q,1", "num_judged", "1"]);
    expect(records.at(-1)).toEqual(["all", "num_negative", "0"]);
    expect(records.filter((r) => r[0] === "all").map((r) => r[1])).toEqual([
      "num_q",
      "num_q_no_rel",
      "num_judged",
      "num_rel",
      "num_label.1",
      "num_fractional",
      "num_negative",
    ]);
  });
});

describe("qrelsStats against a naive count", () => {
  it("on random judgments", () => {
    const label = fc.oneof(fc.integer({ min: -2, max: 4 }), fc.constantFrom(0.5, 1.5, -0.25, -0));
    const judgments = fc.dictionary(
      fc.string({ minLength: 1, maxLength: 4 }),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 3 }), label, { maxKeys: 12 }),
      { maxKeys: 8 },
    );
    fc.assert(
      fc.property(judgments, fc.constantFrom(1, 2, 0, 0.5, -1), (j, threshold) => {
        const s = qrelsStats(j, { relevanceThreshold: threshold });
        const qids = Object.keys(j).sort(compareBytes);
        const all = Object.values(j).flatMap((d) => Object.values(d));
        const count = (xs: number[], f: (x: number) => boolean) => xs.filter(f).length;
        const labels = (xs: number[]) =>
          [...new Set(xs.map((x) => (x === 0 ? 0 : x)))]
            .sort((a, b) => a - b)
            .map((l) => ({ label: l, count: count(xs, (x) => x === l) }));
        expect(s).toEqual({
          relevanceThreshold: threshold,
          queries: qids.length,
          judged: all.length,
          relevant: count(all, (x) => x >= threshold),
          labels: labels(all),
          fractional: count(all, (x) => !Number.isInteger(x)),
          negative: count(all, (x) => x < 0),
          queriesWithoutRelevant: qids.filter((q) => !Object.values(j[q]).some((x) => x >= threshold)),
          perQuery: qids.map((q) => {
            const xs = Object.values(j[q]);
            return {
              qid: q,
              judged: xs.length,
              relevant: count(xs, (x) => x >= threshold),
              labels: labels(xs),
              fractional: count(xs, (x) => !Number.isInteger(x)),
              negative: count(xs, (x) => x < 0),
            };
          }),
        });
      }),
      { numRuns: RUNS },
    );
  });
});

describe("qrelsStats refuses", () => {
  const cases: [string, () => unknown, RegExp][] = [
    [
      "a label that is no number",
      () => qrelsStats({ q: { d: "1" as unknown as number } }),
      /qrels row 0 \(query "q", document "d"\): label "1" is not a finite number/,
    ],
    [
      "a document judged twice",
      () => qrelsStats({ qid: ["q", "q"], docid: ["d", "d"], rel: [1, 1] }),
      /qrels: document "d" appears twice in query "q"/,
    ],
    ["not judgments", () => qrelsStats(7 as never), /qrels must be \{ qid: \{ docid: rel \} \} or columns/],
    [
      "a threshold that is no number",
      () => qrelsStats(qrels, { relevanceThreshold: NaN }),
      /relevanceThreshold must be a finite number/,
    ],
    ["an unknown option", () => qrelsStats(qrels, { threshold: 1 } as never), /unknown option "threshold"/],
    ["an unknown format", () => formatQrelsStats(qrelsStats(qrels), { format: "tsv" as never }), /format must be/],
  ];
  for (const [what, call, message] of cases) it(what, () => expect(call).toThrow(message));
});
