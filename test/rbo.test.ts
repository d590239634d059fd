// rbo: RBO_ext of Webber, Moffat and Zobel (2010) on cases worked by hand (equal and unequal lengths,
// ties), against equation 32 as the paper writes it and against the agreement summed depth by depth
// from prefix sets, on random rankings; the queries it compares and its errors.
import { describe, expect, it } from "vitest";
import { rbo, type RankevalError } from "../src/index.js";

type Scores = Record<string, number>;

/** A ranking without ties: the first document scores highest. */
const ranked = (...docs: string[]): Scores => Object.fromEntries(docs.map((d, i) => [d, docs.length - i]));

/** RBO of one query's two rankings. */
const one = (a: Scores, b: Scores, p?: number) =>
  rbo({ q: a }, { q: b }, p === undefined ? undefined : { p }).values[0];

/** Equation 32 of the paper, as written, for rankings without ties (S the shorter; lists of ids, best first). */
function equation32(S: string[], L: string[], p: number): number {
  if (S.length > L.length) [S, L] = [L, S];
  const s = S.length;
  const l = L.length;
  // X_d: |S_:d ∩ L_:d| (S whole past s).
  const X = (d: number) => {
    const a = new Set(S.slice(0, Math.min(d, s)));
    return L.slice(0, d).filter((x) => a.has(x)).length;
  };
  let first = 0;
  for (let d = 1; d <= l; d++) first += (X(d) / d) * p ** d;
  let second = 0;
  for (let d = s + 1; d <= l; d++) second += ((X(s) * (d - s)) / (s * d)) * p ** d;
  return ((1 - p) / p) * (first + second) + ((X(l) - X(s)) / l + X(s) / s) * p ** l;
}

/**
 * RBO as the infinite sum (1 - p) sum_d p^(d-1) A_d, cut where p^d is negligible, from prefix sets built
 * afresh at every depth: a document is in the prefix at depth d when fewer than d documents score above
 * it (its tie group begins by d). A_d = 2 |S_:d ∩ L_:d| / (|S_:d| + |L_:d|) while both are seen; past
 * the shorter list's end (s) its unseen documents agree at its last rate, A_s; past the longer's (l),
 * the agreement stays what it is at l.
 */
function summedByDepth(a: Scores, b: Scores, p: number): number {
  const [S, L] = Object.keys(a).length <= Object.keys(b).length ? [a, b] : [b, a];
  const s = Object.keys(S).length;
  const l = Object.keys(L).length;
  const prefix = (r: Scores, d: number) =>
    new Set(Object.keys(r).filter((x) => Object.values(r).filter((v) => v > r[x]).length < d));
  const agreement: number[] = [];
  let aS = 0;
  for (let d = 1; d <= l; d++) {
    const Ld = prefix(L, d);
    const Sd = prefix(S, Math.min(d, s));
    const x = [...Sd].filter((k) => Ld.has(k)).length;
    const A = d <= s ? (2 * x) / (Sd.size + Ld.size) : (2 * (x + (d - s) * aS)) / (d + Ld.size);
    if (d === s) aS = A;
    agreement.push(A);
  }
  const last = agreement[l - 1];
  let sum = 0;
  for (let d = 1; p ** (d - 1) > 1e-18; d++) sum += (1 - p) * p ** (d - 1) * (d <= l ? agreement[d - 1] : last);
  return sum;
}

