// Fractional labels: trec_eval reads labels with atol (get_qrels.c: "1.5" is 1, "-0.5" is 0, "1e1" is 1),
// so its names see those; every other tool's names see labels as given. Browser compatible.
import type { TruncatedLabels } from "../io/qrels.js";
import type { Batch } from "../kernel/batch.js";
import type { Measure } from "../measures/measure.js";

export function readsTrecLabels(measures: readonly Measure[]): boolean {
  return measures.some((m) => m.tool === "trec_eval");
}

/** trecLabelled's batches, made once per batch. */
const trecBatches = new WeakMap<Batch, Batch>();

/** `batch` with labels as trec_eval reads them (`atolLabels`, else truncated); itself where all are integers. */
export function trecLabelled(batch: Batch): Batch {
  if (batch.wholeLabels) return batch;
  let t = trecBatches.get(batch);
  if (t) return t;
  const atol = batch.atolLabels;
  const labels = atol ? atol.labels : truncated(batch.labels);
  const judged = atol ? atol.judged : batch.judged && truncated(batch.judged);
  t =
    labels === batch.labels && judged === batch.judged
      ? batch
      : { ...batch, labels, judged, atolLabels: undefined, inPlace: undefined };
  trecBatches.set(batch, t);
  return t;
}

/** `x` truncated toward zero, or `x` itself where all are integers or NaN. */
function truncated(x: Float64Array): Float64Array {
  let i = 0;
  for (; i < x.length; i++) {
    const f = x[i] - Math.trunc(x[i]);
    if (f !== 0 && f === f) break;
  }
  if (i === x.length) return x;
  const out = Float64Array.from(x);
  for (; i < out.length; i++) out[i] = trecLabelOf(out[i]);
  return out;
}

/** A label as trec_eval reads it (+ 0: atol reads "-0.5" as 0, not -0). */
export function trecLabelOf(value: number): number {
  return Math.trunc(value) + 0;
}

/** Labels as atol read their text where truncation would differ ("1e1": 10 vs 1), else null. */
export function atolColumn(rel: Float64Array, truncatedLabels: TruncatedLabels | undefined): Float64Array | null {
  const t = truncatedLabels;
  if (!t) return null;
  let differ = false;
  for (let i = 0; i < t.rows.length && !differ; i++) differ = Math.trunc(rel[t.rows[i]]) !== t.values[i];
  if (!differ) return null;
  const out = Float64Array.from(rel);
  for (let i = 0; i < t.rows.length; i++) out[t.rows[i]] = t.values[i] + 0;
  return out;
}

/** The first label trec_eval reads as another number, and how many: for the warning. */
export interface LabelsRead {
  /** `qrels.txt:12` or `qrels: query "q1", document "d2"`. */
  where: string;
  text: string;
  value: number;
  count: number;
}

export function labelsWarning(r: LabelsRead): string {
  const others = r.count > 1 ? ` (and ${r.count - 1} more)` : "";
  return `${r.where}: label ${r.text} is read as ${r.value + 0}${others}, as trec_eval reads labels (atol); canonical measure names (ndcg@10) keep labels as written`;
}

/** LabelsRead of a file's labels: TREC text's as its parser noted them, other formats' by value. */
export function fileLabelsRead(
  qrels: { readonly file: string; readonly rel: Float64Array; readonly truncated?: TruncatedLabels },
  where: (row: number) => string,
): LabelsRead | undefined {
  const { file, truncated: t } = qrels;
  if (t) return { where: `${file}:${t.firstLine}`, text: t.firstText, value: t.values[0], count: t.rows.length };
  return numberLabelsRead(qrels.rel, where);
}

/** LabelsRead of numbers; `where` names the first fractional one's index. */
export function numberLabelsRead(rel: ArrayLike<number>, where: (i: number) => string): LabelsRead | undefined {
  let first = -1;
  let count = 0;
  for (let i = 0; i < rel.length; i++) {
    const f = rel[i] - Math.trunc(rel[i]);
    if (f === 0 || f !== f) continue;
    if (first < 0) first = i;
    count++;
  }
  if (first < 0) return undefined;
  return { where: where(first), text: String(rel[first]), value: trecLabelOf(rel[first]), count };
}
