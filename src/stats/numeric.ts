// Sums and moments as NumPy computes them: statistics equal scipy's to the last bit.

/** NumPy's pairwise_sum of float64 (numpy/_core/src/umath/loops_utils.h.src). */
export function pairwiseSum(a: ArrayLike<number>, start = 0, n = a.length - start): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += a[start + i];
    return res;
  }
  if (n <= 128) {
    const r = [
      a[start],
      a[start + 1],
      a[start + 2],
      a[start + 3],
      a[start + 4],
      a[start + 5],
      a[start + 6],
      a[start + 7],
    ];
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (let j = 0; j < 8; j++) r[j] += a[start + i + j];
    }
    let res = r[0] + r[1] + (r[2] + r[3]) + (r[4] + r[5] + (r[6] + r[7]));
    for (; i < n; i++) res += a[start + i];
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseSum(a, start, n2) + pairwiseSum(a, start + n2, n - n2);
}

/** numpy.mean. */
export function npMean(a: ArrayLike<number>) {
  return pairwiseSum(a) / a.length;
}

/** Variance with ddof = 1 as scipy's `_var`: mean squared deviation times n / (n - 1). NaN for n < 2. */
export function npVarDdof1(a: ArrayLike<number>, mean = npMean(a)) {
  const n = a.length;
  if (n < 2) return NaN;
  if (squares.length < n) squares = new Float64Array(Math.max(n, 2 * squares.length));
  const sq = squares;
  for (let i = 0; i < n; i++) {
    const z = a[i] - mean;
    sq[i] = z * z;
  }
  return (pairwiseSum(sq, 0, n) / n) * (n / (n - 1));
}

let squares = new Float64Array(1024);

/** numpy's default "linear" quantile: position (length - 1) q. */
export function quantileSorted(sorted: ArrayLike<number>, q: number) {
  const n = sorted.length;
  if (n === 0) return NaN;
  const position = (n - 1) * q;
  const lo = Math.floor(position);
  const hi = Math.min(n - 1, lo + 1);
  const fraction = position - lo;
  return sorted[lo] + (sorted[hi] - sorted[lo]) * fraction;
}
