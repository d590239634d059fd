/**
 * Query ids come in runs of equal values (a file lists a query's rows together), so the parsers ask
 * this cache first: when a qid's bytes equal the previous row's, it returns the previous id without
 * hashing or probing the interner. While rows come from the same buffer, the comparison reads the
 * previous row's bytes there, which are still in cache; release() must be called before the buffer
 * may change (the parsers call it when they return from a buffer, which the caller may then reuse).
 */
import type { Interner } from "./interner.js";

export class LastId {
  private id = -1;
  private buf: Uint8Array | null = null;
  private start = 0;
  private end = 0;

  constructor(private readonly interner: Interner) {}

  /** Stops referring to the current buffer (the next get() compares with the interned bytes). */
  release(): void {
    this.buf = null;
  }

  /** The id of buf[start, end), interning it if needed. */
  get(buf: Uint8Array, start: number, end: number): number {
    const len = end - start;
    let same = false;
    if (buf === this.buf) {
      const prev = this.start;
      if (this.end - prev === len) {
        let i = 0;
        while (i < len && buf[prev + i] === buf[start + i]) i++;
        same = i === len;
      }
    } else if (this.id >= 0) {
      same = this.interner.equals(this.id, buf, start, end);
    }
    if (!same) this.id = this.interner.intern(buf, start, end);
    this.buf = buf;
    this.start = start;
    this.end = end;
    return this.id;
  }
}
