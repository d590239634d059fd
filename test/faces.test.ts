// The one differential test of the faces (issue 36): seeded input sets (test/faces/generate.ts) written
// in every format the project reads (test/faces/write.ts), at sizes on both sides of every threshold
// where the code changes path (test/faces/thresholds.ts), evaluated by the command line (in this
// process and built, with 1 to 4 threads), the library (evaluateFiles; evaluateRun on readRun's
// objects) and the page in Chromium (1 to 4 workers). Every face must give the same numbers, print the
// same bytes where the text is the same format, and, for TREC text under trec_eval's names,
// trec_eval's bytes; a face that refuses a file refuses it with the same message as every other.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium, servePage } from "../scripts/page.mjs";
import { replay, seedOr } from "./_seed.js";
import {
  type Answer,
  answerOfCli,
  answerOfEvaluateFiles,
  answerOfEvaluateRun,
  cliBuilt,
  cliHere,
  meansOnly,
  runName,
  type RunNumbers,
} from "./faces/faces.js";
import { generate, halfwayMeans, type InputSet } from "./faces/generate.js";
import { PageFace } from "./faces/page.js";
import { NOT_PATHS, SCANNED, SIZE_CONSTANT, THRESHOLDS } from "./faces/thresholds.js";
import { FORMATS, type Format, writeSet } from "./faces/write.js";
import { buildTrecEval } from "./trec-eval-diff/fuzz.js";
import { runTrecEval, scratchDir } from "./trec-eval-diff/harness.js";

const SEED = seedOr(20261136);
const root = new URL("..", import.meta.url).pathname;
const dir = scratchDir("rankeval-faces-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const built = buildTrecEval();
const trecEvalSkip = "skip" in built ? built.skip : undefined;
if (trecEvalSkip !== undefined && process.env.CI)
  throw new Error(`faces: ${trecEvalSkip}: CI must compare with trec_eval`);
if (trecEvalSkip !== undefined) console.warn(`\n*** faces: trec_eval's bytes not compared: ${trecEvalSkip} ***\n`);
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && process.env.CI) throw new Error(`faces: ${CHROMIUM} is missing: CI must run the page`);
if (!haveChromium)
  console.warn(`\n*** faces: the page not run: ${CHROMIUM} is missing (apt-get install chromium) ***\n`);
const haveBuild = existsSync(join(root, "dist/node/bin.js"));
if (!haveBuild) console.warn("\n*** faces: the built command line not run: npm run build first ***\n");

/** The measure lists: trec_eval's names (its bytes compared), rankeval's, and both in one list. */
const TREC_NAMES = ["map", "ndcg_cut.10", "P.5", "recip_rank", "num_ret", "num_rel_ret", "recall.100", "bpref"];
const RANKEVAL_NAMES = ["ndcg@10", "map", "mrr", "recall@100"];
const MIXED = ["ndcg_cut.10", "P.5", "ndcg@10", "recall@100"];
const LISTS = { trec: TREC_NAMES, rankeval: RANKEVAL_NAMES, mixed: MIXED } as const;
const mArgs = (measures: readonly string[]) => measures.flatMap((m) => ["-m", m]);

/**
 * The sets, by run rows: one on each side of each row threshold, the byte thresholds crossed by the
 * same sets' files (test 'the sizes cross every threshold' checks it from the files written).
 */
const SIZES = [200, 300, 4_000, 4_200, 16_000, 17_000, 65_000, 66_000] as const;
/** Parquet's and Arrow's row batches (BATCH_ROWS) crossed by one set in those formats only. */
const COLUMNAR_SIZE = 263_000;
/** Past BLOCK_ROWS rows and PARTITION_MIN_BYTES bytes (32 MiB): TREC text, the real defaults. */
const BIG_SIZE = 1_160_000;

const seeded = (i: number) => (SEED + i * 7919) % 2 ** 31;
const sets: InputSet[] = SIZES.map((rows, i) =>
  generate({ seed: seeded(i), rows, fractional: i % 2 === 1, twoRuns: i % 3 === 0 }),
);

/** The files each set was written to, by set and format: written once, read by every face. */
const writtenFiles = new Map<string, ReturnType<typeof writeSet>>();

/** Where a set is written in a format (gzipped or not). */
function written(set: InputSet, format: Format, gzip = false) {
  const key = `${set.name.replace(/[^a-z0-9]+/gi, "_")}/${format}${gzip ? "-gz" : ""}`;
  let files = writtenFiles.get(key);
  if (!files) writtenFiles.set(key, (files = writeSet(set, format, join(dir, key), gzip)));
  return files;
}

