// The drill-down's running values (src/explain/): at each rank, the measure's value for the ranking cut
// there. Checked on random queries under random conventions against
//  - the reference implementation's value of each prefix (src/reference/: the README's definitions),
//  - the library's per-query value (evaluateRun: another join, the kernel) at the end of the ranking,
//    and at every rank from a measure's cutoff on (a measure at k reads the top k only);
// and the ranking shown against the kernel's own order (relstring's).
//
// RANKEVAL_RUNS=4 npx vitest run test/explain.test.ts   runs 4 times the cases; RANKEVAL_SEED=<n> replays a seed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { explainQuery, type Explanation } from "../src/explain/explain.js";
import type { QueryRows } from "../src/explain/query.js";
import { QueryLines } from "../src/explain/lines.js";
import { changedMost, changes } from "../src/explain/changes.js";
import { evaluateRun, RankevalError } from "../src/index.js";
import { definedMeasure, measureOptions } from "../src/measures/measure.js";
import type { Options } from "../src/measures/options.js";
import { referenceValue } from "../src/reference/index.js";
import { rank, tieOrders, type Doc } from "../src/reference/ranking.js";
import { options, plan, type Conventions } from "../src/app/plan.js";
import { runs } from "./_seed.js";

const RUNS = runs(150);

/** Names the plan reads as canonical measures (not trec_eval's), and trec_eval's the kernel computes. */
const CANONICAL = [
  "ndcg@3",
  "dcg@5",
  "precision@4",
  "recall@3",
  "f1@2",
  "map@5",
  "mrr@3",
  "err@4",
  "hit_rate@2",
  "r-precision",
  "map_lightgbm@3",
  "map_xgboost@3",
  "infap",
  "bing",
  "rbp(p=0.5)",
  "ndcg@20",
  "kendall_tau",
  "mse",
  "inversions",
  "judged@3",
];
const TREC = ["ndcg_cut.3", "P.2", "recip_rank", "Rprec", "bpref", "recall.5", "num_rel_ret", "infAP"];

const close = (a: number, b: number) =>
  (Number.isNaN(a) && Number.isNaN(b)) || a === b || Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b));

interface Case {
  judged: { docid: string; label: number }[];
  run: { docid: string; score: number }[];
  measures: string[];
  conventions: Conventions;
}

const docid = fc.integer({ min: 0, max: 15 }).map((i) => `d${i}`);
const arbitraryCase: fc.Arbitrary<Case> = fc
  .record({
    judged: fc.uniqueArray(fc.record({ docid, label: fc.constantFrom(-1, 0, 0, 1, 1, 2, 3) }), {
      selector: (d) => d.docid,
      minLength: 1,
      maxLength: 12,
    }),
    run: fc.uniqueArray(fc.record({ docid, score: fc.integer({ min: 0, max: 6 }).map((s) => s / 2) }), {
      selector: (d) => d.docid,
      minLength: 1,
      maxLength: 12,
    }),
    canonical: fc.boolean(),
    pick: fc.shuffledSubarray(CANONICAL, { minLength: 1, maxLength: 4 }),
    trec: fc.shuffledSubarray(TREC, { minLength: 1, maxLength: 3 }),
    ties: fc.constantFrom("docid", "input", "best", "worst", "average", undefined),
    gain: fc.constantFrom("exp", "linear", undefined),
    noRelevant: fc.constantFrom("zero", "one", "nan", "skip", undefined),
    beyondList: fc.constantFrom("pad", "clip", "nan", "zero", undefined),
    depth: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
    judgedOnly: fc.boolean(),
  })
  .map((r) => ({
    judged: r.judged,
    run: r.run,
    measures: r.canonical ? r.pick : r.trec,
    conventions: {
      ties: r.ties,
      gain: r.gain,
      noRelevant: r.noRelevant,
      beyondList: r.beyondList,
      depth: r.depth,
      judgedOnly: r.judgedOnly || undefined,
    },
  }));

function explainCase(c: Case): { x: Explanation; p: ReturnType<typeof plan>; explicit: ReturnType<typeof options> } {
  const p = plan(c.measures, null, c.conventions);
  const explicit = options(c.conventions, p.kind === "trec");
  const q: QueryRows = {
    qid: "q",
    judged: { docids: c.judged.map((d) => d.docid), labels: c.judged.map((d) => d.label) },
    runs: [{ name: "run", rows: { docids: c.run.map((d) => d.docid), scores: c.run.map((d) => d.score) } }],
  };
  // Every rank shown: the whole ranking.
  return { x: explainQuery({ p, explicit }, q, { depth: 100 }), p, explicit };
}

