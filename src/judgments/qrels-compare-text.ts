// rankeval --qrels-compare's text (issue 38): the library's qrelsCompare (src/index.ts) as aligned
// text, a table per measure, then the agreement as --agreement prints it; the command line's and the
// page's (web/worker.ts), so the two print the same.
import { alignedLines, tableValue } from "../output/table.js";
import { agreementNotes, agreementText } from "./on-files.js";
import type { QrelsCompare } from "./qrels-compare.js";

/** What --qrels-compare prints: its standard output, and its notes on stderr (without "rankeval: "). */
export function qrelsCompareOutput(
  c: QrelsCompare,
  names: { readonly a: string; readonly b: string; readonly runs: readonly string[] },
): { text: string; notes: string[] } {
  const agreed = { ...c.agreement, per_query: [] };
  return { text: qrelsCompareText(c, names, agreementText(agreed, false)), notes: agreementNotes(agreed) };
}

/**
 * The comparison as aligned text: per measure a table (run, mean A, mean B, queries A, queries B) and
 * under it kendall_tau, tau_ap (A the reference) and tau_ap_b (B the reference), - where undefined;
 * then the agreement of A and B as --agreement prints it (`agreementLines`, NAME all VALUE lines).
 */
export function qrelsCompareText(
  c: QrelsCompare,
  names: { readonly a: string; readonly b: string; readonly runs: readonly string[] },
  agreementLines: string,
): string {
  const value = (v: number | null) => (v === null ? "-" : tableValue(v));
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
    out.push(
      ...alignedLines(
        [
          ["kendall_tau", value(m.kendall_tau), ""],
          ["tau_ap", value(m.tau_ap), "(A the reference)"],
          ["tau_ap_b", value(m.tau_ap_b), "(B the reference)"],
        ],
        1,
      ).map((l) => `  ${l}`),
    );
  }
  return `${out.join("\n")}\n\nagreement of A and B:\n${agreementLines}`;
}