describe("rbo, worked by hand", () => {
  it("is 1 for identical rankings and 0 for disjoint ones", () => {
    expect(one(ranked("a", "b", "c"), ranked("a", "b", "c"))).toBeCloseTo(1, 15);
    expect(one({ a: 1, b: 1 }, { a: 5, b: 5 })).toBeCloseTo(1, 15);
    expect(one(ranked("a", "b", "c"), ranked("d", "e"))).toBe(0);
  });

  it("equal lengths: S = a b c, L = b a d", () => {
    // X_1 = 0, X_2 = 2 ({a, b}), X_3 = 2: A = 0, 1, 2/3. p = 0.9:
    // (1 - p)(0 + 0.9 * 1 + 0.81 * 2/3) = 0.1 * 1.44 = 0.144; the tail p^3 X_3/3 = 0.729 * 2/3 = 0.486.
    expect(one(ranked("a", "b", "c"), ranked("b", "a", "d"))).toBeCloseTo(0.63, 14);
  });

  it("unequal lengths: S = a b, L = b c a d", () => {
    // s = 2, l = 4. X_1 = 0, X_2 = 1 ({b}): A_1 = 0, A_2 = A_s = 1/2.
    // d = 3: X_3 = 2 seen, plus (3 - 2) A_s of S's unseen: A_3 = 2.5/3 = 5/6 (eq. 32: 2/3 + 1 * 1/(2 * 3)).
    // d = 4: X_4 = 2, plus 2 A_s: A_4 = 3/4 (eq. 32: 2/4 + 1 * 2/(2 * 4)).
    // (1 - p)(0 + 0.9/2 + 0.81 * 5/6 + 0.729 * 3/4) = 0.1 * 1.67175 = 0.167175;
    // the tail p^4 ((X_l - X_s)/l + X_s/s) = 0.6561 * (1/4 + 1/2) = 0.492075. RBO = 0.65925.
    expect(one(ranked("a", "b"), ranked("b", "c", "a", "d"))).toBeCloseTo(0.65925, 14);
    // Symmetric: the shorter list is S whichever run has it.
    expect(one(ranked("b", "c", "a", "d"), ranked("a", "b"))).toBeCloseTo(0.65925, 14);
  });

  it("ties: tied documents enter the prefix together, A_d = 2 X_d / (|S_:d| + |L_:d|)", () => {
    // A: a, then b and c tied (both at depth 2), then d; B: b a c d.
    // d = 1: {a} and {b}: 0. d = 2: {a, b, c} and {b, a}: 2 * 2 / (3 + 2) = 0.8. d = 3, 4: 1.
    // (1 - p)(0 + 0.9 * 0.8 + 0.81 + 0.729) = 0.2259; the tail p^4 * 4/4 = 0.6561. RBO = 0.882.
    expect(one({ a: 3, b: 2, c: 2, d: 1 }, ranked("b", "a", "c", "d"))).toBeCloseTo(0.882, 14);
    // {a, b} tied against a b: d = 1: 2 * 1 / (2 + 1) = 2/3; d = 2: 1. 0.1 (2/3 + 0.9) + 0.81 = 0.96667.
    expect(one({ a: 1, b: 1 }, ranked("a", "b"))).toBeCloseTo(0.1 * (2 / 3 + 0.9) + 0.81, 14);
  });

  it("takes p: a smaller p weighs the top more", () => {
    // S = a b c, L = b a d at p = 0.5: 0.5 (0 + 0.5 + 0.25 * 2/3) + 0.125 * 2/3 = 0.41667.
    expect(one(ranked("a", "b", "c"), ranked("b", "a", "d"), 0.5)).toBeCloseTo(
      0.5 * (0.5 + 0.25 * (2 / 3)) + 0.125 * (2 / 3),
      14,
    );
  });
});

