// One query's judgments and runs' lines, taken out of the evaluation's joined batches: the rows the numbers came from.
import { docidEntry, type Batch } from "../kernel/batch.js";
import { docidString } from "../io/rows.js";
import type { GroupedJudgments } from "../pipeline/join-rows.js";

/** In the qrels' order. */
export interface JudgedDocs {
  readonly docids: readonly string[];
  readonly labels: readonly number[];
}

/** In the run's order. */
export interface RunRows {
  readonly docids: readonly string[];
  readonly scores: readonly number[];
}

/** rows null: the run has no line for the query. */
export interface RunQuery {
  readonly name: string;
  readonly rows: RunRows | null;
}

export interface QueryRows {
  readonly qid: string;
  readonly judged: JudgedDocs;
  readonly runs: readonly RunQuery[];
}

const utf8 = new TextDecoder("utf-8");

/** A row's document id, or its position when the batch has no ids. */
function docidOf(batch: Batch, row: number, first: number): string {
  if (!batch.docids || !batch.pool) return String(row - first + 1);
  const e = docidEntry(batch.docids, row);
  return utf8.decode(batch.pool.bytes.subarray(batch.pool.offsets[e], batch.pool.offsets[e + 1]));
}

/** Each wanted query's part of a block, copied out (the next join may write over it). */
function columnsInBlock<T>(
  block: { batch: Batch; qids: readonly string[] },
  wanted: ReadonlySet<string>,
  make: (q: number, from: number, to: number) => T,
): Map<string, T> {
  const out = new Map<string, T>();
  const { batch, qids } = block;
  for (let q = 0; q < qids.length; q++)
    if (wanted.has(qids[q])) out.set(qids[q], make(q, batch.offsets[q], batch.offsets[q + 1]));
  return out;
}

function docidsOf(batch: Batch, from: number, to: number): string[] {
  const docids: string[] = [];
  for (let i = from; i < to; i++) docids.push(docidOf(batch, i, from));
  return docids;
}

/** The rows of the `wanted` queries in a joined block; null for -c's placeholders and queries without rows. */
export function rowsInBlock(
  block: { batch: Batch; qids: readonly string[]; placeholders?: readonly number[] },
  wanted: ReadonlySet<string>,
): Map<string, RunRows | null> {
  const placeholders = new Set(block.placeholders ?? []);
  const { batch } = block;
  return columnsInBlock(block, wanted, (q, from, to) =>
    placeholders.has(q) || to === from
      ? null
      : { docids: docidsOf(batch, from, to), scores: Array.from(batch.scores.subarray(from, to)) },
  );
}

/** The judgments of the `wanted` queries of a block whose rows are their own judgments (LETOR). */
export function judgedInBlock(
  block: { batch: Batch; qids: readonly string[] },
  wanted: ReadonlySet<string>,
): Map<string, JudgedDocs> {
  const { batch } = block;
  return columnsInBlock(block, wanted, (_q, from, to) => ({
    docids: docidsOf(batch, from, to),
    labels: Array.from(batch.labels.subarray(from, to)),
  }));
}

const judgedIndex = new WeakMap<GroupedJudgments, Map<string, number>>();

/** A query's judgments as the evaluation read them, or null. */
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

/** The judged queries (for messages). */
export function judgedQueries(judgments: GroupedJudgments): string[] {
  judgedOf(judgments, "");
  return [...judgedIndex.get(judgments)!.keys()];
}
