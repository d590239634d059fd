import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    // One seed for every random test, printed when one fails (RANKEVAL_SEED, RANKEVAL_RUNS: test/_seed.ts).
    setupFiles: ["test/_setup.ts"],
  },
});
