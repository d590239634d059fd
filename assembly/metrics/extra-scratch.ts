// Compat's scratch (metrics/compat.ts), laid out after the rest by configure().

/** f64[maxN + maxJ + 2] each. */
export let extraA: usize = 0;
export let extraB: usize = 0;
/** i32[maxN + maxJ + 2] each. */
export let extraIdx: usize = 0;
export let extraIdx2: usize = 0;

export function extraBytes(maxN: i32, maxJ: i32): f64 {
  const m = <f64>maxN + <f64>maxJ + 2;
  return m * (8 * 2 + 4 * 2) + 32;
}

export function layExtra(p: usize, maxN: i32, maxJ: i32): usize {
  const m = <usize>maxN + <usize>maxJ + 2;
  p = (p + 7) & ~(<usize>7);
  extraA = p; p += m * 8;
  extraB = p; p += m * 8;
  extraIdx = p; p += m * 4;
  extraIdx2 = p; p += m * 4;
  return p;
}
