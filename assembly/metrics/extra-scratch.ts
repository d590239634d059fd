// Scratch for the measures that need more than the ranking's prefix arrays (C/W/L, Compat, the
// diversity measures): laid out by index.ts configure() after the rest, sized by scratchBytes().
// Each measure may overwrite all of it: nothing here outlives one measure's computation.

/** f64[EXTRA_F64 (maxN + maxJ + 2)] each. */
export let extraA: usize = 0;
export let extraB: usize = 0;
/** i32[maxN + maxJ + 2] each. */
export let extraIdx: usize = 0;
export let extraIdx2: usize = 0;

/** Bytes of scratch for rankings of maxN documents and maxJ judgments. */
export function extraBytes(maxN: i32, maxJ: i32): usize {
  const m = <usize>maxN + <usize>maxJ + 2;
  return m * (8 * 2 + 4 * 2) + 32;
}

/** Lays the scratch out from p (8-aligned); returns the address after it. */
export function layExtra(p: usize, maxN: i32, maxJ: i32): usize {
  const m = <usize>maxN + <usize>maxJ + 2;
  p = (p + 7) & ~(<usize>7);
  extraA = p; p += m * 8;
  extraB = p; p += m * 8;
  extraIdx = p; p += m * 4;
  extraIdx2 = p; p += m * 4;
  return p;
}
