// Rows in memory grouped by query into a batch: evaluate(rows).
import { counted } from "../errors/counted.js";
import { documentTwice, badInput, shown } from "../errors/errors.js";
import type { Batch } from "../kernel/batch.js";
import { StringPool } from "../kernel/kernel-pool.js";

export type Qid = string | number;

/** Columns (query, score, label[, docid]) of one length; results keep `Q`, the query ids' type. */
export interface Rows<Q extends Qid = Qid> {
  readonly qid: ArrayLike<Q>;
  readonly score: ArrayLike<number>;
  /** Relevance labels: may be negative or fractional. */
  readonly rel: ArrayLike<number>;
  /** Ties in score then by id descending (trec_eval), unless `ties` is "input". */
  readonly docid?: ArrayLike<string | number>;
}

/** Groups rows by query (first-seen order), stable; a document twice in a query is an error naming the row or `file`. */
export function groupRows(
  rows: Rows,
  file?: { name: string; query: (q: Qid) => string },
): { batch: Batch; qids: Qid[] } {
  if (rows === null || typeof rows !== "object")
    throw badInput("rows must be an object of columns { qid, score, rel, docid? }");
  for (const column of ["qid", "score", "rel"] as const) {
    if (!isColumn(rows[column])) throw badInput(`rows.${column} must be an array or typed array`);
  }
  const n = rows.qid.length;
  for (const column of ["score", "rel", "docid"] as const) {
    const c = rows[column];
    if (c === undefined && column === "docid") continue;
    if (!isColumn(c)) throw badInput(`rows.${column} must be an array or typed array`);
    if (c.length !== n) throw badInput(`rows.${column} has ${counted(c.length, "value")} but rows.qid has ${n}`);
  }

  // Grouped rows are used in place, else a stable counting sort.
  const qidColumn = rows.qid;
  const { qids, starts, index, contiguous } = scanQueries(qidColumn);
  let offsets: Int32Array;
  let rowAt: Int32Array | null = null; // row i goes to position rowAt[i]
  let queryOf: Int32Array | null = null;
  if (contiguous) {
    offsets = new Int32Array(qids.length + 1);
    offsets.set(starts);
    offsets[qids.length] = n;
  } else {
    queryOf = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const v = qidColumn[i];
      let q = index.get(v);
      if (q === undefined) {
        if (typeof v !== "string" && typeof v !== "number")
          throw badInput(`rows.qid[${i}] is ${typeof v}, not a string or number`);
        index.set(v, (q = qids.length));
        qids.push(v);
      }
      queryOf[i] = q;
    }
    offsets = new Int32Array(qids.length + 1);
    for (let i = 0; i < n; i++) offsets[queryOf[i] + 1]++;
    for (let q = 0; q < qids.length; q++) offsets[q + 1] += offsets[q];
    rowAt = new Int32Array(n);
    const cursor = offsets.slice(0, qids.length);
    for (let i = 0; i < n; i++) rowAt[i] = cursor[queryOf[i]]++;
  }
  const nq = qids.length;
  const scores = gatherNumbers(rows, "score", rowAt, n);
  const labels = gatherNumbers(rows, "rel", rowAt, n);
  // A column of plain values has every value of both checked first: a typed one beside it too.
  if (isNumbers(rows.score) !== isNumbers(rows.rel) && !allFinite(scores, labels)) findBadNumber(rows, n);
  // The kernel checks finiteness as it copies (in cache); with docids, checked below, here, so errors keep their order.
  let checkNumbers: (() => never) | undefined;
  if (rows.docid && !allFinite(scores, labels)) {
    findBadNumber(rows, n);
  } else if (!rows.docid) {
    checkNumbers = () => {
      findBadNumber(rows, n);
      throw new Error("the kernel found a score or label that is not finite, the host none");
    };
  }

  let docids: Int32Array | null = null;
  let pool: StringPool | null = null;
  if (rows.docid) {
    pool = new StringPool();
    docids = new Int32Array(n);
    const lastQuery: number[] = [];
    let grouped = 0; // the query of row i when rows are grouped: offsets only grow
    for (let i = 0; i < n; i++) {
      const d = rows.docid[i];
      if (typeof d !== "string" && typeof d !== "number")
        throw badInput(`rows.docid[${i}] is ${typeof d}, not a string or number`);
      const id = pool.intern(String(d));
      while (offsets[grouped + 1] <= i) grouped++;
      const q = queryOf ? queryOf[i] : grouped;
      if (lastQuery[id] === q + 1)
        throw documentTwice(String(d), (file?.query ?? String)(rows.qid[i]), file?.name ?? `rows.docid[${i}]`);
      lastQuery[id] = q + 1;
      docids[rowAt ? rowAt[i] : i] = id;
    }
  }
  const batch: Batch = {
    numQueries: nq,
    offsets,
    scores,
    labels,
    judgedOffsets: null,
    judged: null,
    docids,
    pool: pool?.pool() ?? null,
    checkNumbers,
  };
  return { batch, qids };
}

