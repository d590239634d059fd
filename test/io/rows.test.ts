// The parsers' `docids: "per-row"` mode: the same rows as the interner mode, each with its id's bytes,
// hash and line, for every way of splitting the input.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/errors/errors.js";
import { docidString, Interner, lineOfRow, QrelsParser, RunParser, type RowDocids } from "../../src/io/index.js";
import { rowHash } from "../../src/io/rows.js";
import { bytes, haveShared, parseChunks, sharedPath } from "./_helpers.js";

type Kind = "qrels" | "run";

function perRow(kind: Kind, chunks: Uint8Array[], file = "in.txt"): Record<string, unknown> {
  const qids = new Interner();
  const p =
    kind === "qrels"
      ? new QrelsParser({ file, qids, docids: "per-row" })
      : new RunParser({ file, qids, docids: "per-row" });
  for (const c of chunks) p.push(c);
  const r = p.finish();
  const d: RowDocids = r.docids;
  const docid: string[] = [];
  const lines: number[] = [];
  for (let i = 0; i < r.length; i++) {
    docid.push(docidString(d, i));
    expect(d.hashes[i], `hash of row ${i}`).toBe(rowHash(d.bytes, d.offsets[i], d.offsets[i + 1]));
    lines.push(lineOfRow(r.lines, i));
  }
  expect(d.offsets.length).toBe(r.length + 1);
  expect(r.file).toBe(file);
  expect(r.qidNames).toBe(qids);
  const qid = Array.from(r.qid, (id) => qids.stringOf(id));
  const out: Record<string, unknown> =
    "rel" in r
      ? { qid, docid, rel: Array.from(r.rel), length: r.length }
      : { qid, docid, score: Array.from(r.score), runTag: r.runTag, length: r.length };
  return { ...out, lines };
}

function outcome(kind: Kind, chunks: Uint8Array[]): unknown {
  try {
    return perRow(kind, chunks);
  } catch (e) {
    if (e instanceof InputError) return { error: e.message };
    throw e;
  }
}

/** Per-row results agree across splits, and with the interner mode's rows. */
function check(kind: Kind, text: string): Record<string, unknown> {
  const b = bytes(text);
  const whole = outcome(kind, [b]) as Record<string, unknown>;
  for (let i = 0; i <= b.length; i++) {
    const two = outcome(kind, [b.subarray(0, i), b.subarray(i)]);
    if (JSON.stringify(two) !== JSON.stringify(whole)) expect(two, `split at ${i}`).toEqual(whole);
  }
  const bytewise: Uint8Array[] = [];
  for (let i = 0; i < b.length; i++) bytewise.push(b.subarray(i, i + 1));
  expect(outcome(kind, bytewise), "one byte per chunk").toEqual(whole);
  if (!("error" in whole)) {
    const { lines: _, ...rows } = whole;
    expect(rows).toEqual(parseChunks(kind, [b]));
  }
  return whole;
}

