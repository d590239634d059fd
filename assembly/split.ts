// Lines cut by query id among workers (src/pipeline/partition.ts): FNV-1a of the first field (queryHash)
// modulo the workers; consecutive lines of one id copied at once. Nothing here allocates.

import { sameBytes } from "./parse";

export const SPLIT_PAD: i32 = 32; // 32-byte loads run past the last line

const LF: u32 = 10;
const SPACE: u32 = 32;
const TAB: u32 = 9;

/** partition.ts's queryHash. */
// @ts-ignore: decorator
@inline function fnv(p: usize, len: i32): u32 {
  let h: u32 = 0x811c9dc5;
  for (let i = 0; i < len; i++) h = (h ^ <u32>load<u8>(p + <usize>i)) * 0x01000193;
  return h;
}

/**
 * Cuts [p, end) among `parts`: part k's lines go in order to out + the sizes before k. Runs of lines are
 * noted in starts/owners (i32), `capacity` at most, stopping at the one that does not fit. Writes
 * sizes[k], sizes[parts] = the last id'd line's part (-1: none), sizes[parts + 1] = where it stopped
 * (from p). `offsets`: i32[parts] scratch.
 */
export function splitLines(
  p: usize,
  end: usize,
  parts: u32,
  starts: usize,
  owners: usize,
  capacity: i32,
  sizes: usize,
  offsets: usize,
  out: usize,
): void {
  let count = 0;
  let pos = p;
  let idStart: usize = 0;
  let idLen = -1;
  let owner: i32 = 0;
  let last: i32 = -1;
  const lf = i8x16.splat(<i8>LF);
  const space = i8x16.splat(<i8>SPACE);
  while (pos < end) {
    let qs = pos;
    while (qs < end) {
      const c = <u32>load<u8>(qs);
      if (c != SPACE && c != TAB) break;
      qs++;
    }
    let qe = qs;
    let m = i8x16.bitmask(i8x16.le_u(v128.load(qe), space));
    while (m == 0) {
      qe += 16;
      m = i8x16.bitmask(i8x16.le_u(v128.load(qe), space));
    }
    qe += <usize>ctz<i32>(m);
    if (qe > end) qe = end;
    const len = <i32>(qe - qs);
    // A blank line goes with the lines before it.
    if (len > 0 && !(len == idLen && sameBytes(qs, idStart, len))) {
      const o = <i32>(fnv(qs, len) % parts);
      if (count == 0 || o != owner) {
        if (count == capacity) break;
        store<i32>(starts + (<usize>count << 2), <i32>(pos - p));
        store<i32>(owners + (<usize>count << 2), o);
        count++;
      }
      owner = o;
      idStart = qs;
      idLen = len;
    } else if (count == 0) {
      store<i32>(starts, <i32>(pos - p));
      store<i32>(owners, owner);
      count = 1;
    }
    if (len > 0) last = owner;
    // The '\n', 32 bytes at a time: most lines end within them.
    let q = qe;
    let w = <u32>i8x16.bitmask(i8x16.eq(v128.load(q), lf)) | (<u32>i8x16.bitmask(i8x16.eq(v128.load(q, 16), lf)) << 16);
    while (w == 0) {
      q += 32;
      if (q >= end) break;
      w = <u32>i8x16.bitmask(i8x16.eq(v128.load(q), lf)) | (<u32>i8x16.bitmask(i8x16.eq(v128.load(q, 16), lf)) << 16);
    }
    q = w == 0 ? end : q + <usize>ctz<u32>(w) + 1;
    pos = q > end ? end : q;
  }
  const stop = <i32>(pos - p);
  store<i32>(sizes + (<usize>parts << 2), last);
  store<i32>(sizes + (<usize>(parts + 1) << 2), stop);
  for (let k: u32 = 0; k < parts; k++) store<i32>(sizes + (<usize>k << 2), 0);
  for (let i = 0; i < count; i++) {
    const e = i + 1 < count ? load<i32>(starts + (<usize>(i + 1) << 2)) : stop;
    const at = sizes + (<usize>load<i32>(owners + (<usize>i << 2)) << 2);
    store<i32>(at, load<i32>(at) + e - load<i32>(starts + (<usize>i << 2)));
  }
  let sum = 0;
  for (let k: u32 = 0; k < parts; k++) {
    store<i32>(offsets + (<usize>k << 2), sum);
    sum += load<i32>(sizes + (<usize>k << 2));
  }
  for (let i = 0; i < count; i++) {
    const s = load<i32>(starts + (<usize>i << 2));
    const e = i + 1 < count ? load<i32>(starts + (<usize>(i + 1) << 2)) : stop;
    const at = offsets + (<usize>load<i32>(owners + (<usize>i << 2)) << 2);
    const dst = load<i32>(at);
    memory.copy(out + <usize>dst, p + <usize>s, <usize>(e - s));
    store<i32>(at, dst + e - s);
  }
}
