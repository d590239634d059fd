/**
 * trec_eval's printf formats, reproduced byte for byte (meas_print_single.c, meas_print_final.c):
 *
 *   float measures   printf("%-22s\t%s\t%6.4f\n", name, qid, value)
 *   long measures    printf("%-22s\t%s\t%ld\n",   name, qid, (long) value)
 *   runid            printf("%-22s\t%s\t%s\n",    name, "all", run_tag)
 *   relstring        printf("%-22s\t%s\t'%s'\n",  name, qid, string)
 *
 * `%6.4f` is glibc's: the exact decimal value of the binary double rounded to 4 places, an exact
 * tie going to the even digit (the default rounding mode), right-aligned in 6 columns. Every other
 * output prints its numbers by the same arithmetic (`fixed`, `signed`), so a mean has one spelling
 * wherever it is shown. Browser-safe: no Node built-ins.
 */

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The sign bit of x, which `x < 0` does not see for -0 and NaN. */
export function signBit(x: number): boolean {
  f64[0] = x;
  return u32[LITTLE ? 1 : 0] >>> 31 === 1;
}

/** x = mantissa · 2^exponent exactly, mantissa a non-negative integer (x finite, sign dropped). */
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

/** glibc's spelling of a non-finite value: "nan", "-nan", "inf", "-inf". */
function nonFinite(x: number): string {
  if (Number.isNaN(x)) return signBit(x) ? "-nan" : "nan";
  return x > 0 ? "inf" : "-inf";
}

/**
 * `%W.Df` by exact arithmetic: the double's full decimal expansion (every double is a dyadic rational,
 * so m·2^-s = m·5^s / 10^s), rounded half-to-even at D places. Slow for tiny magnitudes (5^1074) but
 * exact everywhere; the reference for `formatFixed`.
 */
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
 * `%W.Df` as glibc prints it. toFixed sends an exact tie away from zero (glibc: to even), drops -0's
 * sign and uses exponents from 1e21: ties (x an odd multiple of 2^-(D+1)), -0 and |x| >= 1e21 take
 * the exact path, everything else toFixed.
 */
export function formatFixed(x: number, digits: number, width = 0): string {
  if (!Number.isFinite(x)) return nonFinite(x).padStart(width);
  if (digits > 20 || x === 0 || Math.abs(x) >= 1e21) return formatFixedExact(x, digits, width);
  const shifted = x * 2 ** (digits + 1); // exact: a power-of-two scaling of a number < 1e21
  if (Number.isInteger(shifted) && Math.abs(shifted % 2) === 1) return formatFixedExact(x, digits, width);
  return x.toFixed(digits).padStart(width);
}

/** `%6.4f`, the value column of every floating-point measure. */
export function formatFixed4(x: number): string {
  return formatFixed(x, 4, 6);
}

/**
 * `%W.Df` of a value trec_eval or ndeval computed: their NaN comes from 0/0, x86's default NaN, whose
 * sign bit is set, so glibc prints "-nan". rankeval's NaN may have either sign (WebAssembly and
 * JavaScript do not fix it): every trec_eval-format output spells it here.
 */
export function formatTrecFixed(x: number, digits: number, width = 0): string {
  return Number.isNaN(x) ? "-nan".padStart(width) : formatFixed(x, digits, width);
}

/**
 * A measure's value, a mean, a difference, an interval bound or an effect size as every readable
 * output prints it (tables, comparisons, the report, the page): `%.Df` of the exact double, the
 * evaluation's own digits (0.28125 is "0.2812" everywhere, where toFixed says "0.2813"); NaN as
 * "NaN", the infinities as glibc's "inf" and "-inf".
 */
export function fixed(x: number, digits = 4): string {
  return Number.isNaN(x) ? "NaN" : formatFixed(x, digits);
}

/** `fixed` with a "+" before a positive finite value: a difference, a relative change. */
export function signed(x: number, digits = 4): string {
  const text = fixed(x, digits);
  return x > 0 && Number.isFinite(x) ? `+${text}` : text;
}

const LONG_MIN = "-9223372036854775808";

/**
 * `%ld` of `(long) x`: truncation toward zero. A value outside the range of a 64-bit long (or NaN)
 * is undefined behaviour in C; x86-64's cvttsd2si gives LONG_MIN, which is what trec_eval prints there.
 */
export function formatLong(x: number): string {
  if (Number.isNaN(x) || x >= 2 ** 63 || x < -(2 ** 63)) return LONG_MIN;
  const t = Math.trunc(x);
  return Number.isSafeInteger(t) ? String(t === 0 ? 0 : t) : BigInt(t).toString();
}

/** `%-22s`. */
export function padName(name: string): string {
  return name.padEnd(22);
}

export type TrecPrint = "float" | "long" | "string" | "quoted";

/** One output line, newline included, as trec_eval prints it. */
export function formatLine(name: string, qid: string, value: number | string, print: TrecPrint): string {
  const text =
    print === "float"
      ? formatTrecFixed(value as number, 4, 6)
      : print === "long"
        ? formatLong(value as number)
        : print === "quoted"
          ? `'${value}'`
          : String(value);
  return `${padName(name)}\t${qid}\t${text}\n`;
}
