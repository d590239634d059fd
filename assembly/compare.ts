// Resampling for the significance tests of src/compare/: the sign flips of the paired randomization
// test, the resamples of the paired bootstrap and the per-query permutations of the randomised
// Tukey HSD. The host (src/kernel/compare.ts) lays every array out in linear memory and reads the
// results back; nothing here allocates. src/compare/reference.ts is the same in plain TypeScript,
// drawing the same random stream, and the tests hold the two to the same p-values.
//
// The random stream. Every iteration b (a sign vector, a resample, a set of permutations) draws
// from its own SplitMix64 sequence (Steele, Lea & Flood 2014), started at the b-th output of
// SplitMix64 seeded with the test's seed:
//   mix(z)  = z ^= z >> 30; z *= 0xBF58476D1CE4E5B9; z ^= z >> 27; z *= 0x94D049BB133111EB; z ^ (z >> 31)
//   start_b = mix(seed + (b + 1) * G),   word_{b,i} = mix(start_b + (i + 1) * G),   G = 0x9E3779B97F4A7C15
// so an iteration's draws do not depend on how the work is split or ordered.
//
// Bounded integers (Lemire 2019, batched as Brackett-Rozinsky & Lemire 2024), from 32-bit
// halves of the words (the high half first): uniform digits d_i in [0, k_i) for bounds k_0..k_{c-1}
// with P = prod k_i < 2^32 come from one half h: h * P = D * 2^32 + L, where D, read digit by digit
// (d_0 = hi(h k_0), then hi(lo k_1), ...), is the mixed-radix number of the digits; the half is
// redrawn while L = (h * P) mod 2^32 < (2^32 - P) mod P, which makes D exactly uniform on [0, P).
// Bounds are grouped greedily into such batches, in order.

const G: u64 = 0x9e3779b97f4a7c15;

