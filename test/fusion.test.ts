// fuse() and normalize() against ranx 0.3.20 (test/fixtures/fusion/ranx.json, made by
// test/fusion/make-ranx-fixtures.py), hand-computed cases, and bad calls.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fuse, type NormName, normalize, RankevalError, type ScoredRun } from "../src/index.js";
import { pythonSorted, rankOrder } from "../src/fusion/order.js";

type Ranked = Record<string, [string, number][]>;
interface Fixtures {
  runs: Record<string, ScoredRun>;
  normalize: { run: string; norm: NormName; out: Ranked }[];
  fuse: { runs: string[]; method: string; norm: NormName | null; params: Record<string, unknown>; out: Ranked }[];
}
const fixtures: Fixtures = JSON.parse(readFileSync(join(__dirname, "fixtures/fusion/ranx.json"), "utf8"));

/** `got` as ranx's `want`: the same queries, documents in the same order, scores within 1e-9 (relative past 1). */
function expectRanked(got: ScoredRun, want: Ranked, what: string): void {
  expect(Object.keys(got).sort(), what).toEqual(Object.keys(want).sort());
  for (const [qid, docs] of Object.entries(want)) {
    const pairs = Object.entries(got[qid]);
    expect(
      pairs.map(([d]) => d),
      `${what}, ${qid}: the order`,
    ).toEqual(docs.map(([d]) => d));
    for (let i = 0; i < docs.length; i++) {
      const [d, s] = docs[i];
      const diff = Math.abs(pairs[i][1] - s);
      if (!(diff <= 1e-9 * Math.max(1, Math.abs(s)))) expect(pairs[i][1], `${what}, ${qid}, ${d}`).toBe(s);
    }
  }
}

describe("normalize, against ranx", () => {
  it.each(fixtures.normalize.map((c) => [c.norm, c.run, c] as const))("%s of run %s", (_n, _r, c) => {
    expectRanked(normalize(fixtures.runs[c.run], c.norm), c.out, `${c.norm} of ${c.run}`);
  });
});

describe("fuse, against ranx", () => {
  const cases = fixtures.fuse.map(
    (c) => [c.method, JSON.stringify(c.params), String(c.norm), c.runs.join("+"), c] as const,
  );
  it.each(cases)("%s %s, norm %s, runs %s", (_m, _p, _n, _r, c) => {
    const got = fuse(
      c.runs.map((r) => fixtures.runs[r]),
      { method: c.method, norm: c.norm, params: c.params },
    );
    expectRanked(got, c.out, `${c.method} ${JSON.stringify(c.params)} ${c.norm}`);
  });

  it("covers every method, norm and no norm, on 2 and 3 runs", () => {
    const seen = new Set(fixtures.fuse.map((c) => `${c.method} ${c.norm} ${c.runs.length}`));
    for (const m of ["rrf", "isr", "log_isr", "logn_isr", "bordafuse", "w_bordafuse", "condorcet", "w_condorcet"])
      for (const m2 of [m, "max", "min", "med", "sum", "anz", "mnz", "gmnz", "wsum", "wmnz", "mixed", "rbc"])
        for (const n of ["null", "min-max", "min-max-inverted", "max", "sum", "zmuv", "rank", "borda"])
          for (const k of [2, 3]) expect(seen.has(`${m2} ${n} ${k}`), `${m2} ${n} ${k}`).toBe(true);
  });
});

describe("fuse, by hand", () => {
  // Two runs of one query, no normalisation (rank-based: only the order counts), k = 60:
  //   a: x 3, y 2, z 1          -> ranks x 1, y 2, z 3
  //   b: y 9, w 5               -> ranks y 1, w 2
  // rrf(d) = sum over runs with d of 1 / (60 + rank):
  //   y = 1/62 + 1/61, x = 1/61, w = 1/62, z = 1/63
  const a = { q: { x: 3, y: 2, z: 1 } };
  const b = { q: { y: 9, w: 5 } };

  it("rrf with k = 60 on two tiny runs", () => {
    const got = fuse([a, b], { method: "rrf", norm: null });
    expect(Object.keys(got.q)).toEqual(["y", "x", "w", "z"]);
    expect(got.q.y).toBeCloseTo(1 / 62 + 1 / 61, 15);
    expect(got.q.x).toBeCloseTo(1 / 61, 15);
    expect(got.q.w).toBeCloseTo(1 / 62, 15);
    expect(got.q.z).toBeCloseTo(1 / 63, 15);
    // The default norm (min-max) keeps the order, so the same numbers.
    expect(fuse([a, b], { method: "rrf" })).toEqual(got);
    // k = 0: y = 1/2 + 1/1.
    expect(fuse([a, b], { method: "rrf", params: { k: 0 } }).q.y).toBe(1.5);
  });

  it("min-max then wsum: a run lacking a document adds 0 for it", () => {
    // min-max: a: x 1, y 0.5, z 0; b: y 1, w 0. wsum 0.25 / 0.75: y = 0.125 + 0.75, x = 0.25, w = 0, z = 0.
    const got = fuse([a, b], { method: "wsum", params: { weights: [0.25, 0.75] } });
    expect(got.q).toEqual({ y: 0.875, x: 0.25, z: 0, w: 0 });
  });

  it("accepts ranx's and the issue's names of the weighted methods, and underscored norms", () => {
    const w = { weights: [1, 2] };
    expect(fuse([a, b], { method: "weighted_bordafuse", params: w })).toEqual(
      fuse([a, b], { method: "w_bordafuse", params: w }),
    );
    expect(fuse([a, b], { method: "weighted_condorcet", params: w })).toEqual(
      fuse([a, b], { method: "w_condorcet", params: w }),
    );
    expect(fuse([a, b], { method: "sum", norm: "min_max" as NormName })).toEqual(
      fuse([a, b], { method: "sum", norm: "min-max" }),
    );
  });

  it("normalize: one document, all scores equal, no documents", () => {
    expect(normalize({ q: { d: 5 } }, "min-max")).toEqual({ q: { d: 0 } });
    expect(normalize({ q: { d: 5 } }, "zmuv")).toEqual({ q: { d: 0 } });
    expect(normalize({ q: { d: 5, e: 5 } }, "sum")).toEqual({ q: { d: 0, e: 0 } });
    expect(normalize({ q: { d: 5, e: 5 } }, "max")).toEqual({ q: { d: 1, e: 1 } });
    expect(normalize({ q: { d: 5, e: 5 } }, "rank")).toEqual({ q: { d: 1, e: 0.5 } });
    expect(normalize({ q: {} }, "min-max")).toEqual({ q: {} });
  });
});

