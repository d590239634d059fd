/**
 * One evaluation across workers (partition.ts): this side cuts each file into chunks at line ends and
 * hands them out, passes each bucket to its owner in chunk order, and merges the owners' values; the
 * workers' side (partitionWorker) splits chunks and owns partitions. The command line's threads
 * (src/node/partitioned.ts) and the page's Web Workers (web/) each give the files' reading and the
 * workers; the rest is here, once.
 *
 * Any failure (bad input, a file not grouped as splitByQuery expects, a worker lost) ends the session:
 * the caller reads what is left the one-worker way, which says the error with its file and line.
 * Browser compatible.
 */
import type { Evaluated } from "./evaluate.js";
import { mergeBlocks } from "./merge.js";
import {
  mergeOwned,
  PartitionOwner,
  QuerySplitter,
  type EvaluatorFor,
  type OwnedJudgments,
  type OwnedRun,
} from "./partition.js";
import { Interner } from "../io/interner.js";

/** A file as the workers read it: `source` is what a worker reads it from (a path, a File), `name` its name in messages. */
export interface PartFile<S> {
  source: S;
  name: string;
  size: number;
}

/** What the owners evaluate (`spec`: the evaluator's, as data), with trec_eval's -c and its placeholder. */
export interface PartitionJob<Spec> {
  spec: Spec;
  complete?: boolean;
  placeholder?: boolean;
  /** Labels as trec_eval reads them (atol); a file with labels it reads otherwise is left to one worker, which says so. */
  trecLabels?: boolean;
}

/** This side -> a worker. */
export type PartitionMessage<S, Spec> =
  | { type: "start"; index: number; parts: number; job: PartitionJob<Spec> }
  | { type: "split"; chunk: number; source: S; start: number; end: number; spares: ArrayBuffer[] }
  | { type: "judgments"; chunk: number; bucket: Uint8Array; file: string; expectedBytes: number }
  | { type: "judgmentsEnd"; file: string }
  /** `spec`: the evaluator's for this run, where not the start's (the page's settings of the moment). */
  | { type: "runStart"; file: string; spec?: Spec }
  | { type: "run"; chunk: number; bucket: Uint8Array }
  | { type: "runEnd" }
  | { type: "stop" };

/** A worker -> this side. */
export type PartitionReport =
  | { type: "split"; chunk: number; buckets: Uint8Array[]; last: number }
  | { type: "took"; chunk: number; buffer?: ArrayBuffer }
  | { type: "judged"; judged: OwnedJudgments }
  | { type: "run"; owned: OwnedRun }
  | { type: "failed"; message: string };

/** A worker as this side holds it. */
export interface PartitionPort<S, Spec> {
  post(message: PartitionMessage<S, Spec>, transfer?: ArrayBuffer[]): void;
  listen(onReport: (r: PartitionReport) => void, onFail: (message: string) => void): void;
  /** Lets it go: `ok`, it is idle and can serve again; else end it (its state is unknown). */
  release(ok: boolean): void;
}

/** A run evaluated across the workers, as one worker would have. */
export interface PartitionedRun {
  runTag: string;
  evaluated: Evaluated;
  notInRunQids: string[];
  warnings: string[];
}

/** Where the session says how far it got: each file's bytes split and taken. */
export interface PartitionProgress {
  start(name: string, totalBytes: number): void;
  update(bytes: number): void;
  done(): void;
}

/** Reads `length` bytes of `source` from `position` (fewer at its end). */
export type ReadAt<S> = (source: S, position: number, length: number) => Uint8Array | Promise<Uint8Array>;

/** Chunks split and not yet taken by every owner, at most, per worker: memory holds this many. */
const AHEAD = 2;

/**
 * A chunk's bytes: a few per worker, so that every worker has one while the others' are passed on;
 * `most` at most: 2 MiB by default (measured on the large set, two threads: 1.2 s with 1-2 MiB chunks,
 * 1.3 s with 8, 1.5 with 32, and more memory; below 1 MiB the messages cost more than they save).
 */
export function chunkBytes(size: number, parts: number, most = 2 << 20): number {
  return Math.min(most, Math.max(256 << 10, Math.ceil(size / (4 * parts))));
}

