// Fractional labels (1.5, 2.7: what LLM judges and averaged assessors give) are one decision
// (src/pipeline/trec-labels.ts), whichever face asks: trec_eval's names read them as trec_eval does
// (get_qrels.c: atol, so "1.5" is 1, "-0.5" is 0, "1e1" is 1), every other name as given, in one
// evaluation. On 3,000 queries of decimal labels the command line (alone, beside a canonical name,
// across workers), evaluateFiles and evaluateRun give trec_eval's ndcg_cut_10, and ndcg@10 is the
// reference's on the labels as given; each says so once.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { evaluate, evaluateRun } from "../src/index.js";
import { evaluateFiles } from "../src/node/index.js";
import { referenceEvaluateRun } from "../src/reference/index.js";
import { trecLabelled } from "../src/pipeline/trec-labels.js";
import type { Result } from "../src/pipeline/evaluate.js";
import { evaluatePartitioned } from "../src/node/partitioned.js";
import type { Batch } from "../src/kernel/batch.js";
import { cli } from "./_cli.js";
import { seedOr } from "./_seed.js";
import { buildTrecEval } from "./trec-eval-diff/fuzz.js";
import { runTrecEval } from "./trec-eval-diff/harness.js";

const SEED = seedOr(36_2026);
const QUERIES = 3000;

/** A seeded stream of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

type IdValues = Record<string, Record<string, number>>;

/**
 * 3,000 queries of decimal labels (0 to 4 by tenths, some negative, some whole), ties among scores,
 * unjudged documents ranked, judged ones never ranked. (trec_eval 10 refuses judged queries absent
 * from the run without -c.)
 */
function collection() {
  const random = seeded(SEED);
  const qrelsLines: string[] = [];
  const runLines: string[] = [];
  const qrels: IdValues = {};
  const run: IdValues = {};
  for (let q = 1; q <= QUERIES; q++) {
    const qid = `q${q}`;
    const judged = 3 + Math.floor(random() * 15);
    qrels[qid] = {};
    for (let d = 0; d < judged; d++) {
      const tenths = Math.floor(random() * 41) * (random() < 0.05 ? -1 : 1);
      const text = String(tenths / 10);
      qrelsLines.push(`${qid} 0 d${d} ${text}`);
      qrels[qid][`d${d}`] = Number(text);
    }
    const pool = Array.from({ length: judged + 6 }, (_, d) => d);
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    const ranked = pool.slice(0, 1 + Math.floor(random() * pool.length));
    run[qid] = {};
    ranked.forEach((d, i) => {
      const score = Math.floor(random() * 12) / 2;
      runLines.push(`${qid} Q0 d${d} ${i + 1} ${score} r`);
      run[qid][`d${d}`] = score;
    });
  }
  return { qrelsText: `${qrelsLines.join("\n")}\n`, runText: `${runLines.join("\n")}\n`, qrels, run };
}

const built = buildTrecEval();
const trecEval = "path" in built ? built.path : null;
if (!trecEval)
  console.warn(`\n*** fractional labels against trec_eval SKIPPED: ${(built as { skip: string }).skip} ***\n`);

