// Parquet and Arrow inputs on the command line, in rankeval/node and in rankeval/io: files written by
// DuckDB (a real engine, the layout Spark writes) and by apache-arrow itself give trec_eval's text
// byte for byte as the same rows in TREC text do; --columns; Hive-partitioned datasets; blocks; and
// every bad file's error (exit 2, naming the file, and the row where one is at fault).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tableFromArrays, Table, vectorFromArray, Int64, Int32, Float64, Utf8, Dictionary } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { Interner } from "../../src/io/interner.js";
import { bytesSource, columnarRows, ColumnarRows } from "../../src/io/columnar.js";
import { main } from "../../src/node/cli.js";
import { columnarInput, datasetName, columnarRunTag, isDataset } from "../../src/node/columnar-files.js";
import { evaluateFiles, readQrels, readRun } from "../../src/node/index.js";
import { formatOf, runTagOf } from "../../src/input/formats.js";
import { arrowTable, duck, duckParquet, trecRows, writeArrow, type TrecRows } from "./_data.js";

async function run(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return { status, out, err };
}

const dir = mkdtempSync(join(tmpdir(), "rankeval-columnar-"));
const path = (name: string) => join(dir, name);
function file(name: string, data: string | Uint8Array): string {
  mkdirSync(join(dir, name, ".."), { recursive: true });
  writeFileSync(path(name), data);
  return path(name);
}

// Ties (d2, d4 in q1), a query without judgments (q3), a judged query not in the run (q4), a
// non-ASCII id, graded labels.
const QRELS_TEXT = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq1 0 d5 1\nq2 0 d1 1\nq2 0 é 2\nq4 0 d1 1\n";
const RUN_TEXT =
  "q1 Q0 d1 1 0.9 sys\nq1 Q0 d2 2 0.5 sys\nq1 Q0 d4 3 0.5 sys\nq1 Q0 d5 4 0.1 sys\nq2 Q0 é 1 1.5 sys\nq2 Q0 d9 2 2 sys\nq3 Q0 d1 1 1 sys\n";
const ARGV = [
  "-q",
  "-c",
  "-m",
  "map",
  "-m",
  "P.1,2",
  "-m",
  "ndcg_cut.3",
  "-m",
  "recip_rank",
  "-m",
  "num_ret",
  "-m",
  "num_rel",
  "-m",
  "runid",
];

