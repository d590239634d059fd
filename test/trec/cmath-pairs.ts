// The array-based double-double log, log2 and exp as src/c/math.ts had them before it computed
// in scalars (no allocation per operation): kept as the oracle its results must equal bit for bit.
/**
 * log and exp as trec_eval gets them from glibc: correctly rounded (glibc's are within 0.52 ulp, so
 * nearly always the correctly rounded double). JavaScript's Math.log and Math.exp are not: V8's differ
 * from glibc's in the last bit for about 7% of inputs, and that shows where trec_eval's sums cancel
 * exactly (yaap's log(3) + log(1/3) is 0 in trec_eval, -2.2e-16 with Math.log: "-0.0000"). Computed
 * in double-double arithmetic (about 106 bits) and rounded once. glibc guarantees 0.52 ulp, not
 * correct rounding, so at near-ties (about 0.07% of random inputs) it may still round the other way.
 * Used by trec_eval's own algorithms (src/trec/port.ts) and the geometric means of gm_map and
 * gm_bpref; not in hot loops. Browser-safe.
 */

type DD = readonly [number, number];

function twoSum(a: number, b: number): DD {
  const s = a + b;
  const v = s - a;
  return [s, a - (s - v) + (b - v)];
}

function quickTwoSum(a: number, b: number): DD {
  const s = a + b;
  return [s, b - (s - a)];
}

const SPLITTER = 134217729; // 2^27 + 1

function twoProd(a: number, b: number): DD {
  const p = a * b;
  const ta = SPLITTER * a;
  const ah = ta - (ta - a);
  const al = a - ah;
  const tb = SPLITTER * b;
  const bh = tb - (tb - b);
  const bl = b - bh;
  return [p, ah * bh - p + ah * bl + al * bh + al * bl];
}

function add(a: DD, b: DD): DD {
  const [s, e1] = twoSum(a[0], b[0]);
  const [t, f] = twoSum(a[1], b[1]);
  const [s2, e2] = quickTwoSum(s, e1 + t);
  return quickTwoSum(s2, e2 + f);
}

function mul(a: DD, b: DD): DD {
  const [p, e] = twoProd(a[0], b[0]);
  return quickTwoSum(p, e + (a[0] * b[1] + a[1] * b[0]));
}

function div(a: DD, b: DD): DD {
  const q1 = a[0] / b[0];
  let r = add(a, mul([-q1, 0], b));
  const q2 = r[0] / b[0];
  r = add(r, mul([-q2, 0], b));
  const q3 = r[0] / b[0];
  return add(quickTwoSum(q1, q2), [q3, 0]);
}

const LN2: DD = [0.6931471805599453, 2.3190468138462996e-17];

/** log(x) in double-double, for a positive normal x. */
function logDD(x: number): DD {
  // x = m 2^k with m in [sqrt(1/2), sqrt(2)): the scaling by a power of two is exact.
  let k = Math.floor(Math.log2(x));
  let m = x / 2 ** k;
  if (m < Math.SQRT1_2) {
    m *= 2;
    k--;
  } else if (m >= Math.SQRT2) {
    m /= 2;
    k++;
  }
  // log(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172: m - 1 is exact (Sterbenz), m + 1 kept in double-double.
  const s = div([m - 1, 0], twoSum(m, 1));
  const s2 = mul(s, s);
  let power = s;
  let sum = s;
  for (let n = 3; n < 101; n += 2) {
    power = mul(power, s2);
    const term = div(power, [n, 0]);
    sum = add(sum, term);
    if (Math.abs(term[0]) <= 1e-36 * Math.abs(sum[0])) break;
  }
  return add(mul(LN2, [k, 0]), mul(sum, [2, 0]));
}

/** Whether x is a positive normal double (the others go to Math's functions: 0, negatives, NaN, inf, subnormals). */
const positiveNormal = (x: number) => x >= 2.2250738585072014e-308 && x < Infinity;

/** Natural logarithm, correctly rounded (but for inputs within about 2^-100 relative of a rounding tie). */
export function log(x: number): number {
  if (!positiveNormal(x)) return Math.log(x);
  const r = logDD(x);
  return r[0] + r[1];
}

/**
 * Base-2 logarithm, correctly rounded as `log` (exact at powers of two). Math.log2 differs from
 * glibc's for some integers from 1375 on (trec_eval's discounts log2(rank + 1)) and more others.
 */
export function log2(x: number): number {
  if (!positiveNormal(x)) return Math.log2(x);
  const k = Math.log2(x);
  if (Number.isInteger(k) && 2 ** k === x) return k;
  const r = div(logDD(x), LN2);
  return r[0] + r[1];
}

/** e^x, correctly rounded (as `log`), for |x| < 700; Math.exp's beyond (overflow, subnormals). */
export function exp(x: number): number {
  if (!(Math.abs(x) < 700)) return Math.exp(x);
  // x = k ln2 + r, |r| <= ln2 / 2; e^r by its series in double-double.
  const k = Math.round(x / LN2[0]);
  const r = add([x, 0], mul(LN2, [-k, 0]));
  let term: DD = [1, 0];
  let sum: DD = [1, 0];
  for (let n = 1; n < 60; n++) {
    term = div(mul(term, r), [n, 0]);
    sum = add(sum, term);
    if (Math.abs(term[0]) <= 1e-36 * Math.abs(sum[0])) break;
  }
  return (sum[0] + sum[1]) * 2 ** k;
}