describe("per-row document ids", () => {
  it("qrels: rows, bytes, hashes and lines, through comments, blank lines, CRLF and slow-path lines", () => {
    const r = check("qrels", "# head\n301 0 d1 1\n\n301 0 d2 0\r\n  302\t0 d1  2e0 \n#x\n#y\n302 0 é 3\n302 0 last -1");
    expect(r).toEqual({
      qid: ["301", "301", "302", "302", "302"],
      docid: ["d1", "d2", "d1", "é", "last"],
      rel: [1, 0, 2, 3, -1],
      length: 5,
      lines: [2, 4, 5, 8, 9],
    });
  });

  it("run: rows, bytes, hashes, lines and run tag", () => {
    const r = check("run", "1 Q0 a 1 2.5 t\n\n# c\n1 Q0 b 2 1e0 t extra\r\n2 Q0 a 1 -0.5 u");
    expect(r).toEqual({
      qid: ["1", "1", "2"],
      docid: ["a", "b", "a"],
      score: [2.5, 1, -0.5],
      runTag: "u",
      length: 3,
      lines: [1, 4, 5],
    });
  });

  it("tells apart qids that are prefixes of the previous line's", () => {
    const r = check(
      "run",
      "10 Q0 a 1 1 t\n100 Q0 a 1 1 t\n10\tQ0 b 1 1 t\n1 Q0 c 1 1 t\n10 Q0 d 1 1 t\n10 Q0 e 1 1 t\n",
    );
    expect(r.qid).toEqual(["10", "100", "10", "1", "10", "10"]);
    const q = check("qrels", "ab 0 a 1\nabc 0 a 1\nab 0 b 1\na 0 c 1\nab  0 d 1\nb 0 d 1\n");
    expect(q.qid).toEqual(["ab", "abc", "ab", "a", "ab", "b"]);
  });

  it("keeps long ids and an empty input", () => {
    const long = "x".repeat(300);
    expect(check("run", `q Q0 ${long} 1 1 t\nq Q0 y 2 0 t\n`).docid).toEqual([long, "y"]);
    expect(check("qrels", "")).toEqual({ qid: [], docid: [], rel: [], length: 0, lines: [] });
  });

  it("keeps the errors of the interner mode", () => {
    expect(check("qrels", "1 0 a 1\n1 0 b x\n")).toEqual({ error: 'in.txt:2:7: rel "x" is not a number' });
    expect(check("run", "1 Q0 a 1 1 t\n1 Q0 b 2\n")).toMatchObject({ error: expect.stringMatching(/^in.txt:2:/) });
  });

  it("grows the pool from a small first guess", () => {
    const qids = new Interner();
    const p = new RunParser({ file: "r", qids, docids: "per-row", expectedBytes: 1 });
    const lines: string[] = [];
    for (let i = 0; i < 5000; i++) lines.push(`q${i >> 6} Q0 doc-${i} ${i} ${i / 7} tag`);
    const b = bytes(lines.join("\n"));
    for (let i = 0; i < b.length; i += 999) p.push(b.subarray(i, i + 999));
    const r = p.finish();
    expect(r.length).toBe(5000);
    expect(docidString(r.docids, 4999)).toBe("doc-4999");
    expect(docidString(r.docids, 64)).toBe("doc-64");
    expect(qids.size).toBe(79);
  });

  it("gives the same rows whether expectedBytes is missing, right, too small or far too large", () => {
    const lines: string[] = [];
    for (let i = 0; i < 20000; i++)
      lines.push(`${1000 + (i >> 7)} Q0 D${i >> 7}-${i % 128} ${i % 128} ${(i % 97) / 8} run${i % 3}`);
    const b = bytes(lines.join("\n") + "\n");
    const parse = (expectedBytes?: number) => {
      const p = new RunParser({ file: "r", qids: new Interner(), docids: "per-row", expectedBytes });
      for (let i = 0; i < b.length; i += 40000) p.push(b.subarray(i, i + 40000));
      const r = p.finish();
      return {
        qid: Array.from(r.qid),
        score: Array.from(r.score),
        docid: Array.from({ length: r.length }, (_, i) => docidString(r.docids, i)),
        hashes: Array.from(r.docids.hashes),
        offsets: Array.from(r.docids.offsets),
      };
    };
    const want = parse();
    expect(want.docid[12345]).toBe("D96-57");
    for (const e of [b.length, 100000, 1, 50 * b.length]) expect(parse(e), `expectedBytes ${e}`).toEqual(want);
  });

  for (const [kind, name] of [
    ["qrels", "qrels.txt"],
    ["run", "run.txt"],
  ] as const) {
    it.skipIf(!haveShared("golden", "synthetic-small", name))(
      `${kind}: synthetic-small ${name} as the interner mode reads it`,
      () => {
        const b = new Uint8Array(readFileSync(sharedPath("golden", "synthetic-small", name)));
        const chunks: Uint8Array[] = [];
        for (let i = 0; i < b.length; i += 65537) chunks.push(b.subarray(i, i + 65537));
        const { lines, ...rows } = perRow(kind, chunks);
        expect(rows).toEqual(parseChunks(kind, chunks));
        expect((lines as number[]).every((l, i) => l === i + 1)).toBe(true);
      },
    );
  }
});
