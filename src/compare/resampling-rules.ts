// Shared by resampling.ts and the reference (test/_resampling-reference.ts).

/**
 * Statistics within 1e-9 of their absolute sum are equal: sums in another order differ in the last bits,
 * and a resample equal to the observed must count as "at least as extreme" (scipy: 100 ulp).
 */
export function tolerance(absoluteSum: number) {
  return 1e-9 * absoluteSum;
}

/** (1 + hits) / (1 + iterations): never 0, the test keeps its level (Phipson & Smyth 2010). */
export function monteCarloP(hits: number, iterations: number) {
  return (1 + hits) / (1 + iterations);
}

/** Over all 2^n sign vectors: p = #{|sum s_q d_q| >= |sum d_q| - tol} / 2^n, the identity counted (NaN sums too). */
export function randomizationExact(d: ArrayLike<number>, tol: number) {
  const n = d.length;
  let observed = 0;
  for (let q = 0; q < n; q++) observed += d[q];
  const threshold = Math.abs(observed) - tol;
  const flips = 2 ** n;
  let hits = 0;
  for (let mask = 0; mask < flips; mask++) {
    let t = 0;
    for (let q = 0; q < n; q++) t += (mask >> q) & 1 ? -d[q] : d[q];
    if (mask === 0 || Math.abs(t) >= threshold) hits++;
  }
  return hits / flips;
}
