// `rankeval --compare`'s resampling jobs on the process's threads (pool.ts) while the main thread
// does its share. Each iteration draws its own random stream: the result is the same on any number.
import { availableParallelism } from "node:os";
import type { ResamplingPool } from "../compare/compare.js";
import type { ResamplingJob } from "../compare/resampling.js";
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
  return work >= POOL_MIN_WORK ? Math.max(0, Math.min(availableParallelism() - 1, 15)) : 0;
}

/** A pool compareAsync() can use, and close() to end its use. */
export interface ThreadPool extends ResamplingPool {
  close(): Promise<void>;
}

/** compareAsync()'s pool of `size` jobs on the process's threads; null: none (the work runs here). */
export function resamplingPool(size: number): ThreadPool | null {
  const threads = size > 0 ? threadPool() : null;
  if (!threads) return null;
  return {
    size,
    run: (job: ResamplingJob) => threads.request<Float64Array[]>("resample", job),
    close: async () => {},
  };
}
