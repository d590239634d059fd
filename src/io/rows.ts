/**
 * Document ids kept per row (the parsers' `docids: "per-row"` mode), and the line each row came from.
 *
 * Document ids only need comparing within a query (the run/judgment join, duplicate checks and
 * trec_eval's tie order are all per query), so in this mode a parser interns nothing: each row appends
 * its id's bytes to one pool in row order and records a 32-bit hash of them (FNV-1a, `hashBytes` in
 * _fnv.ts). A global table of ~10M ids costs a cache miss per lookup; appending costs none. The join
 * (src/trec-join.ts) then builds a small table per query. Query ids, which are few and come in runs,
 * are still interned.
 *
 * Browser compatible.
 */
import { Int32Column } from "./columns.js";

/** Row i's document id is bytes[offsets[i], offsets[i + 1]) (offsets has length + 1 entries). */
export interface RowDocids {
  readonly bytes: Uint8Array;
  readonly offsets: Int32Array;
  /** hashes[i] = hashBytes(bytes, offsets[i], offsets[i + 1]): FNV-1a, 32-bit, signed. */
  readonly hashes: Int32Array;
}

/**
 * The line each row came from, kept sparsely: rows and lines only drift apart at skipped lines
 * (blank, comment), so for rows[k] <= row < rows[k + 1], line = row + shifts[k]. rows[0] is 0.
 */
export interface RowLines {
  readonly rows: Int32Array;
  readonly shifts: Int32Array;
}

/** The 1-based line number of a row. */
export function lineOfRow(lines: RowLines, row: number): number {
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

/** The bytes of row i's document id (a view of the pool). */
export function docidBytes(docids: RowDocids, row: number): Uint8Array {
  return docids.bytes.subarray(docids.offsets[row], docids.offsets[row + 1]);
}

const utf8Decoder = new TextDecoder("utf-8");

/** Row i's document id decoded as UTF-8. */
export function docidString(docids: RowDocids, row: number): string {
  return utf8Decoder.decode(docidBytes(docids, row));
}

/** Builds the per-row columns as a parser appends rows. Internal to the parsers. */
export class RowDocidsBuilder {
  /**
   * The pool and its used length. A parser's fast path copies an id's bytes to pool[used, ...) as it
   * scans them, within what reserve() made room for, then calls pushCopied() with the new end.
   */
  pool: Uint8Array;
  used = 0;
  private readonly offsets = new Int32Column();
  private readonly hashes = new Int32Column();
  private readonly lineRows: number[] = [0];
  private readonly lineShifts: number[] = [1];
  private shift = 1;
  private rows = 0;

  /**
   * @param expectedBytes room for this many bytes of ids up front (an upper bound such as the input's
   * size is fine: pages never written are never touched). @default 65536
   */
  constructor(expectedBytes = 1 << 16) {
    this.pool = new Uint8Array(Math.max(64, expectedBytes));
    this.offsets.push(0);
  }

  /**
   * Makes sure `n` more bytes of ids fit without growing the pool, so add() need not check. The
   * parsers call it with the length of each range of lines they are given: a row's id lies inside its
   * line.
   */
  reserve(n: number): void {
    const need = this.used + n;
    if (need <= this.pool.length) return;
    let cap = this.pool.length * 2;
    while (cap < need) cap *= 2;
    const grown = new Uint8Array(cap);
    grown.set(this.pool.subarray(0, this.used));
    this.pool = grown;
  }

  /** Appends a row whose id the caller copied to pool[used, end), with its hash, from `line`. */
  pushCopied(end: number, hash: number, line: number): void {
    const row = this.rows++;
    if (line - row !== this.shift) {
      this.shift = line - row;
      this.lineRows.push(row);
      this.lineShifts.push(this.shift);
    }
    this.used = end;
    this.offsets.push(end);
    this.hashes.push(hash);
  }

  /** Appends the row whose id is buf[start, end), with hash = hashBytes(buf, start, end), from `line`. */
  add(buf: Uint8Array, start: number, end: number, hash: number, line: number): void {
    const pool = this.pool;
    let at = this.used;
    // A loop beats set(subarray()) for the short ids that dominate, and allocates nothing.
    if (end - start <= 64) for (let i = start; i < end; i++) pool[at++] = buf[i];
    else {
      pool.set(buf.subarray(start, end), at);
      at += end - start;
    }
    this.pushCopied(at, hash, line);
  }

  finish(): { docids: RowDocids; lines: RowLines } {
    const docids: RowDocids = {
      bytes: this.pool.subarray(0, this.used),
      offsets: this.offsets.finish(),
      hashes: this.hashes.finish(),
    };
    const lines: RowLines = { rows: Int32Array.from(this.lineRows), shifts: Int32Array.from(this.lineShifts) };
    return { docids, lines };
  }
}
