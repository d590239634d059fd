// MS MARCO's and dense retrievers' runs (`qid docid rank`, tab or space, no score, no header): read as
// the run of score -rank, named by --input-format msmarco (`inputFormat: "msmarco"`, RunParser's
// `shape: "msmarco"`) or told by the first line (3 fields, rank 1; ranks then count 1, 2, 3 per
// query). Each is checked against the same run written as TREC text with scores that order it as the
// ranks do. The judgments are BEIR's TSV (`query-id corpus-id score`, a header), as MS MARCO's are on
// the Hub.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Interner, RunParser } from "../src/io/index.js";
import { evaluateFiles, readRun } from "../src/node/index.js";
import { root, run, type Ran } from "./_package.js";

const fixtures = fileURLToPath(new URL("./fixtures/msmarco/", import.meta.url));
const QRELS = join(fixtures, "qrels.dev.tsv");
const RUN = join(fixtures, "run.dev.tsv");
const dir = mkdtempSync(join(tmpdir(), "rankeval-msmarco-"));
const lines = readFileSync(RUN, "utf8").trim().split("\n");

function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

/** The run as TREC text, each row's score 1000 - rank, its tag `tag`. */
function trecTwin(tag: string): string {
  return file(
    `${tag}.trec`,
    lines
      .map((l) => l.split("\t"))
      .map(([q, d, r]) => `${q} Q0 ${d} ${r} ${1000 - Number(r)} ${tag}\n`)
      .join(""),
  );
}

/** The built command line, run in its own process. */
async function cli(...argv: string[]): Promise<Ran> {
  return run(process.execPath, [join(root, "dist/node/bin.js"), ...argv], dir);
}

const spaced = file("run.dev.txt", lines.map((l) => `${l.replaceAll("\t", "  ")}\n`).join(""));
const named = file("dense.run", `${lines.join("\n")}\n`);

