// Messages between the page (main.ts) and its worker (worker.ts).
import type { Comparison, TestName } from "../src/compare/compare.js";
import type { Correction } from "../src/compare/correct.js";
import type { Conventions } from "../src/app/plan.js";
import type { CurvePoint } from "../src/app/curve.js";
import type { Explanation } from "../src/explain/explain.js";
import type { ValuePrint } from "../src/app/value-print.js";
import type { MeanDifference, QrelsCompareReport } from "../src/output/html/data.js";
import type { NormName } from "../src/fusion/fuse.js";
import type { PreparationOptions } from "../src/pipeline/prepare-run.js";

/** -m names (none: the defaults) and conventions. */
export interface Settings {
  measures: string[];
  conventions: Conventions;
  /** The CLI's --tie-range. */
  tieRange?: boolean;
  /** The CLI's --rollup, --rollup-method, --drop-self (runPreparation reads them). */
  prepare?: PreparationOptions;
}

/** Page -> worker. A worker reads one qrels file, which may come alone, read while runs are chosen. */
export type Job =
  | { kind: "qrels"; qrels: File; parallel?: Parallel }
  /** compare: made once two runs are evaluated. */
  | {
      kind: "trec";
      qrels: File;
      runs: File[];
      settings: Settings;
      keepRows?: number;
      compare?: CompareSettings;
      parallel?: Parallel;
      /** The fused run is evaluated after the runs. */
      fuse?: FuseChoice;
    }
  | { kind: "letor"; letor: File; scores: File; query: File | null; settings: Settings }
  | { kind: "settings"; settings: Settings; compare?: CompareSettings }
  | { kind: "compare"; compare: CompareSettings }
  /** Drill-downs (`depth`: as explainQueries); `id` comes back. */
  | { kind: "explain"; id: number; qids: string[]; depth?: number; measure?: string }
  /** Each dropped Parquet/Arrow file's input. */
  | { kind: "roles"; files: File[] }
  /** First: the worker's own script, for the workers it starts (worker-script.ts). */
  | { kind: "script"; script: Blob }
  /** The judgments' functions on files (src/judgments/on-files.ts), in a worker of their own. */
  | JudgmentsJob;

/**
 * The CLI's --qrels-stats QRELS, --agreement QRELS QRELS..., --pool METHOD [--judged QRELS] RUN...,
 * --fill QRELS_EXTRA QRELS RUN... (the holes; the evaluation is the page's own, under the filled
 * judgments) and --qrels-compare QRELS_A QRELS_B RUN RUN...
 */
export type JudgmentsJob =
  | { kind: "qrels-stats"; qrels: File; threshold: number; perQuery: boolean }
  | { kind: "agreement"; qrels: File[]; threshold: number; bins: number[] | null; perQuery: boolean }
  | {
      kind: "pool";
      runs: File[];
      method: string;
      budget: number | null;
      combine: "sum" | "max" | null;
      judged: File | null;
      /** -M: each run's top N read (null: not given). */
      depth: number | null;
      coverageDepth: number | null;
    }
  | { kind: "fill"; qrels: File; extra: File; runs: File[]; depth: number }
  | {
      kind: "qrels-compare";
      qrels: [File, File];
      runs: File[];
      /** -m (none: the command line's defaults). */
      measures: string[];
      /** -l (null: not given). */
      threshold: number | null;
      bins: number[] | null;
    };

/** What a judgments job shows: the CLI's text and JSON, and for a pool its lines and coverage. */
export interface JudgmentsResult {
  type: "judgments-result";
  /** The command line's standard output (--pool: its qid docid lines; --fill: the holes it says on stderr). */
  text: string;
  /** The command line's --format json (--fill: none, its JSON is the evaluation's). */
  json: string | null;
  /** What it says on standard error besides (undefined agreement values), without "rankeval: ". */
  notes: string[];
  /** --agreement: the confusion matrix of the first two sets (row labels, column labels, counts). */
  confusion?: { labels: string[]; matrix: number[][] };
  /** --pool: --format qrels's lines, the coverage's title and rows (COVERAGE_HEADER's columns). */
  pool?: { qrels: string; summary: string; coverage: string[][] };
  /**
   * --fill: the filled judgments as TREC qrels lines and their name (QRELS+QRELS_EXTRA), for the page's
   * evaluation; the holes table's title and rows (HOLES_HEADER's columns).
   */
  fill?: { qrels: string; name: string; summary: string; holes: string[][] };
  /** --qrels-compare: its HTML report's data (the report itself is made on the page when asked for). */
  qrelsCompare?: QrelsCompareReport;
}

/** ?workers=N (1: none) and ?partition-bytes=N (default 32 MiB): partitions.ts. */
export interface Parallel {
  workers?: number;
  minBytes?: number;
}

/** The CLI's --fuse and --norm (null: none). */
export interface FuseChoice {
  method: string;
  norm: NormName | null;
}

/** The CLI's --baseline (null: the first run), --test, --correction (null: default), --alpha. */
export interface CompareSettings {
  baseline: string | null;
  test: TestName;
  correction: Correction | null;
  alpha: number;
}

/** run − baseline's mean and 95% t interval. */
export type Interval = MeanDifference;

/** A value as shown and its number (null: text such as runid, or NaN). */
export interface Cell {
  text: string;
  value: number | null;
  /** --tie-range's values. */
  range?: { worst: number; best: number };
  /** Result.interval. */
  interval?: readonly [number, number];
}

/** A run's per-query values: a Float64Array per measure, in `qids` order. */
export interface PerQuery {
  qids: string[];
  columns: Record<string, { values: Float64Array; print: ValuePrint }>;
}

/** Worker -> page. */
export type Report =
  /** `lines`: none from partition workers. */
  | { type: "progress"; file: string; read: number; size: number; lines?: number; seconds: number }
  | { type: "rows"; measures: string[]; conventions: string }
  /** `curve`: null where not computed. */
  | { type: "run"; name: string; cells: Record<string, Cell>; perQuery: PerQuery; curve: readonly CurvePoint[] | null }
  | { type: "downloads"; json: string; csv: string; trec: string | null }
  /** src/app/manifest.ts's YAML, after done. */
  | { type: "manifest"; yaml: string }
  /** The qrels file is read. */
  | { type: "judgments" }
  | { type: "warning"; message: string }
  /** `downloads`: --compare --format's bytes. */
  | {
      type: "comparison";
      comparison: Comparison;
      test: TestName;
      downloads: Record<"markdown" | "latex" | "csv" | "json", string>;
      intervals: Interval[];
    }
  | { type: "comparison-error"; message: string }
  /** `kept`: new settings need no second read. `workers`: partition workers used (1: none). */
  | { type: "done"; kept: boolean; workers: number }
  | { type: "error"; message: string }
  | { type: "explain"; id: number; explanations: Explanation[] }
  | { type: "explain-error"; id: number; message: string }
  | { type: "roles"; roles: ("qrels" | "run" | null)[] }
  | JudgmentsResult;
