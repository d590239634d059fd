// The interval beside each mean (Result.interval, src/pipeline/interval.ts): Student's t against scipy's
// t.interval (fixtures made by scripts/interval-fixtures.py from Debian's python3-scipy), the bootstrap
// against the plain-TypeScript resampler of the tests (the kernel's stream, drawn again), and the calls.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluate, evaluateRun } from "../src/index.js";
import { tInterval, intervalsOf } from "../src/pipeline/interval.js";
import { quantileSorted } from "../src/stats/numeric.js";
import { referenceBootstrapMeans } from "./_resampling-reference.js";
import { cli } from "./_cli.js";

const fixtures = JSON.parse(readFileSync(new URL("./fixtures/interval/cases.json", import.meta.url), "utf8")) as {
  cases: { values: (number | null)[]; level: number; interval: [number, number] }[];
};
const column = (values: (number | null)[]) => Float64Array.from(values, (v) => (v === null ? NaN : v));

/** Rows of queries q0..q{n-1}, each one relevant document at rank `ranks[q]` among 5: RR = 1 / rank. */
function rows(ranks: number[]) {
  const qid: string[] = [];
  const score: number[] = [];
  const rel: number[] = [];
  ranks.forEach((r, q) => {
    for (let i = 1; i <= 5; i++) {
      qid.push(`q${q}`);
      score.push(10 - i);
      rel.push(i === r ? 1 : 0);
    }
  });
  return { qid, score, rel };
}

describe("the t interval, as scipy.stats.t.interval(level, n - 1, mean, sem)", () => {
  it(`equals scipy's to 1e-9 on ${fixtures.cases.length} cases (NaN values skipped)`, () => {
    for (const c of fixtures.cases) {
      const [lo, hi] = tInterval(column(c.values), c.level);
      const what = `level ${c.level}, ${c.values.length} values`;
      expect(Math.abs(lo - c.interval[0]), what).toBeLessThan(1e-9);
      expect(Math.abs(hi - c.interval[1]), what).toBeLessThan(1e-9);
    }
  });

  it("is the evaluation's result.interval, for every mean, at the level asked", () => {
    const r = evaluate(rows([1, 2, 5, 1, 3, 4, 2]), ["mrr", "P@1", "ndcg@3"]);
    for (const m of r.measures) expect(r.interval[m]).toEqual(tInterval(r.values[m]));
    // mrr: 1, 1/2, 1/5, 1, 1/3, 1/4, 1/2; worked with scipy: t.interval(0.95, 6, mean, sem).
    expect(r.interval.mrr[0]).toBeCloseTo(0.2316992, 6);
    expect(r.interval.mrr[1]).toBeCloseTo(0.8492532, 6);
    const r90 = evaluate(rows([1, 2, 5, 1, 3, 4, 2]), ["mrr"], { interval: { level: 0.9 } });
    expect(r90.interval.mrr).toEqual(tInterval(r90.values.mrr, 0.9));
    expect(r90.interval.mrr[1] - r90.interval.mrr[0]).toBeLessThan(r.interval.mrr[1] - r.interval.mrr[0]);
  });

  it("is NaN under 2 queries, the point where every query scores the same, absent for sums", () => {
    expect(evaluate(rows([2]), ["mrr"]).interval.mrr).toEqual([NaN, NaN]);
    expect(evaluate(rows([2, 2, 2]), ["mrr"]).interval.mrr).toEqual([0.5, 0.5]);
    const sums = evaluateRun({ q: { a: 1 }, r: { b: 1 } }, { q: { a: 1, c: 0.5 }, r: { b: 1 } }, ["NumRet", "map"]);
    expect(sums.mean.NumRet).toBe(3); // ir_measures sums NumRet
    expect(Object.keys(sums.interval)).toEqual(["map"]);
  });

  it("skips the queries that do not count (NaN), as the mean does", () => {
    const r = evaluate(rows([1, 2, 0, 3]), ["mrr"], { noRelevant: "skip" });
    expect(r.counted.mrr).toBe(3);
    expect(r.interval.mrr).toEqual(tInterval([1, 0.5, 1 / 3]));
  });
});

describe("the bootstrap percentile interval", () => {
  const ranks = [1, 2, 5, 1, 3, 4, 2, 1, 1, 5, 2, 3];
  it("is the level's percentiles of the resampled means, the kernel's resamples as the reference draws them", () => {
    const r = evaluate(rows(ranks), ["mrr", "P@2"], { interval: { method: "bootstrap", samples: 400, seed: 7 } });
    for (const m of r.measures) {
      // The kernel adds each resample's values in blocks: the same sums to the last bits or so.
      const means = referenceBootstrapMeans(r.values[m], 400, 7).sort();
      expect(r.interval[m][0]).toBeCloseTo(quantileSorted(means, 0.025), 12);
      expect(r.interval[m][1]).toBeCloseTo(quantileSorted(means, 0.975), 12);
    }
  });

  it("is the same for a measure whatever else is asked, and the same again for the same seed", () => {
    const opts = { interval: { method: "bootstrap" as const, samples: 300, seed: 11, level: 0.8 } };
    const alone = evaluate(rows(ranks), ["mrr"], opts).interval.mrr;
    expect(evaluate(rows(ranks), ["P@1", "mrr", "ndcg@3"], opts).interval.mrr).toEqual(alone);
    expect(evaluate(rows(ranks), ["mrr"], { interval: { ...opts.interval, seed: 12 } }).interval.mrr).not.toEqual(
      alone,
    );
  });

  it("resamples only the queries that count, by measure", () => {
    const values = { a: Float64Array.of(1, NaN, 0.5, 0.25, 0), b: Float64Array.of(1, 0.2, 0.5, 0.25, 0) };
    const settings = { level: 0.95, method: "bootstrap" as const, samples: 200, seed: 3 };
    const got = intervalsOf(values, () => "mean", settings);
    const a = referenceBootstrapMeans([1, 0.5, 0.25, 0], 200, 3).sort();
    expect(got.a[0]).toBeCloseTo(quantileSorted(a, 0.025), 12);
    expect(got.a[1]).toBeCloseTo(quantileSorted(a, 0.975), 12);
    expect(got.b).toEqual(intervalsOf({ b: values.b }, () => "mean", settings).b);
  });
});

