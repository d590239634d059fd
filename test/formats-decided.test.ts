// A file's format decided in one place (src/input/formats.ts's decideFormat): each format's content under
// a misleading name and gzipped, and the command line and evaluateFiles reading a misnamed file as it says.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { RecordBatchFileWriter, RecordBatchStreamWriter, tableFromArrays } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { decideFormat, readFirstLines, roleOfHeader } from "../src/input/formats.js";
import { magicOf } from "../src/io/magic.js";
import { main } from "../src/node/cli.js";
import { fileFormat, isColumnarPath } from "../src/node/columnar-files.js";
import { evaluateFiles } from "../src/node/index.js";

const enc = new TextEncoder();
const table = tableFromArrays({ qid: ["q1", "q1"], docid: ["d1", "d2"], rel: Float64Array.from([1, 0]) });
const ARROW_FILE = RecordBatchFileWriter.writeAll(table).toUint8Array(true);
const ARROW_STREAM = RecordBatchStreamWriter.writeAll(table).toUint8Array(true);
/** Parquet's shape as decideFormat reads it: "PAR1", anything, a footer's length, "PAR1". */
const PARQUET = Uint8Array.from([0x50, 0x41, 0x52, 0x31, 0x15, 0x04, 0, 0, 0, 0, 0, 0, 0x50, 0x41, 0x52, 0x31]);
const QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 1\n";
const RUN = "q1 Q0 d1 1 0.9 sys\nq1 Q0 d2 2 0.5 sys\nq2 Q0 d1 1 1 sys\n";

/** What decideFormat says of `bytes` named `name`, told its first and last 8 bytes and first line. */
function decide(name: string, bytes: Uint8Array, kind: "qrels" | "run" = "qrels") {
  const gzipped = magicOf(bytes) === "gzip";
  const text = gzipped ? "" : new TextDecoder().decode(bytes);
  return decideFormat(name, {
    kind,
    head: bytes.subarray(0, 8),
    tail: bytes.subarray(Math.max(0, bytes.length - 8)),
    firstLine: text.split("\n")[0],
  });
}

