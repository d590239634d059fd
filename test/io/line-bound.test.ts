// Every line reader bounds a line (MAX_LINE_BYTES) and looks at an unfinished line's bytes as they come:
// an endless line, binary bytes or a binary format's file fail at once, however the input is cut, and
// the error is the one the whole line would give.
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/errors/errors.js";
import { MAX_LINE_BYTES } from "../../src/io/line-parser.js";
import { Interner } from "../../src/io/interner.js";
import { QrelsParser } from "../../src/io/qrels.js";
import { RunParser } from "../../src/io/run.js";
import { bytes, KINDS, outcome, parseError, parseOk, type Kind } from "./_helpers.js";
import { outcome as rowsOutcome, parseError as rowsError } from "./_formats.js";

const MiB = 1 << 20;

/** `total` bytes of `fill` after `prefix`, in chunks of `chunk` bytes (one chunk: 0). */
function endless(prefix: string, total: number, chunk: number, fill = 0x61): Uint8Array[] {
  const all = new Uint8Array(total).fill(fill);
  all.set(bytes(prefix));
  if (chunk === 0) return [all];
  const out: Uint8Array[] = [];
  for (let at = 0; at < total; at += chunk) out.push(all.subarray(at, at + chunk));
  return out;
}

/** A valid first line of each line format, so that the long line is the second. */
const FIRST: Record<Kind, string> = {
  qrels: "q1 0 d1 1\n",
  run: "q1 Q0 d1 1 0.5 t\n",
  letor: "1 qid:1 1:0.5\n",
  scores: "0.5\n",
  group: "3\n",
  "group-qrels": "q1 g1 d1 1\n",
  prefs: "q1 g1 s1 d1 1\n",
  zscores: "q1 map 0.5 0.1\n",
};

describe("a line longer than MAX_LINE_BYTES (64 MiB)", () => {
  it("is the documented 64 MiB", () => {
    expect(MAX_LINE_BYTES).toBe(64 * MiB);
  });

  it.each(KINDS)("%s: refused at the byte past the bound, cut in chunks or given whole", (kind) => {
    const total = FIRST[kind].length + MAX_LINE_BYTES + 3;
    const message = `in.txt:2:${MAX_LINE_BYTES + 1}: the line is longer than 64 MiB (from byte offset ${FIRST[kind].length}), the most a line may hold: is the file text?`;
    expect(outcome(kind, endless(FIRST[kind], total, 4 * MiB))).toEqual({ error: message });
    if (kind === "qrels" || kind === "run") {
      // Whole in one chunk (with lines after it), and cut where the bound falls.
      const whole = endless(FIRST[kind], total + 20, 0)[0];
      whole.set(bytes(`\n${FIRST[kind]}`), total);
      expect(outcome(kind, [whole])).toEqual({ error: message });
      const at = FIRST[kind].length + MAX_LINE_BYTES;
      expect(outcome(kind, [whole.subarray(0, at), whole.subarray(at)])).toEqual({ error: message });
    }
  });

  it("a line of exactly 64 MiB is read (a comment), one byte more is not", () => {
    for (const extra of [0, 1]) {
      const input = new Uint8Array(MAX_LINE_BYTES + extra + 20).fill(0x61);
      input[0] = 0x23; // '#'
      const tail = bytes("\nq1 0 d1 1\n");
      input.set(tail, input.length - tail.length);
      const chunks = [input.subarray(0, 3 * MiB), input.subarray(3 * MiB)];
      const expected = MAX_LINE_BYTES + extra + 20 - tail.length;
      const o = outcome("qrels", chunks);
      if (expected <= MAX_LINE_BYTES) expect(o).toMatchObject({ ok: { length: 1 } });
      else expect(o).toEqual({ error: expect.stringMatching(/^in\.txt:1:67108865: the line is longer than 64 MiB/) });
    }
  });

  it("JSON: an id or a number past the bound", () => {
    const id = rowsOutcome("json", "run", endless('{"q1": {"', MAX_LINE_BYTES + 16, 8 * MiB));
    expect(id).toEqual({
      error:
        'in.json:1:9: a document id of query "q1" is longer than 64 MiB (from byte offset 8), the most a line may hold: is the file text?',
    });
    const number = rowsOutcome("json", "run", endless('{"q1": {"d": 1', MAX_LINE_BYTES + 16, 8 * MiB, 0x31));
    expect(number).toEqual({ error: expect.stringMatching(/^in\.json:1:14: a number is longer than 64 MiB/) });
  });

  it("CSV/TSV: a header line, a record, a quoted field over many lines", () => {
    const header = rowsOutcome("csv", "run", endless("", MAX_LINE_BYTES + 16, 8 * MiB));
    expect(header).toEqual({
      error: expect.stringMatching(/^in\.csv:1:67108865: the header line is longer than 64 MiB \(from byte offset 0\)/),
    });
    const record = rowsOutcome("csv", "run", endless("qid,docid,score\nq1,", MAX_LINE_BYTES + 64, 8 * MiB));
    expect(record).toEqual({
      error: expect.stringMatching(/^in\.csv:2:1: the record is longer than 64 MiB \(from byte offset 16\)/),
    });
    // A column that is not read is bounded all the same.
    const ignored = rowsOutcome("csv", "run", endless("qid,docid,score,x\nq,d,1,", MAX_LINE_BYTES + 64, 8 * MiB));
    expect(ignored).toMatchObject({ error: expect.stringMatching(/^in\.csv:2:1: the record is longer/) });
    const quoted = endless('qid,docid,score\nq,"', MAX_LINE_BYTES + 64, 8 * MiB, 0x0a);
    expect(rowsOutcome("csv", "run", quoted)).toMatchObject({
      error: expect.stringMatching(/^in\.csv:2:1: the record is longer/),
    });
  });
});

