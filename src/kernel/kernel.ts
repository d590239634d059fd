import { gainTooLarge, RankevalError, SUMMABLE_MAX } from "../errors/errors.js";
import { discountTable } from "../measures/discount.js";
import type { Measure } from "../measures/measure.js";
import { kernelFamilyName } from "../measures/registry.js";
import type { ResolvedOptions } from "../measures/options.js";
import { docidEntry, extents, type Batch, type DiversityData, type InPlace } from "./batch.js";
import {
  alignUp,
  constant,
  KernelMemory,
  MAX_MEMORY,
  type KernelInstance,
  type Layout,
  type MemoryUse,
} from "./module.js";

/** f64 parameter slots per measure, as assembly/index.ts's PARAM_SLOTS. */
const PARAM_SLOTS = 5;
const BLOCK_BYTES = 1024 ** 2;
const POOL_WHOLE = 4 << 20;
/** An instance grown past this is dropped after use, freeing its memory. */
const RETAIN_BYTES = 1024 ** 3;

let retained: Kernel | undefined;

/** Kernel bytes per ranked row besides its id's bytes (assembly/index.ts scratchBytes), and per judgment. */
export const KERNEL_ROW_BYTES = 160;
export const KERNEL_JUDGMENT_BYTES = 52;

const KERNEL_ADVICE =
  `the kernel holds each query's rows whole (about ${KERNEL_ROW_BYTES} bytes a ranked row and ` +
  `${KERNEL_JUDGMENT_BYTES} a judgment, so about ` +
  `${Math.floor(MAX_MEMORY / (KERNEL_ROW_BYTES + KERNEL_JUDGMENT_BYTES) / 1e6)} million judged rows in one query ` +
  "at most): evaluate fewer rows per query, cut each ranking to the depth you evaluate";

const BATCH_USE: MemoryUse = Object.freeze({ what: "this batch", advice: KERNEL_ADVICE });

/** A block's memory use: its words are made only for an error (a small call made them every call). */
class BlockUse implements MemoryUse {
  readonly advice = KERNEL_ADVICE;

  constructor(
    private readonly queries: number,
    private readonly rows: number,
  ) {}

  get what(): string {
    return this.queries === 1
      ? `a query of ${this.rows} ranked rows`
      : `a block of ${this.queries} queries (${this.rows} ranked rows)`;
  }
}

/** A kernel instance and its memory: runKernel's own, or a join's holding the batch. */
export class Kernel extends KernelMemory {
  readonly familyIds = new Map<string, number>();
  /** The discount table laid at the heap base, reused by the next call. */
  discountHeld: Float64Array | null = null;
  private bytes: Uint8Array;

  constructor(given?: Pick<KernelInstance, "memory" | "instance">) {
    super(given, 8, { what: "this batch", advice: KERNEL_ADVICE });
    this.bytes = new Uint8Array(this.memory.buffer);
    for (const [name, value] of Object.entries(this.instance.exports)) {
      if (name.startsWith("Family.")) this.familyIds.set(name.slice(7), (value as WebAssembly.Global).value);
    }
    const slots = constant(this.instance, "PARAM_SLOTS");
    if (slots !== PARAM_SLOTS)
      throw new Error(`kernel has ${slots} parameter slots per measure, the host ${PARAM_SLOTS}`);
  }

  put(data: Float64Array | Int32Array | Uint8Array): number {
    const ptr = this.alloc(data.byteLength);
    if (this.bytes.buffer !== this.memory.buffer) this.bytes = new Uint8Array(this.memory.buffer);
    if (data instanceof Float64Array) new Float64Array(this.memory.buffer, ptr, data.length).set(data);
    else if (data instanceof Int32Array) new Int32Array(this.memory.buffer, ptr, data.length).set(data);
    else this.bytes.set(data, ptr);
    return ptr;
  }
}

/** Gains of labels 0..63 at least; custom tables give unlisted labels their linear gain, as trec_eval. */
function gainTable(gain: ResolvedOptions["gain"]): GainTable {
  if (typeof gain === "string") return (NAMED_GAINS[gain] ??= makeGainTable(gain));
  return makeGainTable(gain);
}

