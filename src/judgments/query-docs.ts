// What pools.ts and qrels-stats.ts share: inputs read as the library reads a run or judgments in memory
// (join-memory.ts: the same shapes, checks and messages), grouped by query, and a table of one query's
// distinct documents. Ids are compared within a query only, never interned whole (io/rows.ts says why).
import { documentTwice } from "../errors/errors.js";
import type { Interner } from "../io/interner.js";
import { type Ids, ids, type ParsedRows, sameId } from "../io/rows.js";
import { givenRows, MemoryRows } from "../pipeline/join-memory.js";

/** One query's distinct documents over several sources (ids 0, 1, ...): what pools.ts asks of a table. */
export interface DocTable {
  readonly size: number;
  /** Whether UTF-16 order is byte order for the last `strings` (so a plain sort of them is strcmp's). */
  readonly ascii: boolean;
  /** Empties the table for a query of at most `rows` rows. */
  reset(rows: number): void;
  /** Row `row` of source `s` (query q): its document's id; throws if s gave it already in this query. */
  add(s: number, row: number, q: number): number;
  /** strcmp of documents u and v's ids. */
  compare(u: number, v: number): number;
  /** The ids of documents `us`. */
  strings(us: ArrayLike<number>): string[];
}

/** One input read: its rows, their ids and values, and where each query's rows are. */
export interface Source {
  readonly name: string;
  /** The queries' ids by number (shared by the sources read together). */
  readonly qidNames: Interner;
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
    qidNames: names,
    ids: ids(r.docids),
    hashes: r.docids.hashes,
    value: r.score,
    qid: r.qid,
    begin: new Int32Array(1),
    order: new Int32Array(0),
  };
}

/**
 * `x` read as readSource reads columns, without a string an id: its queries numbered again by `names`
 * (shared by the sources read together). Null where a value is not a finite number: readSource, on the
 * columns, then says which, as it always has.
 */
export function parsedSource(x: ParsedRows, name: string, names: Interner): Source | null {
  const { value } = x;
  for (let i = 0; i < value.length; i++) if (value[i] - value[i] !== 0) return null;
  const local = x.qidNames.pool();
  const { bytes, offsets } = x.docids;
  if (!isUtf8(local.bytes) || !isUtf8(bytes.subarray(offsets[0], offsets[x.qid.length]))) return null;
  const shared = new Int32Array(local.offsets.length - 1);
  for (let q = 0; q < shared.length; q++) shared[q] = names.intern(local.bytes, local.offsets[q], local.offsets[q + 1]);
  const qid = new Int32Array(x.qid.length);
  for (let i = 0; i < qid.length; i++) qid[i] = shared[x.qid[i]];
  return {
    name,
    qidNames: names,
    ids: ids(x.docids),
    hashes: x.docids.hashes,
    value,
    qid,
    begin: new Int32Array(1),
    order: new Int32Array(0),
  };
}

const strictDecoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Whether `bytes` are well-formed UTF-8: ids that are not read as strings (U+FFFD for each bad sequence),
 * so two ids can be one; bytes would tell them apart, and the output would differ from the columns'.
 */
