// One named test per class of difference from trec_eval 10 that the differential test
// (test/trec-eval-diff.test.ts) found, each against trec_eval's own output for the command (pasted
// from the binary built from ../shared), so they run without it; and a property test that the kernel
// computes every line it takes as trec_eval's own algorithm (src/trec/port.ts) does.
import fc from "fast-check";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Interner, QrelsParser, RunParser } from "../src/io/index.js";
import { main } from "../src/node/cli.js";
import { exactValues } from "../src/trec/measures.js";
import { evaluateBlock } from "../src/app/evaluate-block.js";
import { lineKey, options, plan, trecOptions, type Conventions } from "../src/app/plan.js";
import { trecLines } from "../src/trec/measures.js";
import { joinParsed } from "../src/pipeline/join-rows.js";
import { runs } from "./_seed.js";

async function run(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return { status, out, err };
}

const dir = mkdtempSync(join(tmpdir(), "rankeval-parity-"));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
/** trec_eval's lines, tab-separated as written here with " | ". */
const lines = (...l: string[]) =>
  l
    .map(
      (x) =>
        `${x
          .split(" | ")
          .map((f, i) => (i === 0 ? f.padEnd(22) : f))
          .join("\t")}\n`,
    )
    .join("");

// q1 ranks d9 (not judged), d1 (1), d4 (-1: judged "unjudged"), d2 (0); d3 (2) is judged, never ranked.
// q2 ranks d5 (3) and d7 (not judged).
const qrels = file("qrels", "1 0 d1 1\n1 0 d2 0\n1 0 d3 2\n1 0 d4 -1\n2 0 d1 1\n2 0 d5 3\n");
const runA = file(
  "run",
  "1 Q0 d9 1 0.9 A\n1 Q0 d1 2 0.8 A\n1 Q0 d4 3 0.8 A\n1 Q0 d2 4 0.7 A\n2 Q0 d5 1 0.5 A\n2 Q0 d7 2 0.4 A\n",
);

