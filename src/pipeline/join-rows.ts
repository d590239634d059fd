/**
 * Joins a run to its judgments (both parsed `docids: "per-row"`) into a Batch; join-kernel.ts is the
 * twin for judgments in kernel memory. Ids are compared only within a query, as trec_eval does, so each
 * query gets a small open-addressing table of judged ids' hashes that run rows probe and enter.
 * As trec_eval (TREC_EVAL_SEMANTICS.md (b), (d)): queries in strcmp order, a document twice in a query
 * is fatal, unjudged documents get label NaN. `docids[i]`: batch row i's run row, for tie order.
 */
import { RankevalError, type QuerySample } from "../errors/errors.js";
import { compareIds, ids, type QuerySpans, type RowDocids, sameBytes, sameId } from "../io/rows.js";
import type { Batch } from "../kernel/batch.js";
import { duplicate, JoinKernel } from "./join-kernel.js";
import type { JoinQrels, JoinRun } from "./join-memory.js";
import { atolColumn } from "./trec-labels.js";
import { prepareRun, type RunPreparation, type RunPrepared } from "./prepare-run.js";

export interface JoinOptions {
  /** Test hook replacing the parsers' hash. */
  hash?: (bytes: Uint8Array, start: number, end: number) => number;
  /** Evaluate judged queries absent from the run on an empty ranking (trec_eval -c). @default false */
  complete?: boolean;
  /** With `complete`: rank trec_eval's bogus_result for an absent query. @default false */
  placeholder?: boolean;
  /** One block of a larger run: absent queries not counted. @default false */
  block?: boolean;
  /** A dead batch of this join to write over (fresh arrays' page faults were a third of a block's join). */
  reuse?: Batch;
  /** Read only until the next join to the same judgments (may stay in the kernel). @default false */
  transient?: boolean;
  /** Queries in id order, not strcmp's. @default false */
  inIdOrder?: boolean;
  /** Queries the run holds without a row (an object's `{}`). */
  emptyQueries?: ReadonlySet<number>;
  /** Rolls passages up, drops the queries' own ids (prepare-run.ts): here, so every face and format gets it. */
  prepare?: RunPreparation;
}

/** `old`'s buffer as n entries where it has room, else a new array. */
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
  notJudged: number;
  notInRun: number;
  notInRunQids: string[];
  runTag: string;
  /** Batch queries ranked as the placeholder, ascending. */
  placeholders: number[];
  /** With JoinOptions.prepare: what it did, and the given run's row each batch docid stands for. */
  prepared?: RunPrepared;
  preparedFrom?: Int32Array;
}

/** trec_eval.c's bogus_result: ranked for an absent judged query under -c. */
export const PLACEHOLDER_DOCNO = "ceci_nest_pas_un_docno";
const PLACEHOLDER_BYTES = new TextEncoder().encode(PLACEHOLDER_DOCNO);

/** Rows grouped by query (stable): q's rows are order[begin[q], end[q]), the rows themselves where order is null. */
export interface Groups {
  begin: Int32Array;
  end: Int32Array;
  order: Int32Array | null;
}

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
  // Usually each query's rows are contiguous: one range each.
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

/** Keeps cache-warming loads alive. */
let _sink = 0;

function rehash(docs: RowDocids, hash: NonNullable<JoinOptions["hash"]>): Int32Array {
  const n = docs.offsets.length - 1;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = hash(docs.bytes, docs.offsets[i], docs.offsets[i + 1]) | 0;
  return out;
}

/** Judgments grouped by query once, for many joins; the qid column is dropped to save memory. */
export interface GroupedJudgments {
  readonly qrels: Omit<JoinQrels, "qid">;
  readonly groups: Groups;
  readonly hashes: Int32Array;
  kernel?: JoinKernel;
  readonly inKernel: boolean;
  /** See atolColumn. */
  readonly atolRel: Float64Array | null;
  /** Every label whole and read so by atol: batches joined to these need no trecLabelled copy. */
  readonly wholeLabels: boolean;
}

