// Fast path of the per-row parsers (src/io/run.ts, qrels.ts, letor.ts, scores.ts). The host copies whole
// lines (buf[end - 1] is '\n', PARSE_PAD readable bytes after end). A parser appends rows and stops, saying
// why in the state block, at a line it does not take (the host's slow path has the exact messages), a new
// query id, or a new stretch of lines (RowLines). Nothing here allocates. Fields: bitmasks of bytes <= ' '
// (unsigned: UTF-8 bytes are field bytes). Numbers: Clinger's fast path (digits < 2^53, |e| <= 22: one
// correctly rounded operation, as Number()).

export const PARSE_PAD: i32 = 64; // 16-byte loads run past a line's '\n'

// The state block's i32 fields.
export const ST_ROWS: i32 = 0; // rows so far (n)
export const ST_USED: i32 = 4; // pool bytes used
export const ST_LINE: i32 = 8; // 1-based line where it stopped
export const ST_SHIFT: i32 = 12; // line - row of the current stretch (RowLines)
export const ST_STOP: i32 = 16; // why the call stopped (STOP_*)
export const ST_QID_START: i32 = 20; // STOP_QID: the new id's buf[start, end)
export const ST_QID_END: i32 = 24;
export const ST_QID_ID: i32 = 28; // the current query id's number
export const ST_QID_LEN: i32 = 32; // -1: none yet
export const ST_TAG_START: i32 = 36; // last row's run tag (-1: none this call)
export const ST_TAG_END: i32 = 40;
export const ST_LETOR: i32 = 44; // LETOR_* bits
export const ST_QID_BYTES: i32 = 64; // its bytes, QID_MAX at most
const QID_MAX: i32 = 64;
export const PARSE_STATE_BYTES: i32 = ST_QID_BYTES + QID_MAX + 16;

export const STOP_END: i32 = 0; // every line parsed
const STOP_SLOW: i32 = 1; // the host parses the line
export const STOP_QID: i32 = 2; // the host interns the id, sets ST_QID_*
export const STOP_SHIFT: i32 = 3; // line - row != ST_SHIFT: a new stretch

const SPACE: u32 = 32;
const TAB: u32 = 9;
const LF: u32 = 10;
const CR: u32 = 13;
const HASH: u32 = 35;

// @ts-ignore: decorator
@inline function blank(c: u32): bool {
  return c == SPACE || c == TAB;
}

// @ts-ignore: decorator
@inline function fieldEnd(p: usize): usize {
  const space = i8x16.splat(32);
  let m = i8x16.bitmask(i8x16.le_u(v128.load(p), space));
  while (m == 0) {
    p += 16;
    m = i8x16.bitmask(i8x16.le_u(v128.load(p), space));
  }
  return p + <usize>ctz<i32>(m);
}

// @ts-ignore: decorator
@inline function skipBlanks(p: usize): usize {
  while (blank(load<u8>(p))) p++;
  return p;
}

/** [a, a + len) equals [b, b + len) (16 readable bytes past each). */
// @ts-ignore: decorator
@inline export function sameBytes(a: usize, b: usize, len: i32): bool {
  let i = 0;
  for (; i + 16 <= len; i += 16) {
    if (!i8x16.all_true(i8x16.eq(v128.load(a + <usize>i), v128.load(b + <usize>i)))) return false;
  }
  if (i == len) return true;
  const want = (1 << (len - i)) - 1;
  return (i8x16.bitmask(i8x16.eq(v128.load(a + <usize>i), v128.load(b + <usize>i))) & want) == want;
}

/** src/io/rows.ts rowHash; ids of up to 8 bytes: one masked load. */
// @ts-ignore: decorator
@inline export function rowHash(p: usize, len: i32): i32 {
  let h: u32 = <u32>len;
  if (len <= 8) {
    const x = load<u64>(p) & (~(<u64>0) >> (<u64>(64 - (len << 3))));
    h = (h ^ <u32>x) * 0x9e3779b1;
    if (len > 4) h = (h ^ <u32>(x >> 32)) * 0x9e3779b1;
  } else {
    let i = 0;
    for (; i + 4 <= len; i += 4) h = (h ^ load<u32>(p + <usize>i)) * 0x9e3779b1;
    if (i < len) h = (h ^ (load<u32>(p + <usize>i) & (0xffffffff >> (<u32>(4 - (len - i)) << 3)))) * 0x9e3779b1;
  }
  return <i32>(h ^ (h >>> 16));
}