describe("options.interval", () => {
  it.each([
    [{ levl: 0.9 }, /interval: unknown option "levl" \(did you mean level\?\)/],
    [{ level: 95 }, /interval: level must be a number between 0 and 1, not 95/],
    [{ method: "bca" }, /interval: method must be "t" or "bootstrap", not "bca"/],
    [{ method: "bootstrap", samples: 0 }, /samples must be an integer from 1 to 10000000, not 0/],
    [{ samples: 100 }, /samples and seed are the bootstrap's: give method: "bootstrap"/],
    ["0.9", /interval: options must be an object/],
  ])("refuses %j", (interval, message) => {
    expect(() => evaluate(rows([1, 2]), ["mrr"], { interval } as never)).toThrow(message);
  });
});

describe("--interval on the command line", () => {
  const examples = new URL("../examples/", import.meta.url).pathname;
  const files = [`${examples}qrels.txt`, `${examples}bm25.run`];
  const evaluated = () =>
    evaluateRun(
      Object.fromEntries(
        readFileSync(files[0], "utf8")
          .trim()
          .split("\n")
          .map((l) => l.split(/\s+/))
          .reduce(
            (m, [q, , d, r]) => m.set(q, { ...m.get(q), [d]: Number(r) }),
            new Map<string, Record<string, number>>(),
          ),
      ),
      Object.fromEntries(
        readFileSync(files[1], "utf8")
          .trim()
          .split("\n")
          .map((l) => l.split(/\s+/))
          .reduce(
            (m, [q, , d, , s]) => m.set(q, { ...m.get(q), [d]: Number(s) }),
            new Map<string, Record<string, number>>(),
          ),
      ),
      ["map"],
    );

  it("prints (lo, hi) after each mean in the table, and says the interval under it", async () => {
    const { status, stdout } = await cli(["--interval", "0.9", "-m", "map", ...files]);
    expect(status).toBe(0);
    const [lo, hi] = tInterval(evaluated().values.map, 0.9);
    expect(stdout).toContain(`0.7570 (${lo.toFixed(4)}, ${hi.toFixed(4)})`);
    expect(stdout).toContain("(lo, hi): each mean's 90% t interval over the queries that count");
  });

  it("gives lo and hi columns in CSV, the bootstrap's under --seed, and every mean's interval in JSON", async () => {
    const csv = (await cli(["--interval", "bootstrap", "--seed", "3", "--format", "csv", "-m", "map", ...files]))
      .stdout;
    const [header, row] = csv.trim().split("\n");
    expect(header).toBe("run,qid,measure,value,lo,hi,conventions");
    // The command line lists queries in trec_eval's (byte) order, and the resamples pick by position.
    const r = evaluated();
    const order = r.qids.map((q, i) => [q, i] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const sorted = { map: Float64Array.from(order, ([, i]) => r.values.map[i]) };
    const want = intervalsOf(sorted, () => "mean", { level: 0.95, method: "bootstrap", samples: 10000, seed: 3 });
    expect(row.split(",").slice(4, 6).map(Number)).toEqual(want.map);
    const json = JSON.parse((await cli(["--format", "json", "-m", "map", ...files])).stdout);
    expect(json.interval).toBe("95% t interval");
    expect(json.runs[0].interval.map).toEqual(tInterval(sorted.map));
  });

  it("leaves trec_eval's text alone, and refuses what has no place for it", async () => {
    const plain = await cli(["-m", "map", ...files]);
    expect(plain.stdout).toMatch(/^map\s+all\s+0\.7570\n$/);
    for (const [args, message] of [
      [
        ["--interval", "0.9", "--format", "trec"],
        /--interval prints \(lo, hi\) beside each mean, which trec_eval's text/,
      ],
      [["--interval", "95"], /--interval: "95" is not a level between 0 and 1/],
      [["--interval", "bca"], /--interval: "bca" is not a level between 0 and 1/],
      [["--interval", "bca:0.9"], /--interval: "bca" is not "t" or "bootstrap"/],
      [["--seed", "3"], /--seed needs --compare/],
    ] as const) {
      const r = await cli([...args, "-m", "map", ...files]);
      expect(r.status, args.join(" ")).toBe(1);
      expect(r.stderr).toMatch(message);
    }
  });
});
