// Run preparations (issue 38): --rollup SEP [--rollup-method max|sum|first] and --drop-self, decided in
// src/pipeline/prepare-run.ts and applied where a run's rows become the join's (joinParsed). Hand-computed
// cases through the library, then one passage run (examples/passages.run) through every face, format
// and thread count: the command line, evaluateFiles, evaluateRun on readRun's objects, and the page.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CHROMIUM, pageInChromium } from "../scripts/page.mjs";
import { evaluateSources, type EvaluationHost } from "../src/app/evaluation.js";
import { measuresPlan } from "../src/app/evaluator.js";
import { evaluate, evaluateRun } from "../src/index.js";
import { evaluateFiles, readQrels, readRun } from "../src/node/index.js";
import { prepareRun, runPreparation } from "../src/pipeline/prepare-run.js";
import { Interner } from "../src/io/interner.js";
import { MemoryRows } from "../src/pipeline/join-memory.js";
import { cliHere, numbersOfJson, numbersOfResult, type Numbers } from "./faces/faces.js";
import type { InputSet } from "./faces/generate.js";
import { type Format, writeSet } from "./faces/write.js";

const root = new URL("..", import.meta.url).pathname;
const QRELS = join(root, "examples/qrels.txt");
const PASSAGES = join(root, "examples/passages.run");
const MEASURES = ["ndcg@10", "map", "mrr"];