interface GainTable {
  mode: number;
  table: Float64Array;
  monotone: boolean;
}

const NAMED_GAINS: Record<string, GainTable> = {};

function makeGainTable(gain: ResolvedOptions["gain"]): GainTable {
  const custom = typeof gain === "string" ? null : gain;
  const length = Math.max(64, ...(custom ? [...custom.keys()].map((l) => l + 1) : []));
  const table = new Float64Array(length);
  for (let label = 1; label < length; label++) {
    table[label] = custom ? (custom.get(label) ?? label) : gain === "exp" ? 2 ** label - 1 : label;
  }
  let monotone = true;
  for (let label = 1; label < length; label++) monotone &&= table[label] >= table[label - 1];
  return { mode: custom ? 2 : gain === "exp" ? 1 : 0, table, monotone };
}

function diversityBytes(batch: Batch, d: DiversityData, q: number): number {
  const pairs = d.rowOffsets[batch.offsets[q + 1]] - d.rowOffsets[batch.offsets[q]];
  const docs = d.docOffsets[q + 1] - d.docOffsets[q];
  const docPairs = d.docPairs[d.docOffsets[q + 1]] - d.docPairs[d.docOffsets[q]];
  return 4 + pairs * 12 + docs * 4 + docPairs * 12;
}

/** Lays queries [from, to)'s subtopic judgments (rows [r0, r1)) out after the block, rebased. */
function layDiversity(
  kernel: Kernel,
  d: DiversityData,
  from: number,
  to: number,
  r0: number,
  r1: number,
  maxN: number,
): void {
  const rebased = (o: Int32Array, a: number, b: number) => kernel.put(o.subarray(a, b + 1).map((v) => v - o[a]));
  const [p0, p1, d0, d1] = [d.rowOffsets[r0], d.rowOffsets[r1], d.docOffsets[from], d.docOffsets[to]];
  const [q0, q1] = [d.docPairs[d0], d.docPairs[d1]];
  let maxD = 0;
  let maxS = 0;
  for (let q = from; q < to; q++) {
    maxD = Math.max(maxD, d.docOffsets[q + 1] - d.docOffsets[q]);
    maxS = Math.max(maxS, d.subtopics[q]);
  }
  kernel.exports.configureDiversity(
    kernel.put(d.subtopics.subarray(from, to)),
    rebased(d.rowOffsets, r0, r1),
    kernel.put(d.rowSub.subarray(p0, p1)),
    kernel.put(d.rowGrade.subarray(p0, p1)),
    rebased(d.docOffsets, from, to),
    rebased(d.docPairs, d0, d1),
    kernel.put(d.docSub.subarray(q0, q1)),
    kernel.put(d.docGrade.subarray(q0, q1)),
    kernel.alloc(kernel.exports.diversityScratchBytes(maxN, maxD, maxS)),
    maxN,
    maxD,
    maxS,
  );
}

const NO_RELEVANT = { zero: 0, one: 1, nan: 2, skip: 2 } as const;
/** assembly/ranking/state.ts BeyondList and TieMode; "docid" and "input" are the sort's order (withTies). */
const BEYOND_LIST = { pad: 0, nan: 1, zero: 2, clip: 3 } as const;
const TIE_MODE = { docid: 0, input: 0, average: 1, best: 2, worst: 3 } as const;

const familyIdOf = new Map<Measure["family"], number>();

function familyId(kernel: Kernel, family: Measure["family"]): number {
  let id = familyIdOf.get(family);
  if (id === undefined) {
    id = kernel.familyIds.get(kernelFamilyName(family));
    if (id === undefined) throw new Error(`kernel has no family ${kernelFamilyName(family)}`);
    familyIdOf.set(family, id);
  }
  return id;
}

