// The worker threads of `rankeval --compare`: a pool that runs compareAsync()'s resampling jobs
// (runResamplingJob: the randomization test's sign flips, the bootstrap's resamples, the Tukey HSD's
// permutations, in the WebAssembly kernel) on the other cores while the main thread does its share.
// Every iteration draws its own random stream, so the result is compare()'s to the last bit whatever
// the number of threads. This module is also the threads' script (as run-reader.ts is); it is kept
// small and in one place so that a general pool of the command line's threads can take it over.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { parentPort, Worker, workerData } from "node:worker_threads";
import type { ResamplingPool } from "../compare/compare.js";
import { runResamplingJob, type ResamplingJob } from "../compare/resampling.js";

const self = new URL(import.meta.url);
/** Marks the threads this module starts, so that it serves only those. */
const RESAMPLER = "rankeval resampler";

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
export const POOL_MIN_WORK = 3e8;

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

/** A pool compareAsync() can use, and close() to end its threads. */
export interface ThreadPool extends ResamplingPool {
  close(): Promise<void>;
}

/**
 * A pool of `size` worker threads; null when `size` is 0, or where this module is not its own built
 * file (run from its TypeScript source, as the tests do, or bundled into another): the comparison
 * then runs in this thread, with the same result.
 */
export function resamplingPool(size: number): ThreadPool | null {
  if (size <= 0 || !/\/compare-pool\.c?js$/.test(self.pathname) || !existsSync(fileURLToPath(self))) return null;
  const workers = Array.from({ length: size }, () => new Worker(self, { workerData: RESAMPLER }));
  const idle = [...workers];
  const queue: (() => void)[] = [];
  const waiting = new Map<number, { resolve: (o: Float64Array[]) => void; reject: (e: Error) => void; worker: Worker }>();
  let nextId = 0;
  const fail = (worker: Worker, e: Error) => {
    for (const [id, w] of waiting) if (w.worker === worker) (waiting.delete(id), w.reject(e));
  };
  for (const worker of workers) {
    worker.on("message", ({ id, output }: { id: number; output: Float64Array[] }) => {
      const w = waiting.get(id);
      waiting.delete(id);
      idle.push(worker);
      queue.shift()?.();
      w?.resolve(output);
    });
    worker.on("error", (e) => fail(worker, e));
    // A thread that ends without a word (killed, out of memory) would leave its job waiting for ever.
    worker.on("exit", (code) => fail(worker, new Error(`a resampling thread ended (exit code ${code})`)));
  }
  return {
    size,
    run: (job: ResamplingJob) =>
      new Promise<Float64Array[]>((resolve, reject) => {
        const start = () => {
          const worker = idle.pop()!;
          const id = nextId++;
          waiting.set(id, { resolve, reject, worker });
          worker.postMessage({ id, job });
        };
        if (idle.length) start();
        else queue.push(start);
      }),
    close: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

// In a worker thread: run the jobs the main thread posts, and move the arrays back.
if (parentPort && workerData === RESAMPLER) {
  const port = parentPort;
  port.on("message", ({ id, job }: { id: number; job: ResamplingJob }) => {
    const output = runResamplingJob(job);
    port.postMessage({ id, output }, output.map((o) => o.buffer as ArrayBuffer));
  });
}
