// A drill-down as text: what `rankeval --explain QID` prints. Browser-safe.
import { counted } from "../errors/counted.js";
import type { ExplainedRow, Explanation } from "./explain.js";
import { printValue } from "../app/value-print.js";

/** Columns of text, right-aligned but for `left`. */
function columns(head: readonly string[], rows: readonly (readonly string[])[], left: ReadonlySet<number>): string[] {
  const width = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((s, c) => (left.has(c) ? s.padEnd(width[c]) : s.padStart(width[c])))
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

/** Shortest decimal, -0 as 0. */
const num = (v: number) => (Object.is(v, -0) ? "0" : String(v));
const labelText = (d: ExplainedRow) => (d.label === null ? "-" : num(d.label));
const runningText = (d: ExplainedRow, m: Explanation["measures"][number]) =>
  d.running[m.key] === null ? "" : printValue(d.running[m.key]!, m.print);

/** How a document moved against the other run. */
export function moved(row: Pick<ExplainedRow, "rank" | "otherRank">): string {
  if (row.otherRank === null) return "new";
  const d = row.otherRank - row.rank;
  return d > 0 ? `\u2191${d}` : d < 0 ? `\u2193${-d}` : "=";
}

/** The drill-down as text (--explain). */
export function formatExplanation(x: Explanation, conventions: readonly string[] = []): string {
  const out: string[] = [];
  const rule = x.rankings[0];
  out.push(
    `query ${x.qid}: ${counted(x.judged.count, "judged document")}, ${x.judged.relevant} relevant (label >= ${rule.relevanceThreshold})`,
  );
  for (const c of conventions) out.push(`conventions: ${c}`);
  out.push("");
  const head = [
    "measure",
    ...x.runs.map((r) => r.name),
    ...x.runs.slice(1).map((r) => `${r.name} - ${x.runs[0].name}`),
  ];
  const rows = x.measures.map((m) => [
    m.name,
    ...x.runs.map((r) => r.printed[m.key] || "(not in run)"),
    ...x.runs.slice(1).map((r) => {
      const a = x.runs[0].values[m.key];
      const b = r.values[m.key];
      if (a === null || b === null) return "";
      const d = b - a;
      return `${d > 0 ? "+" : d < 0 ? "-" : ""}${printValue(Math.abs(d), m.print === "long" ? "long" : "table")}`;
    }),
  ]);
  out.push(...columns(head, rows, new Set([0])));
  x.rankings.forEach((rk, k) => {
    const names = x.measures.filter((m) => m.ranking === k);
    out.push(
      "",
      `ranked: ${rk.tieOrder}${rk.depth !== null ? `; top ${rk.depth} kept (-M)` : ""}${rk.judgedOnly ? "; judged documents only (-J)" : ""}; gain ${rk.gain}`,
    );
    if (x.rankings.length > 1) out.push(`running values of ${names.map((m) => m.name).join(", ")}`);
    x.runs.forEach((run, r) => {
      out.push("");
      const ranking = run.rankings[k];
      if (!run.inRun) {
        out.push(
          `${run.name}: no line for query ${x.qid}${Object.values(run.values).some((v) => v !== null) ? " (evaluated as an empty ranking: -c)" : " (left out of its numbers)"}`,
        );
      } else {
        const shown = ranking.rows.length;
        out.push(
          `${run.name}: ${counted(run.retrieved, "document")} retrieved${ranking.length !== run.retrieved ? `, ${ranking.length} ranked` : ""}; ranks 1-${shown}${shown < ranking.length ? ` of ${ranking.length}` : ""}${run.unjudgedShown ? `; ${run.unjudgedShown} unjudged among them (label -)` : ""}`,
        );
        const other = x.other[r] === null ? null : x.runs[x.other[r]!].name;
        const h = [
          "rank",
          "docid",
          "score",
          "label",
          "gain",
          "tie",
          ...(other !== null ? [`rank in ${other}`, "moved"] : []),
          ...names.map((m) => m.name),
        ];
        const body = ranking.rows.map((d) => [
          String(d.rank),
          d.docid,
          num(d.score),
          labelText(d),
          num(d.gain),
          d.tie === null ? "" : `t${d.tie}`,
          ...(other !== null ? [d.otherRank === null ? "-" : String(d.otherRank), moved(d)] : []),
          ...names.map((m) => runningText(d, m)),
        ]);
        out.push(...columns(h, body, new Set([1])));
        if (ranking.rows.some((d) => d.tie !== null))
          out.push(`(t1, t2, ...: documents of equal score, ${rk.tieOrder})`);
      }
      if (k === 0) {
        const u = run.unretrieved;
        const listed = u.relevant.map((d) => `${d.docid} (${num(d.label)})`).join(", ");
        out.push(
          u.count === 0
            ? "every judged document is retrieved"
            : `judged documents not retrieved: ${u.count}, ${u.relevantCount} of them relevant${u.relevantCount ? `: ${listed}${u.relevantCount > u.relevant.length ? ", ..." : ""}` : ""}`,
        );
      }
    });
  });
  const shown = x.ideal.rows.length;
  out.push(
    "",
    `ideal ranking (the judged documents, higher labels first): ranks 1-${shown}${shown < x.ideal.length ? ` of ${x.ideal.length}` : ""}`,
  );
  const ideal = x.measures.filter((m) => m.ranking === 0);
  out.push(
    ...columns(
      ["rank", "docid", "label", "gain", ...ideal.map((m) => m.name)],
      x.ideal.rows.map((d) => [
        String(d.rank),
        d.docid,
        labelText(d),
        num(d.gain),
        ...ideal.map((m) => runningText(d, m)),
      ]),
      new Set([1]),
    ),
  );
  return `${out.join("\n")}\n`;
}