function isUtf8(bytes: Uint8Array): boolean {
  // 4 bytes at a time where aligned: byte by byte was 0.2 s of 200 MB of ids.
  const { buffer, byteOffset, length } = bytes;
  const start = Math.min((4 - (byteOffset & 3)) & 3, length);
  const words = (length - start) >> 2;
  let bits = 0;
  for (let i = 0; i < start; i++) bits |= bytes[i];
  const aligned = new Uint32Array(buffer, byteOffset + start, words);
  for (let i = 0; i < words; i++) bits |= aligned[i];
  for (let i = start + 4 * words; i < length; i++) bits |= bytes[i];
  if ((bits & 0x80808080) === 0) return true;
  try {
    strictDecoder.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Groups s's rows by the interner's `numQids` queries (a counting sort: given order within a query). */
export function groupSource(s: Pick<Source, "qid" | "begin" | "order">, numQids: number): void {
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
export class QueryDocs implements DocTable {
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
          throw documentTwice(doc, source.qidNames.stringOf(q), source.name);
        }
        this.last[u] = s;
        return u;
      }
    }
  }

  /**
   * For each document u of `us`, keys[u]: 6 bytes of its id after the prefix all of `us` share, as a
   * number (base 257, the id's end 0): ids in byte order have keys in order, so a sort compares numbers
   * and reads ids only where keys tie. Sorting a query's ids as strings, each pair past a shared prefix
   * ("clueweb-00042-"), was a quarter of the command line's depth:100 pool.
   */
  idKeys(us: ArrayLike<number>): Float64Array {
    if (this.keys.length < this.src.length) this.keys = new Float64Array(this.src.length);
    const keys = this.keys;
    if (us.length === 0) return keys;
    const first = this.sources[this.src[us[0]]].ids;
    const f = first.offsets[this.row[us[0]]];
    let prefix = first.offsets[this.row[us[0]] + 1] - f;
    for (let k = 1; k < us.length && prefix > 0; k++) {
      const { bytes, offsets } = this.sources[this.src[us[k]]].ids;
      const at = offsets[this.row[us[k]]];
      const len = offsets[this.row[us[k]] + 1] - at;
      if (len < prefix) prefix = len;
      for (let i = 0; i < prefix; i++)
        if (bytes[at + i] !== first.bytes[f + i]) {
          prefix = i;
          break;
        }
    }
    for (let k = 0; k < us.length; k++) {
      const { bytes, offsets } = this.sources[this.src[us[k]]].ids;
      const at = offsets[this.row[us[k]]] + prefix;
      const end = offsets[this.row[us[k]] + 1];
      let key = 0;
      for (let i = at; i < at + 6; i++) key = key * 257 + (i < end ? bytes[i] + 1 : 0);
      keys[us[k]] = key;
    }
    return keys;
  }

  private keys = new Float64Array(16);

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

/**
 * A run or judgments given as columns of string ids, read as they are: no id encoded, hashed or
 * copied (encoding every id as UTF-8 was half a depth pool's time, 10M rows).
 */
export interface StringSource {
  readonly name: string;
  /** Row i's document: a string, else QueryStrings sends the reading back to bytes. */
  readonly docid: ArrayLike<unknown>;
  readonly value: Float64Array;
  /** Rows of one query next to each other: query spanQuery[k] has rows spanStart[k] .. spanStart[k + 1]. */
  readonly spanQuery: Int32Array;
  readonly spanStart: Int32Array;
  /** Query q's rows are order[begin[q], begin[q + 1]) (given order), made by groupSpans. */
  begin: Int32Array;
  order: Int32Array;
}

/** A code unit of a surrogate pair's half (0xd800-0xdfff). */
const isSurrogate = (c: number) => (c & 0xf800) === 0xd800;

function plain(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (isSurrogate(s.charCodeAt(i))) return false;
  return true;
}

/**
 * Thrown by QueryStrings where its reading may differ from readSource's (a document id that is not a
 * string, or has a surrogate) or where the input is bad (a document twice): the caller reads the inputs
 * again with readSource, which says what is wrong as it always has. Bad input is said in one place.
 */
export const READ_AS_BYTES: unique symbol = Symbol("read as bytes");

/**
 * `x` read as columns whose query ids are strings or numbers without surrogates and whose values are
 * finite numbers; queries numbered by `qids` (String(id) -> number, in first-seen order over the
 * sources). Null where anything is otherwise (objects, a query id of another type or with a surrogate,
 * a value that is no finite number, a malformed shape): readSource then reads it, or says what is wrong,
 * as it always has. Document ids are not read here: QueryStrings checks them where it reads them (each
 * a cache miss: a second pass over them was most of this one's time).
 */
