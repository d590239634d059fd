// node scripts/report-screenshot.mjs [OUT.png]: the README's picture of an HTML report (rankeval
// --report) of the bundled example (examples/qrels.txt and its two runs), opened from disk in Debian's
// chromium with the drill-down of the query that lost most, the pointer on a document. Run `npm run build` first.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchChromium } from "./page.mjs";

const root = new URL("..", import.meta.url).pathname;
const out = process.argv[2] ?? join(root, "docs/report.png");
const dir = mkdtempSync(join(tmpdir(), "rankeval-report-screenshot-"));
const report = join(dir, "report.html");
// Run from examples/, so that the runs are named as a user would name them.
execFileSync(
  process.execPath,
  [
    join(root, "dist/node/bin.js"),
    "--report",
    report,
    "-m",
    "ndcg_cut.10",
    "-m",
    "map",
    "-m",
    "P.10",
    "qrels.txt",
    "bm25.run",
    "rerank.run",
  ],
  { cwd: join(root, "examples"), stdio: "inherit" },
);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(`file://${report}`);
  await page.waitForFunction(() => document.body.dataset.state === "done");
  await page.selectOption("#chart-measure", { label: "ndcg_cut_10" });
  // The query that lost most, opened from the list under the difference plot.
  await page.click("#changes table.changes.lost button.qid-link");
  await page.waitForSelector(".drilldown");
  // The per-query table is left out of the picture (the charts show the same values), and so is the
  // ideal ranking beside the runs'.
  await page.locator("#perquery-section").evaluate((e) => e.remove());
  await page.locator(".dd-ideal").evaluate((e) => e.remove());
  // The pointer on the new run's first document: it is lit where the baseline ranks it too.
  await page.hover('.dd-ranking[data-run="rerank.run"] tbody tr[data-rank="1"]');
  await page.screenshot({ path: out, fullPage: true });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}
