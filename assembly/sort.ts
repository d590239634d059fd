// Sorting for the kernel: no allocation, no indirect calls.
//
// sortPairs orders (key u64, index i32) pairs ascending by key, then by index. Indices are unique, so
// no two pairs are equal: the quicksort never meets a run of equal elements (the case that makes a
// Lomuto partition quadratic), and equal keys come out in index order, which is input order.
// The partition is branchless (Lomuto with an unconditional swap): comparisons of random scores are
// unpredictable, and a mispredicted branch costs more than the swap.

// @ts-ignore: decorator
@inline function before(ka: u64, ia: i32, kb: u64, ib: i32): i32 {
  return <i32>(ka < kb) | (<i32>(ka == kb) & <i32>(ia < ib));
}

// @ts-ignore: decorator
@inline function swap(keys: usize, idx: usize, a: i32, b: i32): void {
  const ka = load<u64>(keys + (<usize>a << 3));
  const ia = load<i32>(idx + (<usize>a << 2));
  store<u64>(keys + (<usize>a << 3), load<u64>(keys + (<usize>b << 3)));
  store<i32>(idx + (<usize>a << 2), load<i32>(idx + (<usize>b << 2)));
  store<u64>(keys + (<usize>b << 3), ka);
  store<i32>(idx + (<usize>b << 2), ia);
}

function insertionSort(keys: usize, idx: usize, lo: i32, hi: i32): void {
  for (let i = lo + 1; i <= hi; i++) {
    const k = load<u64>(keys + (<usize>i << 3));
    const v = load<i32>(idx + (<usize>i << 2));
    let j = i - 1;
    while (j >= lo) {
      const kj = load<u64>(keys + (<usize>j << 3));
      const vj = load<i32>(idx + (<usize>j << 2));
      if (!before(k, v, kj, vj)) break;
      store<u64>(keys + (<usize>(j + 1) << 3), kj);
      store<i32>(idx + (<usize>(j + 1) << 2), vj);
      j--;
    }
    store<u64>(keys + (<usize>(j + 1) << 3), k);
    store<i32>(idx + (<usize>(j + 1) << 2), v);
  }
}

