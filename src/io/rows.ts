/**
 * Document ids kept per row (`docids: "per-row"`), and each row's line. Ids are only compared within a
 * query, so not interned (a global table of ~10M ids costs a cache miss a lookup): each row appends its
 * bytes to one pool, and a hash (rowHash). Query ids, few and in runs, are interned.
 */
import { counted, isAre } from "../errors/counted.js";
import { shown, usageError } from "../errors/errors.js";
import type { Interner } from "./interner.js";

/** Row i's document id is bytes[offsets[i], offsets[i + 1]). */
export interface RowDocids {
  readonly bytes: Uint8Array;
  readonly offsets: Int32Array;
  /** hashes[i] = rowHash(bytes, offsets[i], offsets[i + 1]). */
  readonly hashes: Int32Array;
}

/**
 * A file's rows as its parser gives them (src/app/read-columns.ts), ids as UTF-8 bytes with their hashes,
 * queries numbered by the file's own interner: what src/judgments/pools.ts poolOfParsed reads, no id made
 * a string.
 */
export interface ParsedRows {
  readonly qid: Int32Array;
  readonly qidNames: Interner;
  readonly docids: RowDocids;
  readonly value: Float64Array;
}

/** Each row's line, sparsely: for rows[k] <= row < rows[k + 1], line = row + shifts[k] (rows[0] is 0). */
/** Rows an input held but left out (JSON lines' failed judgments), said as a warning: how many, the first's line, and which (`with result_status not 1 (...)`). */
export interface SkippedRows {
  count: number;
  line: number;
  which: string;
}

/** "FILE: 2 rows with result_status not 1 (the judge failed) are skipped (the first on line 7)". */
export function skippedWarning(file: string, s: SkippedRows): string {
  return `${file}: ${counted(s.count, "row")} ${s.which} ${isAre(s.count)} skipped (the first on line ${s.line})`;
}

export interface RowLines {
  readonly rows: Int32Array;
  readonly shifts: Int32Array;
}

/** An id's hash: h = length, h = imul(h ^ w, 0x9e3779b1) per little-endian 4-byte word (the last zero-padded), then h ^ (h >>> 16); as assembly/parse.ts. */
export function rowHash(buf: Uint8Array, start: number, end: number): number {
  let h = end - start;
  let i = start;
  for (; i + 4 <= end; i += 4)
    h = Math.imul(h ^ (buf[i] | (buf[i + 1] << 8) | (buf[i + 2] << 16) | (buf[i + 3] << 24)), 0x9e3779b1);
  if (i < end) {
    let w = 0;
    for (let s = 0; i < end; i++, s += 8) w |= buf[i] << s;
    h = Math.imul(h ^ w, 0x9e3779b1);
  }
  return h ^ (h >>> 16);
}

/** Rows [starts[k], starts[k + 1]) have query id ids[k]: loops go over a block's thousands of runs, not its million rows. */
export interface QuerySpans {
  readonly ids: Int32Array;
  readonly starts: Int32Array;
}

export function querySpans(qid: Int32Array, n: number): QuerySpans {
  let runs = 0;
  for (let i = 0, prev = -1; i < n; i++) {
    if (qid[i] !== prev) runs++;
    prev = qid[i];
  }
  const ids = new Int32Array(runs);
  const starts = new Int32Array(runs + 1);
  for (let i = 0, k = -1, prev = -1; i < n; i++) {
    const q = qid[i];
    if (q === prev) continue;
    ids[++k] = q;
    starts[k] = i;
    prev = q;
  }
  starts[runs] = n;
  return { ids, starts };
}

/** Gives `rows` a `qid` made from `spans` on first read: blocks travel between threads with spans only. */
export function lazyQid<T extends object>(rows: T, spans: QuerySpans, n: number): T & { qid: Int32Array } {
  let qid: Int32Array | null = null;
  Object.defineProperty(rows, "qid", {
    get(): Int32Array {
      if (!qid) {
        qid = new Int32Array(n);
        for (let k = 0; k < spans.ids.length; k++) qid.fill(spans.ids[k], spans.starts[k], spans.starts[k + 1]);
      }
      return qid;
    },
    enumerable: false,
    configurable: true,
  });
  return rows as T & { qid: Int32Array };
}

