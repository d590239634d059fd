// fillHoles and rankeval --fill (issue 38): the library against a naive merge on random judgments and runs;
// the command line's evaluation under --fill byte for byte that of rankeval on a qrels merged here; its
// hole counts those read from unj@k (trec_eval) and Judged@k (ir_measures) under the base and the filled
// judgments; bad usage (exit 1) and a bad QRELS_EXTRA named by file and line (exit 2).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fillHoles } from "../src/index.js";
import { cli } from "./_cli.js";
import { type IdValues, qrelsText, runText } from "./_trec-text.js";

const dir = mkdtempSync(join(tmpdir(), "rankeval-fill-test-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Random judgments or run: queries q0..q{queries-1}, each kept with probability `keep`, documents d0..d29. */
function make(rand: () => number, queries: number, keep: number, docs: number, value: () => number): IdValues {
  const x: IdValues = {};
  for (let q = 0; q < queries; q++) {
    if (rand() > keep) continue;
    const row: Record<string, number> = {};
    for (let d = 0; d < 30; d++) if (rand() < docs / 30) row[`d${d}`] = value();
    if (Object.keys(row).length) x[`q${q}`] = row;
  }
  return x;
}

/** The naive merge and counts: ranks by score descending, ties by docid descending (ASCII ids). */
function naive(base: IdValues, extra: IdValues, runs: IdValues[], depth: number) {
  const qrels = { qid: [] as string[], docid: [] as string[], rel: [] as number[] };
  const push = (q: string, d: string, v: number) => {
    qrels.qid.push(q);
    qrels.docid.push(d);
    qrels.rel.push(v);
  };
  for (const [q, docs] of Object.entries(base)) for (const [d, v] of Object.entries(docs)) push(q, d, v);
  let filled = 0;
  let skipped = 0;
  for (const [q, docs] of Object.entries(extra))
    for (const [d, v] of Object.entries(docs)) {
      if (!(q in base)) skipped++;
      else if (!(d in base[q])) {
        push(q, d, v);
        filled++;
      }
    }
  const counts = runs.map((run, r) => {
    let ranked = 0;
    let holes = 0;
    let fills = 0;
    for (const [q, docs] of Object.entries(run)) {
      if (!(q in base)) continue;
      const top = Object.entries(docs)
        .sort(([a, x], [b, y]) => y - x || (a < b ? 1 : a > b ? -1 : 0))
        .slice(0, depth);
      for (const [d] of top) {
        ranked++;
        if (d in base[q]) continue;
        holes++;
        if (d in (extra[q] ?? {})) fills++;
      }
    }
    return { run: r, ranked, holes, filled: fills, remaining: holes - fills };
  });
  return { qrels, filled, skipped, depth, runs: counts };
}

describe("fillHoles", () => {
  it("equals a naive merge on random judgments and runs, objects or columns", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rand = random(seed);
      const label = () => Math.floor(rand() * 4) - (rand() < 0.05 ? 1 : 0);
      const base = make(rand, 12, 0.7, 8, label);
      const extra = make(rand, 14, 0.8, 15, () => Math.round(rand() * 30) / 10);
      // Scores of few values: ties broken by docid.
      const runs = [0, 1, 2].map(() => make(rand, 14, 0.9, 20, () => Math.floor(rand() * 5)));
      const depth = 1 + Math.floor(rand() * 12);
      const want = naive(base, extra, runs, depth);
      expect(fillHoles(base, extra, { runs, depth })).toEqual(want);
      expect(fillHoles(want.qrels, extra, { runs, depth }).filled).toBe(0);
      const { runs: _, ...noRuns } = want;
      expect(fillHoles(base, extra, { depth })).toEqual({ ...noRuns, runs: [] });
    }
  });

  it("defaults to depth 10, and refuses bad options and a document twice, naming the input", () => {
    const base = { q1: { a: 1 } };
    const run = { q1: Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`d${i}`, 15 - i])) };
    expect(fillHoles(base, {}, { runs: [run] }).runs[0]).toEqual({
      run: 0,
      ranked: 10,
      holes: 10,
      filled: 0,
      remaining: 10,
    });
    expect(() => fillHoles(base, {}, { depth: 0 })).toThrow(/depth/);
    expect(() => fillHoles(base, {}, { dept: 3 } as never)).toThrow(/unknown option "dept"/);
    const twice = { qid: ["q1", "q1"], docid: ["x", "x"], rel: [1, 2] };
    expect(() => fillHoles(base, twice)).toThrow(/extra/);
    expect(() => fillHoles(twice, base)).toThrow(/base/);
  });
});

// Base judgments, a model's labels (decimals: trec_eval's names read them as atol does, on both sides), runs.
const rand = random(7);
const BASE = make(rand, 20, 1, 8, () => Math.floor(rand() * 4));
const EXTRA = make(rand, 24, 1, 18, () => Math.round(rand() * 30) / 10);
const RUNS = [0, 1].map(() => make(rand, 22, 1, 25, () => Math.round(rand() * 1000) / 100));
const merged: IdValues = {};
for (const [q, docs] of Object.entries(BASE)) merged[q] = { ...docs };
for (const [q, docs] of Object.entries(EXTRA))
  if (q in BASE) for (const [d, v] of Object.entries(docs)) if (!(d in BASE[q])) merged[q][d] = v;
