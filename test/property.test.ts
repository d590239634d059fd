// Property: the WebAssembly kernel (evaluate / evaluateRun) equals the plain-TypeScript reference
// (src/reference/, written from the README's definitions) on random batches, for every measure of the
// README's table at several cutoffs, under random conventions. Counts must match exactly, every other
// value within 1e-12 relative, NaN where NaN.
//
// FC_RUNS=1000 npx vitest run test/property.test.ts   runs more cases; FC_SEED=<n> replays one.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluate, evaluateRun, type Options } from "../src/index.js";
import { FAMILIES } from "../src/measures/registry.js";
import { PRESET_NAMES } from "../src/presets.js";
import { referenceEvaluate, referenceEvaluateRun } from "../src/reference/index.js";

const RUNS = Number(process.env.FC_RUNS ?? 300);
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
// A failure shrinks for at most SHRINK_MS, then reports the smallest counterexample found so far.
const SHRINK_MS = Number(process.env.FC_SHRINK_MS ?? 60_000);
const params = (numRuns: number) => ({ numRuns, seed: SEED, interruptAfterTimeLimit: SHRINK_MS + 30_000 });
const TIMEOUT = SHRINK_MS + 60_000;

const COUNTS = new Set(["num_ret", "num_rel", "num_rel_ret", "inversions", "hits", "NumRet", "NumRel", "numq", "NumQ"]);

/** Every measure in the README's table, those with cutoffs at each of `ks`. */
export function allMeasures(ks: readonly number[]): string[] {
  const at = ks.join(",");
  return [
    "num_ret", "num_rel", "num_rel_ret", "inversions", "kendall_tau", "mse",
    "r-precision", "bpref", "dcg", "ndcg", "map", "mrr", "err", "err(max=3)",
    `dcg@${at}`, `ndcg@${at}`, `precision@${at}`, `recall@${at}`, `f1@${at}`, `map@${at}`, `mrr@${at}`,
    `err@${at}`, `err(max=2)@${at}`, `hit_rate@${at}`,
    "set_p", "set_relative_p", "set_recall", "set_map", "set_f", "set_f(beta=0.5)", "num_nonrel_judged_ret",
    `relative_p@${at}`, `unj@${at}`,
    "iprec_at_recall", "iprec_at_recall(recall=0.3)", "iprec_at_recall(recall=1)", "11pt_avg",
    "rprec_mult", "rprec_mult(x=0.2)", "rprec_mult(x=1.8)", "infap", "bing",
    "rbp", "rbp(p=0.5)", "rbp_resid", "utility", "utility(a=2,b=-0.5,c=1,d=0.25,n=1000)",
    "g", "ndcg_rel", "rndcg", "hits", `hits@${at}`, `judged@${at}`,
    "map_lightgbm", "map_xgboost", "map_torchmetrics", "map_ptranking",
    `map_lightgbm@${at}`, `map_xgboost@${at}`, `map_torchmetrics@${at}`, `map_ptranking@${at}`,
    "numq", "inst", "inst(t=2,max=3)", "insq(t=0.5,min=1,max=4)", "nerr10", "nerr10(p=0.5,max=2)", "nerr11(t=2,max=4)", "rbp_cwl", "rbp_cwl(p=0.95)",
    `sdcg@${at}`, `sdcg(max=4)@${at}`, `nerr8(max=2)@${at}`, `nerr9@${at}`, `bpm(t=2,max=3)@${at}`,
    "compat", "compat(p=0.8,normalize=0)", "accuracy", `accuracy@${at}`,
  ];
}