describe("running values", () => {
  it("are the reference's values of each prefix, and the library's value at the end and from the cutoff on", () => {
    fc.assert(
      fc.property(arbitraryCase, (c) => {
        let made: ReturnType<typeof explainCase>;
        try {
          made = explainCase(c);
        } catch (e) {
          // Measures without a closed form for ties "average" refuse it, as the evaluation does.
          if (e instanceof RankevalError && e.code === "bad-option" && c.conventions.ties === "average") return;
          throw e;
        }
        const { x, p, explicit } = made;
        const run = x.runs[0];
        const labels = new Map(c.judged.map((d) => [d.docid, d.label]));
        for (const m of p.measures) {
          const key = m.name;
          const shown = x.measures.find((e) => e.key === key);
          if (!shown) continue;
          const ranking = run.rankings[shown.ranking];
          const rows = ranking.rows;
          expect(rows.length).toBe(ranking.length);
          const o = measureOptions(m, explicit);
          const defined = definedMeasure(m, explicit);
          const docs: Doc[] = rows.map((r) => ({ docid: r.docid, score: r.score, label: labels.get(r.docid) }));
          const judged = c.judged.map((d) => d.label);
          // The ranking shown is the reference's (the README's definitions).
          const input: Doc[] = c.run.map((d) => ({ docid: d.docid, score: d.score, label: labels.get(d.docid) }));
          if (o.ties !== "average")
            expect(docs.map((d) => d.docid)).toEqual(rank(input, o.depth, o.ties, o.judgedOnly).map((d) => d.docid));
          rows.forEach((r, i) => {
            const got = r.running[key] ?? NaN;
            const prefix = docs.slice(0, i + 1);
            const oi = i + 1 < rows.length ? { ...measureOptions(m, { ...explicit, beyondList: "pad" }) } : o;
            let want: number;
            if (o.ties === "average") {
              // Defined where a tie ends: the mean over every order of the prefix's ties.
              // The last rank: the value (checked below; -M may cut a tie, whose kept documents are averaged over too).
              if (i + 1 === rows.length) return;
              // Inside a tie: from a cutoff on, the value (each order's top k is in); else none.
              if (i + 1 < rows.length && rows[i + 1].score === r.score) {
                if (m.family.topK && m.k > 0 && r.rank >= m.k)
                  return expect(close(got, run.values[key] ?? NaN)).toBe(true);
                return expect(got).toBeNaN();
              }
              const orders = tieOrders(prefix, Infinity);
              want =
                orders.reduce((s, order) => s + referenceValue(defined, { ranking: order, judged }, oi), 0) /
                orders.length;
            } else want = referenceValue(defined, { ranking: prefix, judged }, oi);
            if (!close(got, want)) expect({ key, rank: r.rank, got }).toEqual({ key, rank: r.rank, got: want });
          });
          // At the end, and from the cutoff on for measures read at their cutoff, the value itself.
          const value = run.values[key] ?? NaN;
          if (rows.length) expect(close(rows[rows.length - 1].running[key] ?? NaN, value)).toBe(true);
          if (m.family.topK && m.k > 0)
            for (const r of rows) if (r.rank >= m.k) expect(close(r.running[key] ?? NaN, value)).toBe(true);
        }
        // The value is the library's (evaluateRun: its own join, the kernel) for the canonical names.
        if (p.kind !== "trec") {
          const qrels = { q: Object.fromEntries(c.judged.map((d) => [d.docid, d.label])) };
          const cols = {
            qid: c.run.map(() => "q"),
            docid: c.run.map((d) => d.docid),
            score: c.run.map((d) => d.score),
          };
          const o: Options = Object.fromEntries(
            Object.entries({ ...c.conventions }).filter(([, v]) => v !== undefined),
          ) as Options;
          const lib = evaluateRun(qrels, cols, c.measures, o);
          for (const key of lib.measures)
            if (run.values[key] !== undefined) expect(close(run.values[key] ?? NaN, lib.values[key][0])).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});

describe("a drill-down", () => {
  const judged = { docids: ["a", "b", "c", "d", "e"], labels: [2, 1, 0, 1, -1] };
  const rowsA = { docids: ["x", "a", "b", "c"], scores: [3, 2, 2, 1] };
  const rowsB = { docids: ["b", "a", "y"], scores: [5, 4, 3] };
  const p = plan(["ndcg_cut.2", "P.5"], null, {});
  const x = explainQuery(
    { p, explicit: options({}, true) },
    {
      qid: "q1",
      judged,
      runs: [
        { name: "A", rows: rowsA },
        { name: "B", rows: rowsB },
      ],
    },
  );

  it("ranks as trec_eval: ties by document id, descending; marks ties, unjudged documents and moves", () => {
    const a = x.runs[0].rankings[0].rows;
    expect(a.map((r) => r.docid)).toEqual(["x", "b", "a", "c"]);
    expect(a.map((r) => r.tie)).toEqual([null, 1, 1, null]);
    expect(a.map((r) => r.label)).toEqual([null, 1, 2, 0]);
    expect(a.map((r) => r.otherRank)).toEqual([null, 1, 2, null]);
    expect(x.runs[1].rankings[0].rows.map((r) => r.otherRank)).toEqual([2, 3, null]);
    expect(x.runs[0].unjudgedShown).toBe(1);
    // d (relevant) and e (negative label) are judged and not retrieved by A.
    expect(x.runs[0].unretrieved).toEqual({ relevant: [{ docid: "d", label: 1 }], relevantCount: 1, count: 2 });
  });

  it("gives each rank the measure's value for the ranking cut there, and the value at the cutoff", () => {
    const a = x.runs[0].rankings[0].rows;
    // P_5 pads: rel(i) / 5.
    expect(a.map((r) => r.running.P_5)).toEqual([0, 0.2, 0.4, 0.4]);
    expect(x.runs[0].printed.P_5).toBe("0.4000");
    // ndcg_cut_2: linear gains 0, 1 at ranks 1, 2 over the ideal 2, 1.
    const idcg = 2 + 1 / Math.log2(3);
    expect(a[1].running.ndcg_cut_2).toBeCloseTo(1 / Math.log2(3) / idcg, 12);
    expect(a[3].running.ndcg_cut_2).toBe(x.runs[0].values.ndcg_cut_2);
    expect(x.ideal.rows.map((r) => r.docid)).toEqual(["a", "b", "d", "c", "e"]);
    expect(x.ideal.values.ndcg_cut_2).toBe(1);
  });

  it("says a run without the query has none, and -c evaluates it as trec_eval does", () => {
    const none = explainQuery(
      { p, explicit: options({}, true) },
      {
        qid: "q1",
        judged,
        runs: [
          { name: "A", rows: rowsA },
          { name: "C", rows: null },
        ],
      },
    );
    expect(none.runs[1].inRun).toBe(false);
    expect(none.runs[1].values).toEqual({ P_5: null, ndcg_cut_2: null });
    const complete = explainQuery(
      { p, explicit: options({}, true), complete: true },
      { qid: "q1", judged, runs: [{ name: "C", rows: null }] },
    );
    expect(complete.runs[0].values).toEqual({ P_5: 0, ndcg_cut_2: 0 });
  });
});

describe("changes", () => {
  const base = { qids: ["a", "b", "c", "d", "e"], values: [0.5, 0.5, 0.2, NaN, 1] };
  const run = { qids: ["e", "d", "c", "b", "a"], values: [0.4, 0.9, 0.6, 0.5, 0.1] };
  it("lists the queries that lost and gained most, largest first, NaN and unmoved left out", () => {
    const { lost, gained } = changes(base, run, 10);
    expect(lost.map((c) => c.qid)).toEqual(["e", "a"]);
    expect(lost[0].difference).toBeCloseTo(-0.6, 12);
    expect(gained.map((c) => c.qid)).toEqual(["c"]);
  });
  it("chooses the queries that changed most, losses and gains in turn; with one run its lowest", () => {
    expect(changedMost([base, run], 0, 2)).toEqual(["e", "c"]);
    expect(changedMost([base, run], 0, 10)).toEqual(["e", "c", "a"]);
    expect(changedMost([base], 0, 2)).toEqual(["c", "a"]);
  });
});

describe("a run's lines of a few queries (QueryLines)", () => {
  const text =
    "\uFEFFq1 Q0 a 1 2.5 t\r\n# q2 Q0 z 1 9 t\n\n  q2\tQ0 b 1 1e1 t\nq10 Q0 c 1 3 t\nq2 Q0 d 2 -0.5 t\nq1 Q0 e 2 1 t";
  const bytes = new TextEncoder().encode(text);
  it("keeps the lines of the queries asked, in the run's order, split anywhere", () => {
    for (let cut = 0; cut <= bytes.length; cut++) {
      const sink = new QueryLines(["q1", "q2"]);
      sink.push(bytes.subarray(0, cut));
      sink.push(bytes.subarray(cut));
      const got = sink.finish("run");
      expect(Object.fromEntries(got)).toEqual({
        q1: { docids: ["a", "e"], scores: [2.5, 1] },
        q2: { docids: ["b", "d"], scores: [10, -0.5] },
      });
    }
  });
});
