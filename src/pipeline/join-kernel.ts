/**
 * The join in the kernel (assembly/join.ts): judgments parsed into a kernel's memory stay there, and
 * each block of a run is copied in beside them, joined and evaluated there, with no strings and no
 * copies between join and kernel. join-rows.ts chooses and orders the queries; this lays them out.
 * The memory never grows after the judgments are parsed (their views would go with the old buffer):
 * their parser left room (JOIN_ROOM), and a block that does not fit is joined by join-rows.ts.
 */
import { documentTwice } from "../errors/errors.js";
import type { KernelColumns } from "../io/kernel-line-parser.js";
import type { Interner } from "../io/interner.js";
import { docidString, lineOfRow, type RowDocids, type RowLines } from "../io/rows.js";
import type { Batch, InPlace } from "../kernel/batch.js";
import { Kernel } from "../kernel/kernel.js";
import { alignUp, type KernelExports } from "../kernel/module.js";
import type { GroupedJudgments, JoinRun } from "./join-rows.js";

/** Bytes left free after a block's batch for its evaluation's tables and results (else it is evaluated by copying). */
const HEADROOM = 16 << 20;
/** Readable bytes after a pool's last id (assembly/join.ts JOIN_PAD). */
const PAD = 16;

/** Addresses reach 4 GiB: rounded in floating point (module.ts alignUp), not with a signed `& ~7`. */
const align8 = (n: number) => alignUp(n, 8);

/** What one block's join needs from join-rows.ts: its queries in order and their sizes. */
export interface BlockQueries {
  /** Per query, 4 numbers: judged entries [a, b) of the judgments' order (or rows), run entries [c, d) of the run's. */
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
  /** The judgments' order copied in, or 0 when their rows are in query order. */
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

  /** Whether the memory holds `end` bytes (it never grows). */
  private fits(end: number): boolean {
    return end <= this.memory.buffer.byteLength;
  }

  /**
   * Joins the block's queries (`b`) of `run` into a batch in this memory; `transient`: read only until
   * the next join (views, evaluated here), else copies. Null when the block does not fit (join-rows.ts
   * joins it). Throws an InputError for a document twice in one query.
   */
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

/** The error of a document twice in one query (row `row` of `rows`): at its line, or as the row for rows in memory. */
export function duplicate(
  rows: { file: string; lines?: RowLines; docids: RowDocids },
  row: number,
  names: Interner,
  qid: number,
): never {
  const where = rows.lines ? { file: rows.file, line: lineOfRow(rows.lines, row) } : `${rows.file} row ${row}`;
  throw documentTwice(docidString(rows.docids, row), names.stringOf(qid), where);
}
