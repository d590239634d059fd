// The faces that evaluate files, each run the way a user runs it, each answer put in one shape:
//  - the command line in this process (src/node/cli.ts's main, from source), its threads RANKEVAL_THREADS's
//    partitions run in this thread (src/node/partitioned.ts: no thread starts from source);
//  - the command line built (dist/node/bin.js, a child process), its threads real worker threads;
//  - the library: evaluateFiles, and evaluateRun on readQrels' and readRun's objects;
//  - the page in Chromium (test/faces/page.ts).
import { execFile } from "node:child_process";
import { basename } from "node:path";
import { main } from "../../src/node/cli.js";
import { evaluateRun, type Result } from "../../src/index.js";
import { evaluateFiles, readQrels, readRun } from "../../src/node/index.js";

export interface Printed {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** One run's numbers: means and per-query values by measure key (the library's and JSON's keys). */
export interface RunNumbers {
  readonly mean: Record<string, number | null>;
  readonly perQuery: Record<string, Record<string, number | null>>;
}

/** A face's numbers: by run, the run named by its file name less its extensions (runA.csv.gz: runA). */
export type Numbers = Record<string, RunNumbers>;

/** A face's answer: numbers, or the message it refused the input with. */
export type Answer = { readonly numbers: Numbers } | { readonly refused: string };

export const runName = (file: string) => basename(file).replace(/\..*$/, "");

/** The environment the in-process faces see while `body` runs: RANKEVAL_THREADS and _THREAD_MIN_BYTES. */
export async function withThreads<T>(threads: number, minBytes: number | null, body: () => Promise<T>): Promise<T> {
  const saved = { t: process.env.RANKEVAL_THREADS, m: process.env.RANKEVAL_THREAD_MIN_BYTES };
  process.env.RANKEVAL_THREADS = String(threads);
  if (minBytes === null) delete process.env.RANKEVAL_THREAD_MIN_BYTES;
  else process.env.RANKEVAL_THREAD_MIN_BYTES = String(minBytes);
  try {
    return await body();
  } finally {
    for (const [k, v] of [
      ["RANKEVAL_THREADS", saved.t],
      ["RANKEVAL_THREAD_MIN_BYTES", saved.m],
    ] as const)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

/** The command line in this process, with `threads` partitions (1: none) and the threads' least bytes. */
export function cliHere(args: readonly string[], threads = 1, minBytes: number | null = 0): Promise<Printed> {
  return withThreads(threads, minBytes, async () => {
    let stdout = "";
    let stderr = "";
    const status = await main([...args], {
      stdout: {
        write: (s: string | Uint8Array) => (stdout += typeof s === "string" ? s : new TextDecoder().decode(s)),
      },
      stderr: { write: (s: string) => (stderr += s) },
    });
    return { status, stdout, stderr };
  });
}

const BUILT_CLI = new URL("../../dist/node/bin.js", import.meta.url).pathname;

/** The built command line (npm run build), a child process with `--threads threads` real threads. */
export function cliBuilt(args: readonly string[], threads: number, minBytes: number | null = 0): Promise<Printed> {
  const env = { ...process.env };
  delete env.RANKEVAL_THREADS;
  if (minBytes === null) delete env.RANKEVAL_THREAD_MIN_BYTES;
  else env.RANKEVAL_THREAD_MIN_BYTES = String(minBytes);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BUILT_CLI, "--threads", String(threads), ...args],
      { env, encoding: "utf8", maxBuffer: 256 << 20 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: unknown }).code ?? 255) : 0;
        resolve({ status: typeof code === "number" ? code : 255, stdout, stderr });
      },
    );
  });
}

interface JsonReport {
  runs: {
    run: string;
    mean: Record<string, number | null>;
    perQuery?: Record<string, Record<string, number | null>>;
  }[];
}