/** JSON with every object's keys sorted: faces list queries in different orders (the values must match). */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_, x) =>
    x && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );

/** Where two answers part, for a failure message: every mean that differs (else the first query's value), or the refusal. */
function said(a: Answer, b?: Answer): string {
  if ("refused" in a) return `refused: ${a.refused}`;
  if (b && "numbers" in b) {
    const parts: string[] = [];
    for (const [run, n] of Object.entries(a.numbers)) {
      const m = b.numbers[run];
      if (!m) return `run ${run} (the other has ${Object.keys(b.numbers)})`;
      for (const [k, v] of Object.entries(n.mean))
        if (m.mean[k] !== v) parts.push(`${run} mean ${k} ${v} (the other: ${m.mean[k]})`);
      if (parts.length) continue;
      for (const [q, vs] of Object.entries(n.perQuery))
        for (const [k, v] of Object.entries(vs))
          if (m.perQuery[q]?.[k] !== v && parts.length === 0)
            parts.push(`${run} query ${q} ${k} ${v} (the other: ${m.perQuery[q]?.[k]})`);
      if (Object.keys(n.perQuery).length !== Object.keys(m.perQuery).length)
        parts.push(`${run}: ${Object.keys(n.perQuery).length} queries (the other: ${Object.keys(m.perQuery).length})`);
    }
    if (parts.length) return parts.join("; ");
  }
  return canonical(a.numbers).slice(0, 300);
}
const differ = (a: Answer, b: Answer) => canonical(a) !== canonical(b);

/** The reference: the command line in this process, one thread, on the set as TREC text. */
async function reference(set: InputSet, measures: readonly string[]): Promise<Answer> {
  const files = written(set, "trec");
  const out = await cliHere(["-q", "--format", "json", ...mArgs(measures), files.qrels, ...files.runs]);
  return answerOfCli(out, [files.qrels, ...files.runs]);
}

/**
 * The mixed list's numbers as its names' own lists give them: trec_eval's names as in a list of
 * trec_eval's names alone (labels read as trec_eval reads them), rankeval's as in a list of
 * rankeval's names alone (labels as written). A face must not let one name change another's values.
 */
async function mixedReference(set: InputSet): Promise<Answer> {
  const trec = await reference(set, TREC_NAMES);
  const own = await reference(set, RANKEVAL_NAMES);
  const mixed = await reference(set, MIXED);
  if (!("numbers" in trec && "numbers" in own && "numbers" in mixed)) return mixed;
  const pick = (run: string, key: string) => (key in trec.numbers[run].mean ? trec : own).numbers[run];
  const numbers: Record<string, RunNumbers> = {};
  for (const [run, n] of Object.entries(mixed.numbers)) {
    const keys = Object.keys(n.mean);
    numbers[run] = {
      mean: Object.fromEntries(keys.map((k) => [k, pick(run, k).mean[k]])),
      perQuery: Object.fromEntries(
        Object.keys(n.perQuery).map((q) => [
          q,
          Object.fromEntries(keys.map((k) => [k, pick(run, k).perQuery[q]?.[k]])),
        ]),
      ),
    };
  }
  return { numbers };
}

describe("the thresholds", () => {
  it("each line the table quotes is still in its file", () => {
    const missing = THRESHOLDS.filter((t) => !readFileSync(join(root, t.file), "utf8").includes(t.code)).map(
      (t) => `${t.file}: ${t.code}`,
    );
    expect(missing, "a threshold changed: update test/faces/thresholds.ts and SIZES").toEqual([]);
  });

  it("every size constant of the reading code is in the table or said to choose no path", () => {
    const files = SCANNED.flatMap((p) => {
      const full = join(root, p);
      return statSync(full).isDirectory()
        ? readdirSync(full)
            .filter((f) => f.endsWith(".ts"))
            .map((f) => `${p}/${f}`)
        : [p];
    });
    const unlisted: string[] = [];
    for (const f of files) {
      const text = readFileSync(join(root, f), "utf8");
      for (const m of text.matchAll(SIZE_CONSTANT)) {
        const listed = THRESHOLDS.some((t) => t.file === f && t.code.includes(`${m[1]} =`));
        if (!listed && !NOT_PATHS.includes(`${f}:${m[1]}`)) unlisted.push(`${f}: ${m[0]}`);
      }
    }
    expect(unlisted, "a new size constant: list it in test/faces/thresholds.ts (and draw sizes around it)").toEqual([]);
  });

  it("the sizes drawn fall on both sides of each row threshold", () => {
    const rowSizes = [...SIZES, COLUMNAR_SIZE, BIG_SIZE];
    for (const t of THRESHOLDS.filter((t) => t.unit === "rows")) {
      expect(rowSizes.some((n) => n < t.value) && rowSizes.some((n) => n > t.value), `${t.file}: ${t.code}`).toBe(true);
    }
  });
});