/** The measures' specs as the kernel reads them (families, cutoffs, parameters, flags). */
interface Specs {
  readonly families: Int32Array;
  readonly cutoffs: Int32Array;
  readonly params: Float64Array;
  readonly flags: Int32Array;
}

/** Specs of frozen lists of measures (evaluateBatch's plans), made once: a training loop asks the same each call. */
const specsMade = new WeakMap<readonly Measure[], Specs>();

function specsOf(kernel: Kernel, measures: readonly Measure[]): Specs {
  // Only a frozen list cannot change after its specs are made (Measures are frozen).
  const keep = Object.isFrozen(measures);
  let s = keep ? specsMade.get(measures) : undefined;
  if (s) return s;
  const families = Int32Array.from(measures, (m) => familyId(kernel, m.family));
  const cutoffs = Int32Array.from(measures, (m) => m.k);
  // Parameters in registry order, then 0s.
  const params = new Float64Array(measures.length * PARAM_SLOTS);
  measures.forEach((m, s) => {
    const names = Object.keys(m.family.params ?? {});
    if (names.length > PARAM_SLOTS) throw new Error(`${m.family.name} has more than ${PARAM_SLOTS} parameters`);
    names.forEach((p, i) => (params[s * PARAM_SLOTS + i] = m.params[p]));
  });
  const flags = Int32Array.from(measures, (m) => (m.family.needsRelevant ? 1 : 0));
  s = { families, cutoffs, params, flags };
  if (keep) specsMade.set(measures, s);
  return s;
}

interface Setup {
  discount: number;
  gains: GainTable;
  gainTablePtr: number;
  specs: [number, number, number, number];
}

function setUp(
  kernel: Kernel,
  from: number,
  measures: readonly Measure[],
  options: ResolvedOptions,
  maxN: number,
  maxJ: number,
): Setup {
  kernel.reset(from);
  const table = discountTable(Math.max(maxN, maxJ) + 1);
  const atBase = from === kernel.exports.heapBase();
  const discount = atBase && kernel.discountHeld === table ? kernel.alloc(table.byteLength) : kernel.put(table);
  kernel.discountHeld = atBase ? table : null;
  const gains = gainTable(options.gain);
  const gainTablePtr = kernel.put(gains.table);
  const spec = specsOf(kernel, measures);
  const specs: Setup["specs"] = [
    kernel.put(spec.families),
    kernel.put(spec.cutoffs),
    kernel.put(spec.params),
    kernel.put(spec.flags),
  ];
  return { discount, gains, gainTablePtr, specs };
}

function setUpBytes(
  kernel: Kernel,
  measures: readonly Measure[],
  options: ResolvedOptions,
  nq: number,
  maxN: number,
  maxJ: number,
): number {
  const gainLength = Math.max(64, typeof options.gain === "string" ? 0 : Math.max(0, ...options.gain.keys()) + 1);
  return (
    8 * (Math.max(maxN, maxJ) + 2) +
    8 * gainLength +
    measures.length * (4 + 4 + 8 * PARAM_SLOTS + 4) +
    64 +
    kernel.exports.scratchBytes(maxN, maxJ, gainLength) +
    8 * measures.length * nq +
    64
  );
}

function configure(kernel: Kernel, s: Setup, options: ResolvedOptions, ...layout: Layout): void {
  kernel.exports.configure(
    s.gains.mode,
    s.gainTablePtr,
    s.gains.table.length,
    s.gains.monotone ? 1 : 0,
    options.relevanceThreshold,
    NO_RELEVANT[options.noRelevant],
    BEYOND_LIST[options.beyondList],
    TIE_MODE[options.ties],
    Math.min(options.depth, 0x7fffffff),
    options.judgedOnly ? 1 : 0,
    s.discount,
    ...layout,
  );
}

/** runKernel's block size, whole-pool limit and query names in errors. */
export interface RunOptions {
  readonly blockBytes?: number;
  readonly poolWhole?: number;
  readonly queryName?: (q: number) => string;
}

interface LabelGain {
  label: number;
  gain: number;
}

