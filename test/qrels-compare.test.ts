// qrelsCompare and rankeval --qrels-compare (issue 38): the library is evaluateRun under each set of
// judgments, systemCorrelation of the systems' means and agreement of the two sets, composed by hand
// here on random data; the command line's JSON is the library's on the same files, its text shows the
// same numbers; usage errors.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { qrelsCompare } from "../src/index.js";
import { systemCorrelation } from "../src/compare/correlation.js";
import { agreement } from "../src/judgments/agreement.js";
import { evaluateRun } from "../src/pipeline/evaluate.js";
import { cli } from "./_cli.js";
import { type IdValues, qrelsText, runText } from "./_trec-text.js";

function mulberry32(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Two sets of judgments (B: A's labels, some changed, some dropped, some added) and `n` runs. */
function randomData(seed: number, queries: number, docs: number, n: number) {
  const r = mulberry32(seed);
  const A: IdValues = {};
  const B: IdValues = {};
  const runs: IdValues[] = Array.from({ length: n }, () => ({}));
  for (let q = 0; q < queries; q++) {
    const qid = `q${q}`;
    A[qid] = {};
    B[qid] = {};
    for (let d = 0; d < docs; d++) {
      const docid = `d${d}`;
      if (r() < 0.6) {
        const label = Math.floor(r() * 4);
        A[qid][docid] = label;
        const u = r();
        if (u < 0.7) B[qid][docid] = label;
        else if (u < 0.9) B[qid][docid] = Math.floor(r() * 4);
      } else if (r() < 0.2) B[qid][docid] = Math.floor(r() * 4);
      for (const run of runs) if (r() < 0.8) (run[qid] ??= {})[docid] = Math.round(r() * 1000) / 100;
    }
  }
  return { A, B, runs };
}

const orNull = (x: number) => (Number.isNaN(x) ? null : x);

/** The library's object, each measure's why_null checked (it names the null values) and dropped. */
function withoutWhy(c: ReturnType<typeof qrelsCompare>) {
  const by_measure = Object.fromEntries(
    Object.entries(c.by_measure).map(([k, { why_null, ...m }]) => {
      const nulls = (["kendall_tau", "tau_ap", "tau_ap_b"] as const).filter((key) => m[key] === null);
      expect(Object.keys(why_null ?? {}).sort()).toEqual(nulls.sort());
      return [k, m];
    }),
  );
  return { ...c, by_measure };
}

const composed = (
  A: IdValues,
  B: IdValues,
  runs: Record<string, IdValues>,
  measures: string[],
  options: { relevanceThreshold?: number; bins?: number[] } = {},
) => {
  const { bins, ...evaluation } = options;
  const { per_query: _, ...summary } = agreement([A, B], {
    threshold: evaluation.relevanceThreshold ?? 1,
    ...(bins ? { bins } : {}),
  });
  const names = Object.keys(runs);
  const ra = names.map((n) => evaluateRun(A, runs[n], measures, evaluation));
  const rb = names.map((n) => evaluateRun(B, runs[n], measures, evaluation));
  const keys = ra[0].measures;
  const by_measure = Object.fromEntries(
    keys.map((k) => {
      const a = Object.fromEntries(names.map((n, i) => [n, ra[i].mean[k]]));
      const b = Object.fromEntries(names.map((n, i) => [n, rb[i].mean[k]]));
      const ab = systemCorrelation(a, b);
      return [
        k,
        {
          runs: names.map((n, i) => ({
            run: n,
            mean_a: ra[i].mean[k],
            mean_b: rb[i].mean[k],
            queries_a: ra[i].counted[k],
            queries_b: rb[i].counted[k],
          })),
          kendall_tau: orNull(ab.tau),
          tau_ap: orNull(ab.tauAP),
          tau_ap_b: orNull(systemCorrelation(b, a).tauAP),
        },
      ];
    }),
  );
  return { runs: names, measures: keys, by_measure, agreement: summary };
};

const dir = mkdtempSync(join(tmpdir(), "rankeval-qrels-compare-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe("qrelsCompare", () => {
  it("is evaluateRun under each set, systemCorrelation of the means and agreement's summary (random data)", () => {
    for (const seed of [1, 2, 3]) {
      const { A, B, runs } = randomData(seed, 30, 25, 5);
      const named = Object.fromEntries(runs.map((r, i) => [`run${i}`, r]));
      const measures = ["ndcg_cut.10", "map", "P@5", "recip_rank"];
      expect(withoutWhy(qrelsCompare(A, B, named, measures))).toEqual(composed(A, B, named, measures));
      const options = { relevanceThreshold: 2, bins: [1, 3] };
      expect(withoutWhy(qrelsCompare(A, B, named, measures, options))).toEqual(
        composed(A, B, named, measures, options),
      );
      // An array: runs named by their indices.
      const byIndex = qrelsCompare(A, B, runs, "map");
      expect(byIndex.runs).toEqual(runs.map((_, i) => String(i)));
      expect(byIndex.by_measure.map.runs.map((r) => r.mean_a)).toEqual(
        runs.map((r) => evaluateRun(A, r, "map").mean.map),
      );
    }
  });

  it("reads each set once for every run: columns in any order as objects, and evaluateRun's errors", () => {
    const { A, B, runs } = randomData(11, 20, 15, 4);
    // Rows reversed: queries and documents in another order than the judgments' (query ids numbered apart).
    const columns = (x: IdValues) => {
      const rows = Object.entries(x)
        .flatMap(([q, docs]) => Object.entries(docs).map(([d, v]) => [q, d, v] as const))
        .reverse();
      return { qid: rows.map((r) => r[0]), docid: rows.map((r) => r[1]), value: rows.map((r) => r[2]) };
    };
    const run = (x: IdValues) => {
      const { qid, docid, value } = columns(x);
      return { qid, docid, score: value };
    };
    const rels = (x: IdValues) => {
      const { qid, docid, value } = columns(x);
      return { qid, docid, rel: value };
    };
    const named = Object.fromEntries(runs.map((r, i) => [`run${i}`, run(r)]));
    const measures = ["ndcg_cut.10", "map"];
    expect(withoutWhy(qrelsCompare(rels(A), rels(B), named, measures))).toEqual(composed(A, B, named, measures));
    const message = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as Error).message;
      }
      return "no error";
    };
    const bad = [
      { x9: { d1: 1 }, x8: {}, x7: { d2: 1 }, x6: { d3: 1 } },
      { ...runs[0], [Object.keys(A)[0]]: { d1: Number.NaN } },
      { qid: ["q1", "q1"], docid: ["d", "d"], score: [1, 2] },
    ];
    for (const b of bad) {
      const said = message(() => qrelsCompare(A, B, [runs[0], b], "map"));
      expect(said).not.toBe("no error");
      expect(said).toBe(message(() => evaluateRun(A, b, "map")));
    }
  });

  it("says where tau is undefined (null, why_null), and needs 2 or more runs", () => {
    const A = { q1: { d1: 1 } };
    const same = { q1: { d1: 1, d2: 0.5 } };
    const c = qrelsCompare(A, A, { x: same, y: same }, "map");
    expect(c.by_measure.map.kendall_tau).toBeNull();
    expect(c.by_measure.map.tau_ap).toBeNull();
    expect(c.by_measure.map.why_null).toBeDefined();
    expect(JSON.parse(JSON.stringify(c))).toEqual(c);
    expect(() => qrelsCompare(A, A, [same], "map")).toThrow(/2 or more runs/);
    expect(() => qrelsCompare(A, A, {}, "map")).toThrow(/2 or more runs/);
    expect(() => qrelsCompare(A, A, null as never, "map")).toThrow(/runs must be/);
  });
});