export function lineOfRow(lines: RowLines, row: number): number {
  if (!(typeof lines?.rows?.length === "number" && typeof lines.shifts?.length === "number"))
    throw usageError(`lineOfRow(lines, row): lines must be a parser's rows' lines, not ${shown(lines)}`);
  const rows = lines.rows;
  let lo = 0;
  let hi = rows.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (rows[mid] <= row) lo = mid;
    else hi = mid - 1;
  }
  return row + lines.shifts[lo];
}

/** A view of the pool. */
export function docidBytes(docids: RowDocids, row: number): Uint8Array {
  // Past the last row, undefined offsets would give the whole pool or nothing.
  const n = (docids?.offsets?.length ?? 0) - 1;
  if (!(Number.isInteger(row) && row >= 0 && row < n && docids.bytes instanceof Uint8Array))
    throw usageError(
      `docidBytes(docids, row): row ${shown(row)} is not a row of these docids (${Math.max(n, 0)} rows)`,
    );
  return docids.bytes.subarray(docids.offsets[row], docids.offsets[row + 1]);
}

const utf8Decoder = new TextDecoder("utf-8");

export function docidString(docids: RowDocids, row: number): string {
  return utf8Decoder.decode(docidBytes(docids, row));
}

/** The per-row columns, room made by reserve() once per range of lines (no check a row), sized from the input's size after a sample. */
export class RowsBuilder {
  qid: Int32Array;
  value: Float64Array;
  /** offsets[i + 1] is where row i's id ends in `pool`; offsets[0] = 0. */
  offsets: Int32Array;
  hashes: Int32Array;
  pool: Uint8Array;
  count = 0;
  used = 0;
  shift = 1;
  /** RowLines, growing (a stretch a row where rows share a line: one-line JSON). */
  private lineRows = new Int32Array(16);
  private lineShifts = new Int32Array(16).fill(1, 0, 1);
  private nShifts = 1;
  private expectedBytes: number;
  private bytesSeen = 0;

  /** @param expectedBytes the input's size (0: unknown). */
  constructor(expectedBytes = 0) {
    this.expectedBytes = expectedBytes;
    this.qid = new Int32Array(256);
    this.value = new Float64Array(256);
    this.offsets = new Int32Array(257);
    this.hashes = new Int32Array(256);
    this.pool = new Uint8Array(4096);
  }

  /** Room for `bytes` of whole lines: bytes / `shortestLine` rows (TREC's shortest is "q 0 d 1\n") and `bytes` of ids. */
  reserve(bytes: number, shortestLine = 8) {
    const before = this.bytesSeen;
    this.bytesSeen += bytes;
    const rows = this.count + Math.floor(bytes / shortestLine) + 1;
    const poolBytes = this.used + bytes;
    const rowCap =
      rows > this.qid.length ? this.capacity(rows, this.count, this.qid.length, before, 1024) : this.qid.length;
    const poolCap =
      poolBytes > this.pool.length
        ? this.capacity(poolBytes, this.used, this.pool.length, before, 65536)
        : this.pool.length;
    if (rowCap > this.qid.length || poolCap > this.pool.length) this.resize(rowCap, poolCap);
  }

  protected resize(rows: number, poolBytes: number) {
    if (rows > this.qid.length) {
      this.qid = grow(this.qid, rows, this.count);
      this.value = grow(this.value, rows, this.count);
      this.offsets = grow(this.offsets, rows + 1, this.count + 1);
      this.hashes = grow(this.hashes, rows, this.count);
    }
    if (poolBytes > this.pool.length) this.pool = grow(this.pool, poolBytes, this.used);
  }

