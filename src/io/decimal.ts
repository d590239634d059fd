/**
 * Decimals read from bytes. Under 2^53 digits with a power of ten <= 22, one multiply or divide of exact
 * doubles is correctly rounded (Clinger, PLDI 1990), equal to Number(text) and strtod; others go through
 * Number(). Hex ("0x1p3", strtod's), "1,5" and trailing garbage ("0.1x", atof's 0.1) are rejected.
 */

/** POW10[i] = 10^i, exact, for i <= 22. */
const POW10 = new Float64Array(23);
for (let i = 0, p = 1; i < 23; i++, p *= 10) POW10[i] = p;
const TWO53 = 9007199254740992;

/** The finite decimal in buf[start, end), else NaN (numberProblem says why). */
export function parseFinite(buf: Uint8Array, start: number, end: number): number {
  let p = start;
  if (p >= end) return NaN;
  const sign = signOf(buf[p]);
  if (sign !== 0 && ++p >= end) return NaN;
  let m = 0;
  let digits = 0;
  let exp = 0;
  let d = 0;
  while (p < end && (d = buf[p] - 48) >= 0 && d <= 9) {
    m = m * 10 + d;
    digits++;
    p++;
  }
  if (p < end && buf[p] === 46) {
    p++;
    while (p < end && (d = buf[p] - 48) >= 0 && d <= 9) {
      m = m * 10 + d;
      digits++;
      exp--;
      p++;
    }
  }
  if (digits === 0) return NaN;
  if (p < end) {
    const c = buf[p];
    if ((c !== 101 && c !== 69) || ++p >= end) return NaN;
    const expSign = signOf(buf[p]);
    if (expSign !== 0 && ++p >= end) return NaN;
    let e = 0;
    let eDigits = 0;
    while (p < end && (d = buf[p] - 48) >= 0 && d <= 9) {
      if (e < 100000) e = e * 10 + d;
      eDigits++;
      p++;
    }
    if (eDigits === 0 || p !== end) return NaN;
    exp += expSign < 0 ? -e : e;
  }
  let v: number;
  if (m === 0) v = 0;
  else if (m < TWO53 && exp >= -22 && exp <= 22) v = exp < 0 ? m / POW10[-exp] : m * POW10[exp];
  else {
    // Rare (long mantissa, large exponent): a checked decimal, read by Number() as strtod does.
    v = Number(latin1(buf, start, end));
    return v === Infinity || v === -Infinity ? NaN : v;
  }
  return sign < 0 ? -v : v;
}

/** -1 for '-', 1 for '+', else 0. */
const signOf = (c: number) => (c === 45 ? -1 : c === 43 ? 1 : 0);

/** Why parseFinite rejected buf[start, end). */
export function numberProblem(buf: Uint8Array, start: number, end: number): string {
  const text = latin1(buf, start, end);
  if (/^[+-]?(inf|infinity|nan)$/i.test(text) || /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) {
    return "is not a finite number";
  }
  return "is not a number";
}

/** The bytes as Latin-1 (text known to be ASCII). */
function latin1(buf: Uint8Array, start: number, end: number) {
  let s = "";
  for (let i = start; i < end; i++) s += String.fromCharCode(buf[i]);
  return s;
}

/** The positive integer (1 .. 2^31-1) written as plain digits in buf[start, end), else -1. */
export function parsePositiveInt(buf: Uint8Array, start: number, end: number): number {
  if (start >= end || end - start > 10) return -1;
  let v = 0;
  for (let p = start; p < end; p++) {
    const d = buf[p] - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v >= 1 && v <= 0x7fffffff ? v : -1;
}