describe("the command line and the library, every format", () => {
  // Each set in every format, gzipped in turn, one measure list each in turn, threads 1 to 4 in turn.
  const lists = Object.keys(LISTS) as (keyof typeof LISTS)[];
  let k = 0;
  const cases = sets.map(() =>
    FORMATS.map((format) => {
      k++;
      return { format, gzip: k % 2 === 0, list: lists[k % 3], threads: 1 + (k % 4) };
    }),
  );

  it.each(sets.map((s, i) => [s.name, i]))(
    "%s",
    async (_, i) => {
      const set = sets[i];
      const failures: string[] = [];
      const references = new Map<string, Answer>();
      // The mixed list's reference: each name's value as its own list gives it; the command line's own
      // mixed list on TREC text is checked against it first.
      references.set("mixed", await mixedReference(set));
      const mixed = await reference(set, MIXED);
      if (differ(mixed, references.get("mixed")!))
        failures.push(
          `the command line on TREC text, the mixed list (the other: each name's own list): ${said(mixed, references.get("mixed"))}`,
        );
      for (const c of cases[i]) {
        const measures = LISTS[c.list];
        if (!references.has(c.list)) references.set(c.list, await reference(set, measures));
        const files = written(set, c.format, c.gzip);
        const paths = [files.qrels, ...files.runs];
        const where = `${c.format}${c.gzip ? ".gz" : ""}, ${c.list} names, ${c.threads} threads`;
        const cli = answerOfCli(
          await cliHere(["-q", "--format", "json", ...mArgs(measures), ...paths], c.threads),
          paths,
        );
        const got = {
          cli,
          evaluateFiles: await answerOfEvaluateFiles(files.qrels, files.runs, measures, c.threads),
          evaluateRun: await answerOfEvaluateRun(files.qrels, files.runs, measures),
        };
        // gzip of Parquet and Arrow is not read (they are read by offset): refused alike by every face.
        const columnarGzip = c.gzip && (c.format === "parquet" || c.format === "arrow");
        const want = columnarGzip ? cli : references.get(c.list)!;
        if (columnarGzip && !("refused" in cli)) failures.push(`cli, ${where}: read a gzipped ${c.format} file`);
        for (const [face, answer] of Object.entries(got))
          if (differ(answer, want))
            failures.push(
              `${face}, ${where}: ${said(answer, want)}${"refused" in want ? `\n   the command line: ${said(want)}` : ""}`,
            );
      }
      expect(
        failures,
        `${set.name}; each line: a face, the files, its values (the other: the command line in this process, one thread, on TREC text)\n${replay(SEED)}`,
      ).toEqual([]);
    },
    180_000,
  );
});

/** A set written as TREC text with one run line replaced (1-based line of the first run). */
function corrupted(set: InputSet, name: string, line: number, replace: (l: string) => string) {
  const files = written(set, "trec");
  const lines = readFileSync(files.runs[0], "utf8").split("\n");
  lines[line - 1] = replace(lines[line - 1]);
  const path = join(dir, `${name}.run`);
  writeFileSync(path, lines.join("\n"));
  return { qrels: files.qrels, runs: [path] };
}

describe.skipIf(trecEvalSkip !== undefined)("TREC text under trec_eval's names: trec_eval's bytes", () => {
  const trecEval = "path" in built ? built.path : "";

  it.each(sets.map((s, i) => [s.name, i]))(
    "%s",
    async (_, i) => {
      const files = written(sets[i], "trec");
      for (const run of files.runs) {
        // -c: trec_eval 10 exits 4 on a judged query the run lacks without it (a deliberate divergence:
        // test/trec-eval-diff/divergences.ts), and the sets have such queries.
        const args = ["-q", "-c", ...mArgs(TREC_NAMES), files.qrels, run];
        const want = await runTrecEval(trecEval, args);
        const got = await cliHere(args, 1 + (i % 4));
        expect(got.stdout, `${run}: rankeval ${args.join(" ")}\n${replay(SEED)}`).toBe(want.stdout);
      }
    },
    120_000,
  );

  it("-m all_trec", async () => {
    const files = written(sets[3], "trec");
    const args = ["-q", "-c", "-m", "all_trec", files.qrels, files.runs[0]];
    const want = await runTrecEval(trecEval, args);
    expect((await cliHere(args, 2)).stdout, `rankeval ${args.join(" ")}\n${replay(SEED)}`).toBe(want.stdout);
  });
});

