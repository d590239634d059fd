// `rankeval --compare`'s resampling jobs on the process's threads (pool.ts) while the main thread
// does its share. Each iteration draws its own random stream: the result is the same on any number.
import { availableParallelism } from "node:os";
import type { ResamplingPool } from "../compare/compare.js";
import { runResamplingJob, type ResamplingJob } from "../compare/resampling.js";
import { RankevalError } from "../errors/errors.js";
import { threadPool } from "./pool.js";

/**
 * The least resampling work for which threads pay (measured roughly: a thread's start-up is 50-140 ms,
 * the kernel does ~1.5 x 10^9 units a second; below ~3 x 10^8 units a thread saves less than it costs).
 */
const POOL_MIN_WORK = 3e8;

/** B x queries x runs x measures per resampling test; the randomization test's an eighth (8 queries a step). */
export function resamplingWork(
  tests: readonly string[],
  iterations: number,
  queries: number,
  runs: number,
  measures: number,
): number {
  const per = iterations * queries * runs * measures;
  let work = 0;
  for (const t of tests) if (t === "bootstrap" || t === "tukey") work += per;
  if (tests.includes("randomization")) work += per / 8;
  return work;
}

/** Threads to start: `requested` (RANKEVAL_COMPARE_THREADS), else one per other core when the work pays. */
export function threadsFor(work: number, requested?: number): number {
  if (requested !== undefined) return requested;
  return work >= POOL_MIN_WORK ? otherCores() : 0;
}

/** A pool compareAsync() can use, and close() to end its use. */
export interface ThreadPool extends ResamplingPool {
  close(): Promise<void>;
}

/** One thread per other core, at most 15: the default of resamplingPool(). */
function otherCores(): number {
  return Math.max(0, Math.min(availableParallelism() - 1, 15));
}

/**
 * compareAsync()'s pool: `threads` worker threads (default one per other core, at most 15) of the
 * process's pool, which the command line's reading shares; with 0, or where threads cannot start (run
 * from the TypeScript source), size 0, and compareAsync() runs the work in this thread. The result is
 * compare()'s to the last bit on any number. The threads are kept for the next call (idle, they do
 * not keep the process alive): close() ends this pool's use, not them.
 */
export function resamplingPool(threads: number = otherCores()): ThreadPool {
  if (typeof threads !== "number" || !Number.isInteger(threads) || threads < 0 || threads > 256)
    throw new RankevalError(
      "bad-option",
      `resamplingPool(threads): ${typeof threads === "number" ? threads : (JSON.stringify(threads) ?? String(threads))} is not a number of threads from 0 to 256`,
    );
  const pool = threads > 0 ? threadPool() : null;
  let closed = false;
  return {
    size: pool ? threads : 0,
    run: (job: ResamplingJob) => {
      if (closed) return Promise.reject(new RankevalError("bad-option", "resamplingPool: used after close()"));
      return pool ? pool.request<Float64Array[]>("resample", job) : Promise.resolve(runResamplingJob(job));
    },
    close: async () => {
      closed = true;
    },
  };
}
