// Property tests: random bytes and mutated valid inputs never make a parser throw anything but an
// InputError, never hang, and give the same outcome however the input is split into chunks; valid
// generated inputs parse to what a naive string-splitting reader gives.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { KINDS, type Kind, bytes, outcome, parseChunks } from "./_helpers.js";
import { mutate, mutationArb, splitAt } from "./_formats.js";
import { runs } from "../_seed.js";

// RANKEVAL_RUNS=20 npx vitest run test/io/fuzz.test.ts for a longer search.
const RUNS = runs(300);

const cutsArb = fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { maxLength: 4 });

/** Bytes that matter to the parsers, so mutations hit the interesting cases often. */
const INTERESTING = [..." \t\n\r#0123456789.eE+-:=qidoc ,xnaNIf", "\u0000", "\u0001", "\u001f", "\u007f"]
  .map((c) => c.charCodeAt(0))
  .concat([0xef, 0xbb, 0xbf, 0x8b, 0xc3, 0xa9, 0xff]);
const byteArb = fc.oneof(fc.constantFrom(...INTERESTING), fc.integer({ min: 0, max: 255 }));

/** Valid lines of each format (with blanks, comments and CRLF mixed in). */
const token = fc.stringMatching(/^[A-Za-z0-9_\-#.]{1,8}$/).filter((s) => !s.startsWith("#"));
const num = fc.oneof(
  fc.integer({ min: -5, max: 5 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => d.toExponential(6)),
  fc.constantFrom("0.5", "-.25", "1.", "+3", "1e-3", "2E+2", "0.6898301657029192"),
);
const sep = fc.constantFrom(" ", "\t", "  ", " \t ");
const eol = fc.constantFrom("\n", "\r\n", " \n", "\t\r\n");
const extra = fc.constantFrom("", "\n", "# comment\n", "   \n", "\t# x y\r\n");

function fileOf(lineArb: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(fc.boolean(), fc.array(fc.tuple(extra, lineArb, eol), { maxLength: 12 }), fc.boolean())
    .map(([bom, lines, dropLastEol]) => {
      let s = (bom ? "\uFEFF" : "") + lines.map(([x, l, e]) => x + l + e).join("");
      if (dropLastEol && s.endsWith("\n")) s = s.slice(0, s.endsWith("\r\n") ? -2 : -1);
      return s;
    });
}

const VALID: Record<Kind, fc.Arbitrary<string>> = {
  qrels: fileOf(fc.tuple(token, sep, token, sep, token, sep, num).map((p) => p.join(""))),
  run: fileOf(
    fc
      .tuple(
        token,
        sep,
        token,
        sep,
        token,
        sep,
        token,
        sep,
        num,
        sep,
        token,
        fc.constantFrom("", " junk", "\tmore junk"),
      )
      .map((p) => p.join("")),
  ),
  letor: fc.oneof(
    fileOf(fc.tuple(num, token, token).map(([l, q, d]) => `${l} qid:${q} 1:0.5 2:${l} #docid = ${d}`)),
    fileOf(fc.tuple(num, fc.nat(9)).map(([l, k]) => `${l}${" 3:1".repeat(k)}`)),
  ),
  scores: fileOf(num),
  group: fileOf(fc.integer({ min: 1, max: 100000 }).map(String)),
  "group-qrels": fileOf(fc.tuple(token, sep, token, sep, token, sep, num).map((p) => p.join(""))),
  prefs: fileOf(fc.tuple(token, sep, token, sep, token, sep, token, sep, num).map((p) => p.join(""))),
  zscores: fileOf(fc.tuple(token, sep, token, sep, num, sep, num).map((p) => p.join(""))),
};

/** A naive reader of the same formats (strings and regular expressions), for valid inputs only. */
function naive(kind: Kind, text: string): Record<string, unknown> {
  const lines = text
    .replace(/^\uFEFF/, "")
    .split("\n")
    .map((l) => l.replace(/\r$/, ""))
    .filter((l) => l.trim() !== "" && !l.trim().startsWith("#"));
  const fields = lines.map((l) => l.trim().split(/[ \t]+/));
  switch (kind) {
    case "qrels":
      return {
        qid: fields.map((f) => f[0]),
        docid: fields.map((f) => f[2]),
        rel: fields.map((f) => Number(f[3])),
        length: lines.length,
      };
    case "run":
      return {
        qid: fields.map((f) => f[0]),
        docid: fields.map((f) => f[2]),
        score: fields.map((f) => Number(f[4])),
        runTag: fields.length ? fields[fields.length - 1][5] : "",
        length: lines.length,
      };
    case "letor": {
      const withQid = lines.length > 0 && lines[0].includes("qid:");
      const body = lines.map((l) =>
        l
          .split("#")[0]
          .trim()
          .split(/[ \t]+/),
      );
      return {
        qid: withQid ? body.map((f) => f[1].slice(4)) : null,
        rel: body.map((f) => Number(f[0])),
        docid: withQid ? lines.map((l) => /docid = (\S+)/.exec(l)![1]) : null,
        length: lines.length,
      };
    }
    case "scores":
      return { score: fields.map((f) => Number(f[f.length - 1])) };
    case "group":
      return { size: fields.map((f) => Number(f[0])) };
    case "group-qrels":
      return {
        qid: fields.map((f) => f[0]),
        group: fields.map((f) => f[1]),
        docno: fields.map((f) => f[2]),
        value: fields.map((f) => Number(f[3])),
        long: fields.map((f) => {
          const m = /^[+-]?\d*/.exec(f[3])![0];
          const v = Number(m.replace(/^[+-]$/, "0") || "0");
          return v === 0 ? 0 : v;
        }),
        lines: lineNumbers(text),
        length: lines.length,
      };
    case "prefs":
      return {
        qid: fields.map((f) => f[0]),
        jg: fields.map((f) => f[1]),
        jsg: fields.map((f) => f[2]),
        docno: fields.map((f) => f[3]),
        rel: fields.map((f) => Number(f[4])),
        lines: lineNumbers(text),
        length: lines.length,
      };
    case "zscores":
      return {
        qid: fields.map((f) => f[0]),
        measure: fields.map((f) => f[1]),
        mean: fields.map((f) => Number(f[2])),
        stddev: fields.map((f) => Number(f[3])),
        lines: lineNumbers(text),
        length: lines.length,
      };
  }
}

/** The 1-based numbers of the lines that are neither blank nor comments. */
function lineNumbers(text: string): number[] {
  const out: number[] = [];
  text
    .replace(/^\uFEFF/, "")
    .split("\n")
    .forEach((l, i) => {
      const t = l.replace(/\r$/, "").trim();
      if (t !== "" && !t.startsWith("#")) out.push(i + 1);
    });
  return out;
}

describe("fuzz", () => {
  for (const kind of KINDS) {
    describe(kind, () => {
      it("random bytes: a result or an InputError, the same for any chunking", () => {
        fc.assert(
          fc.property(fc.uint8Array({ maxLength: 300 }), cutsArb, (b, cuts) => {
            const whole = outcome(kind, [b]);
            expect(outcome(kind, splitAt(b, cuts))).toEqual(whole);
          }),
          { numRuns: RUNS },
        );
      });

      it("random bytes from the formats' alphabet", () => {
        fc.assert(
          fc.property(fc.array(byteArb, { maxLength: 300 }), cutsArb, (arr, cuts) => {
            const b = Uint8Array.from(arr);
            expect(outcome(kind, splitAt(b, cuts))).toEqual(outcome(kind, [b]));
          }),
          { numRuns: RUNS },
        );
      });

      it("valid inputs parse like a naive reader, however chunked", () => {
        fc.assert(
          fc.property(VALID[kind], cutsArb, (text, cuts) => {
            const expected = naive(kind, text);
            expect(parseChunks(kind, [bytes(text)])).toEqual(expected);
            expect(parseChunks(kind, splitAt(bytes(text), cuts))).toEqual(expected);
          }),
          { numRuns: RUNS },
        );
      });

      it("mutated valid inputs: a result or an InputError, the same for any chunking", () => {
        const mutation = mutationArb(byteArb);
        fc.assert(
          fc.property(VALID[kind], fc.array(mutation, { minLength: 1, maxLength: 4 }), cutsArb, (text, muts, cuts) => {
            const mutated = mutate(text, muts);
            expect(outcome(kind, splitAt(mutated, cuts))).toEqual(outcome(kind, [mutated]));
          }),
          { numRuns: RUNS },
        );
      });
    });
  }

  it("numbers: the fast path and the fallback agree with Number() (and so with strtod)", () => {
    const formats = [
      (d: number) => String(d),
      (d: number) => d.toExponential(),
      (d: number) => d.toExponential(3),
      (d: number) => d.toPrecision(17),
      (d: number) => d.toFixed(Math.min(20, Math.max(0, 20 - Math.round(Math.log10(Math.abs(d) + 1))))),
    ];
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.nat(formats.length - 1)), {
          minLength: 1,
          maxLength: 50,
        }),
        (vals) => {
          const texts = vals
            .map(([d, f]) => formats[f](d))
            .filter((t) => !/e\+?[0-9]{3}/.test(t) || Number.isFinite(Number(t)));
          const got = parseChunks("scores", [bytes(texts.join("\n"))]).score as number[];
          expect(got.map((v) => (Object.is(v, -0) ? "-0" : v))).toEqual(
            texts.map((t) => (Object.is(Number(t), -0) ? "-0" : Number(t))),
          );
        },
      ),
      { numRuns: RUNS },
    );
  });
});
