/**
 * glibc's qsort (msort.c: a stable top-down merge sort), for trec_eval's inconsistent comparators
 * (comp_long, comp_rel_gain truncate a difference to an int): the same comparisons in the same order.
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
