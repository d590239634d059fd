// The command line's input formats: the same qrels and run as TREC text, JSON, CSV and TSV give the
// same output; the format comes from the file name or --input-format; --columns; trec_eval's suite
// converted to JSON, CSV and TSV gives out.test.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { main } from "../src/node/cli.js";
import { formatOf, isTrecLine, runTagOf } from "../src/input/formats.js";

async function run(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return { status, out, err };
}

const dir = mkdtempSync(join(tmpdir(), "rankeval-formats-"));
function file(name: string, text: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

type Judgment = [qid: string, docid: string, rel: number];
type Ranked = [qid: string, docid: string, score: number];

function toTrec(qrels: Judgment[], runs: Ranked[], tag: string): [string, string] {
  return [
    qrels.map(([q, d, r]) => `${q} 0 ${d} ${r}\n`).join(""),
    runs.map(([q, d, s], i) => `${q} Q0 ${d} ${i + 1} ${s} ${tag}\n`).join(""),
  ];
}

/** { qid: { docid: value } }, keys in first-appearance order, written by hand (JSON.stringify would put integer-like keys first). */
function toJson(rows: [string, string, number][]): string {
  const byQuery = new Map<string, [string, number][]>();
  for (const [q, d, v] of rows) {
    if (!byQuery.has(q)) byQuery.set(q, []);
    byQuery.get(q)!.push([d, v]);
  }
  const queries = [...byQuery].map(
    ([q, docs]) => `  ${JSON.stringify(q)}: {${docs.map(([d, v]) => `${JSON.stringify(d)}: ${v}`).join(", ")}}`,
  );
  return `{\n${queries.join(",\n")}\n}\n`;
}

function toDelimited(rows: [string, string, number][], delim: string, header: string[]): string {
  const cell = (s: string) => (s.includes(delim) || s.includes('"') ? `"${s.replace(/"/g, '""')}"` : s);
  return (
    [header.join(delim), ...rows.map(([q, d, v]) => [cell(q), cell(d), String(v)].join(delim))].join("\r\n") + "\r\n"
  );
}

// Ties (d2, d4 in q1), a query without judgments (q3), a judged query not in the run (q4), a
// non-ASCII id, and an id with a comma (quoted in CSV).
const QRELS: Judgment[] = [
  ["q1", "d1", 1],
  ["q1", "d2", 0],
  ["q1", "d3", 2],
  ["q1", "d,5", 1],
  ["q2", "d1", 1],
  ["q2", "é", 2],
  ["q4", "d1", 1],
];
const RUN: Ranked[] = [
  ["q1", "d1", 0.9],
  ["q1", "d2", 0.5],
  ["q1", "d4", 0.5],
  ["q1", "d,5", 0.1],
  ["q2", "é", 1.5],
  ["q2", "d9", 2],
  ["q3", "d1", 1],
];

describe("input formats", () => {
  const [trecQrels, trecRun] = toTrec(QRELS, RUN, "tag");
  const files = {
    trec: [file("qrels.txt", trecQrels), file("tag.run", trecRun)],
    json: [file("qrels.json", toJson(QRELS)), file("tag.json", toJson(RUN))],
    csv: [
      file("qrels.csv", toDelimited(QRELS, ",", ["qid", "docid", "rel"])),
      file("tag.csv", toDelimited(RUN, ",", ["query_id", "doc_id", "score"])),
    ],
    tsv: [
      file("qrels.tsv", toDelimited(QRELS, "\t", ["topic", "docno", "label"])),
      file("tag.tsv", toDelimited(RUN, "\t", ["qid", "docid", "score"])),
    ],
    gz: [
      file("qrels.json.gz", gzipSync(toJson(QRELS))),
      file("tag.csv.gz", gzipSync(toDelimited(RUN, ",", ["qid", "docid", "score"]))),
    ],
  };

  it("chooses the parser from the file name, and names a JSON/CSV run after its file", () => {
    expect(
      ["a.json", "a.JSON.gz", "x/a.csv", "a.tsv.gz", "a.txt", "a.json.txt", "-", "a.csv"].map((f) => formatOf(f)),
    ).toEqual(["json", "json", "csv", "tsv", "trec", "trec", "trec", "csv"]);
    expect(formatOf("a.txt", "tsv")).toBe("tsv");
    expect(runTagOf("/runs/bm25.json.gz")).toBe("bm25");
    expect(runTagOf("dir/run.v2.tsv")).toBe("run.v2");
  });

  it("gives the same output for TREC text, JSON, CSV, TSV and gzipped files", async () => {
    const argv = [
      "-q",
      "-c",
      "-m",
      "map",
      "-m",
      "P.1,2",
      "-m",
      "ndcg_cut.3",
      "-m",
      "recip_rank",
      "-m",
      "num_ret",
      "-m",
      "num_rel",
    ];
    const outputs: Record<string, string> = {};
    for (const [name, [q, r]] of Object.entries(files)) {
      const res = await run(...argv, q, r);
      expect(res.err, name).toBe("");
      expect(res.status, name).toBe(0);
      outputs[name] = res.out;
    }
    expect(outputs.trec).toMatch(/^num_ret\s+\tq1\t4\n/);
    expect(outputs.trec).toMatch(/num_ret\s+\tall\t6\n/);
    for (const name of ["json", "csv", "tsv", "gz"]) expect(outputs[name], name).toBe(outputs.trec);
    // Mixed: TREC qrels with a JSON run; and the CSV output, run names aside.
    expect((await run(...argv, files.trec[0], files.json[1])).out).toBe(outputs.trec);
    const csv = async (q: string, r: string) =>
      (await run("--format", "csv", "-q", "-m", "ndcg@3", "-m", "map", q, r)).out.split(r).join("RUN");
    expect(await csv(files.tsv[0], files.tsv[1])).toBe(await csv(files.trec[0], files.trec[1]));
  });

  it("names the run after the file in trec_eval's runid line", async () => {
    expect((await run("-m", "runid", files.json[0], files.json[1])).out).toBe("runid                 \tall\ttag\n");
    expect((await run("-m", "runid", files.trec[0], files.trec[1])).out).toBe("runid                 \tall\ttag\n");
  });

  it("takes --input-format for every file, whatever their names", async () => {
    const q = file("qrels.data", toJson(QRELS));
    const r = file("run.data", toDelimited(RUN, "\t", ["qid", "docid", "score"]));
    const want = (await run("-m", "map", files.trec[0], files.trec[1])).out;
    expect((await run("--input-format", "json", "-m", "map", q, files.json[1])).out).toBe(want);
    expect((await run("--input-format=tsv", "-m", "map", files.tsv[0], r)).out).toBe(want);
    const bad = await run("--input-format", "xml", q, r);
    expect(bad.status).toBe(1);
    expect(bad.err).toMatch(/--input-format: "xml" is not one of trec, json, jsonl, csv, tsv/);
  });

  it("takes --columns for CSV/TSV headers", async () => {
    const q = file("judged.csv", toDelimited(QRELS, ",", ["topic_no", "passage", "gain"]));
    const r = file("scored.csv", toDelimited(RUN, ",", ["topic_no", "passage", "bm25"]));
    const want = (await run("-m", "map", files.trec[0], files.trec[1])).out;
    expect(
      (
        await run(
          "--columns",
          "qid=topic_no,docid=passage",
          "--columns=value=gain",
          "-m",
          "map",
          q,
          file("scored2.csv", toDelimited(RUN, ",", ["topic_no", "passage", "gain"])),
        )
      ).out,
    ).toBe(want);
    const missing = await run("--columns", "qid=topic_no,docid=passage", "-m", "map", q, r);
    expect(missing.status).toBe(2);
    expect(missing.err).toBe(
      `rankeval: ${q}:1:1: the header has no label column (looked for rel, label, relevance, grade, judgment, score; the comma-separated header has "topic_no", "passage", "gain"); name them with --columns qid=NAME,docid=NAME,value=NAME, or give the format with --input-format trec|json|jsonl|csv|tsv\n`,
    );
    const bad = await run("--columns", "query=x", q, r);
    expect(bad.status).toBe(1);
    expect(bad.err).toMatch(/--columns: "query=x" is not ROLE=NAME/);
    // Given when every input is read as TREC text or JSON, it would change nothing: refused, not ignored.
    const headed = file("scored.txt", toDelimited(RUN, "\t", ["topic_no", "passage", "gain"]));
    const unread = await run("--columns", "qid=topic_no,docid=passage,value=gain", "-m", "map", files.trec[0], headed);
    expect(unread.status).toBe(1);
    expect(unread.err).toBe(
      "rankeval: --columns names CSV/TSV, JSON lines, Parquet or Arrow columns, but every input is read as TREC text (by its name): give the format with --input-format csv|tsv|jsonl|parquet|arrow\n(rankeval --help for usage)\n",
    );
    const json = file("judged.json", toJson(QRELS));
    expect((await run("--columns", "qid=topic_no", json, headed)).err).toMatch(
      /every input is read as JSON or TREC text \(by its name\)/,
    );
    // With --input-format tsv, the same file is read by its header.
    const tsvJudged = file("judged.tsv", toDelimited(QRELS, "\t", ["topic_no", "passage", "gain"]));
    expect(
      (
        await run(
          "--input-format",
          "tsv",
          "--columns",
          "qid=topic_no,docid=passage,value=gain",
          "-m",
          "map",
          tsvJudged,
          headed,
        )
      ).out,
    ).toBe(want);
  });

  it("refuses --columns where nothing read has columns: --letor, -R's other judgments, --diversity's TREC text", async () => {
    const letor = await run("--columns", "qid=topic_no", "--letor", "data.txt", "--scores", "scores.txt");
    expect(letor.status).toBe(1);
    expect(letor.err).toMatch(
      /^rankeval: --columns names CSV\/TSV, JSON lines, Parquet or Arrow columns: --letor reads LETOR text and one score a line, which have none\n/,
    );
    const prefs = await run("--columns", "qid=topic_no", "-R", "prefs", "prefs.txt", "run.txt");
    expect(prefs.status).toBe(1);
    expect(prefs.err).toMatch(
      /^rankeval: --columns names CSV\/TSV, JSON lines, Parquet or Arrow columns: -R prefs reads trec_eval's text, which has none\n/,
    );
    // Subtopic judgments are TREC text; a run may be CSV, whose columns --columns names.
    const subtopics = file("subtopics.txt", "q1 1 d1 1\nq1 2 d2 1\nq2 1 d3 1\n");
    const trecRun = file("div.run", "q1 Q0 d1 1 3 t\nq1 Q0 d2 2 2 t\nq2 Q0 d3 1 1 t\n");
    const csvRun = file("div.csv", "topic_no,passage,gain\nq1,d1,3\nq1,d2,2\nq2,d3,1\n");
    const headedRun = file("div.txt", "topic_no\tpassage\tgain\nq1\td1\t3\n");
    const divCols = ["--diversity", "--columns", "qid=topic_no,docid=passage,value=gain"];
    const refused = await run(...divCols, subtopics, headedRun);
    expect(refused.status).toBe(1);
    expect(refused.err).toMatch(
      /^rankeval: --columns names CSV\/TSV, JSON lines, Parquet or Arrow columns, but every input is read as TREC text \(by its name\)/,
    );
    const byColumns = await run(...divCols, "-m", "alpha-nDCG@10", subtopics, csvRun);
    expect(byColumns.status).toBe(0);
    expect(byColumns.out).toBe(
      (await run("--diversity", "-m", "alpha-nDCG@10", subtopics, trecRun)).out.replaceAll("div.run", "div.csv"),
    );
  });

  it("reads a .tsv without a header as TREC text when its first line is TREC's fields (MS MARCO's qrels.dev.tsv)", async () => {
    const [trecQrels, trecRun] = toTrec(QRELS, RUN, "tag");
    const out = async (...argv: string[]) => {
      const r = await run(...argv);
      expect(r.status, r.err).toBe(0);
      return r.out;
    };
    const want = await out("-q", "-m", "map", "-m", "P.2", files.trec[0], files.trec[1]);
    // qid<TAB>0<TAB>docid<TAB>rel, as MS MARCO writes its qrels; a run as TREC's six fields, tabbed.
    const qrelsTsv = file("qrels.dev.tsv", trecQrels.replace(/ /g, "\t"));
    const runTsv = file("tag.tsv", trecRun.replace(/ /g, "\t"));
    expect(await out("-q", "-m", "map", "-m", "P.2", qrelsTsv, files.trec[1])).toBe(want);
    expect(await out("-q", "-m", "map", "-m", "P.2", qrelsTsv, runTsv)).toBe(want);
    expect(
      await out("-q", "-m", "map", "-m", "P.2", file("qrels.dev.tsv.gz", gzipSync(readFileSync(qrelsTsv))), runTsv),
    ).toBe(want);
    // Numeric ids as MS MARCO's, CRLF, and a first line split across chunks (a gzip stream's are small).
    const ms = file("ms.tsv", "1102432\t0\t2026790\t1\r\n1102431\t0\t7066866\t1\r\n");
    const msRun = file("ms.run", "1102432 Q0 2026790 1 3.5 r\n1102431 Q0 1 1 2.5 r\n1102431 Q0 7066866 2 2.0 r\n");
    expect((await run("-q", "-m", "recip_rank", ms, msRun)).out).toBe(
      "recip_rank            \t1102431\t0.5000\nrecip_rank            \t1102432\t1.0000\nrecip_rank            \tall\t0.7500\n",
    );
    // --input-format tsv reads the same way whatever the name; --columns means there is a header.
    expect(
      (await run("--input-format", "tsv", "-m", "map", file("qrels-tabbed.txt", trecQrels.replace(/ /g, "\t")), runTsv))
        .out,
    ).toBe((await run("-m", "map", qrelsTsv, runTsv)).out);
    const named = await run("--columns", "qid=q", "-m", "map", qrelsTsv, runTsv);
    expect(named.status).toBe(2);
    expect(named.err).toMatch(
      /qrels\.dev\.tsv:1:1: the header has no query id column \(looked for "q"; the tab-separated header has "q1", "0", "d1", "1"\)/,
    );
  });

  it("tells a header from TREC fields by the value field: a number (TREC) or a name (header)", async () => {
    expect(isTrecLine("1102432\t0\t2026790\t1", "qrels")).toBe(true);
    expect(isTrecLine("\uFEFFq1\t0\td1\t-1.5e0\r", "qrels")).toBe(true);
    expect(isTrecLine("qid\titer\tdocno\trel", "qrels")).toBe(false);
    expect(isTrecLine("query-id\tcorpus-id\tscore", "qrels")).toBe(false);
    expect(isTrecLine("q1\t0\td1", "qrels")).toBe(false);
    expect(isTrecLine("q1\tQ0\td1\t1\t2.5\ttag", "run")).toBe(true);
    expect(isTrecLine("q1\tQ0\td1\t1\tscore\ttag", "run")).toBe(false);
    expect(isTrecLine("q1\t0\td1\t1", "run")).toBe(false);
    // A header of TREC's column names is a header, read by name.
    const header = file("named.tsv", "qid\titer\tdocno\trel\nq1\t0\td1\t1\nq1\t0\td3\t2\n");
    expect((await run("-m", "num_rel", header, files.trec[1])).out).toMatch(/^num_rel\s+\tall\t2\n/);
  });

  it("reads BEIR's qrels (query-id, corpus-id, score) and runs with those headers", async () => {
    const q = file("beir-qrels.tsv", toDelimited(QRELS, "\t", ["query-id", "corpus-id", "score"]));
    const r = file("beir-run.tsv", toDelimited(RUN, "\t", ["query-id", "corpus-id", "score"]));
    const want = (await run("-q", "-m", "map", "-m", "ndcg_cut.3", files.trec[0], files.trec[1])).out;
    expect((await run("-q", "-m", "map", "-m", "ndcg_cut.3", q, r)).out).toBe(want.replace(/\ttag\n/, "\tbeir-run\n"));
  });

  it("says, for a header it cannot read, how to name the columns or the format", async () => {
    const r = await run("-m", "map", file("odd.tsv", "a\tb\tc\nq1\td1\t1\n"), files.trec[1]);
    expect(r.status).toBe(2);
    expect(r.err).toContain("--columns");
    expect(r.err).toContain("--input-format");
    // MS MARCO's run format (qid, docid, rank: no score) is read as such (test/msmarco.test.ts).
    const ms = await run("-m", "map", files.trec[0], file("run.dev.small.tsv", "1102432\t2026790\t1\n"));
    expect(ms.err).toMatch(/run\.dev\.small\.tsv: no query in common with the judgments/);
  });

  it("reports bad JSON and CSV input with file:line:col, exit 2", async () => {
    const r1 = await run("-m", "map", files.json[0], file("bad.json", '{"q1": {\n  "d1": "0.5"}}'));
    expect(r1.status).toBe(2);
    expect(r1.err).toBe(
      `rankeval: ${join(dir, "bad.json")}:2:9: expected a number for document "d1" of query "q1", found '"'\n`,
    );
    const r2 = await run("-m", "map", files.csv[0], file("bad.csv", "qid,docid,score\nq1,d1,x\n"));
    expect(r2.status).toBe(2);
    expect(r2.err).toBe(`rankeval: ${join(dir, "bad.csv")}:2:7: score "x" is not a number\n`);
    const r3 = await run("-m", "map", files.csv[0], file("dup.csv", "qid,docid,score\nq1,d1,1\nq1,d1,2\n"));
    expect(r3.status).toBe(2);
    expect(r3.err).toBe(`rankeval: ${join(dir, "dup.csv")}:3: document "d1" appears twice in query "q1"\n`);
  });
});

// trec_eval's regression files converted (here, in a temporary directory) to JSON, CSV and TSV.
const golden = new URL("../../shared/golden/trec_eval/", import.meta.url).pathname;
const have = existsSync(join(golden, "out.test"));
describe.skipIf(!have)("trec_eval's qrels.test and results.test as JSON, CSV and TSV give out.test", () => {
  if (!have) console.warn(`skipped: ${golden} is absent (golden files live in ../shared)`);
  const fields = (name: string) =>
    readFileSync(join(golden, name), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => l.trim().split(/\s+/));
  it.each(["json", "csv", "tsv"] as const)("%s", async (format) => {
    const qrels: Judgment[] = fields("qrels.test").map((f) => [f[0], f[2], Number(f[3])]);
    const results: Ranked[] = fields("results.test").map((f) => [f[0], f[2], Number(f[4])]);
    expect(new Set(fields("results.test").map((f) => f[5]))).toEqual(new Set(["STANDARD"]));
    const write = (rows: [string, string, number][], value: string) =>
      format === "json" ? toJson(rows) : toDelimited(rows, format === "csv" ? "," : "\t", ["qid", "docid", value]);
    const sub = mkdtempSync(join(dir, "golden-"));
    const q = join(sub, `qrels.${format}`);
    const r = join(sub, `STANDARD.${format}`); // so the runid line reads as trec_eval's
    writeFileSync(q, write(qrels, "rel"));
    writeFileSync(r, write(results, "score"));
    const got = await run(q, r);
    expect(got.status).toBe(0);
    expect(got.out).toBe(readFileSync(join(golden, "out.test"), "utf8"));
  });
});
