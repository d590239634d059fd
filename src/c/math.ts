/**
 * log and exp as trec_eval gets them from glibc: correctly rounded (glibc's are within 0.52 ulp).
 * V8's Math.log differs in the last bit for about 7% of inputs, which shows where trec_eval's sums
 * cancel exactly (yaap's log(3) + log(1/3) is 0 there, "-0.0000" with Math.log). Computed in
 * double-double arithmetic and rounded once; the high part is returned, the low part left in `lo`, so
 * that an operation allocates nothing. Browser-safe.
 */

/** The low part of the double-double the last operation returned the high part of. */
let lo = 0;

/** a + b exactly: returns the sum, its error in `lo` (Knuth's two-sum). */
function twoSum(a: number, b: number): number {
  const s = a + b;
  const v = s - a;
  lo = a - (s - v) + (b - v);
  return s;
}

/** a + b exactly where |a| >= |b|: returns the sum, its error in `lo`. */
function quickTwoSum(a: number, b: number): number {
  const s = a + b;
  lo = b - (s - a);
  return s;
}

const SPLITTER = 134217729; // 2^27 + 1

/** (ah, al) + (bh, bl): high part returned, low part in `lo`. */
function add(ah: number, al: number, bh: number, bl: number): number {
  const s = twoSum(ah, bh);
  const e1 = lo;
  const t = twoSum(al, bl);
  const f = lo;
  const s2 = quickTwoSum(s, e1 + t);
  return quickTwoSum(s2, lo + f);
}

/** add, written out (no calls): the loop of logDD calls it three times a term. */
function addHi(ah: number, al: number, bh: number, bl: number): number {
  let s = ah + bh;
  let v = s - ah;
  const e1 = ah - (s - v) + (bh - v);
  const t = al + bl;
  v = t - al;
  const f = al - (t - v) + (bl - v);
  let x = e1 + t;
  const s2 = s + x;
  const e2 = x - (s2 - s);
  x = e2 + f;
  s = s2 + x;
  lo = x - (s - s2);
  return s;
}

/** (ah, al) * (bh, bl): high part returned, low part in `lo`. */
function mul(ah: number, al: number, bh: number, bl: number): number {
  // a_h * b_h exactly (Dekker's two-product), then the cross terms.
  const p = ah * bh;
  const ta = SPLITTER * ah;
  const ahh = ta - (ta - ah);
  const ahl = ah - ahh;
  const tb = SPLITTER * bh;
  const bhh = tb - (tb - bh);
  const bhl = bh - bhh;
  const e = ahh * bhh - p + ahh * bhl + ahl * bhh + ahl * bhl;
  return quickTwoSum(p, e + (ah * bl + al * bh));
}

/** (ah, al) / (bh, bl): high part returned, low part in `lo`. */
function div(ah: number, al: number, bh: number, bl: number): number {
  const q1 = ah / bh;
  let m = mul(-q1, 0, bh, bl);
  let rh = add(ah, al, m, lo);
  let rl = lo;
  const q2 = rh / bh;
  m = mul(-q2, 0, bh, bl);
  rh = add(rh, rl, m, lo);
  rl = lo;
  const q3 = rh / bh;
  const qh = quickTwoSum(q1, q2);
  return add(qh, lo, q3, 0);
}

const LN2_HI = 0.6931471805599453;
const LN2_LO = 2.3190468138462996e-17;

/**
 * log(x) in double-double, for a positive normal x, by the series of atanh about 1 (up to ~49 terms).
 * The reference: it makes logDD's table and the tests check logDD against it.
 */
function logDDSlow(x: number): number {
  // x = m 2^k with m in [sqrt(1/2), sqrt(2)): the scaling by a power of two is exact. Math.log2 of the
  // doubles just under 2^1024 rounds to 1024, and 2^1024 is Infinity: k is at most 1023.
  let k = Math.min(Math.floor(Math.log2(x)), 1023);
  let m = x / 2 ** k;
  if (m < Math.SQRT1_2) {
    m *= 2;
    k--;
  } else if (m >= Math.SQRT2) {
    m /= 2;
    k++;
  }
  // log(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172: m - 1 is exact (Sterbenz), m + 1 kept in double-double.
  const dh = twoSum(m, 1);
  const sh = div(m - 1, 0, dh, lo);
  const sl = lo;
  const s2h = mul(sh, sl, sh, sl);
  const s2l = lo;
  let ph = sh;
  let pl = sl;
  let sumh = sh;
  let suml = sl;
  // mul, div and add written out (their calls were most of a log's time while interpreted).
  const tb = SPLITTER * s2h;
  const s2hh = tb - (tb - s2h);
  const s2hl = s2h - s2hh;
  for (let n = 3; n < 101; n += 2) {
    // (ph, pl) = mul(ph, pl, s2h, s2l)
    let p = ph * s2h;
    let ta = SPLITTER * ph;
    let ah = ta - (ta - ph);
    let al = ph - ah;
    let e = ah * s2hh - p + ah * s2hl + al * s2hh + al * s2hl;
    let b = e + (ph * s2l + pl * s2h);
    const sum = p + b;
    pl = b - (sum - p);
    ph = sum;
    // (th, tl) = div(ph, pl, n, 0): three quotients, each remainder by mul(-q, 0, n, 0) and add
    const nt = SPLITTER * n;
    const nh = nt - (nt - n);
    const nl = n - nh;
    let rh = ph;
    let rl = pl;
    let q1 = 0;
    let q2 = 0;
    for (let i = 0; i < 2; i++) {
      q1 = q2;
      q2 = rh / n;
      const mq = -q2;
      p = mq * n;
      ta = SPLITTER * mq;
      ah = ta - (ta - mq);
      al = mq - ah;
      e = ah * nh - p + ah * nl + al * nh + al * nl;
      b = e + (mq * 0 + 0 * n);
      const mh = p + b;
      rh = addHi(rh, rl, mh, b - (mh - p));
      rl = lo;
    }
    const q3 = rh / n;
    const qh = q1 + q2;
    const ql = q2 - (qh - q1);
    const th = addHi(qh, ql, q3, 0);
    sumh = addHi(sumh, suml, th, lo);
    suml = lo;
    if (Math.abs(th) <= 1e-36 * Math.abs(sumh)) break;
  }
  const kh = mul(LN2_HI, LN2_LO, k, 0);
  const kl = lo;
  const twoh = mul(sumh, suml, 2, 0);
  return add(kh, kl, twoh, lo);
}

