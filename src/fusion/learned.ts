// Fusion methods that learn from judgments (ranx's probfuse, segfuse, slidefuse, posfuse, mapfuse and
// bayesfuse): each trains its parameters from judgments and runs, then fuses runs with those parameters.
import type { Judgments, ScoredRun } from "./run-shapes.js";

export interface LearnedMethod {
  /** The method's parameters learned from `qrels` and training `runs` (ranx's `<method>_train`). */
  train(
    qrels: Judgments,
    runs: readonly ScoredRun[],
    options: Readonly<Record<string, unknown>>,
  ): Record<string, unknown>;
  /** `runs` fused with parameters `train` gave (ranx's `<method>`). */
  fuse(runs: readonly ScoredRun[], params: Readonly<Record<string, unknown>>): ScoredRun;
}

export const LEARNED_METHODS: Readonly<Record<string, LearnedMethod>> = {};
