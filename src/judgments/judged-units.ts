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

interface Query {
  readonly docs: Map<string, number>;
  readonly labels: number[];
}

/**
 * Reads every set (objects or columns, checked by join-memory.ts's givenRows, as evaluateRun does) into
 * one Map of documents per query: O(judgments), a lookup per judgment. `what` names the sets in
 * messages (`sets[1]: query "q3" document "d9": label must be a finite number, not "2"`).
 */
export function judgedUnits(sets: readonly Qrels[], what: string): JudgedUnits {
  const m = sets.length;
  const queries = new Map<string, Query>();
  let units = 0;
  const queryOf = (qid: string) => {
    let q = queries.get(qid);
    if (q === undefined) queries.set(qid, (q = { docs: new Map(), labels: [] }));
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
      let u = q.docs.get(d);
      if (u === undefined) {
        u = q.docs.size;
        q.docs.set(d, u);
        for (let k = 0; k < m; k++) q.labels.push(NaN);
        units++;
      }
      const at = u * m + s;
      if (!Number.isNaN(q.labels[at])) throw documentTwice(d, qid, `${where} row ${row}`);
      q.labels[at] = v;
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
  const qids: string[] = [];
  const offsets = new Int32Array(queries.size + 1);
  const labels = new Float64Array(units * m);
  let at = 0;
  for (const [qid, q] of queries) {
    if (q.docs.size === 0) continue;
    labels.set(q.labels, at * m);
    at += q.docs.size;
    qids.push(qid);
    offsets[qids.length] = at;
  }
  return { sets: m, qids, offsets: offsets.subarray(0, qids.length + 1), labels };
}