describe("trec_eval's options as it reads them", () => {
  it("-M cuts each ranking before -J drops the unjudged documents (form_res_rels.c)", async () => {
    // q1's top document is unjudged: -M1 keeps it, -J then drops it, and nothing is retrieved.
    const r = await run("-q", "-J", "-M1", "-m", "num_ret", "-m", "P.1", "-m", "map", qrels, runA);
    expect(r.out).toBe(
      lines(
        "num_ret | 1 | 0",
        "map | 1 | 0.0000",
        "P_1 | 1 | 0.0000",
        "num_ret | 2 | 1",
        "map | 2 | 0.5000",
        "P_1 | 2 | 1.0000",
        "num_ret | all | 1",
        "map | all | 0.2500",
        "P_1 | all | 0.5000",
      ),
    );
  });

  it("-l 0 and below: documents without a judgment >= 0 relevant at their ranks under -l -1, not in num_rel", async () => {
    expect((await run("-l0", "-m", "num_rel", "-m", "P.2", "-m", "map", "-m", "bpref", qrels, runA)).out).toBe(
      lines("num_rel | all | 5", "map | all | 0.3889", "bpref | all | 0.5833", "P_2 | all | 0.2500"),
    );
    const r = await run(
      "-q",
      "-l",
      "-1",
      "-m",
      "num_rel",
      "-m",
      "num_rel_ret",
      "-m",
      "P.2",
      "-m",
      "map",
      "-m",
      "iprec_at_recall.0",
      qrels,
      runA,
    );
    expect(r.out).toBe(
      lines(
        "num_rel | 1 | 3",
        "num_rel_ret | 1 | 2",
        "map | 1 | 0.8056",
        "iprec_at_recall_0.00 | 1 | 0.5000",
        "P_2 | 1 | 0.5000",
        "num_rel | 2 | 2",
        "num_rel_ret | 2 | 1",
        "map | 2 | 1.0000",
        "iprec_at_recall_0.00 | 2 | 0.5000",
        "P_2 | 2 | 1.0000",
        "num_rel | all | 5",
        "num_rel_ret | all | 3",
        "map | all | 0.9028",
        "iprec_at_recall_0.00 | all | 0.5000",
        "P_2 | all | 0.7500",
      ),
    );
  });

  it("-l 1.5 is 1 and -M 1.9 is 1 (atol), said on stderr; -M 0 keeps nothing; -M below 0 is an error", async () => {
    const r = await run("-l", "1.5", "-M", "1.9", "-m", "num_ret", "-m", "P.1", qrels, runA);
    expect(r.out).toBe(lines("num_ret | all | 2", "P_1 | all | 0.5000"));
    expect(r.err).toBe(
      "rankeval: -l 1.5 is read as 1, as trec_eval reads it (atol)\nrankeval: -M 1.9 is read as 1, as trec_eval reads it (atol)\n",
    );
    expect((await run("-M", "0", "-m", "num_ret", qrels, runA)).out).toBe(lines("num_ret | all | 0"));
    const neg = await run("-M", "-1", "-m", "num_ret", qrels, runA);
    expect([neg.status, neg.out]).toEqual([1, ""]);
    expect(neg.err).toMatch(/-M: "-1" is negative/);
    // Canonical names take -l as written.
    expect((await run("-l", "1.5", "-m", "precision@2", qrels, runA)).err).toBe("");
  });

  it("trec_eval's long spellings", async () => {
    const r = await run(
      "--query_eval_wanted",
      "--level_for_rel=2",
      "--Max_retrieved_per_topic",
      "2",
      "--Judged_docs_only",
      "--nosummary",
      "--measure=num_ret",
      qrels,
      runA,
    );
    expect(r.out).toBe(lines("num_ret | 1 | 0", "num_ret | 2 | 1"));
    expect(
      (
        await run(
          "--complete_rel_info_wanted",
          "--Number_docs_in_coll=100",
          "--measure",
          "utility.0,0,0,1",
          qrels,
          runA,
        )
      ).out,
    ).toBe(lines("utility_0,0,0,1 | all | 96.0000"));
  });

  it("duplicate cutoffs are trec_eval's error, not a canonical table", async () => {
    const r = await run("-m", "P.5,5", qrels, runA);
    expect([r.status, r.out]).toEqual([1, ""]);
    expect(r.err).toMatch(/duplicate cutoffs detected/);
  });
});

