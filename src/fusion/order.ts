// ranx's sorts, ported: they, not the methods, order tied scores, which rank-based fusion reads as ranks.

/** numba 0.56's quicksort `lt` for floats: NaN after everything. */
function lt(a: number, b: number) {
  return a < b || (b !== b && a === a);
}

/** numba's quicksort sorts by insertion under this. */
const SMALL_QUICKSORT = 15;

/**
 * The positions of `scores` (in insertion order) from the highest down, as ranx's sort_dict_by_value:
 * numba 0.56's `np.argsort([-v ...])` quicksort, not stable, reproduced step by step.
 */
export function rankOrder(scores: Float64Array): Int32Array {
  const n = scores.length;
  const r = new Int32Array(n);
  for (let i = 0; i < n; i++) r[i] = i;
  if (n < 2) return r;
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = -scores[i];
  const stack: number[] = [0, n - 1];
  while (stack.length > 0) {
    let high = stack.pop() as number;
    let low = stack.pop() as number;
    while (high - low >= SMALL_QUICKSORT) {
      const i = partition(a, r, low, high);
      // numba's order of work: the larger side waits on the stack.
      if (high - i > i - low) {
        if (high > i) stack.push(i + 1, high);
        high = i - 1;
      } else {
        if (i > low) stack.push(low, i - 1);
        low = i + 1;
      }
    }
    insertionSort(a, r, low, high);
  }
  return r;
}

function insertionSort(a: Float64Array, r: Int32Array, low: number, high: number) {
  for (let i = low + 1; i <= high; i++) {
    const k = r[i];
    const v = a[k];
    let j = i;
    while (j > low && lt(v, a[r[j - 1]])) {
      r[j] = r[j - 1];
      j--;
    }
    r[j] = k;
  }
}

function partition(a: Float64Array, r: Int32Array, low: number, high: number) {
  const mid = (low + high) >> 1;
  let t: number;
  if (lt(a[r[mid]], a[r[low]])) {
    t = r[low];
    r[low] = r[mid];
    r[mid] = t;
  }
  if (lt(a[r[high]], a[r[mid]])) {
    t = r[high];
    r[high] = r[mid];
    r[mid] = t;
  }
  if (lt(a[r[mid]], a[r[low]])) {
    t = r[low];
    r[low] = r[mid];
    r[mid] = t;
  }
  const pivot = a[r[mid]];
  t = r[high];
  r[high] = r[mid];
  r[mid] = t;
  let i = low;
  let j = high - 1;
  for (;;) {
    while (i < high && lt(a[r[i]], pivot)) i++;
    while (j >= low && lt(pivot, a[r[j]])) j--;
    if (i >= j) break;
    t = r[i];
    r[i] = r[j];
    r[j] = t;
    i++;
    j--;
  }
  t = r[i];
  r[i] = r[high];
  r[high] = t;
  return i;
}

/** CPython's threshold of consecutive wins before a merge gallops. */
const MIN_GALLOP = 7;

/**
 * 0..n-1 sorted by `less` as CPython 3.11's `sorted(range(n), key=cmp_to_key(...))`, step by step (timsort,
 * powersort merges). ranx's Condorcet comparison is no consistent order (ties, cycles), so only the
 * same comparisons give ranx's order.
 */
export function pythonSorted(n: number, less: (x: number, y: number) => boolean): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  if (n >= 2) new TimSort(a, less).sort();
  return a;
}

interface PendingRun {
  base: number;
  len: number;
  power: number;
}

class TimSort {
  private minGallop = MIN_GALLOP;
  private readonly pending: PendingRun[] = [];
  private tmp = new Int32Array(0);

  constructor(
    private readonly a: Int32Array,
    private readonly less: (x: number, y: number) => boolean,
  ) {}

  sort() {
    const n = this.a.length;
    let minrun = n;
    let r = 0;
    while (minrun >= 64) {
      r |= minrun & 1;
      minrun >>= 1;
    }
    minrun += r;
    let lo = 0;
    let remaining = n;
    do {
      let run = this.countRun(lo, lo + remaining);
      if (run < minrun) {
        const force = remaining <= minrun ? remaining : minrun;
        this.binarySort(lo, lo + force, lo + run);
        run = force;
      }
      this.foundNewRun(run);
      this.pending.push({ base: lo, len: run, power: 0 });
      lo += run;
      remaining -= run;
    } while (remaining > 0);
    const p = this.pending;
    while (p.length > 1) {
      let i = p.length - 2;
      if (i > 0 && p[i - 1].len < p[i + 1].len) i--;
      this.mergeAt(i);
    }
  }

