// The page's fusion in chromium: the runs fused with a method and a norm chosen on the page, the fused run
// one more column, with the numbers the command line's `--fuse METHOD --norm NORM QRELS RUN RUN` prints
// for it; a fusion the library refuses (runs without the same queries) shown as its error.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, pageInChromium } from "../scripts/page.mjs";
import { cli } from "./_cli.js";

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI)
  console.warn(`test/web-fuse.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

describe.skipIf(!haveChromium && !process.env.CI)("the page's fusion in chromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-web-fuse-"));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const qrels = file("qrels.txt", "q1 0 d1 1\nq1 0 d3 2\nq1 0 d5 1\nq2 0 d7 1\nq2 0 d1 0\n");
  const runA = file(
    "a.run",
    "q1 Q0 d1 1 0.9 A\nq1 Q0 d2 2 0.8 A\nq1 Q0 d3 3 0.7 A\nq2 Q0 d1 1 0.5 A\nq2 Q0 d7 2 0.4 A\n",
  );
  const runB = file("b.run", "q1 Q0 d5 1 3 B\nq1 Q0 d3 2 2 B\nq1 Q0 d4 3 1 B\nq2 Q0 d7 1 9 B\nq2 Q0 d8 2 1 B\n");
  const other = file("other.run", "q1 Q0 d5 1 3 C\n");
  let session: Awaited<ReturnType<typeof pageInChromium>> | undefined;

  beforeAll(async () => {
    session = await pageInChromium(join(dir, "site"));
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The page with the fusion chosen, then the files: its cells by run and measure, and its error. */
  async function fused(method: string, norm: string, runs: string[]) {
    const page: Page = await session!.browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(session!.url);
      await page.selectOption('select[name="fuse"]', method);
      await page.selectOption('select[name="fuseNorm"]', norm);
      await page.setInputFiles('input[name="qrels"]', [qrels]);
      await page.setInputFiles('input[name="run"]', runs);
      await page.waitForFunction(() => ["done", "error"].includes(document.body.dataset.state ?? ""), undefined, {
        timeout: 30_000,
      });
      const cells = await page.$$eval("#results td[data-measure]", (tds) =>
        tds.map((td) => [
          (td as HTMLElement).dataset.run!,
          (td as HTMLElement).dataset.measure!,
          td.firstChild?.textContent ?? "",
        ]),
      );
      expect(errors).toEqual([]);
      return { cells, error: (await page.textContent("#error")) ?? "" };
    } finally {
      await page.close();
    }
  }

  /** trec_eval's summary of one run's block in the command line's output: measure -> value as printed. */
  function block(text: string, name: string): Map<string, string> {
    const part = text.split(`==> ${name} <==\n`)[1].split("\n==> ")[0];
    return new Map(
      part
        .trim()
        .split("\n")
        .map((l) => l.split("\t"))
        .map(([m, , v]) => [m.trim(), v] as [string, string]),
    );
  }

  for (const [method, norm] of [
    ["rrf", "min-max"],
    ["wsum", "zmuv"],
  ])
    it(`shows ${method} with ${norm} as one more column, as rankeval --fuse prints it`, async () => {
      const { cells, error } = await fused(method, norm, [runA, runB]);
      expect(error).toBe("");
      const runs = [...new Set(cells.map(([run]) => run))];
      expect(runs).toEqual(["a.run", "b.run", `fused(${method})`]);
      const weights = method === "wsum" ? ["--weights", "1,1"] : [];
      const r = await cli(["--fuse", method, "--norm", norm, ...weights, qrels, runA, runB]);
      expect(r.status).toBe(0);
      const want = block(r.stdout, `fused(${method})`);
      const got = new Map(cells.filter(([run]) => run === `fused(${method})`).map(([, m, v]) => [m, v]));
      expect(want.get("map")).toMatch(/^\d\.\d{4}$/);
      expect(got).toEqual(want);
    }, 90_000);

  it("shows the library's error for runs it cannot fuse", async () => {
    const { error } = await fused("rrf", "min-max", [runA, other]);
    expect(error).toContain("same queries");
  }, 60_000);
});
