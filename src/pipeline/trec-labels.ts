// Fractional labels (1.5, 2.7, what LLM judges and averaged assessors give): the one decision, which
// every face's evaluation passes through (evaluateBatch, evaluateBlock). trec_eval reads a label with
// atol (get_qrels.c): "1.5" is 1, "-0.5" is 0, "1e1" is 1; so its names are computed on those labels,
// and every other tool's names on the labels as given (ir_measures itself refuses fractional labels).
// Browser compatible.
import type { TruncatedLabels } from "../io/qrels.js";
import type { Batch } from "../kernel/batch.js";
import type { Measure } from "../measures/measure.js";

/** Whether some of `measures` reads labels as trec_eval does (its names). */
export function readsTrecLabels(measures: readonly Measure[]): boolean {
  return measures.some((m) => m.tool === "trec_eval");
}

/** The batches as trec_eval reads their labels, made once per batch (a block's measures and trec lines share it). */
const trecBatches = new WeakMap<Batch, Batch>();

/**
 * `batch` with its labels as trec_eval reads them: those read from text as atol read their text
 * (`atolLabels`, made by the join), others truncated toward zero. The batch itself where every label
 * is an integer (nothing is copied), else a copy of its labels, evaluated out of the kernel's memory.
 */
export function trecLabelled(batch: Batch): Batch {
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

/** `x` with each value truncated toward zero (-0.5 is 0), or `x` itself where every value is an integer (or NaN). */
function truncated(x: Float64Array): Float64Array {
  let i = 0;
  for (; i < x.length; i++) {
    const f = x[i] - Math.trunc(x[i]);
    // (NaN, a document without judgment, and infinities, which the kernel refuses, give f NaN.)
    if (f !== 0 && f === f) break;
  }
  if (i === x.length) return x;
  const out = Float64Array.from(x);
  for (; i < out.length; i++) out[i] = trecLabelOf(out[i]);
  return out;
}

/** A label given as a number, as trec_eval would read it: truncated toward zero (+ 0: -0.5 is 0, as atol reads "-0.5", not -0). */
export function trecLabelOf(value: number): number {
  return Math.trunc(value) + 0;
}

/**
 * The judgments' labels as atol read their text, where truncation toward zero of their values would
 * not give them (an exponent: "1e1" is 10 as written, 1 as atol reads it); null where it would, as
 * for "1.5" (the usual: then `trecLabelled` truncates each batch's labels, and no column is kept).
 */
export function atolColumn(rel: Float64Array, truncatedLabels: TruncatedLabels | undefined): Float64Array | null {
  const t = truncatedLabels;
  if (!t) return null;
  let differ = false;
  for (let i = 0; i < t.rows.length && !differ; i++) differ = Math.trunc(rel[t.rows[i]]) !== t.values[i];
  if (!differ) return null;
  const out = Float64Array.from(rel);
  // Every other label is an integer as written: atol reads it so, and truncation keeps it.
  for (let i = 0; i < t.rows.length; i++) out[t.rows[i]] = t.values[i] + 0;
  return out;
}

/** The first label trec_eval reads as another number, where it is, and how many there are: for the warning. */
export interface LabelsRead {
  /** `qrels.txt:12` (a file's line) or `qrels: query "q1", document "d2"` (judgments given as objects). */
  where: string;
  /** The label as written. */
  text: string;
  /** As trec_eval reads it. */
  value: number;
  count: number;
}

/** The one warning a judgments file's (or object's) fractional labels get, where trec_eval's names are asked. */
export function labelsWarning(r: LabelsRead): string {
  const others = r.count > 1 ? ` (and ${r.count - 1} more)` : "";
  return `${r.where}: label ${r.text} is read as ${r.value + 0}${others}, as trec_eval reads labels (atol); canonical measure names (ndcg@10) keep labels as written`;
}

/**
 * LabelsRead of a judgments file's labels: TREC text's as its parser noted them (TruncatedLabels),
 * other formats' (JSON, CSV, Parquet: numbers to trec_eval's measures) by their values, the first
 * fractional one's place said by `where` (its row). (src/input/input.ts judgmentsLabelsRead.)
 */
export function fileLabelsRead(
  qrels: { readonly file: string; readonly rel: Float64Array; readonly truncated?: TruncatedLabels },
  where: (row: number) => string,
): LabelsRead | undefined {
  const { file, truncated: t } = qrels;
  if (t) return { where: `${file}:${t.firstLine}`, text: t.firstText, value: t.values[0], count: t.rows.length };
  return numberLabelsRead(qrels.rel, where);
}

/** LabelsRead of labels given as numbers, the first fractional one's place said by `where` (its index). */
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