// @ts-ignore: decorator
@inline function mix(z: u64): u64 {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

let state: u64 = 0;

// @ts-ignore: decorator
@inline function startIteration(seed: u64, b: i32): void {
  state = mix(seed + (<u64>b + 1) * G);
}

// @ts-ignore: decorator
@inline function nextWord(): u64 {
  state += G;
  return mix(state);
}

let spareHalf: u32 = 0;
let hasSpare = false;

// @ts-ignore: decorator
@inline function startHalves(seed: u64, b: i32): void {
  startIteration(seed, b);
  hasSpare = false;
}

// @ts-ignore: decorator
@inline function nextHalf(): u32 {
  if (hasSpare) {
    hasSpare = false;
    return spareHalf;
  }
  const w = nextWord();
  spareHalf = <u32>w;
  hasSpare = true;
  return <u32>(w >> 32);
}

/**
 * The batches of bounds for `count` digits: bounds[i] (u32) for i < count; writes, per batch, its
 * first digit index, its length, P and the rejection threshold (i32, i32, u32, u32) to `batches`,
 * 16 bytes each, and returns the number of batches.
 */
function planBatches(bounds: usize, count: i32, batches: usize): i32 {
  let nb = 0;
  let i = 0;
  while (i < count) {
    let p: u64 = 1;
    let j = i;
    while (j < count) {
      const k = <u64>load<u32>(bounds + (<usize>j << 2));
      if (p * k > 0xffffffff) break;
      p *= k;
      j++;
    }
    const at = batches + (<usize>nb << 4);
    store<i32>(at, i);
    store<i32>(at, j - i, 4);
    store<u32>(at, <u32>p, 8);
    store<u32>(at, <u32>((<u64>0x100000000 - p) % p), 12);
    nb++;
    i = j;
  }
  return nb;
}

/** The first half of a batch that passes its rejection test. */
// @ts-ignore: decorator
@inline function acceptedHalf(product: u32, threshold: u32): u32 {
  let h = nextHalf();
  while (h * product < threshold) h = nextHalf();
  return h;
}

/** Draws the digits of every batch into digits (u32 each), from the current iteration's halves. */
function drawDigits(bounds: usize, batches: usize, nb: i32, digits: usize): void {
  for (let t = 0; t < nb; t++) {
    const at = batches + (<usize>t << 4);
    const first = load<i32>(at);
    const end = first + load<i32>(at, 4);
    let low = acceptedHalf(load<u32>(at, 8), load<u32>(at, 12));
    for (let i = first; i < end; i++) {
      const product = <u64>low * <u64>load<u32>(bounds + (<usize>i << 2));
      store<u32>(digits + (<usize>i << 2), <u32>(product >> 32));
      low = <u32>product;
    }
  }
}

/**
 * Called by src/kernel/compare.ts for the randomization test: the column sums under B random sign
 * vectors. x: f64, rows padded to a multiple of 64 with zeros, `vectors` v128 (2 columns) a row,
 * vectors a multiple of 4; words: u64[B * ceil(rows / 64)], filled here; table: scratch of
 * TILE_BLOCKS * 256 * 64 bytes; out: v128[B * vectors]. Query q of iteration b is flipped when bit
 * q % 64 of word_{b, q / 64} is set, and out[b][c] = sum_q s_q x[q][c].
 *
 * Queries go in blocks of 8: a block's 256 subset sums per column are made once (a table), and each
 * iteration adds the table entry its byte of signs selects: one load and add per 8 queries instead
 * of 8. sum_q s_q x_q = total - 2 * (sum of the flipped x_q).
 */
export function randomizationSums(rows: i32, vectors: i32, x: usize, iterations: i32, seed: u64, words: usize, table: usize, out: usize): void {
  const wordsPerIteration = (rows + 63) >> 6;
  for (let b = 0; b < iterations; b++) {
    startIteration(seed, b);
    const w = words + ((<usize>b * <usize>wordsPerIteration) << 3);
    for (let i = 0; i < wordsPerIteration; i++) store<u64>(w + (<usize>i << 3), nextWord());
  }
  const blocks = (rows + 7) >> 3;
  const rowBytes = <usize>vectors << 4;
  for (let chunk = 0; chunk < vectors; chunk += 4) {
    const column = <usize>chunk << 4;
    for (let b = 0; b < iterations; b++) {
      const o = out + <usize>b * rowBytes + column;
      v128.store(o, f64x2.splat(0));
      v128.store(o, f64x2.splat(0), 16);
      v128.store(o, f64x2.splat(0), 32);
      v128.store(o, f64x2.splat(0), 48);
    }
    for (let tile = 0; tile < blocks; tile += TILE_BLOCKS) {
      const tileBlocks = min(TILE_BLOCKS, blocks - tile);
      // The subset sums of each block of the tile, over these 8 columns: entry e adds the row of
      // its lowest set bit to entry e & (e - 1).
      for (let k = 0; k < tileBlocks; k++) {
        const t = table + (<usize>k << 14);
        v128.store(t, f64x2.splat(0));
        v128.store(t, f64x2.splat(0), 16);
        v128.store(t, f64x2.splat(0), 32);
        v128.store(t, f64x2.splat(0), 48);
        const firstRow = x + <usize>((tile + k) << 3) * rowBytes + column;
        for (let e = 1; e < 256; e++) {
          const row = firstRow + <usize>ctz(e) * rowBytes;
          const from = t + (<usize>(e & (e - 1)) << 6);
          const to = t + (<usize>e << 6);
          v128.store(to, f64x2.add(v128.load(from), v128.load(row)));
          v128.store(to, f64x2.add(v128.load(from, 16), v128.load(row, 16)), 16);
          v128.store(to, f64x2.add(v128.load(from, 32), v128.load(row, 32)), 32);
          v128.store(to, f64x2.add(v128.load(from, 48), v128.load(row, 48)), 48);
        }
      }
      for (let b = 0; b < iterations; b++) {
        const o = out + <usize>b * rowBytes + column;
        let a0 = v128.load(o);
        let a1 = v128.load(o, 16);
        let a2 = v128.load(o, 32);
        let a3 = v128.load(o, 48);
        const w = words + ((<usize>b * <usize>wordsPerIteration + <usize>(tile >> 3)) << 3);
        for (let k = 0; k < tileBlocks; k++) {
          const byte = <usize>((load<u64>(w + (<usize>(k >> 3) << 3)) >> (<u64>(k & 7) << 3)) & 255);
          const e = table + (<usize>k << 14) + (byte << 6);
          a0 = f64x2.add(a0, v128.load(e));
          a1 = f64x2.add(a1, v128.load(e, 16));
          a2 = f64x2.add(a2, v128.load(e, 32));
          a3 = f64x2.add(a3, v128.load(e, 48));
        }
        v128.store(o, a0);
        v128.store(o, a1, 16);
        v128.store(o, a2, 32);
        v128.store(o, a3, 48);
      }
    }
    // total - 2 * flipped, the totals summed in query order.
    let t0 = f64x2.splat(0);
    let t1 = t0;
    let t2 = t0;
    let t3 = t0;
    for (let q = 0; q < rows; q++) {
      const row = x + <usize>q * rowBytes + column;
      t0 = f64x2.add(t0, v128.load(row));
      t1 = f64x2.add(t1, v128.load(row, 16));
      t2 = f64x2.add(t2, v128.load(row, 32));
      t3 = f64x2.add(t3, v128.load(row, 48));
    }
    const two = f64x2.splat(2);
    for (let b = 0; b < iterations; b++) {
      const o = out + <usize>b * rowBytes + column;
      v128.store(o, f64x2.sub(t0, f64x2.mul(two, v128.load(o))));
      v128.store(o, f64x2.sub(t1, f64x2.mul(two, v128.load(o, 16))), 16);
      v128.store(o, f64x2.sub(t2, f64x2.mul(two, v128.load(o, 32))), 32);
      v128.store(o, f64x2.sub(t3, f64x2.mul(two, v128.load(o, 48))), 48);
    }
  }
}

/** Blocks of 8 queries whose tables are made at once: 32 x 16 KiB, within a core's L2. */
export const TILE_BLOCKS: i32 = 32;

/**
 * Called by src/kernel/compare.ts for the paired bootstrap: the column sums of B resamples of the
 * rows with replacement. x: f64, `vectors` v128 a row; bounds, batches, digits: scratch of
 * rows * 4, rows * 16 and rows * 4 bytes; out: v128[B * vectors]. Resample b draws row indices
 * i_1..i_rows (bounds all `rows`, batched) and out[b][c] = sum_j x[i_j][c], added in draw order.
 */
export function bootstrapSums(rows: i32, vectors: i32, x: usize, iterations: i32, seed: u64, bounds: usize, batches: usize, digits: usize, out: usize): void {
  for (let i = 0; i < rows; i++) store<u32>(bounds + (<usize>i << 2), <u32>rows);
  const nb = planBatches(bounds, rows, batches);
  const rowBytes = <usize>vectors << 4;
  for (let b = 0; b < iterations; b++) {
    startHalves(seed, b);
    drawDigits(bounds, batches, nb, digits);
    const o = out + <usize>b * rowBytes;
    for (let v = 0; v < vectors; v++) v128.store(o + (<usize>v << 4), f64x2.splat(0));
    for (let j = 0; j < rows; j++) {
      const row = x + <usize>load<u32>(digits + (<usize>j << 2)) * rowBytes;
      for (let v = 0; v < vectors; v++) {
        const at = o + (<usize>v << 4);
        v128.store(at, f64x2.add(v128.load(at), v128.load(row + (<usize>v << 4))));
      }
    }
  }
}

/**
 * Called by src/kernel/compare.ts for the randomised Tukey HSD. x: f64, query-major: query q's
 * runs r = 0..runs-1, each `vectors` v128 (two measures a vector); acc: scratch of runs * vectors
 * v128; perm: scratch of max(runs, 16) bytes; bounds, batches, prefix: scratch of runs * 4, runs *
 * 16 and runs * 8 bytes; out: v128[B * vectors], the range (max - min over runs) of the run sums per measure.
 *
 * Iteration b shuffles each query's values among the runs by Fisher-Yates: for i = runs-1 down
 * to 1, j = a digit in [0, i], swap positions i and j; run i receives position i's value once it
 * is final. A query's digits are batches with bounds runs, runs-1, ..., 2 (one half-word for up
 * to 12 runs), each digit used as it is read; queries in order.
 */
export function tukeyRanges(rows: i32, runs: i32, vectors: i32, x: usize, iterations: i32, seed: u64, acc: usize, perm: usize, bounds: usize, batches: usize, prefix: usize, out: usize): void {
  // The loop body with the vector count known, so that its inner loop unrolls.
  if (vectors == 1) tukeyLoop(1, rows, runs, x, iterations, seed, acc, perm, bounds, batches, prefix, out);
  else if (vectors == 2) tukeyLoop(2, rows, runs, x, iterations, seed, acc, perm, bounds, batches, prefix, out);
  else if (vectors == 3) tukeyLoop(3, rows, runs, x, iterations, seed, acc, perm, bounds, batches, prefix, out);
  else if (vectors == 4) tukeyLoop(4, rows, runs, x, iterations, seed, acc, perm, bounds, batches, prefix, out);
  else tukeyLoop(vectors, rows, runs, x, iterations, seed, acc, perm, bounds, batches, prefix, out);
}

// @ts-ignore: decorator
@inline function addVectors(to: usize, from: usize, vectors: i32): void {
  for (let v = 0; v < vectors; v++) {
    const o = <usize>v << 4;
    v128.store(to + o, f64x2.add(v128.load(to + o), v128.load(from + o)));
  }
}

// @ts-ignore: decorator
@inline function tukeyLoop(vectors: i32, rows: i32, runs: i32, x: usize, iterations: i32, seed: u64, acc: usize, perm: usize, bounds: usize, batches: usize, prefix: usize, out: usize): void {
  const steps = runs - 1;
  for (let i = 0; i < steps; i++) store<u32>(bounds + (<usize>i << 2), <u32>(runs - i));
  const nb = planBatches(bounds, steps, batches);
  for (let t = 0; t < nb; t++) {
    const at = batches + (<usize>t << 4);
    let product: u64 = 1;
    for (let k = load<i32>(at); k < load<i32>(at) + load<i32>(at, 4); k++) {
      product *= <u64>load<u32>(bounds + (<usize>k << 2));
      store<u64>(prefix + (<usize>k << 3), product);
    }
  }
  const runBytes = <usize>vectors << 4;
  const rowBytes = <usize>runs * runBytes;
  const identity = i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  for (let b = 0; b < iterations; b++) {
    startHalves(seed, b);
    memory.fill(acc, 0, rowBytes);
    let row = x;
    for (let q = 0; q < rows; q++) {
      if (runs <= 16) v128.store(perm, identity);
      else for (let r = 0; r < runs; r++) store<u8>(perm + r, <u8>r);
      let i = steps;
      for (let t = 0; t < nb; t++) {
        const at = batches + (<usize>t << 4);
        const first = load<i32>(at);
        const length = load<i32>(at, 4);
        const h = <u64>acceptedHalf(load<u32>(at, 8), load<u32>(at, 12));
        // Digit k of the batch is A_k - bound_k A_{k-1}, A_k = (h * P_k) >> 32 with P_k the
        // product of the batch's first k+1 bounds (floor(b x) = b floor(x) + floor(b frac(x))):
        // the same digits as reading them one after another, without a chain of multiplications.
        let previous: u64 = 0;
        for (let k = 0; k < length; k++, i--) {
          const a = (h * load<u64>(prefix + (<usize>(first + k) << 3))) >> 32;
          const j = <usize>(a - <u64>(i + 1) * previous);
          previous = a;
          const p = load<u8>(perm + j);
          store<u8>(perm + j, load<u8>(perm + <usize>i));
          addVectors(acc + <usize>i * runBytes, row + <usize>p * runBytes, vectors);
        }
      }
      addVectors(acc, row + <usize>load<u8>(perm) * runBytes, vectors);
      row += rowBytes;
    }
    const o = out + <usize>b * runBytes;
    for (let v = 0; v < vectors; v++) {
      const lane = <usize>v << 4;
      let hi = v128.load(acc + lane);
      let lo = hi;
      for (let r = 1; r < runs; r++) {
        const s = v128.load(acc + <usize>r * runBytes + lane);
        hi = f64x2.pmax(hi, s);
        lo = f64x2.pmin(lo, s);
      }
      v128.store(o + lane, f64x2.sub(hi, lo));
    }
  }
}