/** 1/3 and 1/5 in double-double: the series' first terms are multiplied by them (a product, not a quotient). */
const THIRD_HI = 0.3333333333333333;
const THIRD_LO = 1.850371707708594e-17;
const FIFTH_HI = 0.2;
const FIFTH_LO = -1.1102230246251566e-17;

/**
 * logDD's grid: c = 1 + j/256 nearest the reduced m in [sqrt(1/2), sqrt(2)); log(c) made on the first
 * log by logDDSlow (a fraction of a millisecond), the tests' reference, rather than 364 literal constants.
 */
const GRID = 256;
const GRID_MIN = -75; // round((sqrt(1/2) - 1) * 256)
const GRID_MAX = 106; // round((sqrt(2) - 1) * 256)
let logGridHi: Float64Array | undefined;
let logGridLo: Float64Array | undefined;

function makeLogGrid(): void {
  const n = GRID_MAX - GRID_MIN + 1;
  logGridHi = new Float64Array(n);
  logGridLo = new Float64Array(n);
  for (let j = GRID_MIN; j <= GRID_MAX; j++) {
    if (j === 0) continue; // log(1) = 0 exactly
    logGridHi[j - GRID_MIN] = logDDSlow(1 + j / GRID);
    logGridLo[j - GRID_MIN] = lo;
  }
}

/** The exponent of a double read from its bits. */
const exponentBits = new Float64Array(1);
const exponentWords = new Uint32Array(exponentBits.buffer);
const HIGH_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/**
 * log(x) in double-double, for a positive normal x: logDDSlow's bits in a tenth of its time (checked
 * equal by the tests and scripts/compare-cmath-log.mjs): log(x) = k ln 2 + log(c) + 2 atanh(s),
 * c on logDD's grid, s = (m - c) / (m + c), |s| < 2^-9.5, to s^13/13 (past 2^-98 of s, for margin).
 */
function logDD(x: number): number {
  if (logGridHi === undefined) makeLogGrid();
  // x = m 2^k, m in [1, 2) by the exponent's bits (exact), then in [sqrt(1/2), sqrt(2)).
  exponentBits[0] = x;
  const high = exponentWords[HIGH_WORD];
  let k = (high >>> 20) - 1023;
  exponentWords[HIGH_WORD] = (high & 0x000fffff) | 0x3ff00000;
  let m = exponentBits[0];
  if (m >= Math.SQRT2) {
    m *= 0.5;
    k++;
  }
  // c, the grid point nearest m: m - c is exact (Sterbenz), m + c kept in double-double.
  const j = Math.round((m - 1) * GRID);
  const c = 1 + j / GRID;
  const d = m - c;
  const ah = m + c;
  const v = ah - m;
  const al = m - (ah - v) + (c - v);
  // s = d / (ah + al): q1 = d / ah, the remainder d - q1 (ah + al) (d - q1 ah exact: Dekker's product,
  // then Sterbenz), q2 = remainder / ah. Relative error about 2^-105.
  const q1 = d / ah;
  let p = q1 * ah;
  let t = SPLITTER * q1;
  let xh = t - (t - q1);
  let xl = q1 - xh;
  t = SPLITTER * ah;
  const yh = t - (t - ah);
  const yl = ah - yh;
  let e = xh * yh - p + xh * yl + xl * yh + xl * yl;
  const q2 = (d - p - e - q1 * al) / ah;
  const sh = q1 + q2;
  const sl = q2 - (sh - q1);
  // s^2 (double-double, Dekker's product of sh by itself and the cross term).
  t = SPLITTER * sh;
  xh = t - (t - sh);
  xl = sh - xh;
  p = sh * sh;
  e = xh * xh - p + 2 * xh * xl + xl * xl;
  const s2h = p + (e + 2 * sh * sl);
  const s2l = e + 2 * sh * sl - (s2h - p);
  // 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + s^7 (1/7 + s^2/9 + s^4/11 + s^6/13)): the terms to s^5 in
  // double-double (s^5/5 is 2^-40 of s: a double's 53 bits would leave 93); from s^7/7 (2^-59 of s)
  // on, doubles suffice.
  const s3h = mul(sh, sl, s2h, s2l);
  const s3l = lo;
  const s5h = mul(s3h, s3l, s2h, s2l);
  const s5l = lo;
  const tail = s5h * s2h * (1 / 7 + s2h * (1 / 9 + s2h * (1 / 11 + s2h * (1 / 13))));
  const t5h = mul(s5h, s5l, FIFTH_HI, FIFTH_LO);
  const t5l = lo;
  const t3h = mul(s3h, s3l, THIRD_HI, THIRD_LO);
  const t3l = lo;
  let sumh = addHi(t5h, t5l, tail, 0);
  let suml = lo;
  sumh = addHi(t3h, t3l, sumh, suml);
  suml = lo;
  sumh = addHi(sh, sl, sumh, suml);
  suml = lo;
  // k ln 2 + log(c) + 2 sum (the doubling exact).
  const kh = mul(LN2_HI, LN2_LO, k, 0);
  const kl = lo;
  const ch = addHi(kh, kl, logGridHi![j - GRID_MIN], logGridLo![j - GRID_MIN]);
  return addHi(ch, lo, 2 * sumh, 2 * suml);
}