describe("decideFormat: content first, then the name", () => {
  it.each([
    ["Parquet", PARQUET, "parquet"],
    ["an Arrow IPC file", ARROW_FILE, "arrow"],
    ["an Arrow IPC stream", ARROW_STREAM, "arrow"],
  ])("%s named run.txt, qrels.csv or x.json is columnar by its bytes", (_, bytes, format) => {
    for (const name of ["run.txt", "qrels.csv", "x.json", "-"])
      expect(decide(name, bytes)).toEqual({ format, gzipped: false, columnar: true, reason: "content" });
  });

  it("a columnar file cut short goes by its name (whose reader says what is missing), a given format first", () => {
    expect(decide("run.dat", PARQUET.subarray(0, 11))).toMatchObject({ format: "trec", reason: "name" });
    expect(decide("run.parquet", PARQUET.subarray(0, 11))).toMatchObject({ format: "parquet", reason: "name" });
    expect(decide("a.txt", ARROW_FILE.subarray(0, 40))).toMatchObject({ format: "trec", columnar: false });
    expect(decideFormat("run.txt", { given: "csv", head: PARQUET })).toMatchObject({ format: "csv", reason: "given" });
    // Where no end is known (the page's first bytes), the first bytes alone tell.
    expect(decideFormat("run.txt", { head: ARROW_STREAM.subarray(0, 8) })).toMatchObject({ format: "arrow" });
    // Text that starts as a magic number is text.
    expect(decide("q.txt", enc.encode("PAR1 0 d1 1\n"))).toMatchObject({ format: "trec", columnar: false });
  });

  it("TREC's and MS MARCO's lines in a .tsv are TREC text; a header is TSV; --columns keeps it TSV", () => {
    expect(decide("qrels.tsv", enc.encode("q1\t0\td1\t1\n"))).toMatchObject({ format: "trec", reason: "content" });
    expect(decide("run.tsv", enc.encode("q1\td1\t1\n"), "run")).toMatchObject({ format: "trec", reason: "content" });
    expect(decide("run.tsv", enc.encode(RUN.replaceAll(" ", "\t")), "run")).toMatchObject({ format: "trec" });
    expect(decide("qrels.tsv", enc.encode("qid\tdocid\trel\nq1\td1\t1\n"))).toMatchObject({ format: "tsv" });
    const firstLine = "q1\t0\td1\t1";
    expect(decideFormat("q.tsv", { kind: "qrels", firstLine, columns: { qid: "a" } }).format).toBe("tsv");
    expect(decideFormat("q.txt", { kind: "qrels", firstLine: "q1\t0\td1\t1", given: "tsv" }).format).toBe("trec");
    // msmarco names a run's shape: judgments keep their own.
    expect(decideFormat("q.json", { kind: "qrels", given: "msmarco" }).format).toBe("json");
    expect(decideFormat("r.json", { kind: "run", given: "msmarco" }).format).toBe("msmarco");
  });

  it("a gzipped copy of each is gzipped, its text's format by its name and first line", () => {
    for (const [name, text, format] of [
      ["qrels.txt.gz", QRELS, "trec"],
      ["qrels.tsv.gz", QRELS.replaceAll(" ", "\t"), "trec"],
      ["qrels.json.gz", '{"q1": {"d1": 1}}', "json"],
      ["qrels.csv.gz", "qid,docid,rel\nq1,d1,1\n", "csv"],
    ] as const) {
      const gz = gzipSync(enc.encode(text));
      const d = decideFormat(name, { kind: "qrels", head: gz.subarray(0, 8), firstLine: text.split("\n")[0] });
      expect(d, name).toMatchObject({ format, gzipped: true, columnar: false });
    }
    // Columnar bytes gzipped are gzip, not columnar: no reader reads them so.
    expect(decide("x.parquet.gz", gzipSync(PARQUET))).toMatchObject({ gzipped: true, columnar: false });
  });

  it("roleOfHeader: judgments by a label column and no score column, else a run", () => {
    expect(roleOfHeader(["qid", "docid", "rel"])).toBe("qrels");
    expect(roleOfHeader(["query", "doc", " Grade "])).toBe("qrels");
    expect(roleOfHeader(["qid", "docid", "rel", "score"])).toBe("run");
    expect(roleOfHeader(["qid", "docid", "score"])).toBe("run");
    expect(roleOfHeader(["a", "b"])).toBe("run");
  });

  it("magicOf: gzip, Parquet, Arrow's file and stream, else null", () => {
    expect([gzipSync(PARQUET), PARQUET, ARROW_FILE, ARROW_STREAM, enc.encode(QRELS)].map(magicOf)).toEqual([
      "gzip",
      "parquet",
      "arrow-file",
      "arrow-stream",
      null,
    ]);
  });

  it("readFirstLines: lines to the first that ends it, the last unended one at the end, none cut at the limit", async () => {
    const lines = async (text: string, limit: number, stopAt = "") => {
      const seen: string[] = [];
      await readFirstLines(
        async (sink) => {
          for (let i = 0; i < text.length; i += 3) sink.push(enc.encode(text.slice(i, i + 3)));
        },
        (l) => (seen.push(l), l === stopAt),
        limit,
      );
      return seen;
    };
    expect(await lines("a\nbb\nccc", 100)).toEqual(["a", "bb", "ccc"]);
    expect(await lines("a\nbb\nccc", 100, "bb")).toEqual(["a", "bb"]);
    expect(await lines("a\nbb\nccc", 6)).toEqual(["a", "bb"]);
    await expect(
      readFirstLines(
        () => Promise.reject(new Error("no")),
        () => false,
        9,
      ),
    ).rejects.toThrow("no");
  });
});

describe("the command line and evaluateFiles read a misnamed file as decideFormat says", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-decided-"));
  const file = (name: string, data: string | Uint8Array) => {
    writeFileSync(join(dir, name), data);
    return join(dir, name);
  };
  const qrelsTable = tableFromArrays({
    qid: ["q1", "q1", "q2"],
    docid: ["d1", "d2", "d1"],
    rel: Float64Array.from([1, 0, 1]),
  });

  it("an Arrow qrels file named qrels.txt", async () => {
    const misnamed = file("qrels.txt", RecordBatchFileWriter.writeAll(qrelsTable).toUint8Array(true));
    const text = file("qrels-text.txt", QRELS);
    const run = file("sys.run", RUN);
    expect(fileFormat(misnamed)).toEqual({ format: "arrow", gzipped: false, columnar: true, reason: "content" });
    expect(isColumnarPath(misnamed)).toBe(true);
    expect(fileFormat(text)).toMatchObject({ format: "trec", columnar: false, reason: "name" });
    // Given, the format is the one given.
    expect(isColumnarPath(misnamed, "trec")).toBe(false);

    let out = "";
    const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: () => {} } };
    expect(await main(["-m", "map", "-m", "P.1", misnamed, run], io)).toBe(0);
    const cli = out;
    out = "";
    expect(await main(["-m", "map", "-m", "P.1", text, run], io)).toBe(0);
    expect(cli).toBe(out);
    const [a] = await evaluateFiles(misnamed, [run], ["map", "P@1"]);
    const [b] = await evaluateFiles(text, [run], ["map", "P@1"]);
    expect(a.mean).toEqual(b.mean);
    expect(a.qids).toEqual(b.qids);
    expect(a.mean.map).toBeCloseTo(Number(/map\s+all\s+(\S+)/.exec(cli)?.[1]), 4);
  });
});
