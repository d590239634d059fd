// The page's side of src/pipeline/partition-coordinator.ts; no SharedArrayBuffer (no cross-origin isolation).
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
import { startWorker } from "./worker-script.js";

const WORKERS_PER_GIB = 2;
const MAX_WORKERS = 16;
/**
 * Partition workers: one per core (none under PARTITION_MIN_WORKERS: one worker and its reader do less
 * work), 2 per GiB of deviceMemory (each ~150 MB beyond its judgments: the 1 GB run's tab 1.22 GiB with
 * one worker, 1.85 with four), 16 at most.
 */
export function workerCount(parallel: Parallel): number {
  if (parallel.workers !== undefined) return Math.min(parallel.workers, MAX_WORKERS);
  const nav = navigator as Navigator & { deviceMemory?: number };
  const cores = nav.hardwareConcurrency || 1;
  if (cores < PARTITION_MIN_WORKERS) return 1;
  return Math.min(cores, Math.floor((nav.deviceMemory ?? 4) * WORKERS_PER_GIB), MAX_WORKERS);
}

/** Whether the files go to partition workers: all TREC text, not gzipped (read from the start), `minBytes` in all. */
export async function partitionable(files: readonly File[], parallel: Parallel): Promise<boolean> {
  if (workerCount(parallel) < 2) return false;
  let bytes = 0;
  for (const f of files) {
    if (!isTrecText(f) || (await isGzip(f)) || (await columnarFormat(f))) return false;
    bytes += f.size;
  }
  return bytes >= (parallel.minBytes ?? PARTITION_MIN_BYTES);
}

/** A worker's reports to `report`, its error to `fail` (not the page's). */
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

/** `n` new partition workers, ended once their judgments serve no more (idle, they hold a kernel). */
export function partitionPorts(n: number): PartitionPort<File, EvaluationSpec>[] {
  return Array.from({ length: n }, () => {
    const worker = startWorker("partition");
    return {
      post: (message, transfer) => worker.postMessage(message, transfer ?? []),
      listen: (onReport, onFail) => listenTo<PartitionReport>(worker, onReport, onFail, "a partition worker failed"),
      release: () => worker.terminate(),
    };
  });
}

/** Chunk bytes at most: each slice read is a round trip (1 GB run, two workers: 6.4 s at 2 MiB, 3.5 s at 8). */
export const CHUNK_MOST = 8 << 20;

export async function readAt(file: File, position: number, length: number): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(position, position + length).arrayBuffer());
}

export const partFile = (file: File): PartFile<File> => ({ source: file, name: file.name, size: file.size });
