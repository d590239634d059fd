/**
 * glibc's qsort (msort.c msort_with_tmp, stable merge sort), for trec_eval's inconsistent comparators
 * (comp_long, comp_rel_gain truncate to int): the same comparisons in the same order.
 */
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

/** (int) of a double on x86-64 (cvttsd2si): INT_MIN out of range or NaN. */
export function doubleToInt(x: number): number {
  return Number.isNaN(x) || x >= 2147483648 || x <= -2147483649 ? -2147483648 : Math.trunc(x) | 0;
}

/** meas_init.c comp_long: (int)(a - b), wrapped to 64 bits, then 32. */
export function compareLongAsC(a: bigint, b: bigint): number {
  return Number(BigInt.asIntN(32, BigInt.asIntN(64, a - b)));
}
