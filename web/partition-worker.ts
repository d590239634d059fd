// A partition worker of the page (web/partitions.ts): it splits the chunks of a file it is given and
// owns the queries that hash to it (src/pipeline/partition-session.ts's partitionWorker), reading the
// File's slices itself.
import { specEvaluator, type EvaluationSpec } from "../src/app/evaluator.js";
import { partitionWorker, type PartitionMessage } from "../src/pipeline/partition-session.js";

const handle = partitionWorker<File, EvaluationSpec>(
  (r, transfer) => (self as unknown as Worker).postMessage(r, transfer ?? []),
  async (file, start, into) => {
    const bytes = new Uint8Array(await file.slice(start, start + into.length).arrayBuffer());
    // A File changed on disk since it was chosen reads short: the one-worker way says so.
    if (bytes.length !== into.length)
      throw new Error(`${file.name}: ended at byte ${start + bytes.length}, before ${start + into.length}`);
    into.set(bytes);
  },
  (spec) => specEvaluator(spec),
);
self.onmessage = (e: MessageEvent<PartitionMessage<File, EvaluationSpec>>) => handle(e.data);
