// Runs of one name told apart (issue 36): the one rule of the command line's outputs and the page's columns.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { namesApart } from "../src/output/run-names.js";
import { cli } from "./_cli.js";

describe("namesApart", () => {
  it("leaves names given once as they are", () => {
    expect(namesApart(["a/run.txt", "b/run.txt", "fused(rrf)"])).toEqual(["a/run.txt", "b/run.txt", "fused(rrf)"]);
  });

  it("numbers a name given again, the first kept, past numbers taken by other runs", () => {
    expect(namesApart(["run.txt", "run.txt", "run.txt"])).toEqual(["run.txt", "run.txt (2)", "run.txt (3)"]);
    expect(namesApart(["run.txt", "run.txt (2)", "run.txt"])).toEqual(["run.txt", "run.txt (2)", "run.txt (3)"]);
    expect(namesApart(["x", "run.txt", "x", "run.txt"])).toEqual(["x", "run.txt", "x (2)", "run.txt (2)"]);
  });

  it("tells runs of one name by their folders where each has one and they differ, else numbers them", () => {
    expect(namesApart(["run.txt", "run.txt", "b.run"], ["a/run.txt", "b/run.txt", "x/b.run"])).toEqual([
      "a/run.txt",
      "b/run.txt",
      "b.run",
    ]);
    expect(namesApart(["run.txt", "run.txt"], ["a/run.txt", undefined])).toEqual(["run.txt", "run.txt (2)"]);
    expect(namesApart(["run.txt", "run.txt"], ["a/run.txt", "a/run.txt"])).toEqual(["run.txt", "run.txt (2)"]);
  });
});

describe("the command line's runs of one name", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-run-names-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const qrels = file("qrels.txt", "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 1\n");
  // One run tag (column 6) in both: TREC text names a run by its file, its tag in trec_eval's runid.
  const a = file("a/run.txt", "q1 Q0 d1 1 3 tag\nq1 Q0 d2 2 2 tag\nq2 Q0 d3 1 1 tag\n");
  const b = file("b/run.txt", "q1 Q0 d2 1 3 tag\nq1 Q0 d1 2 2 tag\nq2 Q0 d9 1 1 tag\n");
  const run = (...argv: string[]) => cli(["-m", "ndcg@10", ...argv]);

  it("names runs of one file name in two folders by their paths, as given", async () => {
    const table = await run("--format", "table", qrels, a, b);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout.split("\n")[0].split(/\s{2,}/)).toEqual(["measure", a, b]);
    const json = JSON.parse((await run("--format", "json", qrels, a, b)).stdout) as { runs: { run: string }[] };
    expect(json.runs.map((r) => r.run)).toEqual([a, b]);
  });

  it("names one file given twice apart in the table, JSON and CSV, as the page does; trec_eval's text as trec_eval's", async () => {
    const table = await run("--format", "table", qrels, a, a);
    expect(table.stdout.split("\n")[0].split(/\s{2,}/)).toEqual(["measure", a, `${a} (2)`]);
    const json = JSON.parse((await run("--format", "json", qrels, a, a)).stdout) as {
      runs: { run: string; runTag: string }[];
    };
    expect(json.runs.map((r) => [r.run, r.runTag])).toEqual([
      [a, "tag"],
      [`${a} (2)`, "tag"],
    ]);
    const csv = (await run("--format", "csv", qrels, a, a)).stdout.trim().split("\n").slice(1);
    expect(csv.map((l) => l.split(",")[0])).toEqual([a, `${a} (2)`]);
    // trec_eval's text: each run after `==> FILE <==` as head prints it, its runid the tag as it is.
    const trec = await cli(["-m", "ndcg_cut.10", "-m", "runid", qrels, a, a]);
    expect(trec.stdout.match(/^==> .* <==$/gm)).toEqual([`==> ${a} <==`, `==> ${a} <==`]);
    expect(trec.stdout.match(/^runid.*$/gm)).toEqual([
      "runid                 \tall\ttag",
      "runid                 \tall\ttag",
    ]);
  });
});
