// Property: the WebAssembly kernel (evaluate / evaluateRun) equals the plain-TypeScript reference
// (src/reference/, written from the README's definitions) on random batches, for every measure of the
// README's table at several cutoffs, under random conventions. Counts must match exactly, every other
// value within 1e-12 relative, NaN where NaN.
//
// RANKEVAL_RUNS=4 npx vitest run test/property.test.ts   runs 4 times the cases; RANKEVAL_SEED=<n> replays a seed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluate, evaluateRun, type Options } from "../src/index.js";
import { FAMILIES } from "../src/measures/registry.js";
import { referenceEvaluate, referenceEvaluateRun } from "../src/reference/index.js";
import {
  cutoffs,
  expectSame,
  idChar,
  label,
  options,
  params,
  query,
  queryOf,
  RUNS,
  rowsBatch,
  score,
  size,
  TIMEOUT,
} from "./_random.js";

/** Every measure in the README's table, those with cutoffs at each of `ks`. */
export function allMeasures(ks: readonly number[]): string[] {
  const at = ks.join(",");
  return [
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "inversions",
    "kendall_tau",
    "mse",
    "r-precision",
    "bpref",
    "dcg",
    "ndcg",
    "map",
    "mrr",
    "err",
    "err(max=3)",
    `dcg@${at}`,
    `ndcg@${at}`,
    `precision@${at}`,
    `recall@${at}`,
    `f1@${at}`,
    `map@${at}`,
    `mrr@${at}`,
    `err@${at}`,
    `err(max=2)@${at}`,
    `hit_rate@${at}`,
    "set_p",
    "set_relative_p",
    "set_recall",
    "set_map",
    "set_f",
    "set_f(beta=0.5)",
    "num_nonrel_judged_ret",
    `relative_p@${at}`,
    `unj@${at}`,
    "iprec_at_recall",
    "iprec_at_recall(recall=0.3)",
    "iprec_at_recall(recall=1)",
    "11pt_avg",
    "rprec_mult",
    "rprec_mult(x=0.2)",
    "rprec_mult(x=1.8)",
    "infap",
    "bing",
    "rbp",
    "rbp(p=0.5)",
    "rbp_resid",
    "utility",
    "utility(a=2,b=-0.5,c=1,d=0.25,n=1000)",
    "g",
    "ndcg_rel",
    "rndcg",
    "hits",
    `hits@${at}`,
    `judged@${at}`,
    "map_lightgbm",
    "map_xgboost",
    "map_torchmetrics",
    "map_ptranking",
    "map_over_k",
    `map_lightgbm@${at}`,
    `map_xgboost@${at}`,
    `map_torchmetrics@${at}`,
    `map_ptranking@${at}`,
    `map_over_k@${at}`,
    "numq",
    "inst",
    "inst(t=2,max=3)",
    "insq(t=0.5,min=1,max=4)",
    "nerr10",
    "nerr10(p=0.5,max=2)",
    "nerr11(t=2,max=4)",
    "rbp_cwl",
    "rbp_cwl(p=0.95)",
    `sdcg@${at}`,
    `sdcg(max=4)@${at}`,
    `nerr8(max=2)@${at}`,
    `nerr9@${at}`,
    `bpm(t=2,max=3)@${at}`,
    "compat",
    "compat(p=0.8,normalize=0)",
    "accuracy",
    `accuracy@${at}`,
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
    `ndcg_cut.${at}`,
    `P.${at}`,
    `recall.${at}`,
    `map_cut.${at}`,
    `success.${at}`,
    `relative_P.${at}`,
    `unj.${at}`,
    ...each((k) => `ndcg_cut_${k}`),
    "recip_rank",
    "gm_map",
    "gm_bpref",
    "iprec_at_recall",
    "Rprec_mult",
    "11pt_avg",
    "set_P",
    "set_relative_P",
    "set_F.0.5",
    "binG",
    "G",
    "Rndcg",
    "ndcg_rel.2=3",
    "ndcg.1=3,2=9",
    "utility.2,-1,0,0",
    "rbp.p=0.8",
    "num_nonrel_judged_ret.x",
    // ir_measures
    "nDCG",
    "AP",
    "RR",
    "RR(rel=2)",
    "Rprec",
    "Rprec(rel=2)",
    "Bpref",
    "Bpref(rel=2)",
    "infAP",
    "NumRet",
    "NumRet(rel=2)",
    "NumRelRet",
    "NumRel",
    "SetP",
    "SetRelP",
    "SetR",
    "SetF(beta=0.5)",
    "SetAP(rel=2)",
    "IPrec@0.3",
    "IPrec(rel=2)@1.0",
    ...ks.flatMap((k) => [
      `nDCG@${k}`,
      `AP@${k}`,
      `RR@${k}`,
      `P@${k}`,
      `P(rel=2)@${k}`,
      `R@${k}`,
      `Success@${k}`,
      `nDCG(dcg='exp-log2')@${k}`,
      `ERR@${k}`,
      `Judged@${k}`,
      `nDCG(gains={1:3,2:9})@${k}`,
      `SDCG(max_rel=3)@${k}`,
      `NERR8(max_rel=2)@${k}`,
      `NERR9(min_rel=1,max_rel=4)@${k}`,
      `BPM(T=2.0,max_rel=3)@${k}`,
      `Accuracy(rel=2)@${k}`,
      `P(judged_only=True)@${k}`,
      `AP(judged_only=True)@${k}`,
    ]),
    "NumQ",
    "INST(max_rel=3)",
    "INSQ(T=2.0,max_rel=1)",
    "NERR10(p=0.5,max_rel=4)",
    "NERR11(max_rel=2)",
    "RBP(rel=1)",
    "RBP(p=0.95,rel=2)",
    "Compat",
    "Compat(p=0.7,normalize=False)",
    "Accuracy",
    "nDCG(dcg='exp-log2')",
    "nDCG(judged_only=True)",
    "Rprec(judged_only=True)",
    // ranx
    "hits",
    "ndcg_burges",
    "dcg_burges",
    ...ks.flatMap((k) => [`hits@${k}`, `hits@${k}-l2`, `ndcg_burges@${k}`, `dcg_burges@${k}`]),
  ];
}