// @ts-ignore: decorator
@inline function copyId(dst: usize, src: usize, len: i32): void {
  let i = 0;
  do {
    v128.store(dst + <usize>i, v128.load(src + <usize>i));
    i += 16;
  } while (i < len);
}

// @ts-ignore: decorator
@inline function sameQid(st: usize, p: usize, len: i32): bool {
  return sameBytes(p, st + <usize>ST_QID_BYTES, len);
}

// @ts-ignore: decorator
@inline function newQid(st: usize, start: usize, len: i32): i32 {
  if (len > QID_MAX) return STOP_SLOW;
  store<i32>(st + ST_QID_START, <i32>start);
  store<i32>(st + ST_QID_END, <i32>(start + <usize>len));
  return STOP_QID;
}

/** The '\n' of a line end at q, or 0. */
// @ts-ignore: decorator
@inline function lineEndAt(q: usize): usize {
  const c = <u32>load<u8>(q);
  if (c == LF) return q;
  return c == CR && <u32>load<u8>(q + 1) == LF ? q + 1 : 0;
}

// @ts-ignore: decorator
@inline function appendId(n: i32, used: i32, p: usize, len: i32, offsets: usize, hashes: usize, pool: usize): i32 {
  copyId(pool + <usize>used, p, len);
  store<i32>(hashes + (<usize>n << 2), rowHash(p, len));
  used += len;
  store<i32>(offsets + (<usize>(n + 1) << 2), used);
  return used;
}

// @ts-ignore: decorator
@inline function saveState(st: usize, p: usize, end: usize, n: i32, used: i32, line: i32, stop: i32): void {
  store<i32>(st + ST_ROWS, n);
  store<i32>(st + ST_USED, used);
  store<i32>(st + ST_LINE, line);
  store<i32>(st + ST_STOP, p >= end ? STOP_END : stop);
}

/** Bits of the bytes <= ' ' among 64 (32, upper bits set) at p. */
// @ts-ignore: decorator
@inline function blanks64(p: usize): u64 {
  const sp = i8x16.splat(32);
  const a = <u64><u32>i8x16.bitmask(i8x16.le_u(v128.load(p), sp));
  const b = <u64><u32>i8x16.bitmask(i8x16.le_u(v128.load(p, 16), sp));
  const c = <u64><u32>i8x16.bitmask(i8x16.le_u(v128.load(p, 32), sp));
  const d = <u64><u32>i8x16.bitmask(i8x16.le_u(v128.load(p, 48), sp));
  return a | (b << 16) | (c << 32) | (d << 48);
}
// @ts-ignore: decorator
@inline function blanks32(p: usize): u64 {
  const sp = i8x16.splat(32);
  const a = <u64><u32>i8x16.bitmask(i8x16.le_u(v128.load(p), sp));
  const b = <u64><u32>i8x16.bitmask(i8x16.le_u(v128.load(p, 16), sp));
  return a | (b << 16) | 0xffffffff00000000;
}

/** Bits of the bytes < ' ' but tabs among 64 (32) at p; the first ends the line. */
// @ts-ignore: decorator
@inline function ends64(p: usize): u64 {
  return ends32(p) | (ends32(p + 32) << 32);
}
// @ts-ignore: decorator
@inline function ends32(p: usize): u64 {
  const sp = i8x16.splat(32);
  const tab = i8x16.splat(9);
  let v = v128.load(p);
  const a = <u64><u32>i8x16.bitmask(v128.andnot(i8x16.lt_u(v, sp), i8x16.eq(v, tab)));
  v = v128.load(p, 16);
  const b = <u64><u32>i8x16.bitmask(v128.andnot(i8x16.lt_u(v, sp), i8x16.eq(v, tab)));
  return a | (b << 16);
}

const POW10: StaticArray<f64> = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];
const TWO53: u64 = 9007199254740992;

let numberEnd: usize = 0;

