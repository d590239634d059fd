// Issue 36 on the page, in Debian's chromium: files dropped take the file inputs' path (the same errors,
// the same job), runs of one name both show, named apart, and a gzip file of several members is read
// whole, as gzip and the command line read it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium, servePage } from "../scripts/page.mjs";

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI)
  console.warn(`test/web-drop.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

describe.skipIf(!haveChromium && !process.env.CI)("the page's drop zone, runs of one name, gzip members", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-web-drop-"));
  const file = (name: string, bytes: string | Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  const qrelsText = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d1 1\nq2 0 d7 0\n";
  const runText = "q1 Q0 d1 1 0.9 A\nq1 Q0 d2 2 0.8 A\nq1 Q0 d3 3 0.7 A\nq2 Q0 d7 1 0.5 A\nq2 Q0 d1 2 0.4 A\n";
  const qrels = file("good.qrels", qrelsText);
  const run = file("a.run", runText);

  let browser: Browser | undefined;
  let site: { url: string; close(): Promise<unknown> } | undefined;

  beforeAll(async () => {
    site = await servePage(join(dir, "site"));
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The page opened, `act` done on it, then what it shows once done or in error. */
  async function shown(act: (page: Page) => Promise<void>) {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(site!.url);
      await act(page);
      await page.waitForFunction(() => ["done", "error"].includes(document.body.dataset.state ?? ""), undefined, {
        timeout: 30_000,
      });
      const state = await page.evaluate(() => document.body.dataset.state);
      const error = (await page.textContent("#error")) ?? "";
      const cells = await page.$$eval("#results td[data-measure]", (tds) =>
        tds.map((td) => {
          const d = (td as HTMLElement).dataset;
          return { run: d.run!, measure: d.measure!, text: td.firstChild?.textContent ?? "" };
        }),
      );
      expect(errors).toEqual([]);
      return { state, error, cells };
    } finally {
      await page.close();
    }
  }

  /** The files set on the inputs, as a user chooses them: the qrels, then the runs. */
  const chosen = (qrelsPath: string, runs: string[]) => async (page: Page) => {
    await page.setInputFiles('input[name="qrels"]', [qrelsPath]);
    await page.setInputFiles('input[name="run"]', runs);
  };

  /** The files dropped together on the form, outside the inputs' rows, as a DataTransfer of Files. */
  const dropped = (paths: string[]) => async (page: Page) => {
    const files = paths.map((p) => ({ name: basename(p), bytes: [...readFileSync(p)] }));
    await page.evaluate((files) => {
      const dt = new DataTransfer();
      for (const f of files) dt.items.add(new File([new Uint8Array(f.bytes)], f.name));
      document
        .querySelector("#inputs .hint")!
        .dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, files);
  };

  it("shows a dropped bad qrels file's error as the inputs show it: empty, a PNG's bytes, 3 fields", async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    for (const [folder, bytes] of [
      ["empty", ""],
      ["png", png],
      ["three", "q1 d1 1\nq1 d2 0\n"],
    ] as const) {
      mkdirSync(join(dir, folder));
      const bad = file(join(folder, "qrels.txt"), bytes);
      const byInputs = await shown(chosen(bad, [run]));
      expect(byInputs.state, folder).toBe("error");
      expect(byInputs.error, folder).toMatch(/^qrels\.txt/);
      const byDrop = await shown(dropped([run, bad]));
      expect(byDrop, folder).toEqual(byInputs);
    }
    // Named as nothing, its first line no qrels line: the page has no qrels, so it is taken for them.
    const judgments = file("judgments", "q1 d1 2\nq1 d2 0\n");
    const byInputs = await shown(chosen(judgments, [run]));
    expect(byInputs.error).toMatch(/^judgments/);
    expect(await shown(dropped([judgments, run]))).toEqual(byInputs);
  }, 120_000);

  it("says so when several files dropped are each read as the qrels, and reads none", async () => {
    const other = file("other.qrels", qrelsText);
    const { state, error, cells } = await shown(dropped([qrels, other, run]));
    expect(state).toBe("error");
    expect(error).toContain("good.qrels, other.qrels: each read as a qrels file, and the page reads one");
    expect(cells).toEqual([]);
  }, 60_000);
});
