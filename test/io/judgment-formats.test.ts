// The parsers of the judgment formats other than qrels: trec_eval's qrels_jg / qrels_prefs and a
// diversity qrels (`qid group docno value`), trec_eval's prefs (`qid jg jsg docno rel_level`), and
// trec_eval's Z-score file (`qid measure mean stddev`). Each is checked split at every byte offset.
import { describe, expect, it } from "vitest";
import { parseError, parseOk } from "./_helpers.js";

describe("GroupQrelsParser", () => {
  it("keeps the group column, ids as strings, values as written", () => {
    expect(parseOk("group-qrels", "301 u1 d1 1\n301\tu2  d1 0.5\n# c\n\n302 3 D-9 -1\n")).toEqual({
      qid: ["301", "301", "302"],
      group: ["u1", "u2", "3"],
      docno: ["d1", "d1", "D-9"],
      value: [1, 0.5, -1],
      long: [1, 0, -1],
      lines: [1, 2, 5],
      length: 3,
    });
  });
  it("gives each value as C's atol reads it too (trec_eval's qrels_jg labels)", () => {
    expect(parseOk("group-qrels", "q g d 1e1\nq g e -0.5\nq g f +2.9\n").long).toEqual([1, 0, 2]);
  });
  it("accepts CRLF, a BOM and no final newline; an empty input is no entry", () => {
    expect(parseOk("group-qrels", "\uFEFFq g d 2\r\nq g e 3")).toEqual({
      qid: ["q", "q"],
      group: ["g", "g"],
      docno: ["d", "e"],
      value: [2, 3],
      long: [2, 3],
      lines: [1, 2],
      length: 2,
    });
    expect(parseOk("group-qrels", "")).toEqual({
      qid: [],
      group: [],
      docno: [],
      value: [],
      long: [],
      lines: [],
      length: 0,
    });
  });
  it("names the file, line and column of a bad line", () => {
    expect(parseError("group-qrels", "1 g d 1\n1 g d\n")).toBe(
      "in.txt:2:6: expected 4 fields (qid group docno rel), found 3",
    );
    expect(parseError("group-qrels", "1 g d 1 x\n")).toBe(
      "in.txt:1:9: expected 4 fields (qid group docno rel), found 5",
    );
    expect(parseError("group-qrels", "1 g d 1x\n")).toBe('in.txt:1:7: rel "1x" is not a number');
    expect(parseError("group-qrels", "1 g d nan\n")).toBe('in.txt:1:7: rel "nan" is not a finite number');
  });
});

describe("PrefsParser", () => {
  it("reads qid jg jsg docno rel_level", () => {
    expect(parseOk("prefs", "1 u1 s1 d1 3.0\n1 u1 s1 d2 2\n#x\n2 u2 s9 d1 0\n")).toEqual({
      qid: ["1", "1", "2"],
      jg: ["u1", "u1", "u2"],
      jsg: ["s1", "s1", "s9"],
      docno: ["d1", "d2", "d1"],
      rel: [3, 2, 0],
      lines: [1, 2, 4],
      length: 3,
    });
  });
  it("names the file, line and column of a bad line", () => {
    expect(parseError("prefs", "1 u s d\n")).toBe(
      "in.txt:1:8: expected 5 fields (qid jg jsg docno rel_level), found 4",
    );
    expect(parseError("prefs", "1 u s d 2 9\n")).toBe(
      "in.txt:1:11: expected 5 fields (qid jg jsg docno rel_level), found 6",
    );
    expect(parseError("prefs", "1 u s d .\n")).toBe('in.txt:1:9: rel_level "." is not a number');
  });
});

describe("ZscoresParser", () => {
  it("reads qid measure mean stddev", () => {
    expect(parseOk("zscores", "301 map 0.25 0.1\n301 P_5 1e-1 0\r\n")).toEqual({
      qid: ["301", "301"],
      measure: ["map", "P_5"],
      mean: [0.25, 0.1],
      stddev: [0.1, 0],
      lines: [1, 2],
      length: 2,
    });
  });
  it("names the file, line and column of a bad line", () => {
    expect(parseError("zscores", "301 map 0.25\n")).toBe(
      "in.txt:1:13: expected 4 fields (qid measure mean stddev), found 3",
    );
    expect(parseError("zscores", "301 map x 1\n")).toBe('in.txt:1:9: mean "x" is not a number');
    expect(parseError("zscores", "301 map 1 -\n")).toBe('in.txt:1:11: stddev "-" is not a number');
  });
});
