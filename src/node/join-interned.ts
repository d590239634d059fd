// Interim: joins parser output whose document ids come from one shared Interner. Superseded by the
// per-query join of the per-row parsers when that lands.
import { RankevalError } from "../errors.js";
import type { Interner, Qrels, Run } from "../io/index.js";
import type { Batch } from "../kernel/batch.js";
import { sortedOrder } from "../trec/format.js";

export interface Joined {
  batch: Batch;
  qids: string[];
  notJudged: number;
  notInRun: string[];
}

/**
 * Queries: every judged query that the run has (all judged queries with `complete`, those absent
 * from the run with an empty ranking), in byte order of qid as trec_eval.
 */
export function joinInterned(qrels: Qrels, run: Run, qidNames: Interner, docidNames: Interner, complete: boolean, qrelsFile: string, runFile: string): Joined {
  const nq = qidNames.size;
  const judgedCount = new Int32Array(nq + 1);
  const runCount = new Int32Array(nq + 1);
  for (let i = 0; i < qrels.length; i++) judgedCount[qrels.qid[i] + 1]++;
  for (let i = 0; i < run.length; i++) runCount[run.qid[i] + 1]++;
  const names = Array.from({ length: nq }, (_, q) => qidNames.stringOf(q));
  const order = sortedOrder(names);
  const chosen: number[] = [];
  let notJudged = 0;
  const notInRun: string[] = [];
  for (const q of order) {
    const judged = judgedCount[q + 1] > 0;
    const ranked = runCount[q + 1] > 0;
    if (ranked && !judged) notJudged++;
    if (judged && !ranked) notInRun.push(names[q]);
    if (judged && (ranked || complete)) chosen.push(q);
  }
  // Rows of each query, by counting sort over qid ids (stable: file order within a query).
  const place = (count: Int32Array, qid: Int32Array, n: number) => {
    for (let q = 0; q < nq; q++) count[q + 1] += count[q];
    const at = count.slice(0, nq);
    const rows = new Int32Array(n);
    for (let i = 0; i < n; i++) rows[at[qid[i]]++] = i;
    return rows;
  };
  const judgedRows = place(judgedCount, qrels.qid, qrels.length);
  const runRows = place(runCount, run.qid, run.length);

  let rows = 0;
  let judgments = 0;
  for (const q of chosen) {
    rows += runCount[q + 1] - runCount[q];
    judgments += judgedCount[q + 1] - judgedCount[q];
  }
  const offsets = new Int32Array(chosen.length + 1);
  const judgedOffsets = new Int32Array(chosen.length + 1);
  const scores = new Float64Array(rows);
  const labels = new Float64Array(rows);
  const docids = new Int32Array(rows);
  const judged = new Float64Array(judgments);
  const stamp = new Int32Array(docidNames.size); // query (+1) whose judgment relOf holds
  const seen = new Int32Array(docidNames.size); // query (+1) that ranked the document already
  const relOf = new Float64Array(docidNames.size);
  let r = 0;
  let j = 0;
  chosen.forEach((q, k) => {
    for (let p = judgedCount[q]; p < judgedCount[q + 1]; p++) {
      const i = judgedRows[p];
      const d = qrels.docid[i];
      if (stamp[d] === k + 1) {
        throw new RankevalError("bad-input", `${qrelsFile}: document "${docidNames.stringOf(d)}" is judged twice for query "${names[q]}"`);
      }
      stamp[d] = k + 1;
      relOf[d] = qrels.rel[i];
      judged[j++] = qrels.rel[i];
    }
    for (let p = runCount[q]; p < runCount[q + 1]; p++) {
      const i = runRows[p];
      const d = run.docid[i];
      if (seen[d] === k + 1) {
        throw new RankevalError("bad-input", `${runFile}: document "${docidNames.stringOf(d)}" appears twice for query "${names[q]}"`);
      }
      seen[d] = k + 1;
      scores[r] = run.score[i];
      labels[r] = stamp[d] === k + 1 ? relOf[d] : NaN;
      docids[r] = d;
      r++;
    }
    offsets[k + 1] = r;
    judgedOffsets[k + 1] = j;
  });
  const batch: Batch = { numQueries: chosen.length, offsets, scores, labels, judgedOffsets, judged, docids, pool: docidNames.pool() };
  return { batch, qids: chosen.map((q) => names[q]), notJudged, notInRun };
}