describe.skipIf(!haveBuild)("the built command line, 1 to 4 real threads", () => {
  // Its threads split the queries (TREC text, RANKEVAL_THREAD_MIN_BYTES=0) or parse the run beside the
  // main thread (gzip): the same bytes as the command line in this process, one thread.
  it.each([
    [sets[1].name, 1, "trec"],
    [sets[6].name, 6, "trec"],
    [sets[7].name, 7, "gzip"],
  ] as const)(
    "%s (%s)",
    async (_, i, how) => {
      const files = written(sets[i], "trec", how === "gzip");
      const args = ["-q", ...mArgs(MIXED), files.qrels, ...files.runs];
      const want = await cliHere(args, 1);
      for (const threads of [1, 2, 3, 4]) {
        const got = await cliBuilt(args, threads);
        expect(got.stdout, `--threads ${threads}: ${got.stderr}\n${replay(SEED)}`).toBe(want.stdout);
      }
    },
    120_000,
  );
});

describe("Parquet and Arrow past BATCH_ROWS (262,144 rows)", () => {
  it("the command line and evaluateFiles as on TREC text", async () => {
    const set = generate({ seed: seeded(26), rows: COLUMNAR_SIZE, fractional: false, depth: 100 });
    const want = await reference(set, RANKEVAL_NAMES);
    const failures: string[] = [];
    for (const format of ["parquet", "arrow"] as const) {
      const files = written(set, format);
      const paths = [files.qrels, ...files.runs];
      const cli = answerOfCli(await cliHere(["-q", "--format", "json", ...mArgs(RANKEVAL_NAMES), ...paths], 2), paths);
      const library = await answerOfEvaluateFiles(files.qrels, files.runs, RANKEVAL_NAMES, 1);
      for (const [face, answer] of Object.entries({ cli, evaluateFiles: library }))
        if (differ(answer, want)) failures.push(`${face}, ${format}: ${said(answer, want)}`);
    }
    expect(failures, replay(SEED)).toEqual([]);
  }, 180_000);
});

describe("past the real defaults: 12 MiB (a reader thread), 1 Mi rows (a block), 32 MiB (partitions)", () => {
  it("every face at once on a run of 1.16M rows", async () => {
    const big = generate({ seed: seeded(99), rows: BIG_SIZE, fractional: true, depth: 100 });
    const files = written(big, "trec");
    const bytes = statSync(files.qrels).size + statSync(files.runs[0]).size;
    // The premise: above PARTITION_MIN_BYTES and the reader thread's THREAD_MIN_BYTES, past BLOCK_ROWS rows.
    expect(bytes).toBeGreaterThan(32 << 20);
    // And every byte threshold falls between two of the TREC text files the test reads.
    const sizes = [
      ...writeSet(halfwayMeans(), "trec", join(dir, "halfway-sizes")).runs,
      ...sets.map((s) => written(s, "trec").runs[0]),
      files.runs[0],
    ].map((f) => statSync(f).size);
    for (const t of THRESHOLDS.filter((t) => t.unit === "bytes"))
      expect(sizes.some((n) => n < t.value) && sizes.some((n) => n > t.value), `${t.file}: ${t.code}: ${sizes}`).toBe(
        true,
      );
    const args = ["-c", ...mArgs(TREC_NAMES), files.qrels, files.runs[0]];
    const one = await cliHere(args, 1, null);
    // Four partitions (in this thread) at the real threshold, no RANKEVAL_THREAD_MIN_BYTES.
    const partitioned = await cliHere(args, 4, null);
    expect(partitioned.stdout, replay(SEED)).toBe(one.stdout);
    if (haveBuild) {
      // Two real threads: a reader thread parses the run (past 12 MiB), or two partitions where 4 cores are.
      const threads = await cliBuilt(args, 2, null);
      expect(threads.stdout, threads.stderr).toBe(one.stdout);
    }
    if ("path" in built) expect(one.stdout).toBe((await runTrecEval(built.path, args)).stdout);
  }, 180_000);
});