/**
 * Evaluates the runs with the judgments across the workers; `onJudged` gets what the judgments came
 * to, `done` each run, in order, as soon as it is merged. Returns how many runs it evaluated: the caller
 * evaluates the rest (all, where the judgments failed) the one-worker way. The workers are released.
 */
export async function evaluatePartitions<S, Spec>(
  ports: readonly PartitionPort<S, Spec>[],
  readAt: ReadAt<S>,
  qrels: PartFile<S>,
  runs: readonly PartFile<S>[],
  job: PartitionJob<Spec>,
  onJudged: (judged: OwnedJudgments) => void,
  done: (index: number, run: PartitionedRun) => void,
  progress?: PartitionProgress,
): Promise<number> {
  const partitions = new Partitions(ports, readAt, progress);
  try {
    if (!(await partitions.judge(qrels, job))) return 0;
    return await partitions.evaluate(runs, done, onJudged);
  } finally {
    partitions.end();
  }
}

/**
 * The judgments held by the workers, each owning its queries', and runs evaluated against them when
 * they come: evaluatePartitions in one go; the page judges when the qrels file is chosen and evaluates
 * each set of runs chosen after (`spec`: the settings of the moment), until a failure or end().
 */
export class Partitions<S, Spec> {
  private readonly session: Session<S, Spec>;
  /** What the owners' judgments came to, once grouped; null once none can be used (see judged()). */
  private judging: Promise<OwnedJudgments[]> | null = null;
  private job: PartitionJob<Spec> | null = null;

  /** `chunkMost`: the most bytes of a chunk (chunkBytes's `most`), where reads cost more than messages. */
  constructor(
    ports: readonly PartitionPort<S, Spec>[],
    readAt: ReadAt<S>,
    progress?: PartitionProgress,
    chunkMost?: number,
  ) {
    this.session = new Session(ports, readAt, progress, chunkMost);
  }

  /** How many workers. */
  get parts(): number {
    return this.session.parts;
  }

  /** Whether a worker failed: the workers are of no more use (end() ends them). */
  get failed(): boolean {
    return this.session.isFailed;
  }

  /**
   * Streams the judgments to their owners, who group them while the first run is split; false where
   * a worker failed. Once only.
   */
  async judge(qrels: PartFile<S>, job: PartitionJob<Spec>): Promise<boolean> {
    const session = this.session;
    const parts = session.parts;
    this.job = job;
    try {
      for (let index = 0; index < parts; index++) session.post(index, { type: "start", index, parts, job });
      await session.stream(qrels, (owner, chunk, bucket) =>
        session.post(
          owner,
          { type: "judgments", chunk, bucket, file: qrels.name, expectedBytes: Math.ceil(qrels.size / parts) },
          [bucket.buffer as ArrayBuffer],
        ),
      );
      this.judging = session.ask<OwnedJudgments>({ type: "judgmentsEnd", file: qrels.name });
      return true;
    } catch (e) {
      if (!(e instanceof Failed)) throw e;
      return false;
    }
  }

  /**
   * What the judgments came to, once grouped; null where the one-worker way must read them (a worker
   * failed, no judgments, labels trec_eval reads otherwise: it says so, naming the line).
   */
  async judged(): Promise<OwnedJudgments | null> {
    if (!this.judging) return null;
    let owned: OwnedJudgments[];
    try {
      owned = await this.judging;
    } catch (e) {
      if (!(e instanceof Failed)) throw e;
      return null;
    }
    const total = owned.reduce((t, j) => ({
      rows: t.rows + j.rows,
      queries: t.queries + j.queries,
      positive: t.positive + j.positive,
      truncated: t.truncated || j.truncated,
    }));
    return total.rows === 0 || (total.truncated && this.job!.trecLabels) ? null : total;
  }