describe("MS MARCO runs on the command line", () => {
  it.each([
    ["a .tsv, told by its first line", [RUN], "run.dev"],
    ["space-separated, named as TREC text (read as it streams: no tag)", [spaced], ""],
    [
      "--input-format msmarco (the BEIR judgments still read by their name)",
      ["--input-format", "msmarco", named],
      "dense.run",
    ],
  ])(
    "%s: trec_eval's measures as the TREC twin's, the tag the file's name (if read whole)",
    async (_what, args, tag) => {
      // A streamed run's tag is its last line's: none here (its runid line aside, the same output).
      const twin = await cli(QRELS, trecTwin(tag || "streamed"));
      expect(twin.status).toBe(0);
      const got = await cli(...args.slice(0, -1), QRELS, args[args.length - 1]);
      expect(got.err).toBe(twin.err);
      const runid = /^runid.*\n/;
      expect(got.out.replace(runid, "")).toBe(twin.out.replace(runid, ""));
      expect(got.out).toMatch(new RegExp(`^runid\\s+\\tall\\t${tag.replace(".", "\\.")}\\n`));
      expect(got.out).toMatch(/^num_rel_ret\s+\tall\t8\n/m);
    },
  );

  it("a rank given twice (the format named): tied, in trec_eval's order (document id descending)", async () => {
    const run = file("ties.run", "q 1 1\nq 2 1\nq 3 2\n");
    const qrels = file("ties.qrels", "q 0 1 1\n");
    const twin = file("twin.run", "q Q0 1 1 -1 ties.run\nq Q0 2 2 -1 ties.run\nq Q0 3 3 -2 ties.run\n");
    const got = await cli("--input-format", "msmarco", "-m", "mrr", "-m", "recip_rank", qrels, run);
    expect(got.status).toBe(0);
    expect(got.out.replace(/(ties|twin)\.run/g, "")).toBe(
      (await cli("-m", "mrr", "-m", "recip_rank", qrels, twin)).out.replace(/(ties|twin)\.run/g, ""),
    );
    // Document "1" is relevant and ranked second among the tied (2 before 1).
    expect(got.out).toMatch(/^recip_rank( \[\d\])?\s+0\.5000/m);
  });

  it("says why a run that starts as MS MARCO's is not one, and how to name the format", async () => {
    const skipped = await cli(QRELS, file("skip.tsv", "1\td1\t1\n1\td2\t3\n"));
    expect(skipped.status).toBe(2);
    expect(skipped.err).toMatch(
      /skip\.tsv:2:6: rank 3 where 2 was expected: read as MS MARCO's run \(qid docid rank\) from its first line, whose ranks count 1, 2, 3 per query; give the format msmarco to read any ranks/,
    );
    expect((await cli("--input-format", "msmarco", QRELS, file("skip.run", "2\td1\t1\n2\td2\t3\n"))).status).toBe(0);
    const mixed = await cli(QRELS, file("mixed.run", "1 d1 1\n1 Q0 d2 2 0.5 tag\n"));
    expect(mixed.err).toMatch(
      /mixed\.run:2:\d+: expected 3 fields \(qid docid rank\), as the first line \(read as MS MARCO's run\), found 6/,
    );
    const notInteger = await cli("--input-format", "msmarco", QRELS, file("float.run", "1 d1 1.5\n"));
    expect(notInteger.err).toMatch(/float\.run:1:6: the rank "1\.5" is not an integer/);
    // Not told by its first line (rank 2, or a header): TREC's error, which names MS MARCO's shape.
    const second = await cli(QRELS, file("second.run", "1 d1 2\n1 d2 3\n"));
    expect(second.err).toMatch(
      /second\.run:1:7: expected at least 6 fields \(qid iter docno rank sim run_id\) or, from the first line on, 3 fields \(qid docid rank\) with ranks 1, 2, 3 per query, as MS MARCO's runs \(the format msmarco reads any ranks\), found 3/,
    );
  });

  it("--input-format lists msmarco, and --help says what it reads", async () => {
    expect((await cli("--input-format", "marco", QRELS, RUN)).err).toMatch(/arrow, msmarco/);
    expect((await cli("--help")).out).toMatch(/msmarco: runs of qid docid rank lines/);
  });
});

describe("MS MARCO runs in the library", () => {
  it("readRun: each document's score -rank, told by the first line or by inputFormat", async () => {
    const run = await readRun(RUN);
    const [q, d] = lines[1].split("\t");
    expect(run[q][d]).toBe(-2);
    expect(await readRun(named, { inputFormat: "msmarco" })).toEqual(run);
    expect(await readRun(spaced)).toEqual(run);
  });

  it("evaluateFiles: the TREC twin's numbers", async () => {
    const ms = ["ndcg@10", "map", "mrr@10", "recall@5"] as const;
    const twin = await evaluateFiles(QRELS, trecTwin("lib"), ms);
    for (const r of [
      await evaluateFiles(QRELS, RUN, ms),
      await evaluateFiles(QRELS, named, ms, { inputFormat: "msmarco" }),
    ])
      expect(r.mean).toEqual(twin.mean);
    expect(twin.mean["ndcg@10"]).toBeGreaterThan(0);
  });

  it("RunParser: shape msmarco, its run tag, and TREC's shape never taken for it", () => {
    const parse = (text: string, o: { shape?: "trec" | "msmarco"; runTag?: string } = {}) => {
      const p = new RunParser({ file: "r", qids: new Interner(), docids: new Interner(), ...o });
      p.push(new TextEncoder().encode(text));
      return p.finish();
    };
    const r = parse("7 a 3\n7 b 1\n", { shape: "msmarco", runTag: "dense" });
    expect([...r.score]).toEqual([-3, -1]);
    expect(r.runTag).toBe("dense");
    expect(parse("7 a 1\n7 b 2\n8 a 1\n").score).toEqual(Float64Array.from([-1, -2, -1]));
    expect(parse("7 a 1\n", { runTag: "t" }).runTag).toBe("t");
    expect(parse("7 Q0 a 1 2.5 tag\n", { runTag: "t" }).runTag).toBe("tag");
    expect(() => parse("7 a 1\n", { shape: "trec" })).toThrow(/expected at least 6 fields/);
  });
});

// Past the first block of 256 rows the parser had made room for (a RowsBuilder's first capacity), past
// a 64 KiB read, and in several chunks of a streamed read: every row counts, as in the TREC twin.
describe("MS MARCO runs of real size", () => {
  const queries = 120;
  const depth = 100; // 12,000 rows, about 170 KB
  const rowsOf = (q: number) =>
    Array.from({ length: depth }, (_, r) => [`${1000 + q}`, `${(q * 7919 + r * 104729) % 99991}`, r + 1]);
  const all = Array.from({ length: queries }, (_, q) => rowsOf(q)).flat();
  const qrels = file(
    "big.qrels",
    Array.from({ length: queries }, (_, q) =>
      rowsOf(q)
        .filter((_, r) => r % 9 === q % 9)
        .map(([qid, d], r) => `${qid} 0 ${d} ${1 + (r % 3)}\n`)
        .join(""),
    ).join(""),
  );
  const msmarco = file("big.tsv", all.map(([q, d, r]) => `${q}\t${d}\t${r}\n`).join(""));
  const twin = file("big.trec", all.map(([q, d, r]) => `${q} Q0 ${d} ${r} ${-Number(r)} big\n`).join(""));

  it("the command line: trec_eval's numbers of the TREC twin, every query", async () => {
    const m = ["-m", "num_q", "-m", "num_ret", "-m", "ndcg_cut.10", "-m", "map"];
    const got = await cli(...m, qrels, msmarco);
    const want = await cli(...m, qrels, twin);
    expect(got.status).toBe(0);
    expect(got.err).toBe("");
    expect(got.out).toBe(want.out);
    expect(got.out).toMatch(new RegExp(`^num_ret\\s+\\tall\\t${queries * depth}\\n`, "m"));
    expect((await cli("--input-format", "msmarco", ...m, qrels, msmarco)).out).toBe(want.out);
  });

  it("readRun and evaluateFiles: every row", async () => {
    const run = await readRun(msmarco);
    expect(Object.keys(run)).toHaveLength(queries);
    expect(Object.values(run).reduce((n, docs) => n + Object.keys(docs).length, 0)).toBe(queries * depth);
    const ms = ["ndcg@10", "map", "recall@100"] as const;
    const want = await evaluateFiles(qrels, twin, ms);
    expect(want.qids).toHaveLength(queries);
    expect((await evaluateFiles(qrels, msmarco, ms)).mean).toEqual(want.mean);
    expect((await evaluateFiles(qrels, msmarco, ms, { inputFormat: "msmarco" })).mean).toEqual(want.mean);
  });
});
