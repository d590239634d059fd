// What pools.ts and qrels-stats.ts share: inputs read as the library reads a run or judgments in memory
// (join-memory.ts: the same shapes, checks and messages), grouped by query, and a table of one query's
// distinct documents. Ids are compared within a query only, never interned whole (io/rows.ts says why).
import { documentTwice } from "../errors/errors.js";
import type { Interner } from "../io/interner.js";
import { type Ids, ids, sameId } from "../io/rows.js";
import { givenRows, MemoryRows } from "../pipeline/join-memory.js";

/** One input read: its rows, their ids and values, and where each query's rows are. */
export interface Source {
  readonly name: string;
  readonly rows: MemoryRows;
  readonly ids: Ids;
  readonly hashes: Int32Array;
  readonly value: Float64Array;
  readonly qid: Int32Array;
  /** Query q's rows are order[begin[q], begin[q + 1]) (given order). */
  begin: Int32Array;
  order: Int32Array;
}

/** Reads `x` (objects or columns) as join-memory.ts does, named `name` in messages; values must be finite. */
export function readSource(x: unknown, name: string, valueName: "score" | "rel", names: Interner): Source {
  const rows = new MemoryRows(name, names).addGiven(givenRows(x, name, valueName));
  rows.checkFinite(valueName === "rel" ? "label" : "score");
  const r = rows.rows();
  return {
    name,
    rows,
    ids: ids(r.docids),
    hashes: r.docids.hashes,
    value: r.score,
    qid: r.qid,
    begin: new Int32Array(1),
    order: new Int32Array(0),
  };
}

/** Groups s's rows by the interner's `numQids` queries (a counting sort: given order within a query). */
export function groupSource(s: Source, numQids: number): void {
  const n = s.qid.length;
  const begin = new Int32Array(numQids + 1);
  for (let i = 0; i < n; i++) begin[s.qid[i] + 1]++;
  for (let q = 0; q < numQids; q++) begin[q + 1] += begin[q];
  const next = begin.slice(0, numQids);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[next[s.qid[i]]++] = i;
  s.begin = begin;
  s.order = order;
}

/** One query's distinct documents (ids 0, 1, ...) over several sources; each remembers its first row. */
export class QueryDocs {
  size = 0;
  /** The source and row of document u's first appearance. */
  src: Int32Array = new Int32Array(16);
  row: Int32Array = new Int32Array(16);
  /** The last source that gave u: a second time from the same is a duplicate. */
  private last = new Int32Array(16);
  private slots = new Int32Array(32);
  private shift = 27;

  constructor(private readonly sources: readonly Source[]) {}

  /** Empties the table for a query of at most `rows` rows. */
  reset(rows: number): void {
    let bits = 5;
    while (1 << bits < 2 * rows) bits++;
    if (this.slots.length < 1 << bits) this.slots = new Int32Array(1 << bits);
    else this.slots.fill(0, 0, 1 << bits);
    this.shift = 32 - bits;
    if (this.src.length < rows) {
      this.src = new Int32Array(rows);
      this.row = new Int32Array(rows);
      this.last = new Int32Array(rows);
    }
    this.size = 0;
  }

  /** Row `row` of source `s` (query q): its document's id; throws if s gave it already in this query. */
  add(s: number, row: number, q: number): number {
    const source = this.sources[s];
    const h = source.hashes[row];
    const mask = (1 << (32 - this.shift)) - 1;
    const slots = this.slots;
    // Fibonacci hashing, linear probing, as join-rows.ts.
    for (let at = Math.imul(h, 0x9e3779b1) >>> this.shift; ; at = (at + 1) & mask) {
      const key = slots[at];
      if (key === 0) {
        const u = this.size++;
        slots[at] = u + 1;
        this.src[u] = s;
        this.row[u] = row;
        this.last[u] = s;
        return u;
      }
      const u = key - 1;
      const o = this.sources[this.src[u]];
      if (o.hashes[this.row[u]] === h && sameId(o.ids, this.row[u], source.ids, row)) {
        if (this.last[u] === s) {
          const { bytes, offsets } = source.ids;
          const doc = decoder.decode(bytes.subarray(offsets[row], offsets[row + 1]));
          throw documentTwice(doc, source.rows.qidNames.stringOf(q), source.name);
        }
        this.last[u] = s;
        return u;
      }
    }
  }

  /** strcmp of documents u and v's ids. */
  compare(u: number, v: number): number {
    const a = this.sources[this.src[u]].ids;
    const b = this.sources[this.src[v]].ids;
    const ra = this.row[u];
    const rb = this.row[v];
    const offA = a.offsets[ra];
    const offB = b.offsets[rb];
    const lenA = a.offsets[ra + 1] - offA;
    const lenB = b.offsets[rb + 1] - offB;
    const n = lenA < lenB ? lenA : lenB;
    for (let i = 0; i < n; i++) {
      const d = a.bytes[offA + i] - b.bytes[offB + i];
      if (d !== 0) return d;
    }
    return lenA - lenB;
  }

  /** Whether the last `strings` were all ASCII (UTF-16 order is then byte order). */
  ascii = true;

  /** The ids of documents `us`, one UTF-8 decode where all are ASCII. */
  strings(us: ArrayLike<number>): string[] {
    let total = 0;
    for (let k = 0; k < us.length; k++) {
      const d = this.sources[this.src[us[k]]].ids.offsets;
      total += d[this.row[us[k]] + 1] - d[this.row[us[k]]];
    }
    const all = new Uint8Array(total);
    let at = 0;
    let bits = 0;
    for (let k = 0; k < us.length; k++) {
      const { bytes, offsets } = this.sources[this.src[us[k]]].ids;
      const r = this.row[us[k]];
      for (let i = offsets[r]; i < offsets[r + 1]; i++) {
        bits |= bytes[i];
        all[at++] = bytes[i];
      }
    }
    const out = new Array<string>(us.length);
    this.ascii = bits < 0x80;
    if (bits >= 0x80) {
      at = 0;
      for (let k = 0; k < us.length; k++) {
        const { offsets } = this.sources[this.src[us[k]]].ids;
        const len = offsets[this.row[us[k]] + 1] - offsets[this.row[us[k]]];
        out[k] = decoder.decode(all.subarray(at, (at += len)));
      }
      return out;
    }
    const text = decoder.decode(all);
    at = 0;
    for (let k = 0; k < us.length; k++) {
      const { offsets } = this.sources[this.src[us[k]]].ids;
      const len = offsets[this.row[us[k]] + 1] - offsets[this.row[us[k]]];
      out[k] = text.slice(at, (at += len));
    }
    return out;
  }
}

const decoder = new TextDecoder();
