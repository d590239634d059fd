import { describe, expect, it } from "vitest";
import { InputError } from "../../src/errors/errors.js";
import { Interner, QrelsParser } from "../../src/io/index.js";
import { bytes, parseError, parseOk } from "./_helpers.js";

describe("QrelsParser", () => {
  it("parses qid iter docno rel lines", () => {
    expect(parseOk("qrels", "301 0 d1 1\n301 0 d2 0\n302 Q0 d1 2\n")).toEqual({
      qid: ["301", "301", "302"],
      docid: ["d1", "d2", "d1"],
      rel: [1, 0, 2],
      length: 3,
    });
  });

  it("gives dense ids in order of first appearance, shared through the interners", () => {
    const qids = new Interner();
    const docids = new Interner();
    docids.internString("zz");
    const p = new QrelsParser({ file: "q", qids, docids });
    p.push(bytes("7 0 b 1\n5 0 a 1\n7 0 a 0\n"));
    const r = p.finish();
    expect(Array.from(r.qid)).toEqual([0, 1, 0]);
    expect(Array.from(r.docid)).toEqual([1, 2, 2]);
    expect(r.qid).toBeInstanceOf(Int32Array);
    expect(r.rel).toBeInstanceOf(Float64Array);
  });

  it("accepts tabs, runs of blanks, leading and trailing blanks", () => {
    expect(parseOk("qrels", "  301\t0 \t d1   1 \t\n\t302 0 d2 3\t\n")).toMatchObject({
      qid: ["301", "302"],
      docid: ["d1", "d2"],
      rel: [1, 3],
    });
  });

  it("accepts CRLF, a BOM, and no final newline", () => {
    const r = { qid: ["1", "1"], docid: ["a", "b"], rel: [1, 0], length: 2 };
    expect(parseOk("qrels", "1 0 a 1\r\n1 0 b 0\r\n")).toEqual(r);
    expect(parseOk("qrels", "\uFEFF1 0 a 1\n1 0 b 0")).toEqual(r);
    expect(parseOk("qrels", "1 0 a 1\r\n1 0 b 0\r")).toEqual(r);
    expect(parseOk("qrels", "\uFEFF1 0 a 1\r\n1 0 b 0")).toEqual(r);
  });

  it("skips blank lines and any number of comment lines", () => {
    const text = "# judged by NIST\n#second comment\n\n   \n\t# indented\n1 0 a 1\n\n#\n# last\n1 0 b 0\n#end";
    expect(parseOk("qrels", text)).toEqual({ qid: ["1", "1"], docid: ["a", "b"], rel: [1, 0], length: 2 });
  });

  it("takes '#' inside a field as data", () => {
    expect(parseOk("qrels", "1 0 doc#4_12 1\n").docid).toEqual(["doc#4_12"]);
  });

  it("keeps fractional, negative and exponent relevance as float64", () => {
    expect(parseOk("qrels", "1 0 a 0.5\n1 0 b -1\n1 0 c 1.0\n1 0 d 2e0\n1 0 e +3\n1 0 f -2.25\n").rel).toEqual([
      0.5, -1, 1, 2, 3, -2.25,
    ]);
  });

  it("treats an empty input, or only comments, as zero rows", () => {
    const none = { qid: [], docid: [], rel: [], length: 0 };
    expect(parseOk("qrels", "")).toEqual(none);
    expect(parseOk("qrels", "\n\n# c\n")).toEqual(none);
    expect(parseOk("qrels", "\uFEFF")).toEqual(none);
  });

  it("keeps UTF-8 ids byte for byte", () => {
    expect(parseOk("qrels", "q\u00e9 0 d\u4e2d\u{1F600} 1\n")).toMatchObject({
      qid: ["q\u00e9"],
      docid: ["d\u4e2d\u{1F600}"],
    });
  });

  describe("errors name file:line:column", () => {
    it("a missing field", () => {
      expect(parseError("qrels", "1 0 a 1\n1 0 b\n")).toBe(
        "in.txt:2:6: expected 4 fields (qid iter docno rel), found 3",
      );
    });
    it("a fifth field", () => {
      expect(parseError("qrels", "1 0 a 1\n\n1 0 b 1 extra\n")).toBe(
        "in.txt:3:9: expected 4 fields (qid iter docno rel), found 5",
      );
    });
    it("a rel that is not a number", () => {
      expect(parseError("qrels", "1 0 a 1\n1 0 b x1\n")).toBe('in.txt:2:7: rel "x1" is not a number');
      expect(parseError("qrels", "1 0 b 1x\n")).toBe('in.txt:1:7: rel "1x" is not a number');
      expect(parseError("qrels", "1 0 b 0x10\n")).toBe('in.txt:1:7: rel "0x10" is not a number');
      expect(parseError("qrels", "1 0 b .\n")).toBe('in.txt:1:7: rel "." is not a number');
      expect(parseError("qrels", "1 0 b 1e\n")).toBe('in.txt:1:7: rel "1e" is not a number');
    });
    it("a rel that is not finite", () => {
      expect(parseError("qrels", "1 0 b nan\n")).toBe('in.txt:1:7: rel "nan" is not a finite number');
      expect(parseError("qrels", "1 0 b -Infinity\n")).toBe('in.txt:1:7: rel "-Infinity" is not a finite number');
      expect(parseError("qrels", "1 0 b 1e999\n")).toBe('in.txt:1:7: rel "1e999" is not a finite number');
    });
    it("a NUL byte or other control byte", () => {
      expect(parseError("qrels", "1 0 a 1\n1 0 b\u00001\n")).toBe(
        "in.txt:2:6: file is not text (NUL byte at byte offset 13)",
      );
      expect(parseError("qrels", "1 0 a\u0007 1\n")).toBe(
        "in.txt:1:6: file is not text (control byte 0x07 at byte offset 5)",
      );
      expect(parseError("qrels", new Uint8Array([0x1f, 0x8b, 8, 0, 0, 10]))).toBe(
        "in.txt:1:1: file is not text (gzip-compressed data: decompress it first)",
      );
    });
    it("a carriage return that does not end a line", () => {
      expect(parseError("qrels", "1 0 a 1\r1 0 b 1\r")).toBe(
        "in.txt:1:8: carriage return (CR) not followed by a line feed: use LF or CRLF line endings",
      );
    });
    it("counts lines after CRLF, comments and blank lines, and columns after a BOM", () => {
      expect(parseError("qrels", "\uFEFF# c\r\n\r\n1 0 a 1\r\n1 0 b y\r\n")).toBe(
        'in.txt:4:7: rel "y" is not a number',
      );
      expect(parseError("qrels", "\uFEFF1 0 b y")).toBe('in.txt:1:7: rel "y" is not a number');
    });
    it("uses the file name given", () => {
      const p = new QrelsParser({ file: "judgments/2024.qrels", qids: new Interner(), docids: new Interner() });
      p.push(bytes("1 0 a"));
      let err: unknown;
      try {
        p.finish();
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      expect(err).toMatchObject({ file: "judgments/2024.qrels", line: 1, column: 6, code: "bad-input" });
    });
    it("shortens a long field in the message", () => {
      const msg = parseError("qrels", `1 0 a ${"9".repeat(60)}z\n`);
      expect(msg).toBe(`in.txt:1:7: rel "${"9".repeat(40)}…" is not a number`);
    });
  });

  it("keeps no reference to a chunk after push() returns (callers may reuse their buffer)", () => {
    const qids = new Interner();
    const docids = new Interner();
    const p = new QrelsParser({ file: "q", qids, docids });
    const chunk = new Uint8Array(12);
    for (const text of ["11 0 a 1\n11", " 0 b 1\n22 0 ", "c 1\n33 0 d 1"]) {
      chunk.fill(0x20);
      chunk.set(bytes(text));
      p.push(chunk.subarray(0, text.length));
    }
    const r = p.finish();
    expect(Array.from(r.qid, (i) => qids.stringOf(i))).toEqual(["11", "11", "22", "33"]);
    expect(Array.from(r.docid, (i) => docids.stringOf(i))).toEqual(["a", "b", "c", "d"]);
  });

  it("throws the same error again after bad input", () => {
    const p = new QrelsParser({ file: "q", qids: new Interner(), docids: new Interner() });
    expect(() => p.push(bytes("1 0 a 1\n1 0 b\n"))).toThrow("q:2:6: expected 4 fields");
    expect(() => p.push(bytes("1 0 c 1\n"))).toThrow("q:2:6: expected 4 fields");
    expect(() => p.finish()).toThrow("q:2:6: expected 4 fields");
  });

  it("refuses push() after finish()", () => {
    const p = new QrelsParser({ file: "q", qids: new Interner(), docids: new Interner() });
    p.finish();
    expect(() => p.push(bytes("1 0 a 1\n"))).toThrow(/after finish/);
  });
});
