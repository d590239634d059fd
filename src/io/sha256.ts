// SHA-256 (FIPS 180-4), fed chunk by chunk: the page hashes a File as it streams (crypto.subtle.digest needs it whole).

/** The first 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4, 4.2.2). */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** The initial hash value (FIPS 180-4, 5.3.3). */
const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** An incremental SHA-256: `update` with each chunk in order, then `hex` (once). */
export class Sha256 {
  private readonly h = new Uint32Array(H0);
  private readonly w = new Uint32Array(64);
  private readonly pending = new Uint8Array(64);
  private pendingBytes = 0;
  /** Bytes fed (exact up to 2^53). */
  private length = 0;
  private done = false;

  update(bytes: Uint8Array): this {
    if (this.done) throw new Error("Sha256: update after the digest");
    this.length += bytes.length;
    let at = 0;
    if (this.pendingBytes > 0) {
      const take = Math.min(64 - this.pendingBytes, bytes.length);
      this.pending.set(bytes.subarray(0, take), this.pendingBytes);
      this.pendingBytes += take;
      at = take;
      if (this.pendingBytes < 64) return this;
      this.block(this.pending, 0);
      this.pendingBytes = 0;
    }
    for (; at + 64 <= bytes.length; at += 64) this.block(bytes, at);
    this.pending.set(bytes.subarray(at));
    this.pendingBytes = bytes.length - at;
    return this;
  }

  digest(): Uint8Array {
    if (this.done) throw new Error("Sha256: digest taken already");
    // Padding (5.1.1): a 1 bit, zeros, then the length in bits as 64 bits big-endian.
    const bits = this.length * 8;
    const tail = new Uint8Array(this.pendingBytes < 56 ? 64 : 128);
    tail.set(this.pending.subarray(0, this.pendingBytes));
    tail[this.pendingBytes] = 0x80;
    const view = new DataView(tail.buffer);
    view.setUint32(tail.length - 8, Math.floor(bits / 2 ** 32));
    view.setUint32(tail.length - 4, bits >>> 0);
    for (let at = 0; at < tail.length; at += 64) this.block(tail, at);
    this.done = true;
    const out = new Uint8Array(32);
    const outView = new DataView(out.buffer);
    for (let i = 0; i < 8; i++) outView.setUint32(i * 4, this.h[i]);
    return out;
  }

  /** The digest in lowercase hexadecimal, as sha256sum prints it. */
  hex(): string {
    return Array.from(this.digest(), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  /** Compresses the 64 bytes at `at` into the hash (6.2.2). */
  private block(bytes: Uint8Array, at: number) {
    const w = this.w;
    for (let t = 0; t < 16; t++) {
      const i = at + t * 4;
      w[t] = (bytes[i] << 24) | (bytes[i + 1] << 16) | (bytes[i + 2] << 8) | bytes[i + 3];
    }
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15];
      const y = w[t - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
    }
    const h = this.h;
    let a = h[0];
    let b = h[1];
    let c = h[2];
    let d = h[3];
    let e = h[4];
    let f = h[5];
    let g = h[6];
    let k = h[7];
    for (let t = 0; t < 64; t++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (k + S1 + ch + K[t] + w[t]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += k;
  }
}