/** Queries in first-seen order and their starts, up to the first that comes back (then not `contiguous`). */
function scanQueries(qidColumn: ArrayLike<Qid>): {
  qids: Qid[];
  starts: number[];
  index: Map<Qid, number>;
  contiguous: boolean;
} {
  const runs = runStarts(qidColumn);
  // The map costs more than the scan: made only once ids stop increasing.
  const qids: Qid[] = [];
  const starts: number[] = [];
  let index: Map<Qid, number> | null = null;
  let contiguous = true;
  for (const i of runs) {
    const v = qidColumn[i];
    const previous = qids[qids.length - 1];
    if (index === null && i > 0 && !(typeof v === typeof previous && v > previous))
      index = new Map(qids.map((q, k) => [q, k]));
    if (index !== null) {
      if (index.has(v)) {
        contiguous = false;
        break;
      }
      index.set(v, qids.length);
    }
    if (typeof v !== "string" && typeof v !== "number")
      throw badInput(`rows.qid[${i}] is ${typeof v}, not a string or number`);
    qids.push(v);
    starts.push(i);
  }
  return { qids, starts, index: index ?? new Map(), contiguous };
}

/** Rows whose query differs from the row before's (own function: keeps the loop tight). */
function runStarts(qidColumn: ArrayLike<Qid>): number[] {
  const n = qidColumn.length;
  const starts: number[] = n > 0 ? [0] : [];
  let last = n > 0 ? qidColumn[0] : 0;
  for (let i = 1; i < n; i++) {
    const v = qidColumn[i];
    if (v !== last) {
      starts.push(i);
      last = v;
    }
  }
  return starts;
}

const isNumbers = (c: unknown) =>
  ArrayBuffer.isView(c) && !(c instanceof BigInt64Array) && !(c instanceof BigUint64Array);

export function isColumn(c: unknown): c is ArrayLike<unknown> {
  return Array.isArray(c) || (ArrayBuffer.isView(c) && !(c instanceof DataView));
}

function gather(column: ArrayLike<number>, rowAt: Int32Array | null): Float64Array {
  if (!rowAt) return column instanceof Float64Array ? column : Float64Array.from(column);
  const out = new Float64Array(column.length);
  for (let i = 0; i < column.length; i++) out[rowAt[i]] = column[i];
  return out;
}

/**
 * A column as doubles in batch order. Values not in a typed array are checked as they are copied (a
 * bigint is said before a Float64Array refuses it, a string before it is read as a number): at the first
 * that is no finite number, findBadNumber says the first bad row of either column, as before any copy.
 * One pass: checking, then copying with Float64Array.from, was a fifth of a small evaluate().
 */
function gatherNumbers(rows: Rows, column: "score" | "rel", rowAt: Int32Array | null, n: number): Float64Array {
  const c = rows[column];
  if (isNumbers(c)) return gather(c, rowAt);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = c[i];
    if (typeof v !== "number" || v - v !== 0) findBadNumber(rows, n);
    out[rowAt ? rowAt[i] : i] = v;
  }
  return out;
}

/** Throws for the first row whose score or label is no finite number (it returns only if none is). */
function findBadNumber(rows: Rows, n: number): void {
  for (let i = 0; i < n; i++) {
    for (const column of ["score", "rel"] as const) {
      const v = rows[column][i];
      if (typeof v !== "number")
        throw badInput(`rows.${column}[${i}] is ${shown(v)}, not a number (query ${shown(rows.qid[i])})`);
      if (!Number.isFinite(v))
        throw badInput(`rows.${column}[${i}] is ${v}, not a finite number (query ${shown(rows.qid[i])})`);
    }
  }
}

/** Own function, as every loop over all rows, so V8 optimizes each alone. */
function allFinite(scores: Float64Array, labels: Float64Array): boolean {
  const n = scores.length;
  // x - x is 0 for finite numbers, else NaN; four overlapping chains.
  let f0 = 0;
  let f1 = 0;
  let f2 = 0;
  let f3 = 0;
  const n4 = n - (n % 4);
  for (let p = 0; p < n4; p += 4) {
    f0 += scores[p] - scores[p] + (labels[p] - labels[p]);
    f1 += scores[p + 1] - scores[p + 1] + (labels[p + 1] - labels[p + 1]);
    f2 += scores[p + 2] - scores[p + 2] + (labels[p + 2] - labels[p + 2]);
    f3 += scores[p + 3] - scores[p + 3] + (labels[p + 3] - labels[p + 3]);
  }
  for (let p = n4; p < n; p++) f0 += scores[p] - scores[p] + (labels[p] - labels[p]);
  return f0 + f1 + f2 + f3 === 0;
}
