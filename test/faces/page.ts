// The page in Chromium as a face: one tab per number of partition workers (the page's ?workers=N,
// ?partition-bytes=0 so that small files go across them too), several input sets evaluated one
// after the other in it, as a user drops one set after another. Its answer: the cells' values, the
// downloads (trec_eval text, JSON, CSV) and the comparison's cells, or the error it shows.
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";

export interface PageAnswer {
  readonly state: string;
  /** #error's text ("" when none). */
  readonly error: string;
  /** The means shown: run -> measure (as the cell names it) -> data-value (null: no value). */
  readonly cells: Record<string, Record<string, number | null>>;
  /** The cells' text as shown: run -> measure -> text. */
  readonly shown: Record<string, Record<string, string>>;
  readonly downloads: { trec: string | null; json: string | null; csv: string | null };
  /** The comparison's table text, row by row (two runs or more). */
  readonly comparison: string[][];
  /** Uncaught errors in the page. */
  readonly pageErrors: string[];
}

export class PageFace {
  private page: Page | undefined;
  private readonly pageErrors: string[] = [];

  constructor(
    private readonly browser: Browser,
    private readonly url: string,
    readonly workers: number,
  ) {}

  async open(): Promise<void> {
    this.page = await this.browser.newPage({ acceptDownloads: true });
    this.page.on("pageerror", (e) => this.pageErrors.push(e.message));
    await this.page.goto(`${this.url}?workers=${this.workers}&partition-bytes=0`);
  }

  async close(): Promise<void> {
    await this.page?.close();
  }

  private async settled(): Promise<string> {
    const page = this.page!;
    await page.waitForFunction(() => document.body.dataset.state !== "running", undefined, { timeout: 60_000 });
    return (await page.evaluate(() => document.body.dataset.state)) ?? "";
  }

  /** Evaluates `runs` against `qrels` with `measures` (the custom field's words: none, trec_eval's defaults). */
  async evaluate(qrels: string, runs: readonly string[], measures: readonly string[]): Promise<PageAnswer> {
    const page = this.page!;
    this.pageErrors.length = 0;
    // The measures first: with no job yet (or the last one's files), set while no new file is chosen.
    await page.selectOption('select[name="preset"]', measures.length ? "custom" : "default");
    await page.fill('input[name="measures"]', measures.join(" "));
    // Left now: the field's change comes when it loses focus, which a later click would otherwise
    // cause, starting a new job (and clearing the downloads) under the click.
    await page.locator('input[name="measures"]').blur();
    await this.settled();
    // The qrels: a new job with the last set's runs still chosen; waited for, so that what follows is
    // this set's job alone.
    await page.setInputFiles('input[name="qrels"]', qrels);
    await this.settled();
    await page.evaluate(() => {
      document.body.dataset.state = "running";
    });
    await page.setInputFiles('input[name="run"]', [...runs]);
    const state = await this.settled();
    // With two runs or more the comparison follows "done".
    if (state === "done" && runs.length >= 2)
      await page.waitForFunction(() => ["done", "error"].includes(document.body.dataset.compare ?? ""), undefined, {
        timeout: 60_000,
      });
    const error = ((await page.textContent("#error")) ?? "").trim();
    const read = await page.$$eval("#results td[data-measure]", (tds) =>
      tds.map((td) => {
        const d = (td as HTMLElement).dataset;
        return { measure: d.measure!, run: d.run!, text: td.firstChild?.textContent ?? "", value: d.value };
      }),
    );
    const cells: PageAnswer["cells"] = {};
    const shown: PageAnswer["shown"] = {};
    for (const c of read) {
      (cells[c.run] ??= {})[c.measure] = c.value === undefined || c.value === "" ? null : Number(c.value);
      (shown[c.run] ??= {})[c.measure] = c.text.trim();
    }
    const downloads = { trec: null as string | null, json: null as string | null, csv: null as string | null };
    if (state === "done")
      for (const format of ["trec", "json", "csv"] as const) {
        const button = page.locator(`#downloads button[data-format="${format}"]`);
        if (await button.isDisabled()) continue;
        const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
        downloads[format] = readFileSync((await download.path())!, "utf8");
      }
    const comparison = await page.$$eval("#comparison tr", (trs) =>
      trs.map((tr) => [...tr.querySelectorAll("th, td")].map((c) => (c.textContent ?? "").trim())),
    );
    return { state, error, cells, shown, downloads, comparison, pageErrors: [...this.pageErrors] };
  }
}
