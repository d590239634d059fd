// SubtopicShape, the sniff that tells ndeval's subtopic judgments from a qrels by a document judged
// under two subtopics: it holds lines while all share one subtopic and builds its map only after. Checked
// by hand and against the plain rule it replaced, on random lines.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SubtopicShape } from "../src/pipeline/join-subtopics.js";
import { runs } from "./_seed.js";

/** The rule as first written: split every line, map (query, document) to its first subtopic. */
function plainRule(lines: readonly string[]): boolean {
  const seen = new Map<string, string>();
  for (const line of lines) {
    const f = line.trim().split(/[ \t]+/);
    if (f.length !== 4 || f[0].startsWith("#")) continue;
    const key = `${f[0]}\u0000${f[2]}`;
    const before = seen.get(key);
    if (before !== undefined && before !== f[1]) return true;
    seen.set(key, f[1]);
  }
  return false;
}

function shaped(lines: readonly string[]): boolean {
  const shape = new SubtopicShape();
  for (const line of lines) if (shape.line(line)) break;
  return shape.found;
}

describe("SubtopicShape", () => {
  it("a qrels (one iteration field) is not subtopic judgments, however many lines", () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `q${i % 7} 0 d${i} ${i % 3}`);
    expect(shaped(lines)).toBe(false);
  });

  it("finds a document under a second subtopic, its first judgment among the held lines", () => {
    expect(shaped(["q1 1 d1 1", "q1 1 d2 0", "q1 2 d3 1", "q1 2 d1 0"])).toBe(true);
    // The second subtopic's first line is the repeat itself.
    expect(shaped(["q1 1 d1 1", "q1 1 d2 0", "q1 2 d2 1"])).toBe(true);
    // Two subtopics, no document under both; another query's document of the same name.
    expect(shaped(["q1 1 d1 1", "q1 2 d2 1", "q2 3 d1 1"])).toBe(false);
  });

  it("splits as trim().split(/[ \\t]+/): tabs, runs of blanks, ends trimmed; comments and other widths skipped", () => {
    expect(shaped(["  q1\t1  d1 1\r", "q1 \t 2\td1\t0  "])).toBe(true);
    expect(shaped(["# q1 1 d1 1", "q1 2 d1 1"])).toBe(false);
    expect(shaped(["q1 1 d1 1 extra", "q1 2 d1 1"])).toBe(false);
    expect(shaped(["q1 1 d1", "q1 2 d1 1", "", "q1 1 d1 1"])).toBe(true);
    expect(shaped(["\u00a0q1 1 d1 1", "q1 2 d1 1\u00a0"])).toBe(true);
  });

  it("equals the plain rule on random lines", () => {
    const field = fc.constantFrom("q1", "q2", "0", "1", "2", "d1", "d2", "#", "#q1");
    const blank = fc.constantFrom(" ", "\t", "  ", " \t", "\u00a0");
    const line = fc
      .tuple(fc.array(fc.tuple(field, blank), { minLength: 0, maxLength: 5 }), blank, fc.boolean())
      .map(([parts, edge, padded]) => {
        const text = parts.map(([f, b], i) => (i === 0 ? f : b + f)).join("");
        return padded ? edge + text + edge : text;
      });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        expect(shaped(lines)).toBe(plainRule(lines));
      }),
      { numRuns: runs(2000) },
    );
  });
});
