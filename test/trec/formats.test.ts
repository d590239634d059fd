// trec_eval's options beside its measures, worked by hand: -R prefs (preferences per judgment group,
// src/trec/prefs-measures.ts), -R qrels_jg (judgment groups, src/trec/jg.ts), -Z (Z scores, src/trec/zscore-lookup.ts)
// and -D (one query). The command lines' outputs are trec_eval 10's own on these files (checked with
// the real binary when this was written; the differential test keeps checking).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/node/cli.js";
import { formResRelsJg, mapAvgjg, pAvgjg, rprecMultAvgjg } from "../../src/trec/jg.js";
import { formPrefsCounts, prefsValue, PREFS_MEASURES, type PrefLine } from "../../src/trec/prefs-measures.js";
import { MISSING_ZSCORE, zscoreLookup, zscoreTable } from "../../src/trec/zscore-lookup.js";

const dir = mkdtempSync(join(tmpdir(), "rankeval-formats-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
async function run(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const status = await main(args, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { status, stdout, stderr };
}

/**
 * One query, two judgment groups. u1 (one subgroup): d1 3 > d2 2 > d3 0, three equivalence classes.
 * u2 (two subgroups, a preference array): d3 6 > d1 0 in s1, d2 1 > d4 0 in s2. The run ranks d1, d2.
 */
const PREFS: PrefLine[] = [
  { jg: "u1", jsg: "s1", docno: "d1", rel: 3 },
  { jg: "u1", jsg: "s1", docno: "d2", rel: 2 },
  { jg: "u1", jsg: "s1", docno: "d3", rel: 0 },
  { jg: "u2", jsg: "s1", docno: "d1", rel: 0 },
  { jg: "u2", jsg: "s1", docno: "d3", rel: 6 },
  { jg: "u2", jsg: "s2", docno: "d2", rel: 1 },
  { jg: "u2", jsg: "s2", docno: "d4", rel: 0 },
];
const RANKED = [
  { docno: "d2", sim: 1 },
  { docno: "d1", sim: 2 },
];

describe("preferences (form_prefs_counts.c, m_prefs_*.c)", () => {
  it("counts each group's preferences against the ranking", () => {
    const rp = formPrefsCounts("1", RANKED, PREFS, Infinity);
    // docid ranks: retrieved d1 0, d2 1; then the others by docno: d3 2, d4 3.
    expect([rp.numJudgedRet, rp.numJudged]).toEqual([2, 4]);
    // u1: d1 > d2 both retrieved, in order (fulfilled); d1 > d3 and d2 > d3 with only the first
    // retrieved (implied fulfilled).
    expect(rp.jgs[0]).toMatchObject({
      numPrefsFulfilledRet: 1,
      numPrefsPossibleRet: 1,
      numPrefsFulfilledImp: 2,
      numPrefsPossibleImp: 2,
      numPrefsPossibleNotoccur: 0,
    });
    expect(rp.jgs[0]).toMatchObject({ numRel: 2, numRelRet: 2, numNonrel: 1, numNonrelRet: 0 });
    // u2: d2 > d4 implied fulfilled; d3 > d1 implied not fulfilled (only d1 retrieved).
    expect(rp.jgs[1]).toMatchObject({
      numPrefsFulfilledRet: 0,
      numPrefsPossibleRet: 0,
      numPrefsFulfilledImp: 1,
      numPrefsPossibleImp: 2,
    });
    expect(rp.jgs[1]).toMatchObject({ numRel: 2, numRelRet: 1, numNonrel: 2, numNonrelRet: 1 });
  });
  it("gives each measure its formula's value", () => {
    const rp = formPrefsCounts("1", RANKED, PREFS, Infinity);
    const v = Object.fromEntries(PREFS_MEASURES.map((m) => [m, prefsValue(m, rp)]));
    expect(v.prefs_num_prefs_poss).toBe(5); // 3 + 2
    expect(v.prefs_num_prefs_ful).toBe(4); // 3 + 1
    expect(v.prefs_num_prefs_ful_ret).toBe(1);
    expect(v.prefs_simp).toBe(4 / 5);
    expect(v.prefs_avgjg).toBe((3 / 3 + 1 / 2) / 2);
    expect(v.prefs_simp_ret).toBe(1);
    expect(v.prefs_avgjg_ret).toBe(1 / 2); // u2 has no preference between retrieved documents: it adds 0
    // Pairs preferred either way: (d1,d2) 1, (d1,d3) 1/2 (u1 one way, u2 the other), (d2,d3) 1, (d2,d4) 1.
    expect(v.prefs_pair).toBe(3.5 / 4);
    // Rnonrel: u1 R 2 >= N 1 adds R (R - N) = 2 fulfilled of 2 possible: 5/5; u2 R 2, N 2: 1/2.
    expect(v.prefs_avgjg_Rnonrel).toBe(0.75);
    // Rnonrel_ret: u1 5/5; u2 R 1, N 1 gives 0/0, NaN, which leaves the sum not > 0: trec_eval's 0.
    expect(v.prefs_avgjg_Rnonrel_ret).toBe(0);
  });
  it("refuses what trec_eval refuses: a cycle, 0 beside a level above 0, a document in two classes of one subgroup", () => {
    const cycle: PrefLine[] = [
      { jg: "g", jsg: "a", docno: "x", rel: 2 },
      { jg: "g", jsg: "a", docno: "y", rel: 1 },
      { jg: "g", jsg: "b", docno: "y", rel: 2 },
      { jg: "g", jsg: "b", docno: "x", rel: 1 },
    ];
    expect(() => formPrefsCounts("1", RANKED, cycle, Infinity)).toThrow(/contradict each other/);
    const zero: PrefLine[] = [
      { jg: "g", jsg: "a", docno: "x", rel: 0 },
      { jg: "g", jsg: "a", docno: "z", rel: 1 },
      { jg: "g", jsg: "b", docno: "x", rel: 2 },
    ];
    expect(() => formPrefsCounts("1", RANKED, zero, Infinity)).toThrow(/both 0 and a rel_level above 0/);
    const twice: PrefLine[] = [
      { jg: "g", jsg: "a", docno: "x", rel: 2 },
      { jg: "g", jsg: "a", docno: "x", rel: 1 },
    ];
    expect(() => formPrefsCounts("1", RANKED, twice, Infinity)).toThrow(/two rel_levels in one judgment subgroup/);
  });
  it("ranks equal scores by document id ascending, unlike the qrels measures", () => {
    const rp = formPrefsCounts(
      "1",
      [
        { docno: "b", sim: 1 },
        { docno: "a", sim: 1 },
      ],
      [
        { jg: "g", jsg: "0", docno: "a", rel: 2 },
        { jg: "g", jsg: "0", docno: "b", rel: 1 },
      ],
      Infinity,
    );
    expect(prefsValue("prefs_simp", rp)).toBe(1);
  });
});

describe("judgment groups (form_res_rels_jg.c, m_*_avgjg.c)", () => {
  // u1 judges d1 2, d2 0, d3 1 (R = 2); u2 d2 1, d4 1 (R = 2). The run ranks d1, d2, d5.
  const judgments = [
    { jg: "u1", docno: "d1", rel: 2 },
    { jg: "u1", docno: "d2", rel: 0 },
    { jg: "u1", docno: "d3", rel: 1 },
    { jg: "u2", docno: "d2", rel: 1 },
    { jg: "u2", docno: "d4", rel: 1 },
  ];
  const ranked = [
    { docno: "d1", sim: 3 },
    { docno: "d2", sim: 2 },
    { docno: "d5", sim: 1 },
  ];
  const groups = formResRelsJg("q1", ranked, judgments, { relevanceLevel: 1, maxDocs: Infinity, judgedOnly: false });
  it("averages each measure over the groups", () => {
    // u1: AP 1/2 (d1 at rank 1 of R 2); u2: AP (1/2)/2 (d2 at rank 2).
    expect(mapAvgjg(groups, 1)).toBe((0.5 + 0.25) / 2);
    expect(pAvgjg(groups, [1, 2, 5], 1)).toEqual([0.5, 0.5, 0.2]);
    // cutoffs (long)(x R + 0.9): 1, 2, 4; past the 3 retrieved, num_rel_ret / 4.
    expect(rprecMultAvgjg(groups, [0.5, 1, 2], 1)).toEqual([0.5, 0.5, 0.25]);
  });
  it("-J keeps the judged documents only; -M cuts before", () => {
    const j = formResRelsJg("q1", ranked, judgments, { relevanceLevel: 1, maxDocs: 2, judgedOnly: true });
    expect(Array.from(j[0].rel)).toEqual([2, 0]);
    expect(Array.from(j[1].rel)).toEqual([1]);
  });
});

describe("Z scores (get_zscores.c, convert_zscores.c)", () => {
  const table = (lines: [string, string, number, number][]) =>
    zscoreLookup(
      zscoreTable({
        qid: lines.map((l) => l[0]),
        measure: lines.map((l) => l[1]),
        mean: Float64Array.from(lines, (l) => l[2]),
        stddev: Float64Array.from(lines, (l) => l[3]),
        lines: new Int32Array(lines.length),
        length: lines.length,
        file: "z",
      }),
    );
  it("(value - mean) / stddev; -1000000 when absent, or when the stddev is 0 and the value is not the mean", () => {
    const z = table([
      ["1", "map", 0.5, 0.25],
      ["1", "P_5", 1, 0],
      ["2", "map", 0, 1],
    ]);
    expect(z.z("1", "map", 0.375)).toBe(-0.5);
    expect(z.z("1", "P_5", 1)).toBe(0);
    expect(z.z("1", "P_5", 0.8)).toBe(MISSING_ZSCORE);
    expect(z.z("1", "ndcg", 0.8)).toBe(MISSING_ZSCORE);
    expect(z.z("0", "map", 0.8)).toBe(MISSING_ZSCORE);
  });
  it("searches as trec_eval does: one entry past a query's lines is the next query's first, past the file undefined", () => {
    // "map" sorts after every measure of query 1 ("P_5"): the search compares it with query 2's first line.
    const z = table([
      ["1", "P_5", 0.5, 0.1],
      ["2", "map", 0.1, 0.2],
    ]);
    expect(z.z("1", "map", 0.5)).toBeCloseTo(2, 12); // query 2's mean and stddev
    expect(z.undefinedRead("1", "map")).toBe(false);
    expect(z.undefinedRead("2", "zz")).toBe(true); // past the file's last line
    expect(z.undefinedRead("3", "map")).toBe(true); // a qid after every qid
    expect(z.z("3", "map", 1)).toBe(MISSING_ZSCORE);
  });
});

describe("the command line", () => {
  const qrels = file("qrels", "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 1\nq3 0 d3 1\n");
  const runFile = file("run", "q1 Q0 d1 1 2.0 r\nq1 Q0 d2 2 1.0 r\nq2 Q0 d1 1 1 r\nq3 Q0 d3 1 1 r\n");
  it("-R prefs: trec_eval's text", async () => {
    const prefs = file("prefs", PREFS.map((p) => `q1 ${p.jg} ${p.jsg} ${p.docno} ${p.rel}\n`).join(""));
    const r = await run(["-q", "-R", "prefs", "-m", "prefs_simp", "-m", "prefs_num_prefs_ful_ret", prefs, runFile]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      "prefs_num_prefs_ful_ret\tq1\t1\nprefs_simp            \tq1\t0.8000\nprefs_num_prefs_ful_ret\tall\t1\nprefs_simp            \tall\t0.8000\n",
    );
  });
  it("-R qrels_prefs reads a qrels file as preferences within its second column's groups", async () => {
    const r = await run(["-R", "qrels_prefs", "-m", "prefs", qrels, runFile]);
    expect(r.stdout).toContain("prefs_num_prefs_poss  \tall\t1\n");
    expect(r.stdout).toContain("prefs_simp            \tall\t0.3333\n");
  });
  it("-R qrels_jg and -Z", async () => {
    const jg = file("jg", "q1 u1 d1 2\nq1 u1 d2 0\nq1 u1 d3 1\nq1 u2 d2 1\nq1 u2 d4 1\n");
    const run2 = file("run2", "q1 Q0 d1 1 3 r\nq1 Q0 d2 2 2 r\nq1 Q0 d5 3 1 r\n");
    const z = file("z", "q1 map_avgjg 0.5 0.25\nq1 P_avgjg_1 1 0\nq1 P_avgjg_2 0.5 0\n");
    const r = await run(["-Z", z, "-R", "qrels_jg", "-m", "map_avgjg", "-m", "P_avgjg.1,2", jg, run2]);
    expect(r.stdout).toBe(
      "Zmap_avgjg             \tall\t-0.5000\nZP_avgjg_1             \tall\t-1000000.0000\nZP_avgjg_2             \tall\t0.0000\n",
    );
  });
  it("-Z over qrels: every line Z-prefixed, longs as %6.4f, the mean over the Z scores", async () => {
    const z = file("z3", "q1 map 0.5 0.1\nq2 P_5 0.1 0.2\nq3 map 1 0\nq4 x 0 1\n");
    const r = await run(["-q", "-m", "map", "-m", "P.5", "-m", "num_ret", "-Z", z, qrels, runFile]);
    expect(r.stdout.split("\n").slice(0, 3)).toEqual([
      "Znum_ret               \tq1\t-1000000.0000",
      "Zmap                   \tq1\t5.0000",
      "ZP_5                   \tq1\t-1000000.0000",
    ]);
    expect(r.stdout).toContain("Zmap                   \tall\t1.6667\n");
    expect(r.stdout).toContain("ZP_5                   \tall\t-666666.5000\n");
  });
  it("-D N.QID evaluates that query only; with -c the means stay over every judged query", async () => {
    const r = await run(["-q", "-c", "-D", "0.q2", "-m", "map", "-m", "num_q", qrels, runFile]);
    expect(r.stdout).toBe(
      "map                   \tq2\t1.0000\nnum_q                 \tall\t3\nmap                   \tall\t0.3333\n",
    );
    const none = await run(["-D", "1.q9", "-m", "map", qrels, runFile]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/-D q9: query "q9" is not evaluated/);
  });
  it("measures of another format are usage errors, as trec_eval's exit 4", async () => {
    expect((await run(["-m", "prefs_simp", qrels, runFile])).stderr).toMatch(/reads -R prefs/);
    expect((await run(["-R", "qrels_jg", "-m", "map", qrels, runFile])).stderr).toMatch(/reads qrels judgments/);
    expect((await run(["-R", "xml", qrels, runFile])).stderr).toMatch(
      /"xml" is not one of qrels, prefs, qrels_prefs, qrels_jg/,
    );
  });
});
