// The page as one file (dist/rankeval.html, npm run build): shipped in the package, written by
// `rankeval --page [FILE]`, and opened from disk (file://, origin 'null': no module worker, no script
// fetched) in Debian's chromium, where it evaluates the bundled examples with the command line's numbers,
// printed as the command line prints them. The same file served over HTTP is test/web.test.ts's.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium } from "../scripts/page.mjs";
import { KERNEL_WASM_BASE64 } from "../src/kernel/wasm.generated.js";
import { main } from "../src/node/cli.js";

const root = new URL("..", import.meta.url).pathname;
const PAGE = join(root, "dist/rankeval.html");
const BIN = join(root, "dist/node/bin.js");
const example = (name: string) => join(root, "examples", name);

/** The built command line, in `cwd`. */
function rankeval(cwd: string, ...argv: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...argv], { cwd, encoding: "utf8", maxBuffer: 1 << 26 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

async function cli(...argv: string[]): Promise<string> {
  let out = "";
  let err = "";
  const status = await main(argv, {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
  });
  if (status !== 0) throw new Error(`rankeval ${argv.join(" ")}: ${err}`);
  return out;
}

/** trec_eval's summary lines: printed name -> value as printed. */
const trecSummary = (text: string) =>
  new Map(
    text
      .trim()
      .split("\n")
      .map((l) => l.split("\t"))
      .map(([name, , value]) => [name.trim(), value] as [string, string]),
  );

/** The CLI's table (--format table): each run's column, measure -> value as printed (not the "queries" row). */
function tableColumns(text: string): Map<string, string>[] {
  const lines = text.split("\n\n")[0].split("\n");
  const width = lines[0].split(/\s{2,}/).length - 1;
  const columns = Array.from({ length: width }, () => new Map<string, string>());
  for (const line of lines.slice(1)) {
    const [measure, ...values] = line.split(/\s{2,}/);
    // A measure's label without its conventions' mark ("map [2]"), which a legend of several lines adds.
    const name = measure.replace(/ \[\d+\]$/, "");
    if (name !== "queries") values.forEach((v, i) => columns[i].set(name, v));
  }
  return columns;
}

describe("the one-file page", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-page-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeAll(() => {
    if (!existsSync(PAGE)) throw new Error(`${PAGE} is missing: npm run build writes it (npm test does)`);
  });

  it("is one HTML file: no script, style sheet or worker fetched from anywhere", () => {
    const html = readFileSync(PAGE, "utf8");
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html.match(/<(script|link|img|iframe)\b[^>]*\b(src|href)=/gi)).toBeNull();
    // The workers are started from blob URLs made of their inlined code, never from a URL of their own.
    expect(html).not.toMatch(/new Worker\(new URL\(/);
    expect(html).toContain("createObjectURL");
  });

  it("carries its one worker script once, and so each role's code and the kernel once: under 1.3 MB", () => {
    const html = readFileSync(PAGE, "utf8");
    expect(readFileSync(PAGE).length).toBeLessThan(1.3e6);
    // A copy as text or as a data: URL (Vite's `?worker&inline` carried both of a worker started in a worker).
    const count = (s: string) => html.split(s).length - 1;
    const copies = (s: string) => count(s) + (encodeURIComponent(s) === s ? 0 : count(encodeURIComponent(s)));
    // The partition worker's error, the page worker's, the kernel's first bytes.
    for (const s of [": ended at byte ", "out of memory while evaluating", KERNEL_WASM_BASE64.slice(0, 64)])
      expect(copies(s), s).toBe(1);
  });

  it("is in the package, built by npm run build (and so by npm start, npm pack's prepack and CI)", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    expect(pkg.scripts.build).toMatch(/scripts\/build-page\.mjs/);
    for (const s of ["web", "build:web"]) expect(pkg.scripts[s]).toMatch(/^npm run build:generated --silent && vite/);
    const packed = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" }),
    )[0] as { files: { path: string }[] };
    expect(packed.files.map((f) => f.path)).toContain("dist/rankeval.html");
  });

  it("rankeval --page [FILE] writes it: to rankeval.html here by default, FILE, or - (standard output)", () => {
    const page = readFileSync(PAGE);
    const r = rankeval(dir, "--page");
    expect(r.status).toBe(0);
    expect(readFileSync(join(dir, "rankeval.html")).equals(page)).toBe(true);
    expect(r.err).toContain(
      // The size in MB to one decimal (the page is under 1.3 MB: 1.2 or 1.3).
      `wrote rankeval.html (${(page.length / 1e6).toFixed(1)} MB): open it in a browser (${pathToFileURL(join(dir, "rankeval.html")).href})`,
    );
    expect(r.out).toBe("");
    for (const argv of [["--page", "mine.html"], ["--page=mine.htm"]]) {
      expect(rankeval(dir, ...argv).status).toBe(0);
      expect(readFileSync(join(dir, argv.at(-1)!.replace("--page=", ""))).equals(page)).toBe(true);
    }
    const out = rankeval(dir, "--page", "-");
    expect(out.status).toBe(0);
    expect(out.out).toBe(page.toString("utf8"));
    expect(rankeval(dir, "--help").out).toMatch(/--page \[FILE\] +write the web page to FILE \(default rankeval\.html/);
  });

  it("rankeval --page refuses a name that is no HTML file (a qrels file overwritten by a slip), operands and options", () => {
    writeFileSync(join(dir, "qrels.txt"), "q1 0 d1 1\n");
    const cases: [string[], string][] = [
      [
        ["--page", "qrels.txt"],
        "--page qrels.txt: the page is HTML: give a name ending .html (or - for standard output)",
      ],
      [["--page", "a.html", "b.html"], "--page [FILE] writes one file: b.html has no place beside it"],
      [["--page", "-m", "map"], "--page writes the page and does nothing else: -m has no place beside it"],
      [["qrels.txt", "run", "--page"], "--page [FILE] writes one file: run has no place beside it"],
    ];
    for (const [argv, message] of cases) {
      const r = rankeval(dir, ...argv);
      expect(r.status, argv.join(" ")).toBe(1);
      expect(r.err).toBe(`rankeval: ${message}\n(rankeval --help for usage)\n`);
    }
    expect(readFileSync(join(dir, "qrels.txt"), "utf8")).toBe("q1 0 d1 1\n");
    const unwritable = rankeval(dir, "--page", join(dir, "no-such-dir", "x.html"));
    expect(unwritable.status).toBe(2);
    expect(unwritable.err).toMatch(/^rankeval: --page .*x\.html: cannot write it \(ENOENT/);
  });
});

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI)
  console.warn(`test/web-page.test.ts: the browser cases skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

describe.skipIf(!haveChromium && !process.env.CI)("the one-file page opened from disk in chromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-page-disk-"));
  let browser: Browser | undefined;
  // The file as a package user gets it: written by --page, opened from where it was written.
  const url = pathToFileURL(join(dir, "opened.html")).href;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  beforeAll(async () => {
    expect(rankeval(dir, "--page", "opened.html").status).toBe(0);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  interface Shown {
    state: string;
    error: string;
    warnings: string[];
    /** Each run's cells: measure -> text. */
    cells: Map<string, Map<string, string>>;
    /** The per-query table's cells' texts. */
    perQuery: string[];
    /** body[data-workers]: how many partition workers evaluated the runs. */
    workers: string;
  }

  /** Opens the file, runs `before`, sets the inputs in order (or drops `dropped` on the form), waits. */
  async function open(
    inputs: [name: string, files: string[]][],
    before?: (p: Page) => Promise<void>,
    dropped?: string[],
  ): Promise<Shown> {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(url);
      // Opened from disk: an opaque origin, from which no module worker nor fetched script may start.
      expect(await page.evaluate(() => [location.protocol, self.origin])).toEqual(["file:", "null"]);
      await before?.(page);
      for (const [name, files] of inputs) await page.setInputFiles(`input[name="${name}"]`, files);
      if (dropped) {
        const files = dropped.map((p) => ({ name: p.replace(/^.*\//, ""), text: readFileSync(p, "utf8") }));
        await page.evaluate((files) => {
          const dt = new DataTransfer();
          for (const f of files) dt.items.add(new File([f.text], f.name));
          document
            .querySelector("#inputs")!
            .dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
        }, files);
      }
      await page.waitForFunction(() => ["done", "error"].includes(document.body.dataset.state ?? ""), undefined, {
        timeout: 30_000,
      });
      const raw = await page.$$eval("#results td[data-measure]", (tds) =>
        tds.map((td) => [
          (td as HTMLElement).dataset.run!,
          (td as HTMLElement).dataset.measure!,
          td.firstChild?.textContent ?? "",
        ]),
      );
      const cells = new Map<string, Map<string, string>>();
      for (const [run, measure, text] of raw) cells.set(run, (cells.get(run) ?? new Map()).set(measure, text));
      const shown: Shown = {
        state: (await page.evaluate(() => document.body.dataset.state)) ?? "",
        error: (await page.textContent("#error")) ?? "",
        warnings: await page.$$eval("#warnings p", (ps) => ps.map((p) => p.textContent ?? "")),
        cells,
        perQuery: await page.$$eval("#perquery td[data-measure]", (tds) => tds.map((td) => td.textContent ?? "")),
        workers: (await page.evaluate(() => document.body.dataset.workers)) ?? "",
      };
      expect(errors).toEqual([]);
      return shown;
    } finally {
      await page.close();
    }
  }

  const measures = (text: string) => async (page: Page) => {
    await page.fill('input[name="measures"]', text);
    await page.dispatchEvent('input[name="measures"]', "change");
  };

  it("evaluates the examples with trec_eval's defaults, as the command line prints them, and warns of nothing", async () => {
    const shown = await open([
      ["qrels", [example("qrels.txt")]],
      ["run", [example("bm25.run"), example("rerank.run")]],
    ]);
    expect(shown.error).toBe("");
    expect(shown.state).toBe("done");
    // runid, num_q and gm_map are left out of the comparison, as every default evaluation's: not said.
    expect(shown.warnings).toEqual([]);
    for (const run of ["bm25.run", "rerank.run"]) {
      const want = trecSummary(await cli(example("qrels.txt"), example(run)));
      expect(want.size).toBeGreaterThan(20);
      expect(shown.cells.get(run)).toEqual(want);
    }
    expect(shown.cells.get("rerank.run")?.get("recip_rank")).toBe("1.0000");
  }, 60_000);

  it("evaluates across partition workers opened from disk (started inside its worker): the same cells", async () => {
    const one = await open([
      ["qrels", [example("qrels.txt")]],
      ["run", [example("bm25.run"), example("rerank.run")]],
    ]);
    const several = await open(
      [
        ["qrels", [example("qrels.txt")]],
        ["run", [example("bm25.run"), example("rerank.run")]],
      ],
      (page) => page.goto(`${url}?workers=2&partition-bytes=0`).then(() => undefined),
    );
    expect([one.workers, several.workers]).toEqual(["1", "2"]);
    expect({ ...several, workers: "1" }).toEqual(one);
  }, 60_000);

  it("says so where the browser starts no worker, rather than waiting for ever", async () => {
    const shown = await open([["qrels", [example("qrels.txt")]]], (page) =>
      page.evaluate(() => {
        window.Worker = class {
          constructor() {
            throw new Error("workers are off");
          }
        } as unknown as typeof Worker;
      }),
    );
    expect(shown.state).toBe("error");
    expect(shown.error).toBe(
      "this browser could not start the page's worker (workers are off); the command line evaluates the same files",
    );
  }, 60_000);

  it("prints four decimals where the command line does: canonical names, mixed names, LETOR", async () => {
    for (const text of ["ndcg@10 mrr precision@5", "map ndcg@10 mrr"]) {
      const shown = await open(
        [
          ["qrels", [example("qrels.txt")]],
          ["run", [example("bm25.run"), example("rerank.run")]],
        ],
        measures(text),
      );
      expect(shown.state).toBe("done");
      const argv = text.split(" ").flatMap((m) => ["-m", m]);
      const want = tableColumns(await cli(...argv, example("qrels.txt"), example("bm25.run"), example("rerank.run")));
      expect(shown.cells.get("bm25.run")).toEqual(want[0]);
      expect(shown.cells.get("rerank.run")).toEqual(want[1]);
      // mrr is 1 for both runs: "1.0000", as the command line's table prints it, never "1".
      expect(shown.cells.get("bm25.run")?.get("mrr")).toBe("1.0000");
      expect(shown.perQuery.length).toBeGreaterThan(0);
      for (const t of shown.perQuery) expect(t).toMatch(/^\d\.\d{4}$/);
      expect(shown.warnings).toEqual([]);
    }
    const letor = file("test.letor", "2 qid:1 1:0.1\n0 qid:1 1:0.5\n1 qid:2 1:0.3\n0 qid:2 1:0.2\n");
    const scores = file("pred.txt", "0.9\n0.1\n0.8\n0.2\n");
    const want = tableColumns(await cli("--letor", letor, "--scores", scores))[0];
    expect(want.get("ndcg@10")).toBe("1.0000");
    const shown = await open([
      ["letor", [letor]],
      ["scores", [scores]],
    ]);
    expect(shown.state).toBe("done");
    expect(shown.cells.get("pred.txt")).toEqual(want);
  }, 120_000);

  it("reads CSV judgments and runs as the command line does, dropped or chosen, and says what a bad header lacks", async () => {
    const lines = (name: string) => readFileSync(example(name), "utf8").trim().split("\n");
    const qrels = file(
      "qrels.csv",
      [
        "qid,doc,label",
        ...lines("qrels.txt")
          .map((l) => l.split(" "))
          .map(([q, , d, r]) => `${q},${d},${r}`),
      ].join("\n"),
    );
    const run = file(
      "bm25.csv",
      [
        "qid,docid,score",
        ...lines("bm25.run")
          .map((l) => l.split(" "))
          .map(([q, , d, , s]) => `${q},${d},${s}`),
      ].join("\n"),
    );
    const want = trecSummary(await cli(qrels, run));
    expect(want.get("map")).toBe(trecSummary(await cli(example("qrels.txt"), example("bm25.run"))).get("map"));
    const chosen = await open([
      ["qrels", [qrels]],
      ["run", [run]],
    ]);
    expect(chosen.error).toBe("");
    expect(chosen.cells.get("bm25.csv")).toEqual(want);
    // Dropped on the form, not on an input: sorted by their headers (a label column: judgments).
    const dropped = await open([], undefined, [run, qrels]);
    expect(dropped.error).toBe("");
    expect(dropped.cells.get("bm25.csv")).toEqual(want);
    const bad = file("bad.csv", "qid,docid,points\nq1,d1,0.5\n");
    const shown = await open([
      ["qrels", [example("qrels.txt")]],
      ["run", [bad]],
    ]);
    expect(shown.state).toBe("error");
    expect(shown.error).toBe(
      'bad.csv:1:1: the header has no score column (looked for score, rank_score, prediction; the comma-separated header has "qid", "docid", "points"); name them so in the header (the page reads no --columns), or evaluate the file with the command line\'s --columns',
    );
  }, 120_000);
});