/** The label of largest gain at `at` (largest among equals), or null. */
function largestGain(kernel: Kernel, at: number, count: number): LabelGain | null {
  const i = kernel.exports.largestGain(at, count);
  if (i < 0) return null;
  const label = kernel.f64(at + 8 * i, 1)[0];
  return { label, gain: kernel.exports.labelGain(label) };
}

const larger = (a: LabelGain | null, b: LabelGain | null) =>
  !a || (b && (b.gain > a.gain || (b.gain === a.gain && b.label > a.label))) ? b : a;

interface LaidLabels {
  labels: number;
  offsets: Int32Array;
  judged: number;
  judgedOffsets: Int32Array | null;
}

/** Throws gainTooLarge for the first query whose largest gain passes SUMMABLE_MAX, as the reference does. */
function checkGains(
  kernel: Kernel,
  at: LaidLabels,
  n: number,
  from: number,
  options: ResolvedOptions,
  queryName: (q: number) => string,
): void {
  const { labels, offsets: o, judged, judgedOffsets: jo } = at;
  const bound = Math.max(kernel.exports.gainBound(labels, o[n]), jo ? kernel.exports.gainBound(judged, jo[n]) : 0);
  if (!(bound > SUMMABLE_MAX)) return;
  const whole = larger(largestGain(kernel, labels, o[n]), jo ? largestGain(kernel, judged, jo[n]) : null);
  if (!whole || !(whole.gain > SUMMABLE_MAX)) return;
  for (let q = 0; q < n; q++) {
    const ranked = largestGain(kernel, labels + 8 * o[q], o[q + 1] - o[q]);
    const g = larger(ranked, jo ? largestGain(kernel, judged + 8 * jo[q], jo[q + 1] - jo[q]) : null);
    if (g && g.gain > SUMMABLE_MAX) {
      const option = typeof options.gain === "string" ? options.gain : "table";
      throw gainTooLarge(queryName(from + q), g.label, option);
    }
  }
}