/** Whether x is a positive normal double (the others go to Math's functions: 0, negatives, NaN, inf, subnormals). */
const positiveNormal = (x: number) => x >= 2.2250738585072014e-308 && x < Infinity;

/** A direct-mapped memo of a function of one double: the same values come back often (log2(rank + 1)). */
const SLOTS = 1024;
const bits = new Float64Array(1);
const words = new Int32Array(bits.buffer);

class Memo {
  private readonly keys = new Float64Array(SLOTS).fill(NaN);
  private readonly values = new Float64Array(SLOTS);

  constructor(private readonly f: (x: number) => number) {}

  /** f(x), for x a positive normal double (never NaN: NaN marks an empty slot). */
  get(x: number): number {
    bits[0] = x;
    const slot = (words[0] ^ words[1] ^ (words[1] >>> 10)) & (SLOTS - 1);
    if (this.keys[slot] === x) return this.values[slot];
    const y = this.f(x);
    this.keys[slot] = x;
    this.values[slot] = y;
    return y;
  }
}

const logs = new Memo((x) => logDD(x) + lo);
const log2s = new Memo((x) => {
  const h = logDD(x);
  return div(h, lo, LN2_HI, LN2_LO) + lo;
});

/** logDDSlow rounded, through log's paths (no memo): the reference the tests compare `log` with. */
export function logSlow(x: number): number {
  if (!positiveNormal(x)) return Math.log(x);
  return logDDSlow(x) + lo;
}

/** logDDSlow divided by ln 2 and rounded, through log2's paths (no memo): the reference for `log2`. */
export function log2Slow(x: number): number {
  if (!positiveNormal(x)) return Math.log2(x);
  const k = Math.log2(x);
  if (Number.isInteger(k) && 2 ** k === x) return k;
  const h = logDDSlow(x);
  return div(h, lo, LN2_HI, LN2_LO) + lo;
}

/** Natural logarithm, correctly rounded (but for inputs within about 2^-100 relative of a rounding tie). */
export function log(x: number): number {
  if (!positiveNormal(x)) return Math.log(x);
  return logs.get(x);
}

/**
 * Base-2 logarithm, correctly rounded as `log` (exact at powers of two). Math.log2 differs from
 * glibc's for some integers from 1375 on (trec_eval's discounts log2(rank + 1)) and more others.
 */
export function log2(x: number): number {
  if (!positiveNormal(x)) return Math.log2(x);
  const k = Math.log2(x);
  if (Number.isInteger(k) && 2 ** k === x) return k;
  return log2s.get(x);
}

/** e^x, correctly rounded (as `log`), for |x| < 700; Math.exp's beyond (overflow, subnormals). */
export function exp(x: number): number {
  if (!(Math.abs(x) < 700)) return Math.exp(x);
  // x = k ln2 + r, |r| <= ln2 / 2; e^r by its series in double-double.
  const k = Math.round(x / LN2_HI);
  const m = mul(LN2_HI, LN2_LO, -k, 0);
  const rh = add(x, 0, m, lo);
  const rl = lo;
  let th = 1;
  let tl = 0;
  let sumh = 1;
  let suml = 0;
  for (let n = 1; n < 60; n++) {
    const ph = mul(th, tl, rh, rl);
    th = div(ph, lo, n, 0);
    tl = lo;
    sumh = add(sumh, suml, th, tl);
    suml = lo;
    if (Math.abs(th) <= 1e-36 * Math.abs(sumh)) break;
  }
  return (sumh + suml) * 2 ** k;
}
