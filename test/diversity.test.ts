// Diversity measures (TREC's ndeval's: alpha-DCG, alpha-nDCG, ERR-IA, nERR-IA, NRBP, nNRBP, MAP-IA,
// P-IA, strec) over subtopic judgments: worked by hand from their definitions; the kernel
// (evaluateDiversity) against the reference (src/reference/evaluate-diversity.ts, written from the
// definitions) on random judgments, runs, parameters and conventions; names and refusals.
// test/ndeval-diff.test.ts compares --format ndeval with ndeval itself, byte for byte.
//
// RANKEVAL_RUNS=4 npx vitest run test/diversity.test.ts   runs 4 times the cases; RANKEVAL_SEED=<n> replays a seed.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "./_cli.js";
import { evaluate, evaluateDiversity, parseMeasures, type Result } from "../src/index.js";
import { evaluateFiles } from "../src/node/index.js";
import { referenceEvaluateDiversity } from "../src/reference/evaluate-diversity.js";
import { expectSame, RUNS, subtopicBatch, subtopicOptions } from "./_random.js";

describe("worked by hand", () => {
  // Query q, subtopics 1 and 2: d1 is relevant to both, d2 to 1, d3 to 2, d4 judged 0 for 1.
  // The run ranks d2, d4, d1, d3. With alpha = 0.5 the gains by rank are
  //   d2: 1 (subtopic 1 unseen); d4: 0; d1: 0.5 (1 seen once) + 1 (2 unseen) = 1.5; d3: 0.5 (2 seen once).
  // The ideal ranking, greedily: d1 (gain 2), then d2 and d3 both gain 0.5: the greater id first, d3, then d2.
  const qrels = { q: { "1": { d1: 1, d2: 1, d4: 0 }, "2": { d1: 1, d3: 1 } } };
  const run = { qid: ["q", "q", "q", "q"], docid: ["d2", "d4", "d1", "d3"], score: [4, 3, 2, 1] };
  const log2 = Math.log2;
  const want: Record<string, number> = {
    // ndeval divides alpha-DCG by m (1 − alpha)^(r−1) summed over the ranks (m = 2 subtopics)
    "alpha_dcg@4": (1 + 0 + 1.5 / log2(4) + 0.5 / log2(5)) / (2 + 1 / log2(3) + 0.5 / log2(4) + 0.25 / log2(5)),
    "alpha_ndcg@4": (1 + 1.5 / log2(4) + 0.5 / log2(5)) / (2 + 0.5 / log2(3) + 0.5 / log2(4)),
    "err_ia@4": (1 + 1.5 / 3 + 0.5 / 4) / (2 + 1 / 2 + 0.5 / 3 + 0.25 / 4),
    "nerr_ia@4": (1 + 1.5 / 3 + 0.5 / 4) / (2 + 0.5 / 2 + 0.5 / 3),
    // At k = 1 ndeval leaves alpha-DCG and ERR-IA undivided.
    "alpha_dcg@1": 1,
    "err_ia@1": 1,
    "alpha_ndcg@1": 1 / 2,
    // NRBP: (1 − (1 − alpha) beta) / m Σ g_r beta^(r−1), beta = 0.5.
    nrbp: ((1 - 0.25) / 2) * (1 + 1.5 / 4 + 0.5 / 8),
    nnrbp: (1 + 1.5 / 4 + 0.5 / 8) / (2 + 0.5 / 2 + 0.5 / 4),
    // P-IA@4: (subtopic, document) pairs in the top 4 over 4 m.
    "p_ia@4": (1 + 0 + 2 + 1) / 8,
    "p_ia@2": 1 / 4,
    "strec@1": 1 / 2,
    "strec@3": 1,
    // MAP-IA: subtopic 1's AP (d2 at 1, d1 at 3) and subtopic 2's (d1 at 3, d3 at 4), averaged.
    map_ia: ((1 + 2 / 3) / 2 + (1 / 3 + 2 / 4) / 2) / 2,
    // alpha = 0: no novelty (every relevant subtopic gains 1): gains 1, 0, 2, 1; the ideal 2, 1, 1.
    "alpha_ndcg(alpha=0)@4": (1 + 2 / log2(4) + 1 / log2(5)) / (2 + 1 / log2(3) + 1 / log2(4)),
    // alpha = 1: a subtopic counts once: gains 1, 0, 1, 0; the ideal 2 (d1), then nothing.
    "alpha_ndcg(alpha=1)@4": (1 + 1 / log2(4)) / 2,
  };
  it("each measure's value", () => {
    const r = evaluateDiversity(qrels, run, Object.keys(want));
    expect(r.qids).toEqual(["q"]);
    for (const [m, v] of Object.entries(want)) expect(r.values[m][0], m).toBeCloseTo(v, 14);
    const ref = referenceEvaluateDiversity(qrels, run, Object.keys(want));
    for (const [m, v] of Object.entries(want)) expect(ref.values[m][0], m).toBeCloseTo(v, 14);
  });
  it("under the names of ndeval and ir_measures", () => {
    const r = evaluateDiversity(qrels, run, [
      "alpha-nDCG@4",
      "ERR-IA@4",
      "NRBP",
      "nNRBP",
      "MAP-IA",
      "P-IA@4",
      "strec@3",
      "alpha_nDCG@4",
      "ERR_IA@4",
      "nERR_IA@4",
      "AP_IA",
      "P_IA@4",
      "STREC@3",
    ]);
    expect(r.values["alpha-nDCG@4"][0]).toBeCloseTo(want["alpha_ndcg@4"], 14);
    expect(r.values["ERR-IA@4"][0]).toBeCloseTo(want["err_ia@4"], 14);
    expect(r.values["nERR_IA@4"][0]).toBeCloseTo(want["nerr_ia@4"], 14);
    expect(r.values.NRBP[0]).toBeCloseTo(want.nrbp, 14);
    expect(r.values.nNRBP[0]).toBeCloseTo(want.nnrbp, 14);
    expect(r.values["MAP-IA"][0]).toBeCloseTo(want.map_ia, 14);
    expect(r.values.AP_IA[0]).toBeCloseTo(want.map_ia, 14);
    expect(r.values["P_IA@4"][0]).toBeCloseTo(want["p_ia@4"], 14);
    expect(r.values["STREC@3"][0]).toBe(1);
  });
  it("the ideal ranking's greedy choice among tied documents: the greatest id, as ndeval's", () => {
    // Subtopics 1: d3, d1; 2: d3; 3: d2, d1; 4: d2. Each document first gains 2, a three-way tie:
    // ndeval takes d3, then d2 (gain 2: subtopics 3 and 4 unseen) over d1 (0.5 + 1), then d1 (0.5 + 0.5):
    // the ideal gains are 2, 2, 1. Taking d1 first instead would give 2, 1.5, 1.5, the run's own
    // gains (d1, d2, d3), and an alpha-nDCG of 1.
    const tied = { q: { "1": { d3: 1, d1: 1 }, "2": { d3: 1 }, "3": { d2: 1, d1: 1 }, "4": { d2: 1 } } };
    const ranked = { qid: ["q", "q", "q"], docid: ["d1", "d2", "d3"], score: [3, 2, 1] };
    const expected: Record<string, number> = {
      "alpha_ndcg@2": (2 + 1.5 / log2(3)) / (2 + 2 / log2(3)),
      "alpha_ndcg@3": (2 + 1.5 / log2(3) + 1.5 / 2) / (2 + 2 / log2(3) + 1 / 2),
      "nerr_ia@3": (2 + 1.5 / 2 + 1.5 / 3) / (2 + 2 / 2 + 1 / 3),
      nnrbp: (2 + 1.5 / 2 + 1.5 / 4) / (2 + 2 / 2 + 1 / 4),
    };
    const kernel = evaluateDiversity(tied, ranked, Object.keys(expected));
    const reference = referenceEvaluateDiversity(tied, ranked, Object.keys(expected));
    for (const [m, v] of Object.entries(expected)) {
      expect(kernel.values[m][0], m).toBeCloseTo(v, 14);
      expect(reference.values[m][0], m).toBeCloseTo(v, 14);
    }
  });
  it("a measure that is not a diversity one reads each document's highest judgment", () => {
    const r = evaluateDiversity(qrels, run, ["P@2", "ndcg@4"]);
    const flat = evaluate({ qid: ["q", "q", "q", "q"], score: [4, 3, 2, 1], rel: [1, 0, 1, 1] }, ["P@2", "ndcg@4"]);
    expect(r.values["P@2"][0]).toBe(flat.values["P@2"][0]);
    expect(r.values["ndcg@4"][0]).toBe(flat.values["ndcg@4"][0]);
  });
  it("a query without a relevant subtopic: 0, nNRBP NaN (0/0) under ndeval's names", () => {
    const r = evaluateDiversity({ q: { "1": { d1: 0 } } }, { qid: ["q"], docid: ["d1"], score: [1] }, [
      "alpha_ndcg@5",
      "nrbp",
      "nNRBP",
      "strec@5",
    ]);
    expect(r.values["alpha_ndcg@5"][0]).toBe(0);
    expect(r.values.nrbp[0]).toBe(0);
    expect(Number.isNaN(r.values.nNRBP[0])).toBe(true);
    expect(r.values["strec@5"][0]).toBe(0);
  });
  it("a diversity measure without subtopic judgments is refused", () => {
    expect(() => evaluate({ qid: ["q"], score: [1], rel: [1] }, ["alpha_ndcg@5"])).toThrow(/subtopic judgments/);
    expect(parseMeasures(["alpha-nDCG@20"])[0].family.name).toBe("alpha_ndcg");
  });
});