describe("binary bytes in an unfinished line: refused as they come", () => {
  it.each(KINDS)("%s: a chunk of zeros without a line end throws at once, at byte offset 0", (kind) => {
    // The second chunk never comes: the first alone must throw (it used to be held, growing without end).
    expect(outcome(kind, [new Uint8Array(MiB)])).toEqual({
      error: "in.txt:1:1: file is not text (NUL byte at byte offset 0)",
    });
    const zeros = endless(FIRST[kind], 2 * MiB, MiB, 0);
    const p = new QrelsParser({ file: "z", qids: new Interner(), docids: "per-row" });
    if (kind === "qrels")
      expect(() => p.push(zeros[0])).toThrow(/z:2:1: file is not text \(NUL byte at byte offset 10\)/);
  });

  it.each([
    // A bare CR before the NUL: the CR's error, as when the line is read whole.
    [
      "qrels",
      "q1 0 d1 1\nq2 0 a\rb 0\u0000\n",
      "in.txt:2:7: carriage return (CR) not followed by a line feed: use LF or CRLF line endings",
    ],
    [
      "letor",
      "0 qid:a x:0.5 #docid = a\u0000\n",
      'in.txt:1:9: feature index "x" is not a whole number (expected INDEX:VALUE, as 3:0.25)',
    ],
    [
      "run",
      "q1 Q0 d1 1 0.5 t\nq1 Q0 d\u00012 2 0.4 t\n",
      "in.txt:2:8: file is not text (control byte 0x01 at byte offset 24)",
    ],
  ] as const)("the error is the whole line's for every cut: %s, %j", (kind, input, message) => {
    expect(parseError(kind, input)).toBe(message);
  });

  it("a comment line may hold any byte, as before", () => {
    expect(parseOk("qrels", "# \u0000\u0001\nq1 0 d1 1\n")).toMatchObject({ length: 1 });
  });

  it("JSON and CSV/TSV: a NUL byte anywhere, said with its byte offset", () => {
    expect(rowsError("json", "run", '{"q1": {"d\u00001": 1}}')).toBe(
      "in.json:1:11: file is not text (NUL byte at byte offset 10)",
    );
    expect(rowsError("csv", "run", "qid,docid,score\nq1,d\u00001,2\n")).toBe(
      "in.csv:2:5: file is not text (NUL byte at byte offset 20)",
    );
    expect(rowsError("csv", "run", 'qid,docid,score\nq1,"d\u00001",2\n')).toBe(
      "in.csv:2:6: file is not text (NUL byte at byte offset 21)",
    );
    expect(rowsError("csv", "run", "qid,do\u0000cid,score\n")).toBe(
      "in.csv:1:7: file is not text (NUL byte at byte offset 6)",
    );
    const zeros = [new Uint8Array(MiB)];
    expect(rowsOutcome("csv", "run", zeros)).toEqual({
      error: "in.csv:1:1: file is not text (NUL byte at byte offset 0)",
    });
    expect(rowsOutcome("json", "run", zeros)).toEqual({
      error: "in.json:1:1: file is not text (NUL byte at byte offset 0)",
    });
  });
});

/** The first bytes of files of binary formats. */
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1];
const PARQUET = [0x50, 0x41, 0x52, 0x31, 0x15, 0x04, 0x15, 0x0c, 0x15, 0x10, 0x4c, 0x15, 0x02, 0x15, 0, 0x0a];
const ARROW = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x10, 0, 0, 0];
const ZIP = [0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0x08, 0];
const GZIP = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];

describe("a binary format's file: said as what it is", () => {
  it.each([
    ["a PNG image", PNG, "it is a PNG image"],
    ["Parquet", PARQUET, 'it is Parquet: name it *.parquet or give the input format "parquet"'],
    ["an Arrow IPC file", ARROW, "it is an Arrow IPC file"],
    ["a ZIP archive", ZIP, "it is a ZIP archive"],
    ["gzip", GZIP, "gzip-compressed data: decompress it first"],
  ])("%s, read as a run, qrels, JSON or CSV", (_, head, what) => {
    const input = Uint8Array.from(head);
    const said = (file: string) => new RegExp(`^${file}:1:1: file is not text \\(${what.replace(/[*()]/g, "\\$&")}`);
    for (const kind of ["run", "qrels", "letor", "scores"] as const) {
      expect(parseError(kind, input)).toMatch(said("in\\.txt"));
    }
    expect(rowsError("json", "run", input)).toMatch(said("in\\.json"));
    expect(rowsError("csv", "run", input)).toMatch(said("in\\.csv"));
  });

  it("text that starts as a magic number is still text: a query named PAR1, ARROW1, PK", () => {
    expect(parseOk("qrels", "PAR1 0 d1 1\nARROW1 0 d1 1\nPK 0 d 1\n")).toMatchObject({ length: 3 });
    // An error on its first line is its own, not a binary format's.
    const error = parseError("run", "PAR1 Q0 d1\n");
    expect(error).toMatch(/^in\.txt:1:11: expected at least 6 fields \(qid iter docno rank sim run_id\)/);
    expect(error).toMatch(/found 3$/);
    expect(error).not.toMatch(/Parquet|not text/);
  });

  it("a binary format's first line parsed as text no longer says only 'expected at least 6 fields'", () => {
    const p = new RunParser({ file: "img.png", qids: new Interner(), docids: "per-row" });
    let error: unknown;
    try {
      p.push(Uint8Array.from(PNG));
      p.finish();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe("img.png:1:1: file is not text (it is a PNG image)");
    // Thrown again as it was.
    expect(() => p.push(bytes("x"))).toThrow(error as Error);
  });
});