describe("trec_eval's values", () => {
  it("-nan where -J leaves a ranking empty (iprec_at_recall, 11pt_avg), and in the summary", async () => {
    const r = await run(
      "-q",
      "-J",
      "-m",
      "num_ret",
      "-m",
      "iprec_at_recall.0,0.5",
      "-m",
      "11pt_avg",
      file("q2", "1 0 d1 1\n2 0 d5 1\n"),
      file("r2", "1 Q0 d9 1 0.9 A\n2 Q0 d5 1 0.5 A\n"),
    );
    expect(r.out).toBe(
      lines(
        "num_ret | 1 | 0",
        "iprec_at_recall_0.00 | 1 |   -nan",
        "iprec_at_recall_0.50 | 1 | 0.0000",
        "11pt_avg | 1 |   -nan",
        "num_ret | 2 | 1",
        "iprec_at_recall_0.00 | 2 | 1.0000",
        "iprec_at_recall_0.50 | 2 | 1.0000",
        "11pt_avg | 2 | 1.0000",
        "num_ret | all | 1",
        "iprec_at_recall_0.00 | all |   -nan",
        "iprec_at_recall_0.50 | all | 0.5000",
        "11pt_avg | all |   -nan",
      ),
    );
  });

  it("a query whose every judgment is negative: 0, where trec_eval 10 prints -nan from the query before's counts", async () => {
    // trec_eval 10 prints, for q2: "G_4=7,-1=7 q2 -nan" and "all -nan". form_res_rels.c leaves q2's
    // per-level counts as q1 set them (level 1: one document), so its ideal is 1 while the placeholder
    // document, not judged (-1), gains 7: G divides by log2(2 + 1 - 7). rankeval evaluates q2 from its own
    // judgments, none relevant: 0 (README's differences: undefined behaviour).
    const r = await run(
      "-m",
      "G.4=7,-1=7",
      "-c",
      "-q",
      file("negative", "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 -1\n"),
      file("r-negative", "q1 Q0 d1 1 2 r\nq1 Q0 d2 2 1 r\n"),
    );
    expect(r.out).toBe(lines("G_4=7,-1=7 | q1 | 1.0000", "G_4=7,-1=7 | q2 | 0.0000", "G_4=7,-1=7 | all | 0.5000"));
  });

  const q3 = file("q3", "1 0 d1 1\n1 0 d2 0\n3 0 d1 2\n3 0 d2 1\n");
  const r3 = file("r3", "1 Q0 d1 1 0.9 A\n1 Q0 d9 2 0.5 A\n");

  it("-c: a judged query absent from the run is scored on trec_eval's placeholder, parameterised utility, rbp_resid and relstring too", async () => {
    const r = await run(
      "-q",
      "-c",
      "-m",
      "num_ret",
      "-m",
      "utility.2,-1,0,0",
      "-m",
      "rbp_resid.p=0.5",
      "-m",
      "relstring.3",
      "-m",
      "unj.1",
      "-m",
      "num_rel",
      "-m",
      "map",
      q3,
      r3,
    );
    expect(r.out).toBe(
      lines(
        "num_ret | 1 | 2",
        "num_rel | 1 | 1",
        "map | 1 | 1.0000",
        "relstring_3 | 1 | '1-'",
        "utility_2,-1,0,0 | 1 | 1.0000",
        "rbp_resid_p=0.5 | 1 | 0.5000",
        "unj_1 | 1 | 0.0000",
        "num_ret | 3 | 0",
        "num_rel | 3 | 2",
        "map | 3 | 0.0000",
        "relstring_3 | 3 | '-'",
        "utility_2,-1,0,0 | 3 | -1.0000",
        "rbp_resid_p=0.5 | 3 | 1.0000",
        "unj_1 | 3 | 0.0000",
        "num_ret | all | 2",
        "num_rel | all | 3",
        "map | all | 0.5000",
        "utility_2,-1,0,0 | all | 0.0000",
        "rbp_resid_p=0.5 | all | 0.7500",
        "unj_1 | all | 0.0000",
      ),
    );
  });

  it("-c: the unparameterised num_ret, utility, rbp_resid, relstring and unj_* of a placeholder are zeroed (trec_eval.c)", async () => {
    const r = await run(
      "-q",
      "-c",
      "-m",
      "num_ret",
      "-m",
      "utility",
      "-m",
      "rbp_resid",
      "-m",
      "relstring",
      "-m",
      "unj.1",
      q3,
      r3,
    );
    expect(r.out).toBe(
      lines(
        "num_ret | 1 | 2",
        "relstring | 1 | '1-'",
        "utility | 1 | 0.0000",
        "rbp_resid | 1 | 0.9000",
        "unj_1 | 1 | 0.0000",
        "num_ret | 3 | 0",
        "relstring | 3 | ''",
        "utility | 3 | 0.0000",
        "rbp_resid | 3 | 0.0000",
        "unj_1 | 3 | 0.0000",
        "num_ret | all | 2",
        "utility | all | 0.0000",
        "rbp_resid | all | 0.4500",
        "unj_1 | all | 0.0000",
      ),
    );
  });

  it("-c: num_rel's summary counts every judgment > 0, whatever -l (m_num_rel.c)", async () => {
    expect((await run("-c", "-l", "2", "-m", "num_rel", q3, r3)).out).toBe(lines("num_rel | all | 3"));
  });

  it("dcg, ideal_dcg and yaap are computed (not left out)", async () => {
    expect((await run("-q", "-m", "dcg", "-m", "yaap", qrels, runA)).out).toBe(
      lines(
        "dcg | 1 | 0.5000",
        "yaap | 1 | -0.6931",
        "dcg | 2 | 3.0000",
        "yaap | 2 | 0.0000",
        "dcg | all | 1.7500",
        "yaap | all | -0.3466",
      ),
    );
    expect((await run("-q", "-m", "ideal_dcg", qrels, runA)).out).toBe(
      lines("ideal_dcg | 1 | 2.6309", "ideal_dcg | 2 | 3.6309", "ideal_dcg | all | 3.1309"),
    );
  });

  it("gain tables with a gain for level 0, a negative gain, a gain for the unjudged (-1)", async () => {
    const r = await run("-q", "-m", "ndcg.0=1,1=2,2=-1,-1=3", qrels, runA);
    expect(r.out).toBe(
      lines(
        "ndcg_0=1,1=2,2=-1,-1=3 | 1 | 1.6841",
        "ndcg_0=1,1=2,2=-1,-1=3 | 2 | 1.1480",
        "ndcg_0=1,1=2,2=-1,-1=3 | all | 1.4161",
      ),
    );
    const t = await run("-m", "ndcg_rel.0=1,-2=2", "-m", "Rndcg.1=0.5", "-m", "G.2=-1", qrels, runA);
    expect(t.out).toBe(
      lines("G_2=-1 | all | 0.6250", "ndcg_rel_0=1,-2=2 | all | 0.7470", "Rndcg_1=0.5 | all | 0.5075"),
    );
  });

  it("fractional gains compared as integers (gain_init.c comp_rel_gain), reproduced and said", async () => {
    const r = await run("-m", "ndcg.1=0.5", "-m", "ndcg_rel.1=1.2", qrels, runA);
    expect(r.out).toBe(lines("ndcg_1=0.5 | all | 0.5149", "ndcg_rel_1=1.2 | all | 0.5584"));
    expect(r.err).toMatch(/ndcg\.1=0\.5: gains 0 and 0\.5 differ by less than 1/);
  });

  it("cutoffs past 2^31 in trec_eval's order (comp_long truncates the difference to an int)", async () => {
    expect((await run("-m", "P.99999999999", qrels, runA)).out).toBe(lines("P_99999999999 | all | 0.0000"));
    // [2147483650, 1] stay in that order, so recall_1 is read at the end of the ranking; unj likewise.
    const r = await run("-m", "recall.2147483650,1", "-m", "unj.1,3000000000,2", qrels, runA);
    expect(r.out).toBe(
      lines(
        "recall_2147483650 | all | 0.5000",
        "recall_1 | all | 0.5000",
        "unj_3000000000 | all | 0.0000",
        "unj_1 | all | 1.5000",
        "unj_2 | all | 0.7500",
      ),
    );
  });

  it("a cutoff repeated around one past 2^31 is not caught (comp_long keeps them apart): two lines, two values", async () => {
    const q = file("q5", "301 0 d3 1\n");
    const rn = file("r5", "301 Q0 d3 3 3 A\n301 Q0 d5 4 1000 A\n");
    expect((await run("-m", "map_cut.1,2147483649,1", q, rn)).out).toBe(
      lines("map_cut_1 | all | 0.0000", "map_cut_2147483649 | all | 0.5000", "map_cut_1 | all | 0.5000"),
    );
  });

  it("labels read with atol under trec_eval's names (1.5 is 1, 1e1 is 1, -0.5 is 0), said once with the line", async () => {
    const q = file("q4", "1 0 d1 1.5\n1 0 d2 1e1\n1 0 d3 -0.5\n");
    const rn = file("r4", "1 Q0 d1 1 3 A\n1 Q0 d2 2 2 A\n1 Q0 d3 3 1 A\n");
    const r = await run(
      "-q",
      "-m",
      "num_rel",
      "-m",
      "num_rel_ret",
      "-m",
      "ndcg_cut.3",
      "-m",
      "relstring",
      "-m",
      "num_nonrel_judged_ret",
      q,
      rn,
    );
    expect(r.out).toBe(
      lines(
        "num_rel | 1 | 2",
        "num_rel_ret | 1 | 2",
        "relstring | 1 | '110'",
        "ndcg_cut_3 | 1 | 1.0000",
        "num_nonrel_judged_ret | 1 | 1",
        "num_rel | all | 2",
        "num_rel_ret | all | 2",
        "ndcg_cut_3 | all | 1.0000",
        "num_nonrel_judged_ret | all | 1",
      ),
    );
    expect(r.err).toBe(
      `rankeval: ${q}:1: label 1.5 is read as 1 (and 2 more), as trec_eval reads labels (atol); canonical measure names (ndcg@10) keep labels as written\n`,
    );
    // Canonical names keep the labels as written: 1.5 and 10 relevant, -0.5 not judged.
    expect((await run("--format", "csv", "-m", "num_rel", q, rn)).out).toMatch(/all,num_rel,2,/);
  });

  it("nothing to evaluate is an error, as trec_eval's", async () => {
    for (const [q, r] of [
      [file("empty", ""), runA],
      [qrels, file("empty-run", "")],
      [qrels, file("other", "9 Q0 d1 1 1 A\n")],
    ]) {
      const x = await run("-m", "map", q, r);
      expect([x.status, x.out]).toEqual([2, ""]);
    }
  });
});

