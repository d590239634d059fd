/**
 * The per-row columns (rows.ts) in a kernel's WebAssembly memory, parsed into by assembly/parse.ts; the
 * host handles where it stops (a slow line, a new query id, a new stretch of lines).
 */
import {
  alignUp as align,
  constant,
  growTo,
  instantiate,
  MAX_MEMORY,
  memoryTooLarge,
  type KernelInstance,
} from "../kernel/module.js";
import { checkOptions, type OptionType } from "../errors/errors.js";
import { Interner } from "./interner.js";
import { LastId } from "./last-id-cache.js";
import { LineParser } from "./line-parser.js";
import { grow, RowsBuilder, type QuerySpans } from "./rows.js";

/** The formats assembly/parse.ts reads. */
export type KernelFormat = "run" | "qrels" | "letor" | "scores";

/** assembly/parse.ts's constants, read once. */
const NAMES = {
  pad: "PARSE_PAD",
  stateBytes: "PARSE_STATE_BYTES",
  rows: "ST_ROWS",
  used: "ST_USED",
  line: "ST_LINE",
  shift: "ST_SHIFT",
  stop: "ST_STOP",
  qidStart: "ST_QID_START",
  qidEnd: "ST_QID_END",
  qidId: "ST_QID_ID",
  qidLen: "ST_QID_LEN",
  tagStart: "ST_TAG_START",
  tagEnd: "ST_TAG_END",
  letor: "ST_LETOR",
  letorKnown: "LETOR_KNOWN",
  letorQid: "LETOR_QID",
  letorDocid: "LETOR_DOCID",
  qidBytes: "ST_QID_BYTES",
  stopEnd: "STOP_END",
  stopQid: "STOP_QID",
  stopShift: "STOP_SHIFT",
} as const;
type ParseLayout = Record<keyof typeof NAMES, number>;

let layout: ParseLayout | undefined;

function layoutOf(instance: WebAssembly.Instance): ParseLayout {
  layout ??= Object.fromEntries(Object.entries(NAMES).map(([k, name]) => [k, constant(instance, name)])) as ParseLayout;
  return layout;
}

/** The parser's side of the fast path. */
export interface LineHost {
  line: number;
  readonly lastQid: LastId;
  /** Parses the line at bytes[p] (every error is found here). */
  slowLine(bytes: Uint8Array, p: number): number;
  /** Runs: the last row's run tag is bytes[start, end). */
  tag?(bytes: Uint8Array, start: number, end: number): void;
  /** LETOR: whether every line has `qid:` and `# docid = X`, or null until a row says. */
  letorModes?(): { qid: boolean; docid: boolean } | null;
  /** buf[p] is now bytes[p + shift] (a copy), for errors naming a byte offset. */
  moved?(shift: number): void;
}

const ROWS_USE = {
  what: "reading this input",
  advice:
    "the parser holds a file's rows in one memory (about 20 bytes a row and its document id's bytes): " +
    "split the judgments and runs by query into shards, evaluate each with --per-query-out and combine " +
    "them with --merge (the README's 'Shards, threads and clusters')",
};
/** Id bytes' offsets are i32 (in the kernel too). */
const MAX_POOL_BYTES = 2 ** 31 - 1;

/** Instances finishCopies gave back. */
const spares: KernelInstance[] = [];
const SPARES = 4;
const SPARE_BYTES = 64 << 20;

/** Where a finished parser's columns lie in its kernel's memory, for a join there (join-kernel.ts); 16 readable bytes follow the ids. */
export interface KernelColumns {
  /** Typed without the WebAssembly namespace, which the package's types must not need. */
  readonly instance: { readonly exports: object };
  readonly memory: { readonly buffer: ArrayBuffer };
  readonly value: number;
  readonly offsets: number;
  readonly hashes: number;
  readonly pool: number;
  readonly free: number;
}

export class KernelRows extends RowsBuilder {
  /** Views remade as the memory grows. */
  private readonly wasm: KernelInstance;
  private bytes!: Uint8Array;
  private state!: Int32Array;
  private readonly k: ParseLayout;
  /** The state block's address, and the columns'. */
  private readonly st: number;
  private readonly base: number;
  private valueAt = 0;
  private qidAt = 0;
  private offsetsAt = 0;
  private hashesAt = 0;
  private poolAt = 0;
  private rowCap = 0;
  private poolCap = 0;
  /** LETOR: query ids as QuerySpans (the kernel writes no qid per row for LETOR). */
  private spanIds = new Int32Array(64);
  private spanStarts = new Int32Array(64);
  private nSpans = 0;

