/** glibc's strcmp order (on UTF-8 bytes), atol (on bytes and on strings, one meaning) and atof. Browser-safe. */

const utf8 = new TextEncoder();
const SURROGATE = /[\uD800-\uDFFF]/;

/** Whether qids are already in strcmp order (as joined runs give them). */
export function inByteOrder(qids: readonly string[]): boolean {
  // Code unit order is byte order but for surrogates: each id is looked at once (evaluateRun asks per call).
  if (qids.length > 0 && hasSurrogate(qids[0])) return false;
  for (let i = 1; i < qids.length; i++) {
    const b = qids[i];
    if (qids[i - 1] > b || hasSurrogate(b)) return false;
  }
  return true;
}

/** SURROGATE.test(s) without the regular expression: most ids are a few characters, and a loop is cheaper. */
function hasSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return true;
  }
  return false;
}

/** strcmp on the UTF-8 bytes: negative, 0 or positive. */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** Query ids in strcmp order ("10" < "100" < "9"). A new array. */
export function sortQids(qids: readonly string[]): string[] {
  return sortedOrder(qids).map((i) => qids[i]);
}

/** The indices of qids in byte order (stable). */
export function sortedOrder(qids: readonly string[]): number[] {
  const idx = qids.map((_, i) => i);
  if (inByteOrder(qids)) return idx;
  // Without surrogates, UTF-16 order is byte order: several times faster than by bytes.
  if (!qids.some((q) => SURROGATE.test(q))) {
    idx.sort((i, j) => {
      const a = qids[i];
      const b = qids[j];
      return a < b ? -1 : a > b ? 1 : i - j;
    });
    return idx;
  }
  // Pre-encode once: sorting with compareBytes would encode O(n log n) times.
  const keys = qids.map((q) => utf8.encode(q));
  idx.sort((i, j) => {
    const x = keys[i];
    const y = keys[j];
    const n = Math.min(x.length, y.length);
    for (let k = 0; k < n; k++) if (x[k] !== y[k]) return x[k] - y[k];
    return x.length - y.length || i - j;
  });
  return idx;
}

/** C's atol (strtol, clamped to a long as glibc does): the leading integer, 0 if none. */
export function atol(s: string): bigint {
  const m = /^[\t\n\v\f\r ]*([+-]?\d+)/.exec(s);
  if (!m) return 0n;
  const v = BigInt(m[1]);
  const max = 9223372036854775807n;
  return v > max ? max : v < -max - 1n ? -max - 1n : v;
}

/** Number(atol) of buf[start, end). */
export function atolBytes(buf: Uint8Array, start: number, end: number): number {
  let p = start;
  while (p < end && (buf[p] === 32 || (buf[p] >= 9 && buf[p] <= 13))) p++;
  const neg = p < end && buf[p] === 45;
  if (neg || (p < end && buf[p] === 43)) p++;
  let v = 0;
  let digits = 0;
  for (; p < end && buf[p] >= 48 && buf[p] <= 57; p++, digits++) v = v * 10 + (buf[p] - 48);
  // Past 15 digits, the exact long.
  if (digits > 15) return Number(atol(String.fromCharCode(...buf.subarray(start, p))));
  return neg && v !== 0 ? -v : v;
}

/** C's atof: the longest leading number, 0 if none; "inf", "infinity", "nan" in any case; no hex floats (0). */
export function atof(s: string): number {
  const m = /^[\t\n\v\f\r ]*([+-]?)(?:(infinity|inf)|(nan)|((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?))/i.exec(s);
  if (!m) return 0;
  const sign = m[1] === "-" ? -1 : 1;
  if (m[2]) return sign * Infinity;
  if (m[3]) return NaN;
  return sign * Number(m[4]);
}
