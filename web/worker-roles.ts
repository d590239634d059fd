// The page's one worker script: each role its own start, told by the name its starter gave
// (worker-script.ts), so the page carries the code of all three once.
import type { WorkerRole } from "./worker-script.js";

// Imported when started (inlined, not fetched): a run reader runs none of the page worker's module
// code, and starts in 60-80 ms, not the 150-300 it took running all three roles' module code.
const starts: Record<WorkerRole, () => Promise<void>> = {
  page: () => import("./worker.js").then((m) => m.startPageWorker()),
  "run-reader": () => import("./run-reader-worker.js").then((m) => m.startRunReader()),
  partition: () => import("./partition-worker.js").then((m) => m.startPartitionWorker()),
};
const start = starts[self.name as WorkerRole];
if (!start) throw new Error(`no worker role ${JSON.stringify(self.name)}`);
// Messages before the role's handler wait for it.
const early: MessageEvent[] = [];
self.onmessage = (e) => early.push(e);
start().then(
  () => {
    for (const e of early) self.onmessage?.(e);
  },
  // Uncaught, to reach the starter's onerror.
  (err: unknown) =>
    setTimeout(() => {
      throw err;
    }),
);
