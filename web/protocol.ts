// Messages between the page (main.ts) and its worker (worker.ts).
import type { Comparison, TestName } from "../src/compare/compare.js";
import type { Correction } from "../src/compare/correct.js";
import type { Conventions } from "../src/app/plan.js";
import type { CurvePoint } from "../src/app/curve.js";
import type { Explanation } from "../src/explain/explain.js";
import type { ValuePrint } from "../src/app/value-print.js";
import type { MeanDifference } from "../src/output/html/data.js";
import type { NormName } from "../src/fusion/fuse.js";

/** What to compute: -m names as the CLI takes them (none: the defaults) and the conventions. */
export interface Settings {
  measures: string[];
  conventions: Conventions;
  /** Each value's [worst, best] over the orders of tied documents too (the CLI's --tie-range). */
  tieRange?: boolean;
}

/**
 * Page -> worker. A qrels file may come first alone, read while runs are chosen; a worker reads one
 * qrels file (the page starts another worker for another).
 */
export type Job =
  | { kind: "qrels"; qrels: File; parallel?: Parallel }
  /** keepRows: the worker's KEEP_ROWS; compare: the comparison to make once two runs are evaluated. */
  | {
      kind: "trec";
      qrels: File;
      runs: File[];
      settings: Settings;
      keepRows?: number;
      compare?: CompareSettings;
      parallel?: Parallel;
      /** The runs fused (fuse(), ranx's methods), the fused run evaluated as one more run after them. */
      fuse?: FuseChoice;
    }
  | { kind: "letor"; letor: File; scores: File; query: File | null; settings: Settings }
  | { kind: "settings"; settings: Settings; compare?: CompareSettings }
  | { kind: "compare"; compare: CompareSettings }
  /** Drill-downs to `depth` ranks (default: the cutoff of `measure`, at least 20); `id` comes back. */
  | { kind: "explain"; id: number; qids: string[]; depth?: number; measure?: string }
  /** Which input each dropped Parquet or Arrow file belongs to (the page leaves their readers to the worker). */
  | { kind: "roles"; files: File[] };

/**
 * The page's ?workers=N and ?partition-bytes=N (web/partitions.ts): how many partition workers (1: none;
 * default: one per core, bounded by memory) and the least bytes of TREC text they take (default 32 MiB).
 */
export interface Parallel {
  workers?: number;
  minBytes?: number;
}

/** The page's fusion: ranx's method and norm (null: none), as the command line's --fuse and --norm. */
export interface FuseChoice {
  method: string;
  norm: NormName | null;
}

/** The command line's --baseline (null: the first run), --test, --correction (null: default), --alpha. */
export interface CompareSettings {
  baseline: string | null;
  test: TestName;
  correction: Correction | null;
  alpha: number;
}

/** The mean difference of two runs (run - baseline) and its 95% t interval, for the difference plot. */
export type Interval = MeanDifference;

/** One value: as displayed, and the number behind it (null for text such as runid, and for NaN). */
export interface Cell {
  text: string;
  value: number | null;
  /** With the tie range: the value with ties in their worst and their best order. */
  range?: { worst: number; best: number };
  /** The mean's 95% t interval (Result.interval), where it has one. */
  interval?: readonly [number, number];
}

/** One run's per-query values, a Float64Array per measure in the order of `qids`, printed as the CLI prints them. */
export interface PerQuery {
  qids: string[];
  columns: Record<string, { values: Float64Array; print: ValuePrint }>;
}

/** Worker -> page. */
export type Report =
  /** `lines`: none where partition workers read the file (each its own chunks: none counts the lines). */
  | { type: "progress"; file: string; read: number; size: number; lines?: number; seconds: number }
  | { type: "rows"; measures: string[]; conventions: string }
  /** `curve`: its precision-recall curve (src/app/curve.ts), null where not computed. */
  | { type: "run"; name: string; cells: Record<string, Cell>; perQuery: PerQuery; curve: readonly CurvePoint[] | null }
  | { type: "downloads"; json: string; csv: string; trec: string | null }
  /** The evaluation's manifest (src/app/manifest.ts) as YAML, once every input is hashed (after done). */
  | { type: "manifest"; yaml: string }
  /** The qrels file is read: runs are evaluated against it from now on. */
  | { type: "judgments" }
  | { type: "warning"; message: string }
  /** The comparison, its downloads (the bytes of --compare --format ...) and every pair's interval. */
  | {
      type: "comparison";
      comparison: Comparison;
      test: TestName;
      downloads: Record<"markdown" | "latex" | "csv" | "json", string>;
      intervals: Interval[];
    }
  | { type: "comparison-error"; message: string }
  /**
   * `kept`: the worker kept what it read, so new settings need no second read. `workers`: how many
   * partition workers evaluated the runs (1: the worker alone, for some run at least).
   */
  | { type: "done"; kept: boolean; workers: number }
  | { type: "error"; message: string }
  | { type: "explain"; id: number; explanations: Explanation[] }
  | { type: "explain-error"; id: number; message: string }
  /** Each file's input if it is Parquet or Arrow, else null. */
  | { type: "roles"; roles: ("qrels" | "run" | null)[] };
