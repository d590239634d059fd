// Drill-downs and the HTML report in a real browser (Debian's chromium through playwright-core, as
// test/web.test.ts): the page's drill-down opened from the per-query table, from the difference plot
// and from the lists of queries that lost and gained most, with more ranks on demand, against the
// command line's --explain; a run too large to keep read again for it; the page's report download and
// the command line's --report opened from disk, their tables and drill-downs against the command line;
// the precision-recall figure of the page, of its report and of --report, against -m iprec_at_recall.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium, servePage } from "../scripts/page.mjs";
import type { Explanation } from "../src/explain/explain.js";
import { printValue } from "../src/app/value-print.js";
import { parseArgs } from "../src/node/args.js";
import { evaluateTrecRuns, main } from "../src/node/cli.js";

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI)
  console.warn(`test/web-explain.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

const examples = new URL("../examples/", import.meta.url).pathname;
const QRELS = join(examples, "qrels.txt");
const BM25 = join(examples, "bm25.run");
const RERANK = join(examples, "rerank.run");

async function cli(...argv: string[]): Promise<{ status: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const status = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  return { status, out, err };
}

/** The command line's drill-down of a query, as JSON. */
async function explain(qid: string, ...argv: string[]): Promise<Explanation> {
  const r = await cli("--explain", qid, "--format", "json", ...argv);
  expect(r.status, r.err).toBe(0);
  return JSON.parse(r.out) as Explanation;
}

/** trec_eval -q's lines: measure -> qid -> value as printed. */
function perQuery(text: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const line of text.trim().split("\n")) {
    const [name, qid, value] = line.split("\t");
    if (!out.has(name.trim())) out.set(name.trim(), new Map());
    out.get(name.trim())!.set(qid, value.trim());
  }
  return out;
}

interface RowRead {
  rank: number;
  docid: string;
  label: string;
  running: string;
}

/** A drill-down's rankings as drawn: run -> its rows (rank, document, label, running value as printed). */
async function rankingsShown(page: Page): Promise<Record<string, RowRead[]>> {
  return page.$$eval(".drilldown table.dd-ranking", (tables) =>
    Object.fromEntries(
      tables.map((t) => [
        (t as HTMLElement).dataset.run!,
        [...t.querySelectorAll("tbody tr")].map((tr) => {
          const d = (tr as HTMLElement).dataset;
          return {
            rank: Number(d.rank),
            docid: d.docid!,
            label: d.label!,
            running: tr.querySelector("td.running")?.textContent ?? "",
          };
        }),
      ]),
    ),
  );
}

/** What the command line's drill-down says the rows of `run` are, as the page draws them, for `key`. */
function rowsWanted(x: Explanation, run: number, key: string, depth: number): RowRead[] {
  const m = x.measures.find((e) => e.key === key)!;
  const rows = run < 0 ? x.ideal.rows : x.runs[run].rankings[m.ranking].rows;
  return rows.slice(0, depth).map((r) => ({
    rank: r.rank,
    docid: r.docid,
    label: r.label === null ? "" : String(r.label),
    running: r.running[key] === null ? "" : printValue(r.running[key]!, m.print),
  }));
}

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

/** Types -m names into the page, then leaves the field: its change (a click elsewhere would make it later). */
async function setMeasures(page: Page, names: string): Promise<void> {
  await page.fill('input[name="measures"]', names);
  await page.$eval('input[name="measures"]', (e) => (e as HTMLInputElement).blur());
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

describe.skipIf(!haveChromium && !process.env.CI)("drill-downs and reports in chromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-web-explain-"));
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

  /**
   * The page with the examples read (trec_eval's default measures, or the -m names `measures`), `keepRows`
   * as its ?keep-rows=, `query` more parameters of its address.
   */
  async function pageWithExamples(
    keepRows?: number,
    query = "",
    measures?: string,
  ): Promise<{ page: Page; errors: string[] }> {
    const page = await browser!.newPage({ viewport: { width: 1300, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const params = [...(keepRows === undefined ? [] : [`keep-rows=${keepRows}`]), ...(query ? [query] : [])];
    await page.goto(params.length ? `${site!.url}?${params.join("&")}` : site!.url);
    if (measures !== undefined) await setMeasures(page, measures);
    await page.setInputFiles('input[name="qrels"]', [QRELS]);
    await page.setInputFiles('input[name="run"]', [BM25, RERANK]);
    await page.waitForFunction(() => document.body.dataset.state === "done", undefined, { timeout: 30_000 });
    return { page, errors };
  }

  /** Waits for the drill-down of `qid` to be drawn. */
  const drawn = (page: Page, qid: string) =>
    page.waitForFunction(
      (q) =>
        document.body.dataset.drilldown === "done" &&
        document.querySelector<HTMLElement>(".drilldown")?.dataset.qid === q,
      qid,
      { timeout: 30_000 },
    );

  it("opens a query from the per-query table: ranks, documents, labels and running values as --explain gives them", async () => {
    for (const keepRows of [undefined, 0]) {
      // keep-rows=0: the runs are not kept, and are read again for the drill-down.
      const { page, errors } = await pageWithExamples(keepRows);
      try {
        await page.click('#perquery td[data-qid="q7"][data-measure="map"]');
        await drawn(page, "q7");
        expect(await page.$eval(".drilldown", (e) => (e as HTMLElement).dataset.measure)).toBe("map");
        const x = await explain("q7", "-m", "official", QRELS, BM25, RERANK);
        const shown = await rankingsShown(page);
        // Shown to 20 ranks: map has no cutoff.
        expect(shown["bm25.run"]).toEqual(rowsWanted(x, 0, "map", 20));
        expect(shown["rerank.run"]).toEqual(rowsWanted(x, 1, "map", 20));
        expect(shown.ideal).toEqual(rowsWanted(x, -1, "map", 20));
        // The values, as the command line's -q prints them.
        const values = await page.$$eval(".drilldown table.dd-values td[data-run]", (tds) =>
          tds.map((td) => [(td as HTMLElement).dataset.measure, (td as HTMLElement).dataset.run, td.textContent]),
        );
        const q = perQuery((await cli("-q", QRELS, RERANK)).out);
        for (const [m, run, text] of values) if (run === "rerank.run") expect(text).toBe(q.get(m!)!.get("q7"));
        // More ranks: the whole ranking (30), the running value at the last rank the value.
        await page.click(".drilldown button.dd-more");
        await page.waitForFunction(
          () => document.querySelectorAll('.drilldown table.dd-ranking[data-run="bm25.run"] tbody tr').length === 30,
        );
        const all = await rankingsShown(page);
        expect(all["bm25.run"]).toEqual(rowsWanted(x, 0, "map", 30));
        expect(all["bm25.run"][29].running).toBe(
          perQuery((await cli("-q", QRELS, BM25)).out)
            .get("map")!
            .get("q7"),
        );
        // Another measure's running values.
        await page.selectOption(".drilldown select[name=dd-measure]", "P_5");
        expect((await rankingsShown(page))["rerank.run"].slice(0, 20)).toEqual(rowsWanted(x, 1, "P_5", 20));
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    }
  }, 120_000);

  it("opens the query under a point of the difference plot, and those of the lists of losses and gains", async () => {
    const { page, errors } = await pageWithExamples();
    try {
      // The plot's first column: the query rerank improved most on map.
      const q1 = perQuery((await cli("-q", QRELS, BM25)).out).get("map")!;
      const q2 = perQuery((await cli("-q", QRELS, RERANK)).out).get("map")!;
      const d = [...q1.keys()].filter((q) => q !== "all").map((q) => ({ q, d: Number(q2.get(q)) - Number(q1.get(q)) }));
      const best = [...d].sort((a, b) => b.d - a.d)[0].q;
      const worst = [...d].sort((a, b) => a.d - b.d)[0].q;
      await page.selectOption("#chart-measure", "map");
      const svg = (await page.$("#difference svg"))!;
      await svg.scrollIntoViewIfNeeded();
      const box = (await svg.boundingBox())!;
      // The plot spans x = 44 to 472 of a 480-wide view box: the first of 20 queries is its first twentieth.
      await page.mouse.click(box.x + ((44 + (428 * 0.5) / 20) / 480) * box.width, box.y + box.height / 2);
      await drawn(page, best);
      // The lists: the query that lost most comes first in its list.
      expect(await page.$eval("#changes table.changes.lost tbody tr", (tr) => (tr as HTMLElement).dataset.qid)).toBe(
        worst,
      );
      expect(await page.$eval("#changes table.changes.gained tbody tr", (tr) => (tr as HTMLElement).dataset.qid)).toBe(
        best,
      );
      await page.click(`#changes table.changes.lost button[data-qid="${worst}"]`);
      await drawn(page, worst);
      const x = await explain(worst, "-m", "official", QRELS, BM25, RERANK);
      expect((await rankingsShown(page))["bm25.run"]).toEqual(rowsWanted(x, 0, "map", 20));
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  /** Opens a report from disk; its requests, all of which must be of the file itself. */
  async function openReport(path: string): Promise<{ page: Page; requests: string[]; errors: string[] }> {
    const page = await browser!.newPage({ viewport: { width: 1300, height: 900 } });
    const requests: string[] = [];
    const errors: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`file://${path}`);
    await page.waitForFunction(
      () => document.body.dataset.state === "done" || document.body.dataset.state === "error",
      undefined,
      { timeout: 30_000 },
    );
    expect(await page.evaluate(() => document.body.dataset.state)).toBe("done");
    return { page, requests, errors };
  }

  it("opens the command line's report from disk, offline: its tables as the command line prints them, its drill-downs as --explain's", async () => {
    const out = join(dir, "report.html");
    const r = await cli("--report", out, "-m", "ndcg_cut.10", "-m", "map", "-m", "P.10", QRELS, BM25, RERANK);
    expect(r.status, r.err).toBe(0);
    const { page, requests, errors } = await openReport(out);
    try {
      expect(requests).toEqual([`file://${out}`]);
      // The aggregate table: trec_eval's summary lines of each run.
      const cells = await page.$$eval("#results td[data-measure]", (tds) =>
        tds.map((td) => [
          (td as HTMLElement).dataset.measure,
          (td as HTMLElement).dataset.run,
          td.firstChild?.textContent ?? "",
          (td as HTMLElement).dataset.significant ?? "",
        ]),
      );
      for (const run of [BM25, RERANK]) {
        const q = perQuery((await cli("-q", "-m", "ndcg_cut.10", "-m", "map", "-m", "P.10", QRELS, run)).out);
        const mine = cells.filter((c) => c[1] === run);
        expect(mine.length).toBe(3); // map, P_10, ndcg_cut_10: trec_eval prints no runid, num_q with -m
        for (const [m, , text] of mine) expect(text).toBe(q.get(m!)!.get("all"));
        // Every per-query cell as -q prints it.
        const pq = await page.$$eval(`#perquery td[data-run="${run}"]`, (tds) =>
          tds.map((td) => [(td as HTMLElement).dataset.measure, (td as HTMLElement).dataset.qid, td.textContent]),
        );
        expect(pq.length).toBe(60);
        for (const [m, qid, text] of pq) expect(text).toBe(q.get(m!)!.get(qid!));
      }
      expect(cells.find((c) => c[0] === "ndcg_cut_10" && c[1] === RERANK)![3]).toBe("higher");
      // Each mean's 95% t interval after it, as the command line's JSON gives it.
      const shownIntervals = await page.$$eval("#results td[data-measure] .interval", (spans) =>
        spans.map((s) => {
          const td = s.parentElement as HTMLElement;
          const d = (s as HTMLElement).dataset;
          return [td.dataset.run, td.dataset.measure, [Number(d.lo), Number(d.hi)], s.textContent];
        }),
      );
      const json = JSON.parse(
        (await cli("--format", "json", "-m", "ndcg_cut.10", "-m", "map", "-m", "P.10", QRELS, BM25, RERANK)).out,
      ) as { runs: { run: string; interval: Record<string, [number, number]> }[] };
      const wanted = json.runs.flatMap((r) =>
        Object.entries(r.interval).map(([m, ci]) => [r.run, m, ci, ` (${ci[0].toFixed(4)}, ${ci[1].toFixed(4)})`]),
      );
      expect(shownIntervals.length).toBe(6);
      expect(new Set(shownIntervals.map((x) => JSON.stringify(x)))).toEqual(
        new Set(wanted.map((x) => JSON.stringify(x))),
      );
      // A drill-down of the report: as --explain gives it.
      const qid = await page.$eval("#explained button.qid-link", (b) => (b as HTMLElement).dataset.qid!);
      await page.click(`#explained button[data-qid="${qid}"]`);
      await page.waitForSelector(`.drilldown[data-qid="${qid}"]`);
      const x = await explain(qid, "-m", "ndcg_cut.10", "-m", "map", "-m", "P.10", QRELS, BM25, RERANK);
      const shown = await rankingsShown(page);
      expect(shown[BM25]).toEqual(rowsWanted(x, 0, "map", 20));
      expect(shown[RERANK]).toEqual(rowsWanted(x, 1, "map", 20));
      await page.selectOption(".drilldown select[name=dd-measure]", "ndcg_cut_10");
      const ndcg = await rankingsShown(page);
      expect(ndcg[RERANK]).toEqual(rowsWanted(x, 1, "ndcg_cut_10", 20));
      // At rank 10, the cutoff, the value -q prints.
      expect(ndcg[RERANK][9].running).toBe(
        perQuery((await cli("-q", "-m", "ndcg_cut.10", QRELS, RERANK)).out)
          .get("ndcg_cut_10")!
          .get(qid),
      );
      // The per-query table sorts by a column and filters by qid.
      await page.click('#perquery th[data-key^="map"]');
      const sorted = await page.$$eval(`#perquery td[data-measure="map"][data-run="${BM25}"]`, (tds) =>
        tds.map((td) => Number(td.textContent)),
      );
      expect(sorted).toEqual([...sorted].sort((a, b) => a - b));
      await page.fill("#pq-filter", "q1");
      expect(await page.$$eval("#perquery tbody tr", (trs) => trs.length)).toBe(11); // q1, q10-q19
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("downloads the page's report, which opens from disk with the page's numbers and drill-downs", async () => {
    const { page, errors } = await pageWithExamples();
    try {
      await page.waitForFunction(() => document.body.dataset.compare === "done", undefined, { timeout: 30_000 });
      const pageCells = await page.$$eval("#results td[data-measure]", (tds) =>
        tds.map((td) => [
          (td as HTMLElement).dataset.measure,
          (td as HTMLElement).dataset.run,
          td.firstChild?.textContent ?? "",
        ]),
      );
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.click('#downloads button[data-format="report"]'),
      ]);
      const path = join(dir, "page-report.html");
      await download.saveAs(path);
      expect(await page.evaluate(() => document.body.dataset.report)).toBe("done");
      const opened = await openReport(path);
      try {
        const cells = await opened.page.$$eval("#results td[data-measure]", (tds) =>
          tds.map((td) => [
            (td as HTMLElement).dataset.measure,
            (td as HTMLElement).dataset.run,
            td.firstChild?.textContent ?? "",
          ]),
        );
        expect(cells).toEqual(pageCells);
        // The intervals too, the page's as the report's.
        const intervalsOf = (p: typeof page) =>
          p.$$eval("#results td[data-measure]", (tds) =>
            tds.map((td) => td.querySelector(".interval")?.textContent ?? ""),
          );
        const pageIntervals = await intervalsOf(page);
        expect(pageIntervals.filter((t) => /^ \(\d\.\d{4}, \d\.\d{4}\)$/.test(t)).length).toBeGreaterThan(10);
        expect(await intervalsOf(opened.page)).toEqual(pageIntervals);
        expect(await opened.page.$$eval("#explained button.qid-link", (bs) => bs.length)).toBe(20);
        const qid = await opened.page.$eval("#explained button.qid-link", (b) => (b as HTMLElement).dataset.qid!);
        await opened.page.click(`#explained button[data-qid="${qid}"]`);
        await opened.page.waitForSelector(`.drilldown[data-qid="${qid}"]`);
        const x = await explain(qid, "-m", "official", QRELS, BM25, RERANK);
        expect((await rankingsShown(opened.page))["rerank.run"]).toEqual(rowsWanted(x, 1, "map", 20));
        expect(opened.requests).toEqual([`file://${path}`]);
        expect(opened.errors).toEqual([]);
      } finally {
        await opened.page.close();
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  const RUNS: [name: string, path: string][] = [
    ["bm25.run", BM25],
    ["rerank.run", RERANK],
  ];

  it("draws the page's runs' precision-recall curves, -m map or not, as the table's iprec_at_recall lines; its report too", async () => {
    const { page, errors } = await pageWithExamples(undefined, "", "map");
    try {
      // The table is map's alone: the curve adds no row.
      expect(await page.$$eval("#results tbody tr", (trs) => trs.map((tr) => tr.cells[0].textContent))).toEqual([
        "map",
      ]);
      await expectCurves(page, RUNS);
      // The report the page downloads draws the same figure.
      await page.waitForFunction(() => document.body.dataset.compare === "done", undefined, { timeout: 30_000 });
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.click('#downloads button[data-format="report"]'),
      ]);
      const path = join(dir, "curves-report.html");
      await download.saveAs(path);
      const opened = await openReport(path);
      try {
        await expectCurves(opened.page, RUNS);
        expect(opened.errors).toEqual([]);
      } finally {
        await opened.page.close();
      }
      // Asked for: the curve is the table's iprec_at_recall lines, as the page computes and prints them (a
      // cell's number is its first text node: what is shown beside it follows).
      await setMeasures(page, "iprec_at_recall map");
      await page.waitForFunction(() => document.body.dataset.state === "done", undefined, { timeout: 30_000 });
      const cells = await page.$$eval('#results td[data-run="rerank.run"]', (tds) =>
        tds.map((td) => [(td as HTMLElement).dataset.measure!, td.firstChild?.textContent ?? ""] as const),
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

  it("draws the curves of runs the page's partition workers evaluate (large TREC text)", async () => {
    // Files of any size to two partition workers, which evaluate the curve's measures too.
    const { page, errors } = await pageWithExamples(undefined, "workers=2&partition-bytes=0", "map");
    try {
      expect(await page.evaluate(() => document.body.dataset.workers)).toBe("2");
      await expectCurves(page, RUNS);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it("draws the command line's --report's precision-recall curves, -m map only", async () => {
    const out = join(dir, "curves.html");
    const r = await cli("--report", out, "-m", "map", QRELS, BM25, RERANK);
    expect(r.status, r.err).toBe(0);
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
