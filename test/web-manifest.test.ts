// The page's manifest download (web/manifest-files.ts, web/worker.ts): each File's SHA-256 computed in
// the browser by src/io/sha256.ts equals sha256sum's, and the manifest says what the command line's
// --manifest says on the same files, but for how it was asked for.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium, servePage } from "../scripts/page.mjs";
import type { Manifest } from "../src/app/manifest.js";
import { cli } from "./_cli.js";
import { readYaml } from "./_yaml.js";

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI)
  console.warn(`test/web-manifest.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

describe.skipIf(!haveChromium && !process.env.CI)("the page's manifest", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-web-manifest-"));
  const qrels = join(dir, "qrels.txt");
  writeFileSync(qrels, readFileSync("examples/qrels.txt"));
  const bm25 = join(dir, "bm25.run");
  writeFileSync(bm25, readFileSync("examples/bm25.run"));
  const rerankGz = join(dir, "rerank.run.gz");
  writeFileSync(rerankGz, gzipSync(readFileSync("examples/rerank.run")));
  // Over 1 MiB: several chunks of the File's stream through the hash.
  const big = join(dir, "big.run");
  const qids = [
    ...new Set(
      readFileSync(qrels, "utf8")
        .trim()
        .split("\n")
        .map((l) => l.split(/\s+/)[0]),
    ),
  ];
  const lines: string[] = [];
  for (const q of qids) for (let i = 1; i <= 3000; i++) lines.push(`${q} Q0 doc-${i} ${i} ${10000 - i} big`);
  writeFileSync(big, `${lines.join("\n")}\n`);
  const files = [qrels, bm25, rerankGz, big];

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

  it("has sha256sum's SHA-256s and the command line's manifest but for the command", async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(site!.url);
      await page.setInputFiles('input[name="qrels"]', [qrels]);
      await page.setInputFiles('input[name="run"]', [bm25, rerankGz, big]);
      await page.waitForFunction(() => document.body.dataset.state === "done", undefined, { timeout: 30_000 });
      await page.waitForSelector('#downloads button[data-format="manifest"]:not([disabled])', { timeout: 30_000 });
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.click('#downloads button[data-format="manifest"]'),
      ]);
      expect(download.suggestedFilename()).toBe("rankeval-manifest.yaml");
      const fromPage = readYaml(readFileSync((await download.path())!, "utf8")) as Manifest;
      const sums = execFileSync("sha256sum", ["--", ...files], { encoding: "utf8" })
        .trim()
        .split("\n")
        .map((l) => l.slice(0, 64));
      expect(fromPage.data.inputs.map((i) => i.sha256)).toEqual(sums);

      const r = await cli(["--manifest", join(dir, "m.json"), ...files]);
      expect(r.status).toBe(0);
      const fromCli = JSON.parse(readFileSync(join(dir, "m.json"), "utf8")) as Manifest;
      // The page names files without their directory.
      const strip = (s: string) => s.split(`${dir}/`).join("");
      for (const i of fromCli.data.inputs) i.name = strip(i.name);
      for (const run of fromCli.evaluation.runs) run.name = strip(run.name);
      expect(fromPage.data).toEqual(fromCli.data);
      expect(fromPage.evaluation).toEqual(fromCli.evaluation);
      expect(fromPage.implementation.version).toBe(fromCli.implementation.version);
      expect(fromPage.implementation.options).toMatchObject({ measures: [] });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);
});
