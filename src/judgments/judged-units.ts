// Several sets of judgments side by side: each (query, document) pair judged by any set is a unit, with
// one label slot per set (NaN where that set did not judge it).
import { badInput, documentTwice, shown } from "../errors/errors.js";
import { givenRows, type Qrels } from "../pipeline/join-memory.js";

export interface JudgedUnits {
  readonly sets: number;
  /** Queries in first-seen order over the sets (set 0's first). */
  readonly qids: string[];
  /** Query q's units are offsets[q] .. offsets[q + 1]. */
  readonly offsets: Int32Array;
  /** Unit u's label from set s at `u * sets + s`; NaN where s did not judge it. */
  readonly labels: Float64Array;
}

/** A query's documents: docid -> unit. */
type Query = Map<string, number>;

/**
 * Not query-docs.ts's reading (pools, stats): agreement reads objects as often as columns, whose ids it
 * keys as strings, with no order to keep (pools rank by bytes); QueryStrings is this reading for
 * columns, and its bad input is said by the bytes' reading, in other words than these (`sets[1] row 3`).
 * Reads every set (objects or columns, checked by join-memory.ts's givenRows, as evaluateRun does) into
 * one Map of documents per query: O(judgments), a lookup per judgment; labels in one growing typed array
 * (arrays per query were most of the garbage), units then grouped by query with a counting sort. `what`
 * names the sets in messages (`sets[1]: query "q3" document "d9": label must be a finite number, not "2"`).
 */
export function judgedUnits(sets: readonly Qrels[], what: string): JudgedUnits {
  const m = sets.length;
  const queries = new Map<string, Query>();
  const queryIndex = new Map<Query, number>();
  let units = 0;
  let labels = new Float64Array(1024 * m).fill(NaN);
  let unitQuery = new Int32Array(1024);
  const queryOf = (qid: string) => {
    let q = queries.get(qid);
    if (q === undefined) {
      queries.set(qid, (q = new Map()));
      queryIndex.set(q, queryIndex.size);
    }
    return q;
  };
  for (let s = 0; s < m; s++) {
    const where = `${what}[${s}]`;
    const put = (q: Query, qid: string, d: string, v: unknown, row: number) => {
      // v - v is 0 for finite numbers only.
      if (typeof v !== "number" || v - v !== 0)
        throw badInput(
          `${where}: query ${shown(qid)} document ${shown(d)}: label must be a finite number, not ${shown(v)}`,
        );
      let u = q.get(d);
      if (u === undefined) {
        u = units++;
        q.set(d, u);
        if (u === unitQuery.length) {
          const grown = new Float64Array(2 * labels.length).fill(NaN);
          grown.set(labels);
          labels = grown;
          const grownQuery = new Int32Array(2 * u);
          grownQuery.set(unitQuery);
          unitQuery = grownQuery;
        }
        unitQuery[u] = queryIndex.get(q) as number;
      }
      const at = u * m + s;
      if (!Number.isNaN(labels[at])) throw documentTwice(d, qid, `${where} row ${row}`);
      labels[at] = v;
    };
    const given = givenRows(sets[s], where, "rel");
    if ("qids" in given) {
      for (let k = 0; k < given.qids.length; k++) {
        const docs = given.docs[k];
        const keys = Object.keys(docs);
        if (keys.length === 0) continue;
        const qid = given.qids[k];
        const q = queryOf(qid);
        for (let i = 0; i < keys.length; i++) put(q, qid, keys[i], docs[keys[i]], i);
      }
      continue;
    }
    let last: unknown;
    let qid = "";
    let q: Query | null = null;
    for (let i = 0; i < given.qid.length; i++) {
      const v = given.qid[i];
      const d = given.docid[i];
      if (typeof v !== "string" && typeof v !== "number")
        throw badInput(`${where}.qid[${i}] must be a string or a number, not ${shown(v)}`);
      if (typeof d !== "string" && typeof d !== "number")
        throw badInput(`${where}.docid[${i}] must be a string or a number, not ${shown(d)}`);
      // Rows of one query usually come together: one lookup a run of them.
      if (q === null || v !== last) {
        last = v;
        qid = String(v);
        q = queryOf(qid);
      }
      put(q, qid, String(d), given.value[i], i);
    }
  }
  // Units grouped by query, queries and units in first-seen order (a stable counting sort).
  const nq = queries.size;
  const offsets = new Int32Array(nq + 1);
  for (let u = 0; u < units; u++) offsets[unitQuery[u] + 1]++;
  for (let q = 0; q < nq; q++) offsets[q + 1] += offsets[q];
  const cursor = offsets.slice(0, nq);
  const grouped = new Float64Array(units * m);
  for (let u = 0; u < units; u++) {
    const to = cursor[unitQuery[u]]++;
    for (let s = 0; s < m; s++) grouped[to * m + s] = labels[u * m + s];
  }
  return { sets: m, qids: [...queries.keys()], offsets, labels: grouped };
}
