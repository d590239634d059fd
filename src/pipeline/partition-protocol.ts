/**
 * The messages of one evaluation across workers (partition.ts) between the side that hands out the
 * work (partition-coordinator.ts, which says why each carries its session's number) and each worker
 * (partition-worker-handler.ts).
 *
 * Browser compatible.
 */
import type { OwnedJudgments, OwnedRun } from "./partition.js";

/** A file as the workers read it: `source` is what a worker reads it from (a path, a File), `name` its name in messages. */
export interface PartFile<S> {
  source: S;
  name: string;
  size: number;
}

/** What the owners evaluate (`spec`: the evaluator's, as data), with trec_eval's -c and its placeholder. */
export interface PartitionJob<Spec> {
  spec: Spec;
  complete?: boolean;
  placeholder?: boolean;
  /** Some name reads labels as trec_eval does (atol): a file with labels it reads otherwise is left to one worker, which says so. */
  trecLabels?: boolean;
}

/** The side that hands out the work (partition-coordinator.ts) -> a worker. */
export type PartitionMessage<S, Spec> =
  /**
   * `session`: the number every report and peer message of this session carries; `peers[j]`: a port
   * to worker j (null at its own index), which its buckets and spare buffers go through.
   */
  | {
      type: "start";
      session: number;
      index: number;
      parts: number;
      job: PartitionJob<Spec>;
      peers: (MessagePort | null)[];
    }
  /** Split bytes [start, end) of `source`, chunk `chunk` of stream `stream` (0: the judgments, r + 1: run r). */
  | { type: "split"; stream: number; chunk: number; source: S; start: number; end: number }
  | { type: "judgmentsStart"; file: string; expectedBytes: number }
  | { type: "judgmentsEnd"; file: string }
  /** `spec`: the evaluator's for this run, where not the start's (the page's settings of the moment). */
  | { type: "runStart"; stream: number; file: string; spec?: Spec }
  | { type: "runEnd" }
  | { type: "stop" }
  /** Loads what the first job needs (the kernel compiled) while nothing waits for it. */
  | { type: "load" };

/** What a worker says to this side. */
export type WorkerReport =
  | { type: "split"; chunk: number; last: number }
  | { type: "took"; chunk: number }
  | { type: "judged"; judged: OwnedJudgments }
  | { type: "run"; owned: OwnedRun }
  | { type: "failed"; message: string };

/** A worker -> this side: a report of session `session` (the one it last started). */
export type PartitionReport = WorkerReport & { session: number };
