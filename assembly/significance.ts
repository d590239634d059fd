// Resampling for src/compare/'s tests; host: src/kernel/significance-kernel.ts; the same stream in plain
// TypeScript: test/_resampling-reference.ts.
// Iteration b draws from its own SplitMix64 sequence (Steele, Lea & Flood 2014):
//   mix(z)  = z ^= z >> 30; z *= 0xBF58476D1CE4E5B9; z ^= z >> 27; z *= 0x94D049BB133111EB; z ^ (z >> 31)
//   start_b = mix(seed + (b + 1) * G),   word_{b,i} = mix(start_b + (i + 1) * G),   G = 0x9E3779B97F4A7C15
// so draws do not depend on how iterations are split between calls (or threads).
// Bounded integers (Lemire 2019, batched as Brackett-Rozinsky & Lemire 2024) from 32-bit halves (high
// first): digits d_i in [0, k_i) with P = prod k_i < 2^32 come from one half h: h * P = D * 2^32 + L,
// D the digits' mixed-radix number (d_0 = hi(h k_0), then hi(lo k_1), ...); h is redrawn while
// L < (2^32 - P) mod P, so D is exactly uniform. Bounds are batched greedily, in order.

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

/** Batches of bounds[0..count) as 16 bytes (first digit, length, P, rejection threshold); returns how many. */
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

// @ts-ignore: decorator
@inline function acceptedHalf(product: u32, threshold: u32): u32 {
  let h = nextHalf();
  while (h * product < threshold) h = nextHalf();
  return h;
}

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
 * Randomization test: column sums under B sign vectors (q flipped when bit q % 64 of word_{b, q / 64} is
 * set). Each block of 8 queries' 256 subset sums is made once; an iteration adds the entry its byte of
 * signs selects: sum s_q x_q = total - 2 * (flipped sum).
 */
