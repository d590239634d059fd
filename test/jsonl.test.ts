// JSON lines (issue 38: LLM judges' output, UMBRELA's): src/io/jsonl.ts read chunk by chunk, decided by
// the one format decision (src/input/formats.ts), and through every reader: the command line's
// evaluation and judgments' modes, evaluateFiles, readQrels. test/fixtures/umbrela/ holds an UMBRELA-shaped
// file (a failed row, prompts with escaped quotes and newlines) and the same judgments as TREC qrels.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { decideFormat } from "../src/input/formats.js";
import { Interner } from "../src/io/interner.js";
import { JsonlParser } from "../src/io/jsonl.js";
import { docidString, lineOfRow } from "../src/io/rows.js";
import { fileFormat } from "../src/node/columnar-files.js";
import { evaluateFiles, readQrels, readRun } from "../src/node/index.js";
import { cli } from "./_cli.js";

const FIXTURES = join(import.meta.dirname, "fixtures", "umbrela");
const JUDGED = join(FIXTURES, "umbrela-judgments.jsonl");
const JUDGED_TREC = join(FIXTURES, "umbrela-judgments.qrels");
const RUN = join(FIXTURES, "umbrela-run.run");
const RUN_JSONL = join(FIXTURES, "umbrela-run.jsonl");
const SKIPPED =
  "umbrela-judgments.jsonl: 1 row with result_status not 1 (the judge failed) is skipped (the first on line 4)";

const dir = mkdtempSync(join(tmpdir(), "rankeval-jsonl-"));
const file = (name: string, text: string | Uint8Array) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const rows = (objects: readonly object[]) => objects.map((o) => `${JSON.stringify(o)}\n`).join("");

/** The parser's rows as [qid, docid, value, line], the input pushed `step` bytes at a time. */
function parse(text: string, kind: "qrels" | "run" = "qrels", step = Number.POSITIVE_INFINITY, columns = {}) {
  const p = new JsonlParser({ file: "in.jsonl", qids: new Interner(), kind, columns });
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += Math.min(step, bytes.length)) p.push(bytes.slice(at, at + step));
  const r = p.finish();
  const values = "rel" in r ? r.rel : r.score;
  const out = [];
  for (let i = 0; i < r.length; i++)
    out.push([r.qidNames.stringOf(r.qid[i]), docidString(r.docids, i), values[i], lineOfRow(r.lines, i)]);
  return { rows: out, skipped: r.skipped };
}

