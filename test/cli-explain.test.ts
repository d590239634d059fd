// rankeval --explain QID and --report FILE on the command line: the drill-down's values and running
// values against the command line's own per-query output (-q), in trec_eval's names and canonical
// ones, for TREC text and JSON runs, through the built binary too; bad query ids and options; the
// report's data against -q's.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Explanation } from "../src/explain/explain.js";
import { printValue } from "../src/app/value-print.js";
import { storedText, type ReportData } from "../src/output/html/data.js";
import { main } from "../src/node/cli.js";
import { TIES_QRELS, TIES_RUN_A, TIES_RUN_B } from "./_printf-ties.js";

const examples = new URL("../examples/", import.meta.url).pathname;
const bin = new URL("../dist/node/bin.js", import.meta.url).pathname;
const QRELS = join(examples, "qrels.txt");
const BM25 = join(examples, "bm25.run");
const RERANK = join(examples, "rerank.run");

async function cli(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return { status, out, err };
}

const dir = mkdtempSync(join(tmpdir(), "rankeval-explain-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** trec_eval -q's lines: measure -> qid -> value as printed. */
function perQuery(text: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const line of text.trim().split("\n")) {
    const [name, qid, value] = line.split("\t");
    const m = name.trim();
    if (!out.has(m)) out.set(m, new Map());
    out.get(m)!.set(qid, value.trim());
  }
  return out;
}

/** The running value at the last rank shown at or past the measure's cutoff (the whole ranking's last without one). */
function valueAtCutoff(x: Explanation, run: number, key: string): number | null {
  const m = x.measures.find((e) => e.key === key)!;
  const ranking = x.runs[run].rankings[m.ranking];
  const rows = ranking.rows;
  const last = rows[rows.length - 1];
  if (m.cutoff === 0 && rows.length < ranking.length) return null;
  if (m.cutoff > 0 && last.rank < m.cutoff && rows.length < ranking.length) return null;
  return last.running[key];
}

describe("rankeval --explain", () => {
  it("gives each run's values and running values as -q prints them (trec_eval's names)", async () => {
    const q = await cli("-q", "-m", "ndcg_cut.10", "-m", "P.5", "-m", "recip_rank", "-m", "map", QRELS, BM25);
    const q2 = await cli("-q", "-m", "ndcg_cut.10", "-m", "P.5", "-m", "recip_rank", "-m", "map", QRELS, RERANK);
    const want = [perQuery(q.out), perQuery(q2.out)];
    for (const qid of ["q1", "q7", "q20"]) {
      const r = await cli(
        "--explain",
        qid,
        "--explain-depth",
        "40",
        "--format",
        "json",
        "-m",
        "ndcg_cut.10",
        "-m",
        "P.5",
        "-m",
        "recip_rank",
        "-m",
        "map",
        QRELS,
        BM25,
        RERANK,
      );
      expect(r.status, r.err).toBe(0);
      const x = JSON.parse(r.out) as Explanation & { conventions: string[] };
      expect(x.qid).toBe(qid);
      expect(x.conventions[0]).toMatch(/^trec_eval: /);
      // trec_eval's order.
      expect(x.measures.map((m) => m.name)).toEqual(["map", "recip_rank", "P_5", "ndcg_cut_10"]);
      x.runs.forEach((run, i) => {
        for (const m of x.measures) {
          expect(run.printed[m.key]).toBe(want[i].get(m.name)!.get(qid));
          // Shown to rank 40 of 30: the whole ranking, whose last running value is the value.
          const v = valueAtCutoff(x, i, m.key);
          expect(v).not.toBeNull();
          expect(printValue(v!, m.print)).toBe(want[i].get(m.name)!.get(qid));
        }
      });
    }
  });

  it("shows 20 ranks by default, or the largest cutoff, and the value from the cutoff on", async () => {
    const r = await cli("--explain", "q3", "--format", "json", "-m", "ndcg_cut.5", QRELS, BM25);
    const x = JSON.parse(r.out) as Explanation;
    expect(x.depth).toBe(20);
    const rows = x.runs[0].rankings[0].rows;
    expect(rows).toHaveLength(20);
    for (const row of rows.slice(4)) expect(row.running.ndcg_cut_5).toBe(x.runs[0].values.ndcg_cut_5);
    const deep = JSON.parse(
      (await cli("--explain", "q3", "--format", "json", "-m", "P.25", QRELS, BM25)).out,
    ) as Explanation;
    expect(deep.depth).toBe(25);
  });

  it("explains canonical names under their conventions, as the table's -q prints them", async () => {
    const q = await cli("-q", "--format", "csv", "-m", "ndcg@10", "-m", "err@5", "--gain", "exp", QRELS, BM25);
    const values = new Map(
      q.out
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(","))
        .filter((c) => c[1] === "q2")
        .map((c) => [c[2], Number(c[3])]),
    );
    const r = await cli(
      "--explain",
      "q2",
      "--format",
      "json",
      "-m",
      "ndcg@10",
      "-m",
      "err@5",
      "--gain",
      "exp",
      QRELS,
      BM25,
    );
    const x = JSON.parse(r.out) as Explanation;
    for (const m of x.measures) {
      expect(x.runs[0].values[m.key]).toBe(values.get(m.name));
      expect(x.runs[0].rankings[0].rows[19].running[m.key]).toBe(values.get(m.name));
      expect(x.runs[0].printed[m.key]).toBe(printValue(values.get(m.name)!, "table"));
    }
  });

  it("reads JSON runs as the evaluation does", async () => {
    const lines = readFileSync(BM25, "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(/\s+/));
    const json: Record<string, Record<string, number>> = {};
    for (const [qid, , doc, , score] of lines) (json[qid] ??= {})[doc] = Number(score);
    const run = file("bm25.json", JSON.stringify(json));
    const text = JSON.parse((await cli("--explain", "q5", "--format", "json", QRELS, BM25)).out) as Explanation;
    const fromJson = JSON.parse((await cli("--explain", "q5", "--format", "json", QRELS, run)).out) as Explanation;
    expect(fromJson.runs[0].rankings).toEqual(text.runs[0].rankings);
    expect(fromJson.runs[0].values).toEqual(text.runs[0].values);
  });

  it("prints a text drill-down (the built binary)", () => {
    const r = spawnSync(process.execPath, [bin, "--explain", "q1", QRELS, BM25, RERANK]);
    expect(r.status, r.stderr.toString()).toBe(0);
    const out = r.stdout.toString();
    expect(out).toMatch(/^query q1: 26 judged documents, 20 relevant \(label >= 1\)\nconventions: trec_eval: /);
    expect(out).toMatch(/^ndcg_cut_10 +0\.8422 +0\.9312 +\+0\.0890$/m);
    expect(out).toMatch(
      /^rank {2}docid +score {2}label {2}gain {2}tie {2}rank in .*rerank\.run {2}moved {2}ndcg_cut_10$/m,
    );
    expect(out).toMatch(/^ +1 {2}doc-1-3 +3\.188 +3 +3 +11 +\u219110 +0\.2421$/m);
    expect(out).toMatch(/^ +12 {2}doc-1-26 +1\.579 +- +0 +18 +\u21916 +0\.8422$/m);
    expect(out).toMatch(/^ideal ranking \(the judged documents, higher labels first\): ranks 1-20 of 26$/m);
  });

  it("says what is wrong with a query id, and exits 2", async () => {
    const unjudged = file("extra.run", `${readFileSync(BM25, "utf8")}q99 Q0 doc-1-1 1 1.0 x\n`);
    let r = await cli("--explain", "q99", QRELS, unjudged);
    expect(r.status).toBe(2);
    expect(r.err).toMatch(
      /^rankeval: query "q99" has no judgments in .*qrels\.txt \(did you mean q9, q19\?\); its queries are q1, q2, q3, q4, q5, \.\.\. \(20\), and only judged queries are evaluated\n$/,
    );
    expect(r.out).toBe("");
    r = await cli("--explain", "1", QRELS, BM25);
    expect(r.status).toBe(2);
    expect(r.err).toMatch(/query "1" has no judgments .*\(did you mean q1, q11\?\)/);
    const some = file(
      "some.run",
      readFileSync(BM25, "utf8")
        .split("\n")
        .filter((l) => !l.startsWith("q2 "))
        .join("\n"),
    );
    r = await cli("--explain", "q2", QRELS, some);
    expect(r.status).toBe(2);
    expect(r.err).toMatch(
      /^rankeval: query "q2" is judged but not in .*some\.run; the queries evaluated are q1, q10, q11, q12, q13, \.\.\. \(19\) \(-c evaluates a judged query a run lacks as an empty ranking\)\n$/m,
    );
    r = await cli("--explain", "q2", QRELS, some, BM25);
    expect(r.status, r.err).toBe(0);
    expect(r.out).toMatch(/some\.run: no line for query q2 \(left out of its numbers\)/);
    r = await cli("--explain", "q2", "-c", QRELS, some);
    expect(r.status, r.err).toBe(0);
    expect(r.out).toMatch(/^ndcg_cut_10 +0\.0000$/m);
  });

  it("refuses options it has no use for (exit 1)", async () => {
    for (const [argv, message] of [
      [["--explain-depth", "5", QRELS, BM25], /--explain-depth needs --explain QID/],
      [["--explain", "q1", "--explain-depth", "0", QRELS, BM25], /--explain-depth: "0" is not an integer from 1 up/],
      [["--explain", "q1", "--compare", QRELS, BM25, RERANK], /--explain and --compare: give one of them/],
      [["--explain", "q1", "-q", QRELS, BM25], /-q has no meaning with --explain/],
      [["--explain", "q1", "--format", "csv", QRELS, BM25], /--explain prints text .* or --format json, not csv/],
      [["--explain", "q1", "--report", "x.html", QRELS, BM25], /give one of them/],
      [["--explain", "q1", "--test", "t", QRELS, BM25], /--test needs --compare/],
      [["--report-queries", "3", QRELS, BM25], /--report-queries needs --report FILE/],
      [["--report", "x.html", "--format", "json", QRELS, BM25], /--format has no meaning with it/],
      [["--report", "x.html", "--interval", "bootstrap", QRELS, BM25], /the report shows each mean's 95% t interval/],
      [["--explain", "q1", "--interval", "0.9", QRELS, BM25], /--interval has no place in a drill-down/],
      [["--explain", "q1", QRELS], /--explain QID needs QRELS and at least one RUN file/],
    ] as [string[], RegExp][]) {
      const r = await cli(...argv);
      expect(r.status, argv.join(" ")).toBe(1);
      expect(r.err).toMatch(message);
    }
  });
});

/** The report's data, out of its HTML. */
function reportData(path: string): ReportData {
  const html = readFileSync(path, "utf8");
  const packed =
    /<script type="application\/octet-stream" id="report-data" data-encoding="gzip\+base64">([^<]*)<\/script>/.exec(
      html,
    )![1];
  return JSON.parse(gunzipSync(Buffer.from(packed, "base64")).toString("utf8")) as ReportData;
}

describe("rankeval --report", () => {
  it("writes one HTML file whose per-query values, means and drill-downs are the command line's", async () => {
    const out = join(dir, "report.html");
    const r = await cli("--report", out, "-m", "ndcg_cut.10", "-m", "map", "-m", "P.5", QRELS, BM25, RERANK);
    expect(r.status, r.err).toBe(0);
    expect(r.out).toBe("");
    expect(r.err).toMatch(
      new RegExp(
        `rankeval: wrote .*report\\.html: [\\d.]+ kB \\(${statSync(out).size} bytes\\), 2 runs, 20 queries, 20 drill-downs, in [\\d.]+ s\\n$`,
      ),
    );
    const html = readFileSync(out, "utf8");
    // One file: nothing loaded from elsewhere.
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/);
    expect(html.replaceAll("http://www.w3.org/2000/svg", "")).not.toMatch(/https?:\/\//);
    const data = reportData(out);
    expect(data.runs.map((x) => x.name)).toEqual([BM25, RERANK]);
    for (const [i, run] of [BM25, RERANK].entries()) {
      const q = perQuery((await cli("-q", "-m", "ndcg_cut.10", "-m", "map", "-m", "P.5", QRELS, run)).out);
      for (const c of data.perQuery.columns.filter((c) => c.run === i)) {
        data.perQuery.qids.forEach((qid, k) =>
          expect(storedText(c.values[k], c.scale)).toBe(q.get(c.measure)!.get(qid)),
        );
        expect(data.runs[i].cells[c.measure][0]).toBe(q.get(c.measure)!.get("all"));
      }
    }
    expect(data.comparison!.baseline).toBe(BM25);
    expect(data.marks.map[RERANK].mark).toBe("higher");
    expect(data.explained.measure).toBe("map");
    expect(data.explained.explanations).toHaveLength(20);
    const x = data.explained.explanations[0];
    const cli1 = JSON.parse(
      (
        await cli(
          "--explain",
          x.qid,
          "--format",
          "json",
          "-m",
          "ndcg_cut.10",
          "-m",
          "map",
          "-m",
          "P.5",
          QRELS,
          BM25,
          RERANK,
        )
      ).out,
    ) as Explanation;
    expect(x.runs.map((r) => r.rankings)).toEqual(cli1.runs.map((r) => r.rankings));
  });

  it("has --report-queries drill-downs, of the queries that lost and gained most in turn", async () => {
    const out = join(dir, "three.html");
    const r = await cli("--report", out, "--report-queries", "3", "-m", "map", QRELS, BM25, RERANK);
    expect(r.status, r.err).toBe(0);
    const data = reportData(out);
    const q1 = perQuery((await cli("-q", "-m", "map", QRELS, BM25)).out).get("map")!;
    const q2 = perQuery((await cli("-q", "-m", "map", QRELS, RERANK)).out).get("map")!;
    const d = [...q1.keys()].filter((q) => q !== "all").map((q) => ({ q, d: Number(q2.get(q)) - Number(q1.get(q)) }));
    const lost = d.filter((x) => x.d < 0).sort((a, b) => a.d - b.d);
    const gained = d.filter((x) => x.d > 0).sort((a, b) => b.d - a.d);
    expect(data.explained.explanations.map((x) => x.qid)).toEqual([lost[0].q, gained[0].q, lost[1].q]);
  });

  it("prints the comparison's means as the evaluation prints them: a tie at the fifth decimal to the even digit", async () => {
    const out = join(dir, "ties.html");
    const [qrels, a, b] = [
      file("ties.qrels", TIES_QRELS),
      file("ties-a.run", TIES_RUN_A),
      file("ties-b.run", TIES_RUN_B),
    ];
    const r = await cli("--report", out, "-m", "P.8", qrels, a, b);
    expect(r.status, r.err).toBe(0);
    const data = reportData(out);
    const means = (await cli("-m", "P.8", "--format", "table", qrels, a, b)).out.split("\n")[1].split(/\s+/).slice(1);
    expect(means).toEqual(["0.2812", "0.1562"]); // 9/32 and 5/32; toFixed: 0.2813, 0.1563
    expect(data.runs.map((run) => run.cells.P_8[0])).toEqual(means);
    const header = data.comparison!.header;
    const row = data.comparison!.rows[0];
    expect([row[header.indexOf("base mean")], row[header.indexOf("run mean")]]).toEqual(means);
  });

  it("needs inputs it can read twice, and a directory to write in", async () => {
    let r = await cli("--report", join(dir, "x.html"), QRELS, "-");
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/--report reads its inputs twice .*standard input cannot be read again/);
    r = await cli("--report", join(dir, "missing", "x.html"), QRELS, BM25);
    expect(r.status).toBe(2);
    expect(r.err).toMatch(/is not a directory to write it in/);
  });
});

describe("rankeval --explain's text", () => {
  it("lists the relevant documents a run does not retrieve, best labels first", async () => {
    const run = file("short.run", "q1 Q0 doc-1-3 1 2 t\nq1 Q0 doc-1-9 2 1 t\nq1 Q0 x 3 1 t\n");
    const r = await cli("--explain", "q1", "-m", "P.2", QRELS, run);
    expect(r.status, r.err).toBe(0);
    expect(r.out).toMatch(/^.*short\.run: 3 documents retrieved; ranks 1-3; 1 unjudged among them \(label -\)$/m);
    // x and doc-1-9 tie at score 1: by document id, descending ("x" > "doc-1-9").
    expect(r.out).toMatch(/^ +2 {2}x +1 +- +0 +t1 +0\.5000$/m);
    expect(r.out).toMatch(/^ +3 {2}doc-1-9 +1 +0 +0 +t1 +0\.5000$/m);
    expect(r.out).toMatch(
      /^\(t1, t2, \.\.\.: documents of equal score, equal scores by document id, descending \(trec_eval's order\)\)$/m,
    );
    expect(r.out).toMatch(
      /^judged documents not retrieved: 24, 19 of them relevant: doc-1-2 \(3\), doc-1-4 \(3\), doc-1-5 \(3\), doc-1-7 \(3\), doc-1-25 \(3\), doc-1-10 \(2\), /m,
    );
    const all = await cli("--explain", "q1", QRELS, BM25);
    expect(all.out).toMatch(/^every judged document is retrieved$/m);
  });
});
