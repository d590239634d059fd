// Loaded before every test file (vitest.config.ts's setupFiles): every fast-check property runs
// from the one seed of test/_seed.ts (and, where a test names no number of cases, fast-check's 100
// times RANKEVAL_RUNS), and a failed test prints how to replay it.
import fc from "fast-check";
import { beforeEach } from "vitest";
import { replay, runs, SEED } from "./_seed.js";

fc.configureGlobal({ seed: SEED, numRuns: runs(100) });

beforeEach((context) => {
  context.onTestFailed(() => {
    console.error(replay());
  });
});