describe("a mean halfway between two printed values: 0.28125 and 0.15625, as trec_eval prints them", () => {
  const files = writeSet(halfwayMeans(), "trec", join(dir, "halfway"));

  it("the evaluation and the comparison print 0.2812 and 0.1562 (%.4f of the exact double)", async () => {
    const evaluation = await cliHere(["-m", "recip_rank", files.qrels, ...files.runs]);
    expect(evaluation.stdout).toContain("recip_rank            \tall\t0.2812\n");
    expect(evaluation.stdout).toContain("recip_rank            \tall\t0.1562\n");
    const printed: Record<string, string> = {};
    for (const format of ["table", "markdown", "latex", "csv"]) {
      const out = await cliHere(["--compare", "--format", format, "-m", "recip_rank", files.qrels, ...files.runs]);
      printed[format] = out.stdout;
    }
    const rounded = Object.entries(printed)
      .filter(([, text]) => /0\.2813|0\.1563/.test(text))
      .map(([format, text]) => `--compare --format ${format}:\n${text}`);
    expect(rounded, "the comparison rounds the means otherwise than the evaluation").toEqual([]);
  });
});

describe("refusals: one message on every face", () => {
  const badScore = (l: string) => l.replace(/ (\S+) (\S+)$/, " $1x $2");
  const bigSet = generate({ seed: seeded(70), rows: 70_100, fractional: false });
  const inputs = [
    ["a bad score near row 300", () => corrupted(sets[1], "bad300", 290, badScore)],
    ["a bad score near row 70,000", () => corrupted(bigSet, "bad70k", 70_000, badScore)],
    [
      "a document twice in a query",
      () =>
        corrupted(sets[0], "twice", 3, (l) =>
          l.replace(/^(\S+ \S+ )\S+/, (_, head) => `${head}${sets[0].runs[0].rows[0].docid}`),
        ),
    ],
  ] as const;

  it.each(inputs)(
    "%s",
    async (_, make) => {
      const { qrels, runs } = make();
      const paths = [qrels, ...runs];
      const measures = ["map", "ndcg@10"];
      const faces: Record<string, Answer> = {
        "cli, 1 thread": answerOfCli(await cliHere(["--format", "json", ...mArgs(measures), ...paths], 1), paths),
        "cli, 4 partitions": answerOfCli(await cliHere(["--format", "json", ...mArgs(measures), ...paths], 4), paths),
        "evaluateFiles, 1": await answerOfEvaluateFiles(qrels, runs, measures, 1),
        "evaluateFiles, 3": await answerOfEvaluateFiles(qrels, runs, measures, 3),
        "readRun + evaluateRun": await answerOfEvaluateRun(qrels, runs, measures),
      };
      if (haveBuild)
        faces["cli built, 2 threads"] = answerOfCli(
          await cliBuilt(["--format", "json", ...mArgs(measures), ...paths], 2),
          paths,
        );
      const first = faces["cli, 1 thread"];
      expect("refused" in first, said(first)).toBe(true);
      const differing = Object.entries(faces)
        .filter(([, a]) => differ(a, first))
        .map(([face, a]) => `${face}: ${said(a)}`);
      expect(differing, `the command line: ${said(first)}`).toEqual([]);
    },
    120_000,
  );
});

