import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvField, csvRecord, csvRecords } from "../../src/output/csv.js";

/** The records of a text read as it streams in two pieces split at `at`. */
function streamed(text: string, at: number): string[][] {
  const out: string[][] = [];
  let rest = "";
  for (const [piece, final] of [
    [text.slice(0, at), false],
    [text.slice(at), true],
  ] as const) {
    const all = rest + piece;
    let start = 0;
    for (let r; start < all.length && (r = csvRecord(all, start, final)); start = r.next) out.push(r.fields);
    rest = all.slice(start);
  }
  return out;
}

describe("CSV", () => {
  it("quotes a field holding a comma, a quote, CR or LF, or starting with '#'", () => {
    expect(["a", "a,b", 'a"b', "a\rb", "a\nb", "#a", "a#", ""].map(csvField)).toEqual([
      "a",
      '"a,b"',
      '"a""b"',
      '"a\rb"',
      '"a\nb"',
      '"#a"',
      "a#",
      "",
    ]);
  });

  it("reads back what it writes, whole or split anywhere, with LF or CRLF", () => {
    const field = fc.string({ unit: fc.constantFrom("a", ",", '"', "\r", "\n", "#", "é", " ") });
    fc.assert(
      fc.property(
        fc.array(fc.array(field, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        fc.nat(),
        (rows, crlf, cut) => {
          const text = rows.map((r) => r.map(csvField).join(",")).join(crlf ? "\r\n" : "\n") + "\n";
          expect([...csvRecords(text)].map((r) => r.fields)).toEqual(rows);
          expect(streamed(text, cut % (text.length + 1))).toEqual(rows);
        },
      ),
    );
  });

  it("numbers records by their first line, skips blank lines, and names the line of a bad one", () => {
    expect([...csvRecords('a,"b\nc"\n\nd,e\n')]).toEqual([
      { fields: ["a", "b\nc"], line: 1 },
      { fields: ["d", "e"], line: 4 },
    ]);
    expect(() => [...csvRecords('a,b\n"c\n')]).toThrow("line 2: a quoted field is not closed");
    expect(() => [...csvRecords('a,"b"c\n')]).toThrow(
      "line 1: expected ',' or the end of the line after a quoted field",
    );
    expect(csvRecord('a,"b', 0, false)).toBeNull();
    expect(csvRecord('a,b"c\n', 0, false)).toEqual({ fields: ["a", 'b"c'], next: 6, lines: 1 });
  });
});
