// `rankeval --format ndeval` against what TREC's ndeval itself printed (test/fixtures/ndeval/cases.json,
// written by scripts/ndeval-fixtures.mjs from ndeval 4.5's source, run with -traditional): seeded random
// subtopic collections and hand-made ones (ties in the ideal ranking's greedy choice), byte for byte, in
// every run and in CI, where ndeval is absent. test/ndeval-diff.test.ts compares with ndeval live, on
// more cases, where its source is at hand.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "./_cli.js";

interface Fixture {
  readonly name: string;
  readonly options: string[];
  readonly qrels: string;
  readonly run: string;
  readonly status: number;
  readonly stdout: string;
}

const made: { ndeval: string; cases: Fixture[] } = JSON.parse(
  readFileSync(new URL("./fixtures/ndeval/cases.json", import.meta.url), "utf8"),
);

describe(`rankeval --format ndeval against ndeval ${made.ndeval}'s own outputs`, () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-ndeval-fixtures-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("holds ndeval's successes and its refusals, the hand-made greedy ties among them", () => {
    expect(made.cases.length).toBeGreaterThanOrEqual(50);
    expect(made.cases.filter((c) => c.status === 0).length).toBeGreaterThanOrEqual(50);
    expect(made.cases.some((c) => c.name.startsWith("greedy ideal"))).toBe(true);
  });

  it.each(made.cases.map((c, i) => [c.name, i] as const))("%s", async (_, i) => {
    const c = made.cases[i];
    const qrels = join(dir, `${i}.qrels`);
    const run = join(dir, `${i}.run`);
    writeFileSync(qrels, c.qrels);
    writeFileSync(run, c.run);
    const { status, stdout, stderr } = await cli(["--format", "ndeval", ...c.options, qrels, run]);
    if (c.status !== 0) expect(status, stderr).not.toBe(0);
    else {
      expect(status, stderr).toBe(0);
      expect(stdout).toBe(c.stdout);
    }
  });
});