// ---------------------------------------------------------------------------------------------
// Property: kernel = reference.

const alpha = fc.constantFrom(0, 0.25, 0.5, 0.75, 1);
const cutoff = fc.integer({ min: 1, max: 14 });
const measure = fc.oneof(
  fc
    .tuple(fc.constantFrom("alpha_dcg", "alpha_ndcg", "err_ia", "nerr_ia"), alpha, cutoff)
    .map(([f, a, k]) => `${f}(alpha=${a})@${k}`),
  fc.constantFrom("alpha_dcg", "alpha_ndcg", "err_ia", "nerr_ia", "map_ia", "strec", "p_ia", "nrbp", "nnrbp"),
  fc
    .tuple(fc.constantFrom("nrbp", "nnrbp"), alpha, fc.constantFrom(0.1, 0.5, 0.9))
    .map(([f, a, b]) => `${f}(alpha=${a},beta=${b})`),
  fc.tuple(fc.constantFrom("p_ia", "strec"), cutoff).map(([f, k]) => `${f}@${k}`),
  fc.constantFrom(
    "alpha-nDCG@20",
    "ERR-IA@5",
    "nNRBP",
    "P-IA@10",
    "strec@20",
    "alpha_nDCG(alpha=0.25)@5",
    "nERR_IA@10",
    "AP_IA",
    "STREC(rel=2)@5",
    "P_IA(rel=2)@3",
    "ndcg@5",
    "P@3",
    "map",
  ),
);

