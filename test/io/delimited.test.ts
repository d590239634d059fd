// The CSV/TSV qrels/run parser: header and column mapping, delimiter detection, RFC 4180 quoting,
// CRLF, BOM, and every error, for every way of splitting the input into chunks; fuzzed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/errors/errors.js";
import { DelimitedParser } from "../../src/io/delimited.js";
import { Interner } from "../../src/io/interner.js";
import {
  bytes,
  outcome,
  parseError,
  parseOk,
  parseRows,
  splitAt,
  mutate,
  mutationArb,
  type Extra,
} from "./_formats.js";
import { runs } from "../_seed.js";

const RUNS = runs(300);
const ok = (input: string, kind: "run" | "qrels" = "run", extra: Extra = {}) => parseOk("csv", kind, input, extra);
const error = (input: string, kind: "run" | "qrels" = "run", extra: Extra = {}) =>
  parseError("csv", kind, input, extra);

describe("CSV and TSV qrels and runs", () => {
  it("reads a CSV run: rows in file order, the line each starts on", () => {
    expect(ok("qid,docid,score\nq1,d1,12.5\nq1,d2,9.1\nq2,d1,-3e-1\n")).toEqual({
      qid: ["q1", "q1", "q2"],
      docid: ["d1", "d2", "d1"],
      score: [12.5, 9.1, -0.3],
      runTag: "t",
      lines: [2, 3, 4],
    });
  });

  it("reads TSV qrels, detecting the tab, with other columns in any order", () => {
    expect(ok("iteration\tlabel\tdoc_id\tquery_id\n0\t1\td1\t301\n0\t0\td,2\t301\n", "qrels")).toEqual({
      qid: ["301", "301"],
      docid: ["d1", "d,2"],
      rel: [1, 0],
      lines: [2, 3],
    });
  });

  it("finds the default names ignoring case and blanks, the first of each list present", () => {
    expect(ok("Topic, DOCNO ,Prediction,score\nq,d,1,2\n").score).toEqual([2]);
    expect(ok("query,document,rank_score\nq,d,1\n").score).toEqual([1]);
    expect(ok("qid,doc,relevance,grade\nq,d,1,2\n", "qrels").rel).toEqual([1]);
  });

  it("reads BEIR's query-id / corpus-id / score headers, in qrels (score: the label) and runs", () => {
    const beir = "query-id\tcorpus-id\tscore\nPLAIN-2\tMED-2427\t2\nPLAIN-2\tMED-10\t1\n";
    expect(ok(beir, "qrels")).toEqual({
      qid: ["PLAIN-2", "PLAIN-2"],
      docid: ["MED-2427", "MED-10"],
      rel: [2, 1],
      lines: [2, 3],
    });
    expect(ok(beir, "run")).toMatchObject({
      qid: ["PLAIN-2", "PLAIN-2"],
      docid: ["MED-2427", "MED-10"],
      score: [2, 1],
    });
    expect(ok("Query-ID,Corpus-ID,Score\nq,d,1\n", "qrels").rel).toEqual([1]);
    // A label column named otherwise comes first: score is the last of the qrels' names.
    expect(ok("query-id,corpus-id,score,rel\nq,d,0.5,3\n", "qrels").rel).toEqual([3]);
  });

  it("says after a header error how the caller names the columns (hint)", () => {
    expect(error("a\tb\tc\n", "qrels", { hint: "use --columns" })).toBe(
      'in.csv:1:1: the header has no query id column (looked for qid, query, query_id, query-id, topic; the tab-separated header has "a", "b", "c"); use --columns',
    );
  });

  it("takes the columns given, exactly or ignoring case", () => {
    const extra: Extra = { columns: { qid: "Q", docid: "passage", value: "bm25" } };
    expect(ok("qid,Q,passage,score,BM25\nx,q1,p1,0,7\n", "run", extra)).toMatchObject({
      qid: ["q1"],
      docid: ["p1"],
      score: [7],
    });
    expect(ok("q;x,doc,score\nq1,d,1\n", "run", { columns: { qid: "q;x" } }).qid).toEqual(["q1"]);
  });

  it("refuses a run tag column, which it does not read (Parquet and Arrow do), rather than ignore it", () => {
    const parser = () =>
      new DelimitedParser({ file: "run.csv", qids: new Interner(), kind: "run", columns: { tag: "runid" } });
    expect(parser).toThrow(
      "run.csv: a run tag column (tag=runid) is read from Parquet and Arrow files only; a CSV or TSV run's tag is its file's name",
    );
    // Judgments have no tag: the mapping given for the runs beside them is no concern of theirs.
    expect(ok("qid,docid,rel\nq1,d1,1\n", "qrels", { columns: { tag: "runid" } }).qid).toEqual(["q1"]);
  });

  it("takes the delimiter given, even when the header holds more of the other", () => {
    expect(ok("qid\tdocid\tscore\ta,b,c,d,e\nq\td\t1\tx,y\n", "run", { delimiter: "\t" }).docid).toEqual(["d"]);
    expect(
      parseRows("csv", "run", [bytes("qid,docid,score,x\tx\tx\tx\nq,d,1,x\tx\tx\tx\n")], { delimiter: "," }).docid,
    ).toEqual(["d"]);
    expect(() => new DelimitedParser({ file: "f", qids: new Interner(), kind: "run", delimiter: ";" as "," })).toThrow(
      /delimiter/,
    );
  });

  it("reads RFC 4180 quoting: delimiters, doubled quotes and line breaks in quoted fields", () => {
    const r = ok('"qid","docid","score"\n"q 1","a,b",1\nq2,"say ""hi""",2\n"q3","line\nbreak","3"\nq4,x"y,4\n');
    expect(r.qid).toEqual(["q 1", "q2", "q3", "q4"]);
    expect(r.docid).toEqual(["a,b", 'say "hi"', "line\nbreak", 'x"y']);
    expect(r.score).toEqual([1, 2, 3, 4]);
    expect(r.lines).toEqual([2, 3, 4, 6]);
  });

  it("takes CRLF, a BOM, blank lines, no final newline, blanks around a value, extra columns, UTF-8", () => {
    const r = ok('\uFEFFqid,docid,score,comment\r\n\r\nq1,é,  1.5 ,"x"\r\n\nq1,"d\r\n2",2,\r\nq2,d,3,y');
    expect(r).toEqual({
      qid: ["q1", "q1", "q2"],
      docid: ["é", "d\r\n2", "d"],
      score: [1.5, 2, 3],
      runTag: "t",
      lines: [3, 5, 7],
    });
    expect(ok("qid,docid,score")).toEqual({ qid: [], docid: [], score: [], runTag: "t", lines: [] });
    expect(ok("qid,docid,score\r\n")).toMatchObject({ qid: [] });
  });

  it("says what is wrong, and where", () => {
    const cases: [string, string, ("run" | "qrels")?, Extra?][] = [
      ["", "in.csv:1:1: expected a header line naming the columns, found the end of the file"],
      ["\uFEFF", "in.csv:1:1: expected a header line naming the columns, found the end of the file"],
      [
        "qid,doc_id,rel\nq,d,1\n",
        'in.csv:1:1: the header has no score column (looked for score, rank_score, prediction; the comma-separated header has "qid", "doc_id", "rel")',
      ],
      [
        "qid,docid,points\n",
        'in.csv:1:1: the header has no label column (looked for rel, label, relevance, grade, judgment, score; the comma-separated header has "qid", "docid", "points")',
        "qrels",
      ],
      [
        "q\tdocid\tscore\n",
        'in.csv:1:1: the header has no query id column (looked for qid, query, query_id, query-id, topic; the tab-separated header has "q", "docid", "score")',
      ],
      [
        "qid,d,score\n",
        'in.csv:1:1: the header has no document id column (looked for docid, doc, doc_id, docno, document, corpus-id; the comma-separated header has "qid", "d", "score")',
      ],
      [
        "qid,docid,score\n",
        'in.csv:1:1: the header has no score column (looked for "s"; the comma-separated header has "qid", "docid", "score")',
        "run",
        { columns: { value: "s" } },
      ],
      [
        "qid,docid,score\n",
        'in.csv:1:1: column "qid" cannot be both the query id and the value',
        "run",
        { columns: { value: "qid" } },
      ],
      [
        "qid,docid,score\nq1,d1\n",
        'in.csv:2:6: missing column "score" (column 3 of the header; this line has 2 fields)',
      ],
      [
        "qid,docid,score\nq1,d1,1\nq1\n",
        'in.csv:3:3: missing column "docid" (column 2 of the header; this line has 1 field)',
      ],
      ["qid,docid,score,x\nq1,d1,1\n", "in.csv:2:8: expected 4 fields as in the header, found 3"],
      ["qid,docid,score\nq1,d1,1,\n", "in.csv:2:9: expected 3 fields as in the header, found 4"],
      ["qid,docid,score\nq1,d1,abc\n", 'in.csv:2:7: score "abc" is not a number'],
      ["qid,docid,score\nq1,d1,\n", 'in.csv:2:7: score "" is not a number'],
      ["qid,docid,score\nq1,d1,1,5\n", "in.csv:2:9: expected 3 fields as in the header, found 4"],
      [
        "qid;docid;label\nq1;d1;nan\n",
        'in.csv:1:1: the header has no query id column (looked for qid, query, query_id, query-id, topic; the comma-separated header has "qid;docid;label")',
        "qrels",
      ],
      ["qid\tdocid\tlabel\nq1\td1\tinf\n", 'in.csv:2:7: label "inf" is not a finite number', "qrels"],
      ['qid,docid,score\nq1,d1,"1e999"\n', 'in.csv:2:7: score "1e999" is not a finite number'],
      ["qid,docid,score\n,d1,1\n", 'in.csv:2:1: empty query id (column "qid")'],
      ['qid,docid,score\nq1,"",1\n', 'in.csv:2:4: empty document id (column "docid")'],
      [
        'qid,docid,score\nq1,"d1"x,1\n',
        "in.csv:2:8: expected ',' or the end of the line after a closing quote, found 'x'",
      ],
      [
        'qid\tdocid\tscore\nq1\t"d1" \t1\n',
        "in.csv:2:8: expected a tab or the end of the line after a closing quote, found a space",
      ],
      ['qid,docid,score\nq1,"d1\n,1\n', "in.csv:2:4: a quoted field is not closed: the file ends inside it"],
      [
        "qid,docid,score\nq1,d1,1\rq2,d2,2\n",
        "in.csv:2:8: carriage return (CR) not followed by a line feed: use LF or CRLF line endings",
      ],
    ];
    for (const [input, message, kind, extra] of cases)
      expect(error(input, kind ?? "run", extra ?? {}), JSON.stringify(input)).toBe(message);
  });

  it("keeps long ids and many rows, split anywhere, from a small size guess", () => {
    const long = `"${"é,".repeat(300)}"`;
    expect(
      parseRows("csv", "run", splitAt(bytes(`qid,docid,score\n${long},${long},1\n`), [0.2, 0.5, 0.9])).docid,
    ).toEqual(["é,".repeat(300)]);
    const lines = ["qid,docid,score"];
    for (let i = 0; i < 20000; i++) lines.push(`q${i >> 7},doc-${i},${i / 4}`);
    const p = new DelimitedParser({ file: "big.csv", qids: new Interner(), kind: "run", expectedBytes: 5 });
    const b = bytes(lines.join("\n"));
    for (let i = 0; i < b.length; i += 3001) p.push(b.subarray(i, i + 3001));
    const r = p.finish();
    expect(r.length).toBe(20000);
    expect(r.score[19999]).toBe(19999 / 4);
  });

  it("throws the first error again, and refuses push after finish", () => {
    const p = new DelimitedParser({ file: "x.csv", qids: new Interner(), kind: "run" });
    p.push(bytes("a,b"));
    expect(() => p.push(bytes("\nc"))).toThrow(InputError);
    expect(() => p.push(bytes("c"))).toThrow(/x\.csv:1:1: the header has no query id column/);
    expect(() => p.finish()).toThrow(/x\.csv:1:1: the header has no query id column/);
    const q = new DelimitedParser({ file: "x.csv", qids: new Interner(), kind: "run" });
    q.push(bytes("qid,docid,score\n"));
    q.finish();
    expect(() => q.push(bytes("q,d,1\n"))).toThrow(/push\(\) after finish/);
  });
});

