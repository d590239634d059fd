/** Messages between partition-coordinator.ts and partition-worker-handler.ts. Browser compatible. */
import type { OwnedJudgments, OwnedRun } from "./partition.js";

/** A file as workers read it: `source` a path or File, `name` for messages. */
export interface PartFile<S> {
  source: S;
  name: string;
  size: number;
}

/** What owners evaluate (`spec`: the evaluator's, as data). */
export interface PartitionJob<Spec> {
  spec: Spec;
  complete?: boolean;
  placeholder?: boolean;
  /** Some name reads labels with atol: files it reads otherwise are left to one worker. */
  trecLabels?: boolean;
}

/** Coordinator to worker. */
export type PartitionMessage<S, Spec> =
  /** `peers[j]`: a port to worker j (null at its own index). */
  | {
      type: "start";
      session: number;
      index: number;
      parts: number;
      job: PartitionJob<Spec>;
      peers: (MessagePort | null)[];
    }
  /** Stream 0: the judgments, r + 1: run r. */
  | { type: "split"; stream: number; chunk: number; source: S; start: number; end: number }
  | { type: "judgmentsStart"; file: string; expectedBytes: number }
  | { type: "judgmentsEnd"; file: string }
  /** `spec`: this run's, where not the start's. */
  | { type: "runStart"; stream: number; file: string; spec?: Spec }
  | { type: "runEnd" }
  | { type: "stop" }
  /** Compiles the kernel ahead of the first job. */
  | { type: "load" };

export type WorkerReport =
  | { type: "split"; chunk: number; last: number }
  | { type: "took"; chunk: number }
  | { type: "judged"; judged: OwnedJudgments }
  | { type: "run"; owned: OwnedRun }
  | { type: "failed"; message: string };

export type PartitionReport = WorkerReport & { session: number };
