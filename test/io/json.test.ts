// The JSON qrels/run parser (ranx / pytrec_eval shape): rows, lines, escapes, numbers and every error,
// for every way of splitting the input into chunks; fuzzed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/errors/errors.js";
import { Interner } from "../../src/io/interner.js";
import { JsonParser } from "../../src/io/json.js";
import { lineOfRow } from "../../src/io/rows.js";
import { QrelsParser } from "../../src/io/qrels.js";
import { RunParser } from "../../src/io/run.js";
import { joinParsed } from "../../src/pipeline/join-rows.js";
import { bytes, outcome, parseError, parseOk, parseRows, splitAt, mutate, mutationArb } from "./_formats.js";
import { runs } from "../_seed.js";

const RUNS = runs(300);
const ok = (input: string, kind: "run" | "qrels" = "run") => parseOk("json", kind, input);
const error = (input: string, kind: "run" | "qrels" = "run") => parseError("json", kind, input);

describe("JSON qrels and runs", () => {
  it("reads a run: rows in file order, each document's line, the run tag given", () => {
    expect(ok('{"q1": {"d1": 12.5, "d2": 9.1},\n "q2": {\n  "d1": -3e-1\n }}')).toEqual({
      qid: ["q1", "q1", "q2"],
      docid: ["d1", "d2", "d1"],
      score: [12.5, 9.1, -0.3],
      runTag: "t",
      lines: [1, 1, 3],
    });
  });

  it("reads qrels", () => {
    expect(ok('{ "301": { "d1": 1, "d3": 2, "d9": 0 } }', "qrels")).toEqual({
      qid: ["301", "301", "301"],
      docid: ["d1", "d3", "d9"],
      rel: [1, 2, 0],
      lines: [1, 1, 1],
    });
  });

  it("takes whitespace anywhere between tokens, CRLF, a BOM, empty objects", () => {
    expect(ok('\uFEFF \r\n{\t"q"\r\n:\n{ "a" :1 ,"b":\t2\r\n}\n,"e":{}\n}\r\n \n')).toEqual({
      qid: ["q", "q"],
      docid: ["a", "b"],
      score: [1, 2],
      runTag: "t",
      lines: [4, 4],
    });
    expect(ok("{}")).toEqual({ qid: [], docid: [], score: [], runTag: "t", lines: [] });
    expect(ok(' { "q" : { } } ')).toMatchObject({ qid: [] });
  });

  it("resolves every string escape, \\uXXXX and surrogate pairs, to UTF-8; raw UTF-8 is kept", () => {
    const r = ok(
      String.raw`{"q\u00E9\/": {"\"\\\b\f\n\r\t": 1, "\ud83d\ude00x": 2, "😀y": 3, "\u0041\u00df\u4e2d": 4}}`,
    );
    expect(r.qid).toEqual(["qé/", "qé/", "qé/", "qé/"]);
    expect(r.docid).toEqual(['"\\\b\f\n\r\t', "😀x", "😀y", "Aß中"]);
  });

  it("a surrogate pair escaped is the same id as the character raw (so a duplicate)", () => {
    expect(error(String.raw`{"q": {"😀": 1, "\uD83D\uDE00": 2}}`)).toBe(
      'in.json:1:19: document "😀" appears twice for query "q"',
    );
  });

  it("reads numbers in JSON's syntax", () => {
    const r = ok(
      '{"q": {"a": 0, "b": -0, "c": 1e2, "d": 1E-2, "e": -1.5e+3, "f": 0.1, "g": 123456789012345678901234567890, "h": 2.5E0}}',
    );
    expect(r.score).toEqual([0, -0, 100, 0.01, -1500, 0.1, 1.2345678901234568e29, 2.5]);
  });

  it("says what is wrong, and where", () => {
    const cases: [string, string][] = [
      ["", "in.json:1:1: expected '{', found the end of the file"],
      ["[]", "in.json:1:1: expected '{', found '['"],
      ["\uFEFF x", "in.json:1:2: expected '{', found 'x'"],
      ["\xEF", "in.json:1:1: expected '{', found byte 0xC3"],
      ['{"q1": {"d1": true}}', `in.json:1:15: expected a number for document "d1" of query "q1", found 't'`],
      ['{"q1": {"d1": "1"}}', `in.json:1:15: expected a number for document "d1" of query "q1", found '"'`],
      ['{"q1": {"d1": NaN}}', `in.json:1:15: expected a number for document "d1" of query "q1", found 'N'`],
      ['{"q1": {"d1": 01}}', `in.json:1:15: expected a number for document "d1" of query "q1", found "01"`],
      ['{"q1": {"d1": 1.}}', `in.json:1:15: expected a number for document "d1" of query "q1", found "1."`],
      ['{"q1": {"d1": .5}}', `in.json:1:15: expected a number for document "d1" of query "q1", found '.'`],
      ['{"q1": {"d1": +1}}', `in.json:1:15: expected a number for document "d1" of query "q1", found '+'`],
      ['{"q1": {"d1": 1e}}', `in.json:1:15: expected a number for document "d1" of query "q1", found "1e"`],
      ['{"q1": {"d1": -}}', `in.json:1:15: expected a number for document "d1" of query "q1", found "-"`],
      ['{"q1": {"d1": 1-2}}', `in.json:1:15: expected a number for document "d1" of query "q1", found "1-2"`],
      ['{"q1": {"d1": 1e999}}', `in.json:1:15: the number "1e999" for document "d1" of query "q1" is not finite`],
      ['{"q1": {"d1": 1,\n "d2": 2, "d1": 3}}', `in.json:2:11: document "d1" appears twice for query "q1"`],
      ['{"q1": {"d1": 1}, "q2": {}, "q1": {"d2": 1}}', `in.json:1:29: query "q1" appears twice`],
      ['{"q1": {"d1": 1}} x', "in.json:1:19: expected the end of the file after the JSON object, found 'x'"],
      ['{"q1": {"d1": 1}}{}', "in.json:1:18: expected the end of the file after the JSON object, found '{'"],
      [
        '{"q1": {"d1": 1',
        `in.json:1:16: expected ',' or '}' after document "d1" of query "q1", found the end of the file`,
      ],
      ['{"q1": {"d1": 1,}}', `in.json:1:17: expected a document id (a string) in query "q1", found '}'`],
      ['{"q1": {"d1": 1},}', "in.json:1:18: expected a query id (a string), found '}'"],
      ['{"q1": {"d1": 1} "q2"', `in.json:1:18: expected ',' or '}' after the documents of query "q1", found '"'`],
      ['{"q1": {"d1" 1}}', `in.json:1:14: expected ':' after document "d1" of query "q1", found '1'`],
      ['{"q1" {', `in.json:1:7: expected ':' after query "q1", found '{'`],
      ['{"q1": [1]}', `in.json:1:8: expected '{' (the documents of query "q1"), found '['`],
      ['{"q1": {d1: 1}}', `in.json:1:9: expected a document id (a string) or '}' in query "q1", found 'd'`],
      ["{q1: 1}", "in.json:1:2: expected a query id (a string) or '}', found 'q'"],
      [
        '{"q1": {"d1',
        `in.json:1:12: expected the closing '"' of a document id of query "q1", found the end of the file`,
      ],
      ['{"q\n1": {}}', "in.json:1:4: a query id is not closed: a line ends inside it"],
      ['{"q\t1": {}}', "in.json:1:4: control character byte 0x09 in a query id: write it as an escape"],
      ['{"q\\x": {}}', "in.json:1:5: invalid escape '\\x' in a query id"],
      ['{"q\\u12G4": {}}', "in.json:1:8: expected 4 hex digits after \\u in a query id, found 'G'"],
      ['{"q\\uD83D": {}}', "in.json:1:10: unpaired surrogate \\uD83D in a query id"],
      ['{"q\\uD83Dx": {}}', "in.json:1:10: unpaired surrogate \\uD83D in a query id"],
      ['{"q\\uD83D\\n": {}}', "in.json:1:11: unpaired surrogate \\uD83D in a query id"],
      ['{"q\\uD83D\\u0041": {}}', "in.json:1:15: unpaired surrogate \\uD83D in a query id"],
      ['{"q\\uDE00": {}}', "in.json:1:9: unpaired surrogate \\uDE00 in a query id"],
      ["{\n\n  \x00", "in.json:3:3: file is not text (NUL byte at byte offset 5)"],
    ];
    for (const [input, message] of cases) expect(error(input), JSON.stringify(input)).toBe(message);
  });

  it("names a long id shortened", () => {
    const long = "x".repeat(50);
    expect(error(`{"${long}": {"d": true}}`)).toBe(
      `in.json:1:62: expected a number for document "d" of query "${"x".repeat(40)}…", found 't'`,
    );
  });

  it("keeps ids longer than any buffer, split anywhere", () => {
    const long = "é".repeat(400);
    const r = parseRows("json", "run", splitAt(bytes(`{"q": {"${long}": 1, "${long}2": 2}}`), [0.1, 0.3, 0.5, 0.7]));
    expect(r.docid).toEqual([long, `${long}2`]);
  });

  it("throws the first error again after it, and refuses push after finish", () => {
    const p = new JsonParser({ file: "x.json", qids: new Interner(), kind: "run" });
    expect(() => p.push(bytes("["))).toThrow(InputError);
    expect(() => p.push(bytes("{"))).toThrow("x.json:1:1: expected '{', found '['");
    expect(() => p.finish()).toThrow("x.json:1:1: expected '{', found '['");
    const q = new JsonParser({ file: "x.json", qids: new Interner(), kind: "run" });
    q.push(bytes("{}"));
    q.finish();
    expect(() => q.push(bytes(" "))).toThrow(/push\(\) after finish/);
  });

  it("many rows on one line: lines stay exact and the pool grows from a small guess", () => {
    const docs = Array.from({ length: 20000 }, (_, i) => `"doc-${i}": ${i / 8}`);
    const text = `{"a": {${docs.slice(0, 10000).join(",")}},\n"b": {${docs.slice(10000).join(",")}}}`;
    const p = new JsonParser({ file: "big.json", qids: new Interner(), kind: "run", expectedBytes: 10 });
    const b = bytes(text);
    for (let i = 0; i < b.length; i += 4099) p.push(b.subarray(i, i + 4099));
    const r = p.finish();
    expect(r.length).toBe(20000);
    expect(r.score[12345]).toBe(12345 / 8);
    expect(lineOfRow(r.lines, 0)).toBe(1);
    expect(lineOfRow(r.lines, 9999)).toBe(1);
    expect(lineOfRow(r.lines, 10000)).toBe(2);
    expect(lineOfRow(r.lines, 19999)).toBe(2);
  });

  it("joins like the same qrels and run as TREC text", () => {
    const qids = new Interner();
    const jq = new JsonParser({ file: "q.json", qids, kind: "qrels" });
    jq.push(bytes('{"q1": {"d1": 1, "d2": 0, "d3": 2}, "q2": {"d1": 1}}'));
    const jr = new JsonParser({ file: "r.json", qids, kind: "run", runTag: "r" });
    jr.push(bytes('{"q2": {"d1": 0.5}, "q1": {"d1": 0.9, "d2": 0.8, "d4": 0.7}}'));
    const fromJson = joinParsed(jq.finish(), jr.finish());
    const tq = new Interner();
    const q = new QrelsParser({ file: "q", qids: tq, docids: "per-row" });
    q.push(bytes("q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d1 1\n"));
    const r = new RunParser({ file: "r", qids: tq, docids: "per-row" });
    r.push(bytes("q2 Q0 d1 1 0.5 r\nq1 Q0 d1 1 0.9 r\nq1 Q0 d2 2 0.8 r\nq1 Q0 d4 3 0.7 r\n"));
    const fromTrec = joinParsed(q.finish(), r.finish());
    expect(fromJson.qids).toEqual(fromTrec.qids);
    expect(fromJson.runTag).toBe("r");
    expect(JSON.stringify(fromJson.batch)).toBe(JSON.stringify(fromTrec.batch));
  });
});

