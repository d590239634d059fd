/**
 * The coordinating side of partition.ts: cuts files into chunks at line ends, chunk k to worker k mod n
 * (at most AHEAD per worker in flight), merges the owners' values. Any failure ends the session and the
 * caller reads the rest the one-worker way, which reports the error. Workers outlive a session and a
 * session may end with answers in flight, so every message carries its session number. Browser compatible.
 */
import type { Evaluated } from "./evaluate.js";
import { mergeBlocks } from "./merge.js";
import { mergeOwned, type OwnedJudgments, type OwnedRun } from "./partition.js";
import type { PartFile, PartitionJob, PartitionMessage, PartitionReport } from "./partition-protocol.js";

/** A worker as this side holds it. */
export interface PartitionPort<S, Spec> {
  post(message: PartitionMessage<S, Spec>, transfer?: Transferable[]): void;
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

/** The least bytes (judgments and runs together) worth the workers: below, one is as fast. */
export const PARTITION_MIN_BYTES = 32 << 20;

/**
 * The fewest workers worth it: partitioning costs extra work (2.3 s CPU vs 1.4 s on the large set), so 2
 * threads took 1.3 s vs 1.1 s for one reader thread; on 16 cores 4 threads took 1.6 s vs 1.8 s.
 */
export const PARTITION_MIN_WORKERS = 4;

/** Most chunks in flight per worker (bounds memory). */
const AHEAD = 2;

/** A chunk's bytes, a few per worker, at most `most` (measured: 1-2 MiB 1.2 s, 8 MiB 1.3 s, 32 MiB 1.5 s). */
function chunkBytes(size: number, parts: number, most = 4 << 20): number {
  return Math.min(most, Math.max(256 << 10, Math.ceil(size / (4 * parts))));
}

/** Evaluates the runs across the workers and releases them; returns how many it evaluated (the caller does the rest). */
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

/** Judgments held by the workers (each owns its queries'), runs evaluated against them until a failure or end(). */
export class Partitions<S, Spec> {
  private readonly session: Session<S, Spec>;
  private judging: Promise<OwnedJudgments[]> | null = null;
  private job: PartitionJob<Spec> | null = null;
  /** The next run's stream; 0 is the judgments'. */
  private nextStream = 1;

  constructor(
    ports: readonly PartitionPort<S, Spec>[],
    readAt: ReadAt<S>,
    progress?: PartitionProgress,
    chunkMost?: number,
  ) {
    this.session = new Session(ports, readAt, progress, chunkMost);
  }

  get parts(): number {
    return this.session.parts;
  }

  get failed(): boolean {
    return this.session.isFailed;
  }

  /** Streams the judgments to their owners; false where a worker failed. Once only. */
  async judge(qrels: PartFile<S>, job: PartitionJob<Spec>): Promise<boolean> {
    const session = this.session;
    this.job = job;
    try {
      session.start(job);
      session.all({ type: "judgmentsStart", file: qrels.name, expectedBytes: Math.ceil(qrels.size / session.parts) });
      await session.stream(qrels, 0);
      this.judging = session.ask<OwnedJudgments>({ type: "judgmentsEnd", file: qrels.name });
      return true;
    } catch (e) {
      if (!(e instanceof Failed)) throw session.abandon(e);
      return false;
    }
  }

  /** The grouped judgments; null where the one-worker way must read them (failure, none, truncated trec labels). */
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

  /** Evaluates the runs (each split while the one before merges); returns how many it evaluated. */
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
        const stream = this.nextStream++;
        session.all(
          spec === undefined
            ? { type: "runStart", stream, file: run.name }
            : { type: "runStart", stream, file: run.name, spec },
        );
        const last = await session.stream(run, stream);
        const owned = session.ask<OwnedRun>({ type: "runEnd" });
        if (previous && !(await finish(previous))) return evaluated;
        previous = { owned, last };
      }
      if (previous) await finish(previous);
      return evaluated;
    } catch (e) {
      if (!(e instanceof Failed)) throw session.abandon(e);
      return evaluated;
    }
  }

  end(): void {
    this.session.end();
  }
}

/** A worker failed: the one-worker way goes on. */
class Failed extends Error {}

/** One question to every worker. */
interface Asked {
  out: unknown[];
  left: number;
  resolve: (out: unknown[]) => void;
}

let sessions = 0;

class Session<S, Spec> {
  private readonly id = ++sessions;
  private failure: Failed | null = null;
  private onChunk: ((r: PartitionReport) => void) | null = null;
  private readonly failed = new Set<(e: Failed) => void>();
  private readonly asked: Asked[] = [];
  /** Answers worker i gave so far. */
  private readonly answered: number[];

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
          if (r.session !== this.id) return;
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

