// The inner loop of src/pipeline/join-rows.ts. Per query, an open-addressing table of judged ids:
// slot = (key, hash), key = judged row + 1, or -(run row + 1) once ranked, 0 empty; slot index: top bits
// of hash * 2^32/phi. Hash matches are confirmed by bytes. Run rows go into the same table, which finds
// a document ranked twice. Nothing here allocates.

import { rowHash, sameBytes } from "./parse";

/** Readable bytes past a pool's ids (16-byte compares). */
export const JOIN_PAD: i32 = 16;

/** Where joinQueries stopped on a duplicate: the row and its query's index. */
export const DUP_NONE: i32 = 0;
export const DUP_JUDGED: i32 = 1;
export const DUP_RUN: i32 = 2;
let dupRow: i32 = 0;
let dupQuery: i32 = 0;
export function duplicateRow(): i32 {
  return dupRow;
}
export function duplicateQuery(): i32 {
  return dupQuery;
}

// @ts-ignore: decorator
@inline function i32At(p: usize, i: i32): i32 {
  return load<i32>(p + (<usize>i << 2));
}

/** Clears a table of a power of two >= 16 and >= 2 rows slots; returns its bits. */
// @ts-ignore: decorator
@inline function clearTable(slots: usize, rows: i32): i32 {
  let bits = 4;
  while (1 << bits < 2 * rows) bits++;
  memory.fill(slots, 0, <usize>8 << bits);
  return bits;
}

// @ts-ignore: decorator
@inline function firstSlot(h: i32, bits: i32): u32 {
  return (<u32>h * 0x9e3779b1) >>> <u32>(32 - bits);
}

/** Puts row `key` - 1 (id at bytes[off[key - 1], off[key])): 0, or the key of an earlier row with its id. */
// @ts-ignore: decorator
@inline function putId(slots: usize, bits: i32, key: i32, h: i32, off: usize, bytes: usize): i32 {
  const a = i32At(off, key - 1);
  const len = i32At(off, key) - a;
  const mask = (1 << bits) - 1;
  let s = firstSlot(h, bits);
  for (;;) {
    const slot = slots + (<usize>s << 3);
    const k = load<i32>(slot);
    if (k == 0) {
      store<i32>(slot, key);
      store<i32>(slot, h, 4);
      return 0;
    }
    if (load<i32>(slot, 4) == h) {
      const b = i32At(off, k - 1);
      if (i32At(off, k) - b == len && sameBytes(bytes + <usize>a, bytes + <usize>b, len)) return k;
    }
    s = (s + 1) & mask;
  }
  return 0; // not reached
}

/**
 * Joins `nq` queries. Query k's judged rows: entries [q[4k], q[4k+1]) of jOrder, or those rows when
 * jOrder is 0; run rows likewise from q[4k+2], q[4k+3] and rOrder. Ids end at jOff/rOff (i32[rows + 1])
 * in jBytes/rBytes. Writes offsets and judgedOffsets (i32[nq + 1]), per ranked row scores, labels (NaN:
 * unjudged), docids (run row), and judged (f64, a query's judgments in order). slots: 8 bytes each, room
 * for the widest query's table. Returns DUP_NONE, or DUP_JUDGED / DUP_RUN (duplicateRow/Query say where).
 */
export function joinQueries(
  nq: i32, q: usize,
  jOrder: usize, jOff: usize, jBytes: usize, jHash: usize, jRel: usize,
  rOrder: usize, rOff: usize, rBytes: usize, rHash: usize, rScore: usize,
  slots: usize,
  offsets: usize, scores: usize, labels: usize, judgedOffsets: usize, judged: usize, docids: usize,
): i32 {
  let row = 0;
  let jrow = 0;
  store<i32>(offsets, 0);
  store<i32>(judgedOffsets, 0);
  for (let k = 0; k < nq; k++) {
    const j0 = i32At(q, 4 * k);
    const j1 = i32At(q, 4 * k + 1);
    const r0 = i32At(q, 4 * k + 2);
    const r1 = i32At(q, 4 * k + 3);
    const bits = clearTable(slots, j1 - j0 + r1 - r0);
    const mask = (1 << bits) - 1;

    for (let i = j0; i < j1; i++) {
      const jr = jOrder == 0 ? i : i32At(jOrder, i);
      if (putId(slots, bits, jr + 1, i32At(jHash, jr), jOff, jBytes) != 0) {
        dupRow = jr;
        dupQuery = k;
        return DUP_JUDGED;
      }
      store<f64>(judged + (<usize>jrow << 3), load<f64>(jRel + (<usize>jr << 3)));
      jrow++;
    }

    for (let i = r0; i < r1; i++) {
      const rr = rOrder == 0 ? i : i32At(rOrder, i);
      const h = i32At(rHash, rr);
      const a = i32At(rOff, rr);
      const len = i32At(rOff, rr + 1) - a;
      let s = firstSlot(h, bits);
      let label: f64 = NaN;
      let slot: usize;
      for (;;) {
        slot = slots + (<usize>s << 3);
        const key = load<i32>(slot);
        if (key == 0) {
          store<i32>(slot, h, 4);
          break;
        }
        if (load<i32>(slot, 4) == h) {
          if (key > 0) {
            // Judged: same id if same length and bytes.
            const b = i32At(jOff, key - 1);
            if (i32At(jOff, key) - b == len && sameBytes(rBytes + <usize>a, jBytes + <usize>b, len)) {
              label = load<f64>(jRel + (<usize>(key - 1) << 3));
              break;
            }
          } else {
            const b = i32At(rOff, -key - 1);
            if (i32At(rOff, -key) - b == len && sameBytes(rBytes + <usize>a, rBytes + <usize>b, len)) {
              dupRow = rr;
              dupQuery = k;
              return DUP_RUN;
            }
          }
        }
        s = (s + 1) & mask;
      }
      store<i32>(slot, -(rr + 1));
      store<f64>(scores + (<usize>row << 3), load<f64>(rScore + (<usize>rr << 3)));
      store<f64>(labels + (<usize>row << 3), label);
      store<i32>(docids + (<usize>row << 2), rr);
      row++;
    }
    store<i32>(offsets + (<usize>(k + 1) << 2), row);
    store<i32>(judgedOffsets + (<usize>(k + 1) << 2), jrow);
  }
  return DUP_NONE;
}

/**
 * The first row whose docid came earlier in its query, or -1 (joinQueries' judged side alone). Query k:
 * rows [starts[k], starts[k + 1]); slots as joinQueries'.
 */
export function firstRepeated(nq: i32, starts: usize, offsets: usize, bytes: usize, slots: usize): i32 {
  for (let k = 0; k < nq; k++) {
    const r0 = i32At(starts, k);
    const r1 = i32At(starts, k + 1);
    const bits = clearTable(slots, r1 - r0);
    for (let r = r0; r < r1; r++) {
      const a = i32At(offsets, r);
      if (putId(slots, bits, r + 1, rowHash(bytes + <usize>a, i32At(offsets, r + 1) - a), offsets, bytes) != 0) return r;
    }
  }
  return -1;
}
