import type { Result } from "./evaluate.js";

/** A plain-text table of the means: measure, mean, queries counted; then the conventions. */
export function formatTable(result: Result<unknown>): string {
  const width = Math.max(7, ...result.measures.map((m) => m.length));
  const lines = [`${"measure".padEnd(width)}  ${"mean".padStart(10)}  ${"queries".padStart(7)}`];
  for (const m of result.measures) {
    const v = result.mean[m];
    const text = Number.isInteger(v) ? String(v) : v.toFixed(4);
    lines.push(`${m.padEnd(width)}  ${text.padStart(10)}  ${String(result.counted[m]).padStart(7)}`);
  }
  const { skipped } = result.queries;
  const notes = [
    skipped.noRelevant ? `${skipped.noRelevant} without relevant documents skipped` : "",
    skipped.notJudged ? `${skipped.notJudged} run queries without judgments ignored` : "",
    skipped.notInRun ? `${skipped.notInRun} judged queries absent from the run` : "",
  ].filter(Boolean);
  lines.push("", `${result.queries.evaluated} queries${notes.length ? `; ${notes.join("; ")}` : ""}`, `conventions: ${result.conventions}`);
  return lines.join("\n");
}
