// Evaluation across workers (src/pipeline/partition.ts, partition-coordinator.ts): the kernel's split of
// lines among workers against a plain reading of each line, and the command line in this process with
// RANKEVAL_THREADS workers (run one after the other in this thread, their messages cloned as postMessage
// clones them: src/node/partitioned.ts) against one worker, byte for byte, output and errors.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { partitionOf, QuerySplitter } from "../src/pipeline/partition.js";
import { cli } from "./_cli.js";
import { evaluatePartitioned } from "../src/node/partitioned.js";
import { seedOr } from "./_seed.js";

const SEED = seedOr(26112026);

/** A seeded stream of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}
const utf8 = new TextEncoder();

/** Where each line of `text` goes, read plainly: its first field (up to a byte <= ' '), a blank line with the one before. */
function expected(text: Uint8Array, parts: number): { buckets: Uint8Array[]; last: number } {
  const out: number[][] = Array.from({ length: parts }, () => []);
  let previous = 0;
  let last = -1;
  for (let pos = 0; pos < text.length; ) {
    let end = text.indexOf(10, pos);
    end = end < 0 ? text.length : end + 1;
    let qs = pos;
    while (qs < end && (text[qs] === 32 || text[qs] === 9)) qs++;
    let qe = qs;
    while (qe < end && text[qe] > 32) qe++;
    const p = qe > qs ? partitionOf(text, qs, qe, parts) : previous;
    if (qe > qs) last = p;
    previous = p;
    for (let i = pos; i < end; i++) out[p].push(text[i]);
    pos = end;
  }
  return { buckets: out.map((b) => Uint8Array.from(b)), last };
}

function split(text: Uint8Array, parts: number) {
  const s = new QuerySplitter(parts);
  s.input(text.length).set(text);
  return s.split(text.length);
}

describe("QuerySplitter: each line to the worker its query id hashes to, in order", () => {
  const random = seeded(SEED);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];

  it("on grouped and scattered lines, blank lines, tabs, CRLF, long ids and no final newline", () => {
    const ids = ["1", "2", "10", "q#2", "é1", "x".repeat(40), "301", "a b"];
    for (let trial = 0; trial < 200; trial++) {
      const lines: string[] = [];
      const n = Math.floor(random() * 60);
      let id = pick(ids);
      for (let i = 0; i < n; i++) {
        if (random() < 0.3) id = pick(ids);
        const lead = pick(["", "", " ", "\t", "  "]);
        const sep = pick([" ", "\t", "  "]);
        const body = random() < 0.05 ? pick(["", "   ", "\t"]) : `${lead}${id}${sep}Q0 d${i} ${i + 1} ${random()} tag`;
        lines.push(body + (random() < 0.1 ? "\r" : ""));
      }
      const text = utf8.encode(lines.join("\n") + (random() < 0.5 ? "\n" : ""));
      for (const parts of [1, 2, 3, 16]) {
        const got = split(text, parts);
        const want = expected(text, parts);
        expect(got.last, `trial ${trial}, ${parts} parts`).toBe(want.last);
        expect(
          got.buckets.map((b) => [...b]),
          `trial ${trial}, ${parts} parts`,
        ).toEqual(want.buckets.map((b) => [...b]));
      }
    }
  });

  it("past its room for runs of lines: one id a line, alternating (the rest split after, in pieces)", () => {
    // 2-byte lines: more runs than the kernel notes at once (a run per line here).
    const text = utf8.encode(Array.from({ length: 200_000 }, (_, i) => String.fromCharCode(97 + (i % 7))).join("\n"));
    for (const parts of [2, 5]) {
      const got = split(text, parts);
      const want = expected(text, parts);
      expect(got.last).toBe(want.last);
      got.buckets.forEach((b, p) => expect(Buffer.from(b).equals(Buffer.from(want.buckets[p]))).toBe(true));
    }
  });

  it("gives an empty chunk no buckets' bytes and no last line", () => {
    const got = split(new Uint8Array(0), 3);
    expect(got.last).toBe(-1);
    expect(got.buckets.map((b) => b.length)).toEqual([0, 0, 0]);
  });
});

