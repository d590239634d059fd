// agreement(): kappas against scikit-learn's cohen_kappa_score and statsmodels' fleiss_kappa, alpha
// against Krippendorff's (2011) worked example and a plain coincidence-matrix alpha, all in
// test/fixtures/agreement/ (made by `/usr/bin/python3 scripts/agreement-fixtures.py`); a case worked by
// hand; properties (a set with itself, relabelling, swapping the sets); bad input.
import { readdirSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Agreement, type AgreementOptions, agreement, type Qrels, RankevalError } from "../src/index.js";
import { runs } from "./_seed.js";

type Sets = Record<string, Record<string, number>>[];
interface Case {
  name: string;
  options: AgreementOptions;
  sets: Sets;
  expected: Record<string, unknown> & { per_query: Record<string, unknown>[] };
  published?: Record<string, number>;
}

const dir = new URL("./fixtures/agreement/", import.meta.url);
const cases: Case[] = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), "utf8")));

/** Equal within 1e-12, nulls alike. */
function close(actual: unknown, expected: unknown, what: string) {
  if (expected === null || actual === null) expect(actual, what).toBe(expected);
  else
    expect(Math.abs((actual as number) - (expected as number)), `${what}: ${actual} vs ${expected}`).toBeLessThan(
      1e-12,
    );
}

const VALUES = [
  "observed_agreement",
  "cohen_kappa",
  "cohen_kappa_linear",
  "cohen_kappa_quadratic",
  "binary_kappa",
  "jaccard",
  "fleiss_kappa",
] as const;

describe("agreement: against sklearn, statsmodels and the paper's alpha", () => {
  it("has the fixtures", () => {
    expect(cases.map((c) => c.name).sort()).toEqual([
      "five-decimals-binned",
      "krippendorff-2011",
      "three-integers",
      "two-decimals",
      "two-decimals-binned",
      "two-gaps",
      "two-integers",
      "two-undefined",
    ]);
  });

  it.each(cases)("$name", ({ sets, options, expected }) => {
    const got = agreement(sets, options) as unknown as Record<string, unknown> & Agreement;
    expect(got.pairs).toEqual(expected.pairs);
    for (const key of VALUES) if (key in expected) close(got[key], expected[key], key);
    if (sets.length > 2) expect(got.cohen_kappa).toBeUndefined();
    for (const level of ["nominal", "ordinal", "interval"] as const)
      close(got.krippendorff_alpha[level], (expected.krippendorff_alpha as Record<string, number>)[level], level);
    if (expected.confusion) {
      const { labels, matrix } = got.confusion ?? { labels: null, matrix: null };
      expect({ labels, matrix }).toEqual(expected.confusion);
    }
    expect(got.per_query.map((q) => q.qid)).toEqual(expected.per_query.map((q) => q.qid));
    got.per_query.forEach((q, i) => {
      const want = expected.per_query[i];
      expect([q.pairs, q.only]).toEqual([want.pairs, want.only]);
      for (const key of ["observed_agreement", "cohen_kappa", "binary_kappa", "fleiss_kappa"] as const)
        if (key in want) close(q[key], want[key], `${q.qid} ${key}`);
    });
  });

  it("gives the 2011 paper's published alphas (nominal .743, ordinal .815, interval .849)", () => {
    const paper = cases.find((c) => c.name === "krippendorff-2011") as Case;
    const a = agreement(paper.sets).krippendorff_alpha;
    expect(paper.published).toEqual({ nominal: 0.743, ordinal: 0.815, interval: 0.849 });
    for (const level of ["nominal", "ordinal", "interval"] as const)
      expect(Math.abs((a[level] as number) - (paper.published as Record<string, number>)[level])).toBeLessThan(5e-4);
    // The script's exact fraction.
    expect(a.nominal).toBeCloseTo(113 / 152, 14);
  });
});

