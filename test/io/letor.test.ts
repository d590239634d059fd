import { describe, expect, it } from "vitest";
import { Interner, LetorParser } from "../../src/io/index.js";
import { bytes, parseError, parseOk } from "./_helpers.js";

describe("LetorParser", () => {
  it("parses label, qid, features and the docid comment", () => {
    expect(
      parseOk(
        "letor",
        "1 qid:1000 1:0.6189 2:0.9104 3:0.7281 #docid = D0-0\n0 qid:1000 1:0.98 #docid = D0-1\n2 qid:7 1:1\t#docid=x\n",
      ),
    ).toEqual({ qid: ["1000", "1000", "7"], rel: [1, 0, 2], docid: ["D0-0", "D0-1", "x"], length: 3 });
  });

  it("gives null qid and docid when no line has them (LightGBM's rank.test)", () => {
    expect(parseOk("letor", "2 1:0.74 6:0.87\n0 1:0.1\n1\n")).toEqual({
      qid: null,
      rel: [2, 0, 1],
      docid: null,
      length: 3,
    });
  });

  it("accepts negative and fractional labels", () => {
    expect(parseOk("letor", "-1 qid:1 1:1\n0.5 qid:1 1:1\n+2 qid:1\n1e0 qid:1\n").rel).toEqual([-1, 0.5, 2, 1]);
  });

  it("finds docid among other comment fields (LETOR 4.0 / MSLR)", () => {
    const text =
      "0 qid:10 1:1 #docid = GX008-86-4444840 inc = 1 prob = 0.086622\n1 qid:10 1:1 # inc = 1 docid = GX2 prob = 0.5\n";
    expect(parseOk("letor", text).docid).toEqual(["GX008-86-4444840", "GX2"]);
  });

  it("takes a '#' anywhere as the start of the comment, as SVMlight does", () => {
    expect(parseOk("letor", "1 qid:3#docid = a\n2#docid = b\n".replace("2#", "2 qid:3#"))).toEqual({
      qid: ["3", "3"],
      rel: [1, 2],
      docid: ["a", "b"],
      length: 2,
    });
  });

  it("checks the features but keeps none (only the ranking is evaluated)", () => {
    expect(parseOk("letor", "1 qid:1 1:0.5 136:-3 #docid = a\n")).toEqual({
      qid: ["1"],
      rel: [1],
      docid: ["a"],
      length: 1,
    });
    expect(() => parseOk("letor", "1 qid:1 1:abc 2:zz:9 junk\n")).toThrow(/feature "1": value "abc" is not a number/);
  });

  it("ignores comments without a docid when no line has one", () => {
    expect(parseOk("letor", "1 qid:1 1:1 # just a note\n0 qid:1 # documented = no\n")).toMatchObject({ docid: null });
  });

  it("accepts CRLF, a BOM, comments, blank lines, no final newline", () => {
    const r = { qid: ["1", "2"], rel: [3, 0], docid: ["a", "b"], length: 2 };
    expect(
      parseOk("letor", "\uFEFF# header\r\n\r\n3 qid:1 1:1 #docid = a\r\n  \r\n0 qid:2 1:0 #docid = b\r\n"),
    ).toEqual(r);
    expect(parseOk("letor", "3 qid:1 1:1 #docid = a\n0 qid:2 1:0 #docid = b")).toEqual(r);
    expect(parseOk("letor", "3 qid:1 1:1 #docid = a \n0 qid:2 1:0 #docid = b\t\r\n")).toEqual(r);
  });

  it("treats an empty input as zero rows with null qid and docid (letorBatch refuses it)", () => {
    expect(parseOk("letor", "")).toEqual({ qid: null, rel: [], docid: null, length: 0 });
  });

  it("gives the same rows and ids when told its size (the interner then makes room after the first MiB)", () => {
    const lines: string[] = [];
    for (let q = 0; q < 1500; q++)
      for (let d = 0; d < 30; d++) lines.push(`${(q + d) % 3} qid:${q} 1:0.${d} 2:1 #docid = D${q}-${d}`);
    const input = bytes(lines.join("\n") + "\n");
    expect(input.length).toBeGreaterThan(1 << 20);
    const parse = (expectedBytes?: number) => {
      const docids = new Interner();
      const p = new LetorParser({ file: "x.letor", qids: new Interner(), docids, expectedBytes });
      for (let i = 0; i < input.length; i += 100_003) p.push(input.subarray(i, i + 100_003));
      return { rows: p.finish(), pool: docids.pool() };
    };
    const plain = parse();
    for (const size of [input.length, input.length / 4, 4 * input.length]) expect(parse(size)).toEqual(plain);
  });

  it("shares its interners", () => {
    const qids = new Interner();
    const docids = new Interner();
    const p = new LetorParser({ file: "l", qids, docids });
    p.push(bytes("1 qid:5 #docid = x\n0 qid:6 #docid = y\n1 qid:5 #docid = x\n"));
    const r = p.finish();
    expect(Array.from(r.qid!)).toEqual([0, 1, 0]);
    expect(Array.from(r.docid!)).toEqual([0, 1, 0]);
  });

  describe("errors name file:line:column", () => {
    it("a label that is not a number", () => {
      expect(parseError("letor", "1 qid:1\nrel qid:1\n")).toBe('in.txt:2:1: label "rel" is not a number');
      expect(parseError("letor", "nan qid:1\n")).toBe('in.txt:1:1: label "nan" is not a finite number');
    });
    it("qid: on some lines only", () => {
      expect(parseError("letor", "1 qid:1 1:1\n0 1:1\n")).toBe(
        'in.txt:2:3: expected "qid:" after the label, as on line 1 (all lines or none must have one)',
      );
      expect(parseError("letor", "# c\n1 1:1\n0 qid:1 1:1\n")).toBe(
        'in.txt:3:3: unexpected "qid:" field: line 2 has none (all lines or none must have one)',
      );
      expect(parseError("letor", "1 qid: 1:1\n")).toBe('in.txt:1:3: empty query id in "qid:"');
    });
    it("docid on some lines only", () => {
      expect(parseError("letor", "1 qid:1 #docid = a\n0 qid:1 1:1\n")).toBe(
        'in.txt:2:12: expected "# docid = <id>" at the end of the line, as on line 1 (all lines or none must have one)',
      );
      expect(parseError("letor", "1 qid:1 # no id\n0 qid:1 #docid = b\n")).toBe(
        'in.txt:2:18: unexpected "docid = ..." in the comment: line 1 has none (all lines or none must have one)',
      );
      expect(parseError("letor", "1 qid:1 #docid = \n")).toBe('in.txt:1:10: empty document id in "docid ="');
    });
    it("a feature that is not INDEX:VALUE", () => {
      expect(parseError("letor", "1 qid:1 1:0.5 2:abc\n")).toBe(
        'in.txt:1:17: feature "2": value "abc" is not a number',
      );
      expect(parseError("letor", "1 qid:1 1:0.5 7 #docid = a\n")).toBe(
        'in.txt:1:15: expected a feature INDEX:VALUE (as 3:0.25), found "7"',
      );
      expect(parseError("letor", "1 qid:1 x:0.5\n")).toBe(
        'in.txt:1:9: feature index "x" is not a whole number (expected INDEX:VALUE, as 3:0.25)',
      );
      expect(parseError("letor", "1 qid:1 :0.5\n")).toBe(
        'in.txt:1:9: feature index "" is not a whole number (expected INDEX:VALUE, as 3:0.25)',
      );
      expect(parseError("letor", "1 1:\n")).toBe('in.txt:1:5: feature "1": value "" is not a number');
      expect(parseError("letor", "1 1:0.5x\n")).toBe('in.txt:1:5: feature "1": value "0.5x" is not a number');
      expect(parseError("letor", "1 qid:1 1:1\r\n0 qid:1 1:1 2:0,5\r\n")).toBe(
        'in.txt:2:15: feature "2": value "0,5" is not a number',
      );
      expect(parseError("letor", "1 1:1 qid:3\n")).toBe(
        'in.txt:1:7: feature index "qid" is not a whole number (expected INDEX:VALUE, as 3:0.25)',
      );
    });
    it("accepts every number a feature may be written as", () => {
      const r = parseOk(
        "letor",
        "1 qid:1 0:1 1:-2 2:+3.5 3:1e-7 4:1.5E+300 5:.5 6:5. 7:nan 8:-inf 9:Infinity 10:1e999 11:0.12345678901234567890123 12:1#docid = a\n",
      );
      expect(r).toEqual({ qid: ["1"], rel: [1], docid: ["a"], length: 1 });
    });
    it("binary content", () => {
      expect(parseError("letor", "1 qid:1 1:\u00002\n")).toBe(
        "in.txt:1:11: file is not text (NUL byte at byte offset 10)",
      );
      expect(parseError("letor", "1 qid:1 #docid = a\u0000\n")).toBe(
        "in.txt:1:19: file is not text (NUL byte at byte offset 18)",
      );
      expect(parseError("letor", "\u0003")).toBe("in.txt:1:1: file is not text (control byte 0x03 at byte offset 0)");
      expect(parseError("letor", "1 qid:1\r2 qid:1\n")).toMatch(/^in.txt:1:8: carriage return/);
    });
  });
});
