// What the kernel-against-reference property tests share (test/property.test.ts, test/diversity.test.ts,
// test/registry.test.ts): fast-check's settings, random batches of rows and of subtopic judgments, random
// conventions, and the comparison of the kernel's values with the reference's.
import fc from "fast-check";
import { expect } from "vitest";
import type { Options } from "../src/index.js";
import { PRESET_NAMES } from "../src/measures/presets.js";
import { runs } from "./_seed.js";

// 300 cases a property, times RANKEVAL_RUNS; every one from RANKEVAL_SEED (test/_seed.ts).
export const RUNS = runs(300);
// A failure shrinks for at most SHRINK_MS, then reports the smallest counterexample found so far.
const SHRINK_MS = Number(process.env.FC_SHRINK_MS ?? 60_000);
export const params = (numRuns: number) => ({ numRuns, interruptAfterTimeLimit: SHRINK_MS + 30_000 });
export const TIMEOUT = SHRINK_MS + 60_000;

export const COUNTS = new Set([
  "num_ret",
  "num_rel",
  "num_rel_ret",
  "inversions",
  "hits",
  "NumRet",
  "NumRel",
  "numq",
  "NumQ",
]);

const close = (a: number, b: number) =>
  a === b || (Number.isNaN(a) && Number.isNaN(b)) || Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b));

/** Throws, naming the first measure and query where kernel and reference differ. */
export function expectSame(
  kernel: { qids: unknown[]; values: Record<string, Float64Array> },
  reference: { qids: unknown[]; values: Record<string, Float64Array> },
): void {
  expect(kernel.qids).toEqual(reference.qids);
  expect(Object.keys(kernel.values).sort()).toEqual(Object.keys(reference.values).sort());
  for (const [name, ref] of Object.entries(reference.values)) {
    const got = kernel.values[name];
    const family = name.replace(/[(@].*$/, "");
    for (let q = 0; q < ref.length; q++) {
      // A count is exact, but its mean over tie orders (ties "average") is a fraction like any value.
      const exact = COUNTS.has(family) && Number.isInteger(ref[q]);
      const same = exact ? Object.is(got[q], ref[q]) || got[q] === ref[q] : close(got[q], ref[q]);
      if (!same)
        throw new Error(
          `${name} differs on query ${JSON.stringify(kernel.qids[q])}: kernel ${got[q]}, reference ${ref[q]}`,
        );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Generators

/** Scores: a small set (many ties, including 0 and -0) or continuous ones. */
export const score = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(0, -0, 1, 2, 0.5, -1, 3) },
  { weight: 2, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) },
  { weight: 1, arbitrary: fc.integer({ min: -5, max: 5 }).map((i) => i / 4) },
  // the whole double range: subnormals, ±Number.MAX_VALUE, values a few ulps apart
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      Number.MIN_VALUE,
      -Number.MIN_VALUE,
      1 + Number.EPSILON,
      1 - Number.EPSILON / 2,
      2 ** 53,
      2 ** 53 + 2,
    ),
  },
);

/** Labels: {-1, 0, 1, 2, 3, 4}, plus fractional ones. */
export const label = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(-1, 0, 0, 1, 2, 3, 4) },
  { weight: 1, arbitrary: fc.constantFrom(0.5, 1.5, 2.25, 3.7, -0.5, 5) },
  { weight: 1, arbitrary: fc.double({ min: -2, max: 6, noNaN: true }) },
);

/** Document ids whose byte order differs from UTF-16 order (astral vs U+E000..U+FFFF), and numbers. */
export const idChar = fc.constantFrom("a", "b", "Z", "0", "1", "9", "-", "é", "\uE000", "\uFFFD", "😀", "𝔸");
const docidLike = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: idChar, minLength: 0, maxLength: 4 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 3 }) },
);