/** Escapes characters of s as \uXXXX where `mask` says so (astral characters as surrogate pairs). */
function encodeId(s: string, mask: number): string {
  let out = '"';
  let i = 0;
  for (const ch of s) {
    const code = ch.charCodeAt(0);
    if ((mask >> (i++ % 30)) & 1 || code < 32 || ch === '"' || ch === "\\") {
      for (const unit of ch.split("")) out += `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`;
    } else out += ch;
  }
  return `${out}"`;
}

const ws = fc.constantFrom("", " ", "\n", "\r\n", "\t", "  \n ");
const id = fc.string({
  unit: fc.oneof(
    fc.constantFrom("a", "b", "1", "é", "😀", '"', "\\", "\n", "/"),
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
  ),
  maxLength: 6,
});
const num = fc.oneof(
  fc.integer({ min: -5, max: 5 }).map((n) => [String(n), n] as const),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => [String(d), Object.is(d, -0) ? 0 : d] as const),
  fc
    .double({ noNaN: true, noDefaultInfinity: true })
    .map((d) => [d.toExponential(5).replace("e+", "E"), Number(d.toExponential(5))] as const),
);
const query = fc.tuple(
  id,
  fc.uniqueArray(fc.tuple(id, num, fc.nat()), { selector: (t) => t[0], maxLength: 5 }),
  fc.nat(),
);
const doc = fc.uniqueArray(query, { selector: (q) => q[0], maxLength: 5 });
const validJson = fc.tuple(doc, fc.array(ws, { minLength: 12, maxLength: 12 })).map(([queries, w]) => {
  let text = `${w[0]}{${w[1]}`;
  const want = { qid: [] as string[], docid: [] as string[], score: [] as number[] };
  text += queries
    .map(([q, docs, qm]) => {
      const body = docs.map(([d, [numText, v], dm]) => {
        want.qid.push(q);
        want.docid.push(d);
        want.score.push(v);
        return `${w[2]}${encodeId(d, dm)}${w[3]}:${w[4]}${numText}${w[5]}`;
      });
      return `${encodeId(q, qm)}${w[6]}:${w[7]}{${body.join(",")}${w[8]}}${w[9]}`;
    })
    .join(",");
  return { text: `${text}}${w[10]}`, want };
});
const cuts = fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { maxLength: 4 });
const ALPHABET = [...'{}[]:,"\\u0123456789abcdefDE-+.eE \t\r\n']
  .map((c) => c.charCodeAt(0))
  .concat([0, 0xef, 0xbb, 0xbf, 0xc3, 0xa9]);
