// The parsers' fast path runs in the kernel (assembly/parse.ts, src/io/kernel-line-parser.ts), in both modes
// (the interner mode is a view of the per-row columns). Both must read every input alike: the same rows
// and numbers, the same errors at the same line and column, however the input is split into chunks.
// Numbers: the kernel's Clinger fast path must give Number()'s double, bit for bit, and leave the
// rest to Number() itself.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InputError, RankevalError } from "../../src/errors/errors.js";
import { docidString, Interner, LetorParser, lineOfRow, QrelsParser, RunParser } from "../../src/io/index.js";
import { parseMeasures } from "../../src/names/resolve.js";
import { explicitOptions } from "../../src/measures/options.js";
import { evaluateBatch } from "../../src/pipeline/evaluate.js";
import { letorBatch, letorRowsBatch } from "../../src/pipeline/letor-batch.js";
import { querySpans, rowHash } from "../../src/io/rows.js";
import { bytes, parseChunks } from "./_helpers.js";
import { runs } from "../_seed.js";

type Kind = "qrels" | "run";

// RANKEVAL_RUNS=20 npx vitest run test/io/kernel-parse.test.ts for a longer search.
const RUNS = runs(300);

/** The per-row (kernel) parse, ids as strings; or the InputError's message. */
function perRow(kind: Kind, chunks: Uint8Array[]): unknown {
  try {
    const qids = new Interner();
    const p =
      kind === "qrels"
        ? new QrelsParser({ file: "in.txt", qids, docids: "per-row" })
        : new RunParser({ file: "in.txt", qids, docids: "per-row" });
    for (const c of chunks) p.push(c);
    const r = p.finish();
    const d = r.docids;
    for (let i = 0; i < r.length; i++) expect(d.hashes[i]).toBe(rowHash(d.bytes, d.offsets[i], d.offsets[i + 1]));
    // The kernel's runs of query ids are the rows' own.
    if ("score" in r) expect(r.spans).toEqual(querySpans(r.qid, r.length));
    const rows = {
      qid: Array.from(r.qid, (q) => qids.stringOf(q)),
      docid: Array.from({ length: r.length }, (_, i) => docidString(d, i)),
      ...("rel" in r ? { rel: Array.from(r.rel) } : { score: Array.from(r.score), runTag: r.runTag }),
      length: r.length,
    };
    return { rows, lines: Array.from({ length: r.length }, (_, i) => lineOfRow(r.lines, i)) };
  } catch (e) {
    if (e instanceof InputError) return { error: e.message };
    throw e;
  }
}

/** The interner mode's parse (the parsers' own fast path): its rows, or its error's message. */
function interned(kind: Kind, b: Uint8Array): unknown {
  try {
    return { rows: parseChunks(kind, [b]) };
  } catch (e) {
    if (e instanceof InputError) return { error: e.message };
    throw e;
  }
}

/** Kernel = interner mode, whole and split in two at `cuts`; returns the kernel's outcome. */
function agree(kind: Kind, text: string | Uint8Array, cuts: number[] = []): unknown {
  const b = typeof text === "string" ? bytes(text) : text;
  const whole = perRow(kind, [b]);
  const other = interned(kind, b);
  const w = whole as { rows?: unknown; error?: string };
  expect(w.error ?? w.rows, JSON.stringify(new TextDecoder().decode(b))).toEqual(
    (other as { rows?: unknown; error?: string }).error ?? (other as { rows: unknown }).rows,
  );
  for (const cut of cuts) {
    const at = Math.floor(cut * (b.length + 1));
    const two = perRow(kind, [b.subarray(0, at), b.subarray(at)]);
    if (JSON.stringify(two) !== JSON.stringify(whole)) expect(two, `split at ${at}`).toEqual(whole);
  }
  return whole;
}

/** Every split in two, and one byte at a time. */
function everySplit(kind: Kind, text: string): unknown {
  const b = bytes(text);
  const whole = agree(kind, b);
  for (let i = 0; i <= b.length; i++) {
    const two = perRow(kind, [b.subarray(0, i), b.subarray(i)]);
    if (JSON.stringify(two) !== JSON.stringify(whole)) expect(two, `split at ${i}`).toEqual(whole);
  }
  const bytewise: Uint8Array[] = [];
  for (let i = 0; i < b.length; i++) bytewise.push(b.subarray(i, i + 1));
  expect(perRow(kind, bytewise), "one byte per chunk").toEqual(whole);
  return whole;
}

