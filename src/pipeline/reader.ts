/**
 * A run parsed in another thread (a Web Worker, a Node worker thread) while this one joins and evaluates
 * its blocks: parsing and evaluating on two cores. The reader parses into blocks of whole queries with
 * its own interner and posts each as a PortableBlock, buffers transferred; it waits while AHEAD blocks
 * are not yet evaluated, so memory stays bounded. The evaluating side translates each block's query
 * ids, adds it, and says so. Browser compatible.
 */
import { InputError, RankevalError } from "../errors/errors.js";
import { Interner } from "../io/interner.js";
import {
  portableBlock,
  PortableBlocks,
  RunBlockParser,
  transferables,
  type PortableBlock,
  type RunSource,
} from "./blocks.js";

/** Evaluating side -> reader: what to read, then an ack per block, with its buffer when nothing keeps it. */
export type ReaderJob<Source> =
  | { type: "read"; source: Source; file: string; blockRows: number }
  | { type: "evaluated"; buffer?: ArrayBuffer };

export type ReaderReport =
  | { type: "progress"; read: number; lines: number; seconds: number }
  | { type: "block"; block: PortableBlock }
  | { type: "end"; runTag: string }
  | ({ type: "error" } & ThreadError);

/**
 * An error of another thread as it crosses: out of memory, a bug (`internal`: not said as bad input), or a
 * RankevalError with its code, and an InputError's file, line, column and reason (structured clone keeps
 * neither class).
 */
export type ThreadError = {
  message: string;
  outOfMemory: boolean;
  internal?: boolean;
  code?: RankevalError["code"];
  input?: { file: string; line: number; column: number; reason: string };
};

export function threadError(err: unknown): ThreadError {
  const internal = !(err instanceof RankevalError) && !(err instanceof RangeError);
  const message = err instanceof Error ? (internal ? `${err.name}: ${err.message}` : err.message) : String(err);
  const code = err instanceof RankevalError ? err.code : undefined;
  const input =
    err instanceof InputError ? { file: err.file, line: err.line, column: err.column, reason: err.reason } : undefined;
  return { message, outOfMemory: err instanceof RangeError, internal, code, input };
}

export function rethrown(r: ThreadError): Error {
  if (r.outOfMemory) return new RangeError(r.message);
  if (r.input) {
    // The message as thrown (a columnar RowError words its row its own way), the fields as InputError's.
    const e = new InputError(r.input.file, r.input.line, r.input.column, r.input.reason);
    e.message = r.message;
    return e;
  }
  return r.internal ? new Error(r.message) : new RankevalError(r.code ?? "bad-input", r.message);
}

/** Blocks handed over and not yet evaluated, at most: two keep both cores busy. */
export const AHEAD = 2;

/** What a reader reads into: a parser's push and linesRead, and when to wait before the next chunk. */
export interface BlockSink {
  push(chunk: Uint8Array): void;
  readonly linesRead: number;
  /** A promise to await before the next chunk (back-pressure), or null to go on. */
  ready(): Promise<void> | null;
}

/** The reader's side: the handler of the jobs it is sent. `read` streams a source into the sink. */
export function serveBlocks<Source>(
  post: (r: ReaderReport, transfer: ArrayBuffer[]) => void,
  read: (source: Source, sink: BlockSink, progress: (read: number, seconds: number) => void) => Promise<void>,
): (job: ReaderJob<Source>) => void {
  let waiting = 0;
  let wake: (() => void) | null = null;
  const spares: ArrayBuffer[] = [];
  return (job) => {
    if (job.type === "evaluated") {
      if (job.buffer) spares.push(job.buffer);
      waiting--;
      if (wake && waiting < AHEAD) {
        const w = wake;
        wake = null;
        w();
      }
      return;
    }
    let sent = 0;
    const parser = new RunBlockParser(
      job.file,
      new Interner(),
      (rows) => {
        const block = portableBlock(rows, sent);
        sent = rows.qidNames.size;
        waiting++;
        post({ type: "block", block }, transferables(block));
      },
      job.blockRows,
      () => spares.pop(),
    );
    const sink: BlockSink = {
      push: (chunk) => parser.push(chunk),
      get linesRead() {
        return parser.linesRead;
      },
      ready: () => (waiting < AHEAD ? null : new Promise<void>((resolve) => (wake = resolve))),
    };
    read(job.source, sink, (bytes, seconds) =>
      post({ type: "progress", read: bytes, lines: parser.linesRead, seconds }, []),
    )
      .then(() => post({ type: "end", runTag: parser.finish() }, []))
      .catch((err: unknown) => post({ type: "error", ...threadError(err) }, []));
  };
}

/** The evaluating side's view of a reader: a Web Worker or a Node worker thread, started. */
export interface ReaderPort<Source> {
  send(job: ReaderJob<Source>, transfer?: ArrayBuffer[]): void;
  listen(report: (r: ReaderReport) => void, fail: (message: string) => void): void;
  /** Ends the read. `idle`: the reader said it is done, so a reader kept for other reads can take the next. */
  stop(idle?: boolean): void;
}

/**
 * RunSource.blocks for a run parsed by a reader `start` starts: each block translated to `qids`' ids,
 * added, and acknowledged once `add`'s promise settles (the reader's later messages wait behind it). A
 * reader's error rejects as the same error here would. `giveBack`: nothing keeps a block once added, so
 * its buffer goes back with the ack.
 */
export function readerBlocks<Source>(
  source: Source,
  file: string,
  blockRows: number,
  start: () => ReaderPort<Source>,
  onProgress?: (read: number, lines: number, seconds: number) => void,
  giveBack = false,
): NonNullable<RunSource["blocks"]> {
  return (qids, add) =>
    new Promise((resolve, reject) => {
      const reader = start();
      const arrival = new PortableBlocks(qids, file);
      let settled = false;
      const end = (settle: () => void, idle = false) => {
        if (settled) return;
        settled = true;
        reader.stop(idle);
        settle();
      };
      const handle = (r: ReaderReport): void | Promise<void> => {
        if (r.type === "block") {
          const rows = arrival.rows(r.block);
          const ack = () => {
            if (settled) return;
            const buffer = rows.score.buffer as ArrayBuffer;
            if (giveBack) reader.send({ type: "evaluated", buffer }, [buffer]);
            else reader.send({ type: "evaluated" });
          };
          const added = add(rows);
          if (!added) return ack();
          return added.then(ack);
        }
        if (r.type === "end") end(() => resolve(r.runTag), true);
        // A reader out of memory is ended: its heap may be past saving.
        else if (r.type === "error") end(() => reject(rethrown(r)), !r.outOfMemory);
      };
      // Set while an add is waiting: the messages after it wait behind it.
      let waiting: Promise<void> | null = null;
      const fail = (err: unknown) => end(() => reject(err));
      reader.listen(
        (r) => {
          if (settled) return;
          if (r.type === "progress") return onProgress?.(r.read, r.lines, r.seconds);
          let next: void | Promise<void>;
          try {
            next = waiting ? waiting.then(() => (settled ? undefined : handle(r))) : handle(r);
          } catch (err) {
            return fail(err);
          }
          if (!next) return;
          const mine: Promise<void> = next.then(() => {
            if (waiting === mine) waiting = null;
          });
          waiting = mine;
          mine.catch(fail);
        },
        (message) => end(() => reject(new Error(`${file}: the run reader failed (${message})`))),
      );
      reader.send({ type: "read", source, file, blockRows });
    });
}
