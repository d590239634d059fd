// pool() against its definitions written out plainly below (naive loops over objects, ranks from the
// reference's rank(), evaluation's order), on seeded random runs, small and at real size; its properties;
// hand-worked RBP and RRF pools with ties; and the messages of bad inputs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPool, type Pool, pool, type PoolOptions, type Qrels, type Run } from "../src/index.js";
import { compareBytes } from "../src/c/strings.js";
import { rank } from "../src/reference/ranking.js";
import { RUNS } from "./_random.js";
import { seedOr } from "./_seed.js";

type Obj = Record<string, Record<string, number>>;

/** A query's documents in evaluation's order (kept: the real-size case ranks each list once). */
const rankings = new WeakMap<Record<string, number>, string[]>();
function ranked(docs: Record<string, number>): string[] {
  let list = rankings.get(docs);
  if (!list) {
    list = rank(
      Object.entries(docs).map(([docid, score]) => ({ docid, score, label: undefined })),
      Infinity,
    ).map((d) => d.docid!);
    rankings.set(docs, list);
  }
  return list;
}

/** The definitions, plainly. */
function naivePool(runs: Obj[], o: PoolOptions & { judged?: Obj }) {
  const [name, arg] = o.method.split(":");
  const judged = o.judged ?? {};
  const isJudged = (q: string, d: string) => Object.hasOwn(judged, q) && Object.hasOwn(judged[q], d);
  const qids = [...new Set(runs.flatMap((r) => Object.keys(r)))].sort(compareBytes);
  const depth = name === "depth" ? Number(arg ?? o.depth) : (o.depth ?? Infinity);
  const queries = qids.map((q) => {
    const lists = runs.map((r) => (Object.hasOwn(r, q) ? ranked(r[q]) : []));
    if (name === "depth") {
      const set = new Set<string>();
      for (const list of lists) for (const d of list.slice(0, depth)) if (!isJudged(q, d)) set.add(d);
      return { qid: q, docids: [...set].sort(compareBytes) };
    }
    const p = Number(arg ?? (name === "rbp" ? 0.8 : 60));
    const weight = new Map<string, number>();
    for (const list of lists)
      list.forEach((d, i) => {
        if (i >= depth) return;
        const w = name === "rbp" ? (1 - p) * p ** i : 1 / (p + i + 1);
        const before = weight.get(d) ?? 0;
        weight.set(d, o.combine === "max" ? Math.max(before, w) : before + w);
      });
    const docs = [...weight.keys()].filter((d) => !isJudged(q, d));
    docs.sort((a, b) => weight.get(b)! - weight.get(a)! || compareBytes(a, b));
    const kept = docs.slice(0, o.budget);
    return { qid: q, docids: kept, weights: kept.map((d) => weight.get(d)!) };
  });
  const cut = o.coverageDepth ?? (name === "depth" ? depth : 10);
  const coverage = runs.map((r, run) => {
    const perQuery = { covered: [] as number[], ranked: [] as number[] };
    queries.forEach(({ qid, docids }) => {
      const top = Object.hasOwn(r, qid) ? ranked(r[qid]).slice(0, cut) : [];
      const pooled = new Set(docids);
      perQuery.covered.push(top.filter((d) => pooled.has(d) || isJudged(qid, d)).length);
      perQuery.ranked.push(top.length);
    });
    const covered = perQuery.covered.reduce((a, b) => a + b, 0);
    const all = perQuery.ranked.reduce((a, b) => a + b, 0);
    return { run, covered, ranked: all, share: all === 0 ? null : covered / all, perQuery };
  });
  return { queries, size: queries.reduce((n, q) => n + q.docids.length, 0), coverage };
}

/** Columns of an object run, rows shuffled. */
function columns(run: Obj, next: () => number) {
  const rows = Object.entries(run).flatMap(([q, docs]) => Object.entries(docs).map(([d, s]) => [q, d, s] as const));
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  return { qid: rows.map((r) => r[0]), docid: rows.map((r) => r[1]), score: Float64Array.from(rows, (r) => r[2]) };
}