/** The numbers of `--format json -q` (or the page's JSON download, which has no perQuery). */
export function numbersOfJson(text: string): Numbers {
  const report = JSON.parse(text) as JsonReport;
  return Object.fromEntries(
    report.runs.map((r) => [runName(r.run), { mean: r.mean, perQuery: r.perQuery ?? {} }] as const),
  );
}

/**
 * Names the library reads as rankeval's counts, averaged, where the command line reads them as trec_eval's,
 * summed (the README's "A name gives its tool's number": a bare name both tools know is rankeval's in
 * the library). Their per-query values are the same; the library's sum of them is compared.
 */
const SUMMED_BY_TREC_EVAL = new Set(["num_ret", "num_rel_ret", "num_rel"]);

/** A Result's numbers: NaN as JSON writes it (null); the counts above as their sums. */
export function numbersOfResult(result: Result<string>): RunNumbers {
  const value = (v: number) => (Number.isNaN(v) ? null : v);
  const summary = (m: string) =>
    SUMMED_BY_TREC_EVAL.has(m) ? result.values[m].reduce((s, v) => (Number.isNaN(v) ? s : s + v), 0) : result.mean[m];
  const mean = Object.fromEntries(result.measures.map((m) => [m, value(summary(m))]));
  const perQuery: Record<string, Record<string, number | null>> = {};
  result.qids.forEach((q, i) => {
    perQuery[q] = Object.fromEntries(result.measures.map((m) => [m, value(result.values[m][i])]));
  });
  return { mean, perQuery };
}

/**
 * The message a face refused the input with, as every face should say it: the paths as file names
 * (the page knows only those) and the command line's "rankeval: " and usage hint left out.
 */
export function refusal(message: string, paths: readonly string[]): string {
  // The command line's error is its last line (warnings may come before it).
  const lines = message
    .replace(/\n\(rankeval --help for usage\)\n?$/, "")
    .trimEnd()
    .split("\n");
  let m = lines[lines.length - 1].replace(/^rankeval: /, "");
  for (const p of paths) m = m.split(p).join(basename(p));
  return m.trim();
}

/** The command line's answer to `-q --format json`: its numbers, or its refusal (exit 2). */
export function answerOfCli(out: Printed, paths: readonly string[]): Answer {
  if (out.status === 0) return { numbers: numbersOfJson(out.stdout) };
  return { refused: `exit ${out.status}: ${refusal(out.stderr, paths)}` };
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** evaluateFiles' answer (source, `threads` partitions in this thread). */
export async function answerOfEvaluateFiles(
  qrels: string,
  runs: readonly string[],
  measures: readonly string[],
  threads: number,
  options: Record<string, unknown> = {},
): Promise<Answer> {
  try {
    const results = await withThreads(threads, 0, () =>
      evaluateFiles(qrels, runs, measures as never, options as never),
    );
    return { numbers: Object.fromEntries(results.map((r, i) => [runName(runs[i]), numbersOfResult(r)])) };
  } catch (e) {
    return { refused: `exit 2: ${refusal(message(e), [qrels, ...runs])}` };
  }
}

/** evaluateRun on readQrels' and readRun's objects. */
export async function answerOfEvaluateRun(
  qrels: string,
  runs: readonly string[],
  measures: readonly string[],
  options: Record<string, unknown> = {},
): Promise<Answer> {
  try {
    const q = await readQrels(qrels, options);
    const numbers: Record<string, RunNumbers> = {};
    for (const path of runs) {
      const run = await readRun(path, options);
      numbers[runName(path)] = numbersOfResult(evaluateRun(q, run, measures as never) as Result<string>);
    }
    return { numbers };
  } catch (e) {
    return { refused: `exit 2: ${refusal(message(e), [qrels, ...runs])}` };
  }
}

/** The per-query values left out (the page's JSON download has means only). */
export function meansOnly(answer: Answer): Answer {
  if (!("numbers" in answer)) return answer;
  return {
    numbers: Object.fromEntries(Object.entries(answer.numbers).map(([k, v]) => [k, { mean: v.mean, perQuery: {} }])),
  };
}
