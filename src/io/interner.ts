/**
 * Interning of byte strings (query ids, document ids) to dense integer ids 0, 1, 2, ... in order of
 * first appearance.
 *
 * The parsers hand us a range of their input buffer; we hash the bytes (FNV-1a) and probe an
 * open-addressing table, so no JS string is ever built for a lookup. The bytes of every id live in one
 * growable pool (`pool()`), which is later copied into WebAssembly memory so the kernel can break score
 * ties by comparing document ids byte-wise, as trec_eval does with strcmp.
 *
 * Browser compatible: no Node built-ins.
 *
 * @example
 * ```ts
 * const ids = new Interner();
 * const bytes = new TextEncoder().encode("d1 d2 d1");
 * ids.intern(bytes, 0, 2); // 0
 * ids.intern(bytes, 3, 5); // 1
 * ids.intern(bytes, 6, 8); // 0
 * ids.stringOf(1); // "d2"
 * ```
 */
import { RankevalError, shown, usageError, type OptionType } from "../errors/errors.js";

/** FNV-1a, 32-bit, over buf[start, end), as a signed integer: the hash the table is keyed with. */
function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ buf[i], 16777619);
  return h;
}

/**
 * A table entry is `tag | (id + 1)`, 0 for an empty slot: the low ID_BITS hold id + 1 and the top bits
 * a tag, the top bits of the id's hash (the slot comes from the low bits), so a probe rejects most
 * other ids without reading their bytes.
 */
const ID_BITS = 27;
const ID_MASK = (1 << ID_BITS) - 1;
const TAG_MASK = ~ID_MASK;
/** The most ids an interner holds (about 134 million, far beyond what wasm32 memory could hold). */
const MAX_IDS = ID_MASK - 1;

const utf8Decoder = new TextDecoder("utf-8");
const utf8Encoder = new TextEncoder();

/** Parsers' `docids`: an Interner (required), or "per-row". */
export const DOCIDS: OptionType = {
  test: (v) => v === "per-row" || INTERNER.test(v),
  is: 'an Interner (new Interner() of rankeval/io) or "per-row"',
  required: true,
};

/** The error of a byte range [start, end) that is not one of buf's. */
function byteRange(buf: unknown, start: unknown, end: unknown): RankevalError {
  if (!(buf instanceof Uint8Array))
    return usageError(`Interner.intern(buf, start, end): buf must be a Uint8Array, not ${shown(buf)}`);
  return usageError(
    `Interner.intern(buf, start, end): [${shown(start)}, ${shown(end)}) is not a range of buf's ${buf.length} bytes (integers, 0 <= start <= end <= buf.length)`,
  );
}

