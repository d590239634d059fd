/** glibc's printf `%W.Df` (the exact double, ties to even), `%ld` of `(long) x`, non-finite spellings. Browser-safe. */

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The sign bit (`x < 0` misses -0 and NaN). */
export function signBit(x: number): boolean {
  f64[0] = x;
  return u32[LITTLE ? 1 : 0] >>> 31 === 1;
}

/** |x| = mantissa · 2^exponent exactly (x finite). */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  f64[0] = x;
  const hi = u32[LITTLE ? 1 : 0];
  const lo = u32[LITTLE ? 0 : 1];
  const biased = (hi >>> 20) & 0x7ff;
  const fracHi = hi & 0xfffff;
  let mantissa = (BigInt(fracHi) << 32n) | BigInt(lo);
  if (biased === 0) return { mantissa, exponent: -1074 }; // subnormal or zero
  mantissa |= 1n << 52n;
  return { mantissa, exponent: biased - 1075 };
}

/** "nan", "-nan", "inf", "-inf". */
function nonFinite(x: number): string {
  if (Number.isNaN(x)) return signBit(x) ? "-nan" : "nan";
  return x > 0 ? "inf" : "-inf";
}

/** `%W.Df` exactly (m·2^-s = m·5^s / 10^s), half to even; slow for tiny values (5^1074): the reference. */
export function formatFixedExact(x: number, digits: number, width = 0): string {
  if (!Number.isFinite(x)) return nonFinite(x).padStart(width);
  const negative = signBit(x);
  const { mantissa, exponent } = decompose(x);
  let scaled: bigint; // round(|x| · 10^digits), half to even
  const d = BigInt(digits);
  if (exponent >= 0) {
    scaled = (mantissa << BigInt(exponent)) * 10n ** d;
  } else {
    const s = -exponent; // |x| = mantissa · 5^s / 10^s
    const numerator = mantissa * 5n ** BigInt(s);
    if (s <= digits) {
      scaled = numerator * 10n ** BigInt(digits - s);
    } else {
      const div = 10n ** BigInt(s - digits);
      const q = numerator / div;
      const r = numerator % div;
      const twice = 2n * r;
      scaled = twice > div || (twice === div && (q & 1n) === 1n) ? q + 1n : q;
    }
  }
  let text = scaled.toString();
  if (digits > 0) {
    if (text.length <= digits) text = "0".repeat(digits - text.length + 1) + text;
    text = `${text.slice(0, text.length - digits)}.${text.slice(text.length - digits)}`;
  }
  return ((negative ? "-" : "") + text).padStart(width);
}

/**
 * `%W.Df` as glibc prints it. toFixed rounds ties away from zero, drops -0's sign and uses exponents
 * from 1e21: those (ties: odd multiples of 2^-(D+1)) take the exact path.
 */
export function formatFixed(x: number, digits: number, width = 0): string {
  if (!Number.isFinite(x)) return nonFinite(x).padStart(width);
  if (digits > 20 || x === 0 || Math.abs(x) >= 1e21) return formatFixedExact(x, digits, width);
  const shifted = x * 2 ** (digits + 1); // exact: a power-of-two scaling of a number < 1e21
  if (Number.isInteger(shifted) && Math.abs(shifted % 2) === 1) return formatFixedExact(x, digits, width);
  return x.toFixed(digits).padStart(width);
}

const LONG_MIN = "-9223372036854775808";

/** `%ld` of `(long) x`: out of range or NaN, x86-64's cvttsd2si gives LONG_MIN, as trec_eval prints. */
export function formatLong(x: number): string {
  if (Number.isNaN(x) || x >= 2 ** 63 || x < -(2 ** 63)) return LONG_MIN;
  const t = Math.trunc(x);
  return Number.isSafeInteger(t) ? String(t === 0 ? 0 : t) : BigInt(t).toString();
}
