// (score f64, row i32) pairs by DESCENDING score, then row: all distinct, so Lomuto never goes
// quadratic. -0 and +0 tie, as in trec_eval; no NaN comes.

// @ts-ignore: decorator
@inline function before(sa: f64, ia: i32, sb: f64, ib: i32): i32 {
  return <i32>(sa > sb) | (<i32>(sa == sb) & <i32>(ia < ib));
}

// @ts-ignore: decorator
@inline function swap(keys: usize, idx: usize, a: i32, b: i32): void {
  const ka = load<f64>(keys + (<usize>a << 3));
  const ia = load<i32>(idx + (<usize>a << 2));
  store<f64>(keys + (<usize>a << 3), load<f64>(keys + (<usize>b << 3)));
  store<i32>(idx + (<usize>a << 2), load<i32>(idx + (<usize>b << 2)));
  store<f64>(keys + (<usize>b << 3), ka);
  store<i32>(idx + (<usize>b << 2), ia);
}

function insertionSort(keys: usize, idx: usize, lo: i32, hi: i32): void {
  for (let i = lo + 1; i <= hi; i++) {
    const k = load<f64>(keys + (<usize>i << 3));
    const v = load<i32>(idx + (<usize>i << 2));
    let j = i - 1;
    while (j >= lo) {
      const kj = load<f64>(keys + (<usize>j << 3));
      const vj = load<i32>(idx + (<usize>j << 2));
      if (!before(k, v, kj, vj)) break;
      store<f64>(keys + (<usize>(j + 1) << 3), kj);
      store<i32>(idx + (<usize>(j + 1) << 2), vj);
      j--;
    }
    store<f64>(keys + (<usize>(j + 1) << 3), k);
    store<i32>(idx + (<usize>(j + 1) << 2), v);
  }
}

/** Branchless: score comparisons are unpredictable, swaps cheap. */
function quickSort(keys: usize, idx: usize, lo: i32, hi: i32): void {
  while (hi - lo > 24) {
    const mid = lo + ((hi - lo) >> 1);
    if (before(load<f64>(keys + (<usize>mid << 3)), load<i32>(idx + (<usize>mid << 2)), load<f64>(keys + (<usize>lo << 3)), load<i32>(idx + (<usize>lo << 2)))) swap(keys, idx, mid, lo);
    if (before(load<f64>(keys + (<usize>hi << 3)), load<i32>(idx + (<usize>hi << 2)), load<f64>(keys + (<usize>lo << 3)), load<i32>(idx + (<usize>lo << 2)))) swap(keys, idx, hi, lo);
    if (before(load<f64>(keys + (<usize>mid << 3)), load<i32>(idx + (<usize>mid << 2)), load<f64>(keys + (<usize>hi << 3)), load<i32>(idx + (<usize>hi << 2)))) swap(keys, idx, mid, hi);
    const pk = load<f64>(keys + (<usize>hi << 3));
    const pv = load<i32>(idx + (<usize>hi << 2));
    let i = lo;
    for (let j = lo; j < hi; j++) {
      const k = load<f64>(keys + (<usize>j << 3));
      const v = load<i32>(idx + (<usize>j << 2));
      swap(keys, idx, j, i);
      i += before(k, v, pk, pv);
    }
    swap(keys, idx, i, hi);
    // Smaller side first: O(log n) stack.
    if (i - lo < hi - i) {
      quickSort(keys, idx, lo, i - 1);
      lo = i + 1;
    } else {
      quickSort(keys, idx, i + 1, hi);
      hi = i - 1;
    }
  }
  insertionSort(keys, idx, lo, hi);
}

export function sortPairs(keys: usize, idx: usize, n: i32): void {
  if (n > 1) quickSort(keys, idx, 0, n - 1);
}

/** Fuller buckets are quicksorted, others insertion-sorted. */
const BUCKET_LIMIT = 24;

/** Measured on the bench batch: 2 beat 1 by ~13 ms, 4 beat 2 by ~5 ms, 6 and 8 no better than 4. */
export const BUCKETS_PER_ROW: i32 = 4;

/**
 * Sorts rows [start, start + n) into `order` (scores to `keys`); `buckets`: (BUCKETS_PER_ROW + 1) n + 5 i32.
 * The kernel's hot spot: interpolation sort over the scores' range, O(n) as scores rarely bunch; a full
 * bucket is quicksorted. Exact ties land in one bucket in row order, their final order.
 */
