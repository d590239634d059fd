/** Document ids interned to dense integers, UTF-8 in one pool, as the kernel compares them for tie order. */
export class StringPool {
  private readonly ids = new Map<string, number>();
  private bytes = new Uint8Array(1 << 16);
  private offsets = new Int32Array(1 << 12);
  private used = 0;
  private readonly encoder = new TextEncoder();

  intern(s: string): number {
    let id = this.ids.get(s);
    if (id !== undefined) return id;
    id = this.ids.size;
    this.ids.set(s, id);
    if (this.used + s.length * 3 > this.bytes.length) this.bytes = grow(this.bytes, this.used + s.length * 3);
    this.used += this.encoder.encodeInto(s, this.bytes.subarray(this.used)).written;
    if (id + 2 > this.offsets.length) this.offsets = grow(this.offsets, id + 2);
    this.offsets[id + 1] = this.used;
    return id;
  }

  pool(): { bytes: Uint8Array; offsets: Int32Array } {
    return { bytes: this.bytes.subarray(0, this.used), offsets: this.offsets.subarray(0, this.ids.size + 1) };
  }
}

function grow<T extends Uint8Array | Int32Array>(a: T, need: number): T {
  const b = new (a.constructor as new (n: number) => T)(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}