// Ids of every length around the kernel's limits: 16-byte loads, the 32- and 64-byte line masks, the
// 64 bytes of a query id it keeps, ids of 1 to 8 bytes hashed from one load, longer ones word by word.
const idChars = "abcXYZ019_-.#\u00e9\u4e2d";
const idArb = fc
  .oneof(
    fc.string({ unit: fc.constantFrom(...idChars), minLength: 1, maxLength: 9 }),
    fc.string({ unit: fc.constantFrom(...idChars), minLength: 10, maxLength: 70 }),
  )
  .filter((s) => !s.startsWith("#"));
const numArb = fc.oneof(
  fc.integer({ min: -20, max: 20 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc
    .double({ noNaN: true, noDefaultInfinity: true, min: -1e4, max: 1e4 })
    .map((d) => d.toFixed(fc.sample(fc.nat(12), 1)[0])),
  fc.constantFrom(
    "0.5",
    "-.25",
    "1.",
    "+3",
    "1e-3",
    "2E+2",
    "-0",
    "0.0",
    "1e22",
    "1e23",
    "9007199254740993",
    "1.5x",
    "inf",
    "nan",
    "--1",
    "1e",
    ".",
    "-",
  ),
);
const sepArb = fc.constantFrom(" ", "\t", "  ", " \t ", "   \t\t");
const eolArb = fc.constantFrom("\n", "\r\n", " \n", "\t\r\n", "\n\n", "\n# comment\n", "\r", "\u0000\n");
const lineArb: Record<Kind, fc.Arbitrary<string>> = {
  qrels: fc
    .tuple(
      idArb,
      sepArb,
      fc.constantFrom("0", "Q0", "iter"),
      sepArb,
      idArb,
      sepArb,
      numArb,
      fc.constantFrom("", "", " extra"),
    )
    .map((p) => p.join("")),
  run: fc
    .tuple(
      idArb,
      sepArb,
      fc.constantFrom("Q0", "0"),
      sepArb,
      idArb,
      sepArb,
      fc.constantFrom("1", "12", "rank"),
      sepArb,
      numArb,
      sepArb,
      idArb,
      fc.constantFrom("", "", "", " extra", "\tmore junk"),
    )
    .map((p) => p.join("")),
};
/** Files of such lines, most of one query after another as files are, with the lines' ends mixed. */
const fileArb = (kind: Kind) =>
  fc.array(fc.tuple(lineArb[kind], eolArb, fc.boolean()), { maxLength: 14 }).map((lines) => {
    let prev = "";
    return lines
      .map(([l, e, same]) => {
        // Repeat the previous line's query id, as files do (the kernel's fast path).
        const q = l.split(/[ \t]/)[0];
        const line = same && prev ? prev + l.slice(q.length) : l;
        prev = line.split(/[ \t]/)[0];
        return line + e;
      })
      .join("");
  });

describe("the kernel's fast path reads what the parsers' own code reads", () => {
  for (const kind of ["qrels", "run"] as const) {
    it(`${kind}: random files (ids up to 70 bytes, UTF-8, tabs, CRLF, extra fields, bad bytes), whole and split`, () => {
      fc.assert(
        fc.property(
          fileArb(kind),
          fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { maxLength: 3 }),
          (text, cuts) => {
            agree(kind, text, cuts);
          },
        ),
        { numRuns: RUNS },
      );
    });
    it(`${kind}: random bytes mutated into valid files`, () => {
      fc.assert(
        fc.property(
          fileArb(kind),
          fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
          (text, edits) => {
            const b = bytes(text);
            for (const [at, byte] of edits) if (b.length) b[at % b.length] = byte;
            agree(kind, b, [0.5]);
          },
        ),
        { numRuns: RUNS },
      );
    });
  }

  it("lines of every length around 32 and 64 bytes, and the ids around 16, with every split", () => {
    for (const len of [1, 7, 8, 9, 15, 16, 17, 20, 24, 31, 32, 33, 40, 47, 48, 49, 63, 64, 65]) {
      const id = "d".repeat(len);
      everySplit("run", `q1 Q0 ${id} 1 0.5 tag\nq1 Q0 x${id} 2 0.25 tag\nq2\tQ0\t${id}\t1\t-1.5e-3\tt\r\n`);
      everySplit("qrels", `q1 0 ${id} 1\nq1 0 x${id} 2\nq${id} 0 ${id} -3\r\n`);
    }
  }, 180_000); // 14 s on a loaded 2-core machine, 60+ s with three other jobs on it

  it("a query id of 64 bytes (kept) and of 65 (the parser's own code), and ids that are prefixes of the last", () => {
    for (const q of ["q".repeat(63), "q".repeat(64), "q".repeat(65), "é".repeat(40)]) {
      expect(
        agree("run", `${q} Q0 a 1 1 R\n${q} Q0 b 2 0.5 R\n${q}x Q0 c 1 1 R\n${q.slice(0, -1)} Q0 d 1 1 R\n`),
      ).toMatchObject({ rows: { length: 4 } });
    }
    expect(everySplit("qrels", "q10 0 a 1\nq1 0 a 1\nq1 0 b 1\nq10 0 b 2\nq100 0 c 0\n")).toMatchObject({
      rows: { qid: ["q10", "q1", "q1", "q10", "q100"] },
    });
  });

  it("errors at the same line and column: a control byte, a bare CR, a missing field, a bad number", () => {
    const cases: [Kind, string][] = [
      ["run", "q1 Q0 a 1 0.5 R\nq1 Q0 b 2 0.4\u0001 R\n"],
      ["run", "q1 Q0 a 1 0.5 R\nq1 Q0 b 2 0.4 R\rq1 Q0 c 3 0.3 R\n"],
      ["run", "q1 Q0 a 1 0.5 R\nq1 Q0 b 2 0.4\n"],
      ["run", "q1 Q0 a 1 0.5 R\nq1 Q0 b 2 0.4e R\n"],
      ["run", `q1 Q0 ${"a".repeat(70)} 1 1e400 R\n`],
      ["qrels", "q1 0 a 1\nq1 0 b 1 2\n"],
      ["qrels", "q1 0 a 1\nq1 0 b x\n"],
      ["qrels", "q1 0 a 1\nq1 0 b\u0000 1\n"],
    ];
    for (const [kind, text] of cases) expect(everySplit(kind, text)).toHaveProperty("error");
  });
});

describe("numbers read in the kernel are Number()'s, bit for bit", () => {
  /** The score the per-row run parser reads from `text`, or its error. */
  function score(text: string): number | string {
    const p = new RunParser({ file: "s.run", qids: new Interner(), docids: "per-row" });
    try {
      p.push(bytes(`q1 Q0 d 1 ${text} R\n`));
      return p.finish().score[0];
    } catch (e) {
      if (e instanceof InputError) return e.message;
      throw e;
    }
  }
  function label(text: string): number | string {
    const p = new QrelsParser({ file: "s.qrels", qids: new Interner(), docids: "per-row" });
    try {
      p.push(bytes(`q1 0 d ${text}\n`));
      return p.finish().rel[0];
    } catch (e) {
      if (e instanceof InputError) return e.message;
      throw e;
    }
  }
  const expected = (text: string): number | "error" => {
    const n = Number(text);
    return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) && Number.isFinite(n) ? n : "error";
  };
  const same = (got: number | string, text: string) => {
    const want = expected(text);
    if (want === "error") expect(typeof got, text).toBe("string");
    else expect(Object.is(got, want), `${text}: ${got} vs ${want}`).toBe(true);
  };

  it("random decimals: digits, fractions, exponents, signs, leading zeros", () => {
    const digits = (max: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: max });
    const decimal = fc
      .tuple(
        fc.constantFrom("", "-", "+"),
        digits(20),
        fc.boolean(),
        digits(20),
        fc.option(fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "-", "+"), digits(4))),
      )
      .map(([s, i, dot, f, e]) => `${s}${i}${dot ? "." : ""}${dot ? f : ""}${e ? e.join("") : ""}`)
      .filter((t) => /\d/.test(t));
    fc.assert(
      fc.property(decimal, (t) => {
        same(score(t), t);
        if (!/[.eE]/.test(t)) same(label(t), t);
      }),
      { numRuns: 20 * RUNS },
    );
  });

  it("doubles printed every way JavaScript prints them", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.nat(20), (d, k) => {
        for (const t of [String(d), d.toExponential(), d.toPrecision(k + 1), d.toFixed(Math.min(k, 20))])
          same(score(t), t);
      }),
      { numRuns: 5 * RUNS },
    );
  });

  it("the edges of the fast path: 2^53, 10^22, 19 digits, subnormals, the largest double, -0", () => {
    const edges = [
      "0",
      "-0",
      "+0",
      "0.0",
      "-0.0",
      "00000000000000000000000001",
      "0.000000000000000000001",
      "1e22",
      "1e23",
      "1e-22",
      "1e-23",
      "9007199254740991",
      "9007199254740992",
      "9007199254740993",
      "18014398509481985",
      "1234567890123456789",
      "12345678901234567890",
      "123456789012345.6789",
      "0.1",
      "0.2",
      "0.3",
      "2.2250738585072014e-308",
      "2.2250738585072011e-308",
      "4.9e-324",
      "5e-324",
      "2e-324",
      "1.7976931348623157e308",
      "1.7976931348623158e308",
      "1.7976931348623159e308",
      "1e308",
      "1e309",
      "123e-330",
      "0e999999",
      "1e-99999",
      ".5",
      "5.",
      "-.5",
      "+.5e-3",
      "9.999999999999999e22",
      "4.35",
      "0.6898301657029192",
      "1e+0",
      "1E-0",
    ];
    for (const t of edges) same(score(t), t);
    for (const t of ["0", "-0", "+7", "-123456789012345", "1234567890123456", "-1234567890123456789", "007"])
      same(label(t), t);
  });
});