  constructor(expectedBytes = 0) {
    super(expectedBytes);
    // A new instance costs 0.1-0.3 ms: a thousand small runs paid it a thousand times.
    this.wasm = spares.pop() ?? instantiate();
    this.k = layoutOf(this.wasm.instance);
    this.st = align(this.wasm.exports.heapBase(), 16);
    this.base = align(this.st + this.k.stateBytes, 16);
    this.place(256, 4096);
    // A given-back memory holds old bytes: offsets[0] must be 0.
    this.offsets[0] = 0;
    this.state[this.k.qidLen >> 2] = -1;
  }

  /** Room for `bytes` more after the columns, for a join: the memory never grows after finish(). */
  keepRoom(bytes: number) {
    this.ensure(this.free + bytes);
  }

  /** finish() as copies, the instance given back for a later parser. */
  finishCopies(): ReturnType<RowsBuilder["finish"]> {
    const out = this.finish();
    const docids = {
      bytes: out.docids.bytes.slice(),
      offsets: out.docids.offsets.slice(),
      hashes: out.docids.hashes.slice(),
    };
    const copies = { qid: out.qid.slice(), value: out.value.slice(), docids, lines: out.lines };
    // A small parse should not hold a large memory.
    if (spares.length < SPARES && this.wasm.memory.buffer.byteLength <= SPARE_BYTES) {
      spares.push(this.wasm);
    }
    return copies;
  }

  /** The first byte after the columns and the 16 the kernel may read past the last id. */
  private get free() {
    return align(this.poolAt + this.poolCap + 16, 16);
  }

  columns(): KernelColumns {
    return {
      instance: this.wasm.instance,
      memory: this.wasm.memory,
      value: this.valueAt,
      offsets: this.offsetsAt,
      hashes: this.hashesAt,
      pool: this.poolAt,
      free: this.free,
    };
  }

  /** What the range being reserved needs: resize's floor near the limit. */
  private needRows = 0;
  private needPool = 0;

  override reserve(bytes: number, shortestLine = 8) {
    this.needRows = this.count + Math.floor(bytes / shortestLine) + 1;
    this.needPool = this.used + bytes;
    super.reserve(bytes, shortestLine);
  }

  /** Near the limit, only what the range being reserved needs: a file past it fails there, not at a doubling. */
  protected override resize(rows: number, poolBytes: number) {
    let r = Math.max(rows, this.rowCap);
    let p = Math.max(poolBytes, this.poolCap);
    if (this.layout(r, p).end > MAX_MEMORY || p > MAX_POOL_BYTES) {
      r = Math.max(this.needRows, this.rowCap);
      p = Math.max(this.needPool, this.poolCap);
    }
    this.place(r, p);
  }

  /** The columns' addresses (+16: the kernel stores 16 bytes at a time). */
  private layout(rows: number, poolBytes: number) {
    const valueAt = this.base;
    const qidAt = valueAt + 8 * rows;
    const offsetsAt = qidAt + 4 * rows;
    const hashesAt = align(offsetsAt + 4 * (rows + 1), 8);
    const poolAt = hashesAt + 4 * rows;
    return { valueAt, qidAt, offsetsAt, hashesAt, poolAt, end: poolAt + poolBytes + 16 };
  }

  /** Moves the columns last to first: each only moves up, so none is overwritten. */
  private place(rows: number, poolBytes: number) {
    const { valueAt, qidAt, offsetsAt, hashesAt, poolAt, end } = this.layout(rows, poolBytes);
    if (poolBytes > MAX_POOL_BYTES)
      throw memoryTooLarge(ROWS_USE, end, "its document ids alone past the 2 GiB their 32-bit offsets index");
    this.ensure(end);
    const b = this.bytes;
    const n = this.count;
    if (this.rowCap > 0) {
      b.copyWithin(poolAt, this.poolAt, this.poolAt + this.used);
      b.copyWithin(hashesAt, this.hashesAt, this.hashesAt + 4 * n);
      b.copyWithin(offsetsAt, this.offsetsAt, this.offsetsAt + 4 * (n + 1));
      b.copyWithin(qidAt, this.qidAt, this.qidAt + 4 * n);
      b.copyWithin(valueAt, this.valueAt, this.valueAt + 8 * n);
    }
    Object.assign(this, { valueAt, qidAt, offsetsAt, hashesAt, poolAt, rowCap: rows, poolCap: poolBytes });
    this.views();
  }

