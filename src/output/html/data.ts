// What an HTML report holds (JSON), for --report and the page; web/report-view.ts draws it. Browser-safe.
import type { Comparison, TestName } from "../../compare/compare.js";
import { CORRECTION_NAMES, formatP, markLegend, pairRows, significance } from "../comparison.js";
import type { Explanation } from "../../explain/explain.js";
import { printValue, type ValuePrint } from "../../app/value-print.js";
import { sortQids } from "../../c/strings.js";
import type { CurvePoint } from "../../app/curve.js";

/** A run as the page holds it: aggregate cells by row, per-query values by measure. */
export interface ReportRun {
  readonly name: string;
  readonly cells: Readonly<
    Record<
      string,
      { readonly text: string; readonly value: number | null; readonly interval?: readonly [number, number] }
    >
  >;
  readonly perQuery: {
    readonly qids: readonly string[];
    readonly columns: Readonly<Record<string, { readonly values: ArrayLike<number>; readonly print: ValuePrint }>>;
  };
  /** Its precision-recall curve, if computed. */
  readonly curve?: readonly CurvePoint[] | null;
}

/** run - baseline and its 95% t interval, for the difference plot. */
export interface MeanDifference {
  readonly measure: string;
  readonly baseline: string;
  readonly run: string;
  readonly n: number;
  readonly difference: number;
  readonly ci95: readonly [number, number];
}

export interface ReportInput {
  /** What made it, and rankeval's version. */
  readonly source: string;
  readonly rows: readonly string[];
  readonly conventions: string;
  readonly runs: readonly ReportRun[];
  /** With two runs or more; `test`: the marks'. */
  readonly comparison: { readonly comparison: Comparison; readonly test: TestName } | null;
  readonly intervals: readonly MeanDifference[];
  /** The drill-downs, and the measure and baseline that chose them. */
  readonly explained: {
    readonly measure: string;
    readonly baseline: string;
    readonly explanations: readonly Explanation[];
  };
  readonly warnings: readonly string[];
}

/**
 * A per-query column as printed: `scale` decimals as an integer (0.8422 as 8422), else the text ("-nan"),
 * null where the run lacks the query. Exact, and a third the size of the doubles.
 */
export interface StoredColumn {
  readonly measure: string;
  readonly run: number;
  readonly print: ValuePrint;
  readonly scale: 0 | 4;
  readonly values: readonly (number | string | null)[];
}

/**
 * rankeval --qrels-compare's report (issue 38): its cells as its text prints them (the strings are
 * src/judgments/qrels-compare-text.ts's), the means as numbers too for the scatter.
 */
export interface QrelsCompareReport {
  /** The two sets of judgments' names. */
  readonly a: string;
  readonly b: string;
  readonly runs: readonly string[];
  readonly measures: readonly {
    readonly measure: string;
    /** run, mean A, mean B, B - A, queries A, queries B. */
    readonly header: readonly string[];
    readonly rows: readonly (readonly string[])[];
    /** Each run's (mean under A, mean under B), null where either is undefined. */
    readonly points: readonly (readonly [number, number] | null)[];
    /** kendall_tau, tau_ap, tau_ap_b: the value as printed, what it is, and why it is undefined. */
    readonly taus: readonly {
      readonly name: string;
      readonly value: string;
      readonly note: string;
      readonly why: string | null;
    }[];
  }[];
  /** The agreement of A and B: (name, value) as --agreement prints them, and why any is undefined. */
  readonly agreement: readonly (readonly [string, string])[];
  readonly agreementNotes: readonly string[];
  /** A's categories down the rows, B's across; null where agreement gives none. */
  readonly confusion: { readonly labels: readonly string[]; readonly matrix: readonly (readonly number[])[] } | null;
}

export interface ReportData {
  readonly version: 1;
  readonly source: string;
  readonly rows: readonly string[];
  readonly conventions: string;
  readonly runs: readonly {
    /** Absent in older reports. */
    readonly curve?: readonly CurvePoint[] | null;
    readonly name: string;
    readonly cells: Readonly<
      Record<string, readonly [string, number | null] | readonly [string, number | null, readonly [number, number]]>
    >;
  }[];
  /** Significance marks by row and run, and cell titles. */
  readonly marks: Readonly<
    Record<string, Readonly<Record<string, { readonly mark: "higher" | "lower" | null; readonly title: string }>>>
  >;
  readonly comparison: {
    readonly baseline: string | null;
    readonly test: TestName;
    readonly legend: string;
    readonly header: readonly string[];
    readonly rows: readonly (readonly string[])[];
    readonly significant: readonly boolean[];
    readonly notes: string;
  } | null;
  readonly intervals: readonly MeanDifference[];
  readonly perQuery: { readonly qids: readonly string[]; readonly columns: readonly StoredColumn[] };
  readonly explained: ReportInput["explained"];
  readonly warnings: readonly string[];
  /** --qrels-compare's report: drawn instead of the runs' (which are then empty). Absent in others. */
  readonly qrelsCompare?: QrelsCompareReport;
}

const DECIMALS = /^-?\d+\.\d{4}$/;
const INTEGER = /^-?\d+$/;