const dir = mkdtempSync(join(tmpdir(), "rankeval-fractional-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const data = collection();
const qrelsPath = file("qrels", data.qrelsText);
const runPath = file("run", data.runText);

/** The one warning, as the command line says it of this file (its first fractional label: line 1 or later). */
function fileWarning(): RegExp {
  return new RegExp(
    `^rankeval: ${qrelsPath.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:\\d+: label -?\\d+\\.\\d is read as -?\\d+ \\(and \\d+ more\\), as trec_eval reads labels \\(atol\\); canonical measure names \\(ndcg@10\\) keep labels as written\\n$`,
  );
}

/** Per-query values of a --format json report, by query. */
function perQuery(json: string, key: string): Map<string, number> {
  const r = JSON.parse(json) as { runs: { perQuery: Record<string, Record<string, number>> }[] };
  return new Map(Object.entries(r.runs[0].perQuery).map(([q, v]) => [q, v[key]]));
}

/** A Result's values of one measure, by query. */
const byQuery = (r: { qids: readonly string[]; values: Record<string, Float64Array> }, key: string) =>
  new Map(r.qids.map((q, i) => [q, r.values[key][i]]));

/** trec_eval -q's lines of one measure, by query (and "all"). */
function trecEvalLines(stdout: string, name: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of stdout.split("\n")) {
    const [m, q, v] = line.split("\t");
    if (m?.trim() === name) out.set(q, v);
  }
  return out;
}

describe("fractional labels: trec_eval's names read them as atol does, other names as given, on every face", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of ["RANKEVAL_THREADS", "RANKEVAL_THREAD_MIN_BYTES"]) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it.skipIf(!trecEval)(
    "the command line's -m ndcg_cut.10 alone prints trec_eval's bytes, and says so once",
    async () => {
      for (const args of [
        ["-m", "ndcg_cut.10"],
        ["-q", "-m", "ndcg_cut.10"],
        // -c: num_rel's summary, taken from every judgment, counts those above 0 as trec_eval reads them (0.5 is not).
        ["-c", "-m", "num_rel", "-m", "ndcg_cut.10", "-m", "relstring.5"],
        ["-q", "-m", "all_trec"],
      ]) {
        const want = await runTrecEval(trecEval!, [...args, qrelsPath, runPath]);
        expect(want.status, want.stderr).toBe(0);
        const got = await cli([...args, qrelsPath, runPath]);
        expect(got.status, args.join(" ")).toBe(0);
        expect(got.stdout, args.join(" ")).toBe(want.stdout);
        expect(got.stderr, args.join(" ")).toMatch(fileWarning());
      }
    },
  );

  it.skipIf(!trecEval)(
    "-m ndcg_cut.10 -m ndcg@10 gives trec_eval's ndcg_cut_10 and ndcg@10 on the labels as given; so do evaluateFiles and evaluateRun",
    async () => {
      const want = await runTrecEval(trecEval!, ["-q", "-m", "ndcg_cut.10", qrelsPath, runPath]);
      const trecLines = trecEvalLines(want.stdout, "ndcg_cut_10");

      const both = await cli(["-q", "--format", "json", "-m", "ndcg_cut.10", "-m", "ndcg@10", qrelsPath, runPath]);
      expect(both.status).toBe(0);
      expect(both.stderr).toMatch(fileWarning());
      const cut = perQuery(both.stdout, "ndcg_cut_10");
      const canonical = perQuery(both.stdout, "ndcg@10");
      expect(cut.size).toBe(trecLines.size - 1);
      for (const [q, v] of cut) expect(v.toFixed(4), q).toBe(trecLines.get(q));
      const mean = (JSON.parse(both.stdout) as { runs: { mean: Record<string, number> }[] }).runs[0].mean;
      expect(mean.ndcg_cut_10.toFixed(4)).toBe(trecLines.get("all"));

      // ndcg@10 by the definitions, on the labels as given.
      const ref = referenceEvaluateRun(data.qrels, data.run, ["ndcg@10"]);
      const refValues = byQuery(ref, "ndcg@10");
      expect(canonical.size).toBe(refValues.size);
      for (const [q, v] of canonical) expect(v, q).toBeCloseTo(refValues.get(q)!, 12);
      // ... which the labels truncated would not give: the two readings differ on this data.
      const truncated = await cli(["--format", "json", "-m", "ndcg@10", file("int-qrels", truncatedText()), runPath]);
      const meanTruncated = (JSON.parse(truncated.stdout) as { runs: { mean: Record<string, number> }[] }).runs[0].mean;
      expect(Math.abs(mean["ndcg@10"] - meanTruncated["ndcg@10"])).toBeGreaterThan(0.001);

      const files = await evaluateFiles(qrelsPath, runPath, ["ndcg_cut.10", "ndcg@10"]);
      expect(byQuery(files, "ndcg_cut_10")).toEqual(cut);
      expect(byQuery(files, "ndcg@10")).toEqual(canonical);
      expect(files.warnings.map((w) => `rankeval: ${w}\n`)).toEqual([expect.stringMatching(fileWarning())]);

      const objects = evaluateRun(data.qrels, data.run, ["ndcg_cut.10", "ndcg@10"]);
      expect(byQuery(objects, "ndcg_cut_10")).toEqual(cut);
      expect(byQuery(objects, "ndcg@10")).toEqual(canonical);
      // Judgments given as objects: the warning names the query and document.
      expect(objects.warnings).toEqual([
        expect.stringMatching(
          /^qrels: query "q\d+", document "d\d+": label -?\d+\.\d is read as -?\d+ \(and \d+ more\), as trec_eval reads labels \(atol\); canonical measure names \(ndcg@10\) keep labels as written$/,
        ),
      ]);
    },
  );

  it("the command line across workers gives what one thread gives, whatever the names", async () => {
    const oneThread = new Map<string, { stdout: string; stderr: string }>();
    const asks = [
      ["-m", "ndcg_cut.10"],
      ["-q", "--format", "json", "-m", "ndcg_cut.10", "-m", "ndcg@10"],
      ["-q", "--format", "json", "-m", "ndcg@10"],
    ];
    for (const args of asks) {
      process.env.RANKEVAL_THREADS = "1";
      const r = await cli([...args, qrelsPath, runPath]);
      expect(r.status).toBe(0);
      oneThread.set(args.join(" "), r);
    }
    process.env.RANKEVAL_THREADS = "2";
    process.env.RANKEVAL_THREAD_MIN_BYTES = "0";
    for (const args of asks) {
      const r = await cli([...args, qrelsPath, runPath]);
      expect(r.status).toBe(0);
      const one = oneThread.get(args.join(" "))!;
      expect(r.stdout, args.join(" ")).toBe(one.stdout);
      expect(r.stderr, args.join(" ")).toBe(one.stderr);
    }
    // evaluateFiles across workers too: the labels trec_eval reads otherwise go the one-thread way, which says so.
    const files = await evaluateFiles(qrelsPath, runPath, ["ndcg_cut.10", "ndcg@10"]);
    const json = oneThread.get(asks[1].join(" "))!.stdout;
    expect(byQuery(files, "ndcg_cut_10")).toEqual(perQuery(json, "ndcg_cut_10"));
    expect(byQuery(files, "ndcg@10")).toEqual(perQuery(json, "ndcg@10"));
    expect(files.warnings.map((w) => `rankeval: ${w}\n`)).toEqual([expect.stringMatching(fileWarning())]);
    // No trec_eval name: labels as given, and nothing to say.
    expect(oneThread.get(asks[2].join(" "))!.stderr).toBe("");
    const canonical = perQuery(oneThread.get(asks[2].join(" "))!.stdout, "ndcg@10");
    const ref = byQuery(referenceEvaluateRun(data.qrels, data.run, ["ndcg@10"]), "ndcg@10");
    for (const [q, v] of canonical) expect(v, q).toBeCloseTo(ref.get(q)!, 12);
  });

  it("the workers' own evaluation (the page's, which leaves no file to one worker) reads labels per name too", async () => {
    const evaluated = async (job: Parameters<typeof evaluatePartitioned>[3]) => {
      const results: Result<string>[] = [];
      const done = await evaluatePartitioned(
        { inThisThread: true, size: 3 },
        qrelsPath,
        [runPath],
        job,
        () => {},
        (_, r) => results.push(r.evaluated.result),
      );
      return { done, result: results[0] };
    };
    const spec = { names: ["ndcg_cut.10", "ndcg@10"], fallback: null, conventions: {}, tieRange: false };
    // The command line's job: labels trec_eval reads otherwise go the one-worker way, which names the line.
    expect((await evaluated({ spec, trecLabels: true })).done).toBe(0);
    const { done, result } = await evaluated({ spec });
    expect(done).toBe(1);
    const one = await cli(["-q", "--format", "json", "-m", "ndcg_cut.10", "-m", "ndcg@10", qrelsPath, runPath]);
    const cut = byQuery(result, "ndcg_cut_10");
    expect(cut.size).toBe(QUERIES);
    for (const [q, v] of perQuery(one.stdout, "ndcg_cut_10")) expect(cut.get(q), q).toBe(v);
    const canonical = byQuery(result, "ndcg@10");
    for (const [q, v] of perQuery(one.stdout, "ndcg@10")) expect(canonical.get(q), q).toBe(v);
  });

  it("under trec_eval's names a label is atol of its text: 1e1 is 1 from a file, a number 10 is 10", async () => {
    // d1 ranked first; atol reads d2's "1e1" as 1 (the ideal: d1's 2 first); written, it is 10.
    const q = file("exp-qrels", "1 0 d1 2\n1 0 d2 1e1\n");
    const r = file("exp-run", "1 Q0 d1 1 2 r\n1 Q0 d2 2 1 r\n");
    const text = await cli(["-m", "ndcg_cut.1", "-m", "ndcg@1", "--format", "json", q, r]);
    expect(text.stderr).toBe(
      `rankeval: ${q}:2: label 1e1 is read as 1, as trec_eval reads labels (atol); canonical measure names (ndcg@10) keep labels as written\n`,
    );
    const mean = (JSON.parse(text.stdout) as { runs: { mean: Record<string, number> }[] }).runs[0].mean;
    expect(mean.ndcg_cut_1).toBe(1);
    expect(mean["ndcg@1"]).toBeCloseTo(3 / 1023, 12);
    const files = await evaluateFiles(q, r, ["ndcg_cut.1", "ndcg@1"]);
    expect(files.mean).toEqual(mean);
    // Numbers have no text: 1e1 is 10 (truncation toward zero), and 10 is no fraction to warn of.
    const objects = evaluateRun({ 1: { d1: 2, d2: 1e1 } }, { 1: { d1: 2, d2: 1 } }, ["ndcg_cut.1"]);
    expect(objects.mean.ndcg_cut_1).toBeCloseTo(2 / 10, 12);
    expect(objects.warnings).toEqual([]);
    if (trecEval) {
      const want = await runTrecEval(trecEval, ["-m", "ndcg_cut.1", q, r]);
      expect((await cli(["-m", "ndcg_cut.1", q, r])).stdout).toBe(want.stdout);
    }
  });

  it("evaluate(rows) reads trec_eval's names' labels truncated, others as given, saying so only for trec_eval's", () => {
    const rows = { qid: [1, 1, 1], score: [3, 2, 1], rel: [0.5, 2.7, 1.5] };
    const r = evaluate(rows, ["ndcg_cut.3", "ndcg@3"]);
    const truncated = evaluate({ ...rows, rel: [0, 2, 1] }, ["ndcg_cut.3"]);
    const given = evaluate(rows, ["ndcg@3"]);
    expect(r.mean.ndcg_cut_3).toBe(truncated.mean.ndcg_cut_3);
    expect(r.mean["ndcg@3"]).toBe(given.mean["ndcg@3"]);
    expect(r.warnings).toEqual([
      'rows.rel[0] (query "1"): label 0.5 is read as 0 (and 2 more), as trec_eval reads labels (atol); canonical measure names (ndcg@10) keep labels as written',
    ]);
    expect(given.warnings).toEqual([]);
  });

  it("integer labels are evaluated as they are: no copy for trec_eval's names", () => {
    const batch: Batch = {
      numQueries: 1,
      offsets: Int32Array.of(0, 2),
      scores: Float64Array.of(2, 1),
      labels: Float64Array.of(1, Number.NaN),
      judgedOffsets: Int32Array.of(0, 2),
      judged: Float64Array.of(1, -2),
      docids: null,
      pool: null,
    };
    expect(trecLabelled(batch)).toBe(batch);
    const fractional = { ...batch, judged: Float64Array.of(1, -0.5) };
    const t = trecLabelled(fractional);
    expect(Array.from(t.judged!)).toEqual([1, 0]);
    expect(Object.is(t.judged![1], 0)).toBe(true);
    expect(t.labels).toBe(fractional.labels);
  });
});