describe("Parquet and Arrow inputs", () => {
  const qrels = trecRows(QRELS_TEXT, "qrels");
  const runs = trecRows(RUN_TEXT, "run");
  const text = [file("qrels.txt", QRELS_TEXT), file("sys.run", RUN_TEXT)];

  it("take the format from the name (.parquet, .arrow, .feather, .arrows) and the run tag from the name without it", () => {
    expect(["a.parquet", "b.PARQUET", "c.arrow", "d.feather", "e.arrows", "f.txt"].map((f) => formatOf(f))).toEqual([
      "parquet",
      "parquet",
      "arrow",
      "arrow",
      "arrow",
      "trec",
    ]);
    expect(runTagOf("runs/bm25.parquet")).toBe("bm25");
    expect(runTagOf("runs/bm25.arrows")).toBe("bm25");
    expect(datasetName("runs/bm25/bucket=3")).toBe("runs/bm25");
    expect(datasetName("shards/bucket=3/bm25.run")).toBe("shards/bm25.run");
    expect(datasetName("runs/bm25")).toBe("runs/bm25");
    expect(datasetName("bucket=3")).toBe("bucket=3");
    expect(columnarRunTag("out/bm25.parquet/bucket=3/")).toBe("bm25");
  });

  it("give trec_eval's text byte for byte as the rows in TREC text do: DuckDB's Parquet, apache-arrow's IPC file and stream", async () => {
    const want = await run(...ARGV, ...text);
    expect(want.status, want.err).toBe(0);
    await duckParquet(qrels, path("qrels.parquet"), { kind: "qrels" });
    await duckParquet(runs, path("sys.parquet"), { kind: "run" });
    writeArrow(arrowTable(qrels, "qrels"), path("qrels.arrow"), "file");
    writeArrow(arrowTable(runs, "run"), path("sys.arrow"), "file");
    writeArrow(arrowTable(runs, "run"), path("sys.feather"), "file");
    writeArrow(arrowTable(runs, "run"), path("sys.arrows"), "stream");
    for (const [q, r] of [
      ["qrels.parquet", "sys.parquet"],
      ["qrels.arrow", "sys.arrow"],
      ["qrels.parquet", "sys.feather"],
      ["qrels.arrow", "sys.arrows"],
      ["qrels.txt", "sys.parquet"],
    ]) {
      const got = await run(...ARGV, path(q), path(r));
      expect(got.err, `${q} ${r}`).toBe(want.err.split(text[1]).join(path(r)));
      expect(got.out, `${q} ${r}`).toBe(want.out);
    }
  });

  it("take integer ids (written in decimal, as text holds them), integer labels and scores, and float32 scores", async () => {
    const q = trecRows("1 0 10 1\n1 0 11 0\n1 0 12 2\n2 0 10 1\n2 0 13 3\n", "qrels");
    const r = trecRows("1 Q0 10 1 3 t\n1 Q0 12 2 2 t\n1 Q0 11 3 2 t\n2 Q0 13 1 5 t\n2 Q0 99 2 4 t\n", "run");
    const t = [
      file("int/qrels.txt", "1 0 10 1\n1 0 11 0\n1 0 12 2\n2 0 10 1\n2 0 13 3\n"),
      file("int/t.run", "1 Q0 10 1 3 t\n1 Q0 12 2 2 t\n1 Q0 11 3 2 t\n2 Q0 13 1 5 t\n2 Q0 99 2 4 t\n"),
    ];
    const want = (await run(...ARGV, ...t)).out;
    await duckParquet(q, path("int/qrels.parquet"), {
      kind: "qrels",
      types: { qid: "INTEGER", docid: "BIGINT", value: "INTEGER" },
    });
    await duckParquet(r, path("int/t.parquet"), {
      kind: "run",
      types: { qid: "UBIGINT", docid: "SMALLINT", value: "FLOAT" },
    });
    expect((await run(...ARGV, path("int/qrels.parquet"), path("int/t.parquet"))).out).toBe(want);
    // Arrow: Int64 and Int32 ids, Int32 scores.
    const table = (rows: TrecRows, value: string) =>
      new Table({
        qid: vectorFromArray(BigInt64Array.from(rows.qid.map(BigInt)), new Int64()),
        docid: vectorFromArray(Int32Array.from(rows.docid.map(Number)), new Int32()),
        [value]: vectorFromArray(Int32Array.from(rows.value), new Int32()),
        ...(value === "score" ? { tag: vectorFromArray(rows.tag, new Utf8()) } : {}),
      });
    writeArrow(table(q, "rel"), path("int/qrels.arrows"), "stream");
    writeArrow(table(r, "score"), path("int/t.arrow"), "file");
    expect((await run(...ARGV, path("int/qrels.arrows"), path("int/t.arrow"))).out).toBe(want);
  });

  it("find the columns by the usual names, or --columns (tag too); the run tag from a tag column, else the file name", async () => {
    await duckParquet(qrels, path("named/judged.parquet"), {
      kind: "qrels",
      columns: { qid: "topic_no", docid: "passage", value: "bm25" },
    });
    await duckParquet(qrels, path("named/usual.parquet"), {
      kind: "qrels",
      columns: { qid: "query_id", docid: "doc_id", value: "relevance" },
    });
    await duckParquet(runs, path("named/bm25.parquet"), {
      kind: "run",
      columns: { qid: "topic_no", docid: "passage", value: "bm25", tag: "system" },
    });
    await duckParquet(runs, path("named/usual.parquet.run.parquet"), {
      kind: "run",
      columns: { qid: "topic", docid: "docno", value: "rank_score", tag: "run_tag" },
    });
    const want = (await run(...ARGV, ...text)).out;
    expect((await run(...ARGV, path("named/usual.parquet"), path("named/usual.parquet.run.parquet"))).out).toBe(want);
    const named = await run(
      ...ARGV,
      "--columns",
      "qid=topic_no,docid=passage,value=bm25,tag=system",
      path("named/judged.parquet"),
      path("named/bm25.parquet"),
    );
    expect(named.err).toBe("");
    expect(named.out).toBe(want);
    // Without the tag column named: no default name matches "system", so the tag is the file's name.
    expect(
      (
        await run(
          ...ARGV,
          "--columns",
          "qid=topic_no,docid=passage,value=bm25",
          path("named/judged.parquet"),
          path("named/bm25.parquet"),
        )
      ).out,
    ).toBe(want.replace(/\tsys\n/, "\tbm25\n"));
    const missing = await run(...ARGV, path("named/usual.parquet"), path("named/bm25.parquet"));
    expect(missing.status).toBe(2);
    expect(missing.err).toBe(
      `rankeval: ${path("named/bm25.parquet")}: no query id column (looked for qid, query, query_id, query-id, topic; its columns are "topic_no", "passage", "bm25", "system"); name them with --columns qid=NAME,docid=NAME,value=NAME\n`,
    );
    const tag = await run(
      ...ARGV,
      "--columns",
      "qid=topic_no,docid=passage,value=bm25,tag=runid",
      path("named/judged.parquet"),
      path("named/bm25.parquet"),
    );
    expect(tag.status).toBe(2);
    expect(tag.err).toMatch(
      /bm25\.parquet: no run tag column \(looked for "runid"; its columns are "topic_no", "passage", "bm25", "system"\)/,
    );
  });

  it("read a Hive-partitioned dataset directory (DuckDB's PARTITION_BY) as one input, and a run in it scattered or not", async () => {
    await duckParquet(qrels, path("ds/qrels"), { kind: "qrels", buckets: 3 });
    await duckParquet(runs, path("ds/sys"), { kind: "run", buckets: 3 });
    expect(isDataset(path("ds/sys"))).toBe(true);
    expect(isDataset(dir)).toBe(false);
    const parts = columnarInput(path("ds/sys")).parts;
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((p) => /bucket=\d\/data_0\.parquet$/.test(p.file) && p.partition.bucket !== undefined)).toBe(
      true,
    );
    const want = (await run(...ARGV, ...text)).out;
    expect((await run(...ARGV, path("ds/qrels"), path("ds/sys"))).out).toBe(want);
    // A partition alone: a run of that dataset (its tag its name), its queries those of the bucket.
    const qrelsBuckets = new Set(columnarInput(path("ds/qrels")).parts.map((p) => p.partition.bucket));
    const bucket = parts.map((p) => p.partition.bucket).find((b) => qrelsBuckets.has(b))!;
    const one = await run(
      "-q",
      "-m",
      "runid",
      "-m",
      "num_ret",
      path(`ds/qrels/bucket=${bucket}`),
      path(`ds/sys/bucket=${bucket}`),
    );
    expect(one.status, one.err).toBe(0);
    // The dataset's hidden and underscore files are skipped (Hadoop's _SUCCESS, .crc files).
    file("ds/sys/_SUCCESS", "");
    file(`ds/sys/bucket=${bucket}/.data_0.parquet.crc`, "x");
    expect((await run(...ARGV, path("ds/qrels"), path("ds/sys"))).out).toBe(want);
    // A partition column read from the path: a dataset partitioned by qid itself.
    const c = await duck();
    await c.run(
      `COPY (SELECT * FROM read_parquet('${path("sys.parquet")}')) TO '${path("byqid")}' (FORMAT parquet, PARTITION_BY (qid))`,
    );
    expect((await run(...ARGV, path("qrels.parquet"), path("byqid"))).out).toBe(want.replace(/\tsys\n/, "\tsys\n"));
    // A directory of several runs stays several runs.
    mkdirSync(path("runsdir"));
    writeArrow(arrowTable(runs, "run"), path("runsdir/a.arrow"), "file");
    writeArrow(arrowTable(runs, "run"), path("runsdir/b.arrow"), "file");
    const two = await run("-m", "map", path("qrels.parquet"), path("runsdir"));
    expect(two.out).toMatch(/==> .*a\.arrow <==[\s\S]*==> .*b\.arrow <==/);
  });

  it("read a run in blocks of whole queries, the same as whole; a scattered run whole", async () => {
    // The rows of the run in another order: q2's rows split by q1's (trec_eval reads any order).
    const order = [4, 0, 1, 5, 2, 3, 6];
    const scattered: TrecRows = {
      qid: order.map((i) => runs.qid[i]),
      docid: order.map((i) => runs.docid[i]),
      value: order.map((i) => runs.value[i]),
      text: order.map((i) => runs.text[i]),
      tag: order.map((i) => runs.tag[i]),
    };
    await duckParquet(scattered, path("scattered.parquet"), { kind: "run" });
    const want = (await run(...ARGV, ...text)).out;
    expect((await run(...ARGV, path("qrels.parquet"), path("scattered.parquet"))).out).toBe(want);
    // Blocks: the rows taken two queries at a time equal the rows read at once.
    const qids = new Interner();
    const rows = new ColumnarRows({ file: "x", qids, kind: "run" });
    const batch = (from: number, to: number) => ({
      qid: { kind: "values" as const, values: runs.qid.slice(from, to) },
      docid: { kind: "values" as const, values: runs.docid.slice(from, to) },
      value: { kind: "values" as const, values: runs.value.slice(from, to) },
      length: to - from,
      file: "x",
      firstRow: from,
      names: { qid: "qid", docid: "docid", value: "score" },
    });
    rows.add(batch(0, 3));
    expect(rows.takeQueries(2)).toBeNull(); // one query so far: it may go on
    rows.add(batch(3, 5));
    const first = rows.takeQueries(2)!;
    expect(first.length).toBe(4);
    expect(qids.stringOf(first.qid[0])).toBe("q1");
    rows.add(batch(5, 7));
    const rest = rows.finish();
    expect(rest.length).toBe(3);
    expect(rest.lines.rows.length).toBeGreaterThan(0);
  });

  it("in rankeval/node (evaluateFiles, readQrels, readRun) and rankeval/io (columnarRows)", async () => {
    const [a] = await evaluateFiles(path("qrels.parquet"), [path("sys.arrow")], ["ndcg@3", "map"]);
    const [b] = await evaluateFiles(text[0], [text[1]], ["ndcg@3", "map"]);
    expect(a.mean).toEqual(b.mean);
    expect(a.qids).toEqual(b.qids);
    expect(await readQrels(path("qrels.arrow"))).toEqual(await readQrels(text[0]));
    expect(await readRun(path("sys.parquet"))).toEqual(await readRun(text[1]));
    const qids = new Interner();
    const r = await columnarRows(bytesSource(readFileSync(path("sys.arrows"))), {
      file: "sys.arrows",
      qids,
      kind: "run",
    });
    expect(r.length).toBe(7);
    expect(r.runTag).toBe("sys");
    const p = await columnarRows(bytesSource(readFileSync(path("qrels.parquet"))), {
      file: "qrels.parquet",
      qids,
      kind: "qrels",
    });
    expect(Array.from(p.rel)).toEqual(qrels.value);
  });
});