  private ensure(end: number) {
    growTo(this.wasm.memory, end, ROWS_USE);
    if (!this.bytes || this.bytes.buffer !== this.wasm.memory.buffer) this.views();
  }

  private views() {
    const buf = this.wasm.memory.buffer;
    this.bytes = new Uint8Array(buf);
    this.state = new Int32Array(buf, this.st, this.k.stateBytes >> 2);
    if (this.rowCap === 0) return;
    this.value = new Float64Array(buf, this.valueAt, this.rowCap);
    this.qid = new Int32Array(buf, this.qidAt, this.rowCap);
    this.offsets = new Int32Array(buf, this.offsetsAt, this.rowCap + 1);
    this.hashes = new Int32Array(buf, this.hashesAt, this.rowCap);
    this.pool = new Uint8Array(buf, this.poolAt, this.poolCap);
  }

  /** LETOR: rows from `row` on have query id `id`. */
  private noteSpan(row: number, id: number) {
    const k = this.nSpans;
    if (k > 0 && this.spanIds[k - 1] === id) return;
    if (k === this.spanIds.length) {
      this.spanIds = grow(this.spanIds, 2 * k);
      this.spanStarts = grow(this.spanStarts, 2 * k);
    }
    this.spanIds[k] = id;
    this.spanStarts[k] = row;
    this.nSpans = k + 1;
  }

  /** LETOR: the kept query-id runs, as copies. */
  keptSpans(): QuerySpans {
    const starts = new Int32Array(this.nSpans + 1);
    starts.set(this.spanStarts.subarray(0, this.nSpans));
    starts[this.nSpans] = this.count;
    return { ids: this.spanIds.slice(0, this.nSpans), starts };
  }

  keepRepeatRoom(starts: Int32Array) {
    this.keepRoom(4 * starts.length + 8 * repeatTableSlots(starts) + 64);
  }

  /** LETOR: assembly/parse.ts firstRepeated. */
  firstRepeated(starts: Int32Array): number {
    const nq = starts.length - 1;
    const size = repeatTableSlots(starts);
    const at = this.free;
    const slots = align(at + 4 * (nq + 1), 16);
    this.ensure(slots + 8 * size);
    new Int32Array(this.wasm.memory.buffer, at, nq + 1).set(starts);
    return this.wasm.exports.firstRepeated(nq, at, this.offsetsAt, this.poolAt, slots);
  }

  /** querySpans (rows.ts) of rows [0, k), by the kernel, as copies. */
  spans(k: number): QuerySpans {
    const at = this.free;
    this.ensure(at + 8 * k + 8);
    const runs = this.wasm.exports.querySpans(this.qidAt, k, at, at + 4 * k);
    const buf = this.wasm.memory.buffer;
    const starts = new Int32Array(runs + 1);
    starts.set(new Int32Array(buf, at + 4 * k, runs));
    starts[runs] = k;
    return { ids: new Int32Array(buf, at, runs).slice(), starts };
  }

  /** The kernel parses the whole lines buf[p, end), `host.slowLine` those it leaves; the host's bytes stay until the next call. */
  parseLines(format: KernelFormat, host: LineHost, buf: Uint8Array, p: number, end: number) {
    const run = format === "run";
    const letor = format === "letor";
    this.reserve(end - p, format === "letor" || format === "scores" ? 2 : 8);
    const len = end - p;
    const input = this.free;
    this.ensure(input + len + this.k.pad);
    const bytes = this.bytes;
    bytes.set(buf.subarray(p, end), input);
    host.moved?.(input - p);
    const k = this.k;
    const s = this.state;
    const k0 = this.wasm.exports;
    const parse = run
      ? k0.parseRunRows
      : format === "qrels"
        ? k0.parseQrelsRows
        : letor
          ? k0.parseLetorRows
          : k0.parseScoreRows;
    const stop = input + len;
    let at = input;
    for (;;) {
      s[k.rows >> 2] = this.count;
      s[k.used >> 2] = this.used;
      s[k.line >> 2] = host.line;
      s[k.shift >> 2] = this.shift;
      if (letor) {
        const m = host.letorModes?.();
        s[k.letor >> 2] = m ? k.letorKnown | (m.qid ? k.letorQid : 0) | (m.docid ? k.letorDocid : 0) : 0;
      }
      const before = this.count;
      // Addresses are i32 (wasm has no unsigned): >>> 0 reads them past 2 GiB.
      at = parse(this.st, at, stop, this.qidAt, this.valueAt, this.offsetsAt, this.hashesAt, this.poolAt) >>> 0;
      this.count = s[k.rows >> 2];
      if (letor && this.count > before) this.noteSpan(before, s[k.qidId >> 2]);
      this.used = s[k.used >> 2];
      host.line = s[k.line >> 2];
      if (run && s[k.tagStart >> 2] !== -1) host.tag?.(bytes, s[k.tagStart >> 2] >>> 0, s[k.tagEnd >> 2] >>> 0);
      const why = s[k.stop >> 2];
      if (why === k.stopEnd) break;
      if (why === k.stopQid) {
        const qs = s[k.qidStart >> 2] >>> 0;
        const qe = s[k.qidEnd >> 2] >>> 0;
        s[k.qidId >> 2] = host.lastQid.get(bytes, qs, qe);
        bytes.copyWithin(this.st + k.qidBytes, qs, qe);
        s[k.qidLen >> 2] = qe - qs;
      } else if (why === k.stopShift) {
        this.newShift(this.count, host.line);
      } else {
        // Adds its row, counts the line, throws a bad line's exact error.
        const before = this.count;
        at = host.slowLine(bytes, at);
        if (letor && this.count > before) this.noteSpan(before, this.qid[before]);
      }
    }
  }
}