const baseFile = file("base.qrels", qrelsText(BASE));
const extraFile = file("extra.qrels", qrelsText(EXTRA));
const mergedFile = file("merged.qrels", qrelsText(merged));
const runFiles = RUNS.map((r, i) => file(`run${i}.txt`, runText(r)));

/** Per run, per query: the value of `measure` (one measure, -q, trec text or rankeval's table). */
async function perQuery(measure: string, qrels: string): Promise<Record<string, number>[]> {
  return Promise.all(
    runFiles.map(async (run) => {
      const out = await cli(["-q", "-m", measure, qrels, run]);
      expect(out.status).toBe(0);
      const values: Record<string, number> = {};
      for (const line of out.stdout.trim().split("\n")) {
        const f = line.trim().split(/\s+/);
        const [qid, value] = f.length === 3 && f[0].startsWith("q") ? [f[0], f[2]] : [f[1], f[2]];
        if (qid !== "all" && /^q\d/.test(qid)) values[qid] = Number(value);
      }
      return values;
    }),
  );
}

const ranked = (run: IdValues, q: string, k: number) => Math.min(k, Object.keys(run[q] ?? {}).length);

describe("rankeval --fill", () => {
  it("prints what rankeval prints on the judgments merged by hand, byte for byte", async () => {
    for (const options of [["-m", "ndcg_cut.10", "-m", "map"], ["-q", "-m", "P.5", "-m", "ndcg@10"], []]) {
      const want = await cli([...options, mergedFile, ...runFiles]);
      const got = await cli(["--fill", extraFile, ...options, baseFile, ...runFiles]);
      expect(want.status).toBe(0);
      expect(got.status).toBe(0);
      expect(got.stdout).toBe(want.stdout);
      expect(got.stderr).toContain("holes  filled  remaining  run");
      // Notes of the evaluation name the filled judgments QRELS+QRELS_EXTRA, not the temporary file.
      expect(got.stderr).not.toContain("filled.qrels");
      if (want.stderr.includes("atol")) expect(got.stderr).toContain(`${baseFile}+${extraFile}:`);
    }
  });

  it("counts the holes unj@k and Judged@k count, under the base and under the filled judgments", async () => {
    for (const k of [10, 5]) {
      const out = await cli(["--fill", extraFile, "--fill-depth", String(k), "-m", "map", baseFile, ...runFiles]);
      expect(out.status).toBe(0);
      const table = out.stderr.split("\n").filter((l) => l.endsWith(".txt"));
      const [unjBase, unjFilled] = [await perQuery(`unj.${k}`, baseFile), await perQuery(`unj.${k}`, mergedFile)];
      const [judgedBase, judgedFilled] = [
        await perQuery(`Judged@${k}`, baseFile),
        await perQuery(`Judged@${k}`, mergedFile),
      ];
      RUNS.forEach((run, r) => {
        const sum = (f: (q: string) => number) => Object.keys(unjBase[r]).reduce((s, q) => s + f(q), 0);
        const holes = sum((q) => Math.round(unjBase[r][q] * k));
        const remaining = sum((q) => Math.round(unjFilled[r][q] * k));
        expect(sum((q) => ranked(run, q, k) - Math.round(judgedBase[r][q] * ranked(run, q, k)))).toBe(holes);
        expect(sum((q) => ranked(run, q, k) - Math.round(judgedFilled[r][q] * ranked(run, q, k)))).toBe(remaining);
        expect(holes).toBeGreaterThan(remaining);
        expect(table[r].trim().split(/\s+/)).toEqual([
          String(holes),
          String(holes - remaining),
          String(remaining),
          runFiles[r],
        ]);
      });
      expect(out.stderr).toMatch(new RegExp(`in each run's top ${k}`));
    }
  });

  it("refuses bad usage (exit 1)", async () => {
    for (const [args, message] of [
      [["--fill", extraFile, baseFile], /give QRELS and a RUN/],
      [["--fill-depth", "3", baseFile, runFiles[0]], /--fill-depth needs --fill/],
      [["--fill", extraFile, "--fill-depth", "0", baseFile, runFiles[0]], /--fill-depth: "0"/],
      [["--fill", extraFile, "--compare", baseFile, ...runFiles], /not with --compare/],
      [["--fill", extraFile, "--input-format", "trec", baseFile, runFiles[0]], /not with --input-format/],
      [["--fill", extraFile, "--qrels-stats", baseFile], /not with --qrels-stats|--qrels-stats/],
      [["--fill", extraFile, baseFile, "-"], /not -/],
    ] as const) {
      const out = await cli([...args]);
      expect(out.stderr).toMatch(message);
      expect(out.status).toBe(1);
    }
  });

  it("names a bad QRELS_EXTRA's file and line (exit 2)", async () => {
    const twice = file("twice.qrels", "q1 0 x 1\nq1 0 y 2\nq1 0 x 3\n");
    let out = await cli(["--fill", twice, baseFile, runFiles[0]]);
    expect(out.status).toBe(2);
    expect(out.stderr).toBe(`rankeval: ${twice}:3: document "x" appears twice in query "q1"\n`);
    expect(out.stdout).toBe("");
    const short = file("short.qrels", "q1 0 x 1\nq1 0 y\n");
    out = await cli(["--fill", short, baseFile, runFiles[0]]);
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(new RegExp(`^rankeval: ${short}:2:`));
  });
});
