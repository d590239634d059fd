// The static page (web/) in a real browser: Debian's chromium driven by playwright-core. Builds the
// page with Vite, serves it on 127.0.0.1, drops fixture files on its inputs and checks the table
// against the command line's output on the same files.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { CHROMIUM, launchChromium, servePage } from "../scripts/page.mjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluate } from "../src/index.js";
import { main } from "../src/node/cli.js";
import { differences, histogramBins } from "../web/charts.js";
import { fixed } from "../src/trec/format.js";
import { TIES_QRELS, TIES_RUN_A, TIES_RUN_B } from "./_printf-ties.js";

const haveChromium = existsSync(CHROMIUM);
// Without chromium: a failure in CI, a skip (said so) elsewhere.
if (!haveChromium && !process.env.CI)
  console.warn(`test/web.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

async function cli(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return { status, out, err };
}

interface CellRead {
  measure: string;
  run: string;
  text: string;
  value: string | undefined;
}

describe.skipIf(!haveChromium && !process.env.CI)("the page in chromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-web-"));
  const file = (name: string, text: string | Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const qrels = file("qrels.txt", "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq1 0 d5 1\nq2 0 d1 1\nq2 0 d7 0\nq3 0 d2 1\n");
  const runA = file(
    "a.run",
    "q1 Q0 d1 1 0.9 A\nq1 Q0 d2 2 0.8 A\nq1 Q0 d4 3 0.7 A\nq1 Q0 d3 4 0.6 A\nq2 Q0 d7 1 0.5 A\nq2 Q0 d1 2 0.4 A\nq3 Q0 d2 1 3 A\n",
  );
  const runB = file("b.run", "q1 Q0 d3 1 0.9 B\nq1 Q0 d1 2 0.8 B\nq2 Q0 d9 1 0.5 B\nq2 Q0 d1 2 0.2 B\n");
  const gzipped = file("a.run.gz", gzipSync(readFileSync(runA)));
  const bad = file("bad.run", "q1 Q0 d1 1 0.9 A\nq1 Q0 d2 2 0.8x A\n");
  const letor = file(
    "test.letor",
    [
      "2 qid:1 1:0.1 2:0.3",
      "0 qid:1 1:0.5 2:0.1",
      "1 qid:1 1:0.2 2:0.2",
      "1 qid:2 1:0.4 2:0.9",
      "0 qid:2 1:0.3 2:0.8",
      "2 qid:3 1:0.1 2:0.1",
      "0 qid:3 1:0.2 2:0.2",
      "",
    ].join("\n"),
  );
  const scores = file("pred.txt", ["0.3", "0.9", "0.1", "-1.5", "2", "0.25", "0.5", ""].join("\n"));

  let browser: Browser | undefined;
  let site: { url: string; close(): Promise<unknown> } | undefined;
  let base = "";

  beforeAll(async () => {
    if (!haveChromium)
      throw new Error(`${CHROMIUM} is missing: the browser tests need Debian's chromium (apt-get install chromium)`);
    site = await servePage(join(dir, "site"));
    base = site.url;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const waitFinished = (page: Page) =>
    page.waitForFunction(() => ["done", "error"].includes(document.body.dataset.state ?? ""), undefined, {
      timeout: 30_000,
    });

  /**
   * Opens the page, runs `before` (settings), sets the inputs in order, waits for done or error, runs
   * `after` (which may change settings and wait again); returns the aggregate cells and the state.
   */
  async function drop(
    inputs: [name: string, files: string[]][],
    screenshot?: string,
    hooks: { before?: (p: Page) => Promise<void>; after?: (p: Page) => Promise<void> } = {},
  ) {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(base);
      await hooks.before?.(page);
      for (const [name, files] of inputs) await page.setInputFiles(`input[name="${name}"]`, files);
      await waitFinished(page);
      await hooks.after?.(page);
      const state = await page.evaluate(() => document.body.dataset.state);
      const cells: CellRead[] = await page.$$eval("#results td[data-measure]", (tds) =>
        tds.map((td) => {
          const d = (td as HTMLElement).dataset;
          return { measure: d.measure!, run: d.run!, text: td.firstChild?.textContent ?? "", value: d.value };
        }),
      );
      const error = (await page.textContent("#error")) ?? "";
      if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
      expect(errors).toEqual([]);
      return { state, cells, error };
    } finally {
      await page.close();
    }
  }

  /** trec_eval's summary lines of the CLI's output: printed name -> value as printed. */
  function summary(text: string): Map<string, string> {
    return new Map(
      text
        .trim()
        .split("\n")
        .map((l) => {
          const [name, , value] = l.split("\t");
          return [name.trim(), value] as [string, string];
        }),
    );
  }

  it("shows trec_eval's default measures for a qrels file and two runs, as the CLI prints them", async () => {
    const { state, cells, error } = await drop(
      [
        ["qrels", [qrels]],
        ["run", [runA, runB]],
      ],
      "/tmp/rankeval-page.png",
    );
    expect(error).toBe("");
    expect(state).toBe("done");
    for (const [path, name] of [
      [runA, "a.run"],
      [runB, "b.run"],
    ]) {
      const r = await cli(qrels, path);
      expect(r.status).toBe(0);
      const want = summary(r.out);
      const got = new Map(cells.filter((c) => c.run === name).map((c) => [c.measure, c.text]));
      expect(want.size).toBeGreaterThan(20); // num_q ... P_1000
      expect(got).toEqual(want);
      expect(got.get("map")).toMatch(/^\d\.\d{4}$/);
    }
  }, 60_000);

  it("reads a qrels file as soon as it is chosen, then evaluates each run chosen against it without reading it again", async () => {
    const page = await browser!.newPage();
    const bar = 'li[data-file="qrels.txt"]';
    const cellsOf = (run: string) =>
      page.$$eval(`#results td[data-run="${run}"]`, (tds) =>
        tds.map((td) => [(td as HTMLElement).dataset.measure!, td.firstChild?.textContent ?? ""] as [string, string]),
      );
    try {
      await page.goto(base);
      await page.setInputFiles('input[name="qrels"]', [qrels]);
      await page.waitForFunction(() => document.body.dataset.judgments === "read");
      expect(await page.evaluate(() => document.body.dataset.state)).toBe("idle");
      expect(await page.textContent(`#progress ${bar}`)).toContain("read in");
      // Marked: a new worker would start the progress list again.
      await page.$eval(`#progress ${bar}`, (li) => ((li as HTMLElement).dataset.mark = "first read"));
      for (const [path, name] of [
        [runA, "a.run"],
        [runB, "b.run"],
      ]) {
        await page.setInputFiles('input[name="run"]', [path]);
        await page.waitForSelector(`#results td[data-run="${name}"]`);
        await waitFinished(page);
        expect(await page.evaluate(() => document.body.dataset.state)).toBe("done");
        expect(new Map(await cellsOf(name))).toEqual(summary((await cli(qrels, path)).out));
        expect(await page.$eval(`#progress ${bar}`, (li) => (li as HTMLElement).dataset.mark)).toBe("first read");
        expect(await page.$$eval("#progress li", (lis) => lis.map((li) => (li as HTMLElement).dataset.file))).toEqual([
          "qrels.txt",
          name,
        ]);
      }
      // Runs chosen while a qrels file chosen alone is still being read join that read.
      // 150 MB of text gzipped (the page gunzips it as it reads): still being read as the run is set,
      // even where the text itself parses at 1 GB/s.
      const lines: string[] = [];
      for (let q = 0; q < 50_000; q++) for (let d = 0; d < 200; d++) lines.push(`q${q} 0 d${d} ${(q + d) % 3}`);
      const bigQrels = file("big.qrels", gzipSync(lines.join("\n") + "\n", { level: 1 }));
      await page.evaluate(() => {
        const w = window as unknown as { removed: string[] };
        w.removed = [];
        new MutationObserver((changes) => {
          for (const c of changes)
            for (const n of c.removedNodes) w.removed.push((n as HTMLElement).dataset?.file ?? "");
        }).observe(document.querySelector("#progress")!, { childList: true });
      });
      await page.setInputFiles('input[name="run"]', []);
      await page.setInputFiles('input[name="qrels"]', [bigQrels]);
      await page.waitForSelector('#progress li[data-file="big.qrels"]');
      expect(await page.evaluate(() => document.body.dataset.judgments)).toBeUndefined(); // still reading
      await page.setInputFiles('input[name="run"]', [runA]);
      await page.waitForSelector('#results td[data-run="a.run"]');
      await waitFinished(page);
      expect(await page.evaluate(() => document.body.dataset.state)).toBe("done");
      expect(
        await page.evaluate(() =>
          (window as unknown as { removed: string[] }).removed.filter((f) => f === "big.qrels"),
        ),
      ).toEqual([]);
      expect(new Map(await cellsOf("a.run"))).toEqual(summary((await cli(bigQrels, runA)).out));
      // A bad qrels file chosen alone says so before any run.
      await page.setInputFiles('input[name="run"]', []);
      await page.setInputFiles('input[name="qrels"]', [file("bad.qrels", "q1 0 d1 1\nq1 0 d2\n")]);
      await waitFinished(page);
      expect(await page.evaluate(() => document.body.dataset.state)).toBe("error");
      expect(await page.textContent("#error")).toMatch(/^bad\.qrels:2/);
    } finally {
      await page.close();
    }
  }, 60_000);

  it("reads a gzip run through DecompressionStream", async () => {
    const { state, cells } = await drop([
      ["qrels", [qrels]],
      ["run", [gzipped]],
    ]);
    expect(state).toBe("done");
    const want = summary((await cli(qrels, gzipped)).out);
    expect(new Map(cells.map((c) => [c.measure, c.text]))).toEqual(want);
    expect(cells[0].run).toBe("a.run.gz");
  }, 60_000);

  it("shows the CLI's LETOR measures for a LETOR file and its predictions", async () => {
    const { state, cells, error } = await drop([
      ["letor", [letor]],
      ["scores", [scores]],
    ]);
    expect(error).toBe("");
    expect(state).toBe("done");
    const r = await cli("--letor", letor, "--scores", scores, "--format", "json");
    expect(r.status).toBe(0);
    const mean = (JSON.parse(r.out) as { runs: { mean: Record<string, number> }[] }).runs[0].mean;
    expect(cells.map((c) => c.measure)).toEqual(Object.keys(mean));
    for (const c of cells) {
      expect(c.run).toBe("pred.txt");
      expect(Number(c.value)).toBe(mean[c.measure]);
    }
    expect(cells.find((c) => c.measure === "ndcg@10")?.text).toMatch(/^\d\.\d{4}$|^[01]$/);
  }, 60_000);

  it("shows a bad file's error as the CLI prints it: file, line and what was expected", async () => {
    const { state, error } = await drop([
      ["qrels", [qrels]],
      ["run", [bad]],
    ]);
    expect(state).toBe("error");
    const r = await cli(qrels, bad);
    expect(r.status).toBe(2);
    const want = r.err
      .trim()
      .replace(/^rankeval: /, "")
      .replace(`${dir}/`, "");
    expect(want).toMatch(/^bad\.run:2:\d+: /);
    expect(error).toBe(want);
  }, 60_000);
  it("shows a run that evaluates no query, and judgments without any, as errors, as the CLI prints them", async () => {
    const message = async (...argv: string[]) =>
      (await cli(...argv)).err
        .trim()
        .replace(/^rankeval: /, "")
        .replaceAll(`${dir}/`, "");
    const cases = [
      [qrels, file("empty.run", "\n# nothing\n")],
      [qrels, file("other.run", "x1 Q0 d1 1 0.9 X\n")],
      [file("empty.qrels", ""), runA],
    ];
    for (const [q, r] of cases) {
      const { state, error } = await drop([
        ["qrels", [q]],
        ["run", [r]],
      ]);
      expect(state).toBe("error");
      expect(error).toMatch(/: no (rankings|judgments|query in common)/);
      expect(error).toBe(await message(q, r));
    }
  }, 60_000);
  it("leaves none of the good files' numbers when a bad file replaces them, or comes beside them", async () => {
    /** What the page still shows of results: cells of every table, the pickers' runs, the sections. */
    const shown = (page: Page) =>
      page.evaluate(() => ({
        cells: document.querySelectorAll("td[data-measure], td[data-qid]").length,
        pickers: ["#pq-runs", "#hist-run", "#diff-a", "#diff-b", "#chart-measure"].map(
          (s) => document.querySelector<HTMLSelectElement>(s)!.options.length,
        ),
        hidden: ["#perquery-section", "#charts-section", "#downloads"].map(
          (s) => document.querySelector<HTMLElement>(s)!.hidden,
        ),
        bars: document.querySelectorAll("#histogram rect, #difference rect").length,
      }));
    const seen: Awaited<ReturnType<typeof shown>>[] = [];
    const replaced = await drop(
      [
        ["qrels", [qrels]],
        ["run", [runA, runB]],
      ],
      undefined,
      {
        after: async (page) => {
          expect(await page.evaluate(() => document.body.dataset.state)).toBe("done");
          seen.push(await shown(page)); // the good files' results, to know the check below can fail
          await page.setInputFiles('input[name="run"]', [bad]);
          await page.waitForFunction(() => document.body.dataset.state === "error", undefined, { timeout: 30_000 });
          seen.push(await shown(page));
        },
      },
    );
    expect(replaced.state).toBe("error");
    expect(replaced.error).toMatch(/^bad\.run:2:/);
    expect(seen[0].cells).toBeGreaterThan(0);
    expect(seen[0].pickers.every((n) => n > 0)).toBe(true);
    expect(seen[1]).toEqual({ cells: 0, pickers: [0, 0, 0, 0, 0], hidden: [true, true, true], bars: 0 });
    // A good run and a bad one in one job: the good one's column does not stay beside the error.
    const beside = await drop([
      ["qrels", [qrels]],
      ["run", [runA, bad]],
    ]);
    expect(beside.state).toBe("error");
    expect(beside.cells).toEqual([]);
  }, 60_000);

  it("shows a bad prediction file's error as the CLI prints it, and a bad LETOR file's first when both are bad", async () => {
    const badScores = file("bad.pred", "0.3\n0.9\nx1\n");
    const badLetor = file("bad.letor", "1 qid:1 1:0.5 # docid = a\nz qid:1 1:0.2 # docid = b\n");
    const message = async (...argv: string[]) =>
      (await cli(...argv)).err
        .trim()
        .replace(/^rankeval: /, "")
        .replaceAll(`${dir}/`, "");
    const one = await drop([
      ["letor", [letor]],
      ["scores", [badScores]],
    ]);
    expect(one.state).toBe("error");
    expect(one.error).toMatch(/^bad\.pred:3:/);
    expect(one.error).toBe(await message("--letor", letor, "--scores", badScores));
    const both = await drop([
      ["letor", [badLetor]],
      ["scores", [badScores]],
    ]);
    expect(both.error).toMatch(/^bad\.letor:2:/);
    expect(both.error).toBe(await message("--letor", badLetor, "--scores", badScores));
  }, 60_000);

  /** The page's aggregate text per measure for one run. */
  const textOf = (cells: CellRead[], run: string) =>
    new Map(cells.filter((c) => c.run === run).map((c) => [c.measure, c.text]));

  it("evaluates a preset (all_trec) as the CLI does with -m all_trec", async () => {
    const { state, cells, error } = await drop(
      [
        ["qrels", [qrels]],
        ["run", [runA]],
      ],
      undefined,
      {
        before: async (page) => void (await page.selectOption('select[name="preset"]', "all_trec")),
      },
    );
    expect(error).toBe("");
    expect(state).toBe("done");
    const want = summary((await cli("-m", "all_trec", qrels, runA)).out);
    expect(want.has("ndcg_cut_1000")).toBe(true);
    expect(textOf(cells, "a.run")).toEqual(want);
  }, 60_000);

  it("evaluates the ir_measures preset, and a diversity qrels (told by its shape) with ndeval's measures, as the CLI", async () => {
    const meanOf = async (...argv: string[]) =>
      (JSON.parse((await cli(...argv, "--format", "json")).out) as { runs: { mean: Record<string, number> }[] }).runs[0]
        .mean;
    const irm = await drop(
      [
        ["qrels", [qrels]],
        ["run", [runA]],
      ],
      undefined,
      {
        before: async (page) => void (await page.selectOption('select[name="preset"]', "ir_measures")),
      },
    );
    expect(irm.error).toBe("");
    const irmWant = await meanOf(
      ...["nDCG@10", "AP", "RR@10", "P@10", "R@1000", "Judged@10", "ERR@20", "RBP(rel=1)", "Compat"].flatMap((m) => [
        "-m",
        m,
      ]),
      qrels,
      runA,
    );
    expect(irm.cells.map((c) => c.measure)).toEqual(Object.keys(irmWant));
    for (const c of irm.cells) expect(Number(c.value)).toBe(irmWant[c.measure]);

    // Topic 1: d1 relevant to subtopics 1 and 2; the run's d1 and d4 (d2, d3 also judged).
    const subtopics = file("div.qrels", "1 1 d1 1\n1 1 d2 1\n1 1 d4 0\n1 2 d1 1\n1 2 d3 1\n2 1 d9 1\n");
    const divRun = file("div.run", "1 Q0 d2 1 4 S\n1 Q0 d4 2 3 S\n1 Q0 d1 3 2 S\n1 Q0 d3 4 1 S\n2 Q0 d9 1 1 S\n");
    const div = await drop([
      ["qrels", [subtopics]],
      ["run", [divRun]],
    ]);
    expect(div.error).toBe("");
    expect(div.state).toBe("done");
    const divWant = await meanOf("-m", "ndeval", subtopics, divRun);
    expect(Object.keys(divWant)).toContain("alpha-nDCG@20");
    expect(div.cells.map((c) => c.measure)).toEqual(Object.keys(divWant));
    for (const c of div.cells) expect(Number(c.value), c.measure).toBe(divWant[c.measure]);

    // A qrels of one subtopic a document: read plainly, then again per subtopic when the diversity preset asks.
    const plain = file("plain.qrels", "1 1 d1 1\n1 1 d2 1\n1 2 d3 1\n");
    const again = await drop(
      [
        ["qrels", [plain]],
        ["run", [divRun]],
      ],
      undefined,
      {
        after: async (page) => {
          await page.selectOption('select[name="preset"]', "diversity");
          await waitFinished(page);
        },
      },
    );
    expect(again.error).toBe("");
    const againWant = await meanOf("--diversity", "-m", "ndeval", plain, divRun);
    expect(again.cells.map((c) => c.measure)).toEqual(Object.keys(againWant));
    for (const c of again.cells) expect(Number(c.value), c.measure).toBe(againWant[c.measure]);
  }, 60_000);

  it("re-evaluates the files read for free-text measures, trec_eval and canonical names, as the CLI's -m", async () => {
    for (const text of ["P.5,10 map", "ndcg@10 precision@5"]) {
      const { state, cells } = await drop(
        [
          ["qrels", [qrels]],
          ["run", [runA, runB]],
        ],
        undefined,
        {
          after: async (page) => {
            await page.fill('input[name="measures"]', text);
            await page.press('input[name="measures"]', "Enter");
            await page.dispatchEvent('input[name="measures"]', "change");
            await waitFinished(page);
          },
        },
      );
      expect(state).toBe("done");
      const argv = text.split(" ").flatMap((m) => ["-m", m]);
      for (const [path, name] of [
        [runA, "a.run"],
        [runB, "b.run"],
      ]) {
        if (text.startsWith("P")) {
          expect(textOf(cells, name)).toEqual(summary((await cli(...argv, qrels, path)).out));
        } else {
          const mean = (
            JSON.parse((await cli(...argv, "--format", "json", qrels, path)).out) as {
              runs: { mean: Record<string, number> }[];
            }
          ).runs[0].mean;
          const got = cells.filter((c) => c.run === name);
          expect(got.map((c) => c.measure)).toEqual(Object.keys(mean));
          for (const c of got) expect(Number(c.value)).toBe(mean[c.measure]);
        }
      }
    }
  }, 60_000);

  it("reads the runs again, not the qrels, for new settings when it keeps no rows (?keep-rows=0); the same numbers", async () => {
    const page = await browser!.newPage();
    const marks = () =>
      page.$$eval("#progress li", (lis) =>
        lis.map((li) => [(li as HTMLElement).dataset.file, (li as HTMLElement).dataset.mark ?? "new"]),
      );
    try {
      for (const [query, reread] of [
        ["?keep-rows=0", true],
        ["", false],
      ] as const) {
        await page.goto(base + query);
        await page.setInputFiles('input[name="qrels"]', [qrels]);
        await page.setInputFiles('input[name="run"]', [runA]);
        await waitFinished(page);
        // Marked: a file read again gets a new progress line.
        await page.$$eval("#progress li", (lis) =>
          lis.forEach((li) => ((li as HTMLElement).dataset.mark = "first read")),
        );
        await page.fill('input[name="measures"]', "P.5,10 map");
        await page.dispatchEvent('input[name="measures"]', "change");
        await waitFinished(page);
        expect(await page.evaluate(() => document.body.dataset.state)).toBe("done");
        const cells = await page.$$eval('#results td[data-run="a.run"]', (tds) =>
          tds.map((td) => [(td as HTMLElement).dataset.measure!, td.firstChild?.textContent ?? ""] as [string, string]),
        );
        expect(new Map(cells)).toEqual(summary((await cli("-m", "P.5,10", "-m", "map", qrels, runA)).out));
        expect(await marks()).toEqual([
          ["qrels.txt", "first read"],
          ["a.run", reread ? "new" : "first read"],
        ]);
      }
    } finally {
      await page.close();
    }
  }, 60_000);

  it("changes ndcg to the CLI's value with --gain exp when the gain is set to exp", async () => {
    const { cells } = await drop(
      [
        ["qrels", [qrels]],
        ["run", [runA]],
      ],
      undefined,
      {
        before: async (page) => {
          await page.fill('input[name="measures"]', "ndcg ndcg_cut.10");
          await page.dispatchEvent('input[name="measures"]', "change");
        },
        after: async (page) => {
          expect(await page.$eval('#results td[data-measure="ndcg"]', (td) => td.firstChild?.textContent ?? "")).toBe(
            summary((await cli("-m", "ndcg", "-m", "ndcg_cut.10", qrels, runA)).out).get("ndcg"),
          );
          await page.selectOption('select[name="gain"]', "exp");
          await waitFinished(page);
        },
      },
    );
    const linear = summary((await cli("-m", "ndcg", "-m", "ndcg_cut.10", qrels, runA)).out);
    const exp = summary((await cli("--gain", "exp", "-m", "ndcg", "-m", "ndcg_cut.10", qrels, runA)).out);
    expect(exp.get("ndcg")).toMatch(/^\d\.\d{4}$/);
    expect(exp.get("ndcg")).not.toBe(linear.get("ndcg"));
    expect(textOf(cells, "a.run")).toEqual(exp);
  }, 60_000);

  it("shows per-query cells equal to the CLI's -q output, sortable and filterable", async () => {
    const page = await browser!.newPage();
    try {
      await page.goto(base);
      await page.setInputFiles('input[name="qrels"]', [qrels]);
      await page.setInputFiles('input[name="run"]', [runA, runB]);
      await waitFinished(page);
      const read = () =>
        page.$$eval("#perquery td[data-qid]", (tds) =>
          tds.map((td) => ({ ...(td as HTMLElement).dataset, text: td.textContent ?? "" }) as Record<string, string>),
        );
      const want = new Map<string, string>();
      for (const line of (await cli("-q", qrels, runA)).out.trim().split("\n")) {
        const [name, qid, value] = line.split("\t");
        if (qid !== "all") want.set(`${name.trim()} ${qid}`, value);
      }
      const cells = await read();
      expect(cells.every((c) => c.run === "a.run")).toBe(true);
      expect(new Map(cells.map((c) => [`${c.measure} ${c.qid}`, c.text]))).toEqual(want);
      // Sort by map, descending after two clicks; filter to q1.
      await page.click('#perquery th[data-key^="map"]');
      await page.click('#perquery th[data-key^="map"]');
      const maps = (await read()).filter((c) => c.measure === "map").map((c) => Number(c.value));
      expect(maps).toEqual([...maps].sort((a, b) => b - a));
      await page.fill("#pq-filter", "q1");
      expect(new Set((await read()).map((c) => c.qid))).toEqual(new Set(["q1"]));
      // Both runs.
      await page.selectOption("#pq-runs", ["a.run", "b.run"]);
      await page.fill("#pq-filter", "");
      expect(new Set((await read()).map((c) => c.run))).toEqual(new Set(["a.run", "b.run"]));
    } finally {
      await page.close();
    }
  }, 60_000);

  it("compares the runs in the worker as the CLI's --compare does: marks, the comparison, the interval, downloads byte for byte", async () => {
    const fixture = new URL("./fixtures/compare-cli/", import.meta.url).pathname;
    const [cq, ...cruns] = ["qrels.txt", "bm25.run", "rerank.run", "weak.run"].map((f) => join(fixture, f));
    const strip = (s: string) => s.split(fixture).join("");
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const compared = () =>
      page.waitForFunction(() => ["done", "error"].includes(document.body.dataset.compare ?? ""), undefined, {
        timeout: 30_000,
      });
    const fetch = async (format: string) => {
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.click(`#compare-downloads button[data-format="${format}"]`),
      ]);
      return readFileSync((await download.path())!, "utf8");
    };
    /** The page's marks against the CLI's JSON: + where the test's adjusted p < alpha and the run's mean is higher. */
    const checkMarks = async (
      json: {
        comparisons: {
          measure: string;
          run: string;
          runMean: number;
          baselineMean: number;
          tests: Record<string, { pAdjusted: number | null }>;
        }[];
      },
      test: string,
      alpha: number,
    ) => {
      const marks = await page.$$eval("#results td[data-measure]", (tds) =>
        tds.map((td) => [
          (td as HTMLElement).dataset.measure,
          (td as HTMLElement).dataset.run,
          (td as HTMLElement).dataset.significant ?? "",
        ]),
      );
      const want = json.comparisons.map((x) => [
        x.measure,
        x.run,
        x.tests[test].pAdjusted !== null && x.tests[test].pAdjusted < alpha
          ? x.runMean > x.baselineMean
            ? "higher"
            : "lower"
          : "",
      ]);
      const got = marks.filter(([m, r]) => want.some((w) => w[0] === m && w[1] === r));
      expect(got.sort()).toEqual(want.map(([m, r, s]) => [m, r.replace(fixture, ""), s]).sort());
      expect(want.some((w) => w[2] !== "")).toBe(true); // the check can fail
      return marks;
    };
    try {
      await page.goto(base);
      await page.setInputFiles('input[name="qrels"]', [cq]);
      await page.setInputFiles('input[name="run"]', cruns);
      await waitFinished(page);
      await compared();
      expect(await page.evaluate(() => document.body.dataset.compare)).toBe("done");
      expect(await page.$eval("#compare-section", (e) => (e as HTMLElement).hidden)).toBe(false);
      // The page's defaults: trec_eval's default measures, the first run as the baseline, the t test.
      const defaults = ["--compare", "--test", "t", cq, ...cruns];
      for (const format of ["markdown", "latex", "csv", "json"])
        expect(await fetch(format), format).toBe(strip((await cli(...defaults, "--format", format)).out));
      const json = JSON.parse(strip((await cli(...defaults, "--format", "json")).out));
      const marks = await checkMarks(json, "t", 0.05);
      // The baseline's column has no mark; the cells' text is still the CLI's number.
      expect(marks.filter(([, r, s]) => r === "bm25.run" && s)).toEqual([]);
      expect(await page.textContent("#compare-legend")).toContain(
        "significantly higher / lower than the baseline, bm25.run (t = paired Student's t",
      );
      expect(await page.$$eval("#comparison tbody tr", (trs) => trs.length)).toBe(json.comparisons.length);
      // The difference plot: rerank.run minus bm25.run, its mean and interval the t test's.
      await page.selectOption("#chart-measure", "map");
      await page.selectOption("#diff-b", "rerank.run");
      await page.selectOption("#diff-a", "bm25.run");
      const x = json.comparisons.find(
        (c: { measure: string; run: string }) => c.measure === "map" && c.run === "rerank.run",
      );
      const drawn = await page.$eval("#difference svg", (svg) => ({
        mean: svg.querySelector<SVGElement>("line.mean")?.dataset.mean,
        lo: svg.querySelector<SVGElement>("path.interval")?.dataset.lo,
        hi: svg.querySelector<SVGElement>("path.interval")?.dataset.hi,
      }));
      expect(drawn).toEqual({ mean: String(x.difference), lo: String(x.ci95[0]), hi: String(x.ci95[1]) });
      expect(await page.textContent("#diff-caption")).toContain(
        `95% interval [${fixed(x.ci95[0])}, ${fixed(x.ci95[1])}] (t, n = 20)`,
      );
      // The other way round: negated.
      await page.selectOption("#diff-b", "bm25.run");
      await page.selectOption("#diff-a", "rerank.run");
      expect(await page.$eval("#difference svg line.mean", (l) => Number((l as SVGElement).dataset.mean))).toBe(
        -x.difference,
      );

      // Another baseline, test, correction and alpha: compared again without reading or evaluating.
      await page.evaluate(() => {
        // The states the comparison goes through, as they come: it may be done before the next look.
        const states: string[] = ((window as unknown as { compareStates: string[] }).compareStates = []);
        new MutationObserver(() => states.push(document.body.dataset.compare ?? "")).observe(document.body, {
          attributes: true,
          attributeFilter: ["data-compare"],
        });
        const form = document.querySelector<HTMLFormElement>("#compare-form")!;
        const set = (name: string, value: string) =>
          ((form.elements.namedItem(name) as HTMLInputElement).value = value);
        set("baseline", "rerank.run");
        set("test", "randomization");
        set("correction", "bonferroni");
        set("alpha", "0.1");
        form.querySelector("select")!.dispatchEvent(new Event("change", { bubbles: true }));
      });
      await compared();
      expect(await page.evaluate(() => (window as unknown as { compareStates: string[] }).compareStates)).toContain(
        "running",
      );
      const chosen = [
        "--compare",
        "--test",
        "randomization",
        "--baseline",
        join(fixture, "rerank.run"),
        "--correction",
        "bonferroni",
        "--alpha",
        "0.1",
        cq,
        ...cruns,
      ];
      for (const format of ["markdown", "latex", "csv", "json"])
        expect(await fetch(format), format).toBe(strip((await cli(...chosen, "--format", format)).out));
      await checkMarks(JSON.parse(strip((await cli(...chosen, "--format", "json")).out)), "randomization", 0.1);
      expect(await page.$eval("#results th[data-baseline]", (th) => th.textContent)).toBe("rerank.run");

      // Other measures: evaluated again, then compared under the same comparison settings.
      // (One change event: the measures' field sets the preset to custom itself.)
      await page.$eval('input[name="measures"]', (e) => {
        (e as HTMLInputElement).value = "ndcg_cut.5 map P.5 ndcg@10";
        e.dispatchEvent(new Event("change", { bubbles: true }));
      });
      await waitFinished(page);
      await compared();
      const custom = [
        ...chosen.slice(0, -4),
        "-m",
        "ndcg_cut.5",
        "-m",
        "map",
        "-m",
        "P.5",
        "-m",
        "ndcg@10",
        cq,
        ...cruns,
      ];
      expect(await fetch("markdown")).toBe(strip((await cli(...custom, "--format", "markdown")).out));
      expect(await fetch("json")).toBe(strip((await cli(...custom, "--format", "json")).out));
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);

  it("prints the comparison's numbers as the CLI's --compare (a tie at the fifth decimal to the even digit), and each measure's own conventions", async () => {
    const tiesQrels = file("ties.qrels", TIES_QRELS);
    const [a, b] = [file("ties-a.run", TIES_RUN_A), file("ties-b.run", TIES_RUN_B)];
    const setMeasures = async (page: Page, text: string) => {
      await page.fill('input[name="measures"]', text);
      await page.dispatchEvent('input[name="measures"]', "change");
    };
    let means: string[] = [];
    let pair: string[] = [];
    let conventionsText = "";
    await drop(
      [
        ["qrels", [tiesQrels]],
        ["run", [a, b]],
      ],
      undefined,
      {
        before: (page) => setMeasures(page, "P.8"),
        after: async (page) => {
          await page.waitForFunction(() => document.body.dataset.compare === "done", undefined, { timeout: 30_000 });
          means = await page.$$eval("#results td[data-measure]", (tds) =>
            tds.map((td) => td.firstChild?.textContent ?? ""),
          );
          pair = await page.$eval("#comparison tbody tr", (tr) =>
            [...(tr as HTMLTableRowElement).cells].map((c) => c.textContent ?? ""),
          );
          await setMeasures(page, "ndcg@10 map ndcg_cut.10");
          await waitFinished(page);
          conventionsText = (await page.textContent("#conventions")) ?? "";
        },
      },
    );
    // P.8's means are 9/32 and 5/32: the evaluation prints 0.2812 and 0.1562 (toFixed: 0.2813, 0.1563).
    expect(means).toEqual(["0.2812", "0.1562"]);
    const cliRow = (await cli("-m", "P.8", "--compare", "--test", "t", tiesQrels, a, b)).out
      .split("\n")
      .find((l) => l.startsWith("P_8 ") && l.includes(b))!
      .split(/\s{2,}/);
    // n, base mean, run mean, diff, 95% CI, rel, d_z, MDD, W/T/L: the CLI's cells.
    expect(pair.slice(2, 11)).toEqual(cliRow.slice(3, 12));
    expect(pair.slice(3, 5)).toEqual(["0.2812", "0.1562"]);

    // trec_eval's map beside rankeval's ndcg@10: under trec_eval's conventions, as JSON's measureConventions.
    const own = JSON.parse(
      (await cli("--format", "json", "-m", "ndcg@10", "-m", "map", "-m", "ndcg_cut.10", tiesQrels, a)).out,
    ).measureConventions as Record<string, string>;
    expect(own.map).toMatch(/^trec_eval: /);
    const lines = conventionsText.replace(/^conventions: /, "").split("; ");
    expect(lines).toEqual([
      "ndcg@10      gain=exp noRelevant=zero beyondList=pad ties=docid",
      "map          trec_eval: gain=linear relevanceThreshold=1 noRelevant=zero beyondList=pad ties=docid",
      "ndcg_cut_10  trec_eval: gain=linear relevanceThreshold=1 noRelevant=zero beyondList=pad ties=docid",
    ]);
  }, 60_000);

  it("shows no comparison for one run, and compares two runs of one name, named apart", async () => {
    const one = await drop(
      [
        ["qrels", [qrels]],
        ["run", [runA]],
      ],
      undefined,
      {
        after: async (page) => {
          expect(await page.$eval("#compare-section", (e) => (e as HTMLElement).hidden)).toBe(true);
          expect(await page.evaluate(() => document.body.dataset.compare)).toBeUndefined();
        },
      },
    );
    expect(one.state).toBe("done");
    // Two runs of one name (from two directories): named apart (issue 36), and compared.
    const other = join(dir, "other");
    mkdirSync(other, { recursive: true });
    const twin = join(other, "a.run");
    writeFileSync(twin, readFileSync(runB));
    const twins = await drop(
      [
        ["qrels", [qrels]],
        ["run", [runA, twin]],
      ],
      undefined,
      {
        after: async (page) => {
          await page.waitForFunction(() => ["done", "error"].includes(document.body.dataset.compare ?? ""));
          expect(await page.evaluate(() => document.body.dataset.compare)).toBe("done");
          expect(await page.textContent("#compare-status")).toBe("");
        },
      },
    );
    expect(new Set(twins.cells.map((c) => c.run))).toEqual(new Set(["a.run", "a.run (2)"]));
  }, 60_000);

  it("downloads the aggregate results as the CLI's --format json, csv and trec text", async () => {
    const page = await browser!.newPage();
    try {
      await page.goto(base);
      await page.setInputFiles('input[name="qrels"]', [qrels]);
      await page.setInputFiles('input[name="run"]', [runA, runB]);
      await waitFinished(page);
      const fetch = async (format: string) => {
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          page.click(`#downloads button[data-format="${format}"]`),
        ]);
        return readFileSync((await download.path())!, "utf8");
      };
      const strip = (s: string) => s.split(`${dir}/`).join("");
      expect(await fetch("json")).toBe(strip((await cli("--format", "json", qrels, runA, runB)).out));
      expect(await fetch("csv")).toBe(strip((await cli("--format", "csv", qrels, runA, runB)).out));
      // Each run after its header (==> a.run <==), as the CLI prints several runs.
      expect(await fetch("trec")).toBe(strip((await cli(qrels, runA, runB)).out));
    } finally {
      await page.close();
    }
  }, 60_000);
  /** The CLI's per-query values (full precision, from --format json -q): qid -> value of `measure`. */
  async function perQueryOf(measure: string, ...argv: string[]): Promise<Map<string, number>> {
    const r = await cli("-q", "--format", "json", "-m", measure, ...argv);
    expect(r.status).toBe(0);
    const pq = (JSON.parse(r.out) as { runs: { perQuery: Record<string, Record<string, number>> }[] }).runs[0].perQuery;
    const printed = measure.replace(".", "_"); // P.5 prints as P_5
    return new Map(Object.entries(pq).map(([q, v]) => [q, v[printed]]));
  }

  it("draws a histogram of a run's per-query values and the per-query difference of two runs, from the CLI's values", async () => {
    const page = await browser!.newPage();
    try {
      await page.goto(base);
      await page.setInputFiles('input[name="qrels"]', [qrels]);
      await page.setInputFiles('input[name="run"]', [runA, runB]);
      await waitFinished(page);
      expect(await page.inputValue("#chart-measure")).toBe("map");
      const a = await perQueryOf("map", qrels, runA);
      const b = await perQueryOf("map", qrels, runB);
      const bars = await page.$$eval("#histogram rect", (rs) => rs.map((r) => Number((r as SVGElement).dataset.count)));
      expect(bars).toEqual(histogramBins([...a.values()]).bins.map((x) => x.count));
      expect(bars.reduce((x, y) => x + y, 0)).toBe(a.size);
      // b.run minus a.run, over the queries both have.
      expect(await page.inputValue("#diff-b")).toBe("b.run");
      expect(await page.inputValue("#diff-a")).toBe("a.run");
      const want = differences(
        { qids: [...a.keys()], values: [...a.values()] },
        { qids: [...b.keys()], values: [...b.values()] },
      );
      const svg = await page.$eval("#difference svg", (e) => ({ ...(e as SVGElement).dataset }));
      expect(svg).toEqual({
        better: String(want.better),
        worse: String(want.worse),
        equal: String(want.equal),
        n: String(want.sorted.length),
      });
      expect(want.sorted.length).toBe(2); // q3 is not in b.run
      expect(await page.textContent("#diff-caption")).toContain(`better on ${want.better}, worse on ${want.worse}`);
      // Another measure and the other way round.
      await page.selectOption("#chart-measure", "P_5");
      await page.selectOption("#diff-b", "a.run");
      await page.selectOption("#diff-a", "b.run");
      const pa = await perQueryOf("P.5", qrels, runA);
      const pb = await perQueryOf("P.5", qrels, runB);
      const back = differences(
        { qids: [...pb.keys()], values: [...pb.values()] },
        { qids: [...pa.keys()], values: [...pa.values()] },
      );
      expect(await page.$eval("#difference svg", (e) => (e as SVGElement).dataset.better)).toBe(String(back.better));
      expect(
        await page.$$eval("#histogram rect", (rs) => rs.map((r) => Number((r as SVGElement).dataset.count))),
      ).toEqual(histogramBins([...pa.values()]).bins.map((x) => x.count));
    } finally {
      await page.close();
    }
  }, 60_000);

  it("shows each file's progress: a bar, bytes and lines", async () => {
    const page = await browser!.newPage();
    try {
      await page.goto(base);
      await page.setInputFiles('input[name="qrels"]', [qrels]);
      await page.setInputFiles('input[name="run"]', [runA]);
      await waitFinished(page);
      const items = await page.$$eval("#progress li", (lis) =>
        lis.map((li) => ({
          file: (li as HTMLElement).dataset.file,
          text: li.textContent,
          value: li.querySelector("progress")!.value,
          max: li.querySelector("progress")!.max,
        })),
      );
      expect(items.map((i) => i.file)).toEqual(["qrels.txt", "a.run"]);
      for (const i of items) expect(i.value).toBe(i.max);
      expect(items[1].text).toMatch(/^a\.run: 117 B of 117 B, read in [\d.]+ s \(7 lines\)$/);
    } finally {
      await page.close();
    }
  }, 60_000);

  it("cancels a read under way, and starts again when a setting changes", async () => {
    // A run big enough to be still reading when Cancel is clicked: 40k queries of 100 documents.
    const lines: string[] = [];
    for (let q = 0; q < 40_000; q++)
      for (let d = 0; d < 100; d++) lines.push(`q${q} Q0 doc${d} ${d + 1} ${(100 - d) / 7} big`);
    const big = file("big.run", lines.join("\n") + "\n");
    const page = await browser!.newPage();
    try {
      await page.goto(base);
      await page.setInputFiles('input[name="qrels"]', [qrels]);
      await page.setInputFiles('input[name="run"]', [big]);
      await page.waitForSelector('#progress li[data-file="big.run"]');
      await page.click("#cancel");
      expect(await page.evaluate(() => document.body.dataset.state)).toBe("cancelled");
      expect(await page.isHidden("#cancel")).toBe(true);
      expect(await page.textContent("#status-text")).toContain("Cancelled");
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => document.body.dataset.state)).toBe("cancelled");
      expect(await page.$$("#results td")).toEqual([]);
      // A new setting reads the files again, to the end.
      await page.selectOption('select[name="preset"]', "ltr");
      await waitFinished(page);
      expect(await page.evaluate(() => document.body.dataset.state)).toBe("done");
      expect(
        await page.$eval(
          '#results td[data-measure="map"][data-run="big.run"]',
          (td) => td.firstChild?.textContent ?? "",
        ),
      ).toMatch(/^\d/);
    } finally {
      await page.close();
    }
  }, 120_000);

  /** Drops files (name, text) on the element matching `selector`, as a user's drag and drop does. */
  async function dropFiles(page: Page, selector: string, files: [name: string, path: string][]): Promise<void> {
    const contents = files.map(([name, path]) => ({ name, text: readFileSync(path, "utf8") }));
    await page.evaluate(
      ({ selector, contents }) => {
        const dt = new DataTransfer();
        for (const f of contents) dt.items.add(new File([f.text], f.name));
        document
          .querySelector(selector)!
          .dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      { selector, contents },
    );
  }

  it("takes dropped files: each to the input its first line says, or to the row it is dropped on", async () => {
    const page = await browser!.newPage();
    try {
      await page.goto(base);
      await dropFiles(page, "#inputs .hint", [
        ["a.run", runA],
        ["judgments", qrels],
      ]);
      await waitFinished(page);
      expect(await page.$eval('input[name="qrels"]', (i) => (i as HTMLInputElement).files![0].name)).toBe("judgments");
      const want = summary((await cli(qrels, runA)).out);
      const read = () =>
        page.$$eval("#results td[data-measure]", (tds) =>
          tds.map((td) => [
            (td as HTMLElement).dataset.run,
            (td as HTMLElement).dataset.measure,
            td.firstChild?.textContent ?? "",
          ]),
        );
      expect(new Map((await read()).map(([, m, t]) => [m, t]))).toEqual(want);
      // A second run dropped on the runs row: both runs.
      await dropFiles(page, 'input[name="run"]', [
        ["a.run", runA],
        ["b.run", runB],
      ]);
      await waitFinished(page);
      expect(new Set((await read()).map(([r]) => r))).toEqual(new Set(["a.run", "b.run"]));
      // A LETOR file and its predictions (one number a line: scores).
      // Sorting the files out reads their first lines first: wait for the new run's cells.
      await dropFiles(page, "#inputs", [
        ["test.letor", letor],
        ["pred.txt", scores],
      ]);
      await page.waitForSelector('#results td[data-run="pred.txt"]');
      await waitFinished(page);
      expect(new Set((await read()).map(([r]) => r))).toEqual(new Set(["pred.txt"]));
    } finally {
      await page.close();
    }
  }, 60_000);

  it("reads a LETOR file without qid: fields with its query group sizes, as the CLI's --query", async () => {
    const noQid = file(
      "noqid.letor",
      [
        "2 1:0.1 2:0.3",
        "0 1:0.5 2:0.1",
        "1 1:0.2 2:0.2",
        "1 1:0.4 2:0.9",
        "0 1:0.3 2:0.8",
        "2 1:0.1 2:0.1",
        "0 1:0.2 2:0.2",
        "",
      ].join("\n"),
    );
    const groups = file("noqid.query", "3\n2\n2\n");
    const missing = await drop([
      ["letor", [noQid]],
      ["scores", [scores]],
    ]);
    expect(missing.state).toBe("error");
    expect(missing.error).toContain("noqid.letor has no qid: fields");
    const { state, cells, error } = await drop([
      ["query", [groups]],
      ["letor", [noQid]],
      ["scores", [scores]],
    ]);
    expect(error).toBe("");
    expect(state).toBe("done");
    const r = await cli("--letor", noQid, "--scores", scores, "--query", groups, "--format", "json");
    const mean = (JSON.parse(r.out) as { runs: { mean: Record<string, number> }[] }).runs[0].mean;
    expect(Object.fromEntries(cells.map((c) => [c.measure, Number(c.value)]))).toEqual(mean);
  }, 60_000);

  it("orders tied scores by input order when ties is set so, as the CLI's --ties input", async () => {
    // q1's two documents tie: by document id d2 (relevant) comes first, in input order d1.
    const tiedQrels = file("tied.qrels", "q1 0 d1 0\nq1 0 d2 1\nq2 0 a 1\n");
    const tied = file("tied.run", "q1 Q0 d1 1 0.5 T\nq1 Q0 d2 2 0.5 T\nq2 Q0 b 1 2 T\nq2 Q0 a 2 1 T\n");
    const byDocid = summary((await cli(tiedQrels, tied)).out);
    const byInput = summary((await cli("--ties", "input", tiedQrels, tied)).out);
    expect(byInput.get("P_5")).toBe(byDocid.get("P_5"));
    expect(byInput.get("recip_rank")).not.toBe(byDocid.get("recip_rank"));
    const { cells } = await drop(
      [
        ["qrels", [tiedQrels]],
        ["run", [tied]],
      ],
      undefined,
      {
        after: async (page) => {
          expect(
            await page.$eval('#results td[data-measure="recip_rank"]', (td) => td.firstChild?.textContent ?? ""),
          ).toBe(byDocid.get("recip_rank"));
          await page.selectOption('select[name="ties"]', "input");
          await waitFinished(page);
        },
      },
    );
    expect(textOf(cells, "tied.run")).toEqual(byInput);
  }, 60_000);

  it("evaluates with a tool's preset and shows the tie range as an interval, as the CLI's --preset and --tie-range", async () => {
    // q1's two documents tie, one relevant: the tie range of recip_rank is [1/2, 1].
    const tiedQrels = file("tied2.qrels", "q1 0 d1 0\nq1 0 d2 1\nq2 0 a 1\nq2 0 b 2\n");
    const tied = file("tied2.run", "q1 Q0 d1 1 0.5 T\nq1 Q0 d2 2 0.5 T\nq2 Q0 b 1 2 T\nq2 Q0 a 2 1 T\n");
    const argv = ["-m", "ndcg@10", "-m", "map", "-m", "mrr"];
    const cliJson = JSON.parse(
      (await cli("--preset", "xgboost", "--tie-range", "--format", "json", ...argv, tiedQrels, tied)).out,
    ) as {
      measureConventions: Record<string, string>;
      runs: { mean: Record<string, number>; tieRange: { mean: Record<string, { worst: number; best: number }> } }[];
    };
    let ranges: { measure: string; worst: number; best: number }[] = [];
    let conventionsLine = "";
    const { cells } = await drop(
      [
        ["qrels", [tiedQrels]],
        ["run", [tied]],
      ],
      undefined,
      {
        before: async (page) => {
          await page.fill('input[name="measures"]', "ndcg@10 map mrr");
          await page.dispatchEvent('input[name="measures"]', "change");
          await page.selectOption('select[name="conventionPreset"]', "xgboost");
          await page.check('input[name="tieRange"]');
        },
        after: async (page) => {
          ranges = await page.$$eval("#results td[data-measure]", (tds) =>
            tds.map((td) => {
              const span = td.querySelector<HTMLElement>(".tie-range")!;
              return {
                measure: (td as HTMLElement).dataset.measure!,
                worst: Number(span.dataset.worst),
                best: Number(span.dataset.best),
              };
            }),
          );
          conventionsLine = (await page.textContent("#conventions")) ?? "";
        },
      },
    );
    const run = cliJson.runs[0];
    expect(Object.fromEntries(cells.map((c) => [c.measure, Number(c.value)]))).toEqual(run.mean);
    expect(Object.fromEntries(ranges.map((r) => [r.measure, { worst: r.worst, best: r.best }]))).toEqual(
      run.tieRange.mean,
    );
    expect(run.tieRange.mean.mrr).toEqual({ worst: 0.75, best: 1 });
    // XGBoost keeps input order: q1 ranks d1 (not relevant) first, the worst order of its tie.
    expect(cells.find((c) => c.measure === "mrr")!.text).toBe("0.7500"); // the range follows in its own span (checked above)
    expect(conventionsLine).toContain("preset=xgboost");
    expect(cliJson.measureConventions.map).toContain("definition=map_xgboost");
  }, 60_000);

  it("reads a run whose queries are not together whole, says so, and gives the CLI's numbers", async () => {
    const scattered = file("scattered.run", "q1 Q0 d1 1 0.9 S\nq2 Q0 d7 1 0.5 S\nq1 Q0 d3 2 0.6 S\nq3 Q0 d2 1 3 S\n");
    const warned: string[] = [];
    const { state, cells } = await drop(
      [
        ["qrels", [qrels]],
        ["run", [scattered]],
      ],
      undefined,
      {
        after: async (page) =>
          void warned.push(...(await page.$$eval("#warnings p", (ps) => ps.map((p) => p.textContent ?? "")))),
      },
    );
    expect(state).toBe("done");
    expect(warned).toContain(
      "scattered.run: its queries' lines are not together; read whole (more memory than a grouped run)",
    );
    expect(textOf(cells, "scattered.run")).toEqual(summary((await cli(qrels, scattered)).out));
  }, 60_000);

  it("imports the library as an ES module in a page: the same numbers as in Node", async () => {
    const rows = {
      qid: ["a", "a", "a", "b", "b"],
      score: [0.9, 0.5, 0.5, 0.2, 0.1],
      rel: [0, 2, 1, 1, 0],
      docid: ["x", "y", "z", "x", "y"],
    };
    const measures = ["ndcg@3", "map", "mrr", "precision@2"];
    const page = await browser!.newPage();
    try {
      await page.goto(base);
      // A string, so that the test runner leaves the page's import() alone.
      const got = (await page.evaluate(`import("/dist/index.js").then((lib) => {
        const r = lib.evaluate(${JSON.stringify(rows)}, ${JSON.stringify(measures)});
        return { mean: r.mean, qids: r.qids };
      })`)) as { mean: Record<string, number>; qids: string[] };
      const want = evaluate(rows, measures);
      expect(got.qids).toEqual(want.qids);
      expect(got.mean).toEqual(want.mean);
    } finally {
      await page.close();
    }
  }, 60_000);
});
