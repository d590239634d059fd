// The random stream of the resampling tests in plain TypeScript (BigInt), the same stream as the
// kernel's (assembly/significance.ts, where the definition is written out): SplitMix64, one sequence per
// iteration; sign flips from whole words, and exactly uniform bounded digits drawn in batches from
// 32-bit halves of the words.

const MASK = (1n << 64n) - 1n;
const G = 0x9e3779b97f4a7c15n;

function mix(z: bigint): bigint {
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return z ^ (z >> 31n);
}

/** The words of iteration b of a test seeded with `seed`. */
export class IterationStream {
  private state: bigint;

  constructor(seed: number, b: number) {
    this.state = mix((BigInt(seed) + BigInt(b + 1) * G) & MASK);
  }

  next(): bigint {
    this.state = (this.state + G) & MASK;
    return mix(this.state);
  }
}

/** The 32-bit halves of an iteration's words, the high half first. */
export class HalfStream {
  private readonly words: IterationStream;
  private spare: bigint | undefined;

  constructor(seed: number, b: number) {
    this.words = new IterationStream(seed, b);
  }

  next(): bigint {
    if (this.spare !== undefined) {
      const h = this.spare;
      this.spare = undefined;
      return h;
    }
    const w = this.words.next();
    this.spare = w & 0xffffffffn;
    return w >> 32n;
  }
}

export interface Batch {
  readonly first: number;
  readonly length: number;
  readonly product: bigint;
  readonly threshold: bigint;
}

const HALF = 1n << 32n;

/** Bounds grouped greedily into batches whose product stays below 2^32. */
export function planBatches(bounds: readonly number[]): Batch[] {
  const batches: Batch[] = [];
  for (let i = 0; i < bounds.length; ) {
    let p = 1n;
    let j = i;
    while (j < bounds.length && p * BigInt(bounds[j]) < HALF) p *= BigInt(bounds[j++]);
    batches.push({ first: i, length: j - i, product: p, threshold: (HALF - p) % p });
    i = j;
  }
  return batches;
}

/** Digits d_i uniform in [0, bounds[i]), batch by batch from `halves`. */
export function drawDigits(halves: HalfStream, bounds: readonly number[], batches: readonly Batch[]): number[] {
  const digits = new Array<number>(bounds.length);
  for (const { first, length, product, threshold } of batches) {
    let low = halves.next();
    while ((low * product) % HALF < threshold) low = halves.next();
    for (let i = first; i < first + length; i++) {
      const p = low * BigInt(bounds[i]);
      digits[i] = Number(p >> 32n);
      low = p % HALF;
    }
  }
  return digits;
}

/** The n sign flips of iteration b: flips[q] when bit q % 64 of word q / 64 is set. */
export function signFlips(seed: number, b: number, n: number): boolean[] {
  const stream = new IterationStream(seed, b);
  const flips: boolean[] = [];
  for (let w = 0; w < Math.ceil(n / 64); w++) {
    const word = stream.next();
    for (let k = 0; k < 64 && w * 64 + k < n; k++) flips.push(((word >> BigInt(k)) & 1n) === 1n);
  }
  return flips;
}
