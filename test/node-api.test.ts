// rankeval/node (src/node/index.ts): evaluateFiles gives the command line's numbers for every input
// format, and evaluateRun's on readQrels/readRun objects; readQrels/readRun read every format into
// { qid: { docid: value } }; bad input and bad calls say what is wrong. And the join of parsed rows
// cannot go wrong on two id spaces (src/pipeline/join-rows.ts, src/pipeline/join-memory.ts).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { evaluateRun, parseMeasures, RankevalError, type Result } from "../src/index.js";
import { InputError } from "../src/errors/errors.js";
import { Interner, QrelsParser, RunParser } from "../src/io/index.js";
import { main } from "../src/node/cli.js";
import { qrelsParserFor } from "../src/input/formats.js";
import { evaluateFiles, readQrels, readRun } from "../src/node/index.js";
import { joinParsed } from "../src/pipeline/join-rows.js";

const dir = mkdtempSync(join(tmpdir(), "rankeval-node-api-"));
function file(name: string, text: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function cli(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return { status, out, err };
}

// Ties (q1: d2, d4), a run query without judgments (q3), a judged query absent from the runs (q4),
// numeric ids (which objects list first), a non-ASCII id, a query without relevant documents (q5).
const QRELS =
  "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq1 0 d5 1\nq2 0 d1 1\nq2 0 é 2\nq4 0 d1 1\n10 0 7 1\n10 0 8 0\nq5 0 d1 0\n";
const RUN_A =
  "q1 Q0 d1 1 0.9 a\nq1 Q0 d2 2 0.5 a\nq1 Q0 d4 3 0.5 a\nq1 Q0 d5 4 0.1 a\nq2 Q0 é 1 1.5 a\nq2 Q0 d9 2 2 a\nq3 Q0 d1 1 1 a\n10 Q0 8 1 3 a\n10 Q0 7 2 1 a\nq5 Q0 d1 1 1 a\n";
const RUN_B = "q1 Q0 d3 1 0.9 b\nq1 Q0 d1 2 0.8 b\nq2 Q0 d1 1 0.5 b\n10 Q0 7 1 2 b\n";
const qrelsPath = file("qrels.txt", QRELS);
const runA = file("a.run", RUN_A);
const runB = file("b.run", RUN_B);
// Names the library and the command line read alike: a bare name both rankeval's and trec_eval's is
// trec_eval's on the command line (num_ret summed there, its mean in the library), so the count is
// ir_measures' NumRet (summed in both); map and bpref give the same numbers either way.
const MEASURES = ["ndcg@3,10", "map", "mrr", "precision@2", "recall@10", "bpref", "NumRet"];

/** The values per qid, whatever the order of the queries. */
function byQid(r: Result<string>): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  r.qids.forEach((q, i) => (out[q] = Object.fromEntries(r.measures.map((m) => [m, r.values[m][i]]))));
  return out;
}