describe("the command line across RANKEVAL_THREADS workers (in this thread): the bytes of one", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-partition-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string | Uint8Array) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const saved = { ...process.env };
  beforeEach(() => {
    // Every file large enough for the workers.
    process.env.RANKEVAL_THREAD_MIN_BYTES = "0";
  });
  afterEach(() => {
    for (const k of ["RANKEVAL_THREADS", "RANKEVAL_THREAD_MIN_BYTES"]) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
  const withWorkers = async (n: number, args: string[]) => {
    process.env.RANKEVAL_THREADS = String(n);
    return cli(args);
  };

  // A collection of 300 queries, 0 to 40 judgments and 0 to 60 ranked documents each, ties among scores.
  const random = seeded(SEED + 1);
  const qrelsLines: string[] = [];
  const runLines = (tag: string, skip: number) => {
    const lines: string[] = [];
    for (let q = 0; q < 300; q++) {
      if (q % 17 === skip) continue;
      const n = Math.floor(random() * 60);
      for (let r = 0; r < n; r++)
        lines.push(`${q} Q0 d${Math.floor(random() * 80)}-${r} ${r + 1} ${Math.floor(random() * 20) / 4} ${tag}`);
    }
    return lines;
  };
  for (let q = 0; q < 300; q++) {
    if (q % 23 === 5) continue;
    const n = Math.floor(random() * 40);
    for (let j = 0; j < n; j++)
      qrelsLines.push(`${q} 0 d${Math.floor(random() * 80)}-${j} ${Math.floor(random() * 4) - (j % 9 === 0 ? 1 : 0)}`);
  }
  const qrels = file("qrels.txt", `${qrelsLines.join("\n")}\n`);
  const runs = [0, 1, 2].map((i) => file(`run${i}.txt`, `${runLines(`tag${i}`, i).join("\n")}\n`));

  const cases: [string, string[]][] = [
    ["trec_eval's measures, per query", ["-q", "-m", "all_trec", qrels, runs[0]]],
    ["-c, placeholders, several runs", ["-c", "-m", "map", "-m", "ndcg_cut.5,10", "-m", "num_ret", qrels, ...runs]],
    ["canonical names as a table, ties averaged", ["-m", "ndcg@10", "-m", "rr", "--ties", "average", qrels, ...runs]],
    ["JSON, per query", ["--format", "json", "-q", "-m", "P@5", "-m", "err@10", qrels, runs[1], runs[2]]],
    ["ir_measures' names, judged only", ["-m", "nDCG@10", "-m", "AP", "-J", qrels, runs[2]]],
  ];
  for (const [what, args] of cases) {
    it(`${what}: 2, 3 and 16 workers as one`, async () => {
      const one = await withWorkers(1, args);
      expect(one.status, one.stderr).toBe(0);
      for (const n of [2, 3, 16]) expect(await withWorkers(n, args), `${n} workers`).toEqual(one);
    });
  }

  it("a run not grouped by query, gzip and a bad line: what one worker says, the same", async () => {
    const scattered = file("scattered.txt", `${[...runLines("s", 3)].sort().join("\n")}\n`);
    const gz = file("run.txt.gz", gzipSync(`${runLines("g", 4).join("\n")}\n`));
    const lines = runLines("b", 5);
    lines.splice(lines.length >> 1, 0, "7 Q0 dx 1 not-a-number b");
    const bad = file("bad.txt", `${lines.join("\n")}\n`);
    const badQrels = file(
      "badqrels.txt",
      `${[...qrelsLines.slice(0, 500), "1 0 d1", ...qrelsLines.slice(500)].join("\n")}\n`,
    );
    for (const args of [
      ["-m", "map", qrels, scattered],
      ["-m", "map", qrels, gz, runs[0]],
      ["-m", "map", qrels, runs[0], bad, runs[1]],
      ["-m", "map", badQrels, runs[0]],
      ["-m", "map", "-m", "P.5", qrels, runs[0], file("empty.txt", "")],
      ["-m", "map", qrels, file("unjudged.txt", "nobody Q0 d1 1 1 t\n")],
    ]) {
      const one = await withWorkers(1, args);
      for (const n of [2, 3]) expect(await withWorkers(n, args), `${args.join(" ")}: ${n} workers`).toEqual(one);
    }
  });

  it("evaluates every run across the workers (none left to the one-worker way) where nothing is wrong", async () => {
    const outcomes: [number, string, string, number][] = [];
    const spec = { names: ["map", "P.5"], fallback: null, conventions: {}, tieRange: false };
    const done = await evaluatePartitioned(
      { inThisThread: true, size: 3 },
      qrels,
      runs,
      { spec, placeholder: true, trecLabels: true },
      () => {},
      (i, r) => outcomes.push([i, r.file, r.runTag, r.evaluated.result.qids.length]),
    );
    expect(done).toBe(3);
    expect(outcomes.map(([i, f, tag]) => [i, f, tag])).toEqual(runs.map((r, i) => [i, r, `tag${i}`]));
    // The judged queries each run ranks (a few of the 300 are in neither file).
    for (const [, , , queries] of outcomes) expect(queries).toBeGreaterThan(250);
  });

  it("evaluateFiles: the same results across workers, two calls at once included", async () => {
    const { evaluateFiles } = await import("../src/node/index.js");
    const measures = ["ndcg@10", "map", "P@5"] as const;
    process.env.RANKEVAL_THREADS = "1";
    const one = await evaluateFiles(qrels, runs, measures, { complete: true });
    process.env.RANKEVAL_THREADS = "3";
    const [a, b] = await Promise.all([
      evaluateFiles(qrels, runs, measures, { complete: true }),
      evaluateFiles(qrels, runs.slice(1), measures),
    ]);
    expect(a).toEqual(one);
    process.env.RANKEVAL_THREADS = "1";
    expect(b).toEqual(await evaluateFiles(qrels, runs.slice(1), measures));
  });

  it("labels trec_eval reads otherwise (atol) are said once, naming the line, as by one worker", async () => {
    const decimal = file(
      "decimal.txt",
      `${qrelsLines.slice(0, 800).join("\n")}\n3 0 d3-0 1.5\n${qrelsLines.slice(800).join("\n")}\n`,
    );
    const args = ["-m", "map", decimal, runs[0]];
    const one = await withWorkers(1, args);
    expect(one.stderr).toMatch(/decimal\.txt:801: label 1\.5 is read as 1/);
    expect(await withWorkers(3, args)).toEqual(one);
  });
});