describe("agreement: worked by hand", () => {
  // Ten documents of one query: a = 0 0 1 1 1 0 1 0 1 1, b = 0 1 1 1 0 0 1 0 1 1.
  const a = [0, 0, 1, 1, 1, 0, 1, 0, 1, 1];
  const b = [0, 1, 1, 1, 0, 0, 1, 0, 1, 1];
  const set = (labels: number[]) => ({ q: Object.fromEntries(labels.map((l, i) => [`d${i}`, l])) });
  const r = agreement([set(a), set(b)]);

  it("counts, the confusion, observed agreement and Jaccard", () => {
    expect(r.pairs).toEqual({ shared: 10, union: 10, judged: [10, 10], only: [0, 0] });
    expect(r.confusion).toEqual({
      labels: [0, 1],
      matrix: [
        [3, 1],
        [1, 5],
      ],
    });
    expect(r.observed_agreement).toBe(0.8);
    // Relevant (>= 1) by both: 5; by either: 7.
    expect(r.jaccard).toBe(5 / 7);
  });

  it("kappas", () => {
    // p_o = 0.8, p_e = (4 * 4 + 6 * 6) / 100 = 0.52: (0.8 - 0.52) / 0.48 = 7/12; two categories: every weighting alike.
    for (const k of [r.cohen_kappa, r.cohen_kappa_linear, r.cohen_kappa_quadratic, r.binary_kappa, r.fleiss_kappa])
      expect(k).toBeCloseTo(7 / 12, 14);
    expect(r.per_query).toEqual([
      {
        qid: "q",
        pairs: 10,
        only: [0, 0],
        observed_agreement: 0.8,
        cohen_kappa: r.cohen_kappa,
        binary_kappa: r.binary_kappa,
      },
    ]);
  });

  it("alpha", () => {
    // n = 20 values, n_0 = 8, n_1 = 12; 4 ordered disagreeing pairs: 1 - 19 * 4 / (2 * 8 * 12) = 29/48.
    expect(r.krippendorff_alpha.nominal).toBeCloseTo(29 / 48, 14);
    expect(r.krippendorff_alpha.interval).toBeCloseTo(29 / 48, 14);
    expect(r.krippendorff_alpha.ordinal).toBeCloseTo(29 / 48, 14);
  });

  it("weights by the index of a category, not its value (sklearn)", () => {
    // Labels 0 and 10 and 11: 0 -> 11 is two steps, as 0 -> 2 would be.
    const x = agreement([{ q: { a: 0, b: 10, c: 11 } }, { q: { a: 11, b: 10, c: 0 } }]);
    const y = agreement([{ q: { a: 0, b: 1, c: 2 } }, { q: { a: 2, b: 1, c: 0 } }]);
    expect(x.cohen_kappa_linear).toBe(y.cohen_kappa_linear);
    expect(x.cohen_kappa_quadratic).toBe(y.cohen_kappa_quadratic);
    expect(x.krippendorff_alpha.interval).not.toBe(y.krippendorff_alpha.interval);
  });

  it("bins decimal labels, closed on the left (numpy.digitize)", () => {
    const x = agreement([{ q: { a: 0.2, b: 1, c: 1.7 } }, { q: { a: 0.9, b: 0.99, c: 2.5 } }], { bins: [1, 2] });
    expect(x.confusion).toEqual({
      labels: [0, 1, 2],
      intervals: ["< 1", "[1, 2)", ">= 2"],
      // a: [0, 0], b: [1, 0], c: [1, 2].
      matrix: [
        [1, 0, 0],
        [1, 0, 1],
        [0, 0, 0],
      ],
    });
  });

  it("says why a value is null", () => {
    const x = agreement([
      { q: { a: 2, b: 2 }, p: { a: 1 } },
      { q: { a: 2, b: 2 }, p: { b: 1 } },
    ]);
    expect(x.cohen_kappa).toBeNull();
    expect(x.why_null?.cohen_kappa).toMatch(/expected agreement is 1/);
    expect(x.per_query[1]).toEqual({
      qid: "p",
      pairs: 0,
      only: [1, 1],
      observed_agreement: null,
      cohen_kappa: null,
      binary_kappa: null,
      why_null: {
        observed_agreement: "no pair is judged by every set",
        cohen_kappa: "no pair is judged by every set",
        binary_kappa: "no pair is judged by every set",
      },
    });
  });

  it("reads columns as objects", () => {
    // Object.keys puts "7" first, as an integer key.
    const columns = { qid: [7, "q", "q", "q"], docid: [1, "a", "b", "c"], rel: Float64Array.of(3, 0, 1, 2) };
    const objects = { q: { a: 0, b: 1, c: 2 }, "7": { "1": 3 } };
    const other = { q: { a: 1, b: 1, c: 2 }, "7": { "1": 3 } };
    expect(agreement([columns, other])).toEqual(agreement([objects, other]));
  });
});

/** Sets of judgments: `sets` sets over a few queries and documents, labels 0-4, some pairs missing. */
const judgments = (sets: number) =>
  fc
    .array(
      fc.tuple(
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 9 }),
        fc.array(fc.option(fc.integer({ min: 0, max: 4 })), { minLength: sets, maxLength: sets }),
      ),
      {
        minLength: 1,
        maxLength: 60,
      },
    )
    .map((rows) => {
      const out: Sets = Array.from({ length: sets }, () => ({}));
      for (const [q, d, labels] of rows)
        labels.forEach((l, s) => {
          if (l !== null) (out[s][`q${q}`] ??= {})[`d${d}`] = l;
        });
      return out;
    });

const KAPPAS = ["cohen_kappa", "cohen_kappa_linear", "cohen_kappa_quadratic", "binary_kappa", "fleiss_kappa"] as const;