/** One Float64Array per measure; a batch in kernel memory is evaluated in place if it fits, others copied in blocks. */
export function runKernel(
  batch: Batch,
  measures: readonly Measure[],
  options: ResolvedOptions,
  { blockBytes = BLOCK_BYTES, poolWhole = POOL_WHOLE, queryName = String }: RunOptions = {},
): Float64Array[] {
  const div = batch.diversity;
  const needsSubtopics = measures.find((m) => m.family.diversity);
  if (needsSubtopics && !div) {
    throw new RankevalError(
      "bad-measure",
      `${needsSubtopics.name} reads subtopic judgments (a diversity qrels: qid subtopic docno rel): give them with evaluateDiversity, or --diversity on the command line`,
    );
  }
  const inPlace = batch.inPlace;
  if (inPlace && !needsSubtopics) {
    const { maxN, maxJ } = extents(batch);
    const k = inPlace.kernel as Kernel;
    const top = alignUp(inPlace.top, 8);
    if (top + setUpBytes(k, measures, options, batch.numQueries, maxN, maxJ) <= k.memory.buffer.byteLength)
      return evaluateInPlace(batch, inPlace, measures, options, maxN, maxJ, queryName);
  }
  const gains = measures.some((m) => m.family.gain);
  const kernel = retained ?? new Kernel();
  retained = undefined;
  kernel.use = BATCH_USE;
  const nq = batch.numQueries;
  const results = measures.map(() => new Float64Array(nq));
  const { exports } = kernel;

  const { maxN, maxJ } = extents(batch);
  const setup = setUp(kernel, exports.heapBase(), measures, options, maxN, maxJ);
  // The docid pool: whole when small, else per block.
  let poolBytes = 0;
  let poolOffsets = 0;
  const pool = batch.docids && batch.pool ? batch.pool : null;
  const wholePool = pool !== null && pool.bytes.length <= poolWhole;
  if (wholePool) {
    poolBytes = kernel.put(pool.bytes);
    poolOffsets = kernel.put(pool.offsets);
  }
  const blockStart = kernel.mark;

  const ns = measures.length;
  const jo = batch.judgedOffsets;
  for (let from = 0; from < nq; ) {
    let to = from;
    let bytes = 0;
    while (to < nq) {
      const rows = batch.offsets[to + 1] - batch.offsets[to];
      const judged = jo ? jo[to + 1] - jo[to] : 0;
      const add =
        rows * (16 + (batch.docids ? 4 : 0)) +
        judged * 8 +
        8 +
        ns * 8 +
        (div && needsSubtopics ? diversityBytes(batch, div, to) : 0);
      if (to > from && bytes + add > blockBytes) break;
      bytes += add;
      to++;
    }
    const n = to - from;
    const r0 = batch.offsets[from];
    const r1 = batch.offsets[to];
    const block = extents(batch, from, to);

    kernel.reset(blockStart);
    kernel.use = new BlockUse(n, r1 - r0);
    const offsets = kernel.alloc((n + 1) * 4);
    const scores = kernel.alloc((r1 - r0) * 8);
    const labels = kernel.alloc((r1 - r0) * 8);
    let judgedOffsets = offsets;
    let judged = labels;
    let j0 = 0;
    let j1 = 0;
    if (jo && batch.judged) {
      j0 = jo[from];
      j1 = jo[to];
      judgedOffsets = kernel.alloc((n + 1) * 4);
      judged = kernel.alloc((j1 - j0) * 8);
    }
    const rowDocids = batch.docids ? kernel.alloc((r1 - r0) * 4) : 0;
    // A large pool: the block's entries as a range [lo, hi] (ids - lo), else gathered (ids = position).
    let blockPoolBytes = poolBytes;
    let blockPoolOffsets = poolOffsets;
    let idBase = 0;
    let gathered = false;
    if (pool && !wholePool) {
      const ids = batch.docids!;
      let lo = 0x7fffffff;
      let hi = -1;
      if (ids === "rows") {
        lo = r0;
        hi = r1 - 1;
      } else {
        for (let i = r0; i < r1; i++) {
          const d = ids[i];
          if (d < lo) lo = d;
          if (d > hi) hi = d;
        }
      }
      if (hi < lo) lo = hi = 0;
      gathered = hi - lo > 4 * (r1 - r0) + 1024;
      const entries = gathered ? r1 - r0 : hi - lo + 1;
      let size = 0;
      if (gathered)
        for (let i = r0; i < r1; i++) size += pool.offsets[docidEntry(ids, i) + 1] - pool.offsets[docidEntry(ids, i)];
      else size = pool.offsets[hi + 1] - pool.offsets[lo];
      blockPoolOffsets = kernel.alloc((entries + 1) * 4);
      const o = kernel.i32(blockPoolOffsets, entries + 1);
      if (gathered) {
        for (let i = 0, at = 0; i < entries; i++) {
          const e = docidEntry(ids, r0 + i);
          o[i] = at;
          at += pool.offsets[e + 1] - pool.offsets[e];
        }
        o[entries] = size;
      } else {
        const b0 = pool.offsets[lo];
        for (let i = 0; i <= entries; i++) o[i] = pool.offsets[lo + i] - b0;
        idBase = lo;
      }
      blockPoolBytes = kernel.alloc(size + 16);
      const bytes = kernel.u8(blockPoolBytes, size);
      if (gathered) {
        for (let i = 0, at = 0; i < entries; i++) {
          const s = pool.offsets[docidEntry(ids, r0 + i)];
          const e = pool.offsets[docidEntry(ids, r0 + i) + 1];
          bytes.set(pool.bytes.subarray(s, e), at);
          at += e - s;
        }
      } else bytes.set(pool.bytes.subarray(pool.offsets[lo], pool.offsets[hi + 1]));
    }
    const scratch = kernel.alloc(exports.scratchBytes(block.maxN, block.maxJ, setup.gains.table.length));
    const out = kernel.alloc(ns * n * 8);

    // Views made from here stay valid until the next alloc.
    const o = kernel.i32(offsets, n + 1);
    for (let q = 0; q <= n; q++) o[q] = batch.offsets[from + q] - r0;
    kernel.f64(scores, r1 - r0).set(batch.scores.subarray(r0, r1));
    kernel.f64(labels, r1 - r0).set(batch.labels.subarray(r0, r1));
    if (batch.checkNumbers && !(exports.allFinite(scores, r1 - r0) && exports.allFinite(labels, r1 - r0)))
      batch.checkNumbers();
    if (jo && batch.judged) {
      const j = kernel.i32(judgedOffsets, n + 1);
      for (let q = 0; q <= n; q++) j[q] = jo[from + q] - j0;
      kernel.f64(judged, j1 - j0).set(batch.judged.subarray(j0, j1));
    }
    if (batch.docids) {
      const d = kernel.i32(rowDocids, r1 - r0);
      const ids = batch.docids;
      if (gathered) for (let i = 0; i < r1 - r0; i++) d[i] = i;
      else if (ids === "rows") for (let i = 0; i < r1 - r0; i++) d[i] = r0 + i - idBase;
      else if (idBase === 0) d.set(ids.subarray(r0, r1));
      else for (let i = 0; i < r1 - r0; i++) d[i] = ids[r0 + i] - idBase;
    }

    configure(kernel, setup, options, rowDocids, blockPoolBytes, blockPoolOffsets, scratch, block.maxN, block.maxJ);
    if (gains) {
      const judgedAt = jo && batch.judged ? kernel.i32(judgedOffsets, n + 1) : null;
      const laid = { labels, offsets: kernel.i32(offsets, n + 1), judged, judgedOffsets: judgedAt };
      checkGains(kernel, laid, n, from, options, queryName);
    }
    if (div && needsSubtopics) layDiversity(kernel, div, from, to, r0, r1, block.maxN);
    exports.evaluate(n, offsets, scores, labels, judgedOffsets, judged, ns, ...setup.specs, out);

    const values = kernel.f64(out, ns * n);
    for (let s = 0; s < ns; s++) results[s].set(values.subarray(s * n, (s + 1) * n), from);
    from = to;
  }
  if (kernel.memory.buffer.byteLength <= RETAIN_BYTES) retained = kernel;
  return results;
}

