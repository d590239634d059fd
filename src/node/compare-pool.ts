// --compare's resampling jobs on the pool's threads; each iteration draws its own random stream, so any number gives one result.
import { availableParallelism } from "node:os";
import type { ResamplingPool } from "../compare/compare.js";
import { runResamplingJob, type ResamplingJob } from "../compare/resampling.js";
import { RankevalError } from "../errors/errors.js";
import { threadPool } from "./pool.js";

/** The least work threads pay for (a thread starts in 50-140 ms; the kernel does ~1.5e9 units/s). */
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

/** `requested` (RANKEVAL_COMPARE_THREADS), else one per other core when the work pays. */
export function threadsFor(work: number, requested?: number): number {
  if (requested !== undefined) return requested;
  return work >= POOL_MIN_WORK ? otherCores() : 0;
}

/** A pool for compareAsync(); close() ends its use. */
export interface ThreadPool extends ResamplingPool {
  close(): Promise<void>;
}

function otherCores(): number {
  return Math.max(0, Math.min(availableParallelism() - 1, 15));
}

/**
 * compareAsync()'s pool: `threads` worker threads (default one per other core, at most 15); 0, or
 * where threads cannot start, runs the work in this thread. The result is compare()'s to the last bit
 * on any number. Threads are kept, idle ones not keeping the process alive: close() ends only this use.
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
