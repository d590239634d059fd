/**
 * The one join of a run to its judgments, both parsed with `docids: "per-row"` (src/io/rows.ts), into
 * the kernel's Batch; rows in memory and -R's judgments come as the same rows (join-memory.ts). Its
 * twin in the kernel (join-kernel.ts, assembly/join.ts) joins judgments parsed into kernel memory.
 *
 * Document ids are only compared within a query (as trec_eval joins, checks duplicates and breaks
 * ties), so there is no global document table: both sides are grouped by query (a counting sort), and
 * each query gets a small open-addressing table of its judged ids' hashes, which each run row probes
 * (a hash match confirmed by the bytes) and enters, which finds a document ranked twice.
 *
 * As trec_eval (TREC_EVAL_SEMANTICS.md (b), (d)): the run's judged queries in strcmp order; unjudged
 * ones counted in notJudged, absent judged ones in notInRun (evaluated on an empty ranking under -c).
 * A document twice in one evaluated query is an error (trec_eval: fatal). Unjudged ranked documents
 * get label NaN. `docids[i]` is batch row i's run row, for trec_eval's tie order.
 */
import { RankevalError, type QuerySample } from "../errors/errors.js";
import { compareIds, ids, type QuerySpans, type RowDocids, sameBytes, sameId } from "../io/rows.js";
import type { Batch } from "../kernel/batch.js";
import { duplicate, JoinKernel } from "./join-kernel.js";
import type { JoinQrels, JoinRun } from "./join-memory.js";
import { atolColumn } from "./trec-labels.js";

export type { JoinQrels, JoinRun };

export interface JoinOptions {
  /** Hashes a document id instead of the parsers': a test hook (`() => 0` makes every id collide). */
  hash?: (bytes: Uint8Array, start: number, end: number) => number;
  /** Evaluate the judged queries absent from the run too, on an empty ranking (trec_eval -c). @default false */
  complete?: boolean;
  /** With `complete`: trec_eval's placeholder ranked for an absent query, "ceci_nest_pas_un_docno" with score 1 (bogus_result). @default false */
  placeholder?: boolean;
  /** One block of a larger run (blocks.ts): absent judged queries not counted. @default false */
  block?: boolean;
  /** A batch this join made that nobody reads any more, written over (fresh arrays cost a page fault each 4 KiB: a third of a block's join in Chromium). */
  reuse?: Batch;
  /** Read only until the next join to the same judgments: joined in the kernel, it stays there. @default false */
  transient?: boolean;
  /** The queries in id order, not strcmp's (rows in memory). @default false */
  inIdOrder?: boolean;
  /** Queries the run holds without a row (an object's `{}`). */
  emptyQueries?: ReadonlySet<number>;
}

/** `old`'s buffer as n entries where it has room (a view at its start, as this join makes them), else a new array. */
function room<T extends Int32Array | Float64Array>(
  of: { new (n: number): T; new (b: ArrayBufferLike, at: number, n: number): T; BYTES_PER_ELEMENT: number },
  old: T | null | undefined,
  n: number,
): T {
  return old && old.byteOffset === 0 && old.buffer.byteLength >= of.BYTES_PER_ELEMENT * n
    ? new of(old.buffer, 0, n)
    : new of(n);
}

export interface JoinedRun {
  batch: Batch;
  /** The evaluated queries' ids, in strcmp order. */
  qids: string[];
  /** Run queries without any judgment (ignored, as trec_eval does), judged queries absent from the run, and those's ids. */
  notJudged: number;
  notInRun: number;
  notInRunQids: string[];
  runTag: string;
  /** The batch's queries ranked as trec_eval's placeholder (JoinOptions.placeholder), ascending. */
  placeholders: number[];
}

/** trec_eval.c's bogus_result: the one document of the ranking it gives a judged query absent from the run under -c. */
export const PLACEHOLDER_DOCNO = "ceci_nest_pas_un_docno";
const PLACEHOLDER_BYTES = new TextEncoder().encode(PLACEHOLDER_DOCNO);

/** Rows grouped by query (stable): query q's rows are order[begin[q], end[q]), or those rows themselves where order is null. */
export interface Groups {
  begin: Int32Array;
  end: Int32Array;
  order: Int32Array | null;
}

/** Groups, with each query that has rows once, in order of first row (of id when not grouped). */
interface QueryGroups extends Groups {
  queries: number[];
}

