// rankeval --qrels-compare's text (issue 38): the library's qrelsCompare (src/index.ts) as aligned
// text, a table per measure, then the agreement as --agreement prints it; the command line's and the
// page's (web/worker.ts), so the two print the same.
import type { QrelsCompareReport } from "../output/html/data.js";
import { alignedLines, tableValue } from "../output/table.js";
import { agreementNotes, agreementText } from "./on-files.js";
import type { QrelsCompare, QrelsCompareMeasure } from "./qrels-compare.js";

type Names = { readonly a: string; readonly b: string; readonly runs: readonly string[] };

/** A mean or tau as the text prints it: 4 decimals, - where undefined (null). */
const value = (v: number | null) => (v === null ? "-" : tableValue(v));

/** The taus under each measure's table: name, value, what it is (the text's and the report's). */
const tauRows = (m: QrelsCompareMeasure): ["kendall_tau" | "tau_ap" | "tau_ap_b", string, string][] => [
  ["kendall_tau", value(m.kendall_tau), ""],
  ["tau_ap", value(m.tau_ap), "(A the reference)"],
  ["tau_ap_b", value(m.tau_ap_b), "(B the reference)"],
];

/** What --qrels-compare prints: its standard output, and its notes on stderr (without "rankeval: "). */
export function qrelsCompareOutput(c: QrelsCompare, names: Names): { text: string; notes: string[] } {
  const agreed = { ...c.agreement, per_query: [] };
  return { text: qrelsCompareText(c, names, agreementText(agreed, false)), notes: agreementNotes(agreed) };
}

/**
 * The HTML report's data (src/output/html/data.ts): the text's cells, each run's B - A besides, and the
 * agreement's lines as --agreement prints them, split into name and value, with its confusion matrix.
 */
export function qrelsCompareReport(c: QrelsCompare, names: Names): QrelsCompareReport {
  const agreed = { ...c.agreement, per_query: [] };
  const lines = agreementText(agreed, false)
    .split("\n")
    .filter((l) => l !== "");
  const confusion = c.agreement.confusion;
  return {
    a: names.a,
    b: names.b,
    runs: c.runs.map((r, i) => names.runs[i] ?? r),
    measures: c.measures.map((key) => {
      const m = c.by_measure[key];
      return {
        measure: key,
        header: ["run", "mean A", "mean B", "B - A", "queries A", "queries B"],
        rows: m.runs.map((r, i) => [
          names.runs[i] ?? r.run,
          value(r.mean_a),
          value(r.mean_b),
          value(r.mean_a === null || r.mean_b === null ? null : r.mean_b - r.mean_a),
          String(r.queries_a),
          String(r.queries_b),
        ]),
        points: m.runs.map((r) => (r.mean_a === null || r.mean_b === null ? null : ([r.mean_a, r.mean_b] as const))),
        taus: tauRows(m).map(([name, v, note]) => ({ name, value: v, note, why: m.why_null?.[name] ?? null })),
      };
    }),
    agreement: lines.map((l) => {
      const [name, , v] = l.split("\t");
      return [name.trim(), v.trim()] as const;
    }),
    agreementNotes: agreementNotes(agreed),
    confusion: confusion
      ? { labels: confusion.intervals ?? confusion.labels.map(String), matrix: confusion.matrix }
      : null,
  };
}

/**
 * The comparison as aligned text: per measure a table (run, mean A, mean B, queries A, queries B) and
 * under it kendall_tau, tau_ap (A the reference) and tau_ap_b (B the reference), - where undefined;
 * then the agreement of A and B as --agreement prints it (`agreementLines`, NAME all VALUE lines).
 */
export function qrelsCompareText(c: QrelsCompare, names: Names, agreementLines: string): string {
  const out: string[] = [`A: ${names.a}`, `B: ${names.b}`];
  for (const key of c.measures) {
    const m = c.by_measure[key];
    out.push("", key);
    out.push(
      ...alignedLines(
        [
          ["run", "mean A", "mean B", "queries A", "queries B"],
          ...m.runs.map((r, i) => [
            names.runs[i] ?? r.run,
            value(r.mean_a),
            value(r.mean_b),
            String(r.queries_a),
            String(r.queries_b),
          ]),
        ],
        1,
      ).map((l) => `  ${l}`),
    );
    out.push(...alignedLines(tauRows(m), 1).map((l) => `  ${l}`));
  }
  return `${out.join("\n")}\n\nagreement of A and B:\n${agreementLines}`;
}