/** mulberry32. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random runs: `queries` queries, each run holding most, up to `perQuery` documents of 3x as many, with ties. */
function randomRuns(next: () => number, runs: number, queries: number, perQuery: number): Obj[] {
  const int = (n: number) => Math.floor(next() * n);
  const qids = Array.from({ length: queries }, () => `q${int(10 * queries)}`);
  return Array.from({ length: runs }, () => {
    const run: Obj = {};
    for (const q of qids) {
      if (next() < 0.1) continue;
      const docs: Record<string, number> = {};
      const n = 1 + int(perQuery);
      for (let k = 0; k < n; k++) {
        // Non-ASCII ids now and then: byte order is not UTF-16 order there.
        const d =
          next() < 0.05 ? `dé${int(3 * perQuery)}` : next() < 0.02 ? `d\u{1F600}${int(5)}` : `d${int(3 * perQuery)}`;
        docs[d] = next() < 0.5 ? int(4) : Math.round(next() * 1e6) / 1e3;
      }
      run[q] = docs;
    }
    return run;
  });
}

function randomJudged(next: () => number, runs: Obj[], share: number): Obj {
  const judged: Obj = {};
  for (const run of runs)
    for (const [q, docs] of Object.entries(run))
      for (const d of Object.keys(docs)) if (next() < share) (judged[q] ??= {})[d] = Math.floor(next() * 3) - 1;
  return judged;
}

const plain = (p: Pool) => ({
  queries: p.queries.map((q) => (q.weights ? { ...q } : { qid: q.qid, docids: q.docids })),
  size: p.size,
  coverage: p.coverage,
});

const METHODS: PoolOptions[] = [
  { method: "depth:1" },
  { method: "depth:5" },
  { method: "depth", depth: 20, coverageDepth: 3 },
  { method: "rbp:0.8", budget: 5 },
  { method: "rbp:0.5", budget: 3, combine: "max" },
  { method: "rbp", budget: 10, depth: 4, coverageDepth: 7 },
  { method: "rrf:60", budget: 5 },
  { method: "rrf:0", budget: 2, combine: "max" },
  { method: "rrf", budget: 100 },
];

describe("pool() equals its definitions", () => {
  it("on random runs, objects and columns, with and without judgments", () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 5 }), fc.boolean(), (seed, runCount, withJudged) => {
        const next = random(seed);
        const runs = randomRuns(next, runCount, 1 + Math.floor(next() * 8), 12);
        const judged = withJudged ? randomJudged(next, runs, 0.3) : undefined;
        const given: Run[] = runs.map((r) => (next() < 0.5 ? r : columns(r, next)));
        for (const o of METHODS) {
          const options = judged ? { ...o, judged } : o;
          expect(plain(pool(given, options))).toEqual(naivePool(runs, options));
        }
      }),
      { numRuns: Math.max(1, Math.round(RUNS / 3)) },
    );
  });

  it("at real size: 2,000 queries x 5 runs x 100 documents, a tenth judged", { timeout: 120_000 }, () => {
    const next = random(seedOr(38));
    const runs = randomRuns(next, 5, 2000, 100).map((run) => {
      // 100 documents a query: ranks deep enough for depth:100 and long RBP tails.
      for (const q of Object.keys(run)) {
        const docs = run[q];
        for (let n = Object.keys(docs).length; n < 100; ) {
          const d = `x${Math.floor(next() * 300)}`;
          if (!Object.hasOwn(docs, d)) n++;
          docs[d] = next();
        }
      }
      return run;
    });
    const judged = randomJudged(next, runs, 0.1);
    const given = runs.map((r, i) => (i % 2 ? r : columns(r, next)));
    for (const o of [
      { method: "depth:100" },
      { method: "depth:10", judged },
      { method: "rbp:0.8", budget: 100, judged },
      { method: "rrf:60", budget: 50 },
    ] as PoolOptions[]) {
      const got = plain(pool(given, o));
      const want = naivePool(runs, o as PoolOptions & { judged?: Obj });
      // As text: a deep toEqual of 2,000 queries took most of the test's time; a difference is shown by query.
      const differs = got.queries.findIndex((q, i) => JSON.stringify(q) !== JSON.stringify(want.queries[i]));
      if (differs >= 0) expect(got.queries[differs]).toEqual(want.queries[differs]);
      expect(got.queries.length).toBe(want.queries.length);
      expect(JSON.stringify(got.coverage)).toBe(JSON.stringify(want.coverage));
      expect(got.size).toBe(want.size);
    }
  });
});

