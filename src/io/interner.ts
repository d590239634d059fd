/**
 * Byte strings interned to ids 0, 1, 2, ... in order of first appearance, hashed (FNV-1a) from the parsers'
 * buffers with no JS string built; one pool holds the ids' bytes (the kernel's strcmp tie-break reads it).
 */
import { RankevalError, shown, usageError, type OptionType } from "../errors/errors.js";
import { compareIds, copyBytes, doubled, grow } from "./rows.js";

/** FNV-1a, 32-bit, as a signed integer. */
function hashBytes(buf: Uint8Array, start: number, end: number) {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], 16777619);
  return h;
}

/** A table entry is `tag | (id + 1)` (0: empty), the tag the hash's top bits: a probe rejects most ids unread. */
const ID_BITS = 27;
const ID_MASK = (1 << ID_BITS) - 1;
const TAG_MASK = ~ID_MASK;
/** The most ids (past what wasm32 memory holds). */
const MAX_IDS = ID_MASK - 1;

const utf8Decoder = new TextDecoder("utf-8");
const utf8Encoder = new TextEncoder();

export const DOCIDS: OptionType = {
  test: (v) => v === "per-row" || INTERNER.test(v),
  is: 'an Interner (new Interner() of rankeval/io) or "per-row"',
  required: true,
};

function byteRange(buf: unknown, start: unknown, end: unknown) {
  if (!(buf instanceof Uint8Array))
    return usageError(`Interner.intern(buf, start, end): buf must be a Uint8Array, not ${shown(buf)}`);
  return usageError(
    `Interner.intern(buf, start, end): [${shown(start)}, ${shown(end)}) is not a range of buf's ${buf.length} bytes (integers, 0 <= start <= end <= buf.length)`,
  );
}

/** An Interner by its methods, so one from another copy of this module (ESM, CJS) passes. */
export const INTERNER: OptionType = {
  test: (v) =>
    typeof v === "object" &&
    v !== null &&
    typeof (v as Interner).intern === "function" &&
    typeof (v as Interner).stringsOf === "function",
  is: "an Interner (new Interner() of rankeval/io)",
  required: true,
};

export class Interner {
  private bytes: Uint8Array;
  private bytesLen = 0;
  private offsets: Int32Array;
  /** Id i's hash: a rehash reads 4 bytes an id, in order, and hashes nothing. */
  private hashes: Int32Array;
  private count = 0;
  /** Linear probing, at most half full (at 3/4, lookups among 10M ids were 30% slower); 4 bytes a slot: cache misses cost most. */
  private table: Int32Array;
  private mask: number;
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: keeps internBatch's touching loads
  private sink = 0;

  /** Room made up front for `expectedIds` (@default 1024) ids of `expectedBytes` (@default 16 each). */
  constructor(expectedIds = 1024, expectedBytes = 16 * expectedIds) {
    // An Infinity would size the table forever.
    if (!(Number.isInteger(expectedIds) && expectedIds >= 0 && expectedIds <= MAX_IDS))
      throw usageError(`Interner: expectedIds must be an integer from 0 to ${MAX_IDS}, not ${shown(expectedIds)}`);
    if (!(Number.isInteger(expectedBytes) && expectedBytes >= 0 && expectedBytes <= 2 ** 31 - 1))
      throw usageError(`Interner: expectedBytes must be an integer from 0 to 2^31 - 1, not ${shown(expectedBytes)}`);
    let slots = 16;
    while (slots < 2 * expectedIds) slots *= 2;
    this.mask = slots - 1;
    this.table = new Int32Array(slots);
    this.offsets = new Int32Array(Math.max(16, expectedIds + 1));
    this.hashes = new Int32Array(this.offsets.length);
    this.bytes = new Uint8Array(Math.max(64, expectedBytes));
  }

  get size(): number {
    return this.count;
  }

  /** The id of buf[start, end), the next new one if never seen. */
  intern(buf: Uint8Array, start: number, end: number): number {
    return this.internHashed(buf, start, end, hashBytes(buf, start, end));
  }