/** `[+-]?digits[.digits]([eE][+-]?digits)?` at p, else NaN; ends at numberEnd. */
// @ts-ignore: decorator
@inline function number(p: usize): f64 {
  let c = <u32>load<u8>(p);
  const neg = c == 45;
  if (neg || c == 43) c = <u32>load<u8>(++p);
  let m: u64 = 0;
  let digits = 0;
  let d = c - 48;
  while (d <= 9) {
    m = m * 10 + <u64>d;
    digits++;
    d = <u32>load<u8>(++p) - 48;
  }
  let exp = 0;
  if (d == <u32>-2) {
    // '.' (46 - 48)
    d = <u32>load<u8>(++p) - 48;
    while (d <= 9) {
      m = m * 10 + <u64>d;
      digits++;
      exp--;
      d = <u32>load<u8>(++p) - 48;
    }
  }
  if ((d | 32) == 101 - 48) {
    // 'e' or 'E': [+-]?digits
    c = <u32>load<u8>(++p);
    const expNeg = c == 45;
    if (expNeg || c == 43) c = <u32>load<u8>(++p);
    let e = 0;
    let eDigits = 0;
    d = c - 48;
    while (d <= 9) {
      if (e < 100000) e = e * 10 + <i32>d;
      eDigits++;
      d = <u32>load<u8>(++p) - 48;
    }
    if (eDigits == 0) return NaN;
    exp += expNeg ? -e : e;
  }
  numberEnd = p;
  if (digits == 0 || digits > 19) return NaN;
  let v: f64;
  if (m == 0) v = 0;
  else if (m < TWO53 && exp >= -22 && exp <= 22) v = exp < 0 ? <f64>m / unchecked(POW10[-exp]) : <f64>m * unchecked(POW10[exp]);
  else return NaN;
  return neg ? -v : v;
}

const FIELDS = 8;
// Static data: `new` would allocate at the host's heap base.
const fieldStarts: StaticArray<i32> = [0, 0, 0, 0, 0, 0, 0, 0];
const fieldEnds: StaticArray<i32> = [0, 0, 0, 0, 0, 0, 0, 0];
let lineEnd: i32 = 0;

// @ts-ignore: decorator
@inline function lineEnds(p: usize): bool {
  const c = <u32>load<u8>(p);
  return c == LF || (c == CR && <u32>load<u8>(p + 1) == LF);
}

/** A 64+ byte line to fieldStarts/Ends, lineEnd; returns min(fields, max + 1), or -1 for a control byte. */
function splitLong(p: usize, max: i32): i32 {
  let at = p;
  let n = 0;
  let c: u32;
  do {
    const e = fieldEnd(at);
    if (n < FIELDS) {
      unchecked(fieldStarts[n] = <i32>(at - p));
      unchecked(fieldEnds[n] = <i32>(e - p));
    }
    n++;
    at = skipBlanks(e);
    c = <u32>load<u8>(at);
  } while (c > SPACE);
  if (!lineEnds(at)) return -1;
  lineEnd = <i32>(at - p);
  return n > max ? max + 1 : n;
}

