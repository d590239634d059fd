// ndeval's output (--format ndeval).
import { RankevalError } from "../errors/errors.js";
import { NDEVAL_COLUMNS } from "../measures/ndeval.js";
import { formatTrecFixed } from "../trec/format.js";
import type { Plan, RunResult } from "../app/plan.js";

/** The plan's rows as ndeval's columns: ndeval's own names only, its 21 first in its order. */
export function ndevalColumns(p: Plan): string[] {
  const names = p.rows.map((r) => r.name);
  const ndeval = /^(ERR-IA|nERR-IA|alpha-DCG|alpha-nDCG|P-IA|strec)@\d+$|^(NRBP|nNRBP|MAP-IA)$/;
  const isNdeval = (name: string) =>
    p.measures.some((m) => m.name === name && m.family.diversity && ndeval.test(m.name));
  const notNdeval = p.rows.filter((r) => !isNdeval(r.measure));
  if (notNdeval.length) {
    const not = notNdeval.map((r) => r.name).join(", ");
    const its = "ndeval, alpha-nDCG@20, ERR-IA@20, NRBP, ...";
    throw new RankevalError("bad-option", `--format ndeval prints ndeval's measures (${its}), not ${not}`);
  }
  return [...NDEVAL_COLUMNS.filter((c) => names.includes(c)), ...names.filter((n) => !NDEVAL_COLUMNS.includes(n))];
}

const f6 = (x: number) => formatTrecFixed(x, 6);

/** Topics in ndeval's order: by number when every id is a natural number, else by their bytes. */
function topicOrder(qids: readonly string[]): string[] {
  const numeric = qids.every((q) => /^\d+$/.test(q));
  return [...qids].sort(numeric ? (a, b) => Number(a) - Number(b) : (a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * ndeval's output (outputMeasures): a row per topic of the run (unjudged: 0), and `amean`: each column's
 * sum divided by the topics evaluated (with -c, `absent` ones count but are not printed).
 */
export function ndevalText(
  columns: readonly string[],
  r: RunResult,
  runOnly: readonly string[],
  absent: ReadonlySet<string>,
  divisor: number,
): string {
  const result = r.result;
  const index = new Map(result.qids.map((q, i) => [q, i]));
  const printed = topicOrder([...result.qids.filter((q) => !absent.has(q)), ...runOnly]);
  const out = [`runid,topic,${columns.join(",")}`];
  const totals = columns.map(() => 0);
  for (const q of printed) {
    const i = index.get(q);
    const values = columns.map((c) => (i === undefined ? 0 : result.values[c][i]));
    values.forEach((v, c) => (totals[c] += v));
    out.push(`${r.runTag},${q},${values.map(f6).join(",")}`);
  }
  out.push(`${r.runTag},amean,${totals.map((t) => f6(t / divisor)).join(",")}`);
  return `${out.join("\n")}\n`;
}
