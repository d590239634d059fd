// A run's reader: parses blocks while worker.ts joins them (src/pipeline/reader.ts).
import { serveBlocks, type ReaderJob } from "../src/pipeline/reader.js";
import { readInto } from "./read-file.js";

export function startRunReader(): void {
  const handle = serveBlocks<File>(
    (r, transfer) => (self as unknown as Worker).postMessage(r, transfer),
    (file, sink, progress) => readInto(file, sink, (read, _lines, seconds) => progress(read, seconds)),
  );
  self.onmessage = (e: MessageEvent<ReaderJob<File>>) => handle(e.data);
}
