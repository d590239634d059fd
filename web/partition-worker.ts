// A partition worker of the page (web/partitions.ts): it splits the chunks of a file it is given and
// owns the queries that hash to it (src/pipeline/partition-worker-handler.ts's partitionWorker), reading the
// File's slices itself.
import { specEvaluator, type EvaluationSpec } from "../src/app/evaluator.js";
import type { PartitionMessage } from "../src/pipeline/partition-protocol.js";
import { partitionWorker } from "../src/pipeline/partition-worker-handler.js";

/**
 * The reads of the chunks to split, started as their messages come: the handler takes its messages
 * one at a time, and a read waits on the browser's process, so that a read begun only at its turn
 * would leave the worker idle meanwhile (40% of its time in a profile on two cores).
 */
const reads: { start: number; end: number; bytes: Promise<ArrayBuffer> }[] = [];

const handle = partitionWorker<File, EvaluationSpec>(
  (r, transfer) => (self as unknown as Worker).postMessage(r, transfer ?? []),
  async (file, start, into) => {
    const end = start + into.length;
    const read = reads.shift();
    const bytes = new Uint8Array(
      await (read?.start === start && read.end === end ? read.bytes : file.slice(start, end).arrayBuffer()),
    );
    // A File changed on disk since it was chosen reads short: the one-worker way says so.
    if (bytes.length !== into.length)
      throw new Error(`${file.name}: ended at byte ${start + bytes.length}, before ${end}`);
    into.set(bytes);
  },
  (spec) => specEvaluator(spec),
);

self.onmessage = (e: MessageEvent<PartitionMessage<File, EvaluationSpec>>) => {
  const m = e.data;
  // A new session: reads of one that failed (its handler skipping the rest) are not its own.
  if (m.type === "start") reads.length = 0;
  if (m.type === "split") {
    const bytes = m.source.slice(m.start, m.end).arrayBuffer();
    // Raised where read, if ever (a failed session's are dropped).
    bytes.catch(() => {});
    reads.push({ start: m.start, end: m.end, bytes });
  }
  handle(m);
};