  /**
   * Evaluates the runs against the judgments (each split while the one before ends); `done` gets each,
   * in order, as soon as it is merged, `onJudged` the judgments before the first. `spec`: the
   * evaluator's for these runs (else the judge()'s job's). Returns how many runs it evaluated: the
   * caller evaluates the rest the one-worker way.
   */
  async evaluate(
    runs: readonly PartFile<S>[],
    done: (index: number, run: PartitionedRun) => void,
    onJudged?: (judged: OwnedJudgments) => void,
    spec?: Spec,
  ): Promise<number> {
    const session = this.session;
    let evaluated = 0;
    let ready = false;
    let previous: { owned: Promise<OwnedRun[]>; last: number } | null = null;
    /** The run before, merged and handed on; false where the one-worker way must say why it evaluates nothing. */
    const finish = async (p: { owned: Promise<OwnedRun[]>; last: number }): Promise<boolean> => {
      if (!ready) {
        const total = await this.judged();
        if (!total) return false;
        onJudged?.(total);
        ready = true;
      }
      const merged = mergeOwned(await p.owned, p.last);
      if (!merged) return false;
      const s = merged.summary;
      done(evaluated, {
        runTag: s.runTag,
        evaluated: mergeBlocks(merged.parts, s.notJudged, s.notInRunQids.length),
        notInRunQids: s.notInRunQids,
        warnings: merged.warnings,
      });
      evaluated++;
      return true;
    };
    try {
      if (!this.judging || session.isFailed) return 0;
      for (const run of runs) {
        const start: PartitionMessage<S, Spec> =
          spec === undefined ? { type: "runStart", file: run.name } : { type: "runStart", file: run.name, spec };
        for (let i = 0; i < session.parts; i++) session.post(i, start);
        const last = await session.stream(run, (owner, chunk, bucket) =>
          session.post(owner, { type: "run", chunk, bucket }, [bucket.buffer as ArrayBuffer]),
        );
        const owned = session.ask<OwnedRun>({ type: "runEnd" });
        if (previous && !(await finish(previous))) return evaluated;
        previous = { owned, last };
      }
      if (previous) await finish(previous);
      return evaluated;
    } catch (e) {
      if (!(e instanceof Failed)) throw e;
      return evaluated;
    }
  }

  /** Lets the workers go: idle and emptied after a success; ended after a failure (their state unknown). */
  end(): void {
    this.session.end();
  }
}

/** A worker failed (bad input, a file not grouped by query, a worker lost): the one-worker way goes on. */
class Failed extends Error {}

/** A question to every worker, answered by one report each, in the order asked. */
interface Asked {
  out: unknown[];
  left: number;
  resolve: (out: unknown[]) => void;
}

/** This side of one evaluation across the workers. */
class Session<S, Spec> {
  private failure: Failed | null = null;
  /** The chunks' reports ("split", "took") of the file being streamed. */
  private onChunk: ((r: PartitionReport) => void) | null = null;
  private readonly failed = new Set<(e: Failed) => void>();
  private readonly asked: Asked[] = [];
  /** answered[i]: the answers worker i gave so far (its next answers asked[answered[i]]). */
  private readonly answered: number[];
  /** Buckets' buffers their owners gave back, for the next splits. */
  private readonly spares: ArrayBuffer[] = [];

  constructor(
    private readonly ports: readonly PartitionPort<S, Spec>[],
    private readonly readAt: ReadAt<S>,
    private readonly progress?: PartitionProgress,
    private readonly chunkMost?: number,
  ) {
    this.answered = ports.map(() => 0);
    ports.forEach((port, index) =>
      port.listen(
        (r) => {
          if (r.type === "failed") return this.fail(r.message);
          if (r.type === "judged" || r.type === "run") {
            const a = this.asked[this.answered[index]++];
            a.out[index] = r.type === "judged" ? r.judged : r.owned;
            if (--a.left === 0) a.resolve(a.out);
          } else this.onChunk?.(r);
        },
        (message) => this.fail(`a worker ended (${message})`),
      ),
    );
  }

  get parts(): number {
    return this.ports.length;
  }

  get isFailed(): boolean {
    return this.failure !== null;
  }

  post(index: number, message: PartitionMessage<S, Spec>, transfer?: ArrayBuffer[]): void {
    this.ports[index].post(message, transfer);
  }

  private fail(message: string): void {
    if (this.failure) return;
    this.failure = new Failed(message);
    for (const f of this.failed) f(this.failure);
  }