function groupByQuery(
  column: Int32Array | (() => Int32Array),
  n: number,
  numQids: number,
  spans?: QuerySpans,
): QueryGroups {
  const begin = new Int32Array(numQids);
  const end = new Int32Array(numQids);
  const queries: number[] = [];
  // Files usually list a query's rows together: then each query is one range, found in one pass.
  let grouped = true;
  if (spans) {
    for (let k = 0; k < spans.ids.length; k++) {
      const q = spans.ids[k];
      if (end[q] !== 0) {
        grouped = false;
        break;
      }
      begin[q] = spans.starts[k];
      end[q] = spans.starts[k + 1];
      queries.push(q);
    }
  }
  // The column read only where the spans do not tell.
  const qid = grouped && spans ? null : typeof column === "function" ? column() : column;
  if (qid && !spans)
    for (let i = 0; i < n; ) {
      const q = qid[i];
      if (end[q] !== 0) {
        grouped = false;
        break;
      }
      begin[q] = i;
      while (i < n && qid[i] === q) i++;
      end[q] = i;
      queries.push(q);
    }
  if (grouped) return { begin, end, order: null, queries };
  queries.length = 0;
  const count = new Int32Array(numQids + 1);
  const ids = qid!;
  for (let i = 0; i < n; i++) count[ids[i] + 1]++;
  for (let q = 0; q < numQids; q++) {
    if (count[q + 1] > 0) queries.push(q);
    count[q + 1] += count[q];
  }
  const next = count.slice(0, numQids);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[next[ids[i]]++] = i;
  return { begin: count.subarray(0, numQids), end: count.subarray(1), order, queries };
}

/** Keeps joinParsed's cache-warming loads from being optimized away. */
let _sink = 0;

function rehash(docs: RowDocids, hash: NonNullable<JoinOptions["hash"]>): Int32Array {
  const n = docs.offsets.length - 1;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = hash(docs.bytes, docs.offsets[i], docs.offsets[i + 1]) | 0;
  return out;
}

/**
 * Judgments grouped by query once, for joining many runs or blocks to them; the query column is
 * dropped (the groups say the same, and judgments are most of what a streamed evaluation holds).
 */
export interface GroupedJudgments {
  readonly qrels: Omit<JoinQrels, "qid">;
  readonly groups: Groups;
  readonly hashes: Int32Array;
  /** The join in the judgments' kernel memory, made at the first join. */
  kernel?: JoinKernel;
  readonly inKernel: boolean;
  /** Labels as trec_eval's atol reads them where truncating would differ (atolColumn), else null. */
  readonly atolRel: Float64Array | null;
}

export function groupJudgments(qrels: JoinQrels, options: Pick<JoinOptions, "hash"> = {}): GroupedJudgments {
  const { qid, ...rest } = qrels;
  const { begin, end, order } = groupByQuery(qid, qrels.length, qrels.qidNames.size);
  return {
    qrels: rest,
    groups: { begin, end, order },
    hashes: options.hash ? rehash(qrels.docids, options.hash) : qrels.docids.hashes,
    inKernel: !options.hash && qrels.kernel !== undefined,
    atolRel: atolColumn(qrels.rel, qrels.truncated),
  };
}

/** The judged queries for noQueryInCommon: how many, the first few in id order. */
export function judgedSample(judgments: GroupedJudgments, name = judgments.qrels.file): QuerySample {
  const { begin, end } = judgments.groups;
  const some: number[] = [];
  let queries = 0;
  for (let q = 0; q < begin.length; q++) if (end[q] > begin[q] && queries++ < 3) some.push(q);
  return { name, queries, some: judgments.qrels.qidNames.stringsOf(some) };
}

/**
 * Joins a run to its judgments, both parsed with `docids: "per-row"` and the same `qids` interner.
 * Throws an InputError (file:line) for a document twice in one query of either file.
 */
