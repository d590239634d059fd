// fuse() and normalize(): ranx's fusion methods and score normalisations, on ranx's definitions.
import type { ScoredRun } from "./run-shapes.js";

/** ranx's normalisation names. */
export type NormName = "min-max" | "min-max-inverted" | "max" | "sum" | "zmuv" | "rank" | "borda";

export interface FuseOptions {
  /** ranx's method name: "rrf", "wsum", "probfuse", ... */
  readonly method: string;
  /** The normalisation applied to each run first (ranx's default "min-max"); null for none. */
  readonly norm?: NormName | null;
  /** The method's parameters (weights, k, phi, ...; a learned method's trained parameters). */
  readonly params?: Readonly<Record<string, unknown>>;
}

/** `runs` fused into one run, in the shape they came in. */
export function fuse(_runs: readonly ScoredRun[], _options: FuseOptions): ScoredRun {
  throw new Error("fuse: not built yet");
}

/** `run` normalised by `norm`, query by query. */
export function normalize(_run: ScoredRun, _norm: NormName): ScoredRun {
  throw new Error("normalize: not built yet");
}
