// rankeval --qrels-compare QRELS_A QRELS_B RUN RUN... --report FILE (issue 38): the HTML report opened
// from disk in Debian's chromium (playwright-core), its cells read back from the DOM against the
// command's --format json (printed as its text prints them), an undefined tau's reason, a run named
// with "<" shown as written (escaped, not markup); and the command's stdout unchanged by --report.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium } from "../scripts/page.mjs";
import { tableValue } from "../src/app/value-print.js";
import type { QrelsCompare } from "../src/judgments/qrels-compare.js";
import { cli } from "./_cli.js";

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI)
  console.warn(`test/qrels-compare-report.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

const dir = mkdtempSync(join(tmpdir(), "rankeval-qc-report-"));
const A = join(dir, "a.qrels");
const B = join(dir, "b.qrels");
const R1 = join(dir, "first.run");
// Ranks as first.run does: tied with it under both sets, so tau_ap (either reference) is undefined.
const R2 = join(dir, "same<as>first.run");
const R3 = join(dir, "third.run");
const RUNS = [R1, R2, R3];

beforeAll(() => {
  const qrels = (rows: [string, string, number][]) => rows.map(([q, d, l]) => `${q} 0 ${d} ${l}\n`).join("");
  writeFileSync(
    A,
    qrels([
      ["q1", "d1", 2],
      ["q1", "d2", 0],
      ["q1", "d3", 1],
      ["q2", "d1", 1],
      ["q2", "d4", 0],
      ["q2", "d5", 2],
    ]),
  );
  writeFileSync(
    B,
    qrels([
      ["q1", "d1", 1],
      ["q1", "d2", 1],
      ["q1", "d3", 0],
      ["q2", "d1", 1],
      ["q2", "d4", 2],
      ["q2", "d6", 1],
    ]),
  );
  const run = (rows: [string, string][]) => rows.map(([q, d], i) => `${q} Q0 ${d} ${i + 1} ${10 - i} r\n`).join("");
  writeFileSync(
    R1,
    run([
      ["q1", "d1"],
      ["q1", "d2"],
      ["q1", "d3"],
      ["q2", "d4"],
      ["q2", "d1"],
      ["q2", "d5"],
    ]),
  );
  copyFileSync(R1, R2);
  writeFileSync(
    R3,
    run([
      ["q1", "d3"],
      ["q1", "d2"],
      ["q1", "d1"],
      ["q2", "d5"],
      ["q2", "d6"],
      ["q2", "d4"],
    ]),
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ARGS = ["--qrels-compare", A, B, ...RUNS, "-m", "map", "-m", "ndcg_cut.10"];
const value = (v: number | null) => (v === null ? "-" : tableValue(v));

describe("--qrels-compare --report", () => {
  it("prints what it prints without --report (text and JSON), and writes the file", async () => {
    for (const format of [[], ["--format", "json"]]) {
      const plain = await cli([...ARGS, ...format]);
      const out = join(dir, "same.html");
      const reported = await cli([...ARGS, ...format, "--report", out]);
      expect(plain.status).toBe(0);
      expect(reported.status).toBe(0);
      expect(reported.stdout).toBe(plain.stdout);
      expect(reported.stderr).toMatch(
        /^rankeval: wrote .*same\.html: [\d.]+ kB \(\d+ bytes\), 3 runs under 2 sets of judgments\n/,
      );
      expect(readFileSync(out, "utf8")).toMatch(/^<!doctype html>/);
    }
  });

  it("refuses a folder that is not one before reading anything", async () => {
    const r = await cli([...ARGS, "--report", join(dir, "no-such-folder", "r.html")]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("is not a directory to write it in");
  });

  it("refuses the evaluation report's options: --report-queries, --compare's", async () => {
    for (const [option, ...value] of [
      ["--report-queries", "3"],
      ["--baseline", R1],
    ]) {
      const r = await cli([...ARGS, "--report", join(dir, "r.html"), option, ...value]);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain(`${option} has no meaning with --qrels-compare`);
    }
  });
});

describe.skipIf(!haveChromium && !process.env.CI)("--qrels-compare's report in chromium", () => {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!haveChromium)
      throw new Error(`${CHROMIUM} is missing: the browser tests need Debian's chromium (apt-get install chromium)`);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => browser?.close());

  it("opens from disk, offline, with the JSON's numbers as the text prints them, why a tau is undefined, and the run named with < as written", async () => {
    const json = await cli([...ARGS, "--format", "json"]);
    const c = JSON.parse(json.stdout) as QrelsCompare;
    const out = join(dir, "report.html");
    expect((await cli([...ARGS, "--report", out])).status).toBe(0);
    const html = readFileSync(out, "utf8");
    // The name is text, never markup, wherever the shell writes it.
    expect(html).not.toContain("same<as>first");
    expect(html).toContain("same&lt;as&gt;first");

    const page = await browser!.newPage();
    const requests: string[] = [];
    const errors: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(`file://${out}`);
      await page.waitForFunction(() => document.body.dataset.state !== "loading", undefined, { timeout: 30_000 });
      expect(await page.evaluate(() => document.body.dataset.state)).toBe("done");
      expect(requests).toEqual([`file://${out}`]);
      expect(errors).toEqual([]);
      const shown = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>(".qc-measure")].map((m) => ({
          measure: m.dataset.measure,
          rows: [...m.querySelectorAll(".qc-runs tbody tr")].map((tr) =>
            [...tr.querySelectorAll("td")].map((td) => td.textContent),
          ),
          taus: Object.fromEntries(
            [...m.querySelectorAll<HTMLElement>(".qc-taus tr")].map((tr) => [
              tr.dataset.tau,
              [...tr.querySelectorAll("td")].slice(1).map((td) => td.textContent),
            ]),
          ),
          dots: m.querySelectorAll("svg circle.run").length,
        })),
      );
      expect(shown.map((m) => m.measure)).toEqual(c.measures);
      for (const m of shown) {
        const want = c.by_measure[m.measure!];
        expect(m.rows).toEqual(
          want.runs.map((r, i) => [
            RUNS[i],
            value(r.mean_a),
            value(r.mean_b),
            value(r.mean_b! - r.mean_a!),
            String(r.queries_a),
            String(r.queries_b),
          ]),
        );
        expect(m.dots).toBe(3);
        expect(m.taus.kendall_tau[0]).toBe(value(want.kendall_tau));
        // first.run and its copy tie: tau_AP is undefined either way, and the report says why.
        expect(want.tau_ap).toBeNull();
        expect(m.taus.tau_ap).toEqual(["-", `(A the reference) undefined: ${want.why_null!.tau_ap}`]);
        expect(m.taus.tau_ap_b).toEqual(["-", `(B the reference) undefined: ${want.why_null!.tau_ap_b}`]);
      }
      expect(shown[0].rows[1][0]).toBe(join(dir, "same<as>first.run"));

      const agreement = Object.fromEntries(
        await page.evaluate(() =>
          [...document.querySelectorAll("#qc-agreement tr")].map((tr) =>
            [...tr.querySelectorAll("td")].map((td) => td.textContent),
          ),
        ),
      );
      const g = c.agreement;
      expect(agreement["pairs.shared"]).toBe(String(g.pairs.shared));
      expect(agreement.cohen_kappa).toBe(g.cohen_kappa === null ? "-nan" : g.cohen_kappa!.toFixed(4));
      expect(agreement["krippendorff_alpha.interval"]).toBe(g.krippendorff_alpha.interval!.toFixed(4));
      const confusion = await page.evaluate(() =>
        [...document.querySelectorAll("#qc-confusion tbody tr")].map((tr) =>
          [...tr.querySelectorAll("td")].slice(1).map((td) => Number(td.textContent)),
        ),
      );
      expect(confusion).toEqual(g.confusion!.matrix);
    } finally {
      await page.close();
    }
  }, 60_000);
});
