// Issue 36 on the page, in Debian's chromium: files dropped take the file inputs' path (the same errors,
// the same job), runs of one name both show, named apart, and a gzip file of several members is read
// whole, as gzip and the command line read it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, launchChromium, servePage } from "../scripts/page.mjs";
import { main } from "../src/node/cli.js";
import { lastColumns } from "./_window.js";

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI)
  console.warn(`test/web-drop.test.ts: skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

describe.skipIf(!haveChromium && !process.env.CI)("the page's drop zone, runs of one name, gzip members", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-web-drop-"));
  const file = (name: string, bytes: string | Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  const qrelsText = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d1 1\nq2 0 d7 0\n";
  const runText = "q1 Q0 d1 1 0.9 A\nq1 Q0 d2 2 0.8 A\nq1 Q0 d3 3 0.7 A\nq2 Q0 d7 1 0.5 A\nq2 Q0 d1 2 0.4 A\n";
  const qrels = file("good.qrels", qrelsText);
  const run = file("a.run", runText);

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

  /** The page opened, `act` done on it, then what it shows once done or in error. */
  async function shown(act: (page: Page) => Promise<void>) {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(site!.url);
      await act(page);
      await page.waitForFunction(() => ["done", "error"].includes(document.body.dataset.state ?? ""), undefined, {
        timeout: 30_000,
      });
      const state = await page.evaluate(() => document.body.dataset.state);
      const error = (await page.textContent("#error")) ?? "";
      const cells = await page.$$eval("#results td[data-measure]", (tds) =>
        tds.map((td) => {
          const d = (td as HTMLElement).dataset;
          return { run: d.run!, measure: d.measure!, text: td.firstChild?.textContent ?? "" };
        }),
      );
      expect(errors).toEqual([]);
      return { state, error, cells };
    } finally {
      await page.close();
    }
  }

  /** The files set on the inputs, as a user chooses them: the qrels, then the runs. */
  const chosen = (qrelsPath: string, runs: string[]) => async (page: Page) => {
    await page.setInputFiles('input[name="qrels"]', [qrelsPath]);
    await page.setInputFiles('input[name="run"]', runs);
  };

  /** The files dropped together on the form, outside the inputs' rows, as a DataTransfer of Files. */
  const dropped = (paths: string[]) => async (page: Page) => {
    const files = paths.map((p) => ({ name: basename(p), bytes: [...readFileSync(p)] }));
    await page.evaluate((files) => {
      const dt = new DataTransfer();
      for (const f of files) dt.items.add(new File([new Uint8Array(f.bytes)], f.name));
      document
        .querySelector("#inputs .hint")!
        .dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, files);
  };

  it("shows a dropped bad qrels file's error as the inputs show it: empty, a PNG's bytes, 3 fields", async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    for (const [folder, bytes] of [
      ["empty", ""],
      ["png", png],
      ["three", "q1 d1 1\nq1 d2 0\n"],
    ] as const) {
      mkdirSync(join(dir, folder));
      const bad = file(join(folder, "qrels.txt"), bytes);
      const byInputs = await shown(chosen(bad, [run]));
      expect(byInputs.state, folder).toBe("error");
      expect(byInputs.error, folder).toMatch(/^qrels\.txt/);
      const byDrop = await shown(dropped([run, bad]));
      expect(byDrop, folder).toEqual(byInputs);
    }
    // Named as nothing, its first line no qrels line: the page has no qrels, so it is taken for them.
    const judgments = file("judgments", "q1 d1 2\nq1 d2 0\n");
    const byInputs = await shown(chosen(judgments, [run]));
    expect(byInputs.error).toMatch(/^judgments/);
    expect(await shown(dropped([judgments, run]))).toEqual(byInputs);
  }, 120_000);

  it("says so when several files dropped are each read as the qrels, and reads none", async () => {
    const other = file("other.qrels", qrelsText);
    const { state, error, cells } = await shown(dropped([qrels, other, run]));
    expect(state).toBe("error");
    expect(error).toContain("good.qrels, other.qrels: each read as a qrels file, and the page reads one");
    expect(cells).toEqual([]);
  }, 60_000);

  it("shows two runs of one file name both, named apart as the command line names them, and compares them", async () => {
    mkdirSync(join(dir, "a"));
    mkdirSync(join(dir, "b"));
    const a = file("a/run.txt", runText);
    const b = file("b/run.txt", "q1 Q0 d2 1 0.9 B\nq1 Q0 d9 2 0.8 B\nq2 Q0 d1 1 0.5 B\n");
    /** The command line's trec_eval text of the run: measure -> value as printed. */
    const want = async (path: string) => {
      let out = "";
      const status = await main([qrels, path], {
        stdout: { write: (s: string) => (out += s) },
        stderr: { write: () => true },
      });
      expect(status).toBe(0);
      return new Map(
        out
          .trim()
          .split("\n")
          .map((l) => l.split("\t"))
          .map(([m, , v]) => [m.trim(), v]),
      );
    };
    for (const act of [chosen(qrels, [a, b]), dropped([qrels, a, b])]) {
      const page = await browser!.newPage();
      try {
        await page.goto(site!.url);
        await act(page);
        await page.waitForFunction(() => document.body.dataset.compare === "done", undefined, { timeout: 30_000 });
        const cells = await page.$$eval("#results td[data-measure]", (tds) =>
          tds.map((td) => [
            (td as HTMLElement).dataset.run!,
            (td as HTMLElement).dataset.measure!,
            td.firstChild?.textContent ?? "",
          ]),
        );
        const column = (run: string) => new Map(cells.filter(([r]) => r === run).map(([, m, t]) => [m, t]));
        expect(new Set(cells.map(([r]) => r))).toEqual(new Set(["run.txt", "run.txt (2)"]));
        expect(column("run.txt")).toEqual(await want(a));
        expect(column("run.txt (2)")).toEqual(await want(b));
        expect(
          await page.$$eval("#comparison tbody tr", (trs) => trs.map((tr) => (tr as HTMLElement).dataset.run)),
        ).toContain("run.txt (2)");
      } finally {
        await page.close();
      }
    }
  }, 60_000);

  it("keeps the comparison's and the per-query table's last columns in a 1440 and a 1280 px window", async () => {
    // Two runs of long names, both in the per-query table, under five measures.
    const names = ["bm25-rm3-monot5-msmarco-passage-dev.run", "splade-pp-ensemble-distil-rerank-dev.run"];
    const runs = names.map((n, i) => file(n, readFileSync(join("examples", ["bm25.run", "rerank.run"][i]))));
    for (const width of [1440, 1280]) {
      const page = await browser!.newPage({ viewport: { width, height: 900 } });
      try {
        await page.goto(site!.url);
        await page.selectOption('#settings select[name="preset"]', "custom");
        await page.fill('#settings input[name="measures"]', "ndcg@10 map P@10 recall@100 mrr");
        await chosen("examples/qrels.txt", runs)(page);
        await page.waitForFunction(() => document.body.dataset.compare === "done", undefined, { timeout: 30_000 });
        await page.selectOption("#pq-runs", names);
        expect(await lastColumns(page), `at ${width} px`).toEqual([
          { table: "comparison", inWindow: true, scrolls: false },
          { table: "perquery", inWindow: true, scrolls: false },
        ]);
      } finally {
        await page.close();
      }
    }
  }, 60_000);

  describe("a gzip file of several members (cat a.gz b.gz), read as gzip and the command line read it", () => {
    /** A run of `n` lines over 50 queries (about 30 bytes a line), judged by `judged`. */
    const many = (n: number) => {
      const lines: string[] = [];
      for (let i = 0; i < n; i++) lines.push(`q${i % 50} Q0 d${i} ${1 + Math.floor(i / 50)} ${(n - i) / n} big`);
      return `${lines.join("\n")}\n`;
    };
    const judged = file(
      "many.qrels",
      Array.from({ length: 50 }, (_, q) =>
        [0, 3, 100, 1500].map((k, j) => `q${q} 0 d${q + 50 * k} ${j % 3}`).join("\n"),
      ).join("\n"),
    );
    /** `text` cut into members at `cuts` (offsets into it), each member gzipped alone. */
    const members = (text: string, cuts: number[], level = 6) => {
      const bytes = Buffer.from(text);
      const at = [0, ...cuts, bytes.length];
      return Buffer.concat(at.slice(1).map((end, i) => gzipSync(bytes.subarray(at[i], end), { level })));
    };
    /** The cells of the file chosen as the run, beside those of its text uncompressed. */
    const both = async (qrelsPath: string, name: string, gz: Uint8Array, text: string) => {
      const plain = await shown(chosen(qrelsPath, [file(name.replace(/\.gz$/, ""), text)]));
      expect(plain.state, plain.error).toBe("done");
      const read = await shown(chosen(qrelsPath, [file(name, gz)]));
      return { plain: plain.cells.map(({ measure, text }) => [measure, text]), read };
    };

    it("reads every member: two, an empty one, many across the stream's chunks, one whose bytes hold 1f 8b 08", async () => {
      const big = many(100_000);
      const odd = `# \x1f\x8b\x08\x00 a member's start inside a member\n${runText}`;
      const cases: [string, string, string, Uint8Array][] = [
        ["two.run.gz", qrels, runText, members(runText, [runText.indexOf("q2")])],
        ["empty-second.run.gz", qrels, runText, members(runText, [runText.length])],
        ["empty-first.run.gz", qrels, runText, members(runText, [0])],
        [
          "many.run.gz",
          judged,
          big,
          members(big, [1, 70_000, 65_536 * 3, 400_000, 400_030, 2_000_000, big.length - 1]),
        ],
        // Stored (level 0): the member's bytes hold its text, 1f 8b 08 among them.
        ["odd.run.gz", qrels, odd, members(odd, [odd.length - 20], 0)],
      ];
      for (const [name, q, text, gz] of cases) {
        const { plain, read } = await both(q, name, gz, text);
        expect(read.state, name).toBe("done");
        expect(read.error, name).toBe("");
        expect(new Set(read.cells.map((c) => c.run)), name).toEqual(new Set([name]));
        expect(
          read.cells.map(({ measure, text }) => [measure, text]),
          name,
        ).toEqual(plain);
      }
    }, 240_000);

    it("leaves zero bytes after the last member, as gzip does, and says junk after it is not valid gzip, naming the file", async () => {
      const two = members(runText, [runText.indexOf("q2")]);
      const padded = await both(qrels, "padded.run.gz", Buffer.concat([two, Buffer.alloc(1000)]), runText);
      expect(padded.read.state).toBe("done");
      expect(padded.read.cells.map(({ measure, text }) => [measure, text])).toEqual(padded.plain);
      for (const [name, tail] of [
        ["junk.run.gz", Buffer.from("hello junk")],
        ["junk-zeros.run.gz", Buffer.from("junk\0\0\0\0")],
        ["cut.run.gz", gzipSync(runText).subarray(0, 12)],
      ] as const) {
        const { state, error, cells } = await shown(chosen(qrels, [file(name, Buffer.concat([two, tail]))]));
        expect(state, name).toBe("error");
        expect(error, name).toMatch(new RegExp(`^${name.replaceAll(".", "\\.")}: not valid gzip \\(.+\\)$`));
        expect(cells, name).toEqual([]);
      }
    }, 120_000);
  });
});