export function randomizationSums(rows: i32, vectors: i32, x: usize, iterations: i32, first: i32, seed: u64, words: usize, table: usize, out: usize): void {
  const wordsPerIteration = (rows + 63) >> 6;
  for (let b = 0; b < iterations; b++) {
    startIteration(seed, first + b);
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
      // Entry e adds the row of its lowest set bit to entry e & (e - 1).
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
        // Block k's signs are byte k of the tile's words (little-endian: bits 8k..8k+7).
        const w = words + ((<usize>b * <usize>wordsPerIteration + <usize>(tile >> 3)) << 3);
        let blockTable = table;
        for (let k = 0; k < tileBlocks; k++, blockTable += 1 << 14) {
          const e = blockTable + (<usize>load<u8>(w + <usize>k) << 6);
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
    // total - 2 * flipped, totals in query order.
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

/** Paired bootstrap: column sums of B resamples of the rows, added in draw order. */
export function bootstrapSums(rows: i32, vectors: i32, x: usize, iterations: i32, first: i32, seed: u64, bounds: usize, batches: usize, digits: usize, out: usize): void {
  for (let i = 0; i < rows; i++) store<u32>(bounds + (<usize>i << 2), <u32>rows);
  const nb = planBatches(bounds, rows, batches);
  const rowBytes = <usize>vectors << 4;
  for (let b = 0; b < iterations; b++) {
    startHalves(seed, first + b);
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
 * Randomised Tukey HSD: per iteration, the range of the run sums, each query's values shuffled among the
 * runs (run r gets perm[r]'s). Up to RIFFLE_MAX_RUNS runs, perm is one index in [0, runs!) as digits
 * (c, a, b), bounds C(runs, h), h!, (runs-h)!, h = runs / 2: perm[r] = AB[R_c[r]], R_c sending the c-th
 * h-subset (by bit mask) to 0..h-1 and the rest to h..runs-1, AB the a-th permutation of 0..h-1 then the
 * b-th of h..runs-1: a bijection, so uniform; three table loads and a swizzle. More runs: Fisher-Yates.
 */
export function tukeyRanges(rows: i32, runs: i32, vectors: i32, x: usize, iterations: i32, first: i32, seed: u64, acc: usize, perms: usize, bounds: usize, batches: usize, prefix: usize, tables: usize, out: usize): void {
  // A known vector count keeps the sums in registers.
  if (vectors == 1) tukeyLoop(1, rows, runs, x, iterations, first, seed, acc, perms, bounds, batches, prefix, tables, out);
  else if (vectors == 2) tukeyLoop(2, rows, runs, x, iterations, first, seed, acc, perms, bounds, batches, prefix, tables, out);
  else if (vectors == 3) tukeyLoop(3, rows, runs, x, iterations, first, seed, acc, perms, bounds, batches, prefix, tables, out);
  else if (vectors == 4) tukeyLoop(4, rows, runs, x, iterations, first, seed, acc, perms, bounds, batches, prefix, tables, out);
  else {
    // Four vectors at a time, the same permutations redrawn for each.
    for (let v = 0; v < vectors; v += 4) {
      tukeyLoop(min(4, vectors - v), rows, runs, x + (<usize>v << 4), iterations, first, seed, acc, perms, bounds, batches, prefix, tables, out + (<usize>v << 4), vectors);
    }
  }
}

/** runs! < 2^32: permutations from tables. */
export const RIFFLE_MAX_RUNS: i32 = 12;

function factorial(n: i32): i32 {
  let f = 1;
  for (let i = 2; i <= n; i++) f *= i;
  return f;
}

function choose(n: i32, k: i32): i32 {
  let c: i64 = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return <i32>c;
}

export function tukeyTableBytes(runs: i32): i32 {
  if (runs > RIFFLE_MAX_RUNS) return 16;
  const half = runs >> 1;
  return (choose(runs, half) + factorial(half) + factorial(runs - half)) << 4;
}

function buildRiffleTables(runs: i32, tables: usize): void {
  const half = runs >> 1;
  let at = tables;
  for (let mask = 0; mask < 1 << runs; mask++) {
    if (popcnt(mask) != half) continue;
    let inside = 0;
    let outside = half;
    for (let r = 0; r < 16; r++) {
      let v = 0;
      if (r < runs) v = (mask >> r) & 1 ? inside++ : outside++;
      store<u8>(at + r, <u8>v);
    }
    at += 16;
  }
  at = writePermutations(half, 0, at);
  writePermutations(runs - half, half, at);
}

/** Every permutation of lanes offset..offset+n-1 in lexicographic order; returns the end. */
function writePermutations(n: i32, offset: i32, at: usize): usize {
  for (let i = 0; i < 16; i++) store<u8>(at + i, <u8>(i >= offset && i < offset + n ? i : 0));
  for (;;) {
    const cur = at + <usize>offset;
    at += 16;
    // next_permutation over lanes offset..offset+n-1.
    let i = n - 2;
    while (i >= 0 && load<u8>(cur + i) >= load<u8>(cur + i + 1)) i--;
    if (i < 0) return at;
    memory.copy(at, at - 16, 16);
    const next = at + <usize>offset;
    let j = n - 1;
    while (load<u8>(next + j) <= load<u8>(next + i)) j--;
    const t = load<u8>(next + i);
    store<u8>(next + i, load<u8>(next + j));
    store<u8>(next + j, t);
    for (let l = i + 1, r = n - 1; l < r; l++, r--) {
      const u = load<u8>(next + l);
      store<u8>(next + l, load<u8>(next + r));
      store<u8>(next + r, u);
    }
  }
  return at; // unreachable
}

/** Queries permuted before they are added. */
export const TUKEY_CHUNK: i32 = 32;

/** The runs, in whole v128. */
export function permBytes(runs: i32): i32 {
  return (runs + 15) & ~15;
}

// @ts-ignore: decorator
@inline function tukeyLoop(vectors: i32, rows: i32, runs: i32, x: usize, iterations: i32, first: i32, seed: u64, acc: usize, perms: usize, bounds: usize, batches: usize, prefix: usize, tables: usize, out: usize, stride: i32 = vectors): void {
  const steps = runs - 1;
  const riffle = runs <= RIFFLE_MAX_RUNS;
  const half = runs >> 1;
  const subsets = choose(runs, half);
  const firstPerms = tables + (<usize>subsets << 4);
  const secondPerms = firstPerms + (<usize>factorial(half) << 4);
  if (riffle) {
    buildRiffleTables(runs, tables);
    store<u32>(bounds, <u32>subsets);
    store<u32>(bounds, <u32>factorial(half), 4);
    store<u32>(bounds, <u32>factorial(runs - half), 8);
  } else {
    for (let i = 0; i < steps; i++) store<u32>(bounds + (<usize>i << 2), <u32>(runs - i));
  }
  const nb = planBatches(bounds, riffle ? 3 : steps, batches);
  for (let t = 0; t < nb; t++) {
    const at = batches + (<usize>t << 4);
    let product: u64 = 1;
    for (let k = load<i32>(at); k < load<i32>(at) + load<i32>(at, 4); k++) {
      product *= <u64>load<u32>(bounds + (<usize>k << 2));
      store<u64>(prefix + (<usize>k << 3), product);
    }
  }
  const runBytes = <usize>stride << 4;
  const rowBytes = <usize>runs * runBytes;
  const slot = <usize>permBytes(runs);
  const identity = i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const step = i8x16.splat(16);
  for (let b = 0; b < iterations; b++) {
    startHalves(seed, first + b);
    for (let r = 0; r < runs; r++) {
      for (let v = 0; v < vectors; v++) v128.store(acc + <usize>r * runBytes + (<usize>v << 4), f64x2.splat(0));
    }
    for (let q0 = 0; q0 < rows; q0 += TUKEY_CHUNK) {
      const chunk = min(TUKEY_CHUNK, rows - q0);
      if (riffle) {
        const b0 = <u64>load<u32>(bounds, 4);
        const b1 = <u64>load<u32>(bounds, 8);
        const p0 = load<u64>(prefix);
        const p1 = load<u64>(prefix, 8);
        const p2 = load<u64>(prefix, 16);
        const product = load<u32>(batches, 8);
        const threshold = load<u32>(batches, 12);
        for (let c = 0; c < chunk; c++) {
          const h = <u64>acceptedHalf(product, threshold);
          const a0 = (h * p0) >> 32;
          const a1 = (h * p1) >> 32;
          const a2 = (h * p2) >> 32;
          const ab = v128.or(v128.load(firstPerms + (<usize>(a1 - b0 * a0) << 4)), v128.load(secondPerms + (<usize>(a2 - b1 * a1) << 4)));
          v128.store(perms + (<usize>c << 4), i8x16.swizzle(ab, v128.load(tables + (<usize>a0 << 4))));
        }
      } else for (let c = 0; c < chunk; c++) {
        const perm = perms + <usize>c * slot;
        let ids = identity;
        for (let o: usize = 0; o < slot; o += 16) {
          v128.store(perm + o, ids);
          ids = i8x16.add(ids, step);
        }
        let i = steps;
        for (let t = 0; t < nb; t++) {
          const at = batches + (<usize>t << 4);
          const first = load<i32>(at);
          const length = load<i32>(at, 4);
          const h = <u64>acceptedHalf(load<u32>(at, 8), load<u32>(at, 12));
          // Digit k = A_k - bound_k A_{k-1}, A_k = (h * P_k) >> 32, P_k the first k+1 bounds' product:
          // no chain of multiplications.
          let previous: u64 = 0;
          for (let k = 0; k < length; k++, i--) {
            const a = (h * load<u64>(prefix + (<usize>(first + k) << 3))) >> 32;
            const j = <usize>(a - <u64>(i + 1) * previous);
            previous = a;
            const p = load<u8>(perm + j);
            store<u8>(perm + j, load<u8>(perm + <usize>i));
            store<u8>(perm + <usize>i, p);
          }
        }
      }
      // Two runs at a time: independent chains.
      const rows0 = x + <usize>q0 * rowBytes;
      let r = 0;
      for (; r + 1 < runs; r += 2) {
        const a = acc + <usize>r * runBytes;
        const a2 = a + runBytes;
        let s0 = v128.load(a);
        let s1 = vectors > 1 ? v128.load(a, 16) : s0;
        let s2 = vectors > 2 ? v128.load(a, 32) : s0;
        let s3 = vectors > 3 ? v128.load(a, 48) : s0;
        let t0 = v128.load(a2);
        let t1 = vectors > 1 ? v128.load(a2, 16) : t0;
        let t2 = vectors > 2 ? v128.load(a2, 32) : t0;
        let t3 = vectors > 3 ? v128.load(a2, 48) : t0;
        let row = rows0;
        let perm = perms + <usize>r;
        for (let c = 0; c < chunk; c++) {
          const from = row + <usize>load<u8>(perm) * runBytes;
          const from2 = row + <usize>load<u8>(perm, 1) * runBytes;
          s0 = f64x2.add(s0, v128.load(from));
          t0 = f64x2.add(t0, v128.load(from2));
          if (vectors > 1) {
            s1 = f64x2.add(s1, v128.load(from, 16));
            t1 = f64x2.add(t1, v128.load(from2, 16));
          }
          if (vectors > 2) {
            s2 = f64x2.add(s2, v128.load(from, 32));
            t2 = f64x2.add(t2, v128.load(from2, 32));
          }
          if (vectors > 3) {
            s3 = f64x2.add(s3, v128.load(from, 48));
            t3 = f64x2.add(t3, v128.load(from2, 48));
          }
          row += rowBytes;
          perm += slot;
        }
        v128.store(a, s0);
        v128.store(a2, t0);
        if (vectors > 1) {
          v128.store(a, s1, 16);
          v128.store(a2, t1, 16);
        }
        if (vectors > 2) {
          v128.store(a, s2, 32);
          v128.store(a2, t2, 32);
        }
        if (vectors > 3) {
          v128.store(a, s3, 48);
          v128.store(a2, t3, 48);
        }
      }
      if (r < runs) {
        const a = acc + <usize>r * runBytes;
        let s0 = v128.load(a);
        let s1 = vectors > 1 ? v128.load(a, 16) : s0;
        let s2 = vectors > 2 ? v128.load(a, 32) : s0;
        let s3 = vectors > 3 ? v128.load(a, 48) : s0;
        let row = rows0;
        let perm = perms + <usize>r;
        for (let c = 0; c < chunk; c++) {
          const from = row + <usize>load<u8>(perm) * runBytes;
          s0 = f64x2.add(s0, v128.load(from));
          if (vectors > 1) s1 = f64x2.add(s1, v128.load(from, 16));
          if (vectors > 2) s2 = f64x2.add(s2, v128.load(from, 32));
          if (vectors > 3) s3 = f64x2.add(s3, v128.load(from, 48));
          row += rowBytes;
          perm += slot;
        }
        v128.store(a, s0);
        if (vectors > 1) v128.store(a, s1, 16);
        if (vectors > 2) v128.store(a, s2, 32);
        if (vectors > 3) v128.store(a, s3, 48);
      }
    }
    const o = out + <usize>b * (<usize>stride << 4);
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