  /** The run at lo: ascending, or strictly descending and reversed. */
  private countRun(lo: number, hi: number) {
    const { a, less } = this;
    if (lo + 1 === hi) return 1;
    let i = lo + 2;
    if (less(a[lo + 1], a[lo])) {
      while (i < hi && less(a[i], a[i - 1])) i++;
      a.subarray(lo, i).reverse();
    } else {
      while (i < hi && !less(a[i], a[i - 1])) i++;
    }
    return i - lo;
  }

  /** [lo, hi) by binary insertion, [lo, start) sorted already. */
  private binarySort(lo: number, hi: number, start: number) {
    const { a, less } = this;
    if (lo === start) start++;
    for (; start < hi; start++) {
      const pivot = a[start];
      let l = lo;
      let r = start;
      do {
        const p = l + ((r - l) >> 1);
        if (less(pivot, a[p])) r = p;
        else l = p + 1;
      } while (l < r);
      a.copyWithin(l + 1, l, start);
      a[l] = pivot;
    }
  }

  /** The powersort rule: merge the runs below whose power exceeds the new boundary's. */
  private foundNewRun(n2: number) {
    const p = this.pending;
    if (p.length === 0) return;
    const last = p[p.length - 1];
    const n = this.a.length;
    let x = 2 * last.base + last.len;
    let y = x + last.len + n2;
    let power = 0;
    for (;;) {
      power++;
      if (x >= n) {
        x -= n;
        y -= n;
      } else if (y >= n) break;
      x <<= 1;
      y <<= 1;
    }
    while (p.length > 1 && p[p.length - 2].power > power) this.mergeAt(p.length - 2);
    p[p.length - 1].power = power;
  }

  private mergeAt(i: number) {
    const p = this.pending;
    let pa = p[i].base;
    let na = p[i].len;
    const pb = p[i + 1].base;
    let nb = p[i + 1].len;
    p[i].len = na + nb;
    if (i === p.length - 3) p[i + 1] = p[i + 2];
    p.pop();
    const k = gallopRight(this.less, this.a[pb], this.a, pa, na, 0);
    pa += k;
    na -= k;
    if (na === 0) return;
    nb = gallopLeft(this.less, this.a[pa + na - 1], this.a, pb, nb, nb - 1);
    if (nb <= 0) return;
    if (na <= nb) this.mergeLo(pa, na, pb, nb);
    else this.mergeHi(pa, na, pb, nb);
  }

  private temp(n: number) {
    if (this.tmp.length < n) this.tmp = new Int32Array(n);
    return this.tmp;
  }

  /** Merges a[pa, pa+na) and a[pb, pb+nb) from the left (na <= nb). */
  private mergeLo(pa: number, na: number, pb: number, nb: number) {
    const { a, less } = this;
    const t = this.temp(na);
    t.set(a.subarray(pa, pa + na));
    let dest = pa;
    let ia = 0;
    let ib = pb;
    a[dest++] = a[ib++];
    nb--;
    // `break done`: CPython's gotos to Succeed.
    done: for (;;) {
      if (nb === 0 || na === 1) break;
      let minGallop = this.minGallop;
      for (;;) {
        let acount = 0;
        let bcount = 0;
        for (;;) {
          if (less(a[ib], t[ia])) {
            a[dest++] = a[ib++];
            bcount++;
            acount = 0;
            if (--nb === 0) break done;
            if (bcount >= minGallop) break;
          } else {
            a[dest++] = t[ia++];
            acount++;
            bcount = 0;
            if (--na === 1) break done;
            if (acount >= minGallop) break;
          }
        }
        minGallop++;
        do {
          minGallop -= minGallop > 1 ? 1 : 0;
          this.minGallop = minGallop;
          let k = gallopRight(less, a[ib], t, ia, na, 0);
          acount = k;
          if (k) {
            a.set(t.subarray(ia, ia + k), dest);
            dest += k;
            ia += k;
            na -= k;
            if (na === 1) break done;
            if (na === 0) break done;
          }
          a[dest++] = a[ib++];
          if (--nb === 0) break done;
          k = gallopLeft(less, t[ia], a, ib, nb, 0);
          bcount = k;
          if (k) {
            a.copyWithin(dest, ib, ib + k);
            dest += k;
            ib += k;
            nb -= k;
            if (nb === 0) break done;
          }
          a[dest++] = t[ia++];
          if (--na === 1) break done;
        } while (acount >= MIN_GALLOP || bcount >= MIN_GALLOP);
        minGallop++;
        this.minGallop = minGallop;
      }
    }
    if (na === 1) {
      // CPython's CopyB.
      a.copyWithin(dest, ib, ib + nb);
      a[dest + nb] = t[ia];
    } else if (na) a.set(t.subarray(ia, ia + na), dest);
  }

