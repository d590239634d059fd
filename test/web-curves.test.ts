// The precision-recall figure in a real browser (Debian's chromium, as test/web.test.ts): on the page
// for the runs loaded, in its downloaded report, and in the command line's --report, each with a point
// per run and recall level whose precision is the mean `-m iprec_at_recall` gives, though -m asked for
// map alone (whose table stays map's).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium, servePage } from "../scripts/page.mjs";
import { parseArgs } from "../src/node/args.js";
import { evaluateTrecRuns, main } from "../src/node/cli.js";

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI)
  console.warn(`test/web-curves.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

const examples = new URL("../examples/", import.meta.url).pathname;
const QRELS = join(examples, "qrels.txt");
const BM25 = join(examples, "bm25.run");
const RERANK = join(examples, "rerank.run");
const LEVELS = ["0.00", "0.10", "0.20", "0.30", "0.40", "0.50", "0.60", "0.70", "0.80", "0.90", "1.00"];
const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };

/** The command line's iprec_at_recall means of a run, in level order, and as it prints them. */
async function iprec(run: string): Promise<{ means: number[]; printed: string[] }> {
  const { runs } = await evaluateTrecRuns(parseArgs(["-m", "iprec_at_recall", QRELS, run]), quiet);
  let out = "";
  await main(["-m", "iprec_at_recall", QRELS, run], { stdout: { write: (s) => (out += s) }, stderr: quiet.stderr });
  return {
    means: LEVELS.map((l) => runs[0].result.mean[`iprec_at_recall_${l}`]),
    printed: out
      .trim()
      .split("\n")
      .map((line) => line.split("\t")[2].trim()),
  };
}

interface Point {
  run: string;
  recall: number;
  precision: number;
}

/** The figure's points, legend and axis labels, as drawn. */
async function figure(page: Page) {
  expect(await page.$$eval('[data-chart="precision-recall"]', (xs) => xs.length)).toBe(1);
  return page.$eval('[data-chart="precision-recall"]', (svg) => ({
    points: [...svg.querySelectorAll("circle[data-run]")].map((c) => {
      const d = (c as SVGElement).dataset;
      return { run: d.run!, recall: Number(d.recall), precision: Number(d.precision) };
    }),
    legend: [...svg.querySelectorAll("g.legend")].map((g) => g.textContent),
    lines: svg.querySelectorAll("path.pr-line").length,
    text: [...svg.querySelectorAll("text.axis-label")].map((t) => t.textContent),
    shown: (svg as SVGSVGElement).getBoundingClientRect().height > 0,
  }));
}

/** The figure shows each run's 11 means of -m iprec_at_recall, in order, and says what it is. */
async function expectCurves(page: Page, runs: [name: string, path: string][]) {
  const f = await figure(page);
  expect(f.shown).toBe(true);
  expect(f.lines).toBe(runs.length);
  expect(f.legend).toEqual(runs.map(([name]) => name));
  expect(f.text).toEqual(["recall", "interpolated precision"]);
  expect(f.points.length).toBe(11 * runs.length);
  for (const [name, path] of runs) {
    const mine = f.points.filter((p: Point) => p.run === name);
    const { means, printed } = await iprec(path);
    expect(mine.map((p: Point) => p.recall)).toEqual(LEVELS.map(Number));
    expect(mine.map((p: Point) => p.precision)).toEqual(means);
    expect(mine.map((p: Point) => p.precision.toFixed(4))).toEqual(printed);
  }
  // The two runs differ: a figure that drew one run twice would not pass.
  expect(f.points.filter((p: Point) => p.run === runs[0][0]).map((p: Point) => p.precision)).not.toEqual(
    f.points.filter((p: Point) => p.run === runs[1][0]).map((p: Point) => p.precision),
  );
}

describe.skipIf(!haveChromium && !process.env.CI)("precision-recall curves in chromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-web-curves-"));
  let browser: Browser | undefined;
  let site: { url: string; close(): Promise<unknown> } | undefined;

  beforeAll(async () => {
    if (!haveChromium)
      throw new Error(`${CHROMIUM} is missing: the browser tests need Debian's chromium (apt-get install chromium)`);
    site = await servePage(join(dir, "site"));
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const done = (page: Page, key = "state") =>
    page.waitForFunction((k) => document.body.dataset[k] === "done", key, { timeout: 30_000 });

  /** Types -m names into the page, then leaves the field: its change (a click elsewhere would make it later). */
  async function measures(page: Page, names: string): Promise<void> {
    await page.fill('input[name="measures"]', names);
    await page.$eval('input[name="measures"]', (e) => (e as HTMLInputElement).blur());
  }

  /** Opens a report from disk, drawn. */
  async function openReport(path: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser!.newPage({ viewport: { width: 1300, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`file://${path}`);
    await done(page);
    return { page, errors };
  }

  it("draws the page's runs' curves, -m map or not, as the table's iprec_at_recall lines; its report too", async () => {
    const page = await browser!.newPage({ viewport: { width: 1300, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(site!.url);
      // Hidden before any run.
      expect(await page.$eval("#pr-section", (s) => (s as HTMLElement).hidden)).toBe(true);
      await measures(page, "map");
      await page.setInputFiles('input[name="qrels"]', [QRELS]);
      await page.setInputFiles('input[name="run"]', [BM25, RERANK]);
      await done(page);
      // The table is map's alone: the curve adds no row.
      expect(await page.$$eval("#results tbody tr", (trs) => trs.map((tr) => tr.cells[0].textContent))).toEqual([
        "map",
      ]);
      const runs: [string, string][] = [
        ["bm25.run", BM25],
        ["rerank.run", RERANK],
      ];
      await expectCurves(page, runs);

      // The report the page downloads draws the same figure.
      await done(page, "compare");
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.click('#downloads button[data-format="report"]'),
      ]);
      const path = join(dir, "page-report.html");
      await download.saveAs(path);
      const opened = await openReport(path);
      try {
        await expectCurves(opened.page, runs);
        expect(opened.errors).toEqual([]);
      } finally {
        await opened.page.close();
      }

      // Asked for: the curve is the table's iprec_at_recall lines, as the page computes them.
      await measures(page, "iprec_at_recall map");
      await done(page);
      // (trec_eval's lines, as printed: 4 decimals.)
      const cells = await page.$$eval('#results td[data-run="rerank.run"]', (tds) =>
        tds.map((td) => [(td as HTMLElement).dataset.measure!, td.textContent ?? ""] as const),
      );
      const table = new Map(cells);
      const { points } = await figure(page);
      expect(points.filter((p: Point) => p.run === "rerank.run").map((p: Point) => p.precision.toFixed(4))).toEqual(
        LEVELS.map((l) => table.get(`iprec_at_recall_${l}`)),
      );
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("draws the curves of runs evaluated across partition workers (large TREC text)", async () => {
    const page = await browser!.newPage({ viewport: { width: 1300, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      // Files of any size to two partition workers, which evaluate the curve's measures too.
      await page.goto(`${site!.url}?workers=2&partition-bytes=0`);
      await measures(page, "map");
      await page.setInputFiles('input[name="qrels"]', [QRELS]);
      await page.waitForFunction(() => document.body.dataset.judgments === "read", undefined, { timeout: 30_000 });
      await page.setInputFiles('input[name="run"]', [BM25, RERANK]);
      await done(page);
      expect(await page.evaluate(() => document.body.dataset.workers)).toBe("2");
      await expectCurves(page, [
        ["bm25.run", BM25],
        ["rerank.run", RERANK],
      ]);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("draws the command line's --report's curves, -m map only", async () => {
    const out = join(dir, "report.html");
    let err = "";
    const status = await main(["--report", out, "-m", "map", QRELS, BM25, RERANK], {
      stdout: quiet.stdout,
      stderr: { write: (s) => (err += s) },
    });
    expect(status, err).toBe(0);
    const { page, errors } = await openReport(out);
    try {
      expect(await page.$$eval("#results tbody tr", (trs) => trs.map((tr) => tr.cells[0].textContent))).toEqual([
        "map",
      ]);
      await expectCurves(page, [
        [BM25, BM25],
        [RERANK, RERANK],
      ]);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);
});