describe("agreement: properties", () => {
  it("a set with itself agrees fully where anything is defined", () => {
    fc.assert(
      fc.property(judgments(1), fc.integer({ min: 2, max: 4 }), ([one], copies) => {
        const r = agreement(Array.from({ length: copies }, () => one));
        for (const k of KAPPAS) if (r[k] != null) expect(r[k]).toBe(1);
        for (const v of Object.values(r.krippendorff_alpha)) if (v !== null) expect(v).toBe(1);
        expect([r.observed_agreement, r.jaccard].filter((v) => v !== null && v !== 1)).toEqual([]);
        for (const q of r.per_query) if (q.cohen_kappa != null) expect(q.cohen_kappa).toBe(1);
      }),
      { numRuns: runs(100) },
    );
  });

  it("nominal alpha, unweighted and Fleiss' kappa do not see the labels' names", () => {
    const names = [7, -3, 0.5, 100, 2];
    fc.assert(
      fc.property(judgments(3), fc.integer({ min: 2, max: 3 }), (sets, m) => {
        const some = sets.slice(0, m);
        const renamed = some.map((s) =>
          Object.fromEntries(
            Object.entries(s).map(([q, docs]) => [
              q,
              Object.fromEntries(Object.entries(docs).map(([d, l]) => [d, names[l]])),
            ]),
          ),
        );
        const [x, y] = [agreement(some), agreement(renamed)];
        for (const key of ["cohen_kappa", "fleiss_kappa", "observed_agreement"] as const) {
          if (x[key] == null) expect(y[key]).toBe(x[key]);
          else expect(Math.abs((y[key] as number) - x[key])).toBeLessThan(1e-12);
        }
        const [a, b] = [x.krippendorff_alpha.nominal, y.krippendorff_alpha.nominal];
        if (a === null) expect(b).toBeNull();
        else expect(Math.abs((b as number) - a)).toBeLessThan(1e-12);
      }),
      { numRuns: runs(100) },
    );
  });

  it("swapping two sets leaves the kappas and alphas, and transposes the confusion", () => {
    fc.assert(
      fc.property(judgments(2), ([a, b]) => {
        const [x, y] = [agreement([a, b]), agreement([b, a])];
        for (const k of KAPPAS) {
          if (x[k] == null) expect(y[k]).toBe(x[k]);
          else expect(Math.abs((y[k] as number) - (x[k] as number))).toBeLessThan(1e-12);
        }
        for (const level of ["nominal", "ordinal", "interval"] as const) {
          const [u, v] = [x.krippendorff_alpha[level], y.krippendorff_alpha[level]];
          if (u === null) expect(v).toBeNull();
          else expect(Math.abs((v as number) - u)).toBeLessThan(1e-12);
        }
        expect(y.pairs.only).toEqual([...x.pairs.only].reverse());
        const m = x.confusion?.matrix ?? [];
        expect(y.confusion).toEqual({
          labels: x.confusion?.labels,
          matrix: m.map((row, i) => row.map((_, j) => m[j][i])),
        });
      }),
      { numRuns: runs(100) },
    );
  });
});

describe("agreement: bad input", () => {
  const ok = { q: { a: 1 } };
  const cases: [string, () => unknown, RegExp | string][] = [
    ["one set", () => agreement([ok]), /sets must be an array of 2 or more/],
    [
      "no array",
      () => agreement(ok as unknown as Qrels[]),
      /sets must be an array of 2 or more judgments .* not an object/,
    ],
    [
      "a label that is a string",
      () => agreement([ok, { q3: { d9: "2" } } as unknown as Qrels]),
      'sets[1]: query "q3" document "d9": label must be a finite number, not "2"',
    ],
    [
      "a NaN label",
      () => agreement([{ q: { a: Number.NaN } }, ok]),
      'sets[0]: query "q" document "a": label must be a finite number, not NaN',
    ],
    [
      "a query that is no object",
      () => agreement([ok, { q: 3 } as unknown as Qrels]),
      /sets\[1\]\["q"\] must be an object/,
    ],
    [
      "a set that is no object",
      () => agreement([ok, 5 as unknown as Qrels]),
      /sets\[1\] must be \{ qid: \{ docid: rel \} \} or columns/,
    ],
    [
      "a document twice in columns",
      () => agreement([ok, { qid: ["q", "q"], docid: ["a", "a"], rel: [1, 2] }]),
      'sets[1] row 1: document "a" appears twice in query "q"',
    ],
    [
      "columns of two lengths",
      () => agreement([ok, { qid: ["q", "q"], docid: ["a"], rel: [1, 2] }]),
      "sets[1].docid has 1 value but sets[1].qid has 2",
    ],
    [
      "bins out of order",
      () => agreement([ok, ok], { bins: [2, 1] }),
      "agreement: bins must ascend strictly: bins[1] = 1 after 2",
    ],
    [
      "a bin that is no number",
      () => agreement([ok, ok], { bins: [1, "2"] as unknown as number[] }),
      'agreement: bins[1] must be a finite number, not "2"',
    ],
    [
      "a threshold that is not finite",
      () => agreement([ok, ok], { threshold: Number.POSITIVE_INFINITY }),
      /threshold must be a finite number/,
    ],
    [
      "an unknown option",
      () => agreement([ok, ok], { treshold: 2 } as AgreementOptions),
      /unknown option "treshold".*did you mean/,
    ],
  ];
  it.each(cases)("%s", (_, call, message) => {
    let error: unknown;
    try {
      call();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RankevalError);
    if (typeof message === "string") expect((error as Error).message).toBe(message);
    else expect((error as Error).message).toMatch(message);
  });
});