export function groupJudgments(qrels: JoinQrels, options: Pick<JoinOptions, "hash"> = {}): GroupedJudgments {
  const { qid, ...rest } = qrels;
  const { begin, end, order } = groupByQuery(qid, qrels.length, qrels.qidNames.size);
  const atolRel = atolColumn(qrels.rel, qrels.truncated);
  return {
    qrels: rest,
    groups: { begin, end, order },
    hashes: options.hash ? rehash(qrels.docids, options.hash) : qrels.docids.hashes,
    inKernel: !options.hash && qrels.kernel !== undefined,
    atolRel,
    wholeLabels: !atolRel && wholeNumbers(qrels.rel),
  };
}

/** Whether every value is an integer (or NaN): one scan of the judgments, not one of every run block. */
function wholeNumbers(x: Float64Array): boolean {
  for (let i = 0; i < x.length; i++) {
    const f = x[i] - Math.trunc(x[i]);
    if (f !== 0 && f === f) return false;
  }
  return true;
}

/** The judged queries for noQueryInCommon: count and first few. */
export function judgedSample(judgments: GroupedJudgments, name = judgments.qrels.file): QuerySample {
  const { begin, end } = judgments.groups;
  const some: number[] = [];
  let queries = 0;
  for (let q = 0; q < begin.length; q++) if (end[q] > begin[q] && queries++ < 3) some.push(q);
  return { name, queries, some: judgments.qrels.qidNames.stringsOf(some) };
}

/** Joins a run to its judgments (same `qids` interner); throws an InputError for a duplicate document. */
export function joinParsed(
  judgments: JoinQrels | GroupedJudgments,
  given: JoinRun,
  options: JoinOptions = {},
): JoinedRun {
  const prep = options.prepare ? prepareRun(given, options.prepare) : null;
  const run = prep ? prep.run : given;
  const prepared = prep ? { prepared: prep.counts, preparedFrom: prep.from } : {};
  const grouped = "groups" in judgments ? judgments : groupJudgments(judgments, options);
  const qrels = grouped.qrels;
  const names = qrels.qidNames;
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

  // Only the run's queries are visited (a block has a few thousand); judged ones only for notInRun.
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
  // A query the preparation left without a row is ranked as an object's `{}` is: empty, in blocks too.
  const emptied = prep?.emptied ?? [];
  const emptiedSet = emptied.length ? new Set(emptied) : null;
  const isEmpty = (q: number) => options.emptyQueries?.has(q) === true || emptiedSet?.has(q) === true;
  for (const q of emptied) {
    const nj = q < judgedQids ? jg.end[q] - jg.begin[q] : 0;
    if (nj === 0) notJudged++;
    else if (options.block) {
      chosen.push(q);
      judgedRows += nj;
      if (nj + 1 > widest) widest = nj + 1;
    }
  }
  if (!options.block) {
    for (let q = 0; q < judgedQids; q++) {
      const nj = jg.end[q] - jg.begin[q];
      if (nj === 0 || rg.end[q] > rg.begin[q]) continue;
      const empty = isEmpty(q);
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
  // The kernel's join has no atol column.
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
      return {
        batch: grouped.wholeLabels ? { ...batch, wholeLabels: true } : batch,
        qids,
        notJudged,
        notInRun: absent.length,
        notInRunQids,
        runTag: run.runTag,
        placeholders: [],
        ...prepared,
      };
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

  // One table sized for the widest query: key judged row + 1 (> 0), -(run row + 1) once ranked, 0 empty.
  let capacity = 16;
  while (capacity < 2 * widest) capacity *= 2;
  const slots = new Int32Array(2 * capacity);
  const slotKey = slots.subarray(0, capacity);
  const slotHash = slots.subarray(capacity);

  // The placeholder's id after the run's in the pool.
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
      // Prefetch judged ids in file order before hash-order reads (3% faster).
      touched |= jBytes[jOff[jr]];
      // Fibonacci hashing: top bits of h * 2^32/phi.
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
      // bogus_result, judged like any ranked document (form_res_rels.c).
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
    ...(grouped.wholeLabels ? { wholeLabels: true } : {}),
  };
  return {
    batch,
    qids,
    notJudged,
    notInRun: absent.length,
    notInRunQids,
    runTag: run.runTag,
    placeholders,
    ...prepared,
  };
}