  /** Rejects with the session's failure (at once if it failed already). */
  private guard<T>(run: (resolve: (v: T) => void, reject: (e: unknown) => void) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      const onFail = (e: Failed) => reject(e);
      this.failed.add(onFail);
      run(
        (v) => {
          this.failed.delete(onFail);
          resolve(v);
        },
        (e) => {
          this.failed.delete(onFail);
          reject(e);
        },
      );
    });
  }

  /** `message` sent to every worker; their answers, in worker order. */
  ask<T>(message: PartitionMessage<S, Spec>): Promise<T[]> {
    const answers = this.guard<unknown[]>((resolve) => {
      this.asked.push({ out: new Array(this.ports.length), left: this.ports.length, resolve });
      for (let i = 0; i < this.ports.length; i++) this.post(i, message);
    }) as Promise<T[]>;
    // Raised where awaited (a failure meanwhile ends the session there).
    answers.catch(() => {});
    return answers;
  }

  /**
   * `file` cut into chunks at line ends, each split by a worker (chunk k by worker k mod n) and each
   * bucket handed to `give` for its owner in chunk order; resolves once every owner took every bucket,
   * with the owner of the file's last line with a query id (-1: none).
   */
  async stream(file: PartFile<S>, give: (owner: number, chunk: number, bucket: Uint8Array) => void): Promise<number> {
    const parts = this.ports.length;
    const cuts = await lineCuts(this.readAt, file, chunkBytes(file.size, parts, this.chunkMost));
    const chunks = cuts.length - 1;
    this.progress?.start(file.name, file.size);
    const spares = this.spares;
    return this.guard<number>((resolve) => {
      const splits = new Map<number, { buckets: Uint8Array[]; last: number }>();
      /** takes[k]: owners yet to take chunk k's bucket. */
      const takes = new Int32Array(chunks);
      let issued = 0;
      let passed = 0;
      let taken = 0;
      let last = -1;
      const issue = () => {
        while (issued < chunks && issued - taken < AHEAD * parts) {
          const k = issued++;
          const given = spares.splice(0, parts);
          this.post(
            k % parts,
            { type: "split", chunk: k, source: file.source, start: cuts[k], end: cuts[k + 1], spares: given },
            given,
          );
        }
      };
      const took = (k: number) => {
        if (--takes[k] > 0) return;
        // Owners take their buckets in chunk order: so are chunks taken.
        taken++;
        this.progress?.update(cuts[taken]);
        if (taken < chunks) return issue();
        this.onChunk = null;
        this.progress?.done();
        resolve(last);
      };
      this.onChunk = (r) => {
        if (r.type === "took") {
          if (r.buffer) spares.push(r.buffer);
          return took(r.chunk);
        }
        if (r.type !== "split") return;
        splits.set(r.chunk, r);
        for (let split = splits.get(passed); split; split = splits.get(passed)) {
          splits.delete(passed);
          const k = passed++;
          if (split.last >= 0) last = split.last;
          let owners = 0;
          split.buckets.forEach((b, owner) => {
            if (b.length) owners++;
          });
          takes[k] = owners || 1;
          split.buckets.forEach((b, owner) => {
            if (b.length) give(owner, k, b);
          });
          if (!owners) took(k);
        }
      };
      if (chunks === 0) {
        this.progress?.done();
        resolve(-1);
      } else issue();
    });
  }

  /** Lets the workers go: idle and emptied after a success; ended after a failure (their state unknown). */
  end(): void {
    this.onChunk = null;
    this.ports.forEach((port, i) => {
      if (!this.failure) this.post(i, { type: "stop" });
      port.release(!this.failure);
    });
  }
}

/** Line starts near every `step` bytes of the file, then its size: chunk k is [cuts[k], cuts[k + 1]). */
async function lineCuts<S>(readAt: ReadAt<S>, file: PartFile<S>, step: number): Promise<number[]> {
  const size = file.size;
  /** The first line start at or after `at`: after the first newline from at - 1 on (size: none). */
  const cutAt = async (at: number): Promise<number> => {
    for (let pos = at - 1; pos < size; ) {
      // A few lines' bytes: most lines are shorter; a longer one reads on.
      const bytes = await readAt(file.source, pos, 4 << 10);
      if (bytes.length === 0) break;
      const nl = bytes.indexOf(10);
      if (nl >= 0) return pos + nl + 1;
      pos += bytes.length;
    }
    return size;
  };
  const at: number[] = [];
  for (let p = step; p < size; p += step) at.push(p);
  // Looked for several at a time: a browser's reads of a File are asynchronous, each a round trip.
  const found: number[] = [];
  for (let i = 0; i < at.length; i += 64) found.push(...(await Promise.all(at.slice(i, i + 64).map(cutAt))));
  const cuts = [0];
  for (const cut of found) {
    if (cut >= size) break;
    // A line longer than `step` holds several points: its end is one cut.
    if (cut > cuts[cuts.length - 1]) cuts.push(cut);
  }
  cuts.push(size);
  return cuts;
}