describe("evaluateFiles", () => {
  it("gives the command line's numbers (its JSON report), runs in one call or several, in trec_eval's query order", async () => {
    const [a, b] = await evaluateFiles(qrelsPath, [runA, runB], MEASURES);
    const json = JSON.parse(
      (await cli("--format", "json", "-q", ...MEASURES.flatMap((m) => ["-m", m]), qrelsPath, runA, runB)).out,
    );
    for (const [r, report] of [
      [a, json.runs[0]],
      [b, json.runs[1]],
    ] as const) {
      expect(r.qids).toEqual(
        Object.keys(report.perQuery).sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))),
      );
      expect(r.queries).toEqual(report.queries);
      for (const m of r.measures) {
        expect(r.mean[m]).toBe(report.mean[m]);
        r.qids.forEach((q, i) => expect(r.values[m][i]).toBe(report.perQuery[q][m]));
      }
    }
    expect(a.qids).toEqual(["10", "q1", "q2", "q5"]);
    expect(a.queries.skipped).toEqual({ noRelevant: 0, notJudged: 1, notInRun: 1 });
    const one = await evaluateFiles(qrelsPath, runA, MEASURES);
    expect(Array.isArray(one)).toBe(false);
    expect(one.mean).toEqual(a.mean);
  });

  it("equals evaluateRun on readQrels and readRun (the values per query; evaluateRun lists them in the run's order)", async () => {
    const options = { gain: "linear", noRelevant: "nan", ties: "docid" } as const;
    const [qrels, run] = [await readQrels(qrelsPath), await readRun(runA)];
    const fromObjects = evaluateRun(qrels, run, MEASURES, options);
    const fromFiles = await evaluateFiles(qrelsPath, runA, MEASURES, options);
    expect(byQid(fromFiles)).toEqual(byQid(fromObjects));
    expect(fromFiles.mean).toEqual(byMeanInOrder(fromObjects, fromFiles.qids));
    expect(fromFiles.queries).toEqual(fromObjects.queries);
    expect(fromFiles.conventions).toBe(fromObjects.conventions);
  });

  it("reads every format the command line reads, and the same numbers come out", async () => {
    const want = byQid(await evaluateFiles(qrelsPath, runA, MEASURES));
    const tsvQrels = file("qrels.dev.tsv", QRELS.replace(/ /g, "\t"));
    const json = file("a.json", JSON.stringify(await readRun(runA)));
    const csv = file(
      "a.csv",
      `query_id,doc_id,score\n${RUN_A.trim()
        .split("\n")
        .map((l) => l.split(" "))
        .map((f) => `${f[0]},${f[2]},${f[4]}`)
        .join("\n")}\n`,
    );
    const beir = file(
      "qrels-beir.tsv",
      `query-id\tcorpus-id\tscore\n${QRELS.trim()
        .split("\n")
        .map((l) => l.split(" "))
        .map((f) => `${f[0]}\t${f[2]}\t${f[3]}`)
        .join("\n")}\n`,
    );
    const gz = file("a.run.gz", gzipSync(RUN_A));
    for (const [q, r] of [
      [tsvQrels, runA],
      [qrelsPath, json],
      [qrelsPath, csv],
      [beir, gz],
      [file("q.json.gz", gzipSync(JSON.stringify(await readQrels(qrelsPath)))), runA],
    ]) {
      expect(byQid(await evaluateFiles(q, r, MEASURES)), `${q} ${r}`).toEqual(want);
    }
    // inputFormat for every file, whatever the names; columns for CSV/TSV headers.
    const table = (text: string, value: number) =>
      `q\tdoc\ts\n${text
        .trim()
        .split("\n")
        .map((l) => l.split(" "))
        .map((f) => `${f[0]}\t${f[2]}\t${f[value]}`)
        .join("\n")}\n`;
    const named = { inputFormat: "tsv", columns: { qid: "q", docid: "doc", value: "s" } } as const;
    expect(
      byQid(
        await evaluateFiles(
          file("judgments.txt", table(QRELS, 3)),
          file("scores.txt", table(RUN_A, 4)),
          MEASURES,
          named,
        ),
      ),
    ).toEqual(want);
    // With columns given, a first line is a header, even one of TREC's fields.
    await expect(evaluateFiles(tsvQrels, runA, MEASURES, named)).rejects.toThrow(
      /qrels\.dev\.tsv:1:1: the header has no query id column \(looked for "q"; the tab-separated header has "q1", "0", "d1", "1"\)/,
    );
  });

  it("takes complete (trec_eval -c) and judgedOnly (trec_eval -J), as the command line does", async () => {
    const c = await evaluateFiles(qrelsPath, runB, ["map", "num_ret"], { complete: true, judgedOnly: true });
    const json = JSON.parse(
      (await cli("--format", "json", "-q", "-c", "-J", "-m", "map", "-m", "num_ret", qrelsPath, runB)).out,
    ).runs[0];
    expect(c.qids).toEqual(Object.keys(json.perQuery).sort());
    expect(c.qids).toContain("q4");
    c.qids.forEach((q, i) => expect(c.values.map[i]).toBe(json.perQuery[q].map));
    expect(c.mean.map).toBe(json.mean.map);
    expect(c.queries.skipped.notInRun).toBe(2); // q4 and q5
  });

  it("rejects bad input with the file, line and column, and bad calls before reading anything", async () => {
    await expect(
      evaluateFiles(qrelsPath, file("bad.run", "q1 Q0 d1 1 0.9 a\nq1 Q0 d2 2 0.8x a\n"), ["map"]),
    ).rejects.toThrow(/bad\.run:2:12: score "0\.8x" is not a number/);
    const e = await evaluateFiles(qrelsPath, file("dup.run", "q1 Q0 d1 1 0.9 a\nq1 Q0 d1 2 0.8 a\n"), ["map"]).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).line).toBe(2);
    await expect(evaluateFiles(join(dir, "missing.txt"), runA, ["map"])).rejects.toThrow(
      /missing\.txt: cannot read it: no such file \(ENOENT\)/,
    );
    await expect(evaluateFiles(qrelsPath, file("odd.tsv", "a\tb\tc\nq1\td1\t1\n"), ["map"])).rejects.toThrow(
      /the header has no query id column .*; name them with the `columns` option .*`inputFormat`/,
    );
    const bad: [() => Promise<unknown>, RegExp][] = [
      [() => evaluateFiles(qrelsPath, runA, ["nope@3"]), /nope/],
      [() => evaluateFiles(qrelsPath, runA, ["map"], { gain: "cubic" as "exp" }), /gain/],
      [() => evaluateFiles(qrelsPath, [], ["map"]), /runs must be a run file's path or a non-empty array/],
      [() => evaluateFiles(qrelsPath, [runA, 3 as unknown as string], ["map"]), /runs\[1\] must be a file path/],
      [() => evaluateFiles(undefined as unknown as string, runA, ["map"]), /qrels must be a file path/],
      [
        () => evaluateFiles(qrelsPath, runA, ["map"], { inputFormat: "xml" as "csv" }),
        /inputFormat must be "trec", "json", "jsonl", "csv", "tsv", "parquet", "arrow" or "msmarco", not "xml"/,
      ],
      [
        () => evaluateFiles(qrelsPath, runA, ["map"], { columns: { query: "x" } as never }),
        /columns\.query: the columns are qid, docid, value and tag \(Parquet and Arrow\)/,
      ],
      [() => evaluateFiles("-", "-", ["map"]), /only one file can be standard input/],
      // Column names for inputs that have no columns (TREC text by their names): refused, not ignored.
      [
        () => evaluateFiles(qrelsPath, runA, ["map"], { columns: { qid: "topic" } }),
        /^columns names CSV\/TSV, JSON lines, Parquet or Arrow columns, but every input is read as TREC text \(by its name\): give the format with `inputFormat`/,
      ],
      [() => readQrels(qrelsPath, { columns: { qid: "topic" } }), /^readQrels: columns names .* read as TREC text/],
      [
        () => readRun(file("r.json", "{}"), { columns: { qid: "topic" } }),
        /^readRun: columns names .* read as JSON \(by its name\)/,
      ],
    ];
    for (const [call, message] of bad) {
      const err = await call().catch((x: unknown) => x);
      expect(err, String(message)).toBeInstanceOf(RankevalError);
      expect((err as Error).message).toMatch(message);
    }
  });
});

