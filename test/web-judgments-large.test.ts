// The judgments' faces at a real size (issue 38; the project's first rule, "every face gives the same
// number"): seeded judgments and runs of 3,000 queries (two sets of 60,000 judgments, one of them with
// decimal labels; three runs of 100 documents a query: 900,000 lines), through the library (on the
// generator's objects), the built command line (dist/node/bin.js) and the page in Chromium, for
// --qrels-stats, --agreement, --pool, --fill and --qrels-compare: the same objects (JSON), the same text.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium } from "../scripts/page.mjs";
import { agreement, evaluateRun, fillHoles, pool, qrelsCompare, qrelsStats } from "../src/index.js";
import { replay, seedOr } from "./_seed.js";
import { stream as random } from "./faces/generate.js";
import { type IdValues, qrelsText, runText } from "./_trec-text.js";

const SEED = seedOr(20261138);
const QUERIES = 3_000;
/** Judged a query in each set; ranked a query in each run; documents d0.. a query may rank. */
const JUDGED = 20;
const RANKED = 100;
const DOCS = 300;

const root = new URL("..", import.meta.url).pathname;
const BIN = join(root, "dist/node/bin.js");
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI)
  console.warn(`test/web-judgments-large.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

/**
 * Human judgments (labels 0-3) of 20 documents a query among the first 200; a model's (quarters from 0
 * to 3, near the human label) of 15 of those and 5 others, and of 30 queries the humans did not judge
 * (left out by --fill); three runs of 100 documents among 300 (many holes, some filled), scores of
 * four decimals.
 */
function generate(seed: number) {
  const rand = random(seed);
  const pick = (n: number, of: number) => {
    const all = Array.from({ length: of }, (_, i) => i);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(rand() * (of - i));
      [all[i], all[j]] = [all[j], all[i]];
    }
    return all.slice(0, n);
  };
  const human: IdValues = {};
  const model: IdValues = {};
  const runs: IdValues[] = [{}, {}, {}];
  for (let q = 0; q < QUERIES + 30; q++) {
    const qid = `q${q}`;
    const docs = pick(JUDGED + 5, 200);
    const labels = docs.map(() => Math.floor(rand() * 4));
    if (q < QUERIES) human[qid] = Object.fromEntries(docs.slice(0, JUDGED).map((d, i) => [`d${d}`, labels[i]]));
    const near = (l: number) => Math.min(3, Math.max(0, Math.round((l + (rand() - 0.5) * 2) * 4) / 4));
    model[qid] = Object.fromEntries(docs.slice(5).map((d, i) => [`d${d}`, near(labels[i + 5])]));
    if (q >= QUERIES) continue;
    runs.forEach((run, r) => {
      // Better runs rank the judged relevant documents higher.
      run[qid] = Object.fromEntries(
        pick(RANKED, DOCS).map((d) => [
          `d${d}`,
          Math.round((rand() + (human[qid][`d${d}`] ?? 0) * 0.1 * r) * 1e4) / 1e4,
        ]),
      );
    });
  }
  return { human, model, runs };
}

describe.skipIf(!haveChromium && !process.env.CI)("the judgments' faces at 3,000 queries", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-web-judgments-large-"));
  const url = pathToFileURL(join(dir, "opened.html")).href;
  const data = generate(SEED);
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return name;
  };
  const A = write("human.qrels", qrelsText(data.human));
  const B = write("model.qrels", qrelsText(data.model));
  const RUNS = data.runs.map((r, i) => write(`run${i}.txt`, runText(r)));
  const rankeval = (...argv: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...argv], { cwd: dir, encoding: "utf8", maxBuffer: 1 << 28 });
    expect(r.status, r.stderr).toBe(0);
    return { out: r.stdout, err: r.stderr };
  };
  /** An object as the command line's JSON writes it (undefined values as null). */
  const asJson = (x: unknown) => JSON.parse(JSON.stringify(x));
  let browser: Browser | undefined;
  let page: Page | undefined;

  beforeAll(async () => {
    rankeval("--page", "opened.html");
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(url);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Does `set` (files or the action chosen), waits for the section's new result, reads it and its downloads. */
  async function step(set: () => Promise<unknown>) {
    const p = page!;
    // Neither done nor error until the job `set` starts is over.
    await p.$eval("#judgments-section", (s) => void ((s as HTMLElement).dataset.state = "stale"));
    await set();
    await p.waitForFunction(
      () => ["done", "error"].includes(document.querySelector<HTMLElement>("#judgments-section")!.dataset.state ?? ""),
      undefined,
      { timeout: 60_000 },
    );
    expect(await p.textContent("#judgments-error")).toBe("");
    const downloads: Record<string, string> = {};
    for (const button of await p.$$("#judgments-downloads button:not([hidden])")) {
      const [download] = await Promise.all([p.waitForEvent("download"), button.click()]);
      downloads[(await button.getAttribute("data-format"))!] = readFileSync((await download.path())!, "utf8");
    }
    const rows = (selector: string) =>
      p.$$eval(selector, (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? "")));
    return {
      downloads,
      coverage: await rows("#judgments-results table.coverage tr"),
      holes: await rows("#judgments-results table.holes tr"),
      compared: (await p.$$eval("pre.qrels-compare", (ps) => ps.map((x) => x.textContent ?? ""))).join(""),
    };
  }
  const files = (name: string, names: string[]) =>
    page!.setInputFiles(
      `input[name="${name}"]`,
      names.map((n) => join(dir, n)),
    );
  /** A table on stderr (coverage, holes) as its rows, its header first. */
  const stderrRows = (err: string, from: string) =>
    err
      .slice(err.indexOf(from))
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((l) => l.trim().split(/\s{2,}/));

  it("gives the same numbers and text in the library, the command line and the page", async () => {
    try {
      // --qrels-stats
      const stats = await step(() => files("judgments-qrels", [A]));
      expect(stats.downloads.text).toBe(rankeval("--qrels-stats", A).out);
      const statsJson = JSON.parse(rankeval("--qrels-stats", "--format", "json", A).out);
      expect(JSON.parse(stats.downloads.json)).toEqual(statsJson);
      expect(statsJson).toEqual(asJson(qrelsStats(data.human)));
      expect(statsJson.judged).toBe(QUERIES * JUDGED);

      // --agreement (decimal labels against whole ones)
      const agreed = await step(() => files("judgments-qrels", [A, B]));
      expect(agreed.downloads.text).toBe(rankeval("--agreement", A, B).out);
      const agreedJson = JSON.parse(rankeval("--agreement", "--format", "json", A, B).out);
      expect(JSON.parse(agreed.downloads.json)).toEqual(agreedJson);
      expect(agreedJson).toEqual(asJson(agreement([data.human, data.model], { threshold: 1 })));

      // --qrels-compare: two sets and runs given, the action follows
      const runNames = Object.fromEntries(RUNS.map((f, i) => [f, data.runs[i]]));
      const compared = await step(() => files("judgments-runs", RUNS));
      const compareText = rankeval("--qrels-compare", A, B, ...RUNS).out;
      expect(compared.compared).toBe(compareText);
      expect(compared.downloads.text).toBe(compareText);
      const compareJson = JSON.parse(rankeval("--qrels-compare", "--format", "json", A, B, ...RUNS).out);
      expect(JSON.parse(compared.downloads.json)).toEqual(compareJson);
      expect(compareJson).toEqual(asJson(qrelsCompare(data.human, data.model, runNames, ["ndcg_cut.10", "map"])));

      // --pool depth:10 of the runs
      const pooled = await step(() => page!.selectOption('select[name="action"]', "pool"));
      const poolCli = rankeval("--pool", "depth:10", ...RUNS);
      expect(pooled.downloads.text).toBe(poolCli.out);
      expect(pooled.coverage).toEqual(stderrRows(poolCli.err, "rankeval: pool"));
      const poolJson = JSON.parse(rankeval("--pool", "depth:10", "--format", "json", ...RUNS).out);
      expect(JSON.parse(pooled.downloads.json)).toEqual(poolJson);
      expect(poolJson).toEqual(asJson(pool(data.runs, { method: "depth:10" })));

      // --fill: the model's labels in the human judgments' holes; the page's evaluation under them
      await page!.selectOption('select[name="action"]', "fill");
      await files("judgments-qrels", [A]);
      const filled = await step(() => files("extra", [B]));
      const fillCli = rankeval("--fill", B, A, ...RUNS);
      expect(filled.holes).toEqual(stderrRows(fillCli.err, "rankeval: --fill:"));
      const library = fillHoles(data.human, data.model, { runs: data.runs });
      expect(filled.holes.slice(1)).toEqual(
        library.runs.map((r) => [String(r.holes), String(r.filled), String(r.remaining), RUNS[r.run]]),
      );
      expect(library.skipped).toBe(30 * JUDGED);
      expect(library.runs.every((r) => r.filled > 0 && r.remaining > 0)).toBe(true);
      await page!.waitForFunction(() => ["done", "error"].includes(document.body.dataset.state ?? ""), undefined, {
        timeout: 60_000,
      });
      const evaluation = async (format: string) => {
        const [download] = await Promise.all([
          page!.waitForEvent("download"),
          page!.click(`#downloads button[data-format="${format}"]`),
        ]);
        return readFileSync((await download.path())!, "utf8");
      };
      expect(await evaluation("trec")).toBe(fillCli.out);
      // The page's means (all their digits) under the filled judgments; the library's under fillHoles' judgments.
      const pageJson = JSON.parse(await evaluation("json")) as {
        runs: { run: string; mean: Record<string, number> }[];
      };
      expect(pageJson.runs.map((r) => r.run)).toEqual(RUNS);
      pageJson.runs.forEach((r, i) => {
        const mean = evaluateRun(library.qrels, data.runs[i], ["map", "P.10", "bpref"]).mean;
        for (const m of ["map", "P_10", "bpref"]) expect(r.mean[m], m).toBe(mean[m]);
      });
    } catch (e) {
      console.error(replay(SEED));
      throw e;
    }
  }, 180_000);
});
