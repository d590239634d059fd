// compare() in a page: dist/index.js imported as an ES module in Debian's chromium (no bundler), the
// runs evaluated and compared there, every test and report byte for byte as in Node.
import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium } from "../scripts/page.mjs";
import { compare, evaluate, formatComparison, type CompareOptions } from "../src/index.js";

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI)
  console.warn(`test/compare-browser.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium)`);
const root = fileURLToPath(new URL("..", import.meta.url));

/** Seeded rows of three runs over the same 60 queries: one signal, each run's own noise. */
function rows(run: number) {
  let s = 17 + run * 101;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  let t = 5;
  const shared = () => (t = (Math.imul(t, 22695477) + 1) >>> 0) / 2 ** 32;
  const qid: number[] = [];
  const score: number[] = [];
  const rel: number[] = [];
  for (let q = 0; q < 60; q++) {
    for (let d = 0; d < 20; d++) {
      const label = Math.floor(shared() * 3);
      qid.push(q);
      rel.push(label);
      score.push(Math.round((label * 0.4 + next() * (1 + run * 0.3)) * 100) / 100);
    }
  }
  return { qid, score, rel };
}

describe.skipIf(!haveChromium && !process.env.CI)("compare() in a page", () => {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let base = "";

  beforeAll(async () => {
    if (!haveChromium)
      throw new Error(`${CHROMIUM} is missing: the browser tests need Debian's chromium (apt-get install chromium)`);
    server = createServer((req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
      if (path === "/")
        return void res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>compare</title>");
      const full = join(root, path);
      if (!path.startsWith("/dist/") || !existsSync(full) || !statSync(full).isFile())
        return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": "text/javascript" });
      createReadStream(full).pipe(res);
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("every test, every report: the same bytes as in Node", async () => {
    const measures = ["ndcg@10", "map", "precision@5"];
    const options: CompareOptions = {
      tests: ["t", "wilcoxon", "sign", "randomization", "bootstrap", "tukey"],
      iterations: 2000,
      pairs: "all",
    };
    const formats = ["table", "markdown", "latex", "csv", "json"] as const;
    const inputs = [0, 1, 2].map(rows);
    const page = await browser!.newPage();
    try {
      await page.goto(base);
      const got = (await page.evaluate(`import("/dist/index.js").then((lib) => {
        const inputs = ${JSON.stringify(inputs)};
        const runs = inputs.map((r, i) => ({ name: "run" + i, result: lib.evaluate(r, ${JSON.stringify(measures)}) }));
        const c = lib.compare(runs, ${JSON.stringify(options)});
        return ${JSON.stringify(formats)}.map((f) => lib.formatComparison(c, f));
      })`)) as string[];
      const runs = inputs.map((r, i) => ({ name: `run${i}`, result: evaluate(r, measures) }));
      const c = compare(runs, options);
      formats.forEach((f, i) => expect(got[i], f).toBe(formatComparison(c, f)));
      expect(c.comparisons).toHaveLength(9);
    } finally {
      await page.close();
    }
  }, 60_000);
});