/**
 * A Result's means taken over its queries in another order (so sums agree to the last bit); the sum
 * for a measure whose tool sums it (ir_measures' NumRet).
 */
function byMeanInOrder(r: Result<string>, qids: string[]): Record<string, number> {
  const at = new Map(r.qids.map((q, i) => [q, i]));
  const out: Record<string, number> = {};
  for (const m of r.measures) {
    let sum = 0;
    let n = 0;
    for (const q of qids) {
      const v = r.values[m][at.get(q)!];
      if (!Number.isNaN(v)) {
        sum += v;
        n++;
      }
    }
    out[m] = parseMeasures(m)[0].aggregate === "sum" ? sum : n ? sum / n : NaN;
  }
  return out;
}

describe("readQrels and readRun", () => {
  it("read { qid: { docid: value } } from every format", async () => {
    const want = {
      q1: { d1: 1, d2: 0, d3: 2, d5: 1 },
      q2: { d1: 1, é: 2 },
      q4: { d1: 1 },
      10: { 7: 1, 8: 0 },
      q5: { d1: 0 },
    };
    expect(await readQrels(qrelsPath)).toEqual(want);
    expect(await readQrels(file("qrels.dev.tsv.gz", gzipSync(QRELS.replace(/ /g, "\t"))))).toEqual(want);
    expect(await readQrels(file("qrels.json", JSON.stringify(want)))).toEqual(want);
    expect(await readQrels(file("beir.tsv", "query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0\n"))).toEqual({
      q1: { d1: 1, d2: 0 },
    });
    expect(
      await readQrels(file("named.csv", "topic,passage,gain\nq1,d1,3\n"), {
        columns: { qid: "topic", docid: "passage", value: "gain" },
      }),
    ).toEqual({ q1: { d1: 3 } });
    expect(await readRun(runB)).toEqual({ q1: { d3: 0.9, d1: 0.8 }, q2: { d1: 0.5 }, 10: { 7: 2 } });
    expect(await readRun(file("b.csv", "qid,docid,score\nq1,d3,0.9\nq1,d1,0.8\n"))).toEqual({
      q1: { d3: 0.9, d1: 0.8 },
    });
    expect(await readRun(file("tabbed.run", RUN_B.replace(/ /g, "\t")), { inputFormat: "trec" })).toEqual(
      await readRun(runB),
    );
  });

  it("keep ids as they are: __proto__ and constructor are plain keys, a query's rows may be scattered", async () => {
    const q = await readQrels(file("proto.txt", "__proto__ 0 constructor 1\nq1 0 __proto__ 2\n__proto__ 0 d2 0\n"));
    expect(Object.getPrototypeOf(q)).toBe(Object.prototype);
    expect(Object.keys(q)).toEqual(["__proto__", "q1"]);
    // The own key "__proto__" (q's prototype is Object.prototype, checked above).
    expect(Object.entries(Object.getOwnPropertyDescriptor(q, "__proto__")?.value)).toEqual([
      ["constructor", 1],
      ["d2", 0],
    ]);
    expect(Object.entries(q.q1)).toEqual([["__proto__", 2]]);
    // JSON.parse makes own "__proto__" keys, as readRun does.
    const r = evaluateRun(q, JSON.parse('{"q1": {"__proto__": 1}, "__proto__": {"d2": 1, "constructor": 0}}'), [
      "num_rel",
      "num_rel_ret",
    ]);
    expect(r.qids).toEqual(["q1", "__proto__"]);
    expect(Array.from(r.values.num_rel_ret)).toEqual([1, 1]);
  });

  it("say where a document is judged or ranked twice (an object keeps one value)", async () => {
    await expect(readQrels(file("dup-qrels.txt", "q1 0 d1 1\nq2 0 d1 1\nq1 0 d1 0\n"))).rejects.toThrow(
      /dup-qrels\.txt:3: document "d1" appears twice in query "q1"/,
    );
    await expect(readRun(file("dup.run", "q1 Q0 d1 1 0.9 a\nq1 Q0 d1 2 0.8 a\n"))).rejects.toThrow(
      /dup\.run:2: document "d1" appears twice in query "q1"/,
    );
    await expect(readRun(file("bad.json", '{"q1": {"d1": 1, "d1": 2}}'))).rejects.toThrow(InputError);
    await expect(readQrels(join(dir, "nothing-here"))).rejects.toThrow(
      /nothing-here: cannot read it: no such file \(ENOENT\)/,
    );
    await expect(readQrels(qrelsPath, { inputFormat: "yaml" as "json" })).rejects.toThrow(
      /inputFormat must be "trec", .* not "yaml"/,
    );
  });
});