  /** mergeLo from the right (na > nb). */
  private mergeHi(pa: number, na: number, pb: number, nb: number) {
    const { a, less } = this;
    const t = this.temp(nb);
    t.set(a.subarray(pb, pb + nb));
    let dest = pb + nb - 1;
    let ia = pa + na - 1;
    let ib = nb - 1;
    a[dest--] = a[ia--];
    na--;
    done: for (;;) {
      if (na === 0 || nb === 1) break;
      let minGallop = this.minGallop;
      for (;;) {
        let acount = 0;
        let bcount = 0;
        for (;;) {
          if (less(t[ib], a[ia])) {
            a[dest--] = a[ia--];
            acount++;
            bcount = 0;
            if (--na === 0) break done;
            if (acount >= minGallop) break;
          } else {
            a[dest--] = t[ib--];
            bcount++;
            acount = 0;
            if (--nb === 1) break done;
            if (bcount >= minGallop) break;
          }
        }
        minGallop++;
        do {
          minGallop -= minGallop > 1 ? 1 : 0;
          this.minGallop = minGallop;
          let k = na - gallopRight(less, t[ib], a, pa, na, na - 1);
          acount = k;
          if (k) {
            dest -= k;
            ia -= k;
            a.copyWithin(dest + 1, ia + 1, ia + 1 + k);
            na -= k;
            if (na === 0) break done;
          }
          a[dest--] = t[ib--];
          if (--nb === 1) break done;
          k = nb - gallopLeft(less, a[ia], t, 0, nb, nb - 1);
          bcount = k;
          if (k) {
            dest -= k;
            ib -= k;
            a.set(t.subarray(ib + 1, ib + 1 + k), dest + 1);
            nb -= k;
            if (nb === 1) break done;
            if (nb === 0) break done;
          }
          a[dest--] = a[ia--];
          if (--na === 0) break done;
        } while (acount >= MIN_GALLOP || bcount >= MIN_GALLOP);
        minGallop++;
        this.minGallop = minGallop;
      }
    }
    if (nb === 1) {
      // CPython's CopyA.
      a.copyWithin(dest + 1 - na, ia + 1 - na, ia + 1);
      a[dest - na] = t[ib];
    } else if (nb) a.set(t.subarray(0, nb), dest - (nb - 1));
  }
}

type Less = (x: number, y: number) => boolean;

/** Where `key` goes in the sorted x[base, base+n), left of any equal (CPython's gallop_left). */
const gallopLeft = (less: Less, key: number, x: Int32Array, base: number, n: number, hint: number) =>
  gallop((v) => less(v, key), x, base, n, hint);

/** As gallopLeft, right of any equal (CPython's gallop_right). */
const gallopRight = (less: Less, key: number, x: Int32Array, base: number, n: number, hint: number) =>
  gallop((v) => !less(key, v), x, base, n, hint);

/** The k with right(x[base+k-1]) and not right(x[base+k]): CPython's galloping from `hint`, then bisection. */
function gallop(right: (v: number) => boolean, x: Int32Array, base: number, n: number, hint: number) {
  let last = 0;
  let ofs = 1;
  if (right(x[base + hint])) {
    const max = n - hint;
    while (ofs < max && right(x[base + hint + ofs])) {
      last = ofs;
      ofs = (ofs << 1) + 1;
    }
    if (ofs > max) ofs = max;
    last += hint;
    ofs += hint;
  } else {
    const max = hint + 1;
    while (ofs < max && !right(x[base + hint - ofs])) {
      last = ofs;
      ofs = (ofs << 1) + 1;
    }
    if (ofs > max) ofs = max;
    const k = last;
    last = hint - ofs;
    ofs = hint - k;
  }
  last++;
  while (last < ofs) {
    const m = last + ((ofs - last) >> 1);
    if (right(x[base + m])) last = m + 1;
    else ofs = m;
  }
  return ofs;
}
