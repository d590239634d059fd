// Parquet and Arrow files on the page, in chromium: read in the worker through File.slice, a row group
// or record batch at a time, the table the CLI's numbers on the same files; a bad file's error as
// the CLI says it; a dropped Parquet file of judgments sorted to the judgments by its columns.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium, servePage } from "../scripts/page.mjs";
import { main } from "../src/node/cli.js";
import { arrowTable, duckParquet, trecRows, writeArrow } from "./columnar/_data.js";

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI)
  console.warn(`test/web-columnar.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

async function cli(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return { status, out, err };
}

/** trec_eval's summary lines: printed name -> value as printed. */
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

describe.skipIf(!haveChromium && !process.env.CI)("Parquet and Arrow files on the page", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-web-columnar-"));
  const QRELS = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq1 0 d5 1\nq2 0 d1 1\nq2 0 d7 0\nq3 0 d2 1\n";
  const RUN =
    "q1 Q0 d1 1 0.9 A\nq1 Q0 d2 2 0.8 A\nq1 Q0 d4 3 0.7 A\nq1 Q0 d3 4 0.6 A\nq2 Q0 d7 1 0.5 A\nq2 Q0 d1 2 0.4 A\nq3 Q0 d2 1 3 A\n";
  const path = (name: string) => join(dir, name);
  let browser: Browser | undefined;
  let site: { url: string; close(): Promise<unknown> } | undefined;

  beforeAll(async () => {
    if (!haveChromium)
      throw new Error(`${CHROMIUM} is missing: the browser tests need Debian's chromium (apt-get install chromium)`);
    writeFileSync(path("qrels.txt"), QRELS);
    writeFileSync(path("a.run"), RUN);
    await duckParquet(trecRows(QRELS, "qrels"), path("qrels.parquet"), { kind: "qrels" });
    await duckParquet(trecRows(RUN, "run"), path("a.parquet"), { kind: "run" });
    writeArrow(arrowTable(trecRows(RUN, "run"), "run"), path("a.arrow"), "file");
    writeArrow(arrowTable(trecRows(RUN, "run"), "run"), path("a.arrows"), "stream");
    const parquet = readFileSync(path("a.parquet"));
    writeFileSync(path("cut.parquet"), parquet.subarray(0, parquet.length - 50));
    // Runs without a tag column under names of other formats: the page tells them by their bytes, the
    // CLI by --input-format.
    const untagged = arrowTable(trecRows(RUN, "run"), "run").select(["qid", "docid", "score"]);
    writeArrow(untagged, path("tagged.json"), "file");
    writeArrow(untagged, path("other.csv"), "stream");
    writeArrow(arrowTable(trecRows(QRELS, "qrels"), "qrels"), path("qrels.arrow"), "file");
    site = await servePage(join(dir, "site"));
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
  const cells = (page: Page) =>
    page.$$eval("#results td[data-measure]", (tds) =>
      tds.map((td) => [
        (td as HTMLElement).dataset.run!,
        (td as HTMLElement).dataset.measure!,
        td.firstChild?.textContent ?? "",
      ]),
    );

  it("gives the CLI's numbers for Parquet judgments and Parquet, Arrow file and Arrow stream runs", async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(site!.url);
      await page.setInputFiles('input[name="qrels"]', [path("qrels.parquet")]);
      await page.setInputFiles('input[name="run"]', [path("a.parquet"), path("a.arrow"), path("a.arrows")]);
      await waitFinished(page);
      expect(await page.textContent("#error")).toBe("");
      const want = summary((await cli(path("qrels.txt"), path("a.run"))).out);
      const got = await cells(page);
      for (const run of ["a.parquet", "a.arrow", "a.arrows"]) {
        expect(new Map(got.filter(([r]) => r === run).map(([, m, t]) => [m, t])), run).toEqual(want);
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it("tags a run without a tag column as the CLI does: its name less its extension, .json and .csv too", async () => {
    const page = await browser!.newPage();
    try {
      await page.goto(site!.url);
      await page.setInputFiles('input[name="qrels"]', [path("qrels.arrow")]);
      await page.setInputFiles('input[name="run"]', [path("tagged.json"), path("other.csv")]);
      await waitFinished(page);
      expect(await page.textContent("#error")).toBe("");
      const download = page.waitForEvent("download");
      await page.click('#downloads button[data-format="json"]');
      const json = readFileSync((await (await download).path())!, "utf8");
      const runs = [path("tagged.json"), path("other.csv")];
      const want = (await cli("--format", "json", "--input-format", "arrow", path("qrels.arrow"), ...runs)).out;
      expect(json).toBe(want.split(`${dir}/`).join(""));
      const tags = (JSON.parse(json) as { runs: { runTag: string }[] }).runs.map((r) => r.runTag);
      expect(tags).toEqual(["tagged", "other"]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it("says a bad file's error as the CLI does, and sorts a dropped Parquet file of judgments to the judgments", async () => {
    const page = await browser!.newPage();
    try {
      await page.goto(site!.url);
      await page.setInputFiles('input[name="qrels"]', [path("qrels.parquet")]);
      await page.setInputFiles('input[name="run"]', [path("cut.parquet")]);
      await waitFinished(page);
      expect(await page.evaluate(() => document.body.dataset.state)).toBe("error");
      const cliErr = (await cli(path("qrels.parquet"), path("cut.parquet"))).err;
      expect(cliErr).toContain(`${path("cut.parquet")}: not a whole Parquet file`);
      expect(await page.textContent("#error")).toContain(
        cliErr
          .replace(/^rankeval: /, "")
          .replace(path("cut.parquet"), "cut.parquet")
          .trim(),
      );

      await page.goto(site!.url);
      const files = [
        ["judged.parquet", path("qrels.parquet")],
        ["a.arrow", path("a.arrow")],
      ].map(([name, p]) => ({ name, bytes: [...readFileSync(p)] }));
      await page.evaluate((files) => {
        const dt = new DataTransfer();
        for (const f of files) dt.items.add(new File([new Uint8Array(f.bytes)], f.name));
        document
          .querySelector("#inputs .hint")!
          .dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, files);
      await page.waitForSelector('#results td[data-run="a.arrow"]');
      await waitFinished(page);
      expect(await page.$eval('input[name="qrels"]', (i) => (i as HTMLInputElement).files![0].name)).toBe(
        "judged.parquet",
      );
      expect(new Map((await cells(page)).map(([, m, t]) => [m, t]))).toEqual(
        summary((await cli(path("qrels.txt"), path("a.run"))).out),
      );
    } finally {
      await page.close();
    }
  }, 60_000);
});