// Fuzz: random and mutated bytes end in rows or an InputError, the same however chunked; generated
// valid files parse to what was written.
const cuts = fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { maxLength: 4 });
const ALPHABET = [...'qiddocscore,\t"\r\n 0123456789.-e']
  .map((c) => c.charCodeAt(0))
  .concat([0, 0xef, 0xbb, 0xbf, 0xc3, 0xa9]);
const byteArb = fc.oneof(fc.constantFrom(...ALPHABET), fc.integer({ min: 0, max: 255 }));
const field = fc.string({
  unit: fc.constantFrom("a", "b", "1", ",", "\t", '"', "\n", "\r\n", " ", "é"),
  minLength: 1,
  maxLength: 5,
});
const num = fc.oneof(
  fc.integer({ min: -9, max: 9 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
);
const quoteField = (s: string, delim: string, force: boolean) =>
  force || s.includes(delim) || s.includes('"') || s.includes("\n") || s.includes("\r")
    ? `"${s.replace(/"/g, '""')}"`
    : s;
const validCsv = fc
  .tuple(
    fc.constantFrom(",", "\t"),
    fc.constantFrom("\n", "\r\n"),
    fc.array(fc.tuple(field, field, num, fc.boolean()), { maxLength: 8 }),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([delim, eol, rows, bom, last]) => {
    let text = `${bom ? "\uFEFF" : ""}${["qid", "docid", "score"].join(delim)}${eol}`;
    text += rows
      .map(([q, d, v, force]) => [quoteField(q, delim, force), quoteField(d, delim, force), v].join(delim))
      .join(eol);
    if (last && rows.length) text += eol;
    return {
      text,
      want: { qid: rows.map((r) => r[0]), docid: rows.map((r) => r[1]), score: rows.map((r) => Number(r[2])) },
    };
  });

describe("CSV fuzz", () => {
  const same = (b: Uint8Array, c: number[]) => {
    const whole = outcome("csv", "run", [b]);
    expect(outcome("csv", "run", splitAt(b, c))).toEqual(whole);
  };

  it("random bytes: a result or an InputError, the same for any chunking", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), cuts, same), { numRuns: RUNS });
    fc.assert(
      fc.property(fc.array(byteArb, { maxLength: 200 }), cuts, (a, c) =>
        same(Uint8Array.from(["qid,docid,score\n"].flatMap((s) => Array.from(bytes(s))).concat(a)), c),
      ),
      { numRuns: RUNS },
    );
  });

  it("valid files parse to what was written, however chunked", () => {
    fc.assert(
      fc.property(validCsv, cuts, ({ text, want }, c) => {
        const got = parseRows("csv", "run", splitAt(bytes(text), c));
        expect({ qid: got.qid, docid: got.docid, score: got.score }).toEqual(want);
      }),
      { numRuns: RUNS },
    );
  });

  it("mutated valid files: a result or an InputError, the same for any chunking", () => {
    const mutation = mutationArb(byteArb);
    fc.assert(
      fc.property(validCsv, fc.array(mutation, { minLength: 1, maxLength: 4 }), cuts, ({ text }, muts, c) => {
        const mutated = mutate(text, muts);
        same(mutated, c);
      }),
      { numRuns: RUNS },
    );
  });
});
