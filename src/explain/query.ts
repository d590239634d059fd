// One query's judgments and each run's lines for it, taken out of the batches the evaluation joined,
// so a drill-down sees exactly the rows the numbers were computed from.
import { docidEntry, type Batch } from "../kernel/batch.js";
import { docidString } from "../io/rows.js";
import type { GroupedJudgments } from "../pipeline/join-rows.js";

/** A query's judgments: document ids and labels, in the qrels' order. */
export interface JudgedDocs {
  readonly docids: readonly string[];
  readonly labels: readonly number[];
}

/** A run's rows of one query: document ids and scores, in the run's order (its lines' order). */
export interface RunRows {
  readonly docids: readonly string[];
  readonly scores: readonly number[];
}

/** One run's part of a drill-down: its name and its rows of the query (null: the run has no line for it). */
export interface RunQuery {
  readonly name: string;
  readonly rows: RunRows | null;
}

/** What a drill-down of one query reads. */
export interface QueryRows {
  readonly qid: string;
  readonly judged: JudgedDocs;
  readonly runs: readonly RunQuery[];
}

const utf8 = new TextDecoder("utf-8");

/** Batch row i's document id: its pool entry's bytes as UTF-8, or its position when the batch has no ids. */
function docidOf(batch: Batch, row: number, first: number): string {
  if (!batch.docids || !batch.pool) return String(row - first + 1);
  const e = docidEntry(batch.docids, row);
  return utf8.decode(batch.pool.bytes.subarray(batch.pool.offsets[e], batch.pool.offsets[e + 1]));
}

/**
 * The rows of the `wanted` queries in a joined block, copied out (the next join may write over it), in
 * the run's order. A query of `placeholders` (trec_eval -c's) or with no row is absent from the run: null.
 */
export function rowsInBlock(
  block: { batch: Batch; qids: readonly string[]; placeholders?: readonly number[] },
  wanted: ReadonlySet<string>,
): Map<string, RunRows | null> {
  const out = new Map<string, RunRows | null>();
  const { batch, qids } = block;
  const placeholders = new Set(block.placeholders ?? []);
  for (let q = 0; q < qids.length; q++) {
    if (!wanted.has(qids[q])) continue;
    const from = batch.offsets[q];
    const to = batch.offsets[q + 1];
    if (placeholders.has(q) || to === from) {
      out.set(qids[q], null);
      continue;
    }
    const docids: string[] = [];
    const scores: number[] = [];
    for (let i = from; i < to; i++) {
      docids.push(docidOf(batch, i, from));
      scores.push(batch.scores[i]);
    }
    out.set(qids[q], { docids, scores });
  }
  return out;
}

/**
 * The judgments of the `wanted` queries of a block whose rows are their own judgments (a LETOR file:
 * `judged` null), by query id.
 */
export function judgedInBlock(
  block: { batch: Batch; qids: readonly string[] },
  wanted: ReadonlySet<string>,
): Map<string, JudgedDocs> {
  const out = new Map<string, JudgedDocs>();
  const { batch, qids } = block;
  for (let q = 0; q < qids.length; q++) {
    if (!wanted.has(qids[q])) continue;
    const from = batch.offsets[q];
    const to = batch.offsets[q + 1];
    const docids: string[] = [];
    const labels: number[] = [];
    for (let i = from; i < to; i++) {
      docids.push(docidOf(batch, i, from));
      labels.push(batch.labels[i]);
    }
    out.set(qids[q], { docids, labels });
  }
  return out;
}

/** Query id -> its index in the judgments' groups, made once per judgments. */
const judgedIndex = new WeakMap<GroupedJudgments, Map<string, number>>();

/** A query's judgments, labels as the evaluation read them, or null when the qrels have none for it. */
export function judgedOf(judgments: GroupedJudgments, qid: string): JudgedDocs | null {
  let index = judgedIndex.get(judgments);
  if (!index) {
    index = new Map();
    const names = judgments.qrels.qidNames;
    const n = Math.min(names.size, judgments.groups.begin.length);
    for (let q = 0; q < n; q++)
      if (judgments.groups.end[q] > judgments.groups.begin[q]) index.set(names.stringOf(q), q);
    judgedIndex.set(judgments, index);
  }
  const q = index.get(qid);
  if (q === undefined) return null;
  const { begin, end, order } = judgments.groups;
  const docids: string[] = [];
  const labels: number[] = [];
  for (let k = begin[q]; k < end[q]; k++) {
    const row = order ? order[k] : k;
    docids.push(docidString(judgments.qrels.docids, row));
    labels.push(judgments.qrels.rel[row]);
  }
  return { docids, labels };
}

/** How many queries the judgments have (for messages). */
export function judgedQueries(judgments: GroupedJudgments): string[] {
  judgedOf(judgments, "");
  return [...judgedIndex.get(judgments)!.keys()];
}