describe.skipIf(!haveChromium)("the page in Chromium, 1 to 4 workers", () => {
  let browser: Browser | undefined;
  let site: { url: string; close(): Promise<unknown> } | undefined;
  beforeAll(async () => {
    site = await servePage(join(dir, "site"));
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  /** The command line's text with the files' directories left out: the page names files by name alone. */
  async function cliText(format: string, measures: readonly string[], paths: readonly string[]) {
    const out = await cliHere(["--format", format, ...mArgs(measures), ...paths]);
    let text = out.stdout;
    for (const p of paths) text = text.split(p).join(basename(p));
    return text;
  }

  /** trec_eval's summary lines, by run, as numbers: the cells of trec_eval's names hold those. */
  function trecValues(text: string, runs: readonly string[]): Answer {
    const numbers: Record<string, RunNumbers> = {};
    // One run: no "==> run <==" line.
    let run = runName(runs[0]);
    for (const line of text.split("\n")) {
      const head = /^==> (.*) <==$/.exec(line);
      if (head) run = runName(head[1]);
      const [name, qid, value] = line.split("\t");
      if (qid === "all" && name.trim() !== "runid")
        (numbers[run] ??= { mean: {}, perQuery: {} }).mean[name.trim()] = Number(value);
    }
    return { numbers };
  }

  // Per number of workers: two sets as TREC text (split among the workers, ?partition-bytes=0), one in
  // another format (read by the page's one worker), each with a measure list in turn.
  const plan = [1, 2, 3, 4].map((workers) => ({
    workers,
    cases: [
      { set: (2 * workers - 2) % sets.length, format: "trec" as Format, gzip: false },
      { set: (2 * workers - 1) % sets.length, format: "trec" as Format, gzip: workers % 2 === 0 },
      { set: (workers + 3) % sets.length, format: FORMATS[1 + ((workers * 2) % (FORMATS.length - 1))], gzip: false },
    ],
  }));

  it.each(plan.map((p) => [p.workers, p]))(
    "%i workers",
    async (workers, p) => {
      const face = new PageFace(browser!, site!.url, workers);
      await face.open();
      const failures: string[] = [];
      try {
        let k = workers;
        for (const c of p.cases) {
          const set = sets[c.set];
          const list = (Object.keys(LISTS) as (keyof typeof LISTS)[])[k++ % 3];
          const measures = LISTS[list];
          const files = written(set, c.format, c.gzip);
          const paths = [files.qrels, ...files.runs];
          const where = `${set.name}, ${c.format}${c.gzip ? ".gz" : ""}, ${list} names, ${workers} workers`;
          const got = await face.evaluate(files.qrels, files.runs, measures);
          if (got.state !== "done" || got.error !== "") {
            failures.push(`${where}: the page ${got.state}: ${got.error}`);
            continue;
          }
          if (got.pageErrors.length) failures.push(`${where}: errors in the page: ${got.pageErrors.join("; ")}`);
          const want = meansOnly(list === "mixed" ? await mixedReference(set) : await reference(set, measures));
          // Cells of trec_eval's lines hold the value as printed (%.4f): the command line's trec_eval text.
          const printed = list === "trec" ? trecValues(await cliText("trec", measures, paths), files.runs) : null;
          // The cells' values, and the JSON download's numbers: the command line's on TREC text.
          const cells: Answer = {
            numbers: Object.fromEntries(
              Object.entries(got.cells).map(([run, mean]) => [runName(run), { mean, perQuery: {} }]),
            ),
          };
          const shown = printed ?? want;
          if (differ(cells, shown))
            failures.push(`${where}: the cells: ${said(cells, shown)}; the command line: ${said(shown, cells)}`);
          // The downloads: the command line's bytes on the same files.
          for (const format of ["json", "csv", ...(list === "trec" ? ["trec"] : [])] as const) {
            const text = got.downloads[format];
            const cli = await cliText(format, measures, paths);
            if (text !== cli)
              failures.push(
                `${where}: the ${format} download:\n${text?.slice(0, 600)}\n   the command line:\n${cli.slice(0, 600)}`,
              );
          }
        }
        // The halfway means (once): the cells and the comparison print what the evaluation prints.
        if (workers === 1) {
          const half = writeSet(halfwayMeans(), "trec", join(dir, "halfway-page"));
          const got = await face.evaluate(half.qrels, half.runs, ["recip_rank"]);
          const shown = Object.values(got.shown).map((m) => m.recip_rank);
          if (shown.join(" ") !== "0.2812 0.1562") failures.push(`halfway means: the cells show ${shown.join(", ")}`);
          const rounded = got.comparison.filter((row) => row.some((cell) => /0\.2813|0\.1563/.test(cell)));
          if (rounded.length)
            failures.push(
              `halfway means: the comparison shows ${rounded.map((r) => r.join(" | ")).join("; ")} (the evaluation 0.2812, 0.1562)`,
            );
        }
        // A refusal (workers 1 and 4): the command line's message.
        if (workers === 1 || workers === 4) {
          const bad = corrupted(sets[1], `bad-page-${workers}`, 290, (l) => l.replace(/ (\S+) (\S+)$/, " $1x $2"));
          const got = await face.evaluate(bad.qrels, bad.runs, ["map"]);
          const cli = answerOfCli(await cliHere(["--format", "json", "-m", "map", bad.qrels, ...bad.runs]), [
            bad.qrels,
            ...bad.runs,
          ]);
          const page = got.state === "error" ? `exit 2: ${got.error}` : `the page ${got.state}`;
          if (!("refused" in cli) || page !== cli.refused)
            failures.push(
              `a bad score near row 300, ${workers} workers: the page: ${page}\n   the command line: ${said(cli)}`,
            );
        }
      } finally {
        await face.close();
      }
      expect(failures, replay(SEED)).toEqual([]);
    },
    120_000,
  );
});
