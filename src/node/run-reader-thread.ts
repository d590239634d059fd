// A pool thread parses a run file into blocks while the main thread joins and evaluates them.
import { statSync } from "node:fs";
import { readerBlocks, serveBlocks, type ReaderJob, type ReaderPort, type ReaderReport } from "../pipeline/reader.js";
import type { RunSource } from "../pipeline/blocks.js";
import type { ThreadPool } from "./pool.js";
import { readInto, type ProgressSink } from "./file-read.js";

/** RunSource.blocks for a run file parsed by a thread of `pool`. */
export function threadBlocks(
  path: string,
  blockRows: number,
  pool: ThreadPool,
  progress?: ProgressSink,
): NonNullable<RunSource["blocks"]> {
  return async (qids, add) => {
    progress?.start(path, fileSize(path));
    const thread = await pool.acquire();
    const port: ReaderPort<string> = {
      send: (job, transfer) => thread.post({ kind: job.type === "read" ? "read" : "reader", job }, transfer),
      listen: (report, fail) => thread.listen((r) => report(r as ReaderReport), fail),
      stop: (idle) => thread.release(idle === true),
    };
    try {
      // No block is kept once evaluated: buffers go back to the thread.
      return await readerBlocks(
        path,
        path,
        blockRows,
        () => port,
        (read) => progress?.update(read),
        true,
      )(qids, add);
    } finally {
      // Released already unless the read never started.
      thread.release(false);
      progress?.done();
    }
  };
}

export function readerThread(post: (r: ReaderReport, transfer: ArrayBuffer[]) => void): (job: unknown) => void {
  const handle = serveBlocks<string>(post, (path, sink, progress) => {
    const started = Date.now();
    return readInto(path, sink, {
      start() {},
      update: (read) => progress(read, (Date.now() - started) / 1000),
      done() {},
    });
  });
  return (job) => handle(job as ReaderJob<string>);
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // the read reports the error
  }
}