describe("kernel = reference", () => {
  it("on random subtopic judgments, runs, measures and conventions", () => {
    const measures = fc.uniqueArray(measure, { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(subtopicBatch, measures, subtopicOptions, ({ qrels, run }, ms, o) => {
        expectSame(evaluateDiversity(qrels, run, ms, o), referenceEvaluateDiversity(qrels, run, ms, o));
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------
// The command line: a subtopic qrels read by its shape, with --diversity, for a diversity measure.

describe("command line", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-diversity-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  // The worked example above, as files: topic 1; its run's tag "sys".
  const qrels = file("div.qrels", "1 1 d1 1\n1 1 d2 1\n1 1 d4 0\n1 2 d1 1\n1 2 d3 1\n");
  const run = file("div.run", "1 Q0 d2 1 4 sys\n1 Q0 d4 2 3 sys\n1 Q0 d1 3 2 sys\n1 Q0 d3 4 1 sys\n");
  // One subtopic per document: no shape to tell it by.
  const plain = file("plain.qrels", "1 1 d1 1\n1 1 d2 1\n1 2 d3 1\n");

  it("by its shape: ndeval's measures, as ndeval prints them", async () => {
    const r = await cli([qrels, run]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/judges documents per subtopic .*--diversity/);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(
      "runid,topic,ERR-IA@5,ERR-IA@10,ERR-IA@20,nERR-IA@5,nERR-IA@10,nERR-IA@20,alpha-DCG@5,alpha-DCG@10,alpha-DCG@20,alpha-nDCG@5,alpha-nDCG@10,alpha-nDCG@20,NRBP,nNRBP,MAP-IA,P-IA@5,P-IA@10,P-IA@20,strec@5,strec@10,strec@20",
    );
    expect(lines).toHaveLength(3);
    expect(lines[1].startsWith("sys,1,")).toBe(true);
    expect(lines[2].replace(/^sys,amean,/, "")).toBe(lines[1].replace(/^sys,1,/, ""));
    // MAP-IA (column 15) = 0.625; strec@5 = 1
    expect(lines[1].split(",")[16]).toBe("0.625000");
    expect(lines[1].split(",")[20]).toBe("1.000000");
  });
  it("with -m: rankeval's report", async () => {
    const r = await cli(["-m", "alpha-nDCG@4", "-m", "strec@1", "-q", qrels, run]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("alpha-nDCG@4");
    expect(r.stdout).toContain("0.7661");
  });
  it("--diversity where the shape does not tell; a diversity measure asks for it", async () => {
    const asked = await cli(["--diversity", "-m", "strec@1", plain, run]);
    expect(asked.status).toBe(0);
    expect(asked.stdout).toMatch(/strec@1\s.*0\.5/);
    const byMeasure = await cli(["-m", "P-IA@2", plain, run]);
    expect(byMeasure.status).toBe(0);
    expect(byMeasure.stdout).toMatch(/P-IA@2\s.*0\.25/);
  });
  it("every face gives the same numbers and skips: the command line, evaluateFiles, evaluateDiversity", async () => {
    // Topic 2 judged but not ranked, topic 9 ranked but not judged; -c adds topic 2 as an empty ranking.
    const q = file("faces.qrels", "1 1 d1 1\n1 2 d1 1\n1 1 d2 0\n1 2 d3 1\n1 3 d4 1\n2 1 d5 1\n2 2 d6 1\n");
    const r = file("faces.run", "1 Q0 d1 1 9 s\n1 Q0 d2 2 8 s\n1 Q0 d3 3 7 s\n1 Q0 dx 4 6 s\n9 Q0 d1 1 3 s\n");
    const measures = ["alpha-nDCG@10", "ERR-IA@10", "strec@2"];
    for (const complete of [false, true]) {
      const c = complete ? ["-c"] : [];
      const out = await cli([...c, ...measures.flatMap((m) => ["-m", m]), "--format", "json", q, r]);
      expect(out.status, out.stderr).toBe(0);
      const { mean, queries } = (JSON.parse(out.stdout) as { runs: Pick<Result<string>, "mean" | "queries">[] })
        .runs[0];
      expect(queries).toEqual({
        evaluated: complete ? 2 : 1,
        skipped: { noRelevant: 0, notJudged: 1, notInRun: complete ? 0 : 1 },
      });
      const files = await evaluateFiles(q, r, measures, { complete });
      const objects = evaluateDiversity(
        {
          "1": { "1": { d1: 1, d2: 0 }, "2": { d1: 1, d3: 1 }, "3": { d4: 1 } },
          "2": { "1": { d5: 1 }, "2": { d6: 1 } },
        },
        { qid: ["1", "1", "1", "1", "9"], docid: ["d1", "d2", "d3", "dx", "d1"], score: [9, 8, 7, 6, 3] },
        measures,
        { complete },
      );
      for (const face of [files, objects]) {
        expect(face.queries).toEqual(queries);
        expect(face.mean).toEqual(mean);
      }
    }
  });
  it("refusals: --format ndeval with another measure, or without subtopic judgments", async () => {
    const other = await cli(["--format", "ndeval", "-m", "ndcg@5", qrels, run]);
    expect(other.status).not.toBe(0);
    expect(other.stderr).toMatch(/--format ndeval prints ndeval's measures/);
  });
});