  /** Starts each worker with a port to every peer: buckets go splitter to owner directly. */
  start(job: PartitionJob<Spec>): void {
    const n = this.ports.length;
    const peers: (MessagePort | null)[][] = Array.from({ length: n }, () => new Array(n).fill(null));
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const channel = new MessageChannel();
        peers[i][j] = channel.port1;
        peers[j][i] = channel.port2;
      }
    peers.forEach((own, index) => {
      const transfer = own.filter((p): p is MessagePort => p !== null);
      this.ports[index].post({ type: "start", session: this.id, index, parts: n, job, peers: own }, transfer);
    });
  }

  all(message: PartitionMessage<S, Spec>): void {
    for (const port of this.ports) port.post(message);
  }

  private fail(message: string): void {
    if (this.failure) return;
    this.failure = new Failed(message);
    for (const f of this.failed) f(this.failure);
  }

  /** Fails the session for an error of this side; returns `e`. */
  abandon(e: unknown): unknown {
    this.fail(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    return e;
  }

  private guard<T>(run: (resolve: (v: T) => void) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.failure) return reject(this.failure);
      const onFail = (e: Failed) => reject(e);
      this.failed.add(onFail);
      run((v) => {
        this.failed.delete(onFail);
        resolve(v);
      });
    });
  }

  ask<T>(message: PartitionMessage<S, Spec>): Promise<T[]> {
    const answers = this.guard<unknown[]>((resolve) => {
      this.asked.push({ out: new Array(this.ports.length), left: this.ports.length, resolve });
      this.all(message);
    }) as Promise<T[]>;
    // Raised where awaited.
    answers.catch(() => {});
    return answers;
  }

  /** Streams `file` in chunks; resolves once all are taken, with the owner of its last query line (-1: none). */
  async stream(file: PartFile<S>, stream: number): Promise<number> {
    const parts = this.ports.length;
    const cuts = await lineCuts(this.readAt, file, chunkBytes(file.size, parts, this.chunkMost));
    const chunks = cuts.length - 1;
    this.progress?.start(file.name, file.size);
    return this.guard<number>((resolve) => {
      /** Chunk k's last line's owner (-2: not split yet). */
      const lasts = new Int32Array(chunks).fill(-2);
      const takes = new Int32Array(chunks).fill(parts);
      let issued = 0;
      let taken = 0;
      const issue = () => {
        while (issued < chunks && issued - taken < AHEAD * parts) {
          const k = issued++;
          this.ports[k % parts].post({
            type: "split",
            stream,
            chunk: k,
            source: file.source,
            start: cuts[k],
            end: cuts[k + 1],
          });
        }
      };
      this.onChunk = (r) => {
        if (r.type === "split") lasts[r.chunk] = r.last;
        if (r.type !== "took" || --takes[r.chunk] > 0) return;
        // Owners take chunks in order.
        taken++;
        this.progress?.update(cuts[taken]);
        if (taken < chunks) return issue();
        this.onChunk = null;
        this.progress?.done();
        let last = -1;
        for (const l of lasts) if (l >= 0) last = l;
        resolve(last);
      };
      if (chunks > 0) return issue();
      this.progress?.done();
      resolve(-1);
    });
  }

  /** Lets the workers go: idle after a success, ended after a failure. */
  end(): void {
    this.onChunk = null;
    for (const port of this.ports) {
      if (!this.failure) port.post({ type: "stop" });
      port.release(!this.failure);
    }
  }
}

/** Line starts near every `step` bytes of the file, then its size: chunk k is [cuts[k], cuts[k + 1]). */
async function lineCuts<S>(readAt: ReadAt<S>, file: PartFile<S>, step: number): Promise<number[]> {
  const size = file.size;
  /** The first line start at or after `at` (size: none). */
  const cutAt = async (at: number): Promise<number> => {
    for (let pos = at - 1; pos < size; ) {
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
  // 64 at a time: a browser's File reads are each a round trip.
  const found: number[] = [];
  for (let i = 0; i < at.length; i += 64) found.push(...(await Promise.all(at.slice(i, i + 64).map(cutAt))));
  const cuts = [0];
  for (const cut of found) {
    if (cut >= size) break;
    // A line longer than `step` yields one cut.
    if (cut > cuts[cuts.length - 1]) cuts.push(cut);
  }
  cuts.push(size);
  return cuts;
}