describe("the kernel computes each trec_eval line it takes as trec_eval's own algorithm does", () => {
  const ALL = [
    "all_trec",
    "dcg",
    "P.1,3,7",
    "ndcg_cut.2,5",
    "success.2",
    "iprec_at_recall.0.25,0.5",
    "Rprec_mult.0.5,1.5",
    "11pt_avg.0.2,0.5",
    "utility.2,-1,1,0.5",
    "set_F.0.5",
    "ndcg.1=3,2=9",
    "G.3=1",
    "Rndcg.2=5",
    "rbp.p=0.8",
  ];
  const conventions: fc.Arbitrary<Conventions> = fc.record(
    {
      trecThreshold: fc.constantFrom(0, 1, 2, 3),
      depth: fc.integer({ min: 0, max: 8 }),
      judgedOnly: fc.boolean(),
      numDocs: fc.constantFrom(0, 50),
    },
    { requiredKeys: [] },
  );
  // Queries of up to 8 documents from a pool of 10, labels -2..4 (not all negative), scores with ties.
  const query = fc.record({
    judged: fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: -2, max: 4 })), {
      minLength: 1,
      maxLength: 8,
    }),
    ranked: fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 4 })), {
      minLength: 1,
      maxLength: 8,
    }),
  });
  it("on random queries and options", () => {
    fc.assert(
      fc.property(fc.array(query, { minLength: 1, maxLength: 5 }), conventions, (queries, c) => {
        let qrelsText = "";
        let runText = "";
        queries.forEach((q, i) => {
          const judged = new Map(q.judged);
          if (![...judged.values()].some((l) => l >= 0)) judged.set(0, 0); // trec_eval's numbers are undefined otherwise
          for (const [d, l] of judged) qrelsText += `q${i} 0 d${d} ${l}\n`;
          for (const [d, s] of new Map(q.ranked)) runText += `q${i} Q0 d${d} 1 ${s / 2} R\n`;
        });
        const qids = new Interner();
        const qp = new QrelsParser({ file: "qrels", qids, docids: "per-row" });
        qp.push(new TextEncoder().encode(qrelsText));
        const rp = new RunParser({ file: "run", qids, docids: "per-row" });
        rp.push(new TextEncoder().encode(runText));
        const joined = joinParsed(qp.finish(), rp.finish());
        const p = plan(ALL, null, c);
        const explicit = options(c, true);
        const { result } = evaluateBlock(p, joined.batch, joined.qids, explicit, "run", () => {});
        const kernelMeasures = p.trec.filter(
          (m) => !p.exact.includes(m) && !["runid", "num_q", "relstring"].includes(m.name),
        );
        const opts = trecOptions(explicit);
        const exact = exactValues(kernelMeasures, joined.batch, opts.ties, {
          relevanceLevel: c.trecThreshold ?? 1,
          maxDocs: opts.depth,
          judgedOnly: opts.judgedOnly,
          numDocsInColl: c.numDocs ?? 0,
        });
        trecLines(kernelMeasures).forEach((l, i) => {
          const got = result.values[lineKey(l)!];
          exact[i].forEach((want, q) => {
            if (Number.isNaN(want)) expect(got[q], `${l.name} q${q}`).toBeNaN();
            else
              expect(
                Math.abs(got[q] - want),
                `${l.name} q${q}: kernel ${got[q]}, trec_eval ${want}`,
              ).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(want)));
          });
        });
      }),
      { numRuns: runs(300) },
    );
  });
});