describe("evaluate(rows): kernel = reference", () => {
  it(
    "on random batches, every measure, several cutoffs, random options",
    () => {
      fc.assert(
        fc.property(rowsBatch, cutoffs, options, (rows, ks, opts) => {
          const ms = allMeasures([...ks, 1, 10]);
          expectSame(evaluate(rows, ms, opts), referenceEvaluate(rows, ms, opts));
        }),
        params(RUNS),
      );
    },
    TIMEOUT,
  );

  it(
    "on single-row and all-tied queries",
    () => {
      const tiny = fc
        .record({
          n: fc.integer({ min: 1, max: 3 }),
          s: fc.constantFrom(0, 1),
          l: fc.array(label, { minLength: 3, maxLength: 3 }),
          withDocids: fc.boolean(),
        })
        .map(({ n, s, l, withDocids }) => ({
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
    },
    TIMEOUT,
  );

  it(
    "on batches of many small queries",
    () => {
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
    },
    TIMEOUT,
  );

  it(
    "on queries written in rank order (scores descending, ties and ±0 among them), and one swap from it",
    () => {
      // The kernel takes scores already descending as their own order (assembly/ranking/sort.ts).
      const ranked = fc.array(
        fc.record({ q: query, swap: fc.option(fc.nat(), { nil: undefined }), withDocids: fc.boolean() }),
        { minLength: 1, maxLength: 20 },
      );
      fc.assert(
        fc.property(ranked, cutoffs, options, (queries, ks, opts) => {
          const qid: string[] = [];
          const score: number[] = [];
          const rel: number[] = [];
          const docid: (string | number)[] = [];
          queries.forEach(({ q, swap }, i) => {
            const rows = q.scores.map((_, r) => r).sort((a, b) => q.scores[b] - q.scores[a]);
            if (swap !== undefined && rows.length > 1) {
              const at = swap % (rows.length - 1);
              [rows[at], rows[at + 1]] = [rows[at + 1], rows[at]];
            }
            for (const r of rows) {
              qid.push(`q${i}`);
              score.push(q.scores[r]);
              rel.push(q.labels[r]);
              docid.push(`${i}-${q.docids[r]}`);
            }
          });
          const rows = { qid, score, rel, ...(queries[0].withDocids ? { docid } : {}) };
          const ms = allMeasures([...ks, 1, 10]);
          expectSame(evaluate(rows, ms, opts), referenceEvaluate(rows, ms, opts));
        }),
        params(RUNS),
      );
    },
    TIMEOUT,
  );

  it(
    "on a query of 10,000 rows",
    () => {
      fc.assert(
        fc.property(queryOf(10_000), fc.boolean(), options, (q, withDocids, opts) => {
          const rows = {
            qid: q.scores.map(() => "big"),
            score: q.scores,
            rel: q.labels,
            ...(withDocids ? { docid: q.docids } : {}),
          };
          const ms = allMeasures([1, 10, 100, 9_999, 10_000, 10_001]);
          expectSame(evaluate(rows, ms, opts), referenceEvaluate(rows, ms, opts));
        }),
        params(2),
      );
    },
    TIMEOUT,
  );
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

  it(
    "every measure that has a closed form, random options",
    () => {
      fc.assert(
        fc.property(batch, smallCutoffs, averageOptions, (rows, ks, opts) => {
          const ms = averageableMeasures([...ks, 1, 3]);
          expectSame(evaluate(rows, ms, opts), referenceEvaluate(rows, ms, opts));
        }),
        params(RUNS),
      );
    },
    TIMEOUT,
  );

  it(
    "under the sklearn preset (linear gain, ties averaged)",
    () => {
      fc.assert(
        fc.property(batch, smallCutoffs, (rows, ks) => {
          const ms = [`ndcg@${ks.join(",")}`, "ndcg", `dcg@${ks.join(",")}`];
          expectSame(evaluate(rows, ms, { preset: "sklearn" }), referenceEvaluate(rows, ms, { preset: "sklearn" }));
        }),
        params(RUNS),
      );
    },
    TIMEOUT,
  );

  it(
    "best and worst bracket every tie order for the measures that grow as relevant documents move up",
    () => {
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
              if (!(worst[q] <= v + 1e-12 && v <= best[q] + 1e-12))
                throw new Error(`${m} on ${r.qids[q]}: average ${v} outside [${worst[q]}, ${best[q]}]`);
            }
          }
        }),
        params(RUNS),
      );
    },
    TIMEOUT,
  );
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
  .record({
    queries: fc.array(runQuery, { minLength: 1, maxLength: 30, size: "medium" }),
    extraJudgedQuery: fc.boolean(),
    shuffleQrels: fc.boolean(),
  })
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
  it(
    "evaluate(rows), random batches and options",
    () => {
      fc.assert(
        fc.property(rowsBatch, cutoffs, options, (rows, ks, opts) => {
          const ms = toolMeasures([...new Set([...ks, 1])]);
          expectSame(evaluate(rows, ms as never, opts), referenceEvaluate(rows, ms as never, opts));
        }),
        params(Math.max(1, Math.round(RUNS / 3))),
      );
    },
    TIMEOUT,
  );

  it(
    "evaluateRun, with unjudged and never-retrieved documents",
    () => {
      fc.assert(
        fc.property(runBatch, cutoffs, options, ({ qrels, run }, ks, opts) => {
          const ms = toolMeasures([...new Set([...ks, 1])]);
          const reference = referenceEvaluateRun(qrels, run, ms as never, opts);
          // No query in common: evaluateRun refuses (means over no query), the reference has none.
          if (reference.qids.length === 0)
            expect(() => evaluateRun(qrels, run, ms as never, opts)).toThrow(/no query in common/);
          else expectSame(evaluateRun(qrels, run, ms as never, opts), reference);
        }),
        params(Math.max(1, Math.round(RUNS / 3))),
      );
    },
    TIMEOUT,
  );
});

describe("evaluateRun(qrels, run): kernel = reference", () => {
  it(
    "on random runs with unjudged and never-retrieved documents",
    () => {
      fc.assert(
        fc.property(runBatch, cutoffs, options, ({ qrels, run }, ks, opts) => {
          const ms = allMeasures([...ks, 1, 10]);
          const reference = referenceEvaluateRun(qrels, run, ms, opts);
          // No query in common: evaluateRun refuses (means over no query), the reference has none.
          if (reference.qids.length === 0)
            expect(() => evaluateRun(qrels, run, ms, opts)).toThrow(/no query in common/);
          else expectSame(evaluateRun(qrels, run, ms, opts), reference);
        }),
        params(RUNS),
      );
    },
    TIMEOUT,
  );
});
