// Host side of assembly/significance.ts. Each function computes iterations first.., so threads may split them.
import { RankevalError } from "../errors/errors.js";
import { constant, KernelMemory } from "./module.js";

/** A memory grown past this is dropped after the call. */
const RETAIN_BYTES = 256 * 1024 ** 2;

let retained: KernelMemory | undefined;

const ARENA_USE = {
  what: "this comparison's resampling",
  advice: "use fewer iterations, or compare fewer runs or measures at once",
};

/** Runs `work` on a kernel from its heap base (16-aligned for v128), kept if small. */
function withArena<T>(work: (arena: KernelMemory) => T): T {
  const arena = retained ?? new KernelMemory(undefined, 16, ARENA_USE);
  retained = undefined;
  arena.reset(arena.exports.heapBase());
  try {
    return work(arena);
  } finally {
    if (arena.memory.buffer.byteLength <= RETAIN_BYTES) retained = arena;
  }
}

function seedBits(seed: number): bigint {
  return BigInt.asUintN(64, BigInt(seed));
}

/** Lays `columns` out row-major, two a v128, rows padded to `rowMultiple`, vectors a row a multiple of `vectorMultiple`. */
function layColumns(
  arena: KernelMemory,
  columns: readonly ArrayLike<number>[],
  rows: number,
  rowMultiple: number,
  vectorMultiple: number,
) {
  const vectors = Math.max(vectorMultiple, Math.ceil(Math.ceil(columns.length / 2) / vectorMultiple) * vectorMultiple);
  const paddedRows = Math.ceil(rows / rowMultiple) * rowMultiple;
  const width = vectors * 2;
  const x = arena.alloc(paddedRows * width * 8);
  const view = arena.f64(x, paddedRows * width);
  view.fill(0);
  columns.forEach((column, c) => {
    for (let q = 0; q < rows; q++) view[q * width + c] = column[q];
  });
  return { x, vectors, width };
}

function readColumns(arena: KernelMemory, out: number, iterations: number, width: number, n: number): Float64Array[] {
  const view = arena.f64(out, iterations * width);
  return Array.from({ length: n }, (_, c) => {
    const column = new Float64Array(iterations);
    for (let b = 0; b < iterations; b++) column[b] = view[b * width + c];
    return column;
  });
}

/** One Float64Array of `iterations` sums per column. */
type Sums = (
  columns: readonly ArrayLike<number>[],
  rows: number,
  iterations: number,
  seed: number,
  first?: number,
) => Float64Array[];

function resampledSums(randomization: boolean): Sums {
  return (columns, rows, iterations, seed, first = 0) =>
    withArena((arena) => {
      const { x, vectors, width } = layColumns(arena, columns, rows, randomization ? 64 : 1, randomization ? 4 : 1);
      let out: number;
      if (randomization) {
        const words = arena.alloc(iterations * Math.ceil(rows / 64) * 8);
        const table = arena.alloc(constant(arena.instance, "TILE_BLOCKS") * 256 * 64);
        out = arena.alloc(iterations * vectors * 16);
        arena.exports.randomizationSums(rows, vectors, x, iterations, first, seedBits(seed), words, table, out);
      } else {
        const bounds = arena.alloc(rows * 4);
        const batches = arena.alloc(rows * 16);
        const digits = arena.alloc(rows * 4);
        out = arena.alloc(iterations * vectors * 16);
        arena.exports.bootstrapSums(rows, vectors, x, iterations, first, seedBits(seed), bounds, batches, digits, out);
      }
      return readColumns(arena, out, iterations, width, columns.length);
    });
}

/** Each column's sum_q s_q x_q under each iteration's sign vector. */
export const kernelRandomizationSums = resampledSums(true);

/** Each column's sum over each resample of the rows (the same rows for every column). */
export const kernelBootstrapSums = resampledSums(false);

/** Randomised Tukey HSD: per measure (values[s][r]: run r), the range of run sums under each iteration's per-query permutations. */
export function kernelTukeyRanges(
  values: readonly (readonly ArrayLike<number>[])[],
  rows: number,
  iterations: number,
  seed: number,
  first = 0,
): Float64Array[] {
  const runs = values[0].length;
  if (runs < 2 || runs > 255)
    throw new RankevalError("bad-option", `the randomised Tukey HSD compares from 2 to 255 runs, not ${runs}`);
  return withArena((arena) => {
    const measures = values.length;
    const vectors = Math.ceil(measures / 2);
    const width = vectors * 2;
    const x = arena.alloc(rows * runs * width * 8);
    const view = arena.f64(x, rows * runs * width);
    view.fill(0);
    for (let s = 0; s < measures; s++) {
      for (let r = 0; r < runs; r++) {
        const column = values[s][r];
        for (let q = 0; q < rows; q++) view[(q * runs + r) * width + s] = column[q];
      }
    }
    const acc = arena.alloc(runs * vectors * 16);
    const perm = arena.alloc(constant(arena.instance, "TUKEY_CHUNK") * arena.exports.permBytes(runs));
    const bounds = arena.alloc(Math.max(runs, 3) * 4);
    const batches = arena.alloc(Math.max(runs, 3) * 16);
    const prefix = arena.alloc(Math.max(runs, 3) * 8);
    const tables = arena.alloc(arena.exports.tukeyTableBytes(runs));
    const out = arena.alloc(iterations * vectors * 16);
    arena.exports.tukeyRanges(
      rows,
      runs,
      vectors,
      x,
      iterations,
      first,
      seedBits(seed),
      acc,
      perm,
      bounds,
      batches,
      prefix,
      tables,
      out,
    );
    return readColumns(arena, out, iterations, width, measures);
  });
}