/** runKernel on a batch in kernel memory: only the results are copied. */
function evaluateInPlace(
  batch: Batch,
  at: InPlace,
  measures: readonly Measure[],
  options: ResolvedOptions,
  maxN: number,
  maxJ: number,
  queryName: (q: number) => string,
): Float64Array[] {
  const kernel = at.kernel as Kernel;
  const nq = batch.numQueries;
  const ns = measures.length;
  const setup = setUp(kernel, alignUp(at.top, 8), measures, options, maxN, maxJ);
  const scratch = kernel.alloc(kernel.exports.scratchBytes(maxN, maxJ, setup.gains.table.length));
  const out = kernel.alloc(ns * nq * 8);
  const docids = batch.docids ? at.docids : 0;
  configure(
    kernel,
    setup,
    options,
    docids,
    docids ? at.poolBytes : 0,
    docids ? at.poolOffsets : 0,
    scratch,
    maxN,
    maxJ,
  );
  const judged = batch.judged && batch.judgedOffsets;
  if (measures.some((m) => m.family.gain)) {
    const laid = {
      labels: at.labels,
      offsets: kernel.i32(at.offsets, nq + 1),
      judged: judged ? at.judged : at.labels,
      judgedOffsets: judged ? kernel.i32(at.judgedOffsets, nq + 1) : null,
    };
    checkGains(kernel, laid, nq, 0, options, queryName);
  }
  kernel.exports.evaluate(
    nq,
    at.offsets,
    at.scores,
    at.labels,
    judged ? at.judgedOffsets : at.offsets,
    judged ? at.judged : at.labels,
    ns,
    ...setup.specs,
    out,
  );
  const values = kernel.f64(out, ns * nq);
  return measures.map((_, s) => values.slice(s * nq, (s + 1) * nq));
}