export function sortRows(scores: usize, start: i32, n: i32, keys: usize, order: usize, buckets: usize): void {
  const base = scores + (<usize>start << 3);
  // Runs are mostly written in rank order: scores already descending are their own order (equal ones
  // in row order, as below), found in one pass that a random order ends within a few rows.
  let descending = 1;
  for (let i = 1; i < n; i++) {
    if (load<f64>(base + (<usize>i << 3)) > load<f64>(base + (<usize>(i - 1) << 3))) {
      descending = 0;
      break;
    }
  }
  if (descending) {
    memory.copy(keys, base, <usize>n << 3);
    for (let i = 0; i < n; i++) store<i32>(order + (<usize>i << 2), start + i);
    return;
  }
  // pmax/pmin: one instruction; V8 branches on a scalar select of doubles.
  let his = f64x2.splat(-Infinity);
  let los = f64x2.splat(Infinity);
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const s = v128.load(base + (<usize>i << 3));
    his = f64x2.pmax(his, s);
    los = f64x2.pmin(los, s);
  }
  if (i < n) {
    const s = f64x2.splat(load<f64>(base + (<usize>i << 3)));
    his = f64x2.pmax(his, s);
    los = f64x2.pmin(los, s);
  }
  const hi = max(f64x2.extract_lane(his, 0), f64x2.extract_lane(his, 1));
  const lo = min(f64x2.extract_lane(los, 0), f64x2.extract_lane(los, 1));
  const m = n * BUCKETS_PER_ROW;
  const scale = <f64>m / (hi - lo);
  if (!(scale > 0 && scale < Infinity)) {
    // All scores equal (row order), or a range too wide for a double.
    for (let i = 0; i < n; i++) {
      store<f64>(keys + (<usize>i << 3), load<f64>(base + (<usize>i << 3)));
      store<i32>(order + (<usize>i << 2), start + i);
    }
    if (n > 1 && hi != lo) sortPairs(keys, order, n);
    return;
  }
  // bucketOf[i]: row i's bucket; ends[b + 1] counts, then ends, bucket b, which holds scores in
  // (hi - (b+1)/scale, hi - b/scale]. Two rows at a time.
  const bucketOf = buckets;
  const ends = buckets + (<usize>(n + 1) << 2); // slack: an odd n writes bucketOf[n]
  memory.fill(ends, 0, (<usize>m + 4) << 2); // 3 slots past ends[m] for the last four
  const last = m - 1;
  const his2 = f64x2.splat(hi);
  const scale2 = f64x2.splat(scale);
  const last4 = i32x4.splat(last);
  for (i = 0; i < n; i += 2) {
    // Past an odd n, lane 1 reads garbage, dropped.
    const b = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(f64x2.mul(f64x2.sub(his2, v128.load(base + (<usize>i << 3))), scale2)), last4);
    v128.store64_lane(bucketOf + (<usize>i << 2), b, 0);
    const e0 = ends + (<usize>(i32x4.extract_lane(b, 0) + 1) << 2);
    store<i32>(e0, load<i32>(e0) + 1);
    if (i + 1 < n) {
      const e1 = ends + (<usize>(i32x4.extract_lane(b, 1) + 1) << 2);
      store<i32>(e1, load<i32>(e1) + 1);
    }
  }
  // Counts to ends, four buckets at a time: in-vector prefix sum (shift by one lane, then two) plus the
  // running total. Past ends[m] it sums zeros.
  const zero4 = i32x4.splat(0);
  let sum4 = zero4;
  let fullest4 = zero4;
  for (let b = 1; b <= m; b += 4) {
    const p = ends + (<usize>b << 2);
    let v = v128.load(p);
    fullest4 = i32x4.max_s(fullest4, v);
    v = i32x4.add(v, v128.shuffle<i32>(zero4, v, 0, 4, 5, 6));
    v = i32x4.add(v, v128.shuffle<i32>(zero4, v, 0, 1, 4, 5));
    v = i32x4.add(v, sum4);
    v128.store(p, v);
    sum4 = v128.shuffle<i32>(v, v, 3, 3, 3, 3);
  }
  const fullest = max(max(i32x4.extract_lane(fullest4, 0), i32x4.extract_lane(fullest4, 1)), max(i32x4.extract_lane(fullest4, 2), i32x4.extract_lane(fullest4, 3)));
  for (let i = 0; i < n; i++) {
    const e = ends + (<usize>load<i32>(bucketOf + (<usize>i << 2)) << 2);
    const at = load<i32>(e);
    store<i32>(e, at + 1);
    store<f64>(keys + (<usize>at << 3), load<f64>(base + (<usize>i << 3)));
    store<i32>(order + (<usize>at << 2), start + i);
  }
  if (fullest <= BUCKET_LIMIT) {
    finishBuckets(keys, order, n);
    return;
  }
  let from = 0;
  for (let b = 0; b < m; b++) {
    const to = load<i32>(ends + (<usize>b << 2));
    const len = to - from;
    if (len > BUCKET_LIMIT) sortPairs(keys + (<usize>from << 3), order + (<usize>from << 2), len);
    else if (len > 1) insertionSort(keys, order, from, to - 1);
    from = to;
  }
}

