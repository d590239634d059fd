// The worker threads of `rankeval --compare`: a pool that runs compareAsync()'s resampling jobs
// (runResamplingJob: the randomization test's sign flips, the bootstrap's resamples, the Tukey HSD's
// permutations, in the WebAssembly kernel) on the other cores while the main thread does its share.
// Every iteration draws its own random stream, so the result is compare()'s to the last bit whatever
// the number of threads. The threads are the process's pool's (pool.ts), which runs a job as
// `request("resample", job)` (runResamplingJob, loaded in a thread when first asked for).
import { availableParallelism } from "node:os";
import type { ResamplingPool } from "../compare/compare.js";
import type { ResamplingJob } from "../compare/resampling.js";
import { threadPool } from "./pool.js";

/**
 * The least resampling work (resamplingWork's units) for which threads pay. Measured roughly (the
 * machine of the project's figures, 2 cores, shared with other processes at a load of about 5, so
 * the times are loose): starting a thread and running its first job (Node's thread, this module and
 * the kernel compiled again there) took 50-140 ms; the kernel does about 1.5 x 10^9 units a second
 * for the bootstrap and the Tukey HSD; compare() with one thread against compareAsync() with one
 * worker, start-up included: bootstrap 1.2 x 10^8 units 103 ms vs 88 ms, 5 x 10^8 290 vs 180 ms;
 * Tukey HSD 1.2 x 10^8 141 vs 202 ms, 5 x 10^8 492 vs 455 ms, 2 x 10^9 1301 vs 686 ms. Below about
 * 3 x 10^8 units (~200 ms of one core) a thread saves less than it costs.
 */
const POOL_MIN_WORK = 3e8;

/**
 * How much work the resampling tests of a comparison are: for each test that resamples, B x queries
 * x runs x measures (the bootstrap resamples a column per run and measure; the Tukey HSD permutes each
 * query's values over the runs, per measure), the randomization test's counted an eighth: its kernel
 * adds a table entry per 8 queries (measured: 2 x 10^9 of its units in 255 ms, where a thread did
 * not pay yet).
 */
export function resamplingWork(tests: readonly string[], iterations: number, queries: number, runs: number, measures: number): number {
  const per = iterations * queries * runs * measures;
  let work = 0;
  for (const t of tests) if (t === "bootstrap" || t === "tukey") work += per;
  if (tests.includes("randomization")) work += per / 8;
  return work;
}

/**
 * The number of threads to start: `requested` when given (the RANKEVAL_COMPARE_THREADS environment
 * variable: 0 for none), else one per core but this one, when the work pays for them, else none.
 */
export function threadsFor(work: number, requested?: number): number {
  if (requested !== undefined) return requested;
  return work >= POOL_MIN_WORK ? Math.max(0, Math.min(availableParallelism() - 1, 15)) : 0;
}

/** A pool compareAsync() can use, and close() to end its use. */
export interface ThreadPool extends ResamplingPool {
  close(): Promise<void>;
}

/**
 * compareAsync()'s pool over `size` threads of the process's pool (pool.ts: started when first
 * needed, kept for the next job, at most RANKEVAL_THREADS or one per core at once: a larger `size`
 * splits the work into more jobs, which wait their turn, with the same result); null when `size` is
 * 0 or there are no threads here (run from the TypeScript source, as the tests do): the comparison
 * then runs in this thread, with the same result.
 */
export function resamplingPool(size: number): ThreadPool | null {
  const threads = size > 0 ? threadPool() : null;
  if (!threads) return null;
  return {
    size,
    run: (job: ResamplingJob) => threads.request<Float64Array[]>("resample", job),
    // Idle threads do not keep the process alive: nothing to end here.
    close: async () => {},
  };
}