// ---- In a worker ----

/** Reads bytes [start, start + into.length) of `source` into `into`. */
export type ReadInto<S> = (source: S, start: number, into: Uint8Array) => void | Promise<void>;

/**
 * A worker's handler of the session's messages, taken in the order sent (a read may be asynchronous):
 * it splits the chunks it is given and owns its partition. `evaluatorOf` makes the evaluator of a
 * job's spec; `post` sends a report.
 */
export function partitionWorker<S, Spec>(
  post: (r: PartitionReport, transfer?: ArrayBuffer[]) => void,
  read: ReadInto<S>,
  evaluatorOf: (spec: Spec) => EvaluatorFor,
): (message: PartitionMessage<S, Spec>) => void {
  let owner: PartitionOwner | null = null;
  let splitter: QuerySplitter | null = null;
  let qids = new Interner();
  let parts = 1;
  let trecLabels = false;
  let failed = false;
  /** Buffers of buckets, given back by their owners, for the next buckets. */
  const spares: ArrayBuffer[] = [];
  const take = (size: number) => {
    if (size === 0) return new Uint8Array(0);
    const i = spares.findIndex((b) => b.byteLength >= size);
    const buffer = i >= 0 ? spares.splice(i, 1)[0] : new ArrayBuffer(Math.ceil(size * 1.25));
    return new Uint8Array(buffer, 0, size);
  };
  const giveBack = (chunk: number, bucket: Uint8Array) =>
    post({ type: "took", chunk, buffer: bucket.buffer as ArrayBuffer }, [bucket.buffer as ArrayBuffer]);

  const handle = async (m: PartitionMessage<S, Spec>): Promise<void> => {
    switch (m.type) {
      case "start":
        parts = m.parts;
        trecLabels = m.job.trecLabels === true;
        qids = new Interner();
        owner = new PartitionOwner(m.index, parts, evaluatorOf(m.job.spec), {
          complete: m.job.complete,
          placeholder: m.job.placeholder,
        });
        return;
      case "split": {
        spares.push(...m.spares);
        if (splitter?.parts !== parts) splitter = new QuerySplitter(parts);
        const bytes = m.end - m.start;
        await read(m.source, m.start, splitter.input(bytes));
        const { buckets, last } = splitter.split(bytes, take);
        const moved = buckets.filter((b) => b.length).map((b) => b.buffer as ArrayBuffer);
        return post({ type: "split", chunk: m.chunk, buckets, last }, moved);
      }
      case "judgments":
        owner!.judgmentsChunk(m.bucket, m.file, qids, m.expectedBytes);
        return giveBack(m.chunk, m.bucket);
      case "judgmentsEnd": {
        const judged = owner!.judgmentsEnd(m.file, qids);
        if (trecLabels) owner!.truncateLabels();
        return post({ type: "judged", judged });
      }
      case "runStart":
        return owner!.runStart(m.file, m.spec === undefined ? undefined : evaluatorOf(m.spec));
      case "run":
        // Kept under -c (joined whole at the end); else parsed, its buffer given back.
        if (owner!.runChunk(m.bucket)) return post({ type: "took", chunk: m.chunk });
        return giveBack(m.chunk, m.bucket);
      case "runEnd":
        return post({ type: "run", owned: owner!.runEnd() });
      case "stop":
        owner = null;
        splitter = null;
        spares.length = 0;
        qids = new Interner();
        return;
    }
  };
  let queue: Promise<void> = Promise.resolve();
  return (m) => {
    queue = queue.then(async () => {
      if (m.type === "start") failed = false;
      if (failed) return;
      try {
        await handle(m);
      } catch (e) {
        failed = true;
        post({ type: "failed", message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
      }
    });
  };
}