// Run and qrels lines (blank and comment lines are the host's); the first byte < ' ' but a tab must
// be "\n" or "\r\n". Under 64 bytes, `starts`/`ends` hold a bit per field, taken lowest first. `run` is
// a constant: each parser inlines its own loop.
// @ts-ignore: decorator
@inline function trecRows(
  run: bool, st: usize, p: usize, end: usize, qid: usize, value: usize, offsets: usize, hashes: usize, pool: usize,
): usize {
  const fields = run ? 6 : 4;
  let n = load<i32>(st + ST_ROWS);
  let used = load<i32>(st + ST_USED);
  let line = load<i32>(st + ST_LINE);
  const shift = load<i32>(st + ST_SHIFT);
  const qidId = load<i32>(st + ST_QID_ID);
  const qidLen = load<i32>(st + ST_QID_LEN);
  let tagStart: usize = -1;
  let tagEnd: usize = -1;
  let stop = STOP_SLOW;
  while (p < end) {
    const c = <u32>load<u8>(p);
    if (c <= SPACE || c == HASH) break;
    let L: i32;
    let b: u64 = 0;
    if (run) {
      L = <i32>ctz<u64>(ends64(p));
      if (L < 64) b = blanks64(p);
    } else {
      L = <i32>ctz<u64>(ends32(p));
      if (L < 32) b = blanks32(p);
      else {
        L = <i32>ctz<u64>(ends64(p));
        if (L < 64) b = blanks64(p);
      }
    }
    // Ends of the qid; [start, end) of docid, value, tag.
    let e0: i32, ds: i32, de: i32, vs: i32, ve: i32;
    let ts = 0;
    let te = 0;
    if (L < 64) {
      const f = ~b & ((<u64>1 << <u64>L) - 1);
      let starts = f & ~(f << 1);
      let ends = f & ~(f >> 1);
      if (popcnt<u64>(starts) != fields) break;
      e0 = <i32>ctz<u64>(ends) + 1;
      ends &= ends - 1;
      starts &= starts - 1;
      ends &= ends - 1; // iter
      starts &= starts - 1;
      ds = <i32>ctz<u64>(starts);
      starts &= starts - 1;
      de = <i32>ctz<u64>(ends) + 1;
      ends &= ends - 1;
      if (run) {
        ends &= ends - 1; // rank
        starts &= starts - 1;
      }
      vs = <i32>ctz<u64>(starts);
      ve = <i32>ctz<u64>(ends) + 1;
      if (run) {
        starts &= starts - 1;
        ends &= ends - 1;
        ts = <i32>ctz<u64>(starts);
        te = <i32>ctz<u64>(ends) + 1;
      }
    } else {
      if (splitLong(p, fields) != fields) break;
      L = lineEnd;
      e0 = unchecked(fieldEnds[0]);
      ds = unchecked(fieldStarts[2]);
      de = unchecked(fieldEnds[2]);
      vs = unchecked(fieldStarts[fields - 2]);
      ve = unchecked(fieldEnds[fields - 2]);
      if (run) {
        ts = unchecked(fieldStarts[5]);
        te = unchecked(fieldEnds[5]);
      }
    }
    if (e0 != qidLen || !sameQid(st, p, qidLen)) {
      stop = newQid(st, p, e0);
      break;
    }
    let v: f64;
    if (run) {
      v = number(p + <usize>vs);
      if (v != v || numberEnd != p + <usize>ve) break;
    } else {
      let r = p + <usize>vs;
      const relEnd = p + <usize>ve;
      const sign = <u32>load<u8>(r);
      const neg = sign == 45;
      if (neg || sign == 43) r++;
      const digits = <i32>(relEnd - r);
      let rel: i64 = 0;
      let bad = digits == 0 || digits > 15;
      for (; r < relEnd; r++) {
        const d = <u32>load<u8>(r) - 48;
        bad |= d > 9;
        rel = rel * 10 + <i64>d;
      }
      if (bad) break;
      v = neg ? -<f64>rel : <f64>rel;
    }
    // Checked last: the bitmasks need not wait for this branch.
    const next = lineEndAt(p + <usize>L);
    if (next == 0) break;
    if (line - n != shift) {
      stop = STOP_SHIFT;
      break;
    }
    used = appendId(n, used, p + <usize>ds, de - ds, offsets, hashes, pool);
    store<f64>(value + (<usize>n << 3), v);
    store<i32>(qid + (<usize>n << 2), qidId);
    n++;
    line++;
    if (run) {
      tagStart = p + <usize>ts;
      tagEnd = p + <usize>te;
    }
    p = next + 1;
  }
  saveState(st, p, end, n, used, line, stop);
  if (run) {
    store<i32>(st + ST_TAG_START, <i32>tagStart);
    store<i32>(st + ST_TAG_END, <i32>tagEnd);
  }
  return p;
}

/** `qid iter docno rank sim run_id` (get_trec_results.c). */
export function parseRunRows(
  st: usize, p: usize, end: usize, qid: usize, value: usize, offsets: usize, hashes: usize, pool: usize,
): usize {
  return trecRows(true, st, p, end, qid, value, offsets, hashes, pool);
}

/** `qid iter docno rel` (get_qrels.c); labels of up to 15 digits (others: the host's atol). */
export function parseQrelsRows(
  st: usize, p: usize, end: usize, qid: usize, value: usize, offsets: usize, hashes: usize, pool: usize,
): usize {
  return trecRows(false, st, p, end, qid, value, offsets, hashes, pool);
}

/** src/io/rows.ts QuerySpans: each run of equal qids' id and first row; returns the count. */
export function querySpans(qid: usize, n: i32, ids: usize, starts: usize): i32 {
  let k = 0;
  let prev: i32 = 0;
  for (let i = 0; i < n; i++) {
    const q = load<i32>(qid + (<usize>i << 2));
    if (i == 0 || q != prev) {
      store<i32>(ids + (<usize>k << 2), q);
      store<i32>(starts + (<usize>k << 2), i);
      k++;
      prev = q;
    }
  }
  return k;
}

// ST_LETOR: first line read, `qid:`, `# docid = X`.
export const LETOR_KNOWN: i32 = 1;
export const LETOR_QID: i32 = 2;
export const LETOR_DOCID: i32 = 4;

const COLON: u32 = 58;
const QID_COLON: u32 = 0x3a646971; // "qid:" as a little-endian word
const DOCI: u32 = 0x69636f64; // "doci"

// @ts-ignore: decorator
@inline function digit(c: u32): bool {
  return c - 48 <= 9;
}

