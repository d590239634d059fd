// The precision-recall curve computed beside any -m list (src/app/curve.ts): its points are the means
// `-m iprec_at_recall` gives under the same options, and the evaluation it rode on, once the curve is
// taken out, is the plan's alone, whatever the names and options.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { takeCurve, withCurve, type CurvePlan } from "../src/app/curve.js";
import { options, plan } from "../src/app/plan.js";
import { parseArgs } from "../src/node/args.js";
import { evaluateTrecRuns, main } from "../src/node/cli.js";

const examples = new URL("../examples/", import.meta.url).pathname;
const QRELS = join(examples, "qrels.txt");
const BM25 = join(examples, "bm25.run");
const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };

// q1: graded labels, an unjudged document, tied scores; q2: no relevant document; q3: judged, not in the run.
const fixtures = new URL("./fixtures/curve/", import.meta.url).pathname;
const qrels = join(fixtures, "qrels.txt");
const run = join(fixtures, "edges.run");

/** The run evaluated under `argv` with and without the curve; and -m iprec_at_recall under its options. */
async function evaluated(argv: string[], q: string, r: string) {
  const args = parseArgs([...argv, q, r]);
  const alone = await evaluateTrecRuns(args, quiet);
  let c: CurvePlan | null = null;
  const both = await evaluateTrecRuns(args, quiet, {
    plan: (p) => (c = withCurve(p, args, options(args, p.kind === "trec")))?.plan ?? p,
  });
  const taken = takeCurve(c, both.runs[0]);
  // The options alone (no -m NAME): trec_eval takes one -m iprec_at_recall's parameters only.
  const opts = argv.filter((a, i) => a !== "-m" && argv[i - 1] !== "-m");
  const asked = await evaluateTrecRuns(parseArgs(["-m", "iprec_at_recall", ...opts, q, r]), quiet);
  return { alone: alone.runs[0], taken, asked: asked.runs[0] };
}

const LEVELS = ["0.00", "0.10", "0.20", "0.30", "0.40", "0.50", "0.60", "0.70", "0.80", "0.90", "1.00"];

describe("the precision-recall curve beside a -m list", () => {
  const cases: string[][] = [
    [],
    ["-m", "map"],
    ["-m", "P.5", "-m", "iprec_at_recall.0.5"],
    ["-m", "ndcg@10"],
    ["-m", "ndcg@10", "-m", "map"],
    ["-m", "ndcg@10", "--no-relevant", "skip"],
    ["-m", "map", "--no-relevant", "nan"],
    ["-m", "map", "-l", "2"],
    ["-m", "map", "-c"],
    ["-m", "map", "-M", "2"],
    // trec_eval's own algorithm computes the curve here (the kernel's 0/0 differs on empty rankings).
    ["-m", "map", "-M", "0"],
    ["-m", "map", "-J"],
    ["-m", "ndcg@10", "-J"],
    ["-m", "map", "-l", "-1"],
    ["-m", "map", "--ties", "input"],
    ["-m", "num_ret"],
    ["-m", "runid"],
    // Skipping queries at threshold 2 and at 1 (the curve's): the curve skips as P@5 does.
    ["-m", "P(rel=2)@5", "-m", "P@5", "--no-relevant", "skip"],
  ];
  it.each(cases.map((c) => [c.join(" ") || "(the defaults)", c]))(
    "%s: the means of -m iprec_at_recall, and the evaluation as without it",
    async (_, argv) => {
      for (const [q, r] of [
        [qrels, run],
        [QRELS, BM25],
      ]) {
        const { alone, taken, asked } = await evaluated(argv as string[], q, r);
        expect(taken.evaluated).toEqual(alone);
        const curve = taken.curve!;
        expect(curve.map((p) => p.recall)).toEqual(LEVELS.map(Number));
        expect(curve.map((p) => p.precision)).toEqual(LEVELS.map((l) => asked.result.mean[`iprec_at_recall_${l}`]));
        // NaN where trec_eval prints -nan (-M 0: precision at recall 0 of an empty ranking is 0/0).
        expect(curve.every((p) => Number.isNaN(p.precision) || (p.precision >= 0 && p.precision <= 1))).toBe(true);
      }
    },
  );

  it("is trec_eval's iprec_at_recall lines, as the command line prints them", async () => {
    const args = parseArgs(["-m", "ndcg_cut.10", QRELS, BM25]);
    let c: CurvePlan | null = null;
    const { runs } = await evaluateTrecRuns(args, quiet, {
      plan: (p) => (c = withCurve(p, args, options(args, true)))?.plan ?? p,
    });
    let out = "";
    await main(["-m", "iprec_at_recall", QRELS, BM25], { stdout: { write: (s) => (out += s) }, stderr: quiet.stderr });
    const printed = out
      .trim()
      .split("\n")
      .map((l) => l.split("\t")[2].trim());
    expect(takeCurve(c, runs[0]).curve!.map((p) => p.precision.toFixed(4))).toEqual(printed);
    // Not every level alike: a curve that read one measure eleven times would not pass.
    expect(new Set(printed).size).toBeGreaterThan(3);
  });

  it("is not computed where it cannot be: said by null", () => {
    const none = (names: string[], conventions: Parameters<typeof plan>[2] = {}) => {
      const p = plan(names, null, conventions);
      return withCurve(p, conventions, options(conventions, p.kind === "trec"));
    };
    // iprec_at_recall has no closed form under ties "average".
    expect(none(["ndcg@10"], { ties: "average" })).toBeNull();
    // trec_eval's own algorithm (empty rankings under -J) ranks by document id or as given only.
    expect(none(["ndcg@10"], { ties: "worst", judgedOnly: true })).toBeNull();
    expect(none(["ndcg@10"], { ties: "input", judgedOnly: true })).not.toBeNull();
    // Other judgments than qrels; subtopic judgments.
    expect(none(["prefs_simp"], { relFormat: "prefs" })).toBeNull();
    expect(none(["alpha_ndcg@10"])).toBeNull();
    expect(none(["map"])).not.toBeNull();
  });

  it("is not computed where it would skip queries the plan counts (noRelevant skip at another threshold)", async () => {
    // P(rel=2) skips the queries without a label 2; the curve under -l 3 would skip q1 too (its best is 2).
    const argv = ["-m", "P(rel=2)@5", "-l", "3", "--no-relevant", "skip"];
    const { alone, taken } = await evaluated(argv, qrels, run);
    expect(taken.curve).toBeNull();
    expect(taken.evaluated).toEqual(alone);
    expect(alone.result.queries.skipped.noRelevant).toBe(1);
    expect((await evaluated(["-m", "P@5", ...argv], qrels, run)).taken.curve).not.toBeNull();
  });

  it("adds nothing to what the plan prints: its rows and trec lines", () => {
    const p = plan(["ndcg_cut.10", "map"], null, {});
    const c = withCurve(p, {}, options({}, true))!;
    expect(c.plan.rows).toBe(p.rows);
    expect(c.plan.trec).toBe(p.trec);
    expect(c.plan.measures.length).toBe(p.measures.length + 11);
    // Asked already: nothing to take out again.
    const q = plan(["iprec_at_recall"], null, {});
    expect(withCurve(q, {}, options({}, true))!.added.size).toBe(0);
  });
});
