// Messages between the page (main.ts) and its worker (worker.ts).
import type { Comparison, TestName } from "../src/compare/compare.js";
import type { Correction } from "../src/compare/correct.js";
import { formatFixed4, formatLong } from "../src/trec/format.js";
import type { Conventions } from "../src/app/plan.js";
import type { Explanation } from "../src/explain/explain.js";

/** What to compute: -m names as the CLI takes them (none: the defaults) and the conventions. */
export interface Settings {
  measures: string[];
  conventions: Conventions;
  /** Each value's [worst, best] over the orders of tied documents too (the CLI's --tie-range). */
  tieRange?: boolean;
}

/**
 * Page -> worker: files to read and evaluate, or new settings for the files already read. A qrels
 * file may come first alone, to be read while runs are chosen; a worker reads one qrels file, so a
 * later trec job's qrels is the one it has (the page starts another worker for another).
 */
export type Job =
  | { kind: "qrels"; qrels: File }
  /**
   * keepRows: run rows kept to re-evaluate without reading again (the worker's KEEP_ROWS by default);
   * compare: the comparison to make once two runs or more are evaluated.
   */
  | { kind: "trec"; qrels: File; runs: File[]; settings: Settings; keepRows?: number; compare?: CompareSettings }
  | { kind: "letor"; letor: File; scores: File; query: File | null; settings: Settings }
  | { kind: "settings"; settings: Settings; compare?: CompareSettings }
  /** Another comparison of the runs evaluated (no evaluation again). */
  | { kind: "compare"; compare: CompareSettings }
  /**
   * Drill-downs of these queries (src/explain/) over every run read, under the current settings, shown
   * to `depth` ranks (default: the cutoff of `measure`, a printed name, at least 20); `id` comes back
   * with the answer.
   */
  | { kind: "explain"; id: number; qids: string[]; depth?: number; measure?: string };

/**
 * The comparison the page asks for, as the command line's --compare options: --baseline (null: the
 * first run), --test (one), --correction (null: compare()'s default) and --alpha.
 */
export interface CompareSettings {
  baseline: string | null;
  test: TestName;
  correction: Correction | null;
  alpha: number;
}

/** The mean difference of two runs (run - baseline) and its 95% t interval, for the difference plot. */
export interface Interval {
  measure: string;
  baseline: string;
  run: string;
  n: number;
  difference: number;
  ci95: readonly [number, number];
}

/** One value: as displayed, and the number behind it (null for text such as runid, and for NaN). */
export interface Cell {
  text: string;
  value: number | null;
  /** With the tie range: the value with ties in their worst and their best order. */
  range?: { worst: number; best: number };
}

/**
 * How a per-query value is shown: trec_eval's `%6.4f` ("float") and `%ld` ("long") for trec_eval
 * names, the CLI's table otherwise (whole numbers as such, others to 4 decimals).
 */
export type Print = "float" | "long" | "table";

/**
 * One run's per-query values: qids in order, and each measure's values in the same order, as
 * numbers (one Float64Array per measure: a few hundred thousand queries stay compact).
 */
export interface PerQuery {
  qids: string[];
  columns: Record<string, { values: Float64Array; print: Print }>;
}

/** A per-query value as the CLI prints it. */
export function formatValue(v: number, print: Print): string {
  if (print === "long") return formatLong(v);
  if (print === "float") return formatFixed4(v).trim();
  return Number.isNaN(v) ? "NaN" : Number.isInteger(v) ? String(v) : formatFixed4(v).trim();
}

/** Worker -> page. */
export type Report =
  | { type: "progress"; file: string; read: number; size: number; lines: number; seconds: number }
  | { type: "rows"; measures: string[]; conventions: string }
  | { type: "run"; name: string; cells: Record<string, Cell>; perQuery: PerQuery }
  | { type: "downloads"; json: string; csv: string; trec: string | null }
  /** The qrels file is read: runs are evaluated against it from now on. */
  | { type: "judgments" }
  | { type: "warning"; message: string }
  /**
   * The comparison of the runs under the page's CompareSettings, its downloads (the command line's
   * --compare --format markdown, latex, csv, json: the same bytes), and every pair's interval.
   */
  | { type: "comparison"; comparison: Comparison; test: TestName; downloads: Record<"markdown" | "latex" | "csv" | "json", string>; intervals: Interval[] }
  | { type: "comparison-error"; message: string }
  /** `kept`: the worker kept what it read, so new settings need no second read. */
  | { type: "done"; kept: boolean }
  | { type: "error"; message: string }
  | { type: "explain"; id: number; explanations: Explanation[] }
  | { type: "explain-error"; id: number; message: string };