  /** Past a sample of an input of known size, the sample scaled to the whole +5% (later ids may be longer), at least 1.25x; else doubled. Spare room is held a whole evaluation. */
  private capacity(needed: number, have: number, current: number, before: number, slack: number) {
    if (this.expectedBytes > before && before >= 1 << 16) {
      const estimate = Math.ceil((have * 1.05 * this.expectedBytes) / before) + slack;
      return Math.max(needed, estimate, Math.ceil(1.25 * current));
    }
    return Math.max(needed, 2 * current);
  }

  /** Row `row` comes from `line`: a new stretch. */
  newShift(row: number, line: number) {
    this.shift = line - row;
    const k = this.nShifts;
    if (k === this.lineRows.length) {
      this.lineRows = grow(this.lineRows, 2 * k, k);
      this.lineShifts = grow(this.lineShifts, 2 * k, k);
    }
    this.lineRows[k] = row;
    this.lineShifts[k] = this.shift;
    this.nShifts = k + 1;
  }

  add(qid: number, buf: Uint8Array, start: number, end: number, value: number, line: number) {
    const row = this.count;
    // A typed array drops writes past its end silently (MS MARCO runs lost rows so).
    if (row >= this.qid.length || this.used + (end - start) > this.pool.length)
      throw new Error(`RowsBuilder.add: row ${row} past the room reserve() made (a bug in the parser)`);
    if (line - row !== this.shift) this.newShift(row, line);
    const at = (this.used = copyBytes(this.pool, this.used, buf, start, end));
    this.qid[row] = qid;
    this.value[row] = value;
    this.offsets[row + 1] = at;
    this.hashes[row] = rowHash(buf, start, end);
    this.count = row + 1;
  }

  /** Hands over rows [0, k) as copies in one ArrayBuffer, which moves to another thread and may come back (`into`) for reuse: fresh pages fault on first write. */
  take(k: number, into?: ArrayBuffer): { qid: Int32Array; value: Float64Array; docids: RowDocids; lines: RowLines };
  take(
    k: number,
    into: ArrayBuffer | undefined,
    withQid: false,
  ): { qid: null; value: Float64Array; docids: RowDocids; lines: RowLines };
  take(
    k: number,
    into?: ArrayBuffer,
    withQid = true,
  ): { qid: Int32Array | null; value: Float64Array; docids: RowDocids; lines: RowLines } {
    const n = this.count;
    const cut = this.offsets[k];
    // The stretch holding row k stays, renumbered: row r becomes r - k with shift + k.
    let s = 1;
    while (s < this.nShifts && this.lineRows[s] <= k) s++;
    const q = withQid ? 4 * k : 0;
    const need = 8 * k + q + 4 * (k + 1) + 4 * k + cut + 8;
    // A tenth more: the next, slightly larger blocks fit when it comes back.
    const buf = into && into.byteLength >= need ? into : new ArrayBuffer(Math.ceil(need * 1.1));
    const value = new Float64Array(buf, 0, k);
    const qid = withQid ? new Int32Array(buf, 8 * k, k) : null;
    const offsets = new Int32Array(buf, 8 * k + q, k + 1);
    const hashes = new Int32Array(buf, 12 * k + q + 4, k);
    const bytes = new Uint8Array(buf, 16 * k + q + 4, cut);
    value.set(this.value.subarray(0, k));
    qid?.set(this.qid.subarray(0, k));
    offsets.set(this.offsets.subarray(0, k + 1));
    hashes.set(this.hashes.subarray(0, k));
    bytes.set(this.pool.subarray(0, cut));
    const block = {
      qid,
      value,
      docids: { bytes, offsets, hashes },
      lines: { rows: this.lineRows.slice(0, s), shifts: this.lineShifts.slice(0, s) },
    };
    this.qid.copyWithin(0, k, n);
    this.value.copyWithin(0, k, n);
    this.hashes.copyWithin(0, k, n);
    for (let i = k; i <= n; i++) this.offsets[i - k] = this.offsets[i] - cut;
    this.pool.copyWithin(0, cut, this.used);
    this.used -= cut;
    this.count = n - k;
    const kept = this.nShifts - (s - 1);
    this.lineRows.copyWithin(0, s - 1, this.nShifts);
    this.lineShifts.copyWithin(0, s - 1, this.nShifts);
    this.lineRows[0] = 0;
    for (let i = 1; i < kept; i++) this.lineRows[i] -= k;
    for (let i = 0; i < kept; i++) this.lineShifts[i] += k;
    this.nShifts = kept;
    this.shift += k;
    return block;
  }

