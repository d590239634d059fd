// A one-off check, outside `npm test` (it takes a minute): src/c/math.ts's table-driven log and
// log2 against the slow double-double series they replaced (logSlow, log2Slow), on N seeded random
// inputs (default 10 million) of four kinds:
//   - 40% doubles over the whole positive normal range (exponent and mantissa uniform);
//   - 30% uniform in (0, 1);
//   - 20% values like average precisions: i/j and means of a few such ratios (j <= 1000);
//   - 10% near 1: 1 + d, |d| < 2^-e for e uniform in 1..60.
// Prints how many results differ (each one, up to 20) and exits 1 if any does. The two round the same
// ~106-bit values, so only a near-tie (the true log within ~2^-102 relative of a rounding boundary)
// could differ.
//   npm run build && node scripts/compare-cmath-log.mjs [N] [SEED]
import { log, log2, log2Slow, logSlow } from "../dist/c/math.js";

const n = Number(process.argv[2] ?? 10_000_000);
// xorshift32 seeded by SEED (a nonzero 32-bit integer): the same inputs each run.
let s32 = Number(process.argv[3] ?? 0x2545f491) | 0;
if (!Number.isInteger(n) || n < 1 || s32 === 0) {
  console.error("usage: node scripts/compare-cmath-log.mjs [N] [SEED]");
  process.exit(1);
}
const next = () => {
  s32 ^= s32 << 13;
  s32 ^= s32 >>> 17;
  s32 ^= s32 << 5;
  return (s32 >>> 0) / 2 ** 32;
};
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
/** A double with a uniform biased exponent in 1..2046 and a uniform mantissa: every positive normal. */
const anyNormal = () => {
  words[1 - HIGH] = (next() * 2 ** 32) >>> 0;
  words[HIGH] = ((1 + Math.floor(next() * 2046)) << 20) | ((next() * 2 ** 20) >>> 0);
  return bits[0];
};
const ratio = () => {
  const j = 1 + Math.floor(next() * 1000);
  return (1 + Math.floor(next() * j)) / j;
};
const apLike = () => {
  const count = 1 + Math.floor(next() * 5);
  let sum = 0;
  for (let i = 0; i < count; i++) sum += ratio();
  return count === 1 ? sum : sum / (count + Math.floor(next() * 10));
};
const nearOne = () => 1 + (next() - 0.5) * 2 ** -Math.floor(next() * 60);

const started = Date.now();
const differ = [];
let compared = 0;
for (let i = 0; i < n; i++) {
  const u = next();
  const x = u < 0.4 ? anyNormal() : u < 0.7 ? next() : u < 0.9 ? apLike() : nearOne();
  if (!(x > 0)) continue; // next() may give 0: not a log's input here
  compared++;
  if (!Object.is(log(x), logSlow(x))) differ.push(`log(${x}): ${log(x)}, slow ${logSlow(x)}`);
  if (!Object.is(log2(x), log2Slow(x))) differ.push(`log2(${x}): ${log2(x)}, slow ${log2Slow(x)}`);
}
console.log(
  `${compared} inputs: ${differ.length} results differ (log and log2) (${((Date.now() - started) / 1000).toFixed(1)} s)`,
);
for (const d of differ.slice(0, 20)) console.log(`  ${d}`);
process.exit(differ.length === 0 ? 0 : 1);
