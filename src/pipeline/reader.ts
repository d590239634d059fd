/**
 * A run parsed in another thread while this one joins and evaluates its blocks. The reader posts
 * PortableBlocks and waits while AHEAD are unevaluated, bounding memory. Browser compatible.
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

/** To the reader: what to read, then an ack per block (with its buffer when free). */
export type ReaderJob<Source> =
  | { type: "read"; source: Source; file: string; blockRows: number }
  | { type: "evaluated"; buffer?: ArrayBuffer };

export type ReaderReport =
  | { type: "progress"; read: number; lines: number; seconds: number }
  | { type: "block"; block: PortableBlock }
  | { type: "end"; runTag: string }
  | ({ type: "error" } & ThreadError);

/** An error crossing threads (structured clone keeps no class); `internal`: a bug, not bad input. */
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
    // The message as thrown (a RowError words its row its own way).
    const e = new InputError(r.input.file, r.input.line, r.input.column, r.input.reason);
    e.message = r.message;
    return e;
  }
  return r.internal ? new Error(r.message) : new RankevalError(r.code ?? "bad-input", r.message);
}

/** Most blocks in flight: two keep both cores busy. */
export const AHEAD = 2;

export interface BlockSink {
  push(chunk: Uint8Array): void;
  readonly linesRead: number;
  /** Back-pressure: await it before the next chunk, or null. */
  ready(): Promise<void> | null;
}

/** The reader's job handler. */
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

export interface ReaderPort<Source> {
  send(job: ReaderJob<Source>, transfer?: ArrayBuffer[]): void;
  listen(report: (r: ReaderReport) => void, fail: (message: string) => void): void;
  /** `idle`: the reader is done and may serve another read. */
  stop(idle?: boolean): void;
}

/** RunSource.blocks for a run parsed by a reader; each block acked once `add` settles (`giveBack`: with its buffer). */
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
          return added ? added.then(ack) : ack();
        }
        if (r.type === "end") end(() => resolve(r.runTag), true);
        // Out of memory: end it, its heap may be past saving.
        else if (r.type === "error") end(() => reject(rethrown(r)), !r.outOfMemory);
      };
      // Later messages wait behind a pending add.
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