const parseError = (text: string, kind: "qrels" | "run" = "qrels") => {
  try {
    parse(text, kind);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("no error");
};

describe("JsonlParser", () => {
  it("reads UMBRELA's rows, skipping and counting failed judgments, in chunks of any size", () => {
    const text = readFileSync(JUDGED, "utf8");
    const whole = parse(text);
    expect(whole.rows).toEqual([
      ["1037798", "7134595", 3, 1],
      ["1037798", "7134594", 0, 2],
      ["1037798", "7134596", 2, 3],
      ["104861", "4398281", 3, 5],
      ["104861", "4398282", 1, 6],
      ["104861", "4398283", 0, 7],
    ]);
    expect(whole.skipped).toEqual({ count: 1, line: 4, which: "with result_status not 1 (the judge failed)" });
    // Cut inside escapes, multi-byte characters and lines.
    for (const step of [1, 2, 7, 64]) expect(parse(text, "qrels", step)).toEqual(whole);
  });

  it("reads ids as UTF-8 from escapes or raw text, integers as ids, decimal strings as values; CRLF, BOM and blank lines", () => {
    const text =
      '\uFEFF{"qid": 7, "docid": "caf\\u00e9", "rel": "1.5"}\r\n\n' +
      '{"qid": 7, "docid": "café \\"x\\"", "rel": 2, "result_status": 1}\r\n' +
      '{"qid": "8", "docid": "\\ud83d\\ude00", "rel": -1e0}';
    expect(parse(text, "qrels", 3).rows).toEqual([
      ["7", "café", 1.5, 1],
      ["7", 'café "x"', 2, 3],
      ["8", "😀", -1, 4],
    ]);
  });

  it("names fields as CSV names columns: the defaults, or columns given", () => {
    const text = rows([{ topic_id: "q1", pid: "d1", llm: 2, score: 9 }]);
    expect(parse(text, "qrels", 5, { qid: "topic_id", docid: "pid", value: "llm" }).rows).toEqual([["q1", "d1", 2, 1]]);
    expect(parse(rows([{ query_id: "q1", doc_id: "d1", score: 0.5 }]), "run").rows).toEqual([["q1", "d1", 0.5, 1]]);
    const options = { file: "in.jsonl", qids: new Interner(), kind: "run", delimiter: "," } as never;
    expect(() => new JsonlParser(options)).toThrow('JsonlParser: unknown option "delimiter"');
  });

  it("says the file, line and what was expected of a bad line", () => {
    const ok = '{"qid": "q1", "docid": "d1", "judgment": 1}\n';
    expect(parseError(`${ok}{"qid": "q1", "docid": "d2" "judgment": 1}\n`)).toBe(
      "in.jsonl:2:29: expected one JSON object a line (JSON lines): Expected ',' or '}' after property value",
    );
    expect(parseError(`${ok}not json\n`)).toBe(
      "in.jsonl:2:1: expected one JSON object a line (JSON lines): Unexpected token 'o'",
    );
    expect(parseError(`${ok}[1, 2]\n`)).toBe(
      "in.jsonl:2: expected one JSON object a line (JSON lines), found an array",
    );
    expect(parseError(`${ok}{"docid": "d2", "judgment": 1}\n`)).toBe(
      'in.jsonl:2: no "qid" field: expected the query id in every object, named so as on line 1',
    );
    expect(parseError(`${ok}{"qid": "q1", "docid": 1.5, "judgment": 1}\n`)).toBe(
      'in.jsonl:2: the document id (field "docid") is 1.5: expected a string or an integer',
    );
    expect(parseError(`${ok}{"qid": "q1", "docid": "d3", "judgment": "high"}\n`)).toBe(
      'in.jsonl:2: the label (field "judgment") is "high": expected a number',
    );
    expect(parseError(`${ok}{"qid": "", "docid": "d3", "judgment": 1}\n`)).toBe(
      'in.jsonl:2: empty query id (field "qid")',
    );
    // UMBRELA's output without ids: its `query` is text, and no field is a document id.
    expect(parseError(rows([{ query: "who is robert gray", passage: "...", judgment: 3, result_status: 1 }]))).toBe(
      'in.jsonl:1: the object has no document id field (looked for docid, doc, doc_id, docno, document, corpus-id; it has "query", "passage", "judgment", "result_status")',
    );
    // A long line's text is not in the message.
    const long = `{"qid": "q1", "prompt": "${"x".repeat(5000)}", "docid": tru}\n`;
    expect(parseError(long)).toBe("in.jsonl:1:1: expected one JSON object a line (JSON lines): Unexpected token '}'");
  });
});

describe("the format decision", () => {
  it("reads .jsonl and .ndjson by name, and a .json or unnamed file whose first line is a row by content", () => {
    const row = '{"qid": "q1", "docid": "d1", "judgment": 1}';
    expect(decideFormat("a.jsonl").format).toBe("jsonl");
    expect(decideFormat("a.NDJSON.gz").format).toBe("jsonl");
    expect(decideFormat("a.json", { firstLine: row })).toMatchObject({ format: "jsonl", reason: "content" });
    expect(decideFormat("a.txt", { firstLine: row })).toMatchObject({ format: "jsonl", reason: "content" });
    // ranx's JSON, on one line or pretty-printed, is JSON.
    expect(decideFormat("a.json", { firstLine: '{"q1": {"d1": 1}}' }).format).toBe("json");
    expect(decideFormat("a.json", { firstLine: "{" }).format).toBe("json");
    expect(decideFormat("a.txt", { firstLine: "q1 0 d1 1" }).format).toBe("trec");
    expect(decideFormat("a.csv", { firstLine: row }).format).toBe("csv");
    expect(decideFormat("a.json", { given: "json", firstLine: row }).format).toBe("json");
    const lines = readFileSync(JUDGED);
    expect(fileFormat(file("umbrela.json", lines)).format).toBe("jsonl");
    expect(fileFormat(file("umbrela.json.gz", gzipSync(lines))).format).toBe("jsonl");
    expect(fileFormat(file("umbrela", lines)).format).toBe("jsonl");
    expect(fileFormat(file("ranx.json", '{"q1": {"d1": 1}}')).format).toBe("json");
  });
});

const MEASURES = ["-m", "map", "-m", "ndcg_cut.10", "-m", "P.5", "-q"];

describe("the command line", () => {
  it("evaluates with UMBRELA's judgments as with the same judgments as TREC qrels, and says the rows skipped", async () => {
    const trec = await cli([JUDGED_TREC, RUN, ...MEASURES]);
    expect(trec).toMatchObject({ status: 0, stderr: "" });
    const jsonl = await cli([JUDGED, RUN, ...MEASURES]);
    expect(jsonl.status).toBe(0);
    expect(jsonl.stdout).toBe(trec.stdout);
    expect(jsonl.stderr).toBe(`rankeval: ${JUDGED.replace("umbrela-judgments.jsonl", "")}${SKIPPED}\n`);
    // A JSON lines run, and files named otherwise (by content, or --input-format).
    expect((await cli([JUDGED_TREC, RUN_JSONL, ...MEASURES])).stdout).toBe(trec.stdout);
    const unnamed = file("umbrela-out", readFileSync(JUDGED));
    expect((await cli([unnamed, RUN, ...MEASURES])).stdout).toBe(trec.stdout);
    const txt = file("umbrela-out.txt", readFileSync(JUDGED));
    expect((await cli(["--input-format", "jsonl", txt, RUN_JSONL, ...MEASURES])).stdout).toBe(trec.stdout);
    const gz = file("umbrela.jsonl.gz", gzipSync(readFileSync(JUDGED)));
    expect((await cli([gz, RUN, ...MEASURES])).stdout).toBe(trec.stdout);
  });

  it("reads fields named by --columns", async () => {
    const trec = await cli([JUDGED_TREC, RUN, ...MEASURES]);
    const renamed = readFileSync(JUDGED, "utf8")
      .split("\n")
      .filter((l) => l)
      .map((l) => {
        const { qid, docid, judgment, ...rest } = JSON.parse(l);
        return JSON.stringify({ topic_id: qid, pid: docid, llm_label: judgment, ...rest });
      })
      .join("\n");
    const path = file("renamed.jsonl", renamed);
    const r = await cli(["--columns", "qid=topic_id,docid=pid,value=llm_label", path, RUN, ...MEASURES]);
    expect(r.stdout).toBe(trec.stdout);
    const missing = await cli([path, RUN, ...MEASURES]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`${path}:1: the object has no document id field (looked for docid, doc, doc_id`);
  });

  it("says a bad line's file and line", async () => {
    const path = file(
      "bad.jsonl",
      '{"qid": "1", "docid": "a", "judgment": 1}\n{"qid": "1", "docid": "b" "judgment": 1}\n',
    );
    const r = await cli([path, RUN]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${path}:2:27: expected one JSON object a line (JSON lines)`);
  });

  it("--qrels-stats, --agreement and --fill read UMBRELA's judgments as the TREC qrels", async () => {
    const dirOf = JUDGED.replace("umbrela-judgments.jsonl", "");
    const said = `rankeval: ${dirOf}${SKIPPED}\n`;
    const stats = await cli(["--qrels-stats", JUDGED]);
    expect(stats.stdout).toBe((await cli(["--qrels-stats", JUDGED_TREC])).stdout);
    expect(stats.stderr).toBe(said);
    const agreement = await cli(["--agreement", JUDGED_TREC, JUDGED, "--format", "json"]);
    expect(agreement.stderr).toBe(said);
    const a = JSON.parse(agreement.stdout);
    expect(a.pairs).toMatchObject({ shared: 6, union: 6 });
    expect(a.observed_agreement).toBe(1);
    const fill = await cli(["--fill", JUDGED, JUDGED_TREC, RUN, "-m", "map"]);
    expect(fill.status).toBe(0);
    expect(fill.stderr).toContain(said);
  });
});

describe("the library", () => {
  it("evaluateFiles gives the TREC qrels' numbers, the rows skipped in its warnings; readQrels the same judgments", async () => {
    const trec = await evaluateFiles(JUDGED_TREC, RUN, ["map", "ndcg@10"]);
    const jsonl = await evaluateFiles(JUDGED, RUN_JSONL, ["map", "ndcg@10"]);
    expect(jsonl.perQuery).toEqual(trec.perQuery);
    expect(jsonl.summary).toEqual(trec.summary);
    expect(jsonl.warnings).toEqual([...trec.warnings, `${JUDGED.replace("umbrela-judgments.jsonl", "")}${SKIPPED}`]);
    // The rows skipped are said as a Node warning (readQrels returns a plain object), once per read.
    const said = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    try {
      expect(await readQrels(JUDGED)).toEqual(await readQrels(JUDGED_TREC));
      expect(said.mock.calls.map((c) => [String(c[0]), (c[1] as { code?: string }).code])).toEqual([
        [
          expect.stringMatching(/result_status not 1 \(the judge failed\) (is|are) skipped \(the first on line \d+\)$/),
          "RANKEVAL_ROWS_SKIPPED",
        ],
      ]);
    } finally {
      said.mockRestore();
    }
    expect(await readRun(RUN_JSONL)).toEqual(await readRun(RUN));
  });
});