describe("rankeval --qrels-compare", () => {
  const { A, B, runs } = randomData(7, 20, 15, 3);
  const qa = file("a.qrels", qrelsText(A));
  const qb = file("b.qrels", qrelsText(B));
  const runFiles = runs.map((r, i) => file(`run${i}.txt`, runText(r)));

  it("prints the library's object with --format json", async () => {
    const out = await cli([
      "--qrels-compare",
      "-m",
      "ndcg_cut.10",
      "-m",
      "map",
      "--format",
      "json",
      qa,
      qb,
      ...runFiles,
    ]);
    expect(out.stderr).toBe("");
    expect(out.status).toBe(0);
    const named = Object.fromEntries(runFiles.map((f, i) => [f, runs[i]]));
    expect(JSON.parse(out.stdout)).toEqual(
      JSON.parse(JSON.stringify(qrelsCompare(A, B, named, ["ndcg_cut.10", "map"]))),
    );
    // Default measures: ndcg_cut.10 and map; -l and --bins reach both the evaluation and the agreement.
    const dflt = await cli(["--qrels-compare", "--format", "json", "-l", "2", "--bins", "1,3", qa, qb, ...runFiles]);
    expect(dflt.status).toBe(0);
    expect(JSON.parse(dflt.stdout)).toEqual(
      JSON.parse(
        JSON.stringify(qrelsCompare(A, B, named, ["ndcg_cut.10", "map"], { relevanceThreshold: 2, bins: [1, 3] })),
      ),
    );
  });

  it("prints a table per measure, the taus under it, then the agreement", async () => {
    const out = await cli(["--qrels-compare", qa, qb, ...runFiles]);
    expect(out.status).toBe(0);
    const named = Object.fromEntries(runFiles.map((f, i) => [f, runs[i]]));
    const c = qrelsCompare(A, B, named, ["ndcg_cut.10", "map"]);
    const lines = out.stdout.split("\n");
    expect(lines[0]).toBe(`A: ${qa}`);
    expect(lines[1]).toBe(`B: ${qb}`);
    for (const key of c.measures) {
      const at = lines.indexOf(key);
      expect(at).toBeGreaterThan(0);
      expect(lines[at + 1].trim().split(/\s+/)).toEqual([
        "run",
        "mean",
        "A",
        "mean",
        "B",
        "queries",
        "A",
        "queries",
        "B",
      ]);
      const m = c.by_measure[key];
      m.runs.forEach((r, i) =>
        expect(lines[at + 2 + i].trim().split(/\s+/)).toEqual([
          r.run,
          r.mean_a!.toFixed(4),
          r.mean_b!.toFixed(4),
          String(r.queries_a),
          String(r.queries_b),
        ]),
      );
      const after = lines.slice(at + 2 + m.runs.length, at + 5 + m.runs.length).map((l) => l.trim().split(/\s+/));
      expect(after.map((l) => l.slice(0, 2))).toEqual([
        ["kendall_tau", m.kendall_tau!.toFixed(4)],
        ["tau_ap", m.tau_ap!.toFixed(4)],
        ["tau_ap_b", m.tau_ap_b!.toFixed(4)],
      ]);
    }
    const agreementLines = out.stdout.slice(out.stdout.indexOf("agreement of A and B:\n") + 22);
    const alone = await cli(["--agreement", qa, qb]);
    expect(agreementLines).toBe(alone.stdout);
  });

  it("says what it needs: 2 runs or more, its own options", async () => {
    const one = await cli(["--qrels-compare", qa, qb, runFiles[0]]);
    expect(one.status).toBe(1);
    expect(one.stderr).toMatch(/--qrels-compare reads QRELS_A QRELS_B RUN RUN/);
    const format = await cli(["--qrels-compare", "--format", "csv", qa, qb, ...runFiles]);
    expect(format.status).toBe(1);
    expect(format.stderr).toMatch(/--qrels-compare prints/);
    const other = await cli(["--qrels-compare", "--budget", "3", qa, qb, ...runFiles]);
    expect(other.status).toBe(1);
    const both = await cli(["--qrels-compare", "--agreement", qa, qb, ...runFiles]);
    expect(both.status).toBe(1);
  });

  it("names the file and line of a document twice in a query", async () => {
    const twice = file("twice.run", "q1 Q0 d1 1 2 r\nq1 Q0 d2 2 1 r\nq1 Q0 d1 3 0.5 r\n");
    const out = await cli(["--qrels-compare", qa, qb, runFiles[0], twice]);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain(`${twice}:3`);
  });
});
