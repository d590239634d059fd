// The HTML report uses the window's width (issue 25): the comparison table and the drill-downs'
// rankings without horizontal scrollbars where the window is wide enough, and no counts compared.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium } from "../scripts/page.mjs";
import { main } from "../src/node/cli.js";
import { lastColumns } from "./_window.js";

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI)
  console.warn(`test/web-edges.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

describe.skipIf(!haveChromium && !process.env.CI)("the HTML report's layout", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-web-edges-"));
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lays the comparison and the drill-downs out in the window, without scrollbars, and compares no counts", async () => {
    // Run names as the user gave them (relative to the repository, where vitest runs).
    expect(existsSync("examples/bm25.run")).toBe(true);
    const out = join(dir, "report.html");
    let err = "";
    const status = await main(["--report", out, "examples/qrels.txt", "examples/bm25.run", "examples/rerank.run"], {
      stdout: { write: () => true },
      stderr: { write: (s: string) => (err += s) },
    });
    expect(status, err).toBe(0);
    expect(err).toContain("counts, left out of the comparison (-m NAME compares one): num_ret, num_rel, num_rel_ret");
    for (const width of [1440, 1920]) {
      const page = await browser!.newPage({ viewport: { width, height: 900 } });
      try {
        await page.goto(`file://${out}`);
        await page.waitForFunction(() => document.body.dataset.state === "done", undefined, { timeout: 30_000 });
        const compared = await page.$$eval("#comparison tbody tr", (trs) =>
          trs.map((tr) => (tr as HTMLElement).dataset.measure),
        );
        expect(compared).toContain("map");
        expect(compared.filter((m) => /^num_/.test(m!))).toEqual([]);
        const qid = await page.$eval("#explained button.qid-link", (b) => (b as HTMLElement).dataset.qid!);
        await page.click(`#explained button[data-qid="${qid}"]`);
        await page.waitForSelector(`.drilldown[data-qid="${qid}"]`);
        const overflowing = await page.$$eval("#comparison, #results, .drilldown .scroll", (els) =>
          els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => `${e.id || e.className}: ${e.scrollWidth}`),
        );
        expect(overflowing, `at ${width} px`).toEqual([]);
        // Per-query headers (trec_eval's 30 names, two runs: narrow columns of counts) break between their
        // parts, not letter by letter: their lines hold 3 characters or more on average (a header broken
        // after each letter, as "num_ret (examples/bm25.run)" in 18 lines, does not).
        const brokenInside = await page.$$eval("#perquery th", (ths) =>
          ths.flatMap((th) => {
            const range = document.createRange();
            range.selectNodeContents(th);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
            const chars = (th.textContent ?? "").length;
            return lines > Math.ceil(chars / 3) ? [`${th.textContent}: ${lines} lines`] : [];
          }),
        );
        expect(brokenInside, `at ${width} px`).toEqual([]);
        // The two rankings side by side.
        const tops = await page.$$eval(".drilldown .dd-run:not(.dd-ideal)", (els) =>
          els.map((e) => e.getBoundingClientRect().top),
        );
        expect(tops.length).toBe(2);
        expect(tops[0]).toBe(tops[1]);
      } finally {
        await page.close();
      }
    }
  }, 120_000);

  it("keeps the comparison's and the per-query table's last columns in a 1440 and a 1280 px window, run names as long paths", async () => {
    // Runs named by long paths, as a command line given absolute paths names them (issue 36).
    const runs = join(dir, "a-rather-long-folder-of-runs", "from-the-last-experiment");
    mkdirSync(runs, { recursive: true });
    for (const name of ["bm25.run", "rerank.run"]) copyFileSync(join("examples", name), join(runs, name));
    const out = join(dir, "long-names.html");
    const measures = ["ndcg@10", "map", "P@10", "recall@100", "mrr"].flatMap((m) => ["-m", m]);
    const argv = ["--report", out, ...measures, "examples/qrels.txt", join(runs, "bm25.run"), join(runs, "rerank.run")];
    const status = await main(argv, { stdout: { write: () => true }, stderr: { write: () => true } });
    expect(status).toBe(0);
    for (const width of [1440, 1280]) {
      const page = await browser!.newPage({ viewport: { width, height: 900 } });
      try {
        await page.goto(`file://${out}`);
        await page.waitForFunction(() => document.body.dataset.state === "done", undefined, { timeout: 30_000 });
        expect(await lastColumns(page), `at ${width} px`).toEqual([
          { table: "comparison", inWindow: true, scrolls: false },
          { table: "perquery", inWindow: true, scrolls: false },
        ]);
      } finally {
        await page.close();
      }
    }
  }, 120_000);
});
