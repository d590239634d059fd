/**
 * Evaluation across workers sharing nothing: each owns the queries whose id hashes to it (partitionOf)
 * and returns per-query values mergeBlocks orders as one worker would: bit-identical for any count.
 * Owners check every parsed id hashes to them (splitter and parsers must agree where an id ends).
 * Browser compatible.
 */
import { compareBytes } from "../c/strings.js";
import type { Interner } from "../io/interner.js";
import { QrelsParser } from "../io/qrels.js";
import { alignUp, constant, growTo, instantiate, type MemoryUse } from "../kernel/module.js";
import { RunParser, type RunRows } from "../io/run.js";
import { querySpans } from "../io/rows.js";
import { IN_THREAD_BLOCK_ROWS, RunBlockParser, RunBlocks, type RunSummary } from "./blocks.js";
import type { Evaluated } from "./evaluate.js";
import { groupJudgments, joinParsed, type GroupedJudgments, type JoinedRun } from "./join-rows.js";

/** FNV-1a. */
function queryHash(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

export function partitionOf(bytes: Uint8Array, start: number, end: number, parts: number): number {
  return queryHash(bytes, start, end) % parts;
}

/** A chunk of lines cut into one bucket per worker. */
export interface Split {
  buckets: Uint8Array[];
  /** The owner of the chunk's last line with a query id (-1: none). */
  last: number;
}

const SPLIT_MEMORY: MemoryUse = { what: "a chunk of lines split among workers", advice: "use fewer threads" };

/** Cuts chunks of whole lines into `parts` buckets by partitionOf(first field), in order (assembly/split.ts). */
export class QuerySplitter {
  private readonly kernel = instantiate();
  private readonly base: number;
  private at = { input: 0, starts: 0, owners: 0, sizes: 0, offsets: 0, out: 0, capacity: 0, bytes: -1 };

  constructor(readonly parts: number) {
    if (!(Number.isInteger(parts) && parts >= 1 && parts <= 256))
      throw new RangeError(`QuerySplitter: parts must be an integer from 1 to 256, not ${parts}`);
    this.base = alignUp(this.kernel.exports.heapBase(), 16);
  }

  /** Where to put a chunk (valid until the next call). */
  input(bytes: number): Uint8Array {
    if (bytes > this.at.bytes) {
      const capacity = Math.max(1024, Math.ceil(bytes / 64));
      const input = this.base;
      const starts = alignUp(input + bytes + constant(this.kernel.instance, "SPLIT_PAD"), 16);
      const owners = starts + 4 * capacity;
      const sizes = owners + 4 * capacity;
      const offsets = sizes + 4 * (this.parts + 2);
      const out = alignUp(offsets + 4 * this.parts, 16);
      growTo(this.kernel.memory, out + bytes, SPLIT_MEMORY);
      this.at = { input, starts, owners, sizes, offsets, out, capacity, bytes };
    }
    return new Uint8Array(this.kernel.memory.buffer, this.at.input, bytes);
  }

  /** Splits input()'s first `bytes`; `take` gives bucket memory (given-back buffers spare page faults). */
  split(bytes: number, take: (size: number) => Uint8Array = (size) => new Uint8Array(size)): Split {
    const { input, starts, owners, sizes, offsets, out, capacity } = this.at;
    const parts = this.parts;
    // The kernel may stop for want of room: the rest is split after, in pieces.
    const pieces: Uint8Array[][] = Array.from({ length: parts }, () => []);
    let last = -1;
    for (let pos = 0; ; ) {
      this.kernel.exports.splitLines(input + pos, input + bytes, parts, starts, owners, capacity, sizes, offsets, out);
      const memory = this.kernel.memory.buffer;
      const got = new Int32Array(memory, sizes, parts + 2);
      if (got[parts] >= 0) last = got[parts];
      const done = pos + got[parts + 1] === bytes;
      let at = out;
      for (let k = 0; k < parts; k++) {
        const view = new Uint8Array(memory, at, got[k]);
        at += got[k];
        if (pos === 0 && done) {
          const bucket = take(got[k]);
          bucket.set(view);
          pieces[k].push(bucket);
        } else pieces[k].push(view.slice());
      }
      if (done) break;
      pos += got[parts + 1];
    }
    const buckets = pieces.map((p) => {
      if (p.length === 1) return p[0];
      const bucket = take(p.reduce((n, b) => n + b.length, 0));
      let at = 0;
      for (const b of p) {
        bucket.set(b, at);
        at += b.length;
      }
      return bucket;
    });
    return { buckets, last };
  }
}

/** An owner parsed a query id not its own. */
export class Misrouted extends Error {}

export interface OwnedJudgments {
  rows: number;
  queries: number;
  /** Labels above 0 (-c's num_rel). */
  positive: number;
  /** Some label trec_eval's atol reads otherwise. */
  truncated: boolean;
}

export interface OwnedRun {
  parts: Evaluated[];
  summary: RunSummary;
  warnings: string[];
}

export type EvaluatorFor = (file: string, warn: (message: string) => void) => (joined: JoinedRun) => Evaluated;

/** The worker of partition `index`; `complete` and `placeholder` as RunSource's. */
export class PartitionOwner {
  private qrels: QrelsParser<"per-row"> | null = null;
  private judgments: GroupedJudgments | null = null;
  private qidNames: Interner | null = null;
  /** Query ids checked to hash here. */
  private owned = new Uint8Array(0);
  private run: {
    file: string;
    warnings: string[];
    parts: Evaluated[];
    evaluate: (joined: JoinedRun) => Evaluated;
    blocks: RunBlocks | null;
    parser: RunBlockParser | null;
    /** Under `complete`: buckets joined whole at the end. */
    held: Uint8Array[];
  } | null = null;

  constructor(
    readonly index: number,
    readonly parts: number,
    private readonly evaluatorFor: EvaluatorFor,
    private readonly options: { complete?: boolean; placeholder?: boolean } = {},
  ) {}

  judgmentsChunk(bucket: Uint8Array, file: string, qids: Interner, expectedBytes = 0): void {
    this.qrels ??= new QrelsParser({ file, qids, docids: "per-row", expectedBytes });
    this.qrels.push(bucket);
  }

  judgmentsEnd(file: string, qids: Interner): OwnedJudgments {
    const rows = (this.qrels ?? new QrelsParser({ file, qids, docids: "per-row" })).finish();
    this.qrels = null;
    const judgments = groupJudgments(rows);
    this.judgments = judgments;
    this.qidNames = judgments.qrels.qidNames;
    const { begin, end } = judgments.groups;
    let queries = 0;
    for (let q = 0; q < begin.length; q++) if (end[q] > begin[q]) this.check(q), queries++;
    let positive = 0;
    const rel = judgments.qrels.rel;
    for (let i = 0; i < judgments.qrels.length; i++) if (rel[i] > 0) positive++;
    return { rows: judgments.qrels.length, queries, positive, truncated: rows.truncated !== undefined };
  }

  runStart(file: string, evaluatorFor: EvaluatorFor = this.evaluatorFor): void {
    const judgments = this.judgments;
    if (!judgments) throw new Error("PartitionOwner: a run before the judgments");
    const warnings: string[] = [];
    const parts: Evaluated[] = [];
    const evaluate = evaluatorFor(file, (w) => warnings.push(w));
    const whole = this.options.complete === true;
    const blocks = whole ? null : new RunBlocks(judgments, file, (joined) => parts.push(evaluate(joined)), true);
    const parser = whole
      ? null
      : new RunBlockParser(
          file,
          judgments.qrels.qidNames,
          (rows) => {
            this.checkRows(rows);
            blocks!.add(rows);
          },
          // An owner reads, joins and evaluates in its one thread (forced on 2 cores, 2 owners: 1.43 s
          // with these blocks, 1.53 s with the 2^19 rows of 2^20 / owners).
          IN_THREAD_BLOCK_ROWS,
        );
    this.run = { file, warnings, parts, evaluate, blocks, parser, held: [] };
  }

  /** True where the bucket is kept (under `complete`), false once parsed. */
  runChunk(bucket: Uint8Array): boolean {
    const r = this.run!;
    if (r.parser) r.parser.push(bucket);
    else r.held.push(bucket);
    return !r.parser;
  }

  runEnd(): OwnedRun {
    const r = this.run!;
    this.run = null;
    if (r.parser) {
      const runTag = r.parser.finish();
      return { parts: r.parts, summary: r.blocks!.finish(runTag), warnings: r.warnings };
    }
    // trec_eval -c: the run whole.
    const judgments = this.judgments!;
    const parser = new RunParser({ file: r.file, qids: judgments.qrels.qidNames, docids: "per-row" });
    for (const b of r.held.splice(0)) parser.push(b);
    const run = parser.finish();
    this.checkRows(run);
    const joined = joinParsed(judgments, run, { complete: true, placeholder: this.options.placeholder });
    const evaluated = joined.qids.length - joined.notInRun;
    const summary: RunSummary = {
      runTag: joined.runTag,
      notJudged: joined.notJudged,
      notInRunQids: joined.notInRunQids,
      rows: run.length,
      queries: evaluated + joined.notJudged,
      evaluated,
      someQids: [],
    };
    return { parts: joined.qids.length ? [r.evaluate(joined)] : [], summary, warnings: r.warnings };
  }

  private checkRows(rows: RunRows): void {
    const { ids } = rows.spans ?? querySpans(rows.qid, rows.length);
    for (let k = 0; k < ids.length; k++) this.check(ids[k]);
  }

  private check(q: number): void {
    if (q < this.owned.length && this.owned[q]) return;
    if (q >= this.owned.length) {
      const grown = new Uint8Array(Math.max(q + 1, 2 * this.owned.length, 1024));
      grown.set(this.owned);
      this.owned = grown;
    }
    const bytes = this.qidNames!.bytesOf(q);
    if (partitionOf(bytes, 0, bytes.length, this.parts) !== this.index)
      throw new Misrouted(`query ${JSON.stringify(this.qidNames!.stringOf(q))} is not partition ${this.index}'s`);
    this.owned[q] = 1;
  }
}

/** The owners' runs merged as one worker's; null where only the one-worker way can say why not. */
export function mergeOwned(owned: readonly OwnedRun[], lastOwner: number): OwnedRun | null {
  const sum = (f: (s: RunSummary) => number) => owned.reduce((n, o) => n + f(o.summary), 0);
  const rows = sum((s) => s.rows);
  const evaluated = sum((s) => s.evaluated);
  if (rows === 0 || evaluated === 0 || lastOwner < 0) return null;
  const notInRunQids = owned.flatMap((o) => o.summary.notInRunQids).sort(compareBytes);
  const warnings = [...new Set(owned.flatMap((o) => o.warnings))];
  return {
    parts: owned.flatMap((o) => o.parts),
    summary: {
      // The file's last line's tag.
      runTag: owned[lastOwner].summary.runTag,
      notJudged: sum((s) => s.notJudged),
      notInRunQids,
      rows,
      queries: sum((s) => s.queries),
      evaluated,
      someQids: [],
    },
    warnings,
  };
}