describe("parsed rows cannot be joined across two id spaces", () => {
  const enc = new TextEncoder();
  const QRELS_TEXT = "q1 0 d1 1\nq2 0 d2 1\n";
  // The run's first query is q2: numbered 0 by an interner of its own, as q1 is by the qrels'.
  const RUN_TEXT = "q2 Q0 d1 1 1.0 r\nq1 Q0 d1 1 1.0 r\n";

  it("joinParsed refuses rows of two query interners with a RankevalError, and names the queries by their ids", () => {
    const q = new QrelsParser({ file: "qrels.txt", qids: new Interner(), docids: "per-row" });
    const r = new RunParser({ file: "run.txt", qids: new Interner(), docids: "per-row" });
    q.push(enc.encode(QRELS_TEXT));
    r.push(enc.encode(RUN_TEXT));
    const [qrels, run] = [q.finish(), r.finish()];
    const e = (() => {
      try {
        joinParsed(qrels, run);
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(RankevalError);
    expect((e as RankevalError).code).toBe("bad-input");
    expect((e as Error).message).toBe(
      "run.txt and qrels.txt were parsed with different query-id Interners: give both parsers the same `qids` Interner (or read the files with rankeval/node's evaluateFiles)",
    );
    // One interner: string ids, in byte order.
    const qids = new Interner();
    const q2 = new QrelsParser({ file: "qrels.txt", qids, docids: "per-row" });
    const r2 = new RunParser({ file: "run.txt", qids, docids: "per-row" });
    q2.push(enc.encode(QRELS_TEXT));
    r2.push(enc.encode(RUN_TEXT));
    expect(joinParsed(q2.finish(), r2.finish()).qids).toEqual(["q1", "q2"]);
  });

  it("evaluateRun reads interned parser output by its ids' strings, whatever interners each side used", () => {
    const parse = (qids: Interner, docids: Interner) => {
      const q = new QrelsParser({ file: "qrels.txt", qids, docids });
      q.push(enc.encode(QRELS_TEXT));
      return q.finish();
    };
    const parseRun = (qids: Interner, docids: Interner) => {
      const r = new RunParser({ file: "run.txt", qids, docids });
      r.push(enc.encode(RUN_TEXT));
      return r.finish();
    };
    const truth = evaluateRun({ q1: { d1: 1 }, q2: { d2: 1 } }, { q2: { d1: 1 }, q1: { d1: 1 } }, ["map"]);
    expect(truth.qids).toEqual(["q2", "q1"]);
    expect(truth.mean.map).toBe(0.5);
    const shared = [new Interner(), new Interner()] as const;
    const pairs: [ReturnType<typeof parse>, ReturnType<typeof parseRun>][] = [
      [parse(...shared), parseRun(...shared)],
      [parse(new Interner(), new Interner()), parseRun(new Interner(), new Interner())],
      [parse(shared[0], new Interner()), parseRun(shared[0], shared[1])],
    ];
    for (const [qrels, run] of pairs) {
      const r = evaluateRun(qrels, run, ["map"]);
      expect(r.qids).toEqual(truth.qids);
      expect(r.mean).toEqual(truth.mean);
      expect(Array.from(r.values.map)).toEqual(Array.from(truth.values.map));
    }
    // Rows parsed per row are the command line's: evaluateRun says how to get interned ones.
    const perRow = new QrelsParser({ file: "qrels.txt", qids: new Interner(), docids: "per-row" });
    perRow.push(enc.encode(QRELS_TEXT));
    expect(() => evaluateRun(perRow.finish() as never, { q1: { d1: 1 } }, "map")).toThrow(
      /qrels was parsed with docids: "per-row"/,
    );
  });
});

describe("a .tsv chosen by its first line", () => {
  it("reads the same rows however the first line is split into chunks", async () => {
    const text = enc("q1\t0\td1\t1\nq1\t0\td2\t0\n");
    // The factory is async (it loads the CSV/TSV parser when first needed); the parser it gives is not.
    const rows = async (chunks: Uint8Array[]) => {
      const p = await qrelsParserFor("x.tsv", new Interner(), 0, {});
      for (const c of chunks) p.push(c);
      const r = p.finish();
      return { length: r.length, rel: Array.from(r.rel) };
    };
    const whole = await rows([text]);
    expect(whole).toEqual({ length: 2, rel: [1, 0] });
    for (let i = 0; i <= text.length; i++) expect(await rows([text.subarray(0, i), text.subarray(i)])).toEqual(whole);
    expect(await rows(Array.from(text, (b) => Uint8Array.of(b)))).toEqual(whole);
    expect(await rows([enc("q1\t0\td1\t1")])).toEqual({ length: 1, rel: [1] });
    await expect(rows([])).rejects.toThrow(/expected a header line/);
  });
});

function enc(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}
