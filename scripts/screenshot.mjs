// node scripts/screenshot.mjs [OUT.png]: the README's picture of the page, on the bundled example
// (examples/qrels.txt and its two runs), in Debian's chromium. Run `npm run build` first.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchChromium, servePage } from "./page.mjs";

const root = new URL("..", import.meta.url).pathname;
const out = process.argv[2] ?? join(root, "docs/page.png");
const dir = mkdtempSync(join(tmpdir(), "rankeval-screenshot-"));
const site = await servePage(join(dir, "site"));
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(site.url);
  await page.selectOption('select[name="preset"]', "ltr");
  await page.setInputFiles('input[name="qrels"]', join(root, "examples/qrels.txt"));
  await page.setInputFiles('input[name="run"]', [join(root, "examples/bm25.run"), join(root, "examples/rerank.run")]);
  await page.waitForFunction(() => document.body.dataset.state === "done");
  await page.selectOption("#chart-measure", "ndcg@10");
  // The per-query table is left out of the picture: the charts show the same values.
  await page.locator("#perquery-section").evaluate((e) => e.remove());
  await page.screenshot({ path: out, fullPage: true });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await site.close();
  rmSync(dir, { recursive: true, force: true });
}
