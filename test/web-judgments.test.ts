// The page's judgments (issue 38) in chromium, opened from disk as `rankeval --page` writes it: a qrels
// file's statistics (and per query), the agreement of two sets (decimal labels, --bins) and of three, a
// depth pool and an rbp pool with judgments made already (and a coverage depth), holes filled (the
// page's evaluation under the filled judgments, the holes table) and systems under two sets, each equal
// to what the command line (built: dist/node/bin.js) prints for the same files, its downloads the
// command line's bytes; a bad file the command line's error, naming the file and line.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium } from "../scripts/page.mjs";

const root = new URL("..", import.meta.url).pathname;
const BIN = join(root, "dist/node/bin.js");

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI)
  console.warn(`test/web-judgments.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

describe.skipIf(!haveChromium && !process.env.CI)("the page's judgments in chromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-web-judgments-"));
  const url = pathToFileURL(join(dir, "opened.html")).href;
  let browser: Browser | undefined;
  /** Files by name in `dir`: the command line is run there, so that it names them as the page does. */
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return name;
  };
  /** The built command line in `dir`. */
  const rankeval = (...argv: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...argv], { cwd: dir, encoding: "utf8" });
    return { status: r.status, out: r.stdout, err: r.stderr };
  };

  const a = file("a.qrels", "q1 0 d1 2\nq1 0 d2 0\nq1 0 d3 1\nq1 0 d4 3\nq2 0 d1 1\nq2 0 d5 0\nq2 0 d6 2\nq3 0 d9 0\n");
  const b = file(
    "b.qrels",
    "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 1\nq1 0 d4 2\nq2 0 d1 1\nq2 0 d5 1\nq2 0 d6 2\nq3 0 d9 0\nq3 0 d8 1\n",
  );
  const c = file("c.qrels", "q1 0 d1 2\nq1 0 d2 1\nq1 0 d3 1\nq1 0 d4 3\nq2 0 d1 0\nq2 0 d5 0\nq2 0 d6 2\n");
  const human = file(
    "human.qrels",
    "q1 0 d1 0.5\nq1 0 d2 1.25\nq1 0 d3 2.75\nq1 0 d4 0.25\nq2 0 d1 1.5\nq2 0 d5 2.25\n",
  );
  const model = file(
    "model.qrels",
    "q1 0 d1 0.75\nq1 0 d2 1.5\nq1 0 d3 2.5\nq1 0 d4 1.25\nq2 0 d1 1.75\nq2 0 d5 0.5\n",
  );
  const run1 = file(
    "r1.run",
    "q1 Q0 d1 1 0.9 A\nq1 Q0 d2 2 0.8 A\nq1 Q0 d3 3 0.7 A\nq2 Q0 d1 1 0.5 A\nq2 Q0 d7 2 0.4 A\nq3 Q0 d9 1 1 A\n",
  );
  // A run as CSV: any format the page reads.
  const run2 = file("r2.csv", "qid,docid,score\nq1,d1,3\nq1,d7,2.5\nq1,d2,2\nq2,d5,1\nq2,d8,0.5\n");
  const judged = file("judged.qrels", "q1 0 d1 1\nq2 0 d5 0\n");
  const same1 = file("same1.qrels", "q1 0 d1 1\nq1 0 d2 1\n");
  const same2 = file("same2.qrels", "q1 0 d1 1\nq1 0 d2 1\n");
  const bad = file("bad.qrels", "q1 0 d1 1\nq1 0 d2\n");
  // A model's labels: decimals, holes of r1 and r2 (d7, d8), a label the base has (d1, not taken), a query it lacks.
  const llm = file("llm.qrels", "q1 0 d7 1.5\nq1 0 d1 0\nq2 0 d7 2.25\nq2 0 d8 1\nq4 0 d1 1\n");
  const run3 = file("r3.run", "q1 Q0 d4 1 3 C\nq1 Q0 d3 2 2 C\nq2 Q0 d6 1 2 C\nq2 Q0 d1 2 1 C\nq3 Q0 d8 1 1 C\n");

  beforeAll(async () => {
    expect(rankeval("--page", "opened.html").status).toBe(0);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  interface Shown {
    state: string;
    error: string;
    notes: string[];
    /** The values table: [name, value] as shown. */
    values: [string, string][];
    /** The confusion table's rows, its header first. */
    confusion: string[][];
    /** The coverage table's caption and rows (header first). */
    coverage: { caption: string; rows: string[][] };
    /** Each download by its button's format. */
    downloads: Record<string, string>;
    /** The holes table's caption and rows (header first). */
    holes: { caption: string; rows: string[][] };
    /** The comparison of two sets' text. */
    compared: string;
    /** Where asked (--fill): the page's evaluation, its trec text download; its warnings. */
    evaluation?: { state: string; trec: string; warnings: string[] };
  }

  /** Opens the page, sets the judgments' options (`before`), then the files in order, and reads what it shows. */
  async function judge(
    files: [name: string, paths: string[]][],
    before?: (p: Page) => Promise<void>,
    dropped?: string[],
    evaluated = false,
  ): Promise<Shown> {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(url);
      await before?.(page);
      for (const [name, paths] of files)
        await page.setInputFiles(
          `input[name="${name}"]`,
          paths.map((p) => join(dir, p)),
        );
      if (dropped) {
        const files = dropped.map((name) => ({ name, text: readFileSync(join(dir, name), "utf8") }));
        await page.evaluate((files) => {
          const dt = new DataTransfer();
          for (const f of files) dt.items.add(new File([f.text], f.name));
          document
            .querySelector("#judgments-form")!
            .dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
        }, files);
      }
      await page.waitForFunction(
        () =>
          ["done", "error"].includes(document.querySelector<HTMLElement>("#judgments-section")!.dataset.state ?? ""),
        undefined,
        { timeout: 30_000 },
      );
      const rows = (selector: string) =>
        page.$$eval(selector, (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent ?? "")));
      const caption = async (selector: string) =>
        (await page.$$eval(selector, (cs) => cs.map((c) => c.textContent ?? ""))).join("");
      const downloads: Record<string, string> = {};
      for (const button of await page.$$("#judgments-downloads button:not([hidden])")) {
        if (!(await button.isVisible())) continue;
        const format = (await button.getAttribute("data-format"))!;
        const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
        downloads[format] = readFileSync((await download.path())!, "utf8");
      }
      const shown: Shown = {
        state: (await page.$eval("#judgments-section", (s) => (s as HTMLElement).dataset.state)) ?? "",
        error: (await page.textContent("#judgments-error")) ?? "",
        notes: await page.$$eval("#judgments-notes p", (ps) => ps.map((p) => p.textContent ?? "")),
        values: (await rows("#judgments-results table.judgments-values tbody tr")) as [string, string][],
        confusion: await rows("#judgments-results table.confusion tr"),
        coverage: {
          caption: await caption("#judgments-results table.coverage caption"),
          rows: await rows("#judgments-results table.coverage tr"),
        },
        downloads,
        holes: {
          caption: await caption("#judgments-results table.holes caption"),
          rows: await rows("#judgments-results table.holes tr"),
        },
        compared: await caption("#judgments-results pre.qrels-compare"),
      };
      if (evaluated) {
        await page.waitForFunction(() => ["done", "error"].includes(document.body.dataset.state ?? ""), undefined, {
          timeout: 30_000,
        });
        // The evaluation's error, if any, said before its download is waited for.
        expect(await page.textContent("#error")).toBe("");
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          page.click('#downloads button[data-format="trec"]'),
        ]);
        shown.evaluation = {
          state: (await page.$eval("body", (b) => b.dataset.state)) ?? "",
          trec: readFileSync((await download.path())!, "utf8"),
          warnings: await page.$$eval("#warnings p", (ps) => ps.map((p) => p.textContent ?? "")),
        };
      }
      expect(errors).toEqual([]);
      return shown;
    } finally {
      await page.close();
    }
  }

  /** Types `value` into a field and leaves it, as a user does: its change event then, not at a later click. */
  const type = (page: Page, name: string, value: string) =>
    page.fill(`input[name="${name}"]`, value).then(() => page.press(`input[name="${name}"]`, "Tab"));

  /** The command line's lines `NAME\tall\tVALUE` as [name, value] (-nan without its padding). */
  const lines = (text: string) =>
    text
      .trim()
      .split("\n")
      .map((l) => l.split("\t"))
      .map(([name, , value]) => [name.trim(), value.trim()]);

  const json = (text: string) => JSON.parse(text);

  it("shows a qrels file's statistics as rankeval --qrels-stats prints them", async () => {
    const shown = await judge([["judgments-qrels", [a]]]);
    expect(shown.error).toBe("");
    expect(shown.state).toBe("done");
    const cli = rankeval("--qrels-stats", a);
    expect(cli.status).toBe(0);
    expect(shown.values).toEqual(lines(cli.out));
    expect(shown.values).toContainEqual(["num_label.3", "1"]);
    expect(shown.downloads.text).toBe(cli.out);
    expect(json(shown.downloads.json)).toEqual(json(rankeval("--qrels-stats", "--format", "json", a).out));
  }, 60_000);

  it("shows two sets' agreement with decimal labels in bins, and their confusion, as rankeval --agreement --bins", async () => {
    const shown = await judge([["judgments-qrels", [human, model]]], async (page) => {
      await type(page, "bins", "1,2");
      await type(page, "judgments-threshold", "1.5");
    });
    expect(shown.error).toBe("");
    const cli = rankeval("--agreement", "--bins", "1,2", "-l", "1.5", human, model);
    expect(cli.status).toBe(0);
    expect(shown.values).toEqual(lines(cli.out));
    expect(shown.values.map(([n]) => n)).toContain("cohen_kappa_quadratic");
    expect(shown.downloads.text).toBe(cli.out);
    const object = json(rankeval("--agreement", "--bins", "1,2", "-l", "1.5", "--format", "json", human, model).out);
    expect(json(shown.downloads.json)).toEqual(object);
    // Set 0's categories down, set 1's across, by their intervals.
    const { intervals, matrix } = object.confusion as { intervals: string[]; matrix: number[][] };
    expect(shown.confusion).toEqual([
      ["", ...intervals],
      ...matrix.map((row, i) => [intervals[i], ...row.map(String)]),
    ]);
  }, 60_000);

  it("shows three sets' agreement (Fleiss' kappa, Krippendorff's alpha) as rankeval --agreement prints it", async () => {
    const shown = await judge([["judgments-qrels", [a, b, c]]]);
    expect(shown.error).toBe("");
    const cli = rankeval("--agreement", a, b, c);
    expect(cli.status).toBe(0);
    expect(shown.values).toEqual(lines(cli.out));
    expect(shown.values.map(([n]) => n)).toContain("fleiss_kappa");
    expect(shown.confusion).toEqual([]);
  }, 60_000);

  it("shows an undefined value as -nan and says why, as the command line says it on stderr", async () => {
    const shown = await judge([["judgments-qrels", [same1, same2]]]);
    const cli = rankeval("--agreement", same1, same2);
    expect(cli.status).toBe(0);
    expect(shown.values).toEqual(lines(cli.out));
    expect(shown.values).toContainEqual(["cohen_kappa", "-nan"]);
    expect(shown.notes).toEqual(
      cli.err
        .trimEnd()
        .split("\n")
        .map((l) => l.replace(/^rankeval: /, "")),
    );
    expect(shown.notes.length).toBeGreaterThan(0);
  }, 60_000);

  /** The command line's coverage on stderr: its title (no "rankeval: ", no colon) and its table's rows. */
  const coverage = (err: string) => {
    const [title, ...table] = err.trimEnd().split("\n");
    return {
      caption: title.replace(/^rankeval: /, "").replace(/:$/, ""),
      rows: table.map((l) => l.trim().split(/\s{2,}/)),
    };
  };

  it("pools the runs' top documents (depth:K), its lines and coverage as rankeval --pool prints them", async () => {
    const shown = await judge([["judgments-runs", [run1, run2]]], async (page) => {
      await type(page, "method", "depth:2");
    });
    expect(shown.error).toBe("");
    const cli = rankeval("--pool", "depth:2", run1, run2);
    expect(cli.status).toBe(0);
    expect(shown.downloads.text).toBe(cli.out);
    expect(shown.downloads.qrels).toBe(rankeval("--pool", "depth:2", "--format", "qrels", run1, run2).out);
    expect(shown.coverage).toEqual(coverage(cli.err));
    expect(shown.coverage.rows.map((r) => r[3])).toEqual(["run", "r1.run", "r2.csv"]);
  }, 60_000);

  it("pools by rank-biased precision with a budget and judgments made already, as rankeval --pool rbp --judged", async () => {
    const shown = await judge(
      [
        ["judged", [judged]],
        ["judgments-runs", [run1, run2]],
      ],
      async (page) => {
        await type(page, "method", "rbp:0.8");
        await type(page, "budget", "2");
        await page.selectOption('select[name="combine"]', "max");
      },
    );
    expect(shown.error).toBe("");
    const argv = ["--pool", "rbp:0.8", "--budget", "2", "--combine", "max", "--judged", judged, run1, run2];
    const cli = rankeval(...argv);
    expect(cli.status).toBe(0);
    expect(shown.downloads.text).toBe(cli.out);
    expect(shown.downloads.text).not.toMatch(/^q1 d1$/m);
    expect(shown.coverage).toEqual(coverage(cli.err));
    expect(shown.coverage.caption).toContain("or judged already");
    expect(json(shown.downloads.json)).toEqual(json(rankeval(...argv, "--format", "json").out));
  }, 60_000);

  it("takes dropped files: judgments to the qrels (their agreement), runs to the runs (a depth:10 pool)", async () => {
    const agreed = await judge([], undefined, [a, b]);
    expect(agreed.error).toBe("");
    expect(agreed.values).toEqual(lines(rankeval("--agreement", a, b).out));
    const pooled = await judge([], undefined, [run1, run2]);
    expect(pooled.error).toBe("");
    const cli = rankeval("--pool", "depth:10", run1, run2);
    expect(pooled.downloads.text).toBe(cli.out);
    expect(pooled.coverage).toEqual(coverage(cli.err));
  }, 60_000);

  it("takes a dropped UMBRELA JSON lines file as judgments, its failed rows said as the command line says them", async () => {
    const umbrela = file(
      "umbrela.jsonl",
      readFileSync(join(root, "test/fixtures/umbrela/umbrela-judgments.jsonl"), "utf8").replaceAll("1037798", "q1"),
    );
    const judgeQrels = file("judge.qrels", "q1 0 7134595 3\nq1 0 7134594 1\nq1 0 7134596 2\nq1 0 1234567 0\n");
    const shown = await judge([], undefined, [judgeQrels, umbrela]);
    expect(shown.error).toBe("");
    const cli = rankeval("--agreement", judgeQrels, umbrela);
    expect(cli.status).toBe(0);
    expect(shown.values).toEqual(lines(cli.out));
    expect(shown.notes).toContain(
      "umbrela.jsonl: 1 row with result_status not 1 (the judge failed) is skipped (the first on line 4)",
    );
    expect(cli.err).toContain("rankeval: umbrela.jsonl: 1 row with result_status not 1");
  }, 60_000);

  it("shows each query's statistics and agreement with -q, a pool's coverage at --coverage-depth, and a pool of each run's top N (-M)", async () => {
    const perQuery = (page: Page) => page.check('input[name="judgments-per-query"]');
    const stats = await judge([["judgments-qrels", [a]]], perQuery);
    const cli = rankeval("--qrels-stats", "-q", a);
    expect(cli.status).toBe(0);
    expect(stats.downloads.text).toBe(cli.out);
    const triples = cli.out
      .trim()
      .split("\n")
      .map((l) => l.split("\t").map((x) => x.trim()));
    expect(stats.values).toEqual(triples);
    expect(stats.values).toContainEqual(["num_judged", "q2", "3"]);
    const agreed = await judge([["judgments-qrels", [a, b]]], perQuery);
    expect(agreed.downloads.text).toBe(rankeval("--agreement", "-q", a, b).out);
    const pooled = await judge([["judgments-runs", [run1, run2]]], (page) => type(page, "coverage-depth", "1"));
    const pool = rankeval("--pool", "depth:10", "--coverage-depth", "1", run1, run2);
    expect(pooled.coverage).toEqual(coverage(pool.err));
    expect(pooled.coverage.caption).toContain("top 1 covered");
    // -M: each run's top N read, an rrf pool of them.
    const read = await judge([["judgments-runs", [run1, run2]]], async (page) => {
      await type(page, "method", "rrf:60");
      await type(page, "budget", "3");
      await type(page, "pool-depth", "1");
    });
    const top = rankeval("--pool", "rrf:60", "--budget", "3", "-M", "1", run1, run2);
    expect(read.error).toBe("");
    expect(read.downloads.text).toBe(top.out);
    expect(read.downloads.text).not.toBe(rankeval("--pool", "rrf:60", "--budget", "3", run1, run2).out);
    expect(json(read.downloads.json)).toEqual(
      json(rankeval("--pool", "rrf:60", "--budget", "3", "-M", "1", "--format", "json", run1, run2).out),
    );
  }, 60_000);

  /** The command line's --fill holes table on stderr: its title and rows, as coverage's. */
  const holes = (err: string) => coverage(err.slice(err.indexOf("rankeval: --fill:")));

  it("fills the qrels' holes with another set's labels: the page's evaluation and holes as rankeval --fill", async () => {
    const shown = await judge(
      [
        ["judgments-qrels", [a]],
        ["extra", [llm]],
        ["judgments-runs", [run1, run2]],
      ],
      undefined,
      undefined,
      true,
    );
    expect(shown.error).toBe("");
    const cli = rankeval("--fill", llm, a, run1, run2);
    expect(cli.status).toBe(0);
    expect(shown.holes).toEqual(holes(cli.err));
    expect(shown.holes.rows.slice(1).map((r) => r[1])).toEqual(["1", "2"]);
    expect(shown.holes.caption).toContain("1 left out");
    expect(shown.downloads.text).toBe(cli.err.slice(cli.err.indexOf("rankeval: --fill:")));
    expect(shown.downloads.json).toBeUndefined();
    // The filled judgments: the base's rows, then those taken from llm.qrels.
    expect(shown.downloads.qrels).toBe(`${readFileSync(join(dir, a), "utf8")}q1 0 d7 1.5\nq2 0 d7 2.25\nq2 0 d8 1\n`);
    expect(shown.evaluation?.state).toBe("done");
    expect(shown.evaluation?.trec).toBe(cli.out);
    expect(shown.evaluation?.trec).not.toBe(rankeval(a, run1, run2).out);
    // Decimal labels read as trec_eval reads them, said of the filled judgments by the command line's name.
    expect(cli.err).toContain("a.qrels+llm.qrels");
    expect(shown.evaluation?.warnings.join("\n")).toContain("a.qrels+llm.qrels");
  }, 60_000);

  it("counts holes at --fill-depth, and says a bad extra file's error as rankeval --fill does", async () => {
    const inputs: [string, string[]][] = [
      ["judgments-qrels", [a]],
      ["extra", [llm]],
      ["judgments-runs", [run1, run2]],
    ];
    const shallow = await judge(inputs, (page) => type(page, "fill-depth", "1"));
    const cli = rankeval("--fill", llm, "--fill-depth", "1", a, run1, run2);
    expect(cli.status).toBe(0);
    expect(shallow.holes).toEqual(holes(cli.err));
    expect(shallow.holes.caption).toContain("top 1,");
    // Extra labels as CSV: the filled judgments still evaluated as TREC text (named a.qrels+llm.csv.qrels).
    const csv = file("llm.csv", "qid,docid,relevance\nq1,d7,1.5\nq2,d7,2.25\nq2,d8,1\n");
    const fromCsv = await judge(
      [
        ["judgments-qrels", [a]],
        ["extra", [csv]],
        ["judgments-runs", [run1, run2]],
      ],
      undefined,
      undefined,
      true,
    );
    const csvCli = rankeval("--fill", csv, a, run1, run2);
    expect(fromCsv.holes).toEqual(holes(csvCli.err));
    expect(fromCsv.evaluation?.trec).toBe(csvCli.out);
    expect(fromCsv.evaluation?.trec).toBe(rankeval("--fill", llm, a, run1, run2).out);
    const broken = await judge([
      ["judgments-qrels", [a]],
      ["extra", [bad]],
      ["judgments-runs", [run1]],
    ]);
    const refused = rankeval("--fill", bad, a, run1);
    expect(refused.status).toBe(2);
    expect(broken.state).toBe("error");
    expect(broken.error).toBe(refused.err.replace(/^rankeval: /, "").trimEnd());
    expect(broken.error).toMatch(/^bad\.qrels:2:/);
    expect(broken.holes.rows).toEqual([]);
  }, 60_000);

  /** Every cell of a --qrels-compare report in `dir`, opened from disk. */
  async function reportCells(name: string): Promise<string[]> {
    const page = await browser!.newPage();
    try {
      await page.goto(pathToFileURL(join(dir, name)).href);
      await page.waitForFunction(() => document.body.dataset.state !== "loading", undefined, { timeout: 30_000 });
      expect(await page.evaluate(() => document.body.dataset.state)).toBe("done");
      return await page.$$eval("#qrels-compare td", (tds) => tds.map((td) => td.textContent ?? ""));
    } finally {
      await page.close();
    }
  }

  it("shows the systems under two sets as rankeval --qrels-compare prints them, its JSON the same", async () => {
    const shown = await judge([
      ["judgments-qrels", [a, b]],
      ["judgments-runs", [run1, run2, run3]],
    ]);
    expect(shown.error).toBe("");
    const cli = rankeval("--qrels-compare", a, b, run1, run2, run3);
    expect(cli.status).toBe(0);
    expect(shown.compared).toBe(cli.out);
    expect(shown.compared).toContain("kendall_tau");
    expect(shown.downloads.text).toBe(cli.out);
    expect(json(shown.downloads.json)).toEqual(
      json(rankeval("--qrels-compare", "--format", "json", a, b, run1, run2, run3).out),
    );
    // Its HTML report, made on the page: the cells of --qrels-compare --report's.
    expect(rankeval("--qrels-compare", a, b, run1, run2, run3, "--report", "qc-cli.html").status).toBe(0);
    writeFileSync(join(dir, "qc-page.html"), shown.downloads.report);
    const cells = await reportCells("qc-page.html");
    expect(cells).toEqual(await reportCells("qc-cli.html"));
    expect(cells.length).toBeGreaterThan(20);
    const other = await judge(
      [
        ["judgments-qrels", [human, model]],
        ["judgments-runs", [run1, run2]],
      ],
      async (page) => {
        await type(page, "judgments-measures", "P.2 ndcg@3");
        await type(page, "judgments-threshold", "1.5");
        await type(page, "bins", "1,2");
      },
    );
    const argv = [
      "--qrels-compare",
      "-m",
      "P.2",
      "-m",
      "ndcg@3",
      "-l",
      "1.5",
      "--bins",
      "1,2",
      human,
      model,
      run1,
      run2,
    ];
    const told = rankeval(...argv);
    expect(told.status).toBe(0);
    expect(other.compared).toBe(told.out);
    expect(other.notes).toEqual(
      told.err
        .split("\n")
        .filter(Boolean)
        .map((l) => l.replace(/^rankeval: /, "")),
    );
    expect(json(other.downloads.json)).toEqual(
      json(rankeval(...argv.slice(0, 1), "--format", "json", ...argv.slice(1)).out),
    );
  }, 60_000);

  it("says a bad file's error as the command line does, naming the file and line, and shows no values", async () => {
    const shown = await judge([["judgments-qrels", [bad]]]);
    const cli = rankeval("--qrels-stats", bad);
    expect(cli.status).toBe(2);
    expect(shown.state).toBe("error");
    expect(shown.error).toBe(cli.err.replace(/^rankeval: /, "").trimEnd());
    expect(shown.error).toMatch(/^bad\.qrels:2:/);
    expect(shown.values).toEqual([]);
    expect(shown.downloads).toEqual({});
  }, 60_000);
});