export function joinParsed(
  judgments: JoinQrels | GroupedJudgments,
  run: JoinRun,
  options: JoinOptions = {},
): JoinedRun {
  const grouped = "groups" in judgments ? judgments : groupJudgments(judgments, options);
  const qrels = grouped.qrels;
  const names = qrels.qidNames;
  // Two interners are two numberings: joined, they would pair the wrong queries without a sign.
  if (run.qidNames !== names) {
    throw new RankevalError(
      "bad-input",
      `${run.file} and ${qrels.file} were parsed with different query-id Interners: give both parsers the same \`qids\` Interner (or read the files with rankeval/node's evaluateFiles)`,
    );
  }
  const numQids = names.size;
  const jg = grouped.groups;
  const judgedQids = jg.begin.length;
  const rg = groupByQuery(() => run.qid, run.length, numQids, run.spans);
  const jHash = grouped.hashes;
  const rHash = options.hash ? rehash(run.docids, options.hash) : run.docids.hashes;

  // The queries judged and in the run, in strcmp order. Only the run's queries are visited (a block
  // has a few thousand of the judgments' hundreds of thousands); the judged ones only for notInRun.
  const chosen: number[] = [];
  const absent: number[] = [];
  let notJudged = 0;
  let rows = 0;
  let judgedRows = 0;
  let widest = 0;
  for (const q of rg.queries) {
    const nj = q < judgedQids ? jg.end[q] - jg.begin[q] : 0;
    if (nj === 0) {
      notJudged++;
      continue;
    }
    const nr = rg.end[q] - rg.begin[q];
    chosen.push(q);
    rows += nr;
    judgedRows += nj;
    if (nj + nr > widest) widest = nj + nr;
  }
  const placeholder = options.complete === true && options.placeholder === true;
  if (!options.block) {
    for (let q = 0; q < judgedQids; q++) {
      const nj = jg.end[q] - jg.begin[q];
      if (nj === 0 || rg.end[q] > rg.begin[q]) continue;
      const empty = options.emptyQueries?.has(q) === true;
      if (!empty) absent.push(q);
      if (!options.complete && !empty) continue;
      chosen.push(q);
      judgedRows += nj;
      if (placeholder) rows++;
      if (nj + 1 > widest) widest = nj + 1;
    }
  }
  const qidPool = names.pool();
  chosen.sort(options.inIdOrder ? (a, b) => a - b : (a, b) => compareIds(qidPool, a, b));
  absent.sort((a, b) => compareIds(qidPool, a, b));

  const numQueries = chosen.length;
  const notInRunQids = names.stringsOf(absent);
  const qids = names.stringsOf(chosen);
  // (Labels atol reads otherwise are joined here: the kernel's join has no column for them.)
  const atolRel = grouped.atolRel;
  if (grouped.inKernel && !options.hash && !placeholder && !atolRel) {
    const ranges = new Int32Array(4 * numQueries);
    for (let k = 0; k < numQueries; k++) {
      const q = chosen[k];
      ranges[4 * k] = jg.begin[q];
      ranges[4 * k + 1] = jg.end[q];
      ranges[4 * k + 2] = rg.end[q] > rg.begin[q] ? rg.begin[q] : 0;
      ranges[4 * k + 3] = rg.end[q] > rg.begin[q] ? rg.end[q] : 0;
    }
    grouped.kernel ??= new JoinKernel(qrels.kernel!, grouped);
    const batch = grouped.kernel.join(
      run,
      { ranges, numQueries, rows, judgedRows, widest, runOrder: rg.order, qids: chosen },
      names,
      options.transient === true,
    );
    if (batch)
      return { batch, qids, notJudged, notInRun: absent.length, notInRunQids, runTag: run.runTag, placeholders: [] };
  }
  const old = options.reuse;
  const offsets = room(Int32Array, old?.offsets, numQueries + 1);
  const judgedOffsets = room(Int32Array, old?.judgedOffsets, numQueries + 1);
  offsets[0] = judgedOffsets[0] = 0;
  const scores = room(Float64Array, old?.scores, rows);
  const labels = room(Float64Array, old?.labels, rows);
  const judged = room(Float64Array, old?.judged, judgedRows);
  const docids = room(Int32Array, old?.docids === "rows" ? null : old?.docids, rows);
  const atolLabels = atolRel ? new Float64Array(rows) : null;
  const atolJudged = atolRel ? new Float64Array(judgedRows) : null;

  // One table for every query, sized for the widest: key = judged row + 1 (> 0), -(run row + 1) (< 0)
  // once the run ranked that document, 0 when empty; and the key's hash.
  let capacity = 16;
  while (capacity < 2 * widest) capacity *= 2;
  const slots = new Int32Array(2 * capacity);
  const slotKey = slots.subarray(0, capacity);
  const slotHash = slots.subarray(capacity);

  // The placeholder's id after the run's in the batch's pool (a copy, made only when needed).
  let pool = { bytes: run.docids.bytes, offsets: run.docids.offsets };
  const placeholderEntry = run.length;
  if (placeholder && absent.length > 0) {
    const end = run.docids.offsets[run.length];
    const bytes = new Uint8Array(end + PLACEHOLDER_BYTES.length);
    bytes.set(run.docids.bytes.subarray(0, end));
    bytes.set(PLACEHOLDER_BYTES, end);
    const offsets = new Int32Array(run.length + 2);
    offsets.set(run.docids.offsets.subarray(0, run.length + 1));
    offsets[run.length + 1] = end + PLACEHOLDER_BYTES.length;
    pool = { bytes, offsets };
  }
  const placeholders: number[] = [];

  const jIds = ids(qrels.docids);
  const rIds = ids(run.docids);
  const jOff = jIds.offsets;
  const rOff = rIds.offsets;
  const jBytes = jIds.bytes;
  const rel = qrels.rel;
  const score = run.score;
  const jOrder = jg.order;
  const rOrder = rg.order;
  let row = 0;
  let jrow = 0;
  let touched = 0;
  for (let k = 0; k < numQueries; k++) {
    const q = chosen[k];
    const j0 = jg.begin[q];
    const j1 = jg.end[q];
    const r0 = rg.begin[q];
    const r1 = rg.end[q];
    let size = 16;
    let bits = 4;
    while (size < 2 * (j1 - j0 + r1 - r0)) {
      size *= 2;
      bits++;
    }
    const mask = size - 1;
    const shift = 32 - bits;
    slotKey.fill(0, 0, size);

    for (let i = j0; i < j1; i++) {
      const jr = jOrder === null ? i : jOrder[i];
      const h = jHash[jr];
      // Touching each judged id's first byte in file order lets the prefetcher bring them into cache
      // before the run's rows read them in hash order (3% faster).
      touched |= jBytes[jOff[jr]];
      // Fibonacci hashing: the slot from the top bits of h times 2^32/phi, whatever bits h varies in.
      let s = Math.imul(h, 0x9e3779b1) >>> shift;
      for (;;) {
        const key = slotKey[s];
        if (key === 0) break;
        if (slotHash[s] === h && sameId(jIds, jr, jIds, key - 1)) duplicate(qrels, jr, names, q);
        s = (s + 1) & mask;
      }
      slotKey[s] = jr + 1;
      slotHash[s] = h;
      if (atolJudged) atolJudged[jrow] = atolRel![jr];
      judged[jrow++] = rel[jr];
    }

    for (let i = r0; i < r1; i++) {
      const rr = rOrder === null ? i : rOrder[i];
      const h = rHash[rr];
      const a = rOff[rr];
      const len = rOff[rr + 1] - a;
      let s = Math.imul(h, 0x9e3779b1) >>> shift;
      let label = NaN;
      for (;;) {
        const key = slotKey[s];
        if (key === 0) {
          slotHash[s] = h;
          break;
        }
        if (slotHash[s] === h) {
          if (key > 0) {
            const b = jOff[key - 1];
            if (jOff[key] - b === len && sameBytes(rIds, a, jIds, b, len)) {
              label = rel[key - 1];
              if (atolLabels) atolLabels[row] = atolRel![key - 1];
              break;
            }
          } else if (sameId(rIds, rr, rIds, -key - 1)) {
            duplicate(run, rr, names, q);
          }
        }
        s = (s + 1) & mask;
      }
      slotKey[s] = -(rr + 1);
      scores[row] = score[rr];
      if (atolLabels && label !== label) atolLabels[row] = NaN;
      labels[row] = label;
      docids[row] = rr;
      row++;
    }
    if (placeholder && r0 === r1) {
      // trec_eval.c bogus_result, judged like any ranked document (form_res_rels.c).
      let label = NaN;
      for (let i = j0; i < j1; i++) {
        const jr = jOrder === null ? i : jOrder[i];
        const b = jOff[jr];
        if (jOff[jr + 1] - b !== PLACEHOLDER_BYTES.length) continue;
        let same = true;
        for (let t = 0; t < PLACEHOLDER_BYTES.length && same; t++) same = jBytes[b + t] === PLACEHOLDER_BYTES[t];
        if (same) {
          label = rel[jr];
          if (atolLabels) atolLabels[row] = atolRel![jr];
        }
      }
      scores[row] = 1;
      if (atolLabels && label !== label) atolLabels[row] = NaN;
      labels[row] = label;
      docids[row] = placeholderEntry;
      row++;
      placeholders.push(k);
    }
    offsets[k + 1] = row;
    judgedOffsets[k + 1] = jrow;
  }
  _sink = touched;

  const batch: Batch = {
    numQueries,
    offsets,
    scores,
    labels,
    judgedOffsets,
    judged,
    docids,
    pool,
    ...(atolLabels ? { atolLabels: { labels: atolLabels, judged: atolJudged } } : {}),
  };
  return { batch, qids, notJudged, notInRun: absent.length, notInRunQids, runTag: run.runTag, placeholders };
}