describe("pool() on columns of string ids (read as they are, not as UTF-8 bytes)", () => {
  // Objects are read as UTF-8 bytes always; columns whose ids are strings or numbers without surrogates
  // as JavaScript strings (query-docs.ts readStrings, QueryStrings): the two readings must agree.

  /** Random runs whose ids have no surrogate: ASCII, Latin-1, U+E000 and U+FF71 (UTF-16 and UTF-8 agree), digits. */
  function plainRuns(next: () => number, runs: number, queries: number, perQuery: number): Obj[] {
    const int = (n: number) => Math.floor(next() * n);
    const kinds = ["d", "dé", "d\uE000", "d\uFF71", ""];
    const qids = Array.from({ length: queries }, () => (next() < 0.3 ? String(int(50)) : `q${int(10 * queries)}`));
    return Array.from({ length: runs }, () => {
      const run: Obj = {};
      for (const q of qids) {
        if (next() < 0.1) continue;
        const docs: Record<string, number> = {};
        const n = 1 + int(perQuery);
        for (let k = 0; k < n; k++)
          docs[`${kinds[int(kinds.length)]}${int(2 * perQuery)}`] = next() < 0.5 ? int(3) : next();
        run[q] = docs;
      }
      return run;
    });
  }

  /** Columns of an object run: rows shuffled (queries not contiguous, not by score) or in rank order; digit ids as numbers. */
  function asColumns(run: Obj, next: () => number) {
    const shuffled = next() < 0.5;
    const c = shuffled ? columns(run, next) : columns({}, next);
    if (!shuffled)
      for (const [q, docs] of Object.entries(run))
        for (const [d, score] of Object.entries(docs).sort((a, b) => b[1] - a[1])) {
          c.qid.push(q);
          c.docid.push(d);
          c.score = Float64Array.from([...c.score, score]);
        }
    const id = (x: string) => (/^[1-9]\d*$/.test(x) && next() < 0.5 ? Number(x) : x);
    return { qid: c.qid.map(id), docid: c.docid.map(id), score: c.score };
  }

  it("equal pool() of the same runs as objects: non-ASCII ids, number ids, ties at rank K, rows in any order", () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 4 }), fc.boolean(), (seed, runCount, withJudged) => {
        const next = random(seed);
        const runs = plainRuns(next, runCount, 1 + Math.floor(next() * 6), 12);
        const judged = withJudged ? randomJudged(next, runs, 0.3) : undefined;
        const given = runs.map((r) => asColumns(r, next));
        const judgedColumns = judged && columns(judged, next);
        for (const o of METHODS) {
          const want = pool(runs, judged ? { ...o, judged } : o);
          expect(
            pool(given, judgedColumns ? { ...o, judged: { ...judgedColumns, rel: judgedColumns.score } } : o),
          ).toEqual(want);
        }
      }),
      { numRuns: Math.max(1, Math.round(RUNS / 3)) },
    );
  });

  it("ties at rank K by id descending in bytes: é (0xC3) after z, U+FF71 after é; a number id as its digits", () => {
    const run = { qid: ["q", "q", "q", "q", 7], docid: ["a", "é", "z", "\uFF71", 5], score: [1, 1, 1, 0, 0] };
    expect(pool([run], { method: "depth:1" }).queries).toEqual([
      { qid: "7", docids: ["5"] },
      { qid: "q", docids: ["é"] },
    ]);
    expect(pool([run], { method: "rrf:0", budget: 4 }).queries[1]).toEqual({
      qid: "q",
      docids: ["é", "z", "a", "\uFF71"],
      weights: [1, 1 / 2, 1 / 3, 1 / 4],
    });
  });

  it("ids with surrogates, and bad input, are read and said as before (by the bytes' reading)", () => {
    // An emoji (a surrogate pair) sorts after U+FF71 in bytes, before it in UTF-16.
    const run = { qid: ["q", "q", "q"], docid: ["\uFF71", "\u{1F600}", "a"], score: [1, 1, 1] };
    expect(pool([run], { method: "depth:2" }).queries[0].docids).toEqual(["\uFF71", "\u{1F600}"]);
    const message = (runs: Run[], o: PoolOptions = { method: "depth:1" }) => {
      try {
        pool(runs, o);
      } catch (e) {
        return (e as Error).message;
      }
      return "no error";
    };
    // Lone surrogates are one id in UTF-8 (U+FFFD's bytes): a document twice.
    expect(message([{ qid: ["q", "q"], docid: ["\uD800", "\uDC00"], score: [1, 2] }])).toBe(
      'runs[0]: document "\uFFFD" appears twice in query "q"',
    );
    // Two documents twice: the first found in rank order, as before.
    expect(message([{ qid: ["q", "q", "q", "q"], docid: ["b", "a", "b", "a"], score: [1, 4, 1, 4] }])).toBe(
      'runs[0]: document "a" appears twice in query "q"',
    );
    expect(message([{ qid: ["q", "q"], docid: ["b", "a"], score: [1, Number.NaN] }])).toBe(
      'runs[0] row 1 (query "q", document "a"): score NaN is not a finite number',
    );
    expect(
      message([{ qid: ["q"], docid: ["a"], score: [1] }], {
        method: "depth:1",
        judged: { qid: ["q", "q"], docid: ["a", "a"], rel: [1, 2] },
      }),
    ).toBe('judged: document "a" appears twice in query "q"');
  });
});