/** End of `[-+]?digits[.digits]` at p, or 0. */
// @ts-ignore: decorator
@inline function plainValue(p: usize): usize {
  let c = <u32>load<u8>(p);
  if (c == 45 || c == 43) c = <u32>load<u8>(++p);
  const start = p;
  while (digit(c)) c = <u32>load<u8>(++p);
  if (p == start) return 0;
  if (c == 46) {
    c = <u32>load<u8>(++p);
    const frac = p;
    while (digit(c)) c = <u32>load<u8>(++p);
    if (p == frac) return 0;
  }
  return p;
}

/** `rel qid:Q f:v ... # docid = X` (src/io/letor.ts), parts per ST_LETOR; plain decimals. No per-row qid or hash. */
export function parseLetorRows(st: usize, p: usize, end: usize, qid: usize, value: usize, offsets: usize, hashes: usize, pool: usize): usize {
  let n = load<i32>(st + ST_ROWS);
  let used = load<i32>(st + ST_USED);
  let line = load<i32>(st + ST_LINE);
  const shift = load<i32>(st + ST_SHIFT);
  const qidLen = load<i32>(st + ST_QID_LEN);
  const modes = load<i32>(st + ST_LETOR);
  const hasQid = (modes & LETOR_QID) != 0;
  const hasDoc = (modes & LETOR_DOCID) != 0;
  let stop = STOP_SLOW;
  // The host reads the first line: it sets the optional fields.
  while (p < end && (modes & LETOR_KNOWN) != 0) {
    let c = <u32>load<u8>(p);
    if (c <= SPACE || c == HASH) break;
    const label = number(p);
    let q = numberEnd;
    if (label != label || !blank(load<u8>(q))) break;
    q = skipBlanks(q);
    if (hasQid) {
      if (load<u32>(q) != QID_COLON) break;
      const qs = q + 4;
      const qe = fieldEnd(qs);
      const len = <i32>(qe - qs);
      if (len == 0 || !blank(load<u8>(qe))) break;
      // '#' in an id: the host's.
      let hashIn = false;
      for (let i: usize = qs; i < qe; i++) hashIn |= <u32>load<u8>(i) == HASH;
      if (hashIn) break;
      if (len != qidLen || !sameQid(st, qs, qidLen)) {
        stop = newQid(st, qs, len);
        break;
      }
      q = skipBlanks(qe);
    } else if (load<u32>(q) == QID_COLON) break;
    c = <u32>load<u8>(q);
    let ok = true;
    while (c > SPACE && c != HASH) {
      const index = q;
      while (digit(c)) c = <u32>load<u8>(++q);
      const e = q > index && c == COLON ? plainValue(q + 1) : 0;
      if (e == 0) {
        ok = false;
        break;
      }
      c = <u32>load<u8>(e);
      if (c > SPACE && c != HASH) {
        ok = false;
        break;
      }
      q = skipBlanks(e);
      c = <u32>load<u8>(q);
    }
    if (!ok) break;
    let docStart: usize = 0;
    let docLen = 0;
    if (c == HASH) {
      if (!hasDoc) break;
      let r = skipBlanks(q + 1);
      if (load<u32>(r) != DOCI || <u32>load<u8>(r + 4) != 100) break;
      r = skipBlanks(r + 5);
      if (<u32>load<u8>(r) != 61) break; // '='
      r = skipBlanks(r + 1);
      const de = fieldEnd(r);
      docStart = r;
      docLen = <i32>(de - r);
      if (docLen == 0) break;
      q = de;
      c = <u32>load<u8>(q);
      while (c >= SPACE || c == TAB) c = <u32>load<u8>(++q);
    } else if (hasDoc) break;
    q = lineEndAt(q);
    if (q == 0) break;
    if (line - n != shift) {
      stop = STOP_SHIFT;
      break;
    }
    if (hasDoc) copyId(pool + <usize>used, docStart, docLen);
    used += docLen;
    store<i32>(offsets + (<usize>(n + 1) << 2), used);
    store<f64>(value + (<usize>n << 3), label);
    n++;
    line++;
    p = q + 1;
  }
  saveState(st, p, end, n, used, line, stop);
  return p;
}

/** One number a line (src/io/scores.ts). */
export function parseScoreRows(st: usize, p: usize, end: usize, qid: usize, value: usize, offsets: usize, hashes: usize, pool: usize): usize {
  let n = load<i32>(st + ST_ROWS);
  let line = load<i32>(st + ST_LINE);
  let stop = STOP_SLOW;
  while (p < end) {
    const v = number(p);
    if (v != v) break;
    const q = lineEndAt(numberEnd);
    if (q == 0) break;
    store<f64>(value + (<usize>n << 3), v);
    n++;
    line++;
    p = q + 1;
  }
  saveState(st, p, end, n, load<i32>(st + ST_USED), line, stop);
  return p;
}

