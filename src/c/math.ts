/**
 * log and exp correctly rounded, as glibc's (within 0.52 ulp). V8's Math.log is off in the last bit
 * for ~7% of inputs, visible where trec_eval's sums cancel (yaap: log(3) + log(1/3) is 0, not
 * "-0.0000"). Double-double, rounded once; the high part returned, the low in `lo` (no allocation).
 * Browser-safe.
 */

/** The last operation's low part. */
let lo = 0;

/** Knuth's two-sum. */
function twoSum(a: number, b: number): number {
  const s = a + b;
  const v = s - a;
  lo = a - (s - v) + (b - v);
  return s;
}

/** two-sum where |a| >= |b|. */
function quickTwoSum(a: number, b: number): number {
  const s = a + b;
  lo = b - (s - a);
  return s;
}

const SPLITTER = 134217729; // 2^27 + 1

/** (ah, al) + (bh, bl). */
function add(ah: number, al: number, bh: number, bl: number): number {
  const s = twoSum(ah, bh);
  const e1 = lo;
  const t = twoSum(al, bl);
  const f = lo;
  const s2 = quickTwoSum(s, e1 + t);
  return quickTwoSum(s2, lo + f);
}

/** add, inlined (logDD's hot path). */
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

/** (ah, al) * (bh, bl): Dekker's two-product, then the cross terms. */
function mul(ah: number, al: number, bh: number, bl: number): number {
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

/** (ah, al) / (bh, bl). */
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

/** log(x) for a positive normal x by atanh's series (~49 terms): the reference, and logDD's table. */
function logDDSlow(x: number): number {
  // x = m 2^k, m in [sqrt(1/2), sqrt(2)); Math.log2 just under 2^1024 rounds to 1024: k <= 1023.
  let k = Math.min(Math.floor(Math.log2(x)), 1023);
  let m = x / 2 ** k;
  if (m < Math.SQRT1_2) {
    m *= 2;
    k--;
  } else if (m >= Math.SQRT2) {
    m /= 2;
    k++;
  }
  // log(m) = 2 atanh(s), s = (m - 1) / (m + 1): m - 1 exact (Sterbenz), m + 1 double-double.
  const dh = twoSum(m, 1);
  const sh = div(m - 1, 0, dh, lo);
  const sl = lo;
  const s2h = mul(sh, sl, sh, sl);
  const s2l = lo;
  let ph = sh;
  let pl = sl;
  let sumh = sh;
  let suml = sl;
  // mul, div, add inlined (the calls were most of the time).
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

/** 1/3 and 1/5 in double-double (multiplied, not divided by). */
const THIRD_HI = 0.3333333333333333;
const THIRD_LO = 1.850371707708594e-17;
const FIFTH_HI = 0.2;
const FIFTH_LO = -1.1102230246251566e-17;

/** logDD's grid c = 1 + j/256; log(c) made by logDDSlow on first use (< 1 ms) rather than 364 literals. */
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

const exponentBits = new Float64Array(1);
const exponentWords = new Uint32Array(exponentBits.buffer);
const HIGH_WORD = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/**
 * logDDSlow's bits in a tenth of its time (tests, scripts/compare-cmath-log.mjs): k ln 2 + log(c) +
 * 2 atanh(s), c on the grid, s = (m - c) / (m + c), |s| < 2^-9.5, to s^13/13 (past 2^-98 of s).
 */
function logDD(x: number): number {
  if (logGridHi === undefined) makeLogGrid();
  // x = m 2^k from the bits, m in [sqrt(1/2), sqrt(2)).
  exponentBits[0] = x;
  const high = exponentWords[HIGH_WORD];
  let k = (high >>> 20) - 1023;
  exponentWords[HIGH_WORD] = (high & 0x000fffff) | 0x3ff00000;
  let m = exponentBits[0];
  if (m >= Math.SQRT2) {
    m *= 0.5;
    k++;
  }
  // m - c exact (Sterbenz), m + c double-double.
  const j = Math.round((m - 1) * GRID);
  const c = 1 + j / GRID;
  const d = m - c;
  const ah = m + c;
  const v = ah - m;
  const al = m - (ah - v) + (c - v);
  // s = d / (ah + al) = q1 + q2, q2 from the exact remainder (Dekker, Sterbenz); error ~2^-105.
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
  // s^2
  t = SPLITTER * sh;
  xh = t - (t - sh);
  xl = sh - xh;
  p = sh * sh;
  e = xh * xh - p + 2 * xh * xl + xl * xl;
  const s2h = p + (e + 2 * sh * sl);
  const s2l = e + 2 * sh * sl - (s2h - p);
  // 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + s^7 (1/7 + s^2/9 + ...)): to s^5 in double-double (s^5/5 is
  // 2^-40 of s), from s^7/7 (2^-59) doubles suffice.
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

/** Others go to Math's functions. */
const positiveNormal = (x: number) => x >= 2.2250738585072014e-308 && x < Infinity;

/** A direct-mapped memo: the same values come back often (log2(rank + 1)). */
const SLOTS = 1024;
const bits = new Float64Array(1);
const words = new Int32Array(bits.buffer);

class Memo {
  private readonly keys = new Float64Array(SLOTS).fill(NaN);
  private readonly values = new Float64Array(SLOTS);

  constructor(private readonly f: (x: number) => number) {}

  /** f(x), x never NaN (an empty slot). */
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

/** `log` by logDDSlow, no memo: the tests' reference. */
export function logSlow(x: number): number {
  if (!positiveNormal(x)) return Math.log(x);
  return logDDSlow(x) + lo;
}

/** `log2` by logDDSlow, no memo: the tests' reference. */
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

/** log2, correctly rounded (Math.log2 differs from glibc's from 1375 on: trec_eval's discounts). */
export function log2(x: number): number {
  if (!positiveNormal(x)) return Math.log2(x);
  const k = Math.log2(x);
  if (Number.isInteger(k) && 2 ** k === x) return k;
  return log2s.get(x);
}

/** e^x, correctly rounded (as `log`), for |x| < 700; Math.exp's beyond (overflow, subnormals). */
export function exp(x: number): number {
  if (!(Math.abs(x) < 700)) return Math.exp(x);
  // x = k ln2 + r; e^r by its series.
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
