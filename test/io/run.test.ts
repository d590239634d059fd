import { describe, expect, it } from "vitest";
import { Interner, RunParser } from "../../src/io/index.js";
import { bytes, parseError, parseOk } from "./_helpers.js";

describe("RunParser", () => {
  it("parses qid iter docno rank sim run_id lines", () => {
    expect(parseOk("run", "301 Q0 d1 1 2.5 bm25\n301 Q0 d2 2 -1.25 bm25\n302 Q0 d1 1 3 bm25\n")).toEqual({
      qid: ["301", "301", "302"],
      docid: ["d1", "d2", "d1"],
      score: [2.5, -1.25, 3],
      runTag: "bm25",
      length: 3,
    });
  });

  it("ignores the rank column, which need not be a number", () => {
    expect(parseOk("run", "1 Q0 a first 0.5 t\n1 Q0 b - 0.25 t\n").score).toEqual([0.5, 0.25]);
  });

  it("takes the run tag of the last data line", () => {
    expect(parseOk("run", "1 Q0 a 1 1 first\n1 Q0 b 2 0 second\n# comment\n\n").runTag).toBe("second");
    expect(parseOk("run", "1 Q0 a 1 1 first\n1 Q0 b 2 0 s\u00e9cond").runTag).toBe("s\u00e9cond");
  });

  it("tolerates extra trailing fields, as trec_eval does", () => {
    expect(parseOk("run", "1 Q0 a 1 0.5 tag more junk at\n1 Q0 b 2 0.25 tag2   end of lines.  \n")).toEqual({
      qid: ["1", "1"],
      docid: ["a", "b"],
      score: [0.5, 0.25],
      runTag: "tag2",
      length: 2,
    });
  });

  it("accepts tabs and padded scores, CRLF, a BOM, no final newline", () => {
    const r = { qid: ["301", "301"], docid: ["d1", "d2"], score: [2.129133, 1.72476], runTag: "STANDARD", length: 2 };
    expect(parseOk("run", "301\tQ0\td1\t104\t  2.129133\tSTANDARD\n301\tQ0\td2\t414\t  1.724760\tSTANDARD\n")).toEqual(
      r,
    );
    expect(parseOk("run", "\uFEFF301 Q0 d1 104 2.129133 STANDARD\r\n301 Q0 d2 414 1.724760 STANDARD")).toEqual(r);
    expect(parseOk("run", "301 Q0 d1 104 2.129133 STANDARD \r\n301 Q0 d2 414 1.724760 STANDARD\t\r\n")).toEqual(r);
  });

  it("skips comments and blank lines", () => {
    expect(parseOk("run", "# run file\n\n  # indented\n1 Q0 a 1 1 t\n\n\n#\n").length).toBe(1);
  });

  it("reads scores exactly as strtod would", () => {
    const texts = [
      "0",
      "-0",
      "1",
      "-1.5",
      "+2.25",
      ".5",
      "5.",
      "-.5",
      "1e3",
      "1E-3",
      "2.5e+2",
      "0.6898301657029192",
      "123456789012345678901234567890",
      "0.1",
      "0.3",
      "1.7976931348623157e308",
      "4.9e-324",
      "1e-400",
      "9007199254740993",
      "0.000000000000000000000000001",
      "3.14159265358979323846264338327950288",
    ];
    const run = texts.map((t, i) => `1 Q0 d${i} ${i} ${t} t\n`).join("");
    const score = parseOk("run", run).score as number[];
    expect(score.map((v) => (Object.is(v, -0) ? "-0" : v))).toEqual(texts.map((t) => (t === "-0" ? "-0" : Number(t))));
  });

  it("keeps the run tag when the caller reuses its buffer", () => {
    const p = new RunParser({ file: "r", qids: new Interner(), docids: new Interner() });
    const chunk = bytes("1 Q0 a 1 0.5 tagA\n");
    p.push(chunk);
    chunk.fill(0x21);
    expect(p.finish().runTag).toBe("tagA");
  });

  it("treats an empty input as zero rows with an empty tag", () => {
    expect(parseOk("run", "")).toEqual({ qid: [], docid: [], score: [], runTag: "", length: 0 });
  });

  it("shares interners with the qrels so ids agree", () => {
    const qids = new Interner();
    const docids = new Interner();
    docids.internString("d2");
    const p = new RunParser({ file: "r", qids, docids });
    p.push(bytes("9 Q0 d1 1 1 t\n9 Q0 d2 2 0 t\n"));
    expect(Array.from(p.finish().docid)).toEqual([1, 0]);
  });

  describe("errors name file:line:column", () => {
    it("missing fields", () => {
      expect(parseError("run", "1 Q0 a 1 0.5 t\n1 Q0 b 2 0.5\n")).toBe(
        "run.txt:2:13: expected at least 6 fields (qid iter docno rank sim run_id), found 5".replace(
          "run.txt",
          "in.txt",
        ),
      );
      expect(parseError("run", "1\n")).toBe(
        "in.txt:1:2: expected at least 6 fields (qid iter docno rank sim run_id), found 1",
      );
    });
    it("a score that is not a number", () => {
      expect(parseError("run", "1 Q0 a 1 0.5 t\n".repeat(56) + "1 Q0 doc57 57 0.1x t\n")).toBe(
        'in.txt:57:15: score "0.1x" is not a number',
      );
      expect(parseError("run", "1 Q0 a 1 - t\n")).toBe('in.txt:1:10: score "-" is not a number');
      expect(parseError("run", "1 Q0 a 1 1,5 t\n")).toBe('in.txt:1:10: score "1,5" is not a number');
      expect(parseError("run", "1 Q0 a 1 0x1p3 t\n")).toBe('in.txt:1:10: score "0x1p3" is not a number');
      expect(parseError("run", "1 Q0 a 1 1e5.5 t\n")).toBe('in.txt:1:10: score "1e5.5" is not a number');
    });
    it("a score that is NaN or infinite", () => {
      expect(parseError("run", "1 Q0 a 1 nan t\n")).toBe('in.txt:1:10: score "nan" is not a finite number');
      expect(parseError("run", "1 Q0 a 1 NaN t\n")).toBe('in.txt:1:10: score "NaN" is not a finite number');
      expect(parseError("run", "1 Q0 a 1 -inf t\n")).toBe('in.txt:1:10: score "-inf" is not a finite number');
      expect(parseError("run", "1 Q0 a 1 1e400 t\n")).toBe('in.txt:1:10: score "1e400" is not a finite number');
      expect(parseError("run", `1 Q0 a 1 ${"9".repeat(400)} t\n`)).toMatch(
        /^in.txt:1:10: score "9{40}…" is not a finite number$/,
      );
    });
    it("binary content", () => {
      expect(parseError("run", "1 Q0 a 1 0.5 t\u0000\n")).toBe(
        "in.txt:1:15: file is not text (NUL byte at byte offset 14)",
      );
      expect(parseError("run", "\u0000")).toBe("in.txt:1:1: file is not text (NUL byte at byte offset 0)");
      expect(parseError("run", "1 Q0 a 1 0.5 t extra\u0001\n")).toBe(
        "in.txt:1:21: file is not text (control byte 0x01 at byte offset 20)",
      );
    });
  });
});
