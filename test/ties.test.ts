// The `ties` convention: equal scores by document id descending ("docid", trec_eval) or in input
// order ("input", a stable sort). Hand-computed cases where the two orders give different numbers, through
// evaluate, evaluateRun (kernel and reference) and the command line; and that "input order" really
// is the order of the rows (or of the run file's lines) of each query, however the input interleaves
// its queries.
//
// The cases: query q1 ranks a (relevant) and b (not), tied; q3 ranks c (relevant, 1.0), d (2.0),
// e (1.0), in that order. R = 1 for both.
//   docid: q1 b, a -> P@1 0, AP 1/2;  q3 d, e, c -> P@1 0, AP 1/3
//   input: q1 a, b -> P@1 1, AP 1;    q3 d, c, e -> P@1 0, AP 1/2
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluate, evaluateRun, RankevalError } from "../src/index.js";
import { main } from "../src/node/cli.js";
import { backends, expectValues } from "./_backends.js";

const BY_DOCID = { "precision@1": [0, 0], map: [1 / 2, 1 / 3] };
const BY_INPUT = { "precision@1": [1, 0], map: [1, 1 / 2] };
const measures = ["precision@1", "map"];

// The queries' rows interleaved, so grouping has to gather them (not the in-place path).
const rows = {
  qid: ["q1", "q3", "q1", "q3", "q3"],
  docid: ["a", "c", "b", "d", "e"],
  score: [1, 1, 1, 2, 1],
  rel: [1, 1, 0, 0, 0],
};
const qrels = { q1: { a: 1, b: 0 }, q3: { c: 1, d: 0, e: 0 } };
const runColumns = { qid: rows.qid, docid: rows.docid, score: rows.score };
const runObject = { q1: { a: 1, b: 1 }, q3: { c: 1, d: 2, e: 1 } };

describe.each(backends)("ties, $name", (b) => {
  it("evaluate(rows with ids): docid by default, input order with ties: input", () => {
    expectValues(b.evaluate(rows, measures), BY_DOCID);
    expectValues(b.evaluate(rows, measures, { ties: "docid" }), BY_DOCID);
    expectValues(b.evaluate(rows, measures, { ties: "input" }), BY_INPUT);
  });

  it("evaluate(rows without ids): input order under either", () => {
    const { docid: _, ...noIds } = rows;
    expectValues(b.evaluate(noIds, measures), BY_INPUT);
    expectValues(b.evaluate(noIds, measures, { ties: "input" }), BY_INPUT);
  });

  it("evaluateRun, columns interleaved across queries and an object", () => {
    for (const run of [runColumns, runObject]) {
      expectValues(b.evaluateRun(qrels, run, measures), BY_DOCID);
      expectValues(b.evaluateRun(qrels, run, measures, { ties: "input" }), BY_INPUT);
    }
  });

  it("evaluateRun with an object: input order is Object.entries', which puts integer-like keys first", () => {
    // Written x, 2; JavaScript enumerates "2" first. By id, "x" (0x78) > "2" ranks first.
    const run = { q: { x: 1, 2: 1 } };
    const judged = { q: { x: 1 } };
    expectValues(b.evaluateRun(judged, run, "precision@1"), { "precision@1": [1] });
    expectValues(b.evaluateRun(judged, run, "precision@1", { ties: "input" }), { "precision@1": [0] });
  });
});