describe("bad Parquet and Arrow files: exit 2, a message naming the file (and the row)", () => {
  const qrelsText = file("bad/qrels.txt", QRELS_TEXT);
  const runText = file("bad/sys.run", RUN_TEXT);
  /** `name` as the run (or, `asQrels`, as the judgments): exit 2, nothing on stdout, `expected` on stderr. */
  const bad = async (name: string, expected: string | RegExp, asQrels = false) => {
    const r = asQrels ? await run("-m", "map", path(name), runText) : await run("-m", "map", qrelsText, path(name));
    expect(r.status, r.err).toBe(2);
    expect(r.out).toBe("");
    if (typeof expected === "string") expect(r.err).toBe(`rankeval: ${path(name)}${expected}\n`);
    else expect(r.err).toMatch(expected);
    return r.err;
  };

  it("a wrong magic number, a file cut short, an empty file", async () => {
    const parquet = readFileSync(path("sys.parquet"));
    file("bad/text.parquet", RUN_TEXT);
    await bad(
      "bad/text.parquet",
      `: not a Parquet file: it does not start with Parquet's magic number "PAR1" (it starts with "q1 Q")`,
    );
    file("bad/cut.parquet", parquet.subarray(0, parquet.length - 100));
    await bad(
      "bad/cut.parquet",
      `: not a whole Parquet file: it does not end with Parquet's magic number "PAR1" (truncated? its footer, which says where its rows are, is missing)`,
    );
    file("bad/short.parquet", "PAR1");
    await bad(
      "bad/short.parquet",
      `: not a Parquet file: 4 bytes, too short for one (a Parquet file starts and ends with "PAR1")`,
    );
    file("bad/empty.parquet", "");
    await bad(
      "bad/empty.parquet",
      `: not a Parquet file: 0 bytes, too short for one (a Parquet file starts and ends with "PAR1")`,
    );
    // The footer's length past the file's start, and a footer that is not one.
    const lying = Buffer.from(parquet);
    lying.writeUInt32LE(parquet.length, parquet.length - 8);
    file("bad/lying.parquet", lying);
    await bad(
      "bad/lying.parquet",
      /lying\.parquet: damaged Parquet file: its footer would be \d+ bytes, longer than the file/,
    );
    const garbled = Buffer.from(parquet);
    const footer = garbled.readUInt32LE(garbled.length - 8);
    garbled.fill(0xee, garbled.length - 8 - footer, garbled.length - 8);
    file("bad/garbled.parquet", garbled);
    await bad("bad/garbled.parquet", /garbled\.parquet: damaged Parquet file: its footer cannot be read \(/);
    // A column chunk's bytes damaged: the rows that cannot be read are named.
    const pages = Buffer.from(parquet);
    pages.fill(0xee, 4, Math.min(pages.length - 8 - footer, 400));
    file("bad/pages.parquet", pages);
    await bad("bad/pages.parquet", /pages\.parquet: damaged Parquet file: rows 1 to 7 cannot be read \(/);

    const arrowFile = readFileSync(path("sys.arrow"));
    file("bad/text.arrow", RUN_TEXT);
    await bad(
      "bad/text.arrow",
      `: not an Arrow IPC file or stream: it does not start with "ARROW1" (a file) or 0xFFFFFFFF (a stream's first message); it starts with "q1 Q0 d1"`,
    );
    file("bad/cut.arrow", arrowFile.subarray(0, arrowFile.length - 10));
    await bad(
      "bad/cut.arrow",
      `: not a whole Arrow IPC file: it does not end with "ARROW1" (truncated? its footer, which says where its record batches are, is missing)`,
    );
    const stream = readFileSync(path("sys.arrows"));
    file("bad/cut.arrows", stream.subarray(0, stream.length - 30));
    await bad(
      "bad/cut.arrows",
      /cut\.arrows: damaged Arrow IPC data after row 0: Expected to read \d+ bytes for message body, but only read \d+/,
    );
    // Cut where a message ends: no end-of-stream marker.
    file("bad/nomarker.arrows", stream.subarray(0, stream.length - 8));
    await bad(
      "bad/nomarker.arrows",
      ": an Arrow IPC stream cut short: it ends without the end-of-stream marker, after 7 rows (truncated?)",
    );
    file("bad/empty.arrow", "");
    await bad(
      "bad/empty.arrow",
      `: not an Arrow IPC file or stream: it does not start with "ARROW1" (a file) or 0xFFFFFFFF (a stream's first message); it starts with nothing: the file is empty`,
    );
    // Judgments too.
    await bad("bad/cut.parquet", /cut\.parquet: not a whole Parquet file/, true);
  });

  it("a column missing (naming those found), of the wrong type, or two roles in one", async () => {
    writeArrow(
      tableFromArrays({ qid: ["q1"], docid: ["d1"], points: Float64Array.from([1]) }),
      path("bad/noscore.arrow"),
      "file",
    );
    await bad(
      "bad/noscore.arrow",
      `: no score column (looked for score, rank_score, prediction; its columns are "qid", "docid", "points"); name them with --columns qid=NAME,docid=NAME,value=NAME`,
    );
    await bad(
      "bad/noscore.arrow",
      `: no label column (looked for rel, label, relevance, grade, judgment, score; its columns are "qid", "docid", "points"); name them with --columns qid=NAME,docid=NAME,value=NAME`,
      true,
    );
    writeArrow(tableFromArrays({ qid: ["q1"], docid: ["d1"], score: ["0.5"] }), path("bad/textscore.arrow"), "file");
    await bad(
      "bad/textscore.arrow",
      `: column "score" (the score) is Dictionary<Int32, Utf8>: scores must be numbers (integers or floating-point)`,
    );
    writeArrow(
      tableFromArrays({ qid: Float64Array.from([1.5]), docid: ["d1"], score: Float64Array.from([1]) }),
      path("bad/floatqid.arrow"),
      "file",
    );
    await bad("bad/floatqid.arrow", `: column "qid" (the query id) is Float64: query ids must be strings or integers`);
    const c = await duck();
    await c.run(
      `COPY (SELECT 1.5::DOUBLE AS qid, 'd1' AS docid, 0.5 AS score) TO '${path("bad/floatqid.parquet")}' (FORMAT parquet)`,
    );
    await bad("bad/floatqid.parquet", `: column "qid" (the query id) is DOUBLE: query ids must be strings or integers`);
    await c.run(
      `COPY (SELECT 'q1' AS qid, 'd1' AS docid, true AS score) TO '${path("bad/boolscore.parquet")}' (FORMAT parquet)`,
    );
    await bad(
      "bad/boolscore.parquet",
      `: column "score" (the score) is BOOLEAN: scores must be numbers (integers or floating-point)`,
    );
    await c.run(
      `COPY (SELECT 'q1' AS qid, DATE '2024-01-01' AS docid, 1.0 AS score) TO '${path("bad/datedoc.parquet")}' (FORMAT parquet)`,
    );
    await bad(
      "bad/datedoc.parquet",
      `: column "docid" (the document id) is INT32 (DATE): document ids must be strings or integers`,
    );
    const both = await run("-m", "map", "--columns", "qid=qid,docid=qid", qrelsText, path("sys.parquet"));
    expect(both.status).toBe(2);
    expect(both.err).toBe(
      `rankeval: ${path("sys.parquet")}: column "qid" cannot be both the query id and the document id\n`,
    );
  });

  it("a null, NaN or infinite value, an empty id: the row and column named", async () => {
    const c = await duck();
    await c.run(
      `COPY (SELECT * FROM (VALUES ('q1', 'd1', 1.0), ('q1', 'd2', NULL), ('q2', 'd1', 0.5)) t(qid, docid, score)) TO '${path("bad/null.parquet")}' (FORMAT parquet)`,
    );
    await bad("bad/null.parquet", `: row 2 (column "score"): the score is null`);
    await c.run(
      `COPY (SELECT * FROM (VALUES ('q1', 'd1', 1.0), ('q1', 'd2', 'nan'::DOUBLE)) t(qid, docid, score)) TO '${path("bad/nan.parquet")}' (FORMAT parquet)`,
    );
    await bad("bad/nan.parquet", `: row 2 (column "score"): the score is NaN, not a finite number`);
    await c.run(
      `COPY (SELECT * FROM (VALUES ('q1', 'd1', 1.0), (NULL, 'd2', 2.0)) t(qid, docid, score)) TO '${path("bad/nullqid.parquet")}' (FORMAT parquet)`,
    );
    await bad("bad/nullqid.parquet", `: row 2 (column "qid"): the query id is null`);
    await c.run(
      `COPY (SELECT * FROM (VALUES ('q1', 'd1', 1.0), ('q1', '', 2.0)) t(qid, docid, score)) TO '${path("bad/emptydoc.parquet")}' (FORMAT parquet)`,
    );
    await bad("bad/emptydoc.parquet", `: row 2 (column "docid"): the document id is empty`);
    writeArrow(
      new Table({
        qid: vectorFromArray(["q1", "q1", null], new Utf8()),
        docid: vectorFromArray(["d1", "d2", "d3"], new Utf8()),
        score: vectorFromArray([1, 2, 3], new Float64()),
      }),
      path("bad/null.arrows"),
      "stream",
    );
    await bad("bad/null.arrows", `: row 3 (column "qid"): the query id is null`);
    writeArrow(
      new Table({
        qid: vectorFromArray(["q1", "q1"], new Utf8()),
        docid: vectorFromArray(["d1", "d2"], new Dictionary(new Utf8(), new Int32())),
        score: vectorFromArray([1, Infinity], new Float64()),
      }),
      path("bad/inf.arrow"),
      "file",
    );
    await bad("bad/inf.arrow", `: row 2 (column "score"): the score is Infinity, not a finite number`);
  });

  it("a document twice in one query, and a query that comes back: the row of its file", async () => {
    const c = await duck();
    await c.run(
      `COPY (SELECT * FROM (VALUES ('q1', 'd1', 1.0), ('q1', 'd2', 0.5), ('q1', 'd1', 0.2)) t(qid, docid, score)) TO '${path("bad/dup.parquet")}' (FORMAT parquet)`,
    );
    await bad("bad/dup.parquet", `: row 3: document "d1" appears twice in query "q1"`);
    // Scattered, then read whole: still the row.
    await c.run(
      `COPY (SELECT * FROM (VALUES ('q1', 'd1', 1.0), ('q2', 'd2', 0.5), ('q1', 'd1', 0.2)) t(qid, docid, score)) TO '${path("bad/dupscattered.parquet")}' (FORMAT parquet)`,
    );
    await bad("bad/dupscattered.parquet", `: row 3: document "d1" appears twice in query "q1"`);
    // (As judgments under trec_eval's names, its labels 0.5 and 0.2 are read as 0 first, said of its row.)
    const labels = `rankeval: ${path("bad/dup.parquet")}: row 2: label 0.5 is read as 0 (and 1 more), as trec_eval reads labels (atol); canonical measure names (ndcg@10) keep labels as written\n`;
    expect(await bad("bad/dup.parquet", /appears twice/, true)).toBe(
      `${labels}rankeval: ${path("bad/dup.parquet")}: row 3: document "d1" appears twice in query "q1"\n`,
    );
    // In a dataset: the file within it, and its row there.
    await c.run(
      `COPY (SELECT *, 1 AS part FROM (VALUES ('q1', 'd1', 1.0)) t(qid, docid, score)) TO '${path("bad/dupds")}' (FORMAT parquet, PARTITION_BY (part))`,
    );
    await c.run(
      `COPY (SELECT *, 2 AS part FROM (VALUES ('q2', 'd1', 1.0), ('q2', 'd1', 2.0)) t(qid, docid, score)) TO '${path("bad/dupds")}' (FORMAT parquet, PARTITION_BY (part), APPEND)`,
    );
    const err = await bad(
      "bad/dupds",
      /dupds\/part=2\/[^:]+\.parquet: row 2: document "d1" appears twice in query "q2"\n$/,
    );
    expect(err).toMatch(/^rankeval: /);
  });

  it("an empty dataset, a dataset of mixed formats, Parquet from standard input, a missing file", async () => {
    mkdirSync(path("bad/emptyds/bucket=1"), { recursive: true });
    await bad("bad/emptyds", ": no Parquet or Arrow files in it");
    mkdirSync(path("bad/mixed/bucket=1"), { recursive: true });
    writeFileSync(path("bad/mixed/bucket=1/a.parquet"), readFileSync(path("sys.parquet")));
    writeFileSync(path("bad/mixed/bucket=1/b.csv"), "qid,docid,score\n");
    const mixed = await run("-m", "map", qrelsText, path("bad/mixed"));
    expect(mixed.status).toBe(2);
    expect(mixed.err).toBe(
      `rankeval: ${path("bad/mixed/bucket=1/b.csv")}: not a Parquet file as the rest of the dataset ${path("bad/mixed")} (the files of a dataset are all of one format)\n`,
    );
    const stdin = await run("-m", "map", "--input-format", "parquet", path("qrels.parquet"), "-");
    expect(stdin.status).toBe(2);
    expect(stdin.err).toBe(
      "rankeval: standard input: Parquet cannot be read from standard input or a pipe (its footer, at the end, says where its rows are): give the file\n",
    );
    await bad("bad/missing.parquet", ": cannot read it: no such file (ENOENT)");
  });
});

// trec_eval's own regression files as Parquet and Arrow give its outputs.
const golden = new URL("../../../shared/golden/trec_eval/", import.meta.url).pathname;
const have = existsSync(join(golden, "out.test"));
describe.skipIf(!have)("trec_eval's regression files as Parquet and Arrow give its outputs", () => {
  if (!have) console.warn(`skipped: ${golden} is absent (golden files live in ../shared)`);
  it.each([
    ["out.test", [], "qrels.test", "results.test"],
    ["out.test.aqc", ["-m", "all_trec", "-q", "-c"], "qrels.test", "results.trunc"],
    ["out.test.aql", ["-m", "all_trec", "-mrelstring.20", "-q", "-l2"], "qrels.rel_level", "results.test"],
  ])("%s", async (out, argv, qrelsName, runName) => {
    const sub = mkdtempSync(join(dir, "golden-"));
    await duckParquet(trecRows(readFileSync(join(golden, qrelsName), "utf8"), "qrels"), join(sub, "qrels.parquet"), {
      kind: "qrels",
      types: { value: "INTEGER" },
    });
    const r = trecRows(readFileSync(join(golden, runName), "utf8"), "run");
    await duckParquet(r, join(sub, "run.parquet"), { kind: "run" });
    writeArrow(arrowTable(r, "run"), join(sub, "run.arrow"), "file");
    const want = readFileSync(join(golden, out), "utf8");
    for (const run2 of ["run.parquet", "run.arrow"]) {
      const got = await run(...argv, join(sub, "qrels.parquet"), join(sub, run2));
      expect(got.status, got.err).toBe(0);
      expect(got.out, run2).toBe(want);
    }
  });
});
