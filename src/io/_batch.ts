/**
 * Document ids waiting to be interned: the parsers queue each row's docid field (its range in the
 * current buffer and its hash, computed while finding the field's end) and intern a batch at a time
 * with Interner.internBatch, which overlaps the hash table's cache misses. The parsers flush in
 * linesDone(), while the buffer the queued ranges point into is still valid.
 */
import type { Int32Column } from "./columns.js";
import type { Interner } from "./interner.js";

const CAPACITY = 256;

export class IdBatch {
  private readonly starts = new Int32Array(CAPACITY);
  private readonly ends = new Int32Array(CAPACITY);
  private readonly hashes = new Int32Array(CAPACITY);
  private readonly ids = new Int32Array(CAPACITY);
  private n = 0;

  constructor(
    private readonly interner: Interner,
    private readonly out: Int32Column,
  ) {}

  /** Queues buf[start, end) (hash = hashBytes of it), flushing first if the batch is full. */
  add(buf: Uint8Array, start: number, end: number, hash: number): void {
    if (this.n === CAPACITY) this.flush(buf);
    const i = this.n++;
    this.starts[i] = start;
    this.ends[i] = end;
    this.hashes[i] = hash;
  }

  /** Interns the queued ids (all pointing into buf) and appends them to the output column. */
  flush(buf: Uint8Array): void {
    if (this.n === 0) return;
    this.interner.internBatch(buf, this.starts, this.ends, this.hashes, this.n, this.ids);
    this.out.pushMany(this.ids, this.n);
    this.n = 0;
  }
}