describe("pool() properties", () => {
  it("a depth-K pool holds every run's top K; with judged = qrels nothing judged is pooled", () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 30 }), (seed, k) => {
        const next = random(seed);
        const runs = randomRuns(next, 3, 5, 25);
        const p = pool(runs, { method: `depth:${k}` });
        const byQuery = new Map(p.queries.map((q) => [q.qid, new Set(q.docids)]));
        for (const run of runs)
          for (const [q, docs] of Object.entries(run))
            for (const d of ranked(docs).slice(0, k)) expect(byQuery.get(q)!.has(d)).toBe(true);
        for (const c of p.coverage) expect(c.covered).toBe(c.ranked);
        const qrels = randomJudged(next, runs, 0.5);
        for (const o of [{ method: `depth:${k}` }, { method: "rbp:0.9", budget: k }, { method: "rrf", budget: k }]) {
          for (const q of pool(runs, { ...o, judged: qrels }).queries)
            for (const d of q.docids) expect(qrels[q.qid] && Object.hasOwn(qrels[q.qid], d)).toBeFalsy();
        }
      }),
      { numRuns: Math.max(1, Math.round(RUNS / 3)) },
    );
  });

  it("judging the pool covers each run's top K whole; the budget counts new documents only", () => {
    const runs = [{ q: { a: 4, b: 3, c: 2, d: 1 } }, { q: { c: 9, e: 8, a: 7 } }];
    const first = pool(runs, { method: "rrf:1", budget: 2 });
    expect(first.queries[0].docids).toEqual(["a", "c"]);
    const judged = { q: Object.fromEntries(first.queries[0].docids.map((d) => [d, 0])) };
    const second = pool(runs, { method: "rrf:1", budget: 2, judged });
    expect(second.queries[0].docids).toEqual(["b", "e"]);
    expect(second.coverage.map((c) => c.share)).toEqual([3 / 4, 1]);
  });
});

describe("pool() by hand", () => {
  // Run A ranks a, b, c (b and c tie at 1: by id descending, c first); run B ranks c, a, d.
  const runs: Run[] = [{ q1: { a: 3, b: 1, c: 1 } }, { q1: { c: 0.9, a: 0.5, d: 0.1 } }];

  it("rbp:0.5, sum: a .5+.25, c .25+.5 tie at .75 (a first by id), d .125, b .125 (b before d)", () => {
    const p = pool(runs, { method: "rbp:0.5", budget: 3 });
    expect(p.queries).toEqual([{ qid: "q1", docids: ["a", "c", "b"], weights: [0.75, 0.75, 0.125] }]);
    expect(p.coverage[1]).toEqual({
      run: 1,
      covered: 2,
      ranked: 3,
      share: 2 / 3,
      perQuery: { covered: [2], ranked: [3] },
    });
  });

  it("rbp:0.5, max: a and c .5; b and d .125", () => {
    const p = pool(runs, { method: "rbp:0.5", budget: 4, combine: "max" });
    expect(p.queries[0]).toEqual({ qid: "q1", docids: ["a", "c", "b", "d"], weights: [0.5, 0.5, 0.125, 0.125] });
  });

  it("rrf:1: a 1/2+1/3, c 1/3+1/2 (tie: a), b 1/4, d 1/4 (tie: b)", () => {
    const p = pool(runs, { method: "rrf:1", budget: 3 });
    expect(p.queries[0].docids).toEqual(["a", "c", "b"]);
    expect(p.queries[0].weights).toEqual([1 / 2 + 1 / 3, 1 / 3 + 1 / 2, 1 / 4]);
    // Only each run's top 1 read.
    expect(pool(runs, { method: "rrf:1", budget: 3, depth: 1 }).queries[0].docids).toEqual(["a", "c"]);
  });

  it("depth:2: a, c from A (c before b by id), c, a from B; by id; formatted both ways", () => {
    const p = pool(runs, { method: "depth:2" });
    expect(p.queries).toEqual([{ qid: "q1", docids: ["a", "c"] }]);
    expect(formatPool(p)).toBe("q1 a\nq1 c\n");
    expect(formatPool(p, { shape: "qrels" })).toBe("q1 0 a -1\nq1 0 c -1\n");
    expect(formatPool(p, { shape: "qrels", label: 0 })).toBe("q1 0 a 0\nq1 0 c 0\n");
  });

  it("queries by id in bytes, every query of the runs, an empty one and a fully judged one too", () => {
    const p = pool([{ q9: { a: 1 }, q10: { b: 1 }, q2: {} }], { method: "depth:5", judged: { q9: { a: 1 } } });
    expect(p.queries).toEqual([
      { qid: "q10", docids: ["b"] },
      { qid: "q2", docids: [] },
      { qid: "q9", docids: [] },
    ]);
    expect(p.coverage[0]).toMatchObject({ covered: 2, ranked: 2, perQuery: { covered: [1, 0, 1], ranked: [1, 0, 1] } });
    expect(JSON.parse(JSON.stringify(p))).toEqual(p);
  });
});

