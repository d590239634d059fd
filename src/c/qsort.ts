/**
 * C's qsort as trec_eval 10 gets it from glibc (2.36 and earlier, 2.39 and later: msort.c), for the
 * arrays trec_eval sorts with comparators that are not consistent orders: its cutoffs (meas_init.c
 * comp_long returns the long difference truncated to an int, so cutoffs past 2^31 sort out of
 * order) and its gain levels (gain_init.c comp_rel_gain returns the double difference truncated to
 * an int, so gains less than 1 apart compare equal). glibc's qsort is a stable top-down merge sort;
 * with such a comparator its result depends on exactly which pairs it compares, so this does the
 * same comparisons in the same order. Browser-safe.
 */

/** glibc msort_with_tmp: halves of n / 2 and n - n / 2, each sorted, then merged taking the left on cmp <= 0. */
export function glibcQsort<T>(items: readonly T[], cmp: (a: T, b: T) => number): T[] {
  const a = [...items];
  const tmp = new Array<T>(a.length);
  const sort = (from: number, n: number): void => {
    if (n <= 1) return;
    const n1 = Math.floor(n / 2);
    const n2 = n - n1;
    sort(from, n1);
    sort(from + n1, n2);
    let i = from;
    let j = from + n1;
    let left = n1;
    let right = n2;
    let k = 0;
    while (left > 0 && right > 0) {
      if (cmp(a[i], a[j]) <= 0) {
        tmp[k++] = a[i++];
        left--;
      } else {
        tmp[k++] = a[j++];
        right--;
      }
    }
    while (left > 0) {
      tmp[k++] = a[i++];
      left--;
    }
    for (let m = 0; m < k; m++) a[from + m] = tmp[m];
  };
  sort(0, a.length);
  return a;
}

/** C's conversion of a double to int on x86-64 (cvttsd2si): truncation, INT_MIN when out of range or NaN. */
export function doubleToInt(x: number): number {
  return Number.isNaN(x) || x >= 2147483648 || x <= -2147483649 ? -2147483648 : Math.trunc(x) | 0;
}

/** meas_init.c comp_long: (int)(a - b), the long difference wrapped to 64 bits and truncated to 32. */
export function compareLongAsC(a: bigint, b: bigint): number {
  return Number(BigInt.asIntN(32, BigInt.asIntN(64, a - b)));
}
