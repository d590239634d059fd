// The command line's run reader: a worker thread that parses a run file into blocks while the main
// thread joins and evaluates them (src/run-reader.ts), as the page's second worker does.
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parentPort, Worker, workerData } from "node:worker_threads";
import { readerBlocks, serveBlocks, type ReaderJob, type ReaderReport, type ReaderPort } from "../run-reader.js";
import type { RunSource } from "../run-blocks.js";
import { readInto, type ProgressSink } from "./read.js";

const self = new URL(import.meta.url);
/** Marks the threads this module starts, so that it serves only those (not any worker that imports it). */
const READER = "rankeval run reader";

/**
 * RunSource.blocks for a run file parsed in a worker thread, its progress shown by `progress`; null
 * where this module is not its own built file, ES module or CommonJS (run from its TypeScript source,
 * as the tests do, or bundled into another, a worker thread cannot start it alone): the caller then
 * parses in this thread.
 */
export function threadBlocks(path: string, blockRows: number, progress?: ProgressSink): NonNullable<RunSource["blocks"]> | null {
  if (!/\/run-reader\.c?js$/.test(self.pathname) || !existsSync(fileURLToPath(self))) return null;
  const start = (): ReaderPort<string> => {
    const worker = new Worker(self, { workerData: READER });
    return {
      send: (job) => worker.postMessage(job),
      listen: (report, fail) => {
        worker.on("message", (r: ReaderReport) => report(r));
        worker.on("error", (e) => fail(e.message));
        // A thread that ends without a word (killed, out of memory) would leave the read waiting for
        // ever; once the read is settled this is a no-op.
        worker.on("exit", (code) => fail(`its thread ended (exit code ${code})`));
      },
      stop: () => void worker.terminate(),
    };
  };
  return async (qids, add) => {
    progress?.start(path, await stat(path).then((s) => s.size, () => 0));
    try {
      return await readerBlocks(path, path, blockRows, start, (read) => progress?.update(read))(qids, add);
    } finally {
      progress?.done();
    }
  };
}

// In the worker thread: read what the main thread asks for.
if (parentPort && workerData === READER) {
  const port = parentPort;
  const handle = serveBlocks<string>(
    (r, transfer) => port.postMessage(r, transfer),
    (path, sink, progress) => {
      const started = Date.now();
      return readInto(path, sink, { start() {}, update: (read) => progress(read, (Date.now() - started) / 1000), done() {} });
    },
  );
  port.on("message", (job: ReaderJob<string>) => handle(job));
}