/** firstRepeated's table size: a power of two, at least twice the widest query's rows. */
function repeatTableSlots(starts: Int32Array) {
  let widest = 0;
  for (let k = 0; k + 1 < starts.length; k++) widest = Math.max(widest, starts[k + 1] - starts[k]);
  let size = 16;
  while (size < 2 * widest) size *= 2;
  return size;
}

/** A parser whose usual lines the kernel reads (KernelRows.parseLines), the rest its slowLine. */
export abstract class KernelLineParser extends LineParser {
  protected readonly rows: KernelRows;
  protected readonly lastQid: LastId;
  protected readonly qidNames: Interner;
  /** null where document ids are kept per row. */
  protected readonly docidNames: Interner | null;
  private readonly host: LineHost;

  /** `call` names the parser in errors; lines have at most `maxFields` fields. */
  constructor(
    options: { file: string; qids?: Interner; docids?: Interner | "per-row"; expectedBytes?: number },
    types: Readonly<Record<string, OptionType>>,
    call: string,
    maxFields: number,
    private readonly format: KernelFormat,
  ) {
    super(checkOptions(options, types, call).file, maxFields);
    const { qids = new Interner(), docids = "per-row" } = options;
    this.qidNames = qids;
    this.docidNames = docids === "per-row" ? null : docids;
    this.rows = new KernelRows(options.expectedBytes);
    this.lastQid = new LastId(qids);
    const parser = this;
    this.host = {
      get line() {
        return parser.line;
      },
      set line(v: number) {
        parser.line = v;
      },
      lastQid: this.lastQid,
      slowLine: (bytes, at) => this.slowLine(bytes, at),
      tag: (bytes, start, end) => this.tag(bytes, start, end),
      letorModes: () => this.letorModes(),
      moved: (shift) => {
        this.base -= shift;
      },
    };
  }

  protected override parseLines(buf: Uint8Array, p: number, end: number) {
    this.rows.parseLines(this.format, this.host, buf, p, end);
  }

  protected override linesDone(_buf: Uint8Array) {
    this.lastQid.release();
  }

  protected slowLine(bytes: Uint8Array, p: number): number {
    return this.fieldLine(bytes, p);
  }

  protected tag(_bytes: Uint8Array, _start: number, _end: number) {}
  protected letorModes(): { qid: boolean; docid: boolean } | null {
    return null;
  }

  /** Appends fields `f` (TREC: qid first, docid third) with `value`. */
  protected addRow(buf: Uint8Array, f: Int32Array, value: number) {
    this.rows.add(this.lastQid.get(buf, f[0], f[1]), buf, f[4], f[5], value, this.line);
  }

  /** The interned mode's columns (copies). */
  protected interned(names: Interner): { qid: Int32Array; value: Float64Array; docid: Int32Array };
  protected interned(names: Interner | null): { qid: Int32Array; value: Float64Array; docid: Int32Array | null };
  protected interned(names: Interner | null): { qid: Int32Array; value: Float64Array; docid: Int32Array | null } {
    const { qid, value, docids } = this.rows.finishCopies();
    return { qid, value, docid: names === null ? null : names.internAll(docids.bytes, docids.offsets, value.length) };
  }
}