describe("the preparations, by hand", () => {
  // Documents a (label 0) and b (label 1), as passages.
  const qrels = { q1: { a: 0, b: 1 } };
  const run = { q1: { "a#1": 3, "b#1": 2, "b#2": 2.5, "a#2": 1 } };

  it("MaxP: a document scores its best passage's score (a 3, b 2.5: b second)", () => {
    const r = evaluateRun(qrels, run, ["mrr", "P@1", "ndcg@10"], { rollup: "#" });
    expect(r.mean.mrr).toBe(0.5);
    expect(r.mean["P@1"]).toBe(0);
    // DCG 1/log2(3) of an ideal 1.
    expect(r.mean["ndcg@10"]).toBeCloseTo(1 / Math.log2(3), 12);
    expect(r.prepared).toEqual({ rows: 4, passages: 4, documents: 2, selfDropped: 0 });
    // Unrolled, no passage is judged.
    expect(evaluateRun(qrels, run, ["mrr"]).mean.mrr).toBe(0);
    expect(evaluateRun(qrels, run, ["mrr"]).prepared).toBeUndefined();
  });

  it("sum: the passages' scores summed (a 4, b 4.5: b first); first: each document's passage of least number", () => {
    expect(evaluateRun(qrels, run, ["mrr"], { rollup: "#", rollupMethod: "sum" }).mean.mrr).toBe(1);
    expect(evaluateRun(qrels, run, ["mrr"], { rollup: "#", rollupMethod: "max" }).mean.mrr).toBe(0.5);
    // FirstP: a#1 (3) and b#1 (2); a#2 and b#2 come later in their documents.
    expect(evaluateRun(qrels, run, ["mrr"], { rollup: "#", rollupMethod: "first" }).mean.mrr).toBe(0.5);
    // Passage numbers compare as numbers: b's first is b#2 (2), above a's a#0 (1); max ranks a (3) first.
    const firstP = { q1: { "a#7": 3, "a#0": 1, "b#10": 0.5, "b#2": 2 } };
    expect(evaluateRun(qrels, firstP, ["mrr"], { rollup: "#", rollupMethod: "first" }).mean.mrr).toBe(1);
    expect(evaluateRun(qrels, firstP, ["mrr"], { rollup: "#", rollupMethod: "max" }).mean.mrr).toBe(0.5);
    // The document's own id (no number) is its first passage.
    const own = { q1: { a: 0.1, "a#0": 5, "b#3": 1 } };
    expect(evaluateRun(qrels, own, ["mrr"], { rollup: "#", rollupMethod: "first" }).mean.mrr).toBe(1);
    expect(() => evaluateRun(qrels, { q1: { "a#x": 1 } }, ["mrr"], { rollup: "#", rollupMethod: "first" })).toThrow(
      /passage "a#x" has no number after its separator/,
    );
  });

  it("a document stands where its first best passage stood: ties 'input' read that place, 'docid' the document's id", () => {
    // z's best (2) is on row 2, a's (2) on row 1: input ties put a first, docid ties (descending) z.
    const tied = { qid: ["q1", "q1", "q1"], docid: ["z#1", "a#1", "z#2"], score: [1, 2, 2] };
    const judged = { q1: { z: 1, a: 0 } };
    expect(evaluateRun(judged, tied, ["mrr"], { rollup: "#", ties: "input" }).mean.mrr).toBe(0.5);
    expect(evaluateRun(judged, tied, ["mrr"], { rollup: "#", ties: "docid" }).mean.mrr).toBe(1);
  });

  it("cuts an id at the last separator; an id without one (or with nothing before it) is its own document", () => {
    const names = new Interner();
    const rows = new MemoryRows("run", names).addGiven({
      qid: ["q", "q", "q", "q"],
      docid: ["msmarco_doc_00_0_3", "msmarco_doc_00_0_7", "plain", "_x"],
      value: [1, 2, 3, 4],
    });
    const p = prepareRun(rows.rows(), { rollup: { separator: "_", method: "max" } });
    const ids = Array.from({ length: p.run.length }, (_, i) =>
      new TextDecoder().decode(p.run.docids.bytes.subarray(p.run.docids.offsets[i], p.run.docids.offsets[i + 1])),
    );
    expect(ids).toEqual(["msmarco_doc_00_0", "plain", "_x"]);
    expect(Array.from(p.run.score)).toEqual([2, 3, 4]);
    expect(Array.from(p.from)).toEqual([1, 2, 3]);
    expect(p.counts).toEqual({ rows: 4, passages: 2, documents: 3, selfDropped: 0 });
  });

  it("drop-self: the query's own id ranked first is left out (ArguAna), counted", () => {
    const judged = { q1: { d1: 0, d2: 1 } };
    const ranked = { q1: { q1: 10, d1: 5, d2: 4 } };
    expect(evaluateRun(judged, ranked, ["mrr"]).mean.mrr).toBeCloseTo(1 / 3, 15);
    const r = evaluateRun(judged, ranked, ["mrr"], { dropSelf: true });
    expect(r.mean.mrr).toBe(0.5);
    expect(r.prepared).toEqual({ rows: 3, passages: 0, documents: 3, selfDropped: 1 });
    // After the rollup: a passage of the query's own document goes too.
    const passages = { q1: { "q1#0": 10, "d1#0": 5, "d2#4": 4 } };
    const both = evaluateRun(judged, passages, ["mrr"], { rollup: "#", dropSelf: true });
    expect(both.mean.mrr).toBe(0.5);
    expect(both.prepared?.selfDropped).toBe(1);
  });

  it("a judged query left with no document is an empty ranking (0), an unjudged one is counted not judged", () => {
    const judged = { q1: { d1: 1 }, q2: { d9: 1 } };
    const ranked = { q1: { d1: 1 }, q2: { q2: 3 }, q3: { q3: 1 } };
    const r = evaluateRun(judged, ranked, ["mrr"], { dropSelf: true });
    expect(r.qids).toEqual(["q1", "q2"]);
    expect(Array.from(r.values.mrr)).toEqual([1, 0]);
    expect(r.queries.skipped).toEqual({ noRelevant: 0, notJudged: 1, notInRun: 0 });
  });

  it("refuses an empty separator, an unknown method, a method without a separator, and evaluate()'s rows", () => {
    expect(() => evaluateRun(qrels, run, ["mrr"], { rollup: "" })).toThrow(
      'rollup must be the separator of a passage\'s number in its id (as "#" for doc#3), not ""',
    );
    expect(() => evaluateRun(qrels, run, ["mrr"], { rollup: "#", rollupMethod: "mean" as never })).toThrow(
      "rollupMethod must be one of max, sum, first (a document's score: its best passage's, their sum, its first passage's), not \"mean\"",
    );
    expect(() => evaluateRun(qrels, run, ["mrr"], { rollupMethod: "sum" })).toThrow(
      "rollupMethod sum needs rollup SEP (the passages' separator)",
    );
    expect(() => evaluateRun(qrels, run, ["mrr"], { dropSelf: "yes" as never })).toThrow(
      'dropSelf must be true or false, not "yes"',
    );
    expect(() => evaluate({ qid: [1], score: [1], rel: [1] }, ["mrr"], { dropSelf: true })).toThrow(
      "rollup and dropSelf prepare a run's documents: give them to evaluateRun or evaluateFiles",
    );
    expect(runPreparation({ dropSelf: false })).toBeUndefined();
  });

  it("takes the one-thread way where partitions would be taken: they join what they read themselves", async () => {
    const called: string[] = [];
    const host: EvaluationHost<string> = {
      name: (s) => s,
      partitioned: async () => {
        called.push("partitioned");
        return 0;
      },
      judgments: async () => {
        throw new Error("judgments read");
      },
      runs: async () => {
        called.push("runs");
      },
    };
    const plan = measuresPlan(["mrr"]);
    const request = {
      plan,
      options: {},
      tieRange: false,
      spec: { measures: plan.measures, options: {}, tieRange: false },
    };
    const hooks = { say: () => {}, run: () => {} };
    await evaluateSources(host, "q", ["r"], { ...request, prepare: { dropSelf: true } }, hooks).catch(() => {});
    expect(called).toEqual([]);
    await evaluateSources(host, "q", ["r"], request, hooks).catch(() => {});
    expect(called).toEqual(["partitioned"]);
  });
});

