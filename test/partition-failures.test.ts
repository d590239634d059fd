// A call that fails across workers leaves them as it found them (issue 36: an empty qrels left the
// workers answering a job that was gone, and the next call in the process died on their answers).
// In one process, a seeded sequence of evaluateFiles and command line calls, failures (an empty qrels,
// a bad line in the qrels or a run, a missing file, a run cut mid-line, an empty run, a run judged
// nowhere) among successes, across 1 to 4 workers: each call's outcome, output or error, is the same
// call's by one worker (RANKEVAL_THREADS=1: no worker at all, as a fresh process). From the source the
// workers run in this thread, kept from call to call as the pool keeps its threads, their answers still
// on the way when a call ends handed to the next (src/node/partitioned.ts); from the build, the pool's
// threads themselves.
import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { EvaluationSpec } from "../src/app/evaluator.js";
import { Partitions, type PartitionPort } from "../src/pipeline/partition-coordinator.js";
import type { PartitionReport } from "../src/pipeline/partition-protocol.js";
import { partitionWorker } from "../src/pipeline/partition-worker-handler.js";
import { cli } from "./_cli.js";
import { seedOr } from "./_seed.js";

const SEED = seedOr(36036);

/** A seeded stream of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const dir = mkdtempSync(join(tmpdir(), "rankeval-partition-failures-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

// 300 queries; runs of about 600 KB, several chunks each (256 KiB at least), so that a bad line late in
// one is split while the chunks before it are taken.
const random = seeded(SEED);
const qrelsLines: string[] = [];
for (let q = 0; q < 300; q++) {
  if (q % 23 === 5) continue;
  const n = 1 + Math.floor(random() * 30);
  for (let j = 0; j < n; j++) qrelsLines.push(`${q} 0 d${Math.floor(random() * 80)}-${j} ${Math.floor(random() * 4)}`);
}
const runLines = (tag: string, skip: number) => {
  const lines: string[] = [];
  for (let q = 0; q < 300; q++) {
    if (q % 17 === skip) continue;
    const n = 20 + Math.floor(random() * 80);
    for (let r = 0; r < n; r++)
      lines.push(`${q} Q0 d${Math.floor(random() * 80)}-${r} ${r + 1} ${Math.floor(random() * 20) / 4} ${tag}`);
  }
  return lines;
};
const text = (lines: readonly string[]) => `${lines.join("\n")}\n`;
const qrels = file("qrels.txt", text(qrelsLines));
const run0Lines = runLines("a", 0);
const run0 = file("a.run", text(run0Lines));
const run1 = file("b.run", text(runLines("b", 1)));
const withLine = (lines: readonly string[], at: number, line: string) => [
  ...lines.slice(0, Math.floor(lines.length * at)),
  line,
  ...lines.slice(Math.floor(lines.length * at)),
];

/** Each case's QRELS and RUNs: successes, and failures of every kind, some found by a worker, some by this side. */
const CASES: Record<string, [string, ...string[]]> = {
  "one run": [qrels, run0],
  "two runs": [qrels, run0, run1],
  "an empty qrels": [file("empty-qrels.txt", ""), run0, run1],
  "a bad line in the qrels": [file("bad-qrels.txt", text(withLine(qrelsLines, 0.6, "7 0 d1"))), run0],
  "a bad line late in a run": [qrels, file("bad.run", text(withLine(run0Lines, 0.8, "7 Q0 dx 1 not-a-number a")))],
  "a missing run": [qrels, run0, join(dir, "missing.run")],
  "a run cut mid-line": [qrels, file("cut.run", text(run0Lines).slice(0, -25))],
  "an empty run after a good one": [qrels, run0, file("empty.run", "")],
  "a run judged nowhere": [qrels, file("unjudged.run", "nobody Q0 d1 1 1 t\nnone Q0 d2 1 1 t\n"), run1],
  "labels trec_eval reads otherwise": [
    file("decimal-qrels.txt", text(withLine(qrelsLines, 0.5, "3 0 d3-0 1.5"))),
    run0,
  ],
};

/** How a call is made: its outcome as data, an error by its message. */
type Api = {
  evaluateFiles: (qrels: string, runs: string[], measures: string[]) => Promise<unknown>;
  cli: (args: string[]) => Promise<unknown>;
  /** Sets the workers for the next call. */
  workers: (n: number) => void;
};

const CALLS: Record<string, (api: Api, files: [string, ...string[]]) => Promise<unknown>> = {
  evaluateFiles: (api, [q, ...runs]) => api.evaluateFiles(q, runs, ["map", "ndcg@10", "P@5"]),
  "rankeval -m map -m ndcg_cut.10": (api, files) => api.cli(["-m", "map", "-m", "ndcg_cut.10", ...files]),
  "rankeval -q -m all_trec -M 3": (api, files) => api.cli(["-q", "-m", "all_trec", "-M", "3", ...files]),
};