  /** `intern` with hashBytes' `hash`. */
  internHashed(buf: Uint8Array, start: number, end: number, hash: number): number {
    // Past buf's end a typed array reads undefined (0).
    if (
      !(buf instanceof Uint8Array && start >= 0 && start <= end && end <= buf.length && Number.isInteger(start + end))
    )
      throw byteRange(buf, start, end);
    const table = this.table;
    const mask = this.mask;
    const tag = hash & TAG_MASK;
    let slot = hash & mask;
    for (;;) {
      const entry = table[slot];
      if (entry === 0) return this.insert(buf, start, end, hash, slot);
      if ((entry & TAG_MASK) === tag) {
        const id = (entry & ID_MASK) - 1;
        if (this.equals(id, buf, start, end)) return id;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** As n internHashed(buf, starts[i], ends[i], hashes[i]) into out. Past ~100k ids a probe is a cache miss the loop's branch can't overlap: first passes touch every slot and offset with independent loads (4x faster at 10M ids). */
  internBatch(buf: Uint8Array, starts: Int32Array, ends: Int32Array, hashes: Int32Array, n: number, out: Int32Array) {
    const table = this.table;
    const mask = this.mask;
    let touched = 0;
    for (let i = 0; i < n; i++) touched |= table[hashes[i] & mask];
    const offsets = this.offsets;
    for (let i = 0; i < n; i++) {
      const entry = table[hashes[i] & mask];
      if (entry !== 0) touched |= offsets[(entry & ID_MASK) - 1];
    }
    this.sink = touched;
    for (let i = 0; i < n; i++) out[i] = this.internHashed(buf, starts[i], ends[i], hashes[i]);
  }

  /** The ids of bytes[offsets[i], offsets[i + 1]), by internBatch blocks. */
  internAll(bytes: Uint8Array, offsets: Int32Array, n: number): Int32Array {
    const out = new Int32Array(n);
    const hashes = new Int32Array(256);
    for (let i = 0; i < n; i += 256) {
      const m = Math.min(256, n - i);
      const starts = offsets.subarray(i, i + m);
      const ends = offsets.subarray(i + 1, i + 1 + m);
      for (let k = 0; k < m; k++) hashes[k] = hashBytes(bytes, starts[k], ends[k]);
      this.internBatch(bytes, starts, ends, hashes, m, out.subarray(i, i + m));
    }
    return out;
  }

  /** Whether id's bytes equal buf[start, end). */
  equals(id: number, buf: Uint8Array, start: number, end: number): boolean {
    const off = this.offsets[id];
    const len = end - start;
    if (this.offsets[id + 1] - off !== len) return false;
    const pool = this.bytes;
    for (let i = 0; i < len; i++) if (pool[off + i] !== buf[start + i]) return false;
    return true;
  }

  /** Interns the UTF-8 encoding of s. */
  internString(s: string): number {
    if (typeof s !== "string") throw usageError(`Interner.internString(s): s must be a string, not ${shown(s)}`);
    const b = utf8Encoder.encode(s);
    return this.intern(b, 0, b.length);
  }

  /** A view of id's bytes in the pool (valid until it grows). */
  bytesOf(id: number): Uint8Array {
    this.checkId(id);
    return this.bytes.subarray(this.offsets[id], this.offsets[id + 1]);
  }

  /** id's bytes as UTF-8 (invalid sequences become U+FFFD). */
  stringOf(id: number): string {
    return utf8Decoder.decode(this.bytesOf(id));
  }

  /** stringOf of many ids, one decode if all ASCII: a decode costs ~1 µs in Chromium, 0.3 s of a 300,000-query join. */
  stringsOf(ids: readonly number[]): string[] {
    const offsets = this.offsets;
    const pool = this.bytes;
    let total = 0;
    for (const id of ids) {
      this.checkId(id);
      total += offsets[id + 1] - offsets[id];
    }
    const all = new Uint8Array(total);
    let at = 0;
    let bits = 0;
    for (const id of ids) {
      for (let i = offsets[id]; i < offsets[id + 1]; i++) {
        bits |= pool[i];
        all[at++] = pool[i];
      }
    }
    if (bits >= 0x80) return ids.map((id) => this.stringOf(id));
    const text = utf8Decoder.decode(all);
    const out = new Array<string>(ids.length);
    at = 0;
    for (let k = 0; k < ids.length; k++) {
      const len = offsets[ids[k] + 1] - offsets[ids[k]];
      out[k] = text.slice(at, at + len);
      at += len;
    }
    return out;
  }

  /** Id i is bytes[offsets[i], offsets[i + 1]); views valid until an intern adds an id. */
  pool(): { bytes: Uint8Array; offsets: Int32Array } {
    return {
      bytes: this.bytes.subarray(0, this.bytesLen),
      offsets: this.offsets.subarray(0, this.count + 1),
    };
  }

  /** strcmp of ids a and b: negative, 0 or positive. */
  compareBytes(a: number, b: number): number {
    this.checkId(a);
    this.checkId(b);
    return compareIds(this.pool(), a, b);
  }

  private checkId(id: number) {
    if (!(Number.isInteger(id) && id >= 0 && id < this.count)) {
      throw usageError(`Interner: id ${shown(id)} is not an id of this interner (0 to ${this.count - 1})`);
    }
  }

  private insert(buf: Uint8Array, start: number, end: number, hash: number, slot: number) {
    const len = end - start;
    const id = this.count;
    if (id >= MAX_IDS) throw new RankevalError("too-large", `more than ${MAX_IDS} distinct ids`);
    if (this.bytesLen + len > this.bytes.length)
      this.bytes = grow(this.bytes, doubled(2 * this.bytes.length, this.bytesLen + len), this.bytesLen);
    if (id + 2 > this.offsets.length) {
      this.offsets = grow(this.offsets, 2 * this.offsets.length);
      this.hashes = grow(this.hashes, this.offsets.length);
    }
    const at = (this.bytesLen = copyBytes(this.bytes, this.bytesLen, buf, start, end));
    this.offsets[id + 1] = at;
    this.hashes[id] = hash;
    this.count = id + 1;
    this.table[slot] = (hash & TAG_MASK) | (id + 1);
    if (2 * this.count > this.mask + 1) this.rehash();
    return id;
  }

  /** Room for about `ids` ids of `bytes` bytes: one rehash, sized for 90% of `ids` so a slightly high estimate doesn't double it (+256 MB at 30M ids). */
  reserve(ids: number, bytes: number) {
    if (ids + 1 > this.offsets.length) {
      this.offsets = grow(this.offsets, ids + 1, this.count + 1);
      this.hashes = grow(this.hashes, ids + 1, this.count);
    }
    if (bytes > this.bytes.length) this.bytes = grow(this.bytes, bytes, this.bytesLen);
    let slots = this.mask + 1;
    while (slots < 1.8 * ids) slots *= 2;
    if (slots > this.mask + 1) this.rehash(slots);
  }

  /** Grows the table (doubles by default), touching each block's slots first as internBatch. */
  private rehash(slots = 2 * (this.mask + 1)) {
    const mask = slots - 1;
    const table = new Int32Array(slots);
    const hashes = this.hashes;
    let touched = 0;
    for (let first = 0; first < this.count; first += 256) {
      const last = Math.min(first + 256, this.count);
      for (let id = first; id < last; id++) touched |= table[hashes[id] & mask];
      for (let id = first; id < last; id++) {
        const hash = hashes[id];
        let slot = hash & mask;
        while (table[slot] !== 0) slot = (slot + 1) & mask;
        table[slot] = (hash & TAG_MASK) | (id + 1);
      }
    }
    this.sink = touched;
    this.table = table;
    this.mask = mask;
  }
}