/** Its printed text, as a number where exact. */
export function storeValue(v: number, print: ValuePrint): number | string {
  const text = printValue(v, print);
  if (print === "long")
    return INTEGER.test(text) && Number.isSafeInteger(Number(text)) && text !== "-0" ? Number(text) : text;
  if (!DECIMALS.test(text) || text.startsWith("-0.0000")) return text;
  const n = Number(text.replace(".", ""));
  return Number.isSafeInteger(n) ? n : text;
}

export function storedText(v: number | string | null, scale: 0 | 4): string {
  if (v === null) return "";
  if (typeof v === "string") return v;
  if (scale === 0) return String(v);
  const digits = String(Math.abs(v)).padStart(5, "0");
  return `${v < 0 ? "-" : ""}${digits.slice(0, -4)}.${digits.slice(-4)}`;
}

/** NaN for "-nan", "NaN", or none. */
export function storedNumber(v: number | string | null, scale: 0 | 4): number {
  if (v === null) return NaN;
  if (typeof v === "string") return Number(v);
  return scale === 0 ? v : v / 1e4;
}

/** Drill-downs in a report without --report-queries. */
export const REPORT_QUERIES = 50;

/** A comparison column of run names (class "name": they wrap), else null. */
export const nameColumn = (header: string): "name" | null =>
  header === "baseline" || header === "run" ? "name" : null;

/** The notes under the page's and report's comparison tables. */
export function pairNotes(c: Comparison, test: TestName): string {
  const { correction: k, alpha, tests, iterations, seed } = c.settings;
  const correction = test === "tukey" ? "HSD-adjusted" : k === "none" ? "no correction" : CORRECTION_NAMES[k];
  const resampled = tests.some((t) => t === "randomization" || t === "bootstrap" || t === "tukey");
  return (
    "n: queries both runs have a value for; diff = run - baseline with its 95% t interval; " +
    "d_z = mean(diff) / sd(diff); W/T/L = the run's wins, ties, losses; " +
    `MDD: the smallest difference the paired t-test at ${alpha} finds significant 80% of the time over n queries; ` +
    `p: adjusted (${correction}), * below ${alpha}${resampled ? `; B = ${iterations}, seed ${seed}` : ""}.`
  );
}

function comparisonTable(c: Comparison, test: TestName): NonNullable<ReportData["comparison"]> {
  const { header, rows } = pairRows(c, (t) => `${t} p`);
  const significant = c.comparisons.map((x) => x.tests[test]?.significant === true);
  const legend = markLegend(c, test);
  return { baseline: c.baseline, test, legend, header, rows, significant, notes: pairNotes(c, test) };
}

export function reportData(input: ReportInput): ReportData {
  const runs = input.runs.map((r) => ({
    curve: r.curve ?? null,
    name: r.name,
    cells: Object.fromEntries(
      Object.entries(r.cells).map(([k, c]) => [
        k,
        c.interval ? ([c.text, c.value, c.interval] as const) : ([c.text, c.value] as const),
      ]),
    ),
  }));
  const marks: Record<string, Record<string, { mark: "higher" | "lower" | null; title: string }>> = {};
  const c = input.comparison;
  if (c && c.comparison.baseline !== null) {
    for (const x of c.comparison.comparisons) {
      const r = x.tests[c.test];
      if (!r) continue;
      (marks[x.measure] ??= {})[x.run] = {
        mark: significance(x, c.test),
        title: `${c.test} vs ${x.baseline}: p = ${formatP(r.p)}, adjusted ${formatP(r.pAdjusted)} (n = ${x.n})`,
      };
    }
  }
  // Every run's queries in byte order, each column aligned to them.
  const qids = sortQids([...new Set(input.runs.flatMap((r) => r.perQuery.qids))]);
  const row = new Map(qids.map((q, i) => [q, i]));
  const columns: StoredColumn[] = [];
  const measures = [...new Set(input.runs.flatMap((r) => Object.keys(r.perQuery.columns)))];
  for (const m of measures) {
    input.runs.forEach((r, i) => {
      const col = r.perQuery.columns[m];
      if (!col) return;
      const values: (number | string | null)[] = new Array(qids.length).fill(null);
      r.perQuery.qids.forEach((q, k) => (values[row.get(q)!] = storeValue(col.values[k], col.print)));
      columns.push({ measure: m, run: i, print: col.print, scale: col.print === "long" ? 0 : 4, values });
    });
  }
  return {
    version: 1,
    source: input.source,
    rows: input.rows,
    conventions: input.conventions,
    runs,
    marks,
    comparison: c ? comparisonTable(c.comparison, c.test) : null,
    intervals: input.intervals,
    perQuery: { qids, columns },
    explained: input.explained,
    warnings: input.warnings,
  };
}

/** A report of --qrels-compare alone: the evaluation's parts empty. */
export function qrelsCompareReportData(source: string, q: QrelsCompareReport): ReportData {
  return {
    version: 1,
    source,
    rows: [],
    conventions: "",
    runs: [],
    marks: {},
    comparison: null,
    intervals: [],
    perQuery: { qids: [], columns: [] },
    explained: { measure: "", baseline: "", explanations: [] },
    warnings: [],
    qrelsCompare: q,
  };
}
