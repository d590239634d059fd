// Node's side of evaluating QRELS and RUN across every thread (src/pipeline/partition-coordinator.ts):
// files read by path, threads held from the pool. What it leaves goes the one-thread way (files.ts).
import { closeSync, openSync, readSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { EvaluationSpec } from "../app/evaluator.js";
import type { ParserChoice } from "../input/formats.js";
import { fileFormat } from "./columnar-files.js";
import type { EvaluatorFor, OwnedJudgments } from "../pipeline/partition.js";
import {
  evaluatePartitions,
  PARTITION_MIN_BYTES,
  PARTITION_MIN_WORKERS,
  type PartitionPort,
} from "../pipeline/partition-coordinator.js";
import type { PartitionJob, PartitionMessage, PartitionReport } from "../pipeline/partition-protocol.js";
import { partitionWorker } from "../pipeline/partition-worker-handler.js";
import { displayName, inputInfo, type ProgressSink } from "./file-read.js";
import { givenThreadMinBytes } from "./files.js";
import type { ThreadPool } from "./pool.js";
import type { RunOutcome } from "./runs.js";

/** Whether the files go across the threads: enough threads, large enough TREC files on disk (not pipes or gzip). */
export function partitionable(
  pool: ThreadPool | PartitionsInThisThread | null | undefined,
  files: readonly string[],
  choice: ParserChoice,
): pool is ThreadPool | PartitionsInThisThread {
  // RANKEVAL_THREAD_MIN_BYTES=0 (the tests'): any input, any number of threads.
  const least = givenThreadMinBytes();
  if (!pool || owners(pool) < (least === 0 ? 2 : PARTITION_MIN_WORKERS) || choice.columns !== undefined) return false;
  let bytes = 0;
  for (const f of files) {
    if (fileFormat(f, choice.format).format !== "trec") return false;
    const info = inputInfo(f);
    if (!info.regular || info.gzip) return false;
    bytes += info.size;
  }
  return bytes >= (least ?? PARTITION_MIN_BYTES);
}

/** The pool's threads, at most one a core (more only share them); in this thread, as many as asked. */
function owners(pool: ThreadPool | PartitionsInThisThread): number {
  return "inThisThread" in pool ? pool.size : Math.min(pool.size, availableParallelism());
}

/** Evaluates the runs across `pool`'s threads; returns how many it evaluated (the caller does the rest). */
export function evaluatePartitioned(...args: Parameters<typeof evaluateOnThreads>): Promise<number> {
  // One at a time: two each holding some threads would wait for each other.
  const mine = turn.then(() => evaluateOnThreads(...args));
  turn = mine.catch(() => {});
  return mine;
}

let turn: Promise<unknown> = Promise.resolve();

async function evaluateOnThreads(
  pool: ThreadPool | PartitionsInThisThread,
  qrels: string,
  runs: readonly string[],
  job: PartitionJob<EvaluationSpec>,
  onJudged: (judged: OwnedJudgments) => void,
  done: (index: number, outcome: RunOutcome) => void,
  progress?: ProgressSink,
): Promise<number> {
  const ports: PartitionPort<string, EvaluationSpec>[] = [];
  if ("inThisThread" in pool) {
    const { specEvaluator } = await import("../app/evaluator.js");
    for (let i = 0; i < owners(pool); i++) ports.push(portInThisThread(specEvaluator));
  } else
    for (let i = 0; i < owners(pool); i++) {
      const thread = await pool.acquire();
      ports.push({
        post: (message, transfer) => thread.post({ kind: "partition", job: message }, transfer),
        listen: (onReport, onFail) => thread.listen((r) => onReport(r as PartitionReport), onFail),
        release: (ok) => thread.release(ok),
      });
    }
  const file = (path: string) => ({ source: path, name: displayName(path), size: inputInfo(path).size });
  return evaluatePartitions(
    ports,
    readAt,
    file(qrels),
    runs.map(file),
    job,
    onJudged,
    (i, r) => done(i, { file: runs[i], ...r }),
    progress,
  );
}

/**
 * Workers run in this thread, messages cloned as postMessage does: where no thread can start (from
 * source, as the tests run) and RANKEVAL_THREADS asks for two or more, so tests take this path.
 */
export interface PartitionsInThisThread {
  inThisThread: true;
  size: number;
}

/** `pool`, or else RANKEVAL_THREADS's workers in this thread. */
export function partitionWorkers(pool: ThreadPool | null): ThreadPool | PartitionsInThisThread | null {
  if (pool) return pool;
  const given = process.env.RANKEVAL_THREADS;
  const size = given !== undefined && /^\d+$/.test(given.trim()) ? Number(given) : 0;
  return size >= 2 ? { inThisThread: true, size: Math.min(size, 256) } : null;
}

/** A worker in this thread, kept idle as a pool thread; reports made while idle go to the next holder. */
interface WorkerInThisThread {
  send(message: PartitionMessage<string, EvaluationSpec>, transfer?: Transferable[]): void;
  onReport: ((r: PartitionReport) => void) | null;
  unheard: PartitionReport[];
}

const idleInThisThread: WorkerInThisThread[] = [];

function workerInThisThread(specEvaluator: (spec: EvaluationSpec) => EvaluatorFor): WorkerInThisThread {
  const handle = partitionWorker<string, EvaluationSpec>(
    (r, transfer) => {
      const copy = structuredClone(r, { transfer });
      setImmediate(() => (worker.onReport ? worker.onReport(copy) : worker.unheard.push(copy)));
    },
    readInto,
    specEvaluator,
  );
  const worker: WorkerInThisThread = {
    send: (message, transfer) => {
      const copy = structuredClone(message, { transfer });
      setImmediate(() => handle(copy));
    },
    onReport: null,
    unheard: [],
  };
  return worker;
}

function portInThisThread(
  specEvaluator: (spec: EvaluationSpec) => EvaluatorFor,
): PartitionPort<string, EvaluationSpec> {
  const worker = idleInThisThread.pop() ?? workerInThisThread(specEvaluator);
  let released = false;
  return {
    post: (message, transfer) => worker.send(message, transfer),
    listen: (report) => {
      worker.onReport = report;
      const unheard = worker.unheard.splice(0);
      setImmediate(() => {
        for (const r of unheard) report(r);
      });
    },
    release: (ok) => {
      if (released) return;
      released = true;
      worker.onReport = null;
      if (ok) idleInThisThread.push(worker);
      else {
        worker.unheard.length = 0;
        // Its ports closed (they would keep the process alive).
        worker.send({ type: "stop" });
      }
    },
  };
}

function readAt(path: string, position: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  const fd = openSync(path, "r");
  try {
    return out.subarray(0, readSync(fd, out, 0, length, position));
  } finally {
    closeSync(fd);
  }
}

function readInto(path: string, start: number, into: Uint8Array): void {
  const fd = openSync(path, "r");
  try {
    for (let at = 0; at < into.length; ) {
      const n = readSync(fd, into, at, into.length - at, start + at);
      if (n <= 0)
        throw new Error(`${path}: ended at byte ${start + at}, before ${start + into.length} (it shrank while read)`);
      at += n;
    }
  } finally {
    closeSync(fd);
  }
}

// ---- In a thread of the pool ----

export async function partitionThread(
  post: (r: PartitionReport, transfer?: Transferable[]) => void,
): Promise<(message: unknown) => void> {
  const { specEvaluator } = await import("../app/evaluator.js");
  const handle = partitionWorker<string, EvaluationSpec>(post, readInto, (spec) => specEvaluator(spec, displayName));
  return (m) => handle(m as PartitionMessage<string, EvaluationSpec>);
}