/**
 * An Interner as a parser's options take it (required): by its methods, not its class, so that one made
 * by another copy of this module (an ES module and a CommonJS require) is one too.
 */
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
  /** The bytes of all ids, back to back. */
  private bytes: Uint8Array;
  private bytesLen = 0;
  /** offsets[i] is where id i starts in `bytes`; offsets[size] is bytesLen. */
  private offsets: Int32Array;
  /** hashes[i] is the hash of id i, so a rehash reads 4 bytes an id, in order, and hashes nothing. */
  private hashes: Int32Array;
  private count = 0;
  /**
   * Open-addressing table with linear probing; its capacity is a power of two, kept at most half full
   * (at 3/4, lookups among 10M ids were 30% slower). Four bytes a slot, the hashes being kept in id
   * order in `hashes`, because memory is what large tables cost most: cache and TLB misses, and fresh
   * pages, which are slow to first touch on VMs.
   */
  private table: Int32Array;
  private mask: number;
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: written so that internBatch's first passes' loads are not optimized away
  private sink = 0;

  /**
   * @param expectedIds how many distinct ids to make room for up front. @default 1024
   * @param expectedBytes how many bytes of ids to make room for up front. @default 16 * expectedIds
   */
  constructor(expectedIds = 1024, expectedBytes = 16 * expectedIds) {
    // An Infinity would size the table forever; a negative or fractional size is a RangeError below.
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

  /** Number of distinct ids interned so far. */
  get size(): number {
    return this.count;
  }

  /** The id of buf[start, end), assigning the next id if these bytes were never seen. */
  intern(buf: Uint8Array, start: number, end: number): number {
    return this.internHashed(buf, start, end, hashBytes(buf, start, end));
  }

  /** Like `intern`, with `hash` already computed as `intern` does (FNV-1a, 32-bit, as a signed integer). */
  internHashed(buf: Uint8Array, start: number, end: number, hash: number): number {
    // Past buf's end a typed array reads undefined, as 0s: an id of bytes nobody gave.
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

  /**
   * Interns n byte strings at once: string i is buf[starts[i], ends[i]) with hash hashes[i] (as
   * `hashBytes` computes it); its id goes to out[i]. Same ids as n calls to internHashed, in order.
   *
   * Why a batch: past a few hundred thousand ids the table no longer fits in cache, and each probe is a
   * cache miss that the CPU cannot overlap with the next, because the probe loop branches on the loaded
   * value. Here first passes touch every string's slot, then the candidate id's offset, with independent
   * loads whose misses overlap; the real probes then find them in cache. (4x faster lookups at 10M ids.)
   */
  internBatch(
    buf: Uint8Array,
    starts: Int32Array,
    ends: Int32Array,
    hashes: Int32Array,
    n: number,
    out: Int32Array,
  ): void {
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

  /**
   * The ids of n byte strings, string i being bytes[offsets[i], offsets[i + 1]), in order: internBatch
   * a block at a time (the parsers' interned mode, from the per-row columns).
   */
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

  /** True when id's bytes equal buf[start, end) (a cheap check for "same id as the previous row"). */
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

  /** A view of id's bytes inside the pool (valid until the next intern that grows the pool). */
  bytesOf(id: number): Uint8Array {
    this.checkId(id);
    return this.bytes.subarray(this.offsets[id], this.offsets[id + 1]);
  }

  /** id's bytes decoded as UTF-8 (invalid sequences become U+FFFD). */
  stringOf(id: number): string {
    return utf8Decoder.decode(this.bytesOf(id));
  }

  /**
   * The strings of many ids, as stringOf gives them, in one decode when their bytes are all ASCII (a
   * byte is then a character, and each string a slice of the whole): in Chromium a decode call costs
   * about a microsecond, 0.3 s of the join of a run of 300,000 queries.
   */
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

  /**
   * The pool: id i's bytes are bytes[offsets[i], offsets[i + 1]); offsets has size + 1 entries.
   * Both are views of the interner's buffers, valid until the next intern that adds an id.
   */
  pool(): { bytes: Uint8Array; offsets: Int32Array } {
    return {
      bytes: this.bytes.subarray(0, this.bytesLen),
      offsets: this.offsets.subarray(0, this.count + 1),
    };
  }

  /** Compares the bytes of ids a and b like C's strcmp: negative, 0 or positive. */
  compareBytes(a: number, b: number): number {
    this.checkId(a);
    this.checkId(b);
    const pool = this.bytes;
    const offA = this.offsets[a];
    const offB = this.offsets[b];
    const lenA = this.offsets[a + 1] - offA;
    const lenB = this.offsets[b + 1] - offB;
    const n = lenA < lenB ? lenA : lenB;
    for (let i = 0; i < n; i++) {
      const d = pool[offA + i] - pool[offB + i];
      if (d !== 0) return d;
    }
    return lenA - lenB;
  }

  private checkId(id: number): void {
    if (!(Number.isInteger(id) && id >= 0 && id < this.count)) {
      throw usageError(`Interner: id ${shown(id)} is not an id of this interner (0 to ${this.count - 1})`);
    }
  }

  private insert(buf: Uint8Array, start: number, end: number, hash: number, slot: number): number {
    const len = end - start;
    const id = this.count;
    if (id >= MAX_IDS) throw new RankevalError("too-large", `more than ${MAX_IDS} distinct ids`);
    if (this.bytesLen + len > this.bytes.length) {
      let cap = this.bytes.length * 2;
      while (cap < this.bytesLen + len) cap *= 2;
      const grown = new Uint8Array(cap);
      grown.set(this.bytes.subarray(0, this.bytesLen));
      this.bytes = grown;
    }
    if (id + 2 > this.offsets.length) {
      const grown = new Int32Array(this.offsets.length * 2);
      grown.set(this.offsets);
      this.offsets = grown;
      const grownHashes = new Int32Array(grown.length);
      grownHashes.set(this.hashes);
      this.hashes = grownHashes;
    }
    const pool = this.bytes;
    let at = this.bytesLen;
    // A loop beats set(subarray()) for the short ids that dominate, and allocates nothing.
    if (len <= 64) for (let i = start; i < end; i++) pool[at++] = buf[i];
    else {
      pool.set(buf.subarray(start, end), at);
      at += len;
    }
    this.bytesLen = at;
    this.offsets[id + 1] = at;
    this.hashes[id] = hash;
    this.count = id + 1;
    this.table[slot] = (hash & TAG_MASK) | (id + 1);
    if (2 * this.count > this.mask + 1) this.rehash();
    return id;
  }

  /**
   * Makes room for about `ids` ids and `bytes` bytes of them in all, at once (a parser that estimates
   * them from a sample of its input): one rehash instead of one at each doubling, and no copies of the
   * pool on the way. The table is sized for 90% of `ids`: it doubles at powers of two, and an estimate
   * a little high would otherwise double it for nothing (+256 MB at 30M ids); past that, it doubles as
   * ever.
   */
  reserve(ids: number, bytes: number): void {
    if (ids + 1 > this.offsets.length) {
      const offsets = new Int32Array(ids + 1);
      offsets.set(this.offsets.subarray(0, this.count + 1));
      this.offsets = offsets;
      const hashes = new Int32Array(ids + 1);
      hashes.set(this.hashes.subarray(0, this.count));
      this.hashes = hashes;
    }
    if (bytes > this.bytes.length) {
      const grown = new Uint8Array(bytes);
      grown.set(this.bytes.subarray(0, this.bytesLen));
      this.bytes = grown;
    }
    let slots = this.mask + 1;
    while (slots < 1.8 * ids) slots *= 2;
    if (slots > this.mask + 1) this.rehash(slots);
  }

  /** Grows the table (doubles it by default). Ids go in by blocks, each block's slots touched first, as in internBatch. */
  private rehash(slots = 2 * (this.mask + 1)): void {
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