describe("LETOR read per row (the kernel's fast path) reads what the interner mode reads", () => {
  /** The per-row parse, ids as strings; or the InputError's message. */
  function letorRows(chunks: Uint8Array[]): unknown {
    try {
      const qids = new Interner();
      const p = new LetorParser({ file: "in.txt", qids, docids: "per-row" });
      for (const c of chunks) p.push(c);
      const r = p.finish();
      const qid: string[] | null = r.spans ? new Array(r.length) : null;
      if (r.spans && qid)
        for (let k = 0; k < r.spans.ids.length; k++)
          qid.fill(qids.stringOf(r.spans.ids[k]), r.spans.starts[k], r.spans.starts[k + 1]);
      const d = r.docids;
      const docid = d
        ? Array.from({ length: r.length }, (_, i) =>
            new TextDecoder().decode(d.bytes.subarray(d.offsets[i], d.offsets[i + 1])),
          )
        : null;
      return {
        rows: { qid, rel: Array.from(r.rel), docid, length: r.length },
        lines: Array.from({ length: r.length }, (_, i) => lineOfRow(r.lines, i)),
      };
    } catch (e) {
      if (e instanceof InputError) return { error: e.message };
      throw e;
    }
  }
  function same(text: string | Uint8Array, cuts: number[] = []): unknown {
    const b = typeof text === "string" ? bytes(text) : text;
    const whole = letorRows([b]) as { rows?: unknown; error?: string };
    let other: { rows?: unknown; error?: string };
    try {
      other = { rows: parseChunks("letor", [b]) };
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      other = { error: e.message };
    }
    expect(whole.error ?? whole.rows, JSON.stringify(new TextDecoder().decode(b))).toEqual(other.error ?? other.rows);
    for (const cut of cuts) {
      const at = Math.floor(cut * (b.length + 1));
      const two = letorRows([b.subarray(0, at), b.subarray(at)]);
      if (JSON.stringify(two) !== JSON.stringify(whole)) expect(two, `split at ${at}`).toEqual(whole);
    }
    return whole;
  }
  const value = fc.oneof(numArb, fc.constantFrom("0.5", "-1.25", "3", "nan", "inf", "1e-3", ".5", "5.", "-0"));
  const feature = fc
    .tuple(fc.oneof(fc.nat(300).map(String), fc.constantFrom("x", "")), value)
    .map(([i, v]) => `${i}:${v}`);
  const lineArbL = fc
    .tuple(
      fc.oneof(fc.integer({ min: -2, max: 4 }).map(String), fc.constantFrom("0.5", "x", "1e1")),
      fc.constantFrom(" qid:", "\tqid:", " qid:", " "),
      idArb,
      fc.array(fc.tuple(sepArb, feature), { maxLength: 8 }),
      fc.oneof(
        fc.constant(""),
        idArb.map((d) => ` #docid = ${d}`),
        idArb.map((d) => `\t# docid=${d} extra words`),
        fc.constant(" # a comment"),
      ),
    )
    .map(
      ([label, q, id, fs, comment]) =>
        `${label}${q}${q === " " ? "" : id}${fs.map(([s, f]) => s + f).join("")}${comment}`,
    );
  const fileArbL = fc.array(fc.tuple(lineArbL, eolArb, fc.boolean()), { maxLength: 12 }).map((lines) => {
    let prev = "";
    return lines
      .map(([l, e, repeat]) => {
        // Most lines repeat the line before's query (the kernel's fast path).
        const line = repeat && prev ? l.replace(/qid:\S*/, prev) : l;
        prev = /qid:\S*/.exec(line)?.[0] ?? prev;
        return line + e;
      })
      .join("");
  });
  it("random files (labels, qid: or none, features of every form, docid comments or none, long lines, bad bytes), whole and split", () => {
    fc.assert(
      fc.property(
        fileArbL,
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { maxLength: 3 }),
        (text, cuts) => {
          same(text, cuts);
        },
      ),
      { numRuns: RUNS },
    );
  });
  it("random bytes mutated into valid files", () => {
    fc.assert(
      fc.property(
        fileArbL,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        (text, edits) => {
          const b = bytes(text);
          for (const [at, byte] of edits) if (b.length) b[at % b.length] = byte;
          same(b, [0.5]);
        },
      ),
      { numRuns: RUNS },
    );
  });
  it("the usual lines, every split: qid and docid, query ids that change, CRLF, a comment line", () => {
    const text =
      "2 qid:1 1:0.5 2:-1.25 #docid = d1\n0 qid:1 1:0 2:3 #docid = d2\r\n# a comment\n1 qid:10 1:.5 #docid = d3\n3 qid:10 5:1 7:2.25 # docid = d4 more\n";
    const b = bytes(text);
    const whole = same(text);
    expect(whole).toMatchObject({ rows: { length: 4 } });
    for (let i = 0; i <= b.length; i++)
      expect(letorRows([b.subarray(0, i), b.subarray(i)]), `split at ${i}`).toEqual(whole);
  });
});

