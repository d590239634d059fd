// The page's evaluation across Web Workers (src/pipeline/partition-coordinator.ts: the files cut by query
// id among partition workers, each owning the queries that hash to it): the page's side of it, the
// files read as slices of the chosen File (each worker reads its own chunks) and the workers started
// inline (partition-worker.ts). No SharedArrayBuffer: nothing needs a cross-origin-isolated server.
import type { EvaluationSpec } from "../src/app/evaluator.js";
import {
  PARTITION_MIN_BYTES,
  PARTITION_MIN_WORKERS,
  type PartitionPort,
} from "../src/pipeline/partition-coordinator.js";
import type { PartFile, PartitionReport } from "../src/pipeline/partition-protocol.js";
import { isGzip } from "./read-file.js";
import { isTrecText } from "./text-files.js";
import { columnarFormat } from "./file-columns.js";
import type { Parallel } from "./protocol.js";
// Inlined, as the page's other workers are (a page opened from disk may start no worker from a URL).
import PartitionWorker from "./partition-worker.js?worker&inline";

/** Workers per GiB of the device's memory (navigator.deviceMemory; 4 where the browser does not say). */
const WORKERS_PER_GIB = 2;
const MAX_WORKERS = 16;
/**
 * How many partition workers: one per core (navigator.hardwareConcurrency, PARTITION_MIN_WORKERS or
 * more: below, the page's one worker and its reader keep the cores busy and do less work in all),
 * bounded by memory. Each holds, besides its share of the judgments, a block of run rows being joined
 * (BLOCK_ROWS) and its chunks in flight, about 150 MB at most (the tab with the 1 GB run: 1.22 GiB
 * with one worker; 1.52-1.60 with two partition workers, 1.61 with three, 1.85 with four): 2 per GiB
 * of navigator.deviceMemory, 16 at most. Fewer than 2: none (the one worker's way).
 * `parallel.workers` (the page's ?workers=N) says how many instead, whatever the cores.
 */
export function workerCount(parallel: Parallel): number {
  if (parallel.workers !== undefined) return Math.min(parallel.workers, MAX_WORKERS);
  const nav = navigator as Navigator & { deviceMemory?: number };
  const cores = nav.hardwareConcurrency || 1;
  if (cores < PARTITION_MIN_WORKERS) return 1;
  return Math.min(cores, Math.floor((nav.deviceMemory ?? 4) * WORKERS_PER_GIB), MAX_WORKERS);
}

/**
 * Whether the files go through the partition workers: two or more, every file TREC text (by its name,
 * and not Parquet or Arrow by its first bytes, as the page reads it) not gzipped (read from the start
 * by one reader), large enough (`parallel.minBytes`, the page's ?partition-bytes=N: another least size;
 * 0, any).
 */
export async function partitionable(files: readonly File[], parallel: Parallel): Promise<boolean> {
  if (workerCount(parallel) < 2) return false;
  let bytes = 0;
  for (const f of files) {
    if (!isTrecText(f) || (await isGzip(f)) || (await columnarFormat(f))) return false;
    bytes += f.size;
  }
  return bytes >= (parallel.minBytes ?? PARTITION_MIN_BYTES);
}

/** A Web Worker's reports to `report`; its error to `fail` (its message, else `otherwise`), not the page's. */
export function listenTo<R>(
  worker: Worker,
  report: (r: R) => void,
  fail: (message: string) => void,
  otherwise = "",
): void {
  worker.onmessage = (e: MessageEvent<R>) => report(e.data);
  worker.onerror = (e) => {
    e.preventDefault();
    fail(e.message || otherwise);
  };
}

/**
 * `n` new partition workers as the session holds them. They live as long as it does: the judgments
 * they hold serve every run and setting that follows. Once the page's worker reads the judgments
 * itself, or one of them fails, they end: an idle one would hold a kernel and an isolate for nothing.
 */
export function partitionPorts(n: number): PartitionPort<File, EvaluationSpec>[] {
  return Array.from({ length: n }, () => {
    const worker = new PartitionWorker();
    return {
      post: (message, transfer) => worker.postMessage(message, transfer ?? []),
      listen: (onReport, onFail) => listenTo<PartitionReport>(worker, onReport, onFail, "a partition worker failed"),
      release: () => worker.terminate(),
    };
  });
}

/**
 * The most bytes of a chunk: each read of a File's slice costs a round trip to the browser's process
 * (measured on the 1 GB run, two workers: 6.4 s with 2 MiB chunks, the command line's, 3.5 s with 8,
 * 3.5 with 16, 3.6 with 32 and more memory).
 */
export const CHUNK_MOST = 8 << 20;

/** Up to `length` bytes of `file` from `position`. */
export async function readAt(file: File, position: number, length: number): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(position, position + length).arrayBuffer());
}

export const partFile = (file: File): PartFile<File> => ({ source: file, name: file.name, size: file.size });
