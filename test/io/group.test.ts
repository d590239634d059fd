import { describe, expect, it } from "vitest";
import { parseError, parseOk } from "./_helpers.js";

describe("GroupParser", () => {
  it("reads one group size per line", () => {
    expect(parseOk("group", "12\n19\n18\n")).toEqual({ size: [12, 19, 18] });
  });
  it("accepts blanks, CRLF, a BOM, comments, blank lines, no final newline", () => {
    expect(parseOk("group", "\uFEFF# sizes\r\n 3 \r\n\r\n2147483647")).toEqual({ size: [3, 2147483647] });
  });
  it("treats an empty input as no groups", () => {
    expect(parseOk("group", "")).toEqual({ size: [] });
  });
  it("rejects what is not a positive integer, and extra fields", () => {
    expect(parseError("group", "3\n0\n")).toBe('in.txt:2:1: group size "0" is not a positive integer');
    expect(parseError("group", "-3\n")).toBe('in.txt:1:1: group size "-3" is not a positive integer');
    expect(parseError("group", "2.5\n")).toBe('in.txt:1:1: group size "2.5" is not a positive integer');
    expect(parseError("group", "2147483648\n")).toBe('in.txt:1:1: group size "2147483648" is not a positive integer');
    expect(parseError("group", "x\n")).toBe('in.txt:1:1: group size "x" is not a positive integer');
    expect(parseError("group", "3 4\n")).toBe("in.txt:1:3: expected 1 field (group size), found 2");
  });
});