const bin = join(__dirname, "..", "dist", "node", "bin.js");
const built = existsSync(bin);
if (!built)
  console.warn("test/partition.test.ts: the built command's tests skipped: dist/ is not built (npm test builds it)");

describe.skipIf(!built)("the built command line with --threads 1, 2, 3 and 16: the same bytes", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-threads-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const random = seeded(SEED + 2);
  // 2,000 queries, about 1.1 MB of run: several chunks for each thread; ties among scores.
  const qrels: string[] = [];
  const run: string[] = [];
  for (let q = 0; q < 2000; q++) {
    for (let j = 0; j < 15; j++) qrels.push(`${q} 0 doc${j * 3} ${Math.floor(random() * 3)}`);
    for (let r = 0; r < 25; r++) run.push(`${q} Q0 doc${(r * 7 + q) % 50} ${r + 1} ${(random() * 10).toFixed(2)} big`);
  }
  const qrelsPath = join(dir, "qrels.txt");
  const runPath = join(dir, "run.txt");
  const badPath = join(dir, "bad.txt");
  writeFileSync(qrelsPath, `${qrels.join("\n")}\n`);
  writeFileSync(runPath, `${run.join("\n")}\n`);
  writeFileSync(badPath, `${[...run.slice(0, 30000), "12 Q0 d 1 x big", ...run.slice(30000)].join("\n")}\n`);
  const rankeval = (threads: number, args: string[]) => {
    const r = spawnSync(process.execPath, [bin, "--threads", String(threads), ...args], {
      encoding: "utf8",
      env: { ...process.env, RANKEVAL_THREAD_MIN_BYTES: "0" },
      maxBuffer: 1 << 28,
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it("prints the same per-query text and summary, and the same error for a bad line", () => {
    for (const args of [
      ["-q", "-m", "ndcg_cut.10", "-m", "map", "-m", "recip_rank", qrelsPath, runPath, runPath],
      ["-m", "map", qrelsPath, runPath, badPath],
    ]) {
      const one = rankeval(1, args);
      for (const t of [2, 3, 16]) expect(rankeval(t, args), `--threads ${t} ${args.join(" ")}`).toEqual(one);
    }
    expect(rankeval(1, ["-m", "map", qrelsPath, badPath]).stderr).toMatch(/bad\.txt:30001:/);
  }, 60_000);
});