describe("ties in the result", () => {
  it("is printed with the conventions, and a bad value is refused", () => {
    expect(evaluate(rows, "map").conventions).toMatch(/ ties=docid/);
    const r = evaluateRun(qrels, runObject, "map", { ties: "input" });
    expect(r.options.ties).toBe("input");
    expect(r.conventions).toMatch(/ ties=input/);
    expect(() => evaluate(rows, "map", { ties: "random" as never })).toThrow(RankevalError);
    expect(() => evaluate(rows, "map", { ties: "random" as never })).toThrow(
      /ties must be "docid", "input", "average", "best" or "worst", not "random"/,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The command line: the run file's line order is the input order, for TREC, JSON and CSV runs.

async function run(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return { status, out, err };
}

const dir = mkdtempSync(join(tmpdir(), "rankeval-ties-"));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const qrelsFile = file("qrels.txt", "q1 0 a 1\nq1 0 b 0\nq3 0 c 1\nq3 0 d 0\nq3 0 e 0\n");
// The queries' lines interleaved: the join groups them with a counting sort, which must keep each
// query's lines in file order.
const runs = {
  trec: file("run.txt", "q1 Q0 a 1 1.0 T\nq3 Q0 c 1 1.0 T\nq1 Q0 b 2 1.0 T\nq3 Q0 d 2 2.0 T\nq3 Q0 e 3 1.0 T\n"),
  json: file("run.json", '{"q1": {"a": 1.0, "b": 1.0}, "q3": {"c": 1.0, "d": 2.0, "e": 1.0}}\n'),
  csv: file("run.csv", "qid,docid,score\nq1,a,1.0\nq3,c,1.0\nq1,b,1.0\nq3,d,2.0\nq3,e,1.0\n"),
};

/** trec_eval's -q lines for the two queries and the summary. */
function trecLines(map: number[], p1: number[], relstring: string[]): string {
  const line = (name: string, qid: string, v: string) => `${name.padEnd(22)}\t${qid}\t${v}`;
  const mean = (v: number[]) => (v[0] + v[1]) / 2;
  return [
    ...["q1", "q3"].flatMap((q, i) => [
      line("map", q, map[i].toFixed(4)),
      line("P_1", q, p1[i].toFixed(4)),
      line("relstring", q, `'${relstring[i]}'`),
    ]),
    line("map", "all", mean(map).toFixed(4)),
    line("P_1", "all", mean(p1).toFixed(4)),
    "",
  ].join("\n");
}

describe("rankeval --ties", () => {
  it.each(Object.entries(runs))(
    "orders a %s run's ties by id by default, by its lines with --ties input",
    async (_, runFile) => {
      const args = ["-q", "-m", "map", "-m", "P.1", "-m", "relstring", qrelsFile, runFile];
      const byDocid = await run(...args);
      expect(byDocid.status).toBe(0);
      expect(byDocid.out).toBe(trecLines([1 / 2, 1 / 3], [0, 0], ["01", "001"]));
      // trec_eval's text stays trec_eval's: nothing added for the convention.
      expect((await run("--ties", "docid", ...args)).out).toBe(byDocid.out);
      const byInput = await run("--ties", "input", ...args);
      expect(byInput.status).toBe(0);
      expect(byInput.out).toBe(trecLines([1, 1 / 2], [1, 0], ["10", "010"]));
    },
  );

  it("prints the convention with the table and JSON reports", async () => {
    const table = await run("--ties=input", "-m", "map", "--format", "table", qrelsFile, runs.trec);
    expect(table.out).toMatch(/map\s+0\.7500/);
    expect(table.out).toMatch(/conventions: .* ties=input/);
    expect((await run("-m", "map", "--format", "table", qrelsFile, runs.trec)).out).toMatch(
      /conventions: .* ties=docid/,
    );
    const json = JSON.parse((await run("--ties", "input", "--format", "json", "-m", "map", qrelsFile, runs.trec)).out);
    expect(json.conventions).toMatch(/ ties=input/);
    expect(json.runs[0].mean.map).toBe(0.75);
  });

  it("applies to LETOR rows with document ids", async () => {
    const data = file("letor.txt", "1 qid:1 1:0 # docid = a\n0 qid:1 1:0 # docid = b\n");
    const scores = file("letor.pred", "1\n1\n");
    expect((await run("--letor", data, "--scores", scores, "-m", "mrr")).out).toMatch(/mrr\s+0\.5000/);
    expect((await run("--ties", "input", "--letor", data, "--scores", scores, "-m", "mrr")).out).toMatch(
      /mrr\s+1\.0000\n/,
    );
  });

  it("refuses another value as a usage error", async () => {
    const r = await run("--ties", "score", "-m", "map", qrelsFile, runs.trec);
    expect(r.status).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/ties must be "docid", "input", "average", "best" or "worst", not "score"/);
  });
});