async function outcome(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return { value: await call() };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** The seeded sequence of calls, each against the same call by one worker (`one`), computed once. */
async function sequence(api: Api, one: Api, calls: number, most: number): Promise<void> {
  const pick = seeded(SEED + 1);
  const choose = <T>(xs: readonly T[]) => xs[Math.floor(pick() * xs.length)];
  // Every case once, in a seeded order, then any.
  const names = Object.keys(CASES);
  for (let i = names.length - 1; i > 0; i--) {
    const j = Math.floor(pick() * (i + 1));
    [names[i], names[j]] = [names[j], names[i]];
  }
  while (names.length < calls) names.push(choose(Object.keys(CASES)));
  const plan = names.map((what) => ({ what, how: choose(Object.keys(CALLS)), n: 1 + Math.floor(pick() * most) }));
  const expected = new Map<string, unknown>();
  one.workers(1);
  for (const { what, how } of plan)
    if (!expected.has(`${how}, ${what}`))
      expected.set(`${how}, ${what}`, await outcome(() => CALLS[how](one, CASES[what])));
  // Then one call right after another: a call's workers meet what the one before left.
  for (const [i, { what, how, n }] of plan.entries()) {
    api.workers(n);
    const got = await outcome(() => CALLS[how](api, CASES[what]));
    expect(got, `call ${i}: ${how}, ${what}, ${n} workers`).toEqual(expected.get(`${how}, ${what}`));
  }
}

describe("calls after failed ones across workers, in one process: each as in a fresh one", () => {
  const saved = { threads: process.env.RANKEVAL_THREADS, least: process.env.RANKEVAL_THREAD_MIN_BYTES };
  afterAll(() => {
    for (const [k, v] of [
      ["RANKEVAL_THREADS", saved.threads],
      ["RANKEVAL_THREAD_MIN_BYTES", saved.least],
    ] as const)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });
  // RANKEVAL_THREADS is read at each call (src/node/partitioned.ts partitionWorkers).
  const source = async (): Promise<Api> => {
    const { evaluateFiles } = await import("../src/node/index.js");
    process.env.RANKEVAL_THREAD_MIN_BYTES = "0";
    return {
      evaluateFiles: (q, runs, measures) => evaluateFiles(q, runs, measures as ["map"]),
      cli,
      workers: (n) => {
        process.env.RANKEVAL_THREADS = String(n);
      },
    };
  };

  it("from the source: workers in this thread, kept from call to call", async () => {
    const api = await source();
    await sequence(api, api, 24, 4);
  });

  const built = join(__dirname, "..", "dist", "node");
  it.skipIf(!existsSync(join(built, "pool.js")))(
    "from the build: the pool's threads, kept from call to call",
    async () => {
      const one = await source();
      const index = (await import(join(built, "index.js"))) as { evaluateFiles: Api["evaluateFiles"] };
      const command = (await import(join(built, "cli.js"))) as typeof import("../src/node/cli.js");
      const pool = (await import(join(built, "pool.js"))) as typeof import("../src/node/pool.js");
      const utf8 = new TextDecoder();
      // One pool throughout, as a server's (a pool of another size would replace it, its threads new):
      // 4 threads, one a core at most.
      pool.setPoolSize(4);
      await sequence(
        {
          evaluateFiles: (q, runs, measures) => index.evaluateFiles(q, runs, measures),
          workers: () => {},
          cli: async (args) => {
            let stdout = "";
            let stderr = "";
            const status = await command.main(args, {
              stdout: { write: (s: string | Uint8Array) => (stdout += typeof s === "string" ? s : utf8.decode(s)) },
              stderr: { write: (s: string) => (stderr += s) },
            });
            return { status, stdout, stderr };
          },
        },
        one,
        12,
        4,
      );
      await pool.threadPool()?.close();
    },
  );
});

describe("a session the page keeps (Partitions) after an error of this side (a callback, a file unreadable)", () => {
  /** Workers in this thread, their messages cloned as postMessage clones them. */
  const ports = async (n: number): Promise<PartitionPort<string, EvaluationSpec>[]> => {
    const { specEvaluator } = await import("../src/app/evaluator.js");
    const readInto = (path: string, start: number, into: Uint8Array) => {
      const fd = openSync(path, "r");
      try {
        readSync(fd, into, 0, into.length, start);
      } finally {
        closeSync(fd);
      }
    };
    return Array.from({ length: n }, () => {
      let onReport: (r: PartitionReport) => void = () => {};
      const handle = partitionWorker<string, EvaluationSpec>(
        (r, transfer) => {
          const copy = structuredClone(r, { transfer });
          setImmediate(() => onReport(copy));
        },
        readInto,
        (spec) => specEvaluator(spec),
      );
      return {
        post: (m, transfer) => {
          const copy = structuredClone(m, { transfer });
          setImmediate(() => handle(copy));
        },
        listen: (report) => {
          onReport = report;
        },
        release: () => handle({ type: "stop" }),
      };
    });
  };
  const readAt = (path: string, position: number, length: number) => {
    const out = new Uint8Array(length);
    const fd = openSync(path, "r");
    try {
      return out.subarray(0, readSync(fd, out, 0, length, position));
    } finally {
      closeSync(fd);
    }
  };
  const partFile = (path: string) => ({ source: path, name: path, size: statSync(path).size });
  const spec: EvaluationSpec = { names: ["map"], fallback: null, conventions: {}, tieRange: false };

  // It may have stopped half-way through a file: its workers' state is unknown.
  it("ends failed: it evaluates no more runs (the one-worker way reads what is left)", async () => {
    const p = new Partitions(await ports(3), readAt);
    try {
      expect(await p.judge(partFile(qrels), { spec })).toBe(true);
      // The page's callback fails on the first run, the second's answers still to come.
      const thrown = new Error("the page's callback failed");
      await expect(
        p.evaluate([partFile(run0), partFile(run1)], () => {
          throw thrown;
        }),
      ).rejects.toBe(thrown);
      expect(p.failed).toBe(true);
      expect(await p.evaluate([partFile(run0), partFile(run1)], () => {})).toBe(0);
    } finally {
      p.end();
    }
  });
});