/** The measures of `allMeasures` whose family has a closed form for ties "average" (the others refuse it). */
export function averageableMeasures(ks: readonly number[]): string[] {
  const ok = new Set(FAMILIES.filter((f) => f.tieAverage).map((f) => f.name));
  return allMeasures(ks).filter((m) => ok.has(m.replace(/[(@].*$/, "")));
}

/**
 * Other tools' names (trec_eval's, ir_measures', ranx's), each computed with its tool's conventions
 * under the options given, under its own parameters: cutoffs `ks`, one measure per cutoff where the
 * tool takes one.
 */
export function toolMeasures(ks: readonly number[]): string[] {
  const at = ks.join(",");
  const each = (f: (k: number) => string) => ks.map(f);
  return [
    // trec_eval
    `ndcg_cut.${at}`, `P.${at}`, `recall.${at}`, `map_cut.${at}`, `success.${at}`, `relative_P.${at}`, `unj.${at}`,
    ...each((k) => `ndcg_cut_${k}`), "recip_rank", "gm_map", "gm_bpref", "iprec_at_recall", "Rprec_mult", "11pt_avg",
    "set_P", "set_relative_P", "set_F.0.5", "binG", "G", "Rndcg", "ndcg_rel.2=3", "ndcg.1=3,2=9", "utility.2,-1,0,0", "rbp.p=0.8",
    "num_nonrel_judged_ret.x",
    // ir_measures
    "nDCG", "AP", "RR", "RR(rel=2)", "Rprec", "Rprec(rel=2)", "Bpref", "Bpref(rel=2)", "infAP", "NumRet", "NumRet(rel=2)", "NumRelRet",
    "NumRel", "SetP", "SetRelP", "SetR", "SetF(beta=0.5)", "SetAP(rel=2)", "IPrec@0.3", "IPrec(rel=2)@1.0",
    ...ks.flatMap((k) => [
      `nDCG@${k}`, `AP@${k}`, `RR@${k}`, `P@${k}`, `P(rel=2)@${k}`, `R@${k}`, `Success@${k}`, `nDCG(dcg='exp-log2')@${k}`,
      `ERR@${k}`, `Judged@${k}`, `nDCG(gains={1:3,2:9})@${k}`,
      `SDCG(max_rel=3)@${k}`, `NERR8(max_rel=2)@${k}`, `NERR9(min_rel=1,max_rel=4)@${k}`, `BPM(T=2.0,max_rel=3)@${k}`, `Accuracy(rel=2)@${k}`,
      `P(judged_only=True)@${k}`, `AP(judged_only=True)@${k}`,
    ]),
    "NumQ", "INST(max_rel=3)", "INSQ(T=2.0,max_rel=1)", "NERR10(p=0.5,max_rel=4)", "NERR11(max_rel=2)", "RBP(rel=1)", "RBP(p=0.95,rel=2)",
    "Compat", "Compat(p=0.7,normalize=False)", "Accuracy", "nDCG(dcg='exp-log2')", "nDCG(judged_only=True)", "Rprec(judged_only=True)",
    // ranx
    "hits", "ndcg_burges", "dcg_burges", ...ks.flatMap((k) => [`hits@${k}`, `hits@${k}-l2`, `ndcg_burges@${k}`, `dcg_burges@${k}`]),
  ];
}

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
      const same = exact ? Object.is(got[q], ref[q]) || (got[q] === ref[q]) : close(got[q], ref[q]);
      if (!same) throw new Error(`${name} differs on query ${JSON.stringify(kernel.qids[q])}: kernel ${got[q]}, reference ${ref[q]}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Generators

/** Scores: a small set (many ties, including 0 and -0) or continuous ones. */
const score = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(0, -0, 1, 2, 0.5, -1, 3) },
  { weight: 2, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) },
  { weight: 1, arbitrary: fc.integer({ min: -5, max: 5 }).map((i) => i / 4) },
  // the whole double range: subnormals, ±Number.MAX_VALUE, values a few ulps apart
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constantFrom(Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE, 1 + Number.EPSILON, 1 - Number.EPSILON / 2, 2 ** 53, 2 ** 53 + 2) },
);

/** Labels: {-1, 0, 1, 2, 3, 4}, plus fractional ones. */
const label = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(-1, 0, 0, 1, 2, 3, 4) },
  { weight: 1, arbitrary: fc.constantFrom(0.5, 1.5, 2.25, 3.7, -0.5, 5) },
  { weight: 1, arbitrary: fc.double({ min: -2, max: 6, noNaN: true }) },
);

/** Document ids whose byte order differs from UTF-16 order (astral vs U+E000..U+FFFF), and numbers. */
const idChar = fc.constantFrom("a", "b", "Z", "0", "1", "9", "-", "é", "\uE000", "\uFFFD", "😀", "𝔸");
const docidLike = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: idChar, minLength: 0, maxLength: 4 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 3 }) },
);

/** `n` distinct document ids for one query, random (small n) or generated from the index. */
function docidsFor(n: number): fc.Arbitrary<(string | number)[]> {
  if (n > 200) return fc.constantFrom("d", "D0-", "").map((p) => Array.from({ length: n }, (_, i) => (p === "" ? i : `${p}${i}`)));
  return fc.oneof(
    fc.uniqueArray(docidLike, { minLength: n, maxLength: n }),
    fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: n, maxLength: n }),
  );
}

const size = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0, max: 60 }) },
  { weight: 3, arbitrary: fc.constant(1) },
  { weight: 1, arbitrary: fc.integer({ min: 61, max: 2000 }) },
);

interface QueryRows {
  scores: number[];
  labels: number[];
  docids: (string | number)[];
}

function queryOf(n: number): fc.Arbitrary<QueryRows> {
  return fc.record({
    scores: fc.array(score, { minLength: n, maxLength: n }),
    labels: fc.oneof(
      { weight: 5, arbitrary: fc.array(label, { minLength: n, maxLength: n }) },
      { weight: 1, arbitrary: fc.constant(new Array<number>(n).fill(0)) },
    ),
    docids: docidsFor(n),
  });
}

const query = size.chain(queryOf);

const options: fc.Arbitrary<Options> = fc.record(
  {
    gain: fc.constantFrom<Options["gain"]>("exp", "linear", { 1: 1, 2: 3, 3: 7 }, { 2: 10, 4: 1, 5: 0 }, { 1: 0.5, 3: 100 }),
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

const cutoffs = fc.uniqueArray(fc.integer({ min: 1, max: 120 }), { minLength: 1, maxLength: 4 });

type RowsColumns = { qid: ArrayLike<string | number>; score: ArrayLike<number>; rel: ArrayLike<number>; docid?: (string | number)[] };

/**
 * A batch of rows: 1..30 queries, qids strings or numbers, sometimes interleaved (a query's rows
 * not contiguous), sometimes as typed arrays.
 */
const rowsBatch = fc
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
      const pick = <T,>(c: T[]) => idx.map((i) => c[i]);
      [qid, score, rel, docid] = [pick(qid), pick(score), pick(rel), pick(docid)];
    }
    const columns: RowsColumns = typed
      ? { qid: numericQids ? Int32Array.from(qid as number[]) : qid, score: Float64Array.from(score), rel: Float64Array.from(rel) }
      : { qid, score, rel };
    return withDocids ? { ...columns, docid } : columns;
  });

describe("evaluate(rows): kernel = reference", () => {
  it("on random batches, every measure, several cutoffs, random options", () => {
    fc.assert(
      fc.property(rowsBatch, cutoffs, options, (rows, ks, opts) => {
        const ms = allMeasures([...ks, 1, 10]);
        expectSame(evaluate(rows, ms, opts), referenceEvaluate(rows, ms, opts));
      }),
      params(RUNS),
    );
  }, TIMEOUT);

  it("on single-row and all-tied queries", () => {
    const tiny = fc.record({
      n: fc.integer({ min: 1, max: 3 }),
      s: fc.constantFrom(0, 1),
      l: fc.array(label, { minLength: 3, maxLength: 3 }),
      withDocids: fc.boolean(),
    }).map(({ n, s, l, withDocids }) => ({
      qid: Array.from({ length: n }, () => "q"),
      score: Array.from({ length: n }, () => s),
      rel: l.slice(0, n),
      ...(withDocids ? { docid: ["b", "a", "c"].slice(0, n) } : {}),
    }));
    fc.assert(
      fc.property(tiny, cutoffs, options, (rows, ks, opts) => {
        const ms = allMeasures([...ks, 1, 2, 3, 4]);
        expectSame(evaluate(rows, ms, opts), referenceEvaluate(rows, ms, opts));
      }),
      params(RUNS),
    );
  }, TIMEOUT);

  it("on batches of many small queries", () => {
    const small = fc.integer({ min: 0, max: 8 }).chain(queryOf);
    const many = fc.array(small, { minLength: 500, maxLength: 3000 }).map((queries) => ({
      qid: queries.flatMap((q, i) => q.scores.map(() => i)),
      score: queries.flatMap((q) => q.scores),
      rel: queries.flatMap((q) => q.labels),
    }));
    fc.assert(
      fc.property(many, cutoffs, options, (rows, ks, opts) => {
        const ms = allMeasures([...ks, 1, 5]);
        expectSame(evaluate(rows, ms, opts), referenceEvaluate(rows, ms, opts));
      }),
      params(Math.max(1, Math.round(RUNS / 30))),
    );
  }, TIMEOUT);

  it("on a query of 10,000 rows", () => {
    fc.assert(
      fc.property(queryOf(10_000), fc.boolean(), options, (q, withDocids, opts) => {
        const rows = { qid: q.scores.map(() => "big"), score: q.scores, rel: q.labels, ...(withDocids ? { docid: q.docids } : {}) };
        const ms = allMeasures([1, 10, 100, 9_999, 10_000, 10_001]);
        expectSame(evaluate(rows, ms, opts), referenceEvaluate(rows, ms, opts));
      }),
      params(2),
    );
  }, TIMEOUT);
});

describe("ties average: the kernel's closed form = the mean over every tie order, enumerated", () => {
  // Small queries with few distinct scores: many ties, few enough orders to enumerate. Labels are
  // not subnormal: the closed form divides a tie's gains by its size, which rounds differently
  // there than the enumeration's divisions of whole gains.
  const normalLabel = label.map((l) => (Math.abs(l) < 1e-300 ? 0 : l));
  const smallQuery = fc.integer({ min: 0, max: 7 }).chain((n) =>
    fc.record({
      scores: fc.array(fc.constantFrom(0, 1, 2, 0.5), { minLength: n, maxLength: n }),
      labels: fc.oneof(
        { weight: 5, arbitrary: fc.array(normalLabel, { minLength: n, maxLength: n }) },
        { weight: 1, arbitrary: fc.constant(new Array<number>(n).fill(0)) },
      ),
    }),
  );
  const batch = fc.array(smallQuery, { minLength: 1, maxLength: 12 }).map((queries) => ({
    qid: queries.flatMap((q, i) => q.scores.map(() => `q${i}`)),
    score: queries.flatMap((q) => q.scores),
    rel: queries.flatMap((q) => q.labels),
  }));
  const averageOptions = options.map((o): Options => ({ ...o, ties: "average", preset: undefined }));
  const smallCutoffs = fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 3 });

  it("every measure that has a closed form, random options", () => {
    fc.assert(
      fc.property(batch, smallCutoffs, averageOptions, (rows, ks, opts) => {
        const ms = averageableMeasures([...ks, 1, 3]);
        expectSame(evaluate(rows, ms, opts), referenceEvaluate(rows, ms, opts));
      }),
      params(RUNS),
    );
  }, TIMEOUT);

  it("under the sklearn preset (linear gain, ties averaged)", () => {
    fc.assert(
      fc.property(batch, smallCutoffs, (rows, ks) => {
        const ms = [`ndcg@${ks.join(",")}`, "ndcg", `dcg@${ks.join(",")}`];
        expectSame(evaluate(rows, ms, { preset: "sklearn" }), referenceEvaluate(rows, ms, { preset: "sklearn" }));
      }),
      params(RUNS),
    );
  }, TIMEOUT);

  it("best and worst bracket every tie order for the measures that grow as relevant documents move up", () => {
    fc.assert(
      fc.property(batch, smallCutoffs, averageOptions, (rows, ks, opts) => {
        const ms = averageableMeasures([...ks, 1, 3]).filter((m) => !/^(num_|set_|utility|hits)/.test(m));
        // Without -J: under it the depth cut comes first, so the two orders may keep different numbers of documents.
        const given = { ...opts, gain: "linear" as const, tieRange: true, judgedOnly: false };
        const r = evaluate(rows, ms, given);
        for (const m of r.measures) {
          const { worst, best } = r.tieRange![m];
          for (let q = 0; q < worst.length; q++) {
            const v = r.values[m][q];
            if (Number.isNaN(v)) continue;
            if (!(worst[q] <= v + 1e-12 && v <= best[q] + 1e-12)) throw new Error(`${m} on ${r.qids[q]}: average ${v} outside [${worst[q]}, ${best[q]}]`);
          }
        }
      }),
      params(RUNS),
    );
  }, TIMEOUT);
});

// ---------------------------------------------------------------------------------------------
// evaluateRun: random qrels with unjudged ranked documents and judged documents never retrieved.

interface RunCase {
  qrels: { qid: string[]; docid: string[]; rel: number[] };
  run: { qid: string[]; docid: string[]; score: number[] };
}

const runQuery = size.chain((n) =>
  fc.record({
    docids: fc.uniqueArray(fc.string({ unit: idChar, minLength: 1, maxLength: 4 }), { minLength: n, maxLength: n }),
    scores: fc.array(score, { minLength: n, maxLength: n }),
    labels: fc.array(label, { minLength: n, maxLength: n }),
    // 0: ranked and judged, 1: ranked, unjudged, 2: judged, never ranked
    kind: fc.array(fc.constantFrom(0, 0, 0, 1, 2), { minLength: n, maxLength: n }),
    inQrels: fc.constantFrom(true, true, true, true, false),
  }),
);

const runBatch: fc.Arbitrary<RunCase> = fc
  .record({ queries: fc.array(runQuery, { minLength: 1, maxLength: 30, size: "medium" }), extraJudgedQuery: fc.boolean(), shuffleQrels: fc.boolean() })
  .map(({ queries, extraJudgedQuery, shuffleQrels }) => {
    const c: RunCase = { qrels: { qid: [], docid: [], rel: [] }, run: { qid: [], docid: [], score: [] } };
    queries.forEach((q, i) => {
      q.docids.forEach((d, r) => {
        if (q.kind[r] !== 2) {
          c.run.qid.push(`q${i}`);
          c.run.docid.push(d);
          c.run.score.push(q.scores[r]);
        }
        if (q.kind[r] !== 1 && q.inQrels) {
          c.qrels.qid.push(`q${i}`);
          c.qrels.docid.push(d);
          c.qrels.rel.push(q.labels[r]);
        }
      });
    });
    if (extraJudgedQuery) {
      c.qrels.qid.push("not-in-run");
      c.qrels.docid.push("x");
      c.qrels.rel.push(1);
    }
    if (shuffleQrels) for (const col of Object.values(c.qrels)) col.reverse();
    return c;
  });

describe("other tools' names: kernel = reference, each under its tool's conventions", () => {
  it("evaluate(rows), random batches and options", () => {
    fc.assert(
      fc.property(rowsBatch, cutoffs, options, (rows, ks, opts) => {
        const ms = toolMeasures([...new Set([...ks, 1])]);
        expectSame(evaluate(rows, ms as never, opts), referenceEvaluate(rows, ms as never, opts));
      }),
      params(Math.max(1, Math.round(RUNS / 3))),
    );
  }, TIMEOUT);

  it("evaluateRun, with unjudged and never-retrieved documents", () => {
    fc.assert(
      fc.property(runBatch, cutoffs, options, ({ qrels, run }, ks, opts) => {
        const ms = toolMeasures([...new Set([...ks, 1])]);
        const reference = referenceEvaluateRun(qrels, run, ms as never, opts);
        // No query in common: evaluateRun refuses (means over no query), the reference has none.
        if (reference.qids.length === 0) expect(() => evaluateRun(qrels, run, ms as never, opts)).toThrow(/no query in common/);
        else expectSame(evaluateRun(qrels, run, ms as never, opts), reference);
      }),
      params(Math.max(1, Math.round(RUNS / 3))),
    );
  }, TIMEOUT);
});

describe("evaluateRun(qrels, run): kernel = reference", () => {
  it("on random runs with unjudged and never-retrieved documents", () => {
    fc.assert(
      fc.property(runBatch, cutoffs, options, ({ qrels, run }, ks, opts) => {
        const ms = allMeasures([...ks, 1, 10]);
        const reference = referenceEvaluateRun(qrels, run, ms, opts);
        // No query in common: evaluateRun refuses (means over no query), the reference has none.
        if (reference.qids.length === 0) expect(() => evaluateRun(qrels, run, ms, opts)).toThrow(/no query in common/);
        else expectSame(evaluateRun(qrels, run, ms, opts), reference);
      }),
      params(RUNS),
    );
  }, TIMEOUT);
});