describe("rbo against the formula, on random rankings", () => {
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  /** A random ranking of up to `n` of `pool` documents; `levels` distinct scores at most (ties), or none. */
  const randomRanking = (n: number, pool: number, levels?: number): Scores => {
    const docs = new Set<string>();
    while (docs.size < n) docs.add(`d${Math.floor(random() * pool)}`);
    return Object.fromEntries([...docs].map((d) => [d, levels ? Math.floor(random() * levels) : random()]));
  };

  it("is equation 32 where there are no ties", () => {
    for (let trial = 0; trial < 200; trial++) {
      const a = randomRanking(1 + Math.floor(random() * 12), 20);
      const b = randomRanking(1 + Math.floor(random() * 12), 20);
      const p = [0.5, 0.8, 0.9, 0.98][trial % 4];
      const list = (r: Scores) => Object.keys(r).sort((x, y) => r[y] - r[x]);
      expect(one(a, b, p)).toBeCloseTo(equation32(list(a), list(b), p), 12);
    }
  });

  it("is the agreement summed depth by depth, with and without ties", () => {
    for (let trial = 0; trial < 200; trial++) {
      const levels = trial % 2 ? 1 + Math.floor(random() * 5) : undefined;
      const a = randomRanking(1 + Math.floor(random() * 10), 16, levels);
      const b = randomRanking(1 + Math.floor(random() * 10), 16, levels);
      const p = [0.5, 0.8, 0.9][trial % 3];
      expect(one(a, b, p)).toBeCloseTo(summedByDepth(a, b, p), 12);
    }
  });
});

describe("rbo over queries", () => {
  it("compares every query with a document in either run, in trec_eval's order; one run's only is 0", () => {
    const r = rbo(
      { q2: ranked("a", "b"), q10: ranked("x"), q1: ranked("a"), empty: {} },
      { q1: ranked("a"), q2: ranked("b", "a"), q3: ranked("z") },
    );
    expect(r.qids).toEqual(["q1", "q10", "q2", "q3"]);
    // q2: A = 0, 1: 0.1 * 0.9 + 0.81 = 0.9.
    expect([...r.values].map((v) => +v.toFixed(12))).toEqual([1, 0, 0.9, 0]);
    expect(r.mean).toBeCloseTo(1.9 / 4, 14);
    expect(r.values).toBeInstanceOf(Float64Array);
  });

  it("takes p = 0.9 by default", () => {
    const a = { q: ranked("a", "b", "c") };
    const b = { q: ranked("b", "a", "d") };
    expect(rbo(a, b).mean).toBe(rbo(a, b, { p: 0.9 }).mean);
    expect(rbo(a, b, { p: 0.5 }).mean).not.toBe(rbo(a, b).mean);
  });
});

describe("rbo: errors", () => {
  const thrown = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e as RankevalError;
    }
    throw new Error("did not throw");
  };
  const run = { q1: ranked("a", "b") };

  it("checks p through the options' one check", () => {
    for (const p of [0, 1, -0.5, 1.5, Number.NaN]) {
      const e = thrown(() => rbo(run, run, { p }));
      expect(e.code).toBe("bad-option");
      expect(e.message).toBe(`rbo: p must be a number between 0 and 1, not ${p}`);
    }
    expect(thrown(() => rbo(run, run, { P: 0.5 } as never)).message).toMatch(
      /^rbo: unknown option "P" \(did you mean p\?\)/,
    );
  });

  it("says which score is not a finite number, and what is not a run", () => {
    expect(thrown(() => rbo(run, { q1: { a: 1, b: Number.NaN } })).message).toBe(
      'rbo: runB["q1"]["b"]: score NaN is not a finite number',
    );
    expect(thrown(() => rbo([] as never, run)).message).toBe(
      "rbo: runA must be { qid: { docid: score } }, not an array (length 0)",
    );
    expect(thrown(() => rbo(run, { q1: 3 } as never)).message).toBe(
      'rbo: runB["q1"] must be an object of docid: score, not 3',
    );
  });

  it("refuses runs with no query in common, or no document at all", () => {
    const e = thrown(() => rbo(run, { 1: ranked("a") }));
    expect(e.code).toBe("bad-input");
    expect(e.message).toBe(
      'rbo: runA and runB have no query in common (runA: "q1"; runB: "1"): are the ids written alike?',
    );
    expect(thrown(() => rbo({}, { q: {} })).message).toBe("rbo: neither run has a document: no query to compare");
  });
});
