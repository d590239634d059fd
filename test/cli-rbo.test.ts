// rankeval --rbo RUN RUN (rank-biased overlap per query, as trec_eval -q prints a measure) and
// --compare --correlation (how each pair of measures orders the runs), on runs worked by hand; in
// process (test/_cli.ts) and through the built binary (its bundle loads what they need); their errors.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "./_cli.js";

const dir = mkdtempSync(join(tmpdir(), "rankeval-rbo-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
/** TREC run lines of `docs` (best first) for query `q`. */
const lines = (q: string, docs: string[], tag = "r") =>
  docs.map((d, i) => `${q} Q0 ${d} ${i + 1} ${docs.length - i} ${tag}\n`).join("");

const bin = new URL("../dist/node/bin.js", import.meta.url).pathname;
const binary = (argv: string[]) => {
  const r = spawnSync(process.execPath, [bin, ...argv], { cwd: dir });
  return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
};

// q1: a b c against b a d (0.63, test/rbo.test.ts works it); q2: a b against b c a d (0.65925); q3 in A only (0).
const A = file("a.run", lines("q1", ["a", "b", "c"]) + lines("q2", ["a", "b"]) + lines("q3", ["x"]));
const B = file("b.run", lines("q1", ["b", "a", "d"]) + lines("q2", ["b", "c", "a", "d"]));
const MEAN = (0.63 + 0.65925 + 0) / 3;

describe("rankeval --rbo", () => {
  it("prints each query's RBO and the mean as trec_eval -q prints a measure", async () => {
    const r = await cli(["--rbo", A, B]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      "rbo                   \tq1\t0.6300\n" +
        "rbo                   \tq2\t0.6593\n" /* 0.65925 as a double is a hair above */ +
        "rbo                   \tq3\t0.0000\n" +
        `rbo                   \tall\t${MEAN.toFixed(4)}\n`,
    );
  });

  it("takes --rbo-p and prints JSON with --format json", async () => {
    const r = await cli(["--rbo", "--rbo-p", "0.5", "--format", "json", A, B]);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.p).toBe(0.5);
    expect(json.runs).toEqual([A, B]);
    expect(json.qids).toEqual(["q1", "q2", "q3"]);
    // q1 at p = 0.5: 0.5 (0 + 0.5 + 0.25 * 2/3) + 0.125 * 2/3.
    expect(json.values[0]).toBeCloseTo(0.5 * (0.5 + 0.25 * (2 / 3)) + 0.125 * (2 / 3), 14);
    expect(json.values[2]).toBe(0);
    expect(json.mean).toBeCloseTo((json.values[0] + json.values[1]) / 3, 14);
  });

  it("reads runs in the other formats (--input-format)", async () => {
    const a = file("a.json", JSON.stringify({ q1: { a: 3, b: 2, c: 1 } }));
    const b = file("b.json", JSON.stringify({ q1: { b: 3, a: 2, d: 1 } }));
    const r = await cli(["--rbo", a, b]);
    expect(r.stdout).toBe("rbo                   \tq1\t0.6300\nrbo                   \tall\t0.6300\n");
  });

  it("works from the built command (its code in the bundle's --compare file)", () => {
    const r = binary(["--rbo", A, B]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain(`rbo                   \tall\t${MEAN.toFixed(4)}\n`);
  });

  it("says what is wrong with the command line (exit 1) and with the runs (exit 2)", async () => {
    const usage = async (argv: string[], message: string) => {
      const r = await cli(argv);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(`rankeval: ${message}\n(rankeval --help for usage)\n`);
    };
    await usage(["--rbo", A], "--rbo compares two runs: give RUN RUN (got one file)");
    await usage(["--rbo", A, B, A], "--rbo compares two runs: give RUN RUN (got 3 files)");
    await usage(["--rbo-p", "0.5", A, B], "--rbo-p needs --rbo RUN RUN");
    await usage(["--rbo", "--rbo-p", "1", A, B], '--rbo-p: "1" is not a number between 0 and 1');
    await usage(
      ["--rbo", "-m", "map", A, B],
      "-m has no meaning with --rbo (it compares two runs' rankings: no judgments, no measures)",
    );
    await usage(
      ["--rbo", "--compare", A, B],
      "--compare has no meaning with --rbo (it compares two runs' rankings: no judgments, no measures)",
    );
    await usage(
      ["--rbo", "--format", "csv", A, B],
      "--rbo prints trec_eval's text (--format trec, the default) or --format json, not csv",
    );
    const other = file("other.run", lines("Q1", ["a"]));
    const r = await cli(["--rbo", A, other]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      `rankeval: rbo: ${A} and ${other} have no query in common (${A}: "q1", "q2", "q3"; ${other}: "Q1"): are the ids written alike?\n`,
    );
    const twice = file("twice.run", "q1 Q0 a 1 2 r\nq1 Q0 a 2 1 r\n");
    const t = await cli(["--rbo", A, twice]);
    expect(t.status).toBe(2);
    expect(t.stderr).toBe(`rankeval: ${twice}:2: document "a" appears twice in query "q1"\n`);
  });
});

describe("rankeval --compare --correlation", () => {
  // One query, two relevant documents (a, b). AP and P@2 of each run:
  //   r1 a b: 1, 1;  r2 a x b: 0.8333, 0.5;  r5 a x y z b: 0.7, 0.5;  r3 x a b: 0.5833, 0.5;  r4 x y a b: 0.4167, 0.
  // map orders r1 r2 r5 r3 r4; P_2 ties r2, r3, r5. tau_b: 7 pairs agree, 3 tied in P_2 of 10: 7 / sqrt(10 * 7).
  // tau_AP with map the reference: P_2's tied group at ranks 2-4 (each under r1, which map puts above it:
  // 3 * (1/1 + 1/2 + 1/3) / 3 = 11/6), its own pairs (1/2 / 2 + 2/2 / 3 = 7/12), r4 under all four (4/4):
  // 2/4 (11/6 + 7/12 + 1) - 1 = 17/24. With P_2 the reference (it ties runs): NaN.
  const qrels = file("qrels", "q1 0 a 1\nq1 0 b 1\n");
  const runs = [
    ["r1", ["a", "b"]],
    ["r2", ["a", "x", "b"]],
    ["r3", ["x", "a", "b"]],
    ["r4", ["x", "y", "a", "b"]],
    ["r5", ["a", "x", "y", "z", "b"]],
  ].map(([name, docs]) => file(`${name}.run`, lines("q1", docs as string[], name as string)));
  const argv = ["--compare", "--correlation", "--test", "t", "-m", "map", "-m", "P.2", qrels, ...runs];

  it("prints after the comparison's table how each pair of measures orders the runs", async () => {
    const r = await cli(argv);
    expect(r.status, r.stderr).toBe(0);
    const plain = await cli(argv.filter((a) => a !== "--correlation"));
    expect(r.stdout.startsWith(plain.stdout)).toBe(true);
    expect(r.stdout.slice(plain.stdout.length)).toBe(
      "\n" +
        "measure A  measure B   tau_b  tau_AP (A ref)  tau_AP (B ref)\n" +
        `map        P_2        ${Math.sqrt(0.7).toFixed(4)}          ${(17 / 24).toFixed(4)}             NaN\n` +
        "\n" +
        "How the measures order the 5 runs by their means: Kendall's tau_b, and tau_AP (Yilmaz et al. 2008: swaps " +
        "near the top weigh more) with measure A's order the reference, then B's; NaN where a reference ties runs\n",
    );
  });

  it("in Markdown and in JSON", async () => {
    const md = await cli([...argv, "--format", "markdown"]);
    expect(md.stdout).toContain(
      "\n| measure A | measure B | tau_b | tau_AP (A ref) | tau_AP (B ref) |\n|---|---|---:|---:|---:|\n" +
        `| map | P_2 | ${Math.sqrt(0.7).toFixed(4)} | ${(17 / 24).toFixed(4)} | NaN |\n`,
    );
    const json = JSON.parse((await cli([...argv, "--format", "json"])).stdout);
    expect(json.comparisons.length).toBe(8);
    expect(json.correlations.length).toBe(1);
    expect(json.correlations[0].measures).toEqual(["map", "P_2"]);
    expect(json.correlations[0].tau).toBeCloseTo(Math.sqrt(0.7), 14);
    expect(json.correlations[0].tauAP.map).toBeCloseTo(17 / 24, 14);
    expect(json.correlations[0].tauAP.P_2).toBe(null);
  });

  it("works from the built command", () => {
    const r = binary(argv);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`map        P_2        ${Math.sqrt(0.7).toFixed(4)}`);
  });

  it("needs two measures, a format it prints in, and --compare", async () => {
    let r = await cli(["--compare", "--correlation", "-m", "map", qrels, ...runs]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "rankeval: --correlation says how measures order the runs: give two measures or more (-m), not only map\n",
    );
    r = await cli([...argv, "--format", "csv"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("rankeval: --correlation prints with --format table, markdown or json, not csv\n");
    r = await cli(["--correlation", "-m", "map", "-m", "P.2", qrels, ...runs]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("rankeval: --correlation needs --compare\n");
  });
});