export function readStrings(
  x: unknown,
  name: string,
  valueName: "score" | "rel",
  qids: Map<string, number>,
): StringSource | null {
  let given: ReturnType<typeof givenRows>;
  try {
    given = givenRows(x, name, valueName);
  } catch {
    return null;
  }
  if ("qids" in given) return null;
  // Columns in locals: a property load a row cost a third of the loop.
  const { qid: qidColumn, value: values } = given;
  const n = qidColumn.length;
  const value = values instanceof Float64Array ? values : new Float64Array(n);
  const spanQuery: number[] = [];
  const spanStart: number[] = [];
  let last: unknown;
  for (let i = 0; i < n; i++) {
    const v = qidColumn[i];
    if (v !== last || i === 0) {
      if (typeof v !== "string" && typeof v !== "number") return null;
      const id = String(v);
      if (!plain(id)) return null;
      last = v;
      let q = qids.get(id);
      if (q === undefined) qids.set(id, (q = qids.size));
      // The same query again (a number id and its string): one span.
      if (spanQuery.length === 0 || spanQuery[spanQuery.length - 1] !== q) {
        spanQuery.push(q);
        spanStart.push(i);
      }
    }
    const score = values[i];
    // v - v is 0 for finite numbers only.
    if (typeof score !== "number" || score - score !== 0) return null;
    if (value !== values) value[i] = score;
  }
  spanStart.push(n);
  return {
    name,
    docid: given.docid,
    value,
    spanQuery: Int32Array.from(spanQuery),
    spanStart: Int32Array.from(spanStart),
    begin: new Int32Array(1),
    order: new Int32Array(0),
  };
}

/** groupSource by s's spans (a counting sort of spans, not of rows: given order within a query). */
export function groupSpans(s: StringSource, numQids: number): void {
  const { spanQuery, spanStart } = s;
  const begin = new Int32Array(numQids + 1);
  for (let k = 0; k < spanQuery.length; k++) begin[spanQuery[k] + 1] += spanStart[k + 1] - spanStart[k];
  for (let q = 0; q < numQids; q++) begin[q + 1] += begin[q];
  const next = begin.slice(0, numQids);
  const order = new Int32Array(spanStart[spanQuery.length]);
  for (let k = 0; k < spanQuery.length; k++) {
    let at = next[spanQuery[k]];
    for (let i = spanStart[k]; i < spanStart[k + 1]; i++) order[at++] = i;
    next[spanQuery[k]] = at;
  }
  s.begin = begin;
  s.order = order;
}

/**
 * QueryDocs for StringSources: a Map of one query's ids (V8 keeps a string's hash once computed). Ids
 * without surrogates compare as their UTF-8 bytes do (equal, and in order); each new one is checked,
 * and one that is not a string or has a surrogate, or a document twice, throws READ_AS_BYTES.
 */
export class QueryStrings implements DocTable {
  size = 0;
  readonly ascii = true;
  private src: Int32Array = new Int32Array(16);
  private row: Int32Array = new Int32Array(16);
  private last: Int32Array = new Int32Array(16);
  private units = new Map<string, number>();

  constructor(private readonly sources: readonly StringSource[]) {}

  reset(rows: number): void {
    this.units.clear();
    if (this.src.length < rows) {
      this.src = new Int32Array(rows);
      this.row = new Int32Array(rows);
      this.last = new Int32Array(rows);
    }
    this.size = 0;
  }

  add(s: number, row: number): number {
    const d = this.sources[s].docid[row];
    if (typeof d !== "string") throw READ_AS_BYTES;
    const u = this.units.get(d);
    if (u === undefined) {
      if (!plain(d)) throw READ_AS_BYTES;
      const n = this.size++;
      this.units.set(d, n);
      this.src[n] = s;
      this.row[n] = row;
      this.last[n] = s;
      return n;
    }
    if (this.last[u] === s) throw READ_AS_BYTES;
    this.last[u] = s;
    return u;
  }

  /** Unit u's id: a string (add checked it). */
  private id(u: number): string {
    return this.sources[this.src[u]].docid[this.row[u]] as string;
  }

  compare(u: number, v: number): number {
    const a = this.id(u);
    const b = this.id(v);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  strings(us: ArrayLike<number>): string[] {
    const out = new Array<string>(us.length);
    for (let k = 0; k < us.length; k++) out[k] = this.id(us[k]);
    return out;
  }
}
