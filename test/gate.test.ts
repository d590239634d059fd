// --compare --gate (src/compare/gate.ts): exit 3 only where a run is worse than its baseline by more
// than the budget and significantly so; the Markdown says why, --junit writes JUnit XML.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "./_cli.js";

const ex = (f: string) => join(__dirname, "..", "examples", f);
const dir = mkdtempSync(join(tmpdir(), "rankeval-gate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe("--compare --gate", () => {
  it("passes a run better than its baseline: exit 0, each gate said", async () => {
    const r = await cli([
      "--compare",
      "-m",
      "ndcg_cut.10",
      "--gate",
      "ndcg_cut.10>=-0.01",
      ex("qrels.txt"),
      ex("bm25.run"),
      ex("rerank.run"),
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/## rankeval gate: pass \(1\)/);
    expect(r.stdout).toMatch(
      /\| `ndcg_cut\.10>=-0\.01` \| .*rerank\.run \| .*bm25\.run \| 0\.7166 \| 0\.9038 \| \+0\.1872 \[0\.1150, 0\.2595\] \| 3\.1e-5 \| pass \|/,
    );
  });

  it("fails a run significantly worse by more than the budget: exit 3, why, the queries lost most, JUnit XML", async () => {
    const junit = join(dir, "gate.xml");
    const r = await cli([
      "--compare",
      "-m",
      "ndcg_cut.10",
      "-m",
      "map",
      "--gate",
      "ndcg_cut_10>=-0.05",
      "--gate",
      "map>=-0.5",
      "--junit",
      junit,
      ex("qrels.txt"),
      ex("rerank.run"),
      ex("bm25.run"),
    ]);
    expect(r.status, r.stderr).toBe(3);
    expect(r.stdout).toMatch(/## rankeval gate: FAIL \(1 of 2\)/);
    expect(r.stdout).toMatch(
      /\| `ndcg_cut_10>=-0\.05` \| .*bm25\.run \| .*rerank\.run \| 0\.9038 \| 0\.7166 \| -0\.1872 .* \| \*\*fail\*\* \|/,
    );
    // Within the budget: passes, however significant.
    expect(r.stdout).toMatch(/\| `map>=-0\.5` \| .* \| pass \|/);
    expect(r.stdout).toMatch(/bm25\.run on ndcg_cut_10: the queries lost most: q11 \(-0\.5121\), q12 \(-0\.3943\)/);
    const xml = readFileSync(junit, "utf8");
    expect(xml).toMatch(/<testsuite name="rankeval gate" tests="2" failures="1">/);
    expect(xml).toMatch(
      /<failure message="ndcg_cut_10: -0\.1872 \(0\.9038 -&gt; 0\.7166\), below -0\.05, p = 3\.1e-5 \(t\)"\/>/,
    );
    expect(xml).toMatch(
      /<testcase classname="rankeval.gate" name="map&gt;=-0\.5: .*bm25\.run against .*rerank\.run"\/>/,
    );
  });

  it("passes a drop past the budget that the queries cannot tell from chance: exit 0, said so", async () => {
    // Four queries: the run loses much on one, gains a little on the others.
    const qrels = file("q.txt", ["1 0 a 1", "1 0 b 0", "2 0 a 1", "3 0 a 1", "4 0 a 1"].join("\n") + "\n");
    const base = file(
      "base.run",
      [
        "1 Q0 a 1 2 b",
        "1 Q0 b 2 1 b",
        "2 Q0 x 1 2 b",
        "2 Q0 a 2 1 b",
        "3 Q0 x 1 2 b",
        "3 Q0 a 2 1 b",
        "4 Q0 x 1 2 b",
        "4 Q0 a 2 1 b",
      ].join("\n") + "\n",
    );
    const run = file(
      "new.run",
      [
        "1 Q0 b 1 2 n",
        "1 Q0 c 2 1 n",
        "2 Q0 a 1 2 n",
        "2 Q0 x 2 1 n",
        "3 Q0 x 1 2 n",
        "3 Q0 a 2 1 n",
        "4 Q0 x 1 2 n",
        "4 Q0 a 2 1 n",
      ].join("\n") + "\n",
    );
    const r = await cli(["--compare", "-m", "recip_rank", "--gate", "recip_rank>=-0.01", qrels, base, run]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\| -0\.1250 .* \| pass \(not significant\) \|/);
  });

  it.each([
    [["--gate", "ndcg"], /--gate "ndcg": expected MEASURE>=BOUND/],
    [["--gate", "map>=0.1"], /--gate "map>=0.1": the bound is a budget, 0 or below/],
    [
      ["--gate", "P.5>=-0.1"],
      /--gate P\.5>=-0\.1: P\.5 is not among the measures compared \(map\); give one of those, or add it with -m/,
    ],
  ])("refuses %j with a usage error", async (gate, message) => {
    const r = await cli(["--compare", "-m", "map", ...gate, ex("qrels.txt"), ex("bm25.run"), ex("rerank.run")]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(message);
  });

  it("keeps JSON one document on standard output: the reasons on standard error", async () => {
    const r = await cli([
      "--compare",
      "--format",
      "json",
      "-m",
      "map",
      "--gate",
      "map>=-0.01",
      ex("qrels.txt"),
      ex("rerank.run"),
      ex("bm25.run"),
    ]);
    expect(r.status).toBe(3);
    expect(JSON.parse(r.stdout).comparisons).toHaveLength(1);
    expect(r.stderr).toMatch(/## rankeval gate: FAIL \(1 of 1\)/);
  });

  it("needs --compare, and a --junit file it can write", async () => {
    const r = await cli(["--gate", "map>=-0.1", ex("qrels.txt"), ex("bm25.run")]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/--gate needs --compare/);
    const w = await cli([
      "--compare",
      "-m",
      "map",
      "--gate",
      "map>=-0.1",
      "--junit",
      dir,
      ex("qrels.txt"),
      ex("bm25.run"),
      ex("rerank.run"),
    ]);
    expect(w.status).toBe(2);
    expect(w.stderr).toMatch(/--junit .*: cannot write it \(EISDIR\)/);
  });
});