const byteArb = fc.oneof(fc.constantFrom(...ALPHABET), fc.integer({ min: 0, max: 255 }));

describe("JSON fuzz", () => {
  const same = (b: Uint8Array, c: number[]) => {
    const whole = outcome("json", "run", [b]);
    expect(outcome("json", "run", splitAt(b, c))).toEqual(whole);
  };

  it("random bytes: a result or an InputError, the same for any chunking", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), cuts, same), { numRuns: RUNS });
    fc.assert(
      fc.property(fc.array(byteArb, { maxLength: 200 }), cuts, (a, c) => same(Uint8Array.from(a), c)),
      { numRuns: RUNS },
    );
  });

  it("valid files parse to what was written, however chunked", () => {
    fc.assert(
      fc.property(validJson, cuts, ({ text, want }, c) => {
        const b = bytes(text);
        const got = parseRows("json", "run", splitAt(b, c));
        expect({ qid: got.qid, docid: got.docid, score: got.score }).toEqual(want);
        expect(JSON.parse(text)).toBeTypeOf("object"); // the generator writes real JSON
      }),
      { numRuns: RUNS },
    );
  });

  it("mutated valid files: a result or an InputError, the same for any chunking", () => {
    const mutation = mutationArb(byteArb);
    fc.assert(
      fc.property(validJson, fc.array(mutation, { minLength: 1, maxLength: 4 }), cuts, ({ text }, muts, c) => {
        const mutated = mutate(text, muts);
        same(mutated, c);
      }),
      { numRuns: RUNS },
    );
  });
});
