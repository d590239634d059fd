// What a user of the command line meets, through the built binary (dist/node/bin.js) as a child
// process: names give their tool's number, typos are errors, reports say what their numbers are over,
// several runs are labelled, and headerless TSV and BEIR files are read. (Bad input, exit statuses and
// pipes: test/cli-bad-input.test.ts; the installed package: test/package.test.ts.)
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const bin = new URL("../dist/node/bin.js", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "rankeval-binary-"));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

function rankeval(...args: string[]): { status: number | null; out: string; err: string } {
  const r = spawnSync("node", [bin, ...args], { encoding: "utf8", timeout: 60_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

// q1 ranks d1 (label 2), d2 (0), d3 (1); q2 ranks d5 (1) under d4 (unjudged).
const qrels = file("qrels.txt", "q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\nq2 0 d5 1\n");
const runA = file("a.run", "q1 Q0 d1 1 3 A\nq1 Q0 d2 2 2 A\nq1 Q0 d3 3 1 A\nq2 Q0 d4 1 2 A\nq2 Q0 d5 2 1 A\n");
const runB = file("b.run", "q1 Q0 d3 1 3 B\nq1 Q0 d1 2 2 B\n");

// By hand, discount 1/log2(rank + 1). q1: linear DCG 2 + 1/2 = 2.5, ideal 2 + 1/log2(3);
// exp DCG 3 + 1/2 = 3.5, ideal 3 + 1/log2(3). q2: DCG 1/log2(3), ideal 1 (both gains).
const q1Linear = 2.5 / (2 + 1 / Math.log2(3));
const q1Exp = 3.5 / (3 + 1 / Math.log2(3));
const q2 = 1 / Math.log2(3);
const linear = ((q1Linear + q2) / 2).toFixed(4);
const exp = ((q1Exp + q2) / 2).toFixed(4);

describe("the built command line", () => {
  it("gives each name its tool's number: trec_eval's in both spellings and ir_measures' linear, rankeval's exp", () => {
    expect(linear).not.toBe(exp); // the fixture tells the two gains apart
    for (const name of ["ndcg_cut.10", "ndcg_cut_10"]) {
      const r = rankeval("-m", name, qrels, runA);
      expect(r.status).toBe(0);
      expect(r.out).toBe(`ndcg_cut_10           \tall\t${linear}\n`);
    }
    const t = rankeval("-m", "nDCG@10", "-m", "ndcg@10", qrels, runA);
    expect(t.status).toBe(0);
    const rows = new Map(
      t.out
        .split("\n")
        .map((l) => l.split(/\s+/))
        .map((c) => [c[0], c[c.length - 1]]),
    );
    expect(rows.get("nDCG@10")).toBe(linear);
    expect(rows.get("ndcg@10")).toBe(exp);
    // Each measure's conventions are printed with it: ir_measures' linear gain, the library's exp.
    expect(t.out).toMatch(/ir_measures: gain=linear/);
    expect(t.out).toMatch(/gain=exp/);
  });

  it("refuses typos with a usage error that names them, and suggests the names meant", () => {
    const cases: [string, RegExp][] = [
      ["P.1O", /cutoff "1O" is not a number/],
      ["ndcg_cut.1O", /cutoff "1O" is not a number/],
      ["ndgc@10", /did you mean ndcg@10\?/],
      ["nDCG@10,AP", /separate words or -m options \(nDCG@10 AP\)/],
    ];
    for (const [measure, message] of cases) {
      const r = rankeval("-m", measure, qrels, runA);
      expect(r.status, measure).toBe(1);
      expect(r.out).toBe("");
      expect(r.err).toMatch(message);
    }
  });

  it("puts runs side by side with the queries each column is over, every value with four decimals", () => {
    const r = rankeval("-m", "ndcg@10", "-m", "num_ret", qrels, runA, runB);
    expect(r.status).toBe(0);
    const lines = r.out.split("\n");
    expect(lines[0].split(/\s+/)).toEqual(["measure", runA, runB]);
    // num_ret is trec_eval's here, summed: 5 and 2 rows; b.run is over q1 only.
    expect(
      lines
        .find((l) => l.startsWith("num_ret"))!
        .split(/\s+/)
        .slice(-2),
    ).toEqual(["5.0000", "2.0000"]);
    expect(
      lines
        .find((l) => l.startsWith("queries"))!
        .split(/\s+/)
        .slice(1),
    ).toEqual(["2", "1"]);
  });

  it("gives per-query values with -q and leaves the means out with -n, in a table and in JSON", () => {
    const table = rankeval("-q", "-m", "ndcg@10", qrels, runA);
    expect(table.status).toBe(0);
    expect(table.out).toMatch(new RegExp(`^q1\\s+ndcg@10\\s+${q1Exp.toFixed(4)}$`, "m"));
    expect(table.out).toMatch(new RegExp(`^all\\s+ndcg@10\\s+${exp}$`, "m"));
    const json = JSON.parse(rankeval("-q", "-n", "--format", "json", "-m", "ndcg@10", qrels, runA).out);
    expect(json.runs[0].perQuery.q2["ndcg@10"]).toBeCloseTo(q2, 12);
    expect(json.runs[0].mean).toBeUndefined();
  });

  it("labels each run's trec_eval text when there are several, and keeps one run's text as trec_eval's", () => {
    const r = rankeval("-m", "num_ret", qrels, runA, runB);
    expect(r.status).toBe(0);
    expect(r.out).toBe(
      `==> ${runA} <==\nnum_ret               \tall\t5\n\n==> ${runB} <==\nnum_ret               \tall\t2\n`,
    );
  });

  it("reads a four-column TSV without a header as TREC qrels, and BEIR's headers", () => {
    const msmarco = file("qrels.dev.tsv", "q1\t0\td1\t2\nq1\t0\td2\t0\nq1\t0\td3\t1\nq2\t0\td5\t1\n");
    const beir = file("beir.tsv", "query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\td2\t0\nq1\td3\t1\nq2\td5\t1\n");
    const want = rankeval("-m", "ndcg_cut.10", qrels, runA).out;
    for (const q of [msmarco, beir]) {
      const r = rankeval("-m", "ndcg_cut.10", q, runA);
      expect(r.err).toBe("");
      expect(r.out).toBe(want);
    }
    const odd = file("odd.tsv", "a\tb\tc\nq1\td1\t1\n");
    const r = rankeval(odd, runA);
    expect(r.status).toBe(2);
    expect(r.err).toMatch(/--columns/);
    expect(r.err).toMatch(/--input-format/);
  });
});
