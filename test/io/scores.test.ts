import { describe, expect, it } from "vitest";
import { parseError, parseOk } from "./_helpers.js";

describe("ScoresParser", () => {
  it("reads one score per line", () => {
    expect(parseOk("scores", "1.439\n0.084\n-1.571\n3\n")).toEqual({ score: [1.439, 0.084, -1.571, 3] });
  });
  it("reads RankLib's qid docIndex score form, taking the last field", () => {
    expect(parseOk("scores", "1\t0\t0.5\n1\t1\t-2.5e-3\n")).toEqual({ score: [0.5, -0.0025] });
  });
  it("accepts blanks, CRLF, a BOM, comments, blank lines, no final newline", () => {
    expect(parseOk("scores", "\uFEFF# preds\r\n  1.5  \r\n\r\n2e1\r\n-.5")).toEqual({ score: [1.5, 20, -0.5] });
  });
  it("treats an empty input as no scores", () => {
    expect(parseOk("scores", "")).toEqual({ score: [] });
  });
  it("rejects bad numbers, NaN, infinities and wrong field counts", () => {
    expect(parseError("scores", "1\n0.1x\n")).toBe('in.txt:2:1: score "0.1x" is not a number');
    expect(parseError("scores", "  nan\n")).toBe('in.txt:1:3: score "nan" is not a finite number');
    expect(parseError("scores", "inf\n")).toBe('in.txt:1:1: score "inf" is not a finite number');
    expect(parseError("scores", "1 2\n")).toBe(
      "in.txt:1:4: expected 1 field (score) or 3 (qid docIndex score), found 2",
    );
    expect(parseError("scores", "1 2 3 4\n")).toBe(
      "in.txt:1:7: expected 1 field (score) or 3 (qid docIndex score), found 4",
    );
    expect(parseError("scores", "1\u0000\n")).toBe("in.txt:1:2: file is not text (NUL byte at byte offset 1)");
  });
});