  finish(): { qid: Int32Array; value: Float64Array; docids: RowDocids; lines: RowLines } {
    const n = this.count;
    const docids: RowDocids = {
      bytes: this.pool.subarray(0, this.used),
      offsets: this.offsets.subarray(0, n + 1),
      hashes: this.hashes.subarray(0, n),
    };
    const lines: RowLines = {
      rows: this.lineRows.slice(0, this.nShifts),
      shifts: this.lineShifts.slice(0, this.nShifts),
    };
    return { qid: this.qid.subarray(0, n), value: this.value.subarray(0, n), docids, lines };
  }
}

/** a[0, keep) copied into a new array of n entries. */
export function grow<T extends Int32Array | Float64Array | Uint8Array | BigInt64Array | BigUint64Array>(
  a: T,
  n: number,
  keep = a.length,
): T {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a.subarray(0, keep) as never);
  return b;
}

/** Returns the index after. */
export function copyBytes(pool: Uint8Array, at: number, buf: Uint8Array, start: number, end: number): number {
  // A loop beats set(subarray()) for short ids, and allocates nothing.
  if (end - start <= 64) for (let i = start; i < end; i++) pool[at++] = buf[i];
  else {
    pool.set(buf.subarray(start, end), at);
    at += end - start;
  }
  return at;
}

export function doubled(cap: number, need: number): number {
  while (cap < need) cap *= 2;
  return cap;
}

/** strcmp on ids a and b of a pool. */
export function compareIds(pool: { bytes: Uint8Array; offsets: Int32Array }, a: number, b: number): number {
  const { bytes, offsets } = pool;
  const offA = offsets[a];
  const offB = offsets[b];
  const lenA = offsets[a + 1] - offA;
  const lenB = offsets[b + 1] - offB;
  const n = lenA < lenB ? lenA : lenB;
  for (let i = 0; i < n; i++) {
    const d = bytes[offA + i] - bytes[offB + i];
    if (d !== 0) return d;
  }
  return lenA - lenB;
}

/** A per-row id pool with a DataView of its bytes. */
export interface Ids {
  readonly bytes: Uint8Array;
  readonly words: DataView;
  readonly offsets: Int32Array;
}

export function ids(docs: RowDocids): Ids {
  const { bytes, offsets } = docs;
  return { bytes, words: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offsets };
}

/** 4 bytes at a time; 4 to 12 as three overlapping words, no branch (byte by byte took a quarter of the join's time). */
export function sameBytes(x: Ids, a: number, y: Ids, b: number, len: number): boolean {
  const xw = x.words;
  const yw = y.words;
  if (len >= 4 && len <= 12) {
    const last = len - 4;
    const mid = last < 4 ? last : 4;
    const diff =
      (xw.getInt32(a, true) ^ yw.getInt32(b, true)) |
      (xw.getInt32(a + mid, true) ^ yw.getInt32(b + mid, true)) |
      (xw.getInt32(a + last, true) ^ yw.getInt32(b + last, true));
    return diff === 0;
  }
  if (len < 4) {
    for (let i = 0; i < len; i++) if (x.bytes[a + i] !== y.bytes[b + i]) return false;
    return true;
  }
  for (let i = 0; i < len - 4; i += 4) if (xw.getInt32(a + i, true) !== yw.getInt32(b + i, true)) return false;
  return xw.getInt32(a + len - 4, true) === yw.getInt32(b + len - 4, true);
}

/** Whether row i of x and row j of y have the same id. */
export function sameId(x: Ids, i: number, y: Ids, j: number): boolean {
  const a = x.offsets[i];
  const b = y.offsets[j];
  const len = x.offsets[i + 1] - a;
  return y.offsets[j + 1] - b === len && sameBytes(x, a, y, b, len);
}
