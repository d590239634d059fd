// A worker thread for bench/compare.bench.mjs: runs the resampling jobs compareAsync() posts.
import { parentPort } from "node:worker_threads";
import { runResamplingJob } from "rankeval";

parentPort.on("message", ({ id, job }) => {
  const output = runResamplingJob(job);
  parentPort.postMessage(
    { id, output },
    output.map((o) => o.buffer),
  );
});
