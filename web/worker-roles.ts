// The page's one worker script: each role its own start, told by the name its starter gave
// (worker-script.ts), so the page carries the code of all three once.
import { startPageWorker } from "./worker.js";
import { startPartitionWorker } from "./partition-worker.js";
import { startRunReader } from "./run-reader-worker.js";
import type { WorkerRole } from "./worker-script.js";

const starts: Record<WorkerRole, () => void> = {
  page: startPageWorker,
  "run-reader": startRunReader,
  partition: startPartitionWorker,
};
const start = starts[self.name as WorkerRole];
if (!start) throw new Error(`no worker role ${JSON.stringify(self.name)}`);
start();
