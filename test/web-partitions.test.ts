// The page's evaluation across partition workers (web/partitions.ts) in Debian's chromium: the same
// bytes as the page's one worker (?workers=1) with two and three, the same error for a bad line, and
// the partition workers' judgments kept for new settings. ?partition-bytes=0 sends files of any size
// their way (as RANKEVAL_THREAD_MIN_BYTES does the command line's); body[data-workers] says who did.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, pageInChromium } from "../scripts/page.mjs";

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI)
  console.warn(`test/web-partitions.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

/** A deterministic generator of numbers in [0, 1) (a 32-bit LCG), so that every run reads the same files. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Judgments of QUERIES queries (some judged nothing relevant, some not at all) and runs over them:
 * tied scores, unjudged documents, queries the judgments lack, judged queries the run lacks. Queries
 * come in an order of their own (not sorted), each query's lines together.
 */
const QUERIES = 3000;
function files() {
  const r = random(7);
  const qid = (q: number) => `q${(q * 7919) % 10007}`;
  let qrels = "";
  for (let q = 0; q < QUERIES; q++) {
    if (q % 53 === 5) continue; // not judged
    const n = 1 + Math.floor(r() * 25);
    for (let d = 0; d < n; d++) {
      const label = q % 41 === 3 ? 0 : Math.floor(r() * 4) - (r() < 0.1 ? 1 : 0);
      qrels += `${qid(q)} 0 d${Math.floor(r() * 60)}-${d} ${label}\n`;
    }
  }
  const run = (tag: string, skip: number, seed: number) => {
    const g = random(seed);
    let text = "";
    for (let q = 0; q < QUERIES; q++) {
      if (q % skip === 1) continue; // judged, not in this run
      const n = 1 + Math.floor(g() * 40);
      for (let d = 0; d < n; d++) {
        // Scores from few values: ties, broken by document id as trec_eval does.
        const score = (Math.floor(g() * 12) / 4).toFixed(2);
        text += `${qid(q)} Q0 d${Math.floor(g() * 60)}-${d} ${d + 1} ${score} ${tag}\n`;
      }
    }
    return text;
  };
  return { qrels, a: run("A", 97, 11), b: run("B", 31, 12) };
}

describe.skipIf(!haveChromium && !process.env.CI)("the page across partition workers, in chromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-web-partitions-"));
  const file = (name: string, text: string | Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const made = files();
  const qrels = file("qrels.txt", made.qrels);
  const runA = file("a.run", made.a);
  const runB = file("b.run", made.b);
  // A bad line deep in the run: after many chunks' worth of good lines, in some worker's bucket.
  const lines = made.a.split("\n");
  lines[Math.floor(lines.length * 0.7)] = "q1 Q0 dX 1 0.9x A";
  const bad = file("bad.run", lines.join("\n"));

  let chromium: { browser: Browser; url: string; close(): Promise<void> } | undefined;

  beforeAll(async () => {
    chromium = await pageInChromium(join(dir, "site"));
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  interface Shown {
    state: string;
    workers: string;
    error: string;
    warnings: string[];
    /** The table's cells: run, measure, text, value. */
    cells: string[][];
    perQuery: string[];
    downloads: Record<string, string>;
  }

  const finished = (page: Page) =>
    page.waitForFunction(() => ["done", "error"].includes(document.body.dataset.state ?? ""), undefined, {
      timeout: 60_000,
    });

  async function shown(page: Page): Promise<Shown> {
    const state = (await page.evaluate(() => document.body.dataset.state)) ?? "";
    const downloads: Record<string, string> = {};
    if (state === "done")
      for (const format of ["trec", "json", "csv"]) {
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          page.click(`#downloads button[data-format="${format}"]`),
        ]);
        downloads[format] = readFileSync((await download.path())!, "utf8");
      }
    return {
      state,
      workers: (await page.evaluate(() => document.body.dataset.workers)) ?? "",
      error: (await page.textContent("#error")) ?? "",
      warnings: await page.$$eval("#warnings p", (ps) => ps.map((p) => p.textContent ?? "")),
      cells: await page.$$eval("#results td[data-measure]", (tds) =>
        tds.map((td) => {
          const d = (td as HTMLElement).dataset;
          return [d.run!, d.measure!, td.firstChild?.textContent ?? "", d.value ?? ""];
        }),
      ),
      perQuery: await page.$$eval("#perquery td", (tds) => tds.map((td) => td.textContent ?? "")),
      downloads,
    };
  }

  /**
   * The page with ?workers=N (and any size to the partition workers): the qrels set, then (once read)
   * the runs, as a user picks them; `after` may change settings. What it shows.
   */
  async function open(
    workers: number,
    runs: string[],
    after?: (page: Page) => Promise<void>,
    query = "",
  ): Promise<Shown> {
    const page = await chromium!.browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(`${chromium!.url}?workers=${workers}&partition-bytes=0${query}`);
      await page.setInputFiles('input[name="qrels"]', [qrels]);
      await page.waitForFunction(() => document.body.dataset.judgments === "read", undefined, { timeout: 60_000 });
      await page.setInputFiles('input[name="run"]', runs);
      await finished(page);
      await after?.(page);
      const out = await shown(page);
      expect(errors).toEqual([]);
      return out;
    } finally {
      await page.close();
    }
  }

  it("shows and downloads the same bytes with two and three workers as with one, runs and warnings alike", async () => {
    const one = await open(1, [runA, runB]);
    expect(one.state).toBe("done");
    expect(one.workers).toBe("1");
    // Files that say something: warnings of queries not in a run, and values to compare.
    expect(one.warnings.join("\n")).toMatch(/b\.run: \d+ judged quer/);
    expect(one.cells.length).toBeGreaterThan(40);
    expect(one.downloads.trec).toMatch(/==> a\.run <==[\s\S]*==> b\.run <==/);
    for (const n of [2, 3]) {
      const several = await open(n, [runA, runB]);
      expect(several.workers).toBe(String(n));
      expect(several).toEqual({ ...one, workers: String(n) });
    }
  }, 180_000);

  it("says the error of a bad line deep in a run as one worker does", async () => {
    const one = await open(1, [bad]);
    expect(one.state).toBe("error");
    expect(one.error).toMatch(/^bad\.run:\d+:\d+: score "0\.9x" is not a number$/);
    const two = await open(2, [bad]);
    expect(two).toEqual(one);
  }, 120_000);

  it("says the error of a bad line deep in the qrels, read as soon as chosen, as one worker does", async () => {
    const judgments = made.qrels.split("\n");
    judgments[Math.floor(judgments.length * 0.6)] = "q1 0 dX high";
    const badQrels = file("bad.qrels", judgments.join("\n"));
    const error = async (workers: number) => {
      const page = await chromium!.browser.newPage();
      try {
        await page.goto(`${chromium!.url}?workers=${workers}&partition-bytes=0`);
        await page.setInputFiles('input[name="qrels"]', [badQrels]);
        await finished(page);
        return [await page.evaluate(() => document.body.dataset.state), await page.textContent("#error")];
      } finally {
        await page.close();
      }
    };
    const one = await error(1);
    expect(one).toEqual(["error", expect.stringMatching(/^bad\.qrels:\d+:\d+: .*"high"/)]);
    expect(await error(2)).toEqual(one);
  }, 120_000);

  it("evaluates new settings across the workers, which keep the judgments: the qrels are not read again", async () => {
    const measures = async (page: Page) => {
      // Marked: a file read again gets a new progress line.
      await page.$$eval("#progress li", (lis) => lis.forEach((li) => ((li as HTMLElement).dataset.mark = "first")));
      // Set without the focus: a click elsewhere would change them again (the field's change on blur).
      await page.$eval('input[name="measures"]', (input) => {
        (input as HTMLInputElement).value = "P.5,10 ndcg_cut.10 map";
        input.dispatchEvent(new Event("change", { bubbles: true }));
      });
      await finished(page);
      const marks = await page.$$eval("#progress li", (lis) =>
        lis.map((li) => `${(li as HTMLElement).dataset.file} ${(li as HTMLElement).dataset.mark ?? "new"}`),
      );
      expect(marks).toEqual(["qrels.txt first", "a.run new"]);
    };
    // The partition workers read the run again (the page's one worker too, keeping no rows).
    const one = await open(1, [runA], measures, "&keep-rows=0");
    const two = await open(2, [runA], measures);
    expect(one.cells.map((c) => c[1])).toEqual(["map", "P_5", "P_10", "ndcg_cut_10"]);
    expect(two).toEqual({ ...one, workers: "2" });
  }, 120_000);

  it("opens a drill-down of runs the partition workers evaluated (judgments read for it), as one's", async () => {
    const drilled = async (workers: number) => {
      let text = "";
      await open(workers, [runA, runB], async (page) => {
        const qid = await page.$eval("#perquery td[data-qid]", (td) => (td as HTMLElement).dataset.qid!);
        await page.click(`#perquery td[data-qid="${qid}"][data-measure="map"]`);
        await page.waitForFunction(
          (q) =>
            document.body.dataset.drilldown === "done" &&
            document.querySelector<HTMLElement>(".drilldown")?.dataset.qid === q,
          qid,
          { timeout: 30_000 },
        );
        text = await page.$eval(".drilldown", (e) => e.textContent ?? "");
      });
      return text;
    };
    const one = await drilled(1);
    expect(one).toMatch(/a\.run[\s\S]*b\.run/);
    expect(await drilled(2)).toBe(one);
  }, 120_000);

  it("leaves a gzipped run to the one worker", async () => {
    const gz = file("a.run.gz", gzipSync(readFileSync(runA)));
    const two = await open(2, [gz]);
    expect(two.workers).toBe("1");
    const one = await open(1, [runA]);
    expect(two.downloads.trec).toBe(one.downloads.trec.replaceAll("a.run", "a.run.gz"));
  }, 120_000);
});