describe("letorRowsBatch: the batch letorBatch makes, from rows read per row", () => {
  it("equals letorBatch's evaluation, and its errors, on random files", () => {
    const line = fc
      .tuple(
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom("q1", "q2", "q10"),
        fc.constantFrom("a", "b", "c", "d", "e"),
      )
      .map(([l, q, d]) => `${l} qid:${q} 1:0.5 #docid = ${d}`);
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 25 }), fc.boolean(), (lines, sorted) => {
        if (sorted)
          lines.sort((a, b) => (a.split(" ")[1] < b.split(" ")[1] ? -1 : a.split(" ")[1] > b.split(" ")[1] ? 1 : 0));
        const text = bytes(lines.join("\n") + "\n");
        const score = Float64Array.from(lines, (_, i) => ((i * 7) % 5) / 4);
        const outcome = (perRow: boolean) => {
          try {
            let batch, qids;
            if (perRow) {
              const p = new LetorParser({ file: "l.txt", qids: new Interner(), docids: "per-row" });
              p.push(text);
              ({ batch, qids } = letorRowsBatch({ data: p.finish(), file: "l.txt", score, scoresFile: "s.txt" }));
            } else {
              const qidNames = new Interner();
              const docidNames = new Interner();
              const p = new LetorParser({ file: "l.txt", qids: qidNames, docids: docidNames });
              p.push(text);
              ({ batch, qids } = letorBatch({
                data: p.finish(),
                file: "l.txt",
                qidNames,
                docidNames,
                score,
                scoresFile: "s.txt",
              }));
            }
            const r = evaluateBatch(
              batch,
              qids,
              parseMeasures("map ndcg@3 mrr"),
              explicitOptions({ ties: "docid" }),
              0,
              0,
            );
            return { qids: r.qids, values: r.values };
          } catch (e) {
            if (e instanceof RankevalError) return { error: e.message };
            throw e;
          }
        };
        expect(outcome(true)).toEqual(outcome(false));
      }),
      { numRuns: RUNS },
    );
  });
});
