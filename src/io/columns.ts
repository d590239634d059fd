/**
 * Growable typed-array columns in blocks, copied once into one array at finish(): doubling one array copies
 * each value log2(n) times and first-touches 4x the final size (~300 MB/s on a Firecracker VM, slower than parsing).
 */
/** Blocks start small (parsers often get a few lines), doubling to 128 KiB of float64, small enough for malloc to recycle. */
const FIRST_BLOCK = 256;
const MAX_BLOCK = 1 << 14;

type Typed = Int32Array | Float64Array;

abstract class Column<T extends Typed> {
  /** Full blocks and their entries' count. */
  private full: T[] = [];
  private fullLength = 0;
  /** The block being filled, and its entries used. */
  protected block: T;
  protected used = 0;

  constructor() {
    this.block = this.make(FIRST_BLOCK);
  }

  get length(): number {
    return this.fullLength + this.used;
  }

  /** The values as one typed array; the column is left empty. */
  finish(): T {
    const out = this.make(this.length);
    let at = 0;
    for (const b of this.full) {
      out.set(b, at);
      at += b.length;
    }
    out.set(this.block.subarray(0, this.used), at);
    this.full = [];
    this.fullLength = 0;
    this.block = this.make(FIRST_BLOCK);
    this.used = 0;
    return out;
  }

  protected next() {
    this.full.push(this.block);
    this.fullLength += this.block.length;
    this.block = this.make(Math.min(2 * this.block.length, MAX_BLOCK));
    this.used = 0;
  }

  protected abstract make(n: number): T;
}

export class Int32Column extends Column<Int32Array> {
  push(value: number) {
    if (this.used === this.block.length) this.next();
    this.block[this.used++] = value;
  }

  /** Appends src[0, n). */
  pushMany(src: Int32Array, n: number) {
    let i = 0;
    while (i < n) {
      if (this.used === this.block.length) this.next();
      const k = Math.min(n - i, this.block.length - this.used);
      this.block.set(src.subarray(i, i + k), this.used);
      this.used += k;
      i += k;
    }
  }

  protected make(n: number): Int32Array {
    return new Int32Array(n);
  }
}

export class Float64Column extends Column<Float64Array> {
  push(value: number) {
    if (this.used === this.block.length) this.next();
    this.block[this.used++] = value;
  }

  protected make(n: number): Float64Array {
    return new Float64Array(n);
  }
}