/** `n` distinct document ids for one query, random (small n) or generated from the index. */
function docidsFor(n: number): fc.Arbitrary<(string | number)[]> {
  if (n > 200)
    return fc.constantFrom("d", "D0-", "").map((p) => Array.from({ length: n }, (_, i) => (p === "" ? i : `${p}${i}`)));
  return fc.oneof(
    fc.uniqueArray(docidLike, { minLength: n, maxLength: n }),
    fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: n, maxLength: n }),
  );
}

export const size = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0, max: 60 }) },
  { weight: 3, arbitrary: fc.constant(1) },
  { weight: 1, arbitrary: fc.integer({ min: 61, max: 2000 }) },
);

export interface QueryRows {
  scores: number[];
  labels: number[];
  docids: (string | number)[];
}

export function queryOf(n: number): fc.Arbitrary<QueryRows> {
  return fc.record({
    scores: fc.array(score, { minLength: n, maxLength: n }),
    labels: fc.oneof(
      { weight: 5, arbitrary: fc.array(label, { minLength: n, maxLength: n }) },
      { weight: 1, arbitrary: fc.constant(new Array<number>(n).fill(0)) },
    ),
    docids: docidsFor(n),
  });
}

export const query = size.chain(queryOf);

export const options: fc.Arbitrary<Options> = fc.record(
  {
    gain: fc.constantFrom<Options["gain"]>(
      "exp",
      "linear",
      { 1: 1, 2: 3, 3: 7 },
      { 2: 10, 4: 1, 5: 0 },
      { 1: 0.5, 3: 100 },
    ),
    // 0: every label >= 0 relevant (trec_eval -l 0).
    relevanceThreshold: fc.constantFrom(1, 2, 1, 2, 0.5, 2.5, 4, 0),
    noRelevant: fc.constantFrom<Options["noRelevant"]>("zero", "one", "nan", "skip"),
    beyondList: fc.constantFrom<Options["beyondList"]>("pad", "nan", "clip", "zero"),
    // 0 keeps nothing (trec_eval -M 0).
    depth: fc.integer({ min: 0, max: 40 }),
    // After the depth cut (trec_eval -J after -M).
    judgedOnly: fc.boolean(),
    ties: fc.constantFrom<Options["ties"]>("docid", "input", "best", "worst"),
    // Every preset but those that average ties (tested below, on queries small enough to enumerate).
    preset: fc.constantFrom(...PRESET_NAMES.filter((p) => p !== "sklearn")),
  },
  { requiredKeys: [] },
);

export const cutoffs = fc.uniqueArray(fc.integer({ min: 1, max: 120 }), { minLength: 1, maxLength: 4 });

type RowsColumns = {
  qid: ArrayLike<string | number>;
  score: ArrayLike<number>;
  rel: ArrayLike<number>;
  docid?: (string | number)[];
};

/**
 * A batch of rows: 1..30 queries, qids strings or numbers, sometimes interleaved (a query's rows
 * not contiguous), sometimes as typed arrays.
 */
export const rowsBatch = fc
  .record({
    queries: fc.array(query, { minLength: 1, maxLength: 30, size: "medium" }),
    numericQids: fc.boolean(),
    withDocids: fc.boolean(),
    interleave: fc.boolean(),
    typed: fc.boolean(),
    order: fc.array(fc.nat(), { maxLength: 400 }),
  })
  .map(({ queries, numericQids, withDocids, interleave, typed, order }): RowsColumns => {
    let qid: (string | number)[] = [];
    let score: number[] = [];
    let rel: number[] = [];
    let docid: (string | number)[] = [];
    queries.forEach((q, i) => {
      q.scores.forEach((s, r) => {
        qid.push(numericQids ? i * 7 : `q${i}`);
        score.push(s);
        rel.push(q.labels[r]);
        docid.push(q.docids[r]);
      });
    });
    if (interleave && qid.length > 1) {
      // A deterministic shuffle driven by `order`: queries' rows are no longer contiguous.
      const idx = qid.map((_, i) => i);
      for (let i = idx.length - 1; i > 0; i--) {
        const j = (order[i % Math.max(1, order.length)] ?? i) % (i + 1);
        [idx[i], idx[j]] = [idx[j], idx[i]];
      }
      const pick = <T>(c: T[]) => idx.map((i) => c[i]);
      [qid, score, rel, docid] = [pick(qid), pick(score), pick(rel), pick(docid)];
    }
    const columns: RowsColumns = typed
      ? {
          qid: numericQids ? Int32Array.from(qid as number[]) : qid,
          score: Float64Array.from(score),
          rel: Float64Array.from(rel),
        }
      : { qid, score, rel };
    return withDocids ? { ...columns, docid } : columns;
  });

