// The one seed and the one length of every random test (fast-check's properties and the seeded
// generators of the differential tests), so that a run is the same on every machine and a failure
// replays. test/_setup.ts (vitest's setupFiles) gives fast-check this seed and prints it when a test
// fails. Environment variables:
//   RANKEVAL_SEED=<n>       replay, or explore another seed; RANKEVAL_SEED=random picks one (printed)
//   RANKEVAL_RUNS=<factor>  multiply every random test's number of cases (RANKEVAL_RUNS=20: a long run)

/** The seed when RANKEVAL_SEED is not set: fixed, so CI runs the same cases every time. */
const DEFAULT_SEED = 20261127;

function readSeed(text: string | undefined): number {
  if (text === undefined || text === "") return DEFAULT_SEED;
  // Chosen once per process: vitest runs each test file in its own worker, so each prints its own.
  if (text === "random") return Math.floor(Math.random() * 2 ** 31);
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0 || n >= 2 ** 31)
    throw new Error(`RANKEVAL_SEED: "${text}" is not an integer from 0 to 2147483647 (or "random")`);
  return n;
}

function readFactor(text: string | undefined): number {
  if (text === undefined || text === "") return 1;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`RANKEVAL_RUNS: "${text}" is not a positive number`);
  return n;
}

/** Whether RANKEVAL_SEED was given: tests with a seed of their own take it then. */
export const SEED_GIVEN = (process.env.RANKEVAL_SEED ?? "") !== "";
export const SEED = readSeed(process.env.RANKEVAL_SEED);
export const RUNS_FACTOR = readFactor(process.env.RANKEVAL_RUNS);

/** `n` cases, times RANKEVAL_RUNS (at least 1). */
export const runs = (n: number): number => Math.max(1, Math.round(n * RUNS_FACTOR));

/** A test's own default seed, unless RANKEVAL_SEED is given. */
export const seedOr = (own: number): number => (SEED_GIVEN ? SEED : own);

/** How to replay: printed with every failure. */
export const replay = (seed = SEED): string =>
  `random tests seeded with ${seed}: RANKEVAL_SEED=${seed}${RUNS_FACTOR === 1 ? "" : ` RANKEVAL_RUNS=${RUNS_FACTOR}`} replays this run`;