describe("pool() refuses", () => {
  const ok: Run = { q1: { a: 1 } };
  const cases: [string, () => unknown, RegExp][] = [
    [
      "a score that is not a number",
      () => pool([ok, { q1: { d1: "x" as unknown as number } }], { method: "depth:1" }),
      /runs\[1\] row 0 \(query "q1", document "d1"\): score "x" is not a finite number/,
    ],
    [
      "a query that is not an object",
      () => pool([{ q1: 5 } as unknown as Run], { method: "depth:1" }),
      /runs\[0\]\["q1"\] must be an object of docid: score, not 5/,
    ],
    [
      "columns of two lengths",
      () => pool([ok, { qid: ["q"], docid: [], score: [1] }], { method: "depth:1" }),
      /runs\[1\]\.docid has 0 values but runs\[1\]\.qid has 1/,
    ],
    [
      "a document twice in a query",
      () => pool([{ qid: ["q", "q"], docid: ["d", "d"], score: [1, 2] }], { method: "depth:1" }),
      /runs\[0\]: document "d" appears twice in query "q"/,
    ],
    [
      "a judgment twice",
      () => pool([ok], { method: "depth:1", judged: { qid: ["q1", "q1"], docid: ["a", "a"], rel: [1, 0] } }),
      /judged: document "a" appears twice in query "q1"/,
    ],
    [
      "a run that is not a run",
      () => pool([ok, null as unknown as Run], { method: "depth:1" }),
      /runs\[1\] must be \{ qid: \{ docid: score \} \} or columns/,
    ],
    ["no runs", () => pool([], { method: "depth:1" }), /at least one run/],
    [
      "an unknown method",
      () => pool([ok], { method: "bpref:3" }),
      /method must be "depth:K", "rbp:P" or "rrf:K", not "bpref:3"/,
    ],
    ["depth without K", () => pool([ok], { method: "depth" }), /needs its K/],
    ["K twice, differing", () => pool([ok], { method: "depth:3", depth: 4 }), /disagree/],
    ["a budget for depth", () => pool([ok], { method: "depth:3", budget: 4 }), /a depth pool has no budget/],
    ["rbp without a budget", () => pool([ok], { method: "rbp:0.8" }), /needs budget/],
    ["P outside (0, 1)", () => pool([ok], { method: "rbp:1", budget: 1 }), /P a number between 0 and 1/],
    ["rrf's K negative", () => pool([ok], { method: "rrf:-1", budget: 1 }), /K a number >= 0/],
    ["a budget of 0", () => pool([ok], { method: "rrf", budget: 0 }), /budget must be an integer >= 1, not 0/],
    [
      "an unknown option",
      () => pool([ok], { method: "rrf", budget: 1, bugdet: 2 } as PoolOptions),
      /unknown option "bugdet"/,
    ],
    [
      "a bad label to format with",
      () => formatPool(pool([ok], { method: "depth:1" }), { shape: "qrels", label: NaN }),
      /label must be a finite number/,
    ],
  ];
  for (const [what, call, message] of cases) it(what, () => expect(call).toThrow(message));
});

// A Qrels type check: judged takes what evaluate takes.
const _judged: Qrels = { q: { d: 1 } };
void _judged;
