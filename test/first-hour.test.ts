// The first hour of a new user, from the README alone: the packed tarball installed in a fresh
// project (offline: rankeval has no dependencies), and the README's code blocks marked runnable
// (```js runnable) run as written, extracted from README.md here so that they cannot drift: each under
// Node as an ES module, beside the files they name (the bundled examples under the README's names),
// and each type-checked as TypeScript under `strict` by the project's TypeScript and by TypeScript 5.0.
// Then the page as a package user gets it: `npx rankeval --page`, opened from disk in chromium.
// test/package.test.ts checks the package itself (its files, entry points, module systems, bundlers).
// Needs a built dist/ (npm test builds).
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium } from "../scripts/page.mjs";
import { ok, packAndInstall, root, run } from "./_package.js";

const resolveHere = createRequire(import.meta.url).resolve;
const TSC = [
  ["the project's TypeScript", resolveHere("typescript/bin/tsc")],
  ["TypeScript 5.0", resolveHere("typescript-5.0/bin/tsc")],
] as const;

/** The README's runnable blocks: fenced with the info string `js runnable`, each with its heading. */
export function runnableBlocks(readme: string): { heading: string; code: string }[] {
  const blocks: { heading: string; code: string }[] = [];
  let heading = "";
  const lines = readme.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (/^#{1,6} /.test(lines[i])) heading = lines[i].replace(/^#+ /, "");
    const fence = /^```(.*)$/.exec(lines[i]);
    if (!fence) continue;
    const end = lines.indexOf("```", i + 1);
    if (fence[1].trim().split(/\s+/).includes("runnable"))
      blocks.push({ heading, code: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return blocks;
}

const blocks = runnableBlocks(readFileSync(join(root, "README.md"), "utf8"));
const built = existsSync(join(root, "dist/index.js")) && existsSync(join(root, "dist/node/index.js"));

describe("the README's runnable blocks, against the packed package in a fresh project", () => {
  const tmp = mkdtempSync(join(tmpdir(), "rankeval-first-hour-"));
  const app = join(tmp, "app");

  beforeAll(() => {
    if (!built) throw new Error("dist/ is not built: run `npm run build` (npm test does)");
    packAndInstall(tmp, app, "first-hour");
    // The files the blocks name: the bundled examples, copied as the README says (nothing else, so a
    // block that names a file a new user does not have fails here).
    const examples = join(app, "node_modules/rankeval/examples");
    for (const f of ["qrels.txt", "bm25.run", "rerank.run"]) copyFileSync(join(examples, f), join(app, f));
    blocks.forEach(({ code }, i) => {
      writeFileSync(join(app, `block-${i}.mjs`), `${code}\n`);
      writeFileSync(join(app, `block-${i}.ts`), `${code}\nexport {};\n`);
    });
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          target: "ES2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          // console: a Node project has it from @types/node, which this offline project lacks.
          lib: ["ES2022", "DOM"],
          types: [],
        },
        files: blocks.map((_, i) => `block-${i}.ts`),
      }),
    );
  }, 600_000);

  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("finds the blocks: the quick start, files in Node, comparing runs and how many queries, fusion, judgments, diversity", () => {
    expect(blocks.map((b) => b.heading)).toEqual([
      "Quick start",
      "Files, in Node",
      "Comparing runs",
      "Comparing runs",
      "Comparing runs", // rbo and systemCorrelation
      "Fusion",
      "Optimising fusion",
      "Judgments: statistics, pools and agreement",
      "Judgments: statistics, pools and agreement",
      "Diversity: subtopic judgments, as TREC's ndeval",
    ]);
  });

  it.each(blocks.map((b, i) => [b.heading, i] as const))("%s runs under Node", (_heading, i) => {
    const out = ok(run(process.execPath, [`block-${i}.mjs`], app), `block ${i}`);
    if (i === 0) expect(out).toMatch(/^ndcg@5\s+0\.\d{4}\s+2$/m);
    if (i === 2) expect(out).toMatch(/ndcg@10/);
  });

  for (const [name, tsc] of TSC)
    it(`type-checks under strict with ${name}`, () => {
      ok(run(process.execPath, [tsc, "-p", "tsconfig.json"], app), `${name} on the README's blocks`);
    }, 300_000);
});

describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)(
  "the page from the installed package: `npx rankeval --page`, opened from disk in chromium",
  () => {
    const tmp = mkdtempSync(join(tmpdir(), "rankeval-first-hour-page-"));
    const app = join(tmp, "app");
    let browser: Browser | undefined;

    beforeAll(async () => {
      if (!built) throw new Error("dist/ is not built: run `npm run build` (npm test does)");
      packAndInstall(tmp, app, "first-hour-page");
      browser = await launchChromium();
    }, 600_000);
    afterAll(async () => {
      await browser?.close();
      rmSync(tmp, { recursive: true, force: true });
    });

    it("writes rankeval.html, which evaluates the package's examples with the installed command line's numbers", async () => {
      // As the README's "In the browser" says, from the project that installed the package.
      const npx = run("npx", ["--offline", "rankeval", "--page"], app);
      ok(npx, "npx rankeval --page");
      const page = join(app, "rankeval.html");
      expect(existsSync(page), npx.err).toBe(true);
      const examples = join(app, "node_modules/rankeval/examples");
      const cli = ok(
        run("npx", ["--offline", "rankeval", "qrels.txt", "bm25.run"], examples),
        "npx rankeval on the examples (trec_eval's default measures, as the page's)",
      );
      const tab = await browser!.newPage();
      const errors: string[] = [];
      tab.on("pageerror", (e) => errors.push(e.message));
      await tab.goto(pathToFileURL(page).href);
      await tab.setInputFiles('input[name="qrels"]', join(examples, "qrels.txt"));
      await tab.setInputFiles('input[name="run"]', join(examples, "bm25.run"));
      await tab.waitForFunction(() => ["done", "error"].includes(document.body.dataset.state ?? ""), undefined, {
        timeout: 60_000,
      });
      expect(await tab.textContent("#error")).toBe("");
      const shown = new Map(
        await tab.$$eval("#results td[data-measure]", (tds) =>
          tds.map((td) => [(td as HTMLElement).dataset.measure!, td.firstChild?.textContent ?? ""] as [string, string]),
        ),
      );
      const lines = cli.trim().split("\n");
      expect(lines.length).toBeGreaterThan(20);
      for (const line of lines) {
        const [name, , value] = line.split("\t");
        expect(shown.get(name.trim()), name).toBe(value);
      }
      expect(errors).toEqual([]);
    }, 120_000);
  },
);