const docs = ["d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "da", "db"];

/** Subtopic judgments for one query: 0..4 subtopics (numbers, some with leading zeros, or words). */
const judgments = fc
  .record({
    subtopics: fc.uniqueArray(fc.constantFrom("1", "2", "3", "10", "04", "x"), { minLength: 1, maxLength: 4 }),
    cells: fc.array(
      fc.record({ s: fc.nat(3), d: fc.constantFrom(...docs), v: fc.constantFrom(-1, 0, 0, 1, 1, 2, 3) }),
      { minLength: 1, maxLength: 30 },
    ),
  })
  .map(({ subtopics, cells }) => {
    const out: Record<string, Record<string, number>> = {};
    for (const c of cells) {
      const s = subtopics[c.s % subtopics.length];
      (out[s] ??= {})[c.d] = c.v;
    }
    return out;
  });

/**
 * Subtopic judgments where the ideal ranking's greedy choice ties often: every judgment 1 (or 0),
 * each document relevant to one or two of four subtopics, so several documents add the same gain at
 * a step and which one is taken (ndeval: the greatest id) changes the gains after it.
 */
const tiedJudgments = fc
  .array(
    fc.record({
      d: fc.constantFrom(...docs.slice(0, 6)),
      s: fc.uniqueArray(fc.constantFrom("1", "2", "3", "4"), { minLength: 1, maxLength: 2 }),
      v: fc.constantFrom(1, 1, 1, 0),
    }),
    { minLength: 2, maxLength: 8 },
  )
  .map((cells) => {
    const out: Record<string, Record<string, number>> = {};
    for (const c of cells) for (const s of c.s) (out[s] ??= {})[c.d] = c.v;
    return out;
  });

const ranking = fc.uniqueArray(
  fc.record({ d: fc.constantFrom(...docs), score: fc.constantFrom(0, 1, 2, 3, 0.5, -1) }),
  { selector: (x) => x.d, maxLength: 12 },
);

/** Subtopic judgments (a diversity qrels) and a run of 1..5 queries. */
export const subtopicBatch = fc
  .array(
    fc.record({
      judged: fc.boolean(),
      j: fc.oneof(judgments, tiedJudgments),
      r: ranking,
    }),
    { minLength: 1, maxLength: 5 },
  )
  .map((qs) => {
    const qrels: Record<string, Record<string, Record<string, number>>> = {};
    const run = { qid: [] as string[], docid: [] as string[], score: [] as number[] };
    qs.forEach((q, i) => {
      const qid = `q${i}`;
      if (q.judged || i === 0) qrels[qid] = q.j;
      for (const x of q.r) {
        run.qid.push(qid);
        run.docid.push(x.d);
        run.score.push(x.score);
      }
      if (q.r.length === 0) {
        run.qid.push(qid);
        run.docid.push("none");
        run.score.push(0);
      }
    });
    return { qrels, run };
  });

/** Options for the diversity measures. */
export const subtopicOptions: fc.Arbitrary<Options> = fc.record(
  {
    relevanceThreshold: fc.constantFrom(1, 2, 0, 0.5),
    noRelevant: fc.constantFrom<Options["noRelevant"]>("zero", "one", "nan", "skip"),
    beyondList: fc.constantFrom<Options["beyondList"]>("pad", "nan", "clip", "zero"),
    depth: fc.integer({ min: 0, max: 14 }),
    judgedOnly: fc.boolean(),
    ties: fc.constantFrom<Options["ties"]>("docid", "input", "best", "worst"),
  },
  { requiredKeys: [] },
);
