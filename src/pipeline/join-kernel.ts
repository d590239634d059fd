/**
 * The join in the kernel (assembly/join.ts): each run block is copied beside judgments parsed into kernel
 * memory, joined and evaluated there. The memory never grows (the judgments' views would detach): a
 * block that does not fit in JOIN_ROOM is joined by join-rows.ts.
 */
import { documentTwice } from "../errors/errors.js";
import type { KernelColumns } from "../io/kernel-line-parser.js";
import type { Interner } from "../io/interner.js";
import { docidString, lineOfRow, type RowDocids, type RowLines } from "../io/rows.js";
import type { Batch, InPlace } from "../kernel/batch.js";
import { Kernel } from "../kernel/kernel.js";
import { alignUp, type KernelExports } from "../kernel/module.js";
import type { GroupedJudgments } from "./join-rows.js";
import type { JoinRun } from "./join-memory.js";

/** Bytes kept free after a block's batch for its evaluation. */
const HEADROOM = 16 << 20;
/** Readable bytes after a pool's last id (assembly/join.ts JOIN_PAD). */
const PAD = 16;

/** Not a signed `& ~7`: addresses reach 4 GiB. */
const align8 = (n: number) => alignUp(n, 8);

export interface BlockQueries {
  /** Per query: judged entries [a, b), run entries [c, d). */
  ranges: Int32Array;
  numQueries: number;
  rows: number;
  judgedRows: number;
  widest: number;
  runOrder: Int32Array | null;
  qids: readonly number[];
}

export class JoinKernel {
  readonly kernel: Kernel;
  private readonly exports: KernelExports;
  private readonly memory: { readonly buffer: ArrayBuffer };
  /** The judgments' order copied in, or 0 when in query order. */
  private readonly jOrder: number;
  private readonly base: number;
  private readonly usable: boolean;

  constructor(
    private readonly cols: KernelColumns,
    private readonly judgments: GroupedJudgments,
  ) {
    this.memory = cols.memory;
    this.kernel = new Kernel({
      memory: cols.memory as WebAssembly.Memory,
      instance: cols.instance as WebAssembly.Instance,
    });
    this.exports = this.kernel.exports;
    let base = align8(cols.free);
    const order = judgments.groups.order;
    if (order && this.fits(base + 4 * order.length)) {
      new Int32Array(this.memory.buffer, base, order.length).set(order);
      this.jOrder = base;
      base = align8(base + 4 * order.length);
    } else this.jOrder = 0;
    this.usable = !order || this.jOrder !== 0;
    this.base = base;
  }

  private fits(end: number): boolean {
    return end <= this.memory.buffer.byteLength;
  }

  /** Joins a block into a batch here (`transient`: views, else copies); null when it does not fit. */
  join(run: JoinRun, b: BlockQueries, names: Interner, transient: boolean): Batch | null {
    if (!this.usable) return null;
    const R = run.length;
    const nq = b.numQueries;
    const poolUsed = run.docids.offsets[R];
    let size = 16;
    while (size < 2 * b.widest) size *= 2;
    let at = this.base;
    const take = (bytes: number) => {
      const p = at;
      at = align8(at + bytes);
      return p;
    };
    const qAt = take(16 * nq);
    const rOff = take(4 * (R + 1));
    const rBytes = take(poolUsed + PAD);
    const rHash = take(4 * R);
    const rScore = take(8 * R);
    const rOrder = b.runOrder ? take(4 * R) : 0;
    const slots = take(8 * size);
    const batch = {
      offsets: take(4 * (nq + 1)),
      judgedOffsets: take(4 * (nq + 1)),
      scores: take(8 * b.rows),
      labels: take(8 * b.rows),
      judged: take(8 * b.judgedRows),
      docids: take(4 * b.rows),
    };
    const top = at;
    if (!this.fits(top + HEADROOM)) return null;

    const buf = this.memory.buffer;
    new Int32Array(buf, qAt, 4 * nq).set(b.ranges.subarray(0, 4 * nq));
    new Int32Array(buf, rOff, R + 1).set(run.docids.offsets.subarray(0, R + 1));
    new Uint8Array(buf, rBytes, poolUsed).set(run.docids.bytes.subarray(0, poolUsed));
    new Int32Array(buf, rHash, R).set(run.docids.hashes.subarray(0, R));
    new Float64Array(buf, rScore, R).set(run.score.subarray(0, R));
    if (b.runOrder) new Int32Array(buf, rOrder, R).set(b.runOrder);

    const c = this.cols;
    const dup = this.exports.joinQueries(
      nq,
      qAt,
      this.jOrder,
      c.offsets,
      c.pool,
      c.hashes,
      c.value,
      rOrder,
      rOff,
      rBytes,
      rHash,
      rScore,
      slots,
      batch.offsets,
      batch.scores,
      batch.labels,
      batch.judgedOffsets,
      batch.judged,
      batch.docids,
    );
    if (dup !== 0) {
      const row = this.exports.duplicateRow();
      const qid = b.qids[this.exports.duplicateQuery()];
      duplicate(dup === 1 ? this.judgments.qrels : run, row, names, qid);
    }
    const views = {
      numQueries: nq,
      offsets: new Int32Array(buf, batch.offsets, nq + 1),
      scores: new Float64Array(buf, batch.scores, b.rows),
      labels: new Float64Array(buf, batch.labels, b.rows),
      judgedOffsets: new Int32Array(buf, batch.judgedOffsets, nq + 1),
      judged: new Float64Array(buf, batch.judged, b.judgedRows),
      docids: new Int32Array(buf, batch.docids, b.rows),
      pool: { bytes: run.docids.bytes, offsets: run.docids.offsets },
    };
    if (!transient) {
      return {
        ...views,
        offsets: views.offsets.slice(),
        scores: views.scores.slice(),
        labels: views.labels.slice(),
        judgedOffsets: views.judgedOffsets.slice(),
        judged: views.judged.slice(),
        docids: views.docids.slice(),
      };
    }
    const inPlace: InPlace = { kernel: this.kernel, ...batch, poolBytes: rBytes, poolOffsets: rOff, top };
    return { ...views, inPlace };
  }
}

/** Throws a document twice in one query, at its line or row. */
export function duplicate(
  rows: { file: string; lines?: RowLines; docids: RowDocids },
  row: number,
  names: Interner,
  qid: number,
): never {
  const where = rows.lines ? { file: rows.file, line: lineOfRow(rows.lines, row) } : `${rows.file} row ${row}`;
  throw documentTwice(docidString(rows.docids, row), names.stringOf(qid), where);
}