describe("fractional grades of subtopic judgments under trec_eval's names", () => {
  // Their batch's labels are the entries' numbers (whole) until the grades replace them: a batch marked
  // wholeLabels kept 1.5 for trec_eval's names, and rbp_resid and ideal_dcg failed on it (exit 70).
  it.each([["rbp_resid.1.0=1"], ["ideal_dcg.02=0.2"], ["ndcg_cut.10"]])("%s reads them as atol does", async (m) => {
    const qrels = (grade: string) => `100 0 d4 1\n100 1 a ${grade}\n100 1 d4 ${grade}\n100 2 d9 2\n`;
    const run = file("subtopic-run", "100 Q0 d4 1 0.5 t\n100 Q0 a 2 0.4 t\n100 Q0 d9 3 0.3 t\n");
    const fractional = await cli(["-m", m, file("subtopic-1.5", qrels("1.5")), run]);
    const whole = await cli(["-m", m, file("subtopic-1", qrels("1")), run]);
    expect(fractional.status, fractional.stderr).toBe(0);
    expect(fractional.stdout).toBe(whole.stdout);
    expect(fractional.stdout).toMatch(/\tall\t/);
  });
});

/** The qrels with every label truncated toward zero (as trec_eval reads them). */
function truncatedText(): string {
  return data.qrelsText.replace(/ (-?\d+)\.\d+$/gm, (_, whole: string) => ` ${Number(whole) + 0}`);
}