/** examples/passages.run (and its qrels) as an input set, to be written in every format. */
function passageSet(): InputSet {
  const lines = (path: string) => readFileSync(path, "utf8").trim().split("\n");
  const qrels = lines(QRELS).map((l) => {
    const [qid, , docid, label] = l.split(/\s+/);
    return { qid, docid, label };
  });
  const rows = lines(PASSAGES).map((l) => {
    const [qid, , docid, rank, score] = l.split(/\s+/);
    return { qid, docid, score, rank: Number(rank) };
  });
  return { name: "passages", qrels, runs: [{ name: "passages", tag: "passages", rows }] };
}

const dir = mkdtempSync(join(tmpdir(), "rankeval-prep-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FORMATS: readonly Format[] = ["trec", "json", "csv", "tsv", "parquet", "arrow"];
const PREPARATIONS = [
  { name: "MaxP", cli: ["--rollup", "#"], library: { rollup: "#" } },
  { name: "sum", cli: ["--rollup=#", "--rollup-method", "sum"], library: { rollup: "#", rollupMethod: "sum" } },
  { name: "drop-self", cli: ["--drop-self"], library: { dropSelf: true } },
  {
    name: "both",
    cli: ["--rollup", "#", "--rollup-method", "first", "--drop-self"],
    library: { rollup: "#", rollupMethod: "first", dropSelf: true },
  },
] as const;

const mArgs = MEASURES.flatMap((m) => ["-m", m]);

async function libraryNumbers(qrels: string, runPath: string, options: object): Promise<Numbers> {
  const result = await evaluateFiles(qrels, runPath, MEASURES as never, options);
  return { passages: numbersOfResult(result) };
}

describe("every face, format and thread count gives the same numbers", () => {
  const set = passageSet();
  const expected = new Map<string, Numbers>();

  it.each(PREPARATIONS)("$name: evaluateRun on the objects, by hand's reckoning of MaxP", async (prep) => {
    const q = await readQrels(QRELS);
    const r = await readRun(PASSAGES);
    const result = evaluateRun(q, r, MEASURES as never, prep.library as object);
    expected.set(prep.name, { passages: numbersOfResult(result) });
    expect(result.prepared?.rows).toBe(1810);
    if ("rollup" in prep.library) expect(result.prepared?.documents).toBe(610);
    // Alone, drop-self finds no id "q1" (the query's is passage "q1#0"): it comes after the rollup.
    if ("dropSelf" in prep.library) expect(result.prepared?.selfDropped).toBe("rollup" in prep.library ? 10 : 0);
  });

  it("the rollup changes the numbers (no passage is judged) and the bundled runs' documents are found", async () => {
    const plain = (await libraryNumbers(QRELS, PASSAGES, {})).passages.mean;
    expect(plain.map).toBe(0);
    expect(expected.get("MaxP")!.passages.mean.map).toBeGreaterThan(0.5);
    // Dropping the query's own passage (ranked first in odd queries) raises the means.
    expect(expected.get("both")!.passages.mean.mrr).toBeGreaterThan(expected.get("MaxP")!.passages.mean.mrr!);
  });

  for (const format of FORMATS)
    for (const prep of PREPARATIONS)
      it(`${format}, ${prep.name}: the command line (1 and 2 threads) and evaluateFiles`, async () => {
        const files = writeSet(set, format, join(dir, format));
        const want = expected.get(prep.name)!;
        for (const threads of [1, 2]) {
          const out = await cliHere(
            ["--threads", String(threads), "--format", "json", "-q", ...mArgs, ...prep.cli, files.qrels, files.runs[0]],
            threads,
            0,
          );
          expect(out.status, out.stderr).toBe(0);
          expect(numbersOfJson(out.stdout), `${format} ${threads} threads`).toEqual(want);
          if ("rollup" in prep.library) expect(out.stderr).toContain(": 1810 rows rolled up into 610 documents");
          if ("dropSelf" in prep.library)
            expect(out.stderr).toContain(
              `: drop-self: ${"rollup" in prep.library ? 10 : 0} documents whose id is their query's left out`,
            );
        }
        const library = await libraryNumbers(files.qrels, files.runs[0], prep.library);
        expect(library, format).toEqual(want);
      });
});

describe("MS MARCO's runs (qid docid rank: ranks are the scores)", () => {
  it("the command line (1 and 2 threads) and evaluateFiles agree, and the rollup finds the documents", async () => {
    const files = writeSet(passageSet(), "msmarco", join(dir, "msmarco"));
    const library = await libraryNumbers(files.qrels, files.runs[0], { rollup: "#", dropSelf: true });
    expect(library.passages.mean.map).toBeGreaterThan(0.5);
    for (const threads of [1, 2]) {
      const args = ["--threads", String(threads), "--format", "json", "-q", ...mArgs, "--rollup", "#", "--drop-self"];
      const out = await cliHere([...args, files.qrels, files.runs[0]], threads, 0);
      expect(out.status, out.stderr).toBe(0);
      expect(numbersOfJson(out.stdout)).toEqual(library);
    }
  });
});

describe("the command line's refusals", () => {
  it("refuses an empty separator, an unknown method, a method alone, and modes the runs are not joined in", async () => {
    const expectRefused = async (args: string[], message: string) => {
      const out = await cliHere([...args, QRELS, PASSAGES]);
      expect(out.status).toBe(1);
      expect(out.stderr).toContain(message);
    };
    await expectRefused(
      ["--rollup", ""],
      '--rollup must be the separator of a passage\'s number in its id (as "#" for doc#3), not ""',
    );
    await expectRefused(
      ["--rollup", "#", "--rollup-method", "mean"],
      '--rollup-method: "mean" is not one of max, sum, first',
    );
    await expectRefused(["--rollup-method", "sum"], "--rollup-method needs --rollup SEP");
    await expectRefused(
      ["--drop-self", "--fuse", "rrf"],
      "--drop-self prepares the runs of QRELS RUN [RUN ...] as they are joined to qrels judgments: not with --fuse",
    );
    await expectRefused(["--rollup", "#", "--qrels-stats"], "--rollup has no meaning with --qrels-stats");
    // A document (or passage) twice in a query is named at its line, as without a preparation.
    const twice = join(dir, "twice.run");
    writeFileSync(twice, "q1 Q0 q1 1 5 t\nq1 Q0 d1#0 2 4 t\nq1 Q0 d1#1 3 3 t\nq1 Q0 d1#0 4 2 t\n");
    for (const prep of [["--drop-self"], ["--rollup", "#"], ["--rollup", "#", "--drop-self"]]) {
      const out = await cliHere([...prep, QRELS, twice]);
      expect(out.status, prep.join(" ")).toBe(2);
      expect(out.stderr).toContain(`${twice}:4: document "d1#0" appears twice in query "q1"`);
    }
    // Subtopic judgments told by their shape (qid subtopic docid label, a document under two subtopics).
    const subtopics = join(dir, "subtopics.txt");
    writeFileSync(subtopics, "q1 1 d1 1\nq1 2 d1 1\nq1 2 d2 0\n");
    const out = await cliHere(["--drop-self", subtopics, PASSAGES]);
    expect(out.status).toBe(1);
    expect(out.stderr).toContain(
      "--drop-self prepares runs joined to qrels judgments, not to subtopic judgments (diversity measures)",
    );
    // evaluateFiles says it in the same words, its option named as the library names it.
    await expect(evaluateFiles(subtopics, PASSAGES, ["map"] as never, { rollup: "#" })).rejects.toThrow(
      "rollup prepares runs joined to qrels judgments, not to subtopic judgments (diversity measures)",
    );
  });
});

describe.skipIf(!existsSync(CHROMIUM))("the page", () => {
  it("offers both and gives the command line's numbers, the counts in its notes", async () => {
    const { browser, url, close } = await pageInChromium(join(dir, "site"));
    try {
      const page = await browser.newPage({ acceptDownloads: true });
      // Two partition workers and any size: the page must still prepare the runs.
      await page.goto(`${url}?workers=2&partition-bytes=0`);
      await page.selectOption('select[name="preset"]', "custom");
      await page.fill('input[name="measures"]', MEASURES.join(" "));
      await page.fill('input[name="rollup"]', "#");
      await page.selectOption('select[name="rollupMethod"]', "first");
      await page.check('input[name="dropSelf"]');
      await page.locator('input[name="measures"]').blur();
      await page.setInputFiles('input[name="qrels"]', QRELS);
      await page.setInputFiles('input[name="run"]', PASSAGES);
      await page.waitForFunction(() => document.body.dataset.state === "done", undefined, { timeout: 60_000 });
      expect(((await page.textContent("#error")) ?? "").trim()).toBe("");
      const notes = (await page.textContent("#warnings")) ?? "";
      expect(notes).toContain('passages.run: rollup "#" (first): 1810 rows rolled up into 610 documents');
      expect(notes).toContain("passages.run: drop-self: 10 documents whose id is their query's left out");
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.locator('#downloads button[data-format="json"]').click(),
      ]);
      const shown = numbersOfJson(readFileSync((await download.path())!, "utf8"));
      const firstP = ["--rollup", "#", "--rollup-method", "first"];
      const cli = await cliHere(["--format", "json", ...mArgs, ...firstP, "--drop-self", QRELS, PASSAGES]);
      expect(shown.passages.mean).toEqual(numbersOfJson(cli.stdout).passages.mean);
      // The method reached the page: FirstP's numbers are not MaxP's on these passages.
      const maxPSelf = await cliHere(["--format", "json", ...mArgs, "--rollup", "#", "--drop-self", QRELS, PASSAGES]);
      expect(shown.passages.mean).not.toEqual(numbersOfJson(maxPSelf.stdout).passages.mean);
      // Another preparation on the kept rows: the run is read again under it, not the kept blocks reused.
      await page.uncheck('input[name="dropSelf"]');
      await page.waitForFunction(() => document.body.dataset.state === "done", undefined, { timeout: 60_000 });
      await page.waitForSelector('#downloads button[data-format="json"]:not([disabled])');
      const [again] = await Promise.all([
        page.waitForEvent("download"),
        page.locator('#downloads button[data-format="json"]').click(),
      ]);
      const kept = await cliHere(["--format", "json", ...mArgs, ...firstP, QRELS, PASSAGES]);
      expect(numbersOfJson(readFileSync((await again.path())!, "utf8")).passages.mean).toEqual(
        numbersOfJson(kept.stdout).passages.mean,
      );
    } finally {
      await close();
    }
  }, 180_000);
});

describe("the README's example", () => {
  it("prints what the README shows, the notes first", async () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("### Run preparations: `--rollup` and `--drop-self`"));
    const block = section.slice(section.indexOf("```sh\n") + 6, section.indexOf("\n```", section.indexOf("```sh")));
    // Each command, then the lines it prints (stderr's, then stdout's), as in the block.
    const commands = block.split(/^\$ rankeval /m).filter(Boolean);
    expect(commands).toHaveLength(2);
    for (const c of commands) {
      const [line, ...printed] = c.trimEnd().split("\n");
      const args = line.split(" ").map((a) => a.replace(/^'(.*)'$/, "$1"));
      const out = await cliHere(args.map((a) => (a.startsWith("examples/") ? join(root, a) : a)));
      expect(out.status).toBe(0);
      const said = out.stderr.split(root).join("");
      expect(`${said}${out.stdout}`.trimEnd()).toBe(printed.join("\n"));
    }
  });
});