function quickSort(keys: usize, idx: usize, lo: i32, hi: i32): void {
  while (hi - lo > 24) {
    // Median of three, moved to hi as the pivot.
    const mid = lo + ((hi - lo) >> 1);
    if (before(load<u64>(keys + (<usize>mid << 3)), load<i32>(idx + (<usize>mid << 2)), load<u64>(keys + (<usize>lo << 3)), load<i32>(idx + (<usize>lo << 2)))) swap(keys, idx, mid, lo);
    if (before(load<u64>(keys + (<usize>hi << 3)), load<i32>(idx + (<usize>hi << 2)), load<u64>(keys + (<usize>lo << 3)), load<i32>(idx + (<usize>lo << 2)))) swap(keys, idx, hi, lo);
    if (before(load<u64>(keys + (<usize>mid << 3)), load<i32>(idx + (<usize>mid << 2)), load<u64>(keys + (<usize>hi << 3)), load<i32>(idx + (<usize>hi << 2)))) swap(keys, idx, mid, hi);
    const pk = load<u64>(keys + (<usize>hi << 3));
    const pv = load<i32>(idx + (<usize>hi << 2));
    let i = lo;
    for (let j = lo; j < hi; j++) {
      const k = load<u64>(keys + (<usize>j << 3));
      const v = load<i32>(idx + (<usize>j << 2));
      store<u64>(keys + (<usize>j << 3), load<u64>(keys + (<usize>i << 3)));
      store<i32>(idx + (<usize>j << 2), load<i32>(idx + (<usize>i << 2)));
      store<u64>(keys + (<usize>i << 3), k);
      store<i32>(idx + (<usize>i << 2), v);
      i += before(k, v, pk, pv);
    }
    swap(keys, idx, i, hi);
    // Recurse into the smaller side, loop on the larger: stack depth stays O(log n).
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

/** Sorts n pairs at keys (u64) and idx (i32) ascending by (key, idx). */
export function sortPairs(keys: usize, idx: usize, n: i32): void {
  if (n > 1) quickSort(keys, idx, 0, n - 1);
}

/**
 * An order-preserving map from f64 to u64, inverted so that ascending keys are descending scores.
 * -0 and +0 map to the same key (they compare equal as scores, as in trec_eval's `>`/`<`).
 */
// @ts-ignore: decorator
@inline export function descendingKey(score: f64): u64 {
  const bits = reinterpret<u64>(score + 0.0); // + 0.0 turns -0 into +0
  const ordered = (bits >> 63) != 0 ? ~bits : bits | 0x8000000000000000;
  return ~ordered;
}

/**
 * Sorts a query's rows [start, start + n) by score descending, then row ascending, writing the rows
 * in rank order to `order` and their descending keys to `keys`. `counts` is scratch (n + 1 i32).
 *
 * Most of the kernel's time goes here, so instead of a comparison sort this is an interpolation
 * (bucket) sort: n buckets spread evenly between the highest and lowest score, rows scattered into
 * them in row order, then each bucket sorted on its own. Scores rarely bunch, so buckets hold a
 * row or two and the whole sort is O(n); a bucket that does fill up (an outlier squeezing the rest
 * into one bucket, scores equal to many digits) falls back to the quicksort, so the worst case is
 * that of the quicksort. Exact ties land in one bucket in row order, so insertion sort keeps them.
 */
export function sortRows(scores: usize, start: i32, n: i32, keys: usize, order: usize, counts: usize): void {
  if (n <= 1) {
    if (n == 1) {
      store<u64>(keys, descendingKey(load<f64>(scores + (<usize>start << 3))));
      store<i32>(order, start);
    }
    return;
  }
  let hi = -Infinity;
  let lo = Infinity;
  for (let i = 0; i < n; i++) {
    const s = load<f64>(scores + (<usize>(start + i) << 3));
    hi = max(hi, s);
    lo = min(lo, s);
  }
  const scale = <f64>n / (hi - lo);
  if (!(scale > 0 && scale < Infinity)) {
    // All scores equal (or a range too wide for a double): one bucket.
    for (let i = 0; i < n; i++) {
      store<u64>(keys + (<usize>i << 3), descendingKey(load<f64>(scores + (<usize>(start + i) << 3))));
      store<i32>(order + (<usize>i << 2), start + i);
    }
    if (hi != lo) sortPairs(keys, order, n);
    return;
  }
  // Bucket b holds scores in (hi - (b+1)/scale, hi - b/scale]; the highest scores go first.
  memory.fill(counts, 0, (<usize>n + 1) << 2);
  for (let i = 0; i < n; i++) {
    const b = min(<i32>((hi - load<f64>(scores + (<usize>(start + i) << 3))) * scale), n - 1);
    const c = counts + (<usize>(b + 1) << 2);
    store<i32>(c, load<i32>(c) + 1);
  }
  for (let b = 1; b <= n; b++) {
    const c = counts + (<usize>b << 2);
    store<i32>(c, load<i32>(c) + load<i32>(c - 4));
  }
  for (let i = 0; i < n; i++) {
    const s = load<f64>(scores + (<usize>(start + i) << 3));
    const b = min(<i32>((hi - s) * scale), n - 1);
    const c = counts + (<usize>b << 2);
    const at = load<i32>(c);
    store<i32>(c, at + 1);
    store<u64>(keys + (<usize>at << 3), descendingKey(s));
    store<i32>(order + (<usize>at << 2), start + i);
  }
  // Now counts[b] is where bucket b ends (and b + 1 begins).
  let from = 0;
  for (let b = 0; b < n; b++) {
    const to = load<i32>(counts + (<usize>b << 2));
    const len = to - from;
    if (len > 1) {
      if (len <= 16) insertionSort(keys, order, from, to - 1);
      else sortPairs(keys + (<usize>from << 3), order + (<usize>from << 2), len);
    }
    from = to;
  }
}

/** Byte order of two pool entries, as C's strcmp: negative, zero or positive. */
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

/**
 * Reorders rows idx[0..n) so that their document ids (docid[row], entries of the byte pool) are in
 * DESCENDING byte order: trec_eval's tie order. Stable insertion sort for short runs, which tied runs
 * almost always are; a bottom-up merge sort through `tmp` (n i32) otherwise.
 */
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
  let src = idx;
  let dst = tmp;
  for (let width = 1; width < n; width <<= 1) {
    for (let lo = 0; lo < n; lo += width << 1) {
      const mid = min(lo + width, n);
      const hi = min(lo + (width << 1), n);
      let i = lo;
      let j = mid;
      let o = lo;
      while (i < mid && j < hi) {
        const a = load<i32>(src + (<usize>i << 2));
        const b = load<i32>(src + (<usize>j << 2));
        if (compareBytes(bytes, offsets, load<i32>(docid + (<usize>a << 2)), load<i32>(docid + (<usize>b << 2))) >= 0) {
          store<i32>(dst + (<usize>(o++) << 2), a);
          i++;
        } else {
          store<i32>(dst + (<usize>(o++) << 2), b);
          j++;
        }
      }
      while (i < mid) store<i32>(dst + (<usize>(o++) << 2), load<i32>(src + (<usize>(i++) << 2)));
      while (j < hi) store<i32>(dst + (<usize>(o++) << 2), load<i32>(src + (<usize>(j++) << 2)));
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src != idx) memory.copy(idx, src, <usize>n << 2);
}

/** Sorts n f64 at a DESCENDING, through tmp (n f64); returns the number of pairs i < j with a[i] < a[j]. */
export function sortDescCountInversions(a: usize, n: i32, tmp: usize): f64 {
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
        const x = load<f64>(src + (<usize>i << 3));
        const y = load<f64>(src + (<usize>j << 3));
        if (x >= y) {
          store<f64>(dst + (<usize>(o++) << 3), x);
          i++;
        } else {
          // y is strictly greater than every element left in the left half: each is a pair out of order.
          count += <f64>(mid - i);
          store<f64>(dst + (<usize>(o++) << 3), y);
          j++;
        }
      }
      while (i < mid) store<f64>(dst + (<usize>(o++) << 3), load<f64>(src + (<usize>(i++) << 3)));
      while (j < hi) store<f64>(dst + (<usize>(o++) << 3), load<f64>(src + (<usize>(j++) << 3)));
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src != a) memory.copy(a, src, <usize>n << 3);
  return count;
}
