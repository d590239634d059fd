// A run written as TREC text: fused runs (fused-run.ts).
import { compareIds } from "../io/rows.js";

const BYTES_A_WRITE = 1 << 20;

/** Id i is bytes[offsets[i]..offsets[i + 1]). */
export interface DocBytes {
  readonly bytes: Uint8Array;
  readonly offsets: Int32Array;
}

const utf8 = new TextEncoder();

/**
 * A run as TREC text (`qid Q0 docid rank score tag`), query by query: documents by descending score,
 * ties by id descending (trec_eval's order, so the ranks are those evaluated); scores shortest round-trip.
 * UTF-8, a megabyte at a time.
 */
export class RunTextWriter {
  private buffer: Uint8Array<ArrayBuffer> = new Uint8Array(BYTES_A_WRITE);
  private at = 0;
  private readonly tail: Uint8Array;

  constructor(
    tag: string,
    private readonly write: (bytes: Uint8Array<ArrayBuffer>) => void,
  ) {
    this.tail = utf8.encode(` ${tag}\n`);
  }

  query(qid: string, docs: DocBytes, scores: ArrayLike<number>): void {
    const { bytes, offsets } = docs;
    const order = inTrecOrder(docs, scores);
    const head = utf8.encode(`${qid} Q0 `);
    const tail = this.tail;
    for (let i = 0; i < order.length; i++) {
      const d = order[i];
      const from = offsets[d];
      const to = offsets[d + 1];
      const score = String(scores[d]);
      // The rank: 10 digits at most.
      this.room(head.length + (to - from) + score.length + tail.length + 12);
      const out = this.buffer;
      let at = this.at;
      for (let k = 0; k < head.length; k++) out[at++] = head[k];
      for (let k = from; k < to; k++) out[at++] = bytes[k];
      out[at++] = 0x20;
      at = writeDigits(out, at, i + 1);
      out[at++] = 0x20;
      for (let k = 0; k < score.length; k++) out[at++] = score.charCodeAt(k);
      for (let k = 0; k < tail.length; k++) out[at++] = tail[k];
      this.at = at;
    }
  }

  end(): void {
    if (this.at > 0) this.write(this.buffer.subarray(0, this.at));
    this.buffer = new Uint8Array(BYTES_A_WRITE);
    this.at = 0;
  }

  /** Room for `bytes` more (a fresh buffer: the written one is the caller's). */
  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    this.end();
    if (bytes > this.buffer.length) this.buffer = new Uint8Array(bytes);
  }
}

/** `n`'s digits (n > 0) written at `at`; where they end. */
function writeDigits(out: Uint8Array, at: number, n: number): number {
  let digits = 1;
  for (let p = 10; p <= n; p *= 10) digits++;
  for (let k = at + digits - 1; k >= at; k--) {
    out[k] = 0x30 + (n % 10);
    n = Math.floor(n / 10);
  }
  return at + digits;
}

/** Ties up to this many are sorted by insertion. */
const FEW_TIES = 16;

/** By descending score, ties by id descending. Fusion gives them by score already: then only ties are sorted. */
function inTrecOrder(docs: DocBytes, scores: ArrayLike<number>): Int32Array {
  const n = docs.offsets.length - 1;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const trec = (a: number, b: number) => scores[b] - scores[a] || compareIds(docs, b, a);
  let descending = true;
  for (let i = 1; i < n && descending; i++) descending = scores[i - 1] >= scores[i];
  if (!descending) return order.sort(trec);
  for (let i = 0, j = 1; i < n; i = j++) {
    while (j < n && scores[j] === scores[i]) j++;
    if (j - i > FEW_TIES) order.subarray(i, j).sort(trec);
    else
      for (let k = i + 1; k < j; k++) {
        const d = order[k];
        let m = k;
        for (; m > i && compareIds(docs, order[m - 1], d) < 0; m--) order[m] = order[m - 1];
        order[m] = d;
      }
  }
  return order;
}