describe("the orders ranx's sorts leave", () => {
  it("rankOrder: numba's quicksort, not stable past 15 items", () => {
    // Insertion sort below 16 items: ties keep their order.
    expect([...rankOrder(Float64Array.from([1, 2, 1, 2]))]).toEqual([1, 3, 0, 2]);
    // 20 equal scores: numba's partition swaps them (a stable sort would give 0..19).
    const order = [...rankOrder(new Float64Array(20))];
    expect(order).not.toEqual([...Array(20).keys()]);
    expect([...order].sort((x, y) => x - y)).toEqual([...Array(20).keys()]);
  });

  it("pythonSorted: a consistent order sorts, as sorted() does", () => {
    const keys = [5, 3, 9, 1, 7, 3];
    expect([...pythonSorted(keys.length, (x, y) => keys[x] < keys[y])]).toEqual([3, 1, 5, 0, 4, 2]);
  });
});

describe("fuse and normalize, bad calls", () => {
  const a = { q: { x: 1 } };
  const b = { q: { y: 1 } };
  const bad = (f: () => unknown): RankevalError => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(RankevalError);
      return e as RankevalError;
    }
    throw new Error("no error");
  };

  it("an unknown method or norm names the option and lists the names", () => {
    const m = bad(() => fuse([a, b], { method: "rrff" }));
    expect(m.code).toBe("bad-option");
    expect(m.message).toMatch(/method must be one of rrf, .*wsum.*not "rrff".*did you mean.*rrf/is);
    const n = bad(() => fuse([a, b], { method: "rrf", norm: "minmax" as NormName }));
    expect(n.message).toMatch(/norm must be one of min-max, min-max-inverted, max, sum, zmuv, rank, borda, not "minmax"/);
    expect(bad(() => normalize(a, "l2" as NormName)).message).toMatch(/normalize: norm must be one of min-max/);
  });

  it("bad params: a missing, unknown or wrong parameter, weights of the wrong length, a negative k", () => {
    expect(bad(() => fuse([a, b], { method: "wsum" })).message).toMatch(/wsum's params: option weights is missing/);
    expect(bad(() => fuse([a, b], { method: "wsum", params: { weights: [1] } })).message).toMatch(
      /weights must have one weight per run \(2\)/,
    );
    expect(bad(() => fuse([a, b], { method: "rrf", params: { k: -1 } })).message).toMatch(
      /k must be a finite number >= 0, not -1/,
    );
    expect(bad(() => fuse([a, b], { method: "rrf", params: { phi: 0.5 } })).message).toMatch(
      /unknown option "phi".*the options are k/,
    );
    expect(bad(() => fuse([a, b], { method: "rbc" })).message).toMatch(/option phi is missing: it must be a number in \[0, 1\]/);
    expect(bad(() => fuse([a, b], { method: "gmnz" })).message).toMatch(/option gamma is missing/);
    expect(bad(() => fuse([a, b], { method: "logn_isr", params: { sigma: 2 } })).message).toMatch(/sigma must be a number in \[0, 1\]/);
  });

  it("fewer than 2 runs, runs with other queries, scores that are not numbers", () => {
    expect(bad(() => fuse([a], { method: "rrf" })).message).toMatch(/at least 2 runs/);
    expect(bad(() => fuse([a, { p: { x: 1 } }], { method: "rrf" })).message).toMatch(
      /runs\[0\] and runs\[1\] must have the same queries.*query "q" is in runs\[0\] only/,
    );
    const e = bad(() => fuse([a, { q: { y: "1" } } as unknown as ScoredRun], { method: "sum" }));
    expect(e.code).toBe("bad-input");
    expect(e.message).toMatch(/runs\[1\]\["q"\]\["y"\] is "1", not a finite number/);
  });
});
