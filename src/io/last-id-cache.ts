/**
 * The previous row's query id, cached (a file lists a query's rows together): equal bytes skip hashing and
 * probing. The previous bytes are read in the same buffer: release() before it may change.
 */
import type { Interner } from "./interner.js";

export class LastId {
  private id = -1;
  private buf: Uint8Array | null = null;
  private start = 0;
  private end = 0;

  constructor(private readonly interner: Interner) {}

  /** Forgets the buffer (the next get() compares with the interned bytes). */
  release() {
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
