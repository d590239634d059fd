// A partition worker of the page (partitions.ts), reading the File's slices itself.
import { specEvaluator, type EvaluationSpec } from "../src/app/evaluator.js";
import type { PartitionMessage } from "../src/pipeline/partition-protocol.js";
import { partitionWorker } from "../src/pipeline/partition-worker-handler.js";

export function startPartitionWorker(): void {
  /** Chunk reads, begun as messages come: begun at the handler's turn, it idled 40% of the time. */
  const reads: { start: number; end: number; bytes: Promise<ArrayBuffer> }[] = [];

  const handle = partitionWorker<File, EvaluationSpec>(
    (r, transfer) => (self as unknown as Worker).postMessage(r, transfer ?? []),
    async (file, start, into) => {
      const end = start + into.length;
      const read = reads.shift();
      const bytes = new Uint8Array(
        await (read?.start === start && read.end === end ? read.bytes : file.slice(start, end).arrayBuffer()),
      );
      // A File changed on disk reads short.
      if (bytes.length !== into.length)
        throw new Error(`${file.name}: ended at byte ${start + bytes.length}, before ${end}`);
      into.set(bytes);
    },
    (spec) => specEvaluator(spec),
  );

  self.onmessage = (e: MessageEvent<PartitionMessage<File, EvaluationSpec>>) => {
    const m = e.data;
    // Reads of a failed session are not the new one's.
    if (m.type === "start") reads.length = 0;
    if (m.type === "split") {
      const bytes = m.source.slice(m.start, m.end).arrayBuffer();
      // Raised where read, if ever.
      bytes.catch(() => {});
      reads.push({ start: m.start, end: m.end, bytes });
    }
    handle(m);
  };
}