/** Equal scores are in row order already: moving rows past strictly lower scores only is exact. */
function finishBuckets(keys: usize, order: usize, n: i32): void {
  let prev = load<f64>(keys);
  for (let i = 1; i < n; i++) {
    const k = load<f64>(keys + (<usize>i << 3));
    if (k <= prev) {
      prev = k;
      continue;
    }
    // Shift the lower scores up; position i then holds the old keys[i-1], still `prev`.
    const v = load<i32>(order + (<usize>i << 2));
    let j = i - 1;
    do {
      store<f64>(keys + (<usize>(j + 1) << 3), load<f64>(keys + (<usize>j << 3)));
      store<i32>(order + (<usize>(j + 1) << 2), load<i32>(order + (<usize>j << 2)));
      j--;
    } while (j >= 0 && load<f64>(keys + (<usize>j << 3)) < k);
    store<f64>(keys + (<usize>(j + 1) << 3), k);
    store<i32>(order + (<usize>(j + 1) << 2), v);
  }
}

/** As C's strcmp. */
export function compareBytes(bytes: usize, offsets: usize, a: i32, b: i32): i32 {
  const a0 = load<i32>(offsets + (<usize>a << 2));
  const a1 = load<i32>(offsets + (<usize>(a + 1) << 2));
  const b0 = load<i32>(offsets + (<usize>b << 2));
  const b1 = load<i32>(offsets + (<usize>(b + 1) << 2));
  const la = a1 - a0;
  const lb = b1 - b0;
  const n = la < lb ? la : lb;
  for (let i = 0; i < n; i++) {
    const ca = <i32>load<u8>(bytes + <usize>(a0 + i));
    const cb = <i32>load<u8>(bytes + <usize>(b0 + i));
    if (ca != cb) return ca - cb;
  }
  return la - lb;
}

/** Rows idx[0..n) by DESCENDING document id bytes, trec_eval's tie order; stable. */
export function sortByDocidDesc(idx: usize, n: i32, docid: usize, bytes: usize, offsets: usize, tmp: usize): void {
  if (n <= 16) {
    for (let i = 1; i < n; i++) {
      const v = load<i32>(idx + (<usize>i << 2));
      const dv = load<i32>(docid + (<usize>v << 2));
      let j = i - 1;
      while (j >= 0) {
        const w = load<i32>(idx + (<usize>j << 2));
        if (compareBytes(bytes, offsets, load<i32>(docid + (<usize>w << 2)), dv) >= 0) break;
        store<i32>(idx + (<usize>(j + 1) << 2), w);
        j--;
      }
      store<i32>(idx + (<usize>(j + 1) << 2), v);
    }
    return;
  }
  mergeSortDesc<i32>(idx, n, tmp, docid, bytes, offsets);
}

/** Sorts n f64 DESCENDING through tmp; returns the pairs i < j with a[i] < a[j]. */
export function sortDescCountInversions(a: usize, n: i32, tmp: usize): f64 {
  return mergeSortDesc<f64>(a, n, tmp, 0, 0, 0);
}

/** Stable bottom-up merge sort, DESCENDING: rows by docid, or f64 counting inversions. */
// @ts-ignore: decorator
@inline function mergeSortDesc<T>(a: usize, n: i32, tmp: usize, docid: usize, bytes: usize, offsets: usize): f64 {
  const shift = alignof<T>();
  let count: f64 = 0;
  let src = a;
  let dst = tmp;
  for (let width = 1; width < n; width <<= 1) {
    for (let lo = 0; lo < n; lo += width << 1) {
      const mid = min(lo + width, n);
      const hi = min(lo + (width << 1), n);
      let i = lo;
      let j = mid;
      let o = lo;
      while (i < mid && j < hi) {
        const x = load<T>(src + (<usize>i << shift));
        const y = load<T>(src + (<usize>j << shift));
        let first: bool;
        if (isInteger<T>()) {
          const dx = load<i32>(docid + (<usize>x << 2));
          first = compareBytes(bytes, offsets, dx, load<i32>(docid + (<usize>y << 2))) >= 0;
        } else first = x >= y;
        if (first) {
          store<T>(dst + (<usize>(o++) << shift), x);
          i++;
        } else {
          // y beats every element left in the left half: each an inversion.
          if (isFloat<T>()) count += <f64>(mid - i);
          store<T>(dst + (<usize>(o++) << shift), y);
          j++;
        }
      }
      while (i < mid) store<T>(dst + (<usize>(o++) << shift), load<T>(src + (<usize>(i++) << shift)));
      while (j < hi) store<T>(dst + (<usize>(o++) << shift), load<T>(src + (<usize>(j++) << shift)));
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src != a) memory.copy(a, src, <usize>n << shift);
  return count;
}
