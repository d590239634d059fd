import { minimumDetectableDifference } from "./power.js";
import {
  ANY,
  badInput,
  checkOptions,
  NUMBER,
  oneOf,
  shown,
  STRING,
  SUMMABLE_MAX,
  usageError,
  type OptionType,
} from "../errors/errors.js";
import type { Result } from "../pipeline/evaluate.js";
import { adjust, CORRECTIONS, type Correction } from "./correct.js";
import { describe, pairedT, signTest, type Description } from "./paired.js";
import {
  bootstrapFromSums,
  randomizationFromSums,
  randomizationNeedsKernel,
  runResamplingJob,
  tukeyCounts,
  type ColumnPair,
  type ResamplingJob,
  type ResamplingResult,
} from "./resampling.js";
import { wilcoxon } from "./wilcoxon.js";

import { TESTS, type TestName } from "./tests.js";
export { TESTS, type TestName };

/** A run's name and what evaluate() or evaluateRun() returned. */
export interface NamedResult {
  readonly name: string;
  readonly result: Result<unknown>;
}

export interface CompareOptions {
  /** The run every other is compared with. Ignored with `pairs: "all"`. @default the first run */
  baseline?: string;
  /** `"baseline"`: each run against the baseline; `"all"`: every pair (the earlier as baseline). @default "baseline" */
  pairs?: "baseline" | "all";
  /** Two-sided tests. @default ["t", "randomization"] (Smucker, Allan & Carterette 2007) */
  tests?: readonly TestName[];
  /** Per measure and test; not to Tukey HSD. @default "holm" when a measure has more than one comparison, else "none" */
  correction?: Correction;
  /** For the adjusted p. @default 0.05 */
  alpha?: number;
  /** Resamples of randomization, bootstrap and Tukey HSD. @default 10000 */
  iterations?: number;
  /** The resampling tests' seed (a safe integer >= 0). @default 42 */
  seed?: number;
  /** By their names in the results. @default every measure of the first run */
  measures?: readonly string[];
}

export const DEFAULT_COMPARE_OPTIONS = Object.freeze({
  pairs: "baseline" as const,
  tests: Object.freeze(["t", "randomization"] as TestName[]) as readonly TestName[],
  alpha: 0.05,
  iterations: 10_000,
  seed: 42,
});

export interface TestResult {
  /** t: Student's t; wilcoxon: min(R+, R-); sign: wins / (wins + losses); resampling: the mean difference. */
  readonly statistic: number;
  /** Two-sided p. NaN where the test has no answer (too few queries, no variation). */
  readonly p: number;
  /** p after the correction. */
  readonly pAdjusted: number;
  /** pAdjusted < alpha. */
  readonly significant: boolean;
  /** wilcoxon: which distribution gave p ("exact", "permutation" or "normal"). */
  readonly method?: string;
  /** bootstrap: the 95% percentile interval of the mean difference. */
  readonly ci95?: readonly [number, number];
}

/** The tests surely held: a literal list asked, or the defaults; a `TestName[]` promises none. */
export type TestsAsked<L> = L extends readonly TestName[] ? (number extends L["length"] ? never : L[number]) : never;

/** Those of `T` surely there, so `tests.t.p` compiles under strict. */
export type TestResults<T extends TestName = never> = { readonly [K in T]: TestResult } & {
  readonly [K in Exclude<TestName, T>]?: TestResult;
};

export interface PairComparison<T extends TestName = never> extends Description {
  readonly measure: string;
  readonly baseline: string;
  readonly run: string;
  /** Queries both runs have a value for (not NaN), matched by qid. */
  readonly n: number;
  /**
   * minimumDetectableDifference at `alpha`, 80% power, this n and sd; NaN under 2 queries or where every
   * difference is the same; to 12 significant digits.
   */
  readonly minimumDetectable: number;
  /** Queries left out for a value in one run only. */
  readonly lost: { readonly baseline: number; readonly run: number };
  readonly tests: TestResults<T>;
}

export interface Comparison<T extends TestName = never> {
  /** The runs' (every run's the same). */
  readonly conventions: string;
  readonly measures: string[];
  readonly runs: string[];
  /** The baseline's name, or null when every pair is compared. */
  readonly baseline: string | null;
  /** Measure-major: each measure's comparisons in run order. */
  readonly comparisons: PairComparison<T>[];
  /** Each run's Result.mean over all its queries. */
  readonly means: Record<string, Record<string, number>>;
  /** Every default filled in. */
  readonly settings: {
    readonly pairs: "baseline" | "all";
    readonly tests: readonly TestName[];
    readonly correction: Correction;
    readonly alpha: number;
    readonly iterations: number;
    readonly seed: number;
  };
}

/**
 * Compares runs measure by measure over the queries both runs of a pair have a value for.
 *
 * @example
 * const base = evaluateRun(qrels, bm25, ["ndcg@10", "map"]);
 * const mine = evaluateRun(qrels, rerank, ["ndcg@10", "map"]);
 * compare([{ name: "bm25", result: base }, { name: "rerank", result: mine }]).comparisons[0].tests.t.p
 */
export function compare<const L extends readonly TestName[] = readonly ["t", "randomization"]>(
  runs: readonly NamedResult[],
  options?: Omit<CompareOptions, "tests"> & { tests?: L },
): Comparison<TestsAsked<L>>;
export function compare(runs: readonly NamedResult[], options: CompareOptions = {}): Comparison {
  const plan = planComparison(runs, options);
  for (const step of plan.kernelWork) step.complete(runResamplingJob(step.job));
  return plan.finish();
}

/** Workers that run runResamplingJob in other threads, for compareAsync. */
export interface ResamplingPool {
  /** How many jobs it runs at once. */
  readonly size: number;
  /** Runs the job (posted as it is: plain data and typed arrays) and resolves with its result. */
  run(job: ResamplingJob): Promise<Float64Array[]>;
}

/** compare() with the resampling split over a pool of workers too; the result is compare()'s to the last bit. */
export async function compareAsync<const L extends readonly TestName[] = readonly ["t", "randomization"]>(
  runs: readonly NamedResult[],
  options?: Omit<CompareOptions, "tests"> & { tests?: L },
  pool?: ResamplingPool,
): Promise<Comparison<TestsAsked<L>>>;
export async function compareAsync(
  runs: readonly NamedResult[],
  options: CompareOptions = {},
  pool?: ResamplingPool,
): Promise<Comparison> {
  const plan = planComparison(runs, options);
  for (const step of plan.kernelWork)
    step.complete(pool && pool.size > 0 ? await runShared(step.job, pool) : runResamplingJob(step.job));
  return plan.finish();
}

async function runShared(job: ResamplingJob, pool: ResamplingPool): Promise<Float64Array[]> {
  const parts = Math.min(pool.size + 1, job.iterations);
  const bounds = Array.from({ length: parts + 1 }, (_, i) => Math.round((job.iterations * i) / parts));
  const range = (i: number): ResamplingJob => ({
    ...job,
    first: job.first + bounds[i],
    iterations: bounds[i + 1] - bounds[i],
  });
  const others = Array.from({ length: parts - 1 }, (_, i) => pool.run(range(i + 1)));
  const outputs = [runResamplingJob(range(0)), ...(await Promise.all(others))];
  return outputs[0].map((_, c) => {
    const joined = new Float64Array(job.iterations);
    outputs.forEach((o, i) => joined.set(o[c], bounds[i]));
    return joined;
  });
}

interface KernelStep {
  readonly job: ResamplingJob;
  complete(output: Float64Array[]): void;
}

/**
 * Refuses values the tests cannot sum: Infinity (or past SUMMABLE_MAX) makes sums Infinity and a p of 0
 * read as significant. NaN (no value) stays: the query leaves the pairs.
 */
function checkValues(runs: readonly NamedResult[], measures: readonly string[]) {
  for (const m of measures) {
    for (const r of runs) {
      const values = r.result.values[m];
      for (let q = 0; q < values.length; q++) {
        const v = values[q];
        if (!(Math.abs(v) > SUMMABLE_MAX)) continue; // NaN too
        const why = Number.isFinite(v)
          ? "is past the 2^970 (about 1e292) up to which the tests' sums of values stay finite"
          : "is not finite: the tests' sums would be too, and their p-values meaningless";
        throw badInput(
          `run ${JSON.stringify(r.name)}, measure ${m}, query ${JSON.stringify(String(r.result.qids[q]))}: ` +
            `value ${v} ${why}`,
        );
      }
    }
  }
}

/** The caller runs kernelWork, then finish(). */
function planComparison(
  runs: readonly NamedResult[],
  options: CompareOptions,
): { kernelWork: KernelStep[]; finish: () => Comparison } {
  const { baseline, ...settings } = resolveCompareOptions(runs, options);
  const names = runs.map((r) => r.name);
  const conventions = runs[0].result.conventions;
  for (const r of runs) {
    if (r.result.conventions !== conventions) {
      throw badInput(
        `runs evaluated with different conventions cannot be compared: "${runs[0].name}" has ${conventions}, "${r.name}" has ${r.result.conventions}`,
      );
    }
  }
  const measures = [...(options.measures ?? runs[0].result.measures)];
  for (const m of measures) {
    for (const r of runs) {
      if (!r.result.values[m])
        throw badInput(`run "${r.name}" has no measure ${m} (it has ${r.result.measures.join(", ")})`);
    }
  }

  checkValues(runs, measures);

  // Every run's values over the union of qids, NaN where missing.
  const universe = new Map<unknown, number>();
  const slots = runs.map((r) =>
    Int32Array.from(r.result.qids, (q) => {
      let at = universe.get(q);
      if (at === undefined) universe.set(q, (at = universe.size));
      return at;
    }),
  );
  const aligned = measures.map((m) =>
    runs.map((r, i) => {
      const column = new Float64Array(universe.size).fill(NaN);
      const values = r.result.values[m];
      const slot = slots[i];
      for (let k = 0; k < slot.length; k++) column[slot[k]] = values[k];
      return column;
    }),
  );

  const baselineIndex = settings.pairs === "all" ? -1 : names.indexOf(baseline);
  const pairs: [number, number][] = [];
  if (settings.pairs === "all") {
    for (let a = 0; a < runs.length; a++) for (let b = a + 1; b < runs.length; b++) pairs.push([a, b]);
  } else {
    for (let r = 0; r < runs.length; r++) if (r !== baselineIndex) pairs.push([baselineIndex, r]);
  }

  interface Work {
    measure: number;
    pair: [number, number];
    positions: Int32Array;
    run: Float64Array;
    baseline: Float64Array;
    comparison: Omit<PairComparison, "tests">;
    tests: Partial<Record<TestName, Omit<TestResult, "pAdjusted" | "significant">>>;
  }
  const work: Work[] = [];
  let everyQuery: Int32Array | undefined;
  let differences = new Float64Array(0);
  measures.forEach((measure, s) => {
    for (const pair of pairs) {
      const x = aligned[s][pair[1]];
      const y = aligned[s][pair[0]];
      const size = universe.size;
      let n = 0;
      let lostRun = 0;
      let lostBaseline = 0;
      for (let q = 0; q < size; q++) {
        const hasX = x[q] === x[q];
        const hasY = y[q] === y[q];
        if (hasX && hasY) n++;
        else if (hasX) lostRun++;
        else if (hasY) lostBaseline++;
      }
      // Every query paired: no copies.
      let positions: Int32Array;
      if (n === size) positions = everyQuery ??= Int32Array.from({ length: size }, (_, q) => q);
      else {
        positions = new Int32Array(n);
        for (let q = 0, i = 0; q < size; q++) if (x[q] === x[q] && y[q] === y[q]) positions[i++] = q;
      }
      const run = n === size ? x : gather(x, positions);
      const baseline = n === size ? y : gather(y, positions);
      if (differences.length < n) differences = new Float64Array(n);
      const d = differences.subarray(0, n); // scratch: not kept
      for (let i = 0; i < n; i++) d[i] = run[i] - baseline[i];
      const description = describe(run, baseline, d);
      const tests: Work["tests"] = {};
      for (const test of settings.tests) {
        if (test === "t") tests.t = pairedT(d);
        else if (test === "wilcoxon") tests.wilcoxon = d.length === 0 ? { statistic: NaN, p: NaN } : wilcoxon(d);
        else if (test === "sign") tests.sign = signTest(description.wins, description.losses);
      }
      work.push({
        measure: s,
        pair,
        positions,
        run,
        baseline,
        comparison: {
          measure,
          baseline: names[pair[0]],
          run: names[pair[1]],
          n,
          // 12 digits: exp and log's last bits differ between Node and browsers; the page's bytes are the CLI's.
          minimumDetectable:
            n >= 2 && description.sd > 0 && Number.isFinite(description.sd)
              ? Number(minimumDetectableDifference({ n, sd: description.sd, alpha: settings.alpha }).toPrecision(12))
              : NaN,
          lost: { baseline: lostBaseline, run: lostRun },
          ...description,
        },
        tests,
      });
    }
  });

  // Comparisons over the same queries share one kernel call.
  const kernelWork: KernelStep[] = [];
  const { iterations, seed } = settings;
  for (const test of ["randomization", "bootstrap"] as const) {
    if (!settings.tests.includes(test)) continue;
    for (const group of groupBySame(work, (w) => w.positions)) {
      const columns: Float64Array[] = [];
      const columnOf = new Map<string, number>();
      const column = (w: Work, side: 0 | 1) => {
        const key = `${w.measure}:${w.pair[side]}`;
        let c = columnOf.get(key);
        if (c === undefined) {
          c = columns.push(side === 0 ? w.baseline : w.run) - 1;
          columnOf.set(key, c);
        }
        return c;
      };
      const columnPairs: ColumnPair[] = group.map((w) => ({ baseline: column(w, 0), run: column(w, 1) }));
      const rows = group[0].positions.length;
      const complete = (sums: readonly Float64Array[]) => {
        const results = (test === "randomization" ? randomizationFromSums : bootstrapFromSums)(
          columns,
          rows,
          columnPairs,
          iterations,
          sums,
        );
        group.forEach((w, i) => (w.tests[test] = resamplingTest(results[i])));
      };
      const needsKernel = test === "randomization" ? randomizationNeedsKernel(rows, iterations) : rows >= 2;
      if (needsKernel) kernelWork.push({ job: { kind: test, columns, rows, iterations, first: 0, seed }, complete });
      else complete([]);
    }
  }

  // Tukey HSD: per measure over the queries every run has.
  if (settings.tests.includes("tukey")) {
    const complete = measures.map((_, s) => {
      const positions = new Int32Array(universe.size);
      let n = 0;
      for (let q = 0; q < universe.size; q++)
        if (aligned[s].every((column) => column[q] === column[q])) positions[n++] = q;
      return positions.subarray(0, n);
    });
    const measureGroups = groupBySame(
      measures.map((_, s) => s),
      (s) => complete[s],
    );
    const columnPairs = pairs.map(([b, r]) => ({ baseline: b, run: r }));
    for (const group of measureGroups) {
      const positions = complete[group[0]];
      const rows = positions.length;
      const values = group.map((s) => aligned[s].map((column) => gather(column, positions)));
      const finishGroup = (ranges: readonly Float64Array[]) => {
        group.forEach((s, i) => {
          const results =
            rows === 0
              ? columnPairs.map(() => ({ statistic: NaN, p: NaN }))
              : tukeyCounts(values[i], rows, columnPairs, ranges[i]);
          for (const w of work) if (w.measure === s) w.tests.tukey = resamplingTest(results[pairs.indexOf(w.pair)]);
        });
      };
      if (rows === 0) finishGroup([]);
      else kernelWork.push({ job: { kind: "tukey", values, rows, iterations, first: 0, seed }, complete: finishGroup });
    }
  }

  return { kernelWork, finish: () => finishComparison() };

  function finishComparison(): Comparison {
    const adjusted = new Map<Work, Partial<Record<TestName, number>>>();
    for (const w of work) adjusted.set(w, {});
    measures.forEach((_, s) => {
      const family = work.filter((w) => w.measure === s);
      for (const test of settings.tests) {
        const p = family.map((w) => w.tests[test]!.p);
        const pAdjusted = test === "tukey" ? p : adjust(p, settings.correction);
        family.forEach((w, i) => (adjusted.get(w)![test] = pAdjusted[i]));
      }
    });

    const comparisons = work.map((w): PairComparison => {
      const tests: Partial<Record<TestName, TestResult>> = {};
      for (const test of settings.tests) {
        const raw = w.tests[test]!;
        const pAdjusted = adjusted.get(w)![test]!;
        tests[test] = { ...raw, pAdjusted, significant: pAdjusted < settings.alpha };
      }
      return { ...w.comparison, tests };
    });
    const means: Record<string, Record<string, number>> = {};
    for (const r of runs) means[r.name] = Object.fromEntries(measures.map((m) => [m, r.result.mean[m]]));
    return {
      conventions,
      measures,
      runs: names,
      baseline: settings.pairs === "all" ? null : baseline,
      comparisons,
      means,
      settings,
    };
  }
}

function resamplingTest(r: ResamplingResult): Omit<TestResult, "pAdjusted" | "significant"> {
  return r.ci95 ? { statistic: r.statistic, p: r.p, ci95: r.ci95 } : { statistic: r.statistic, p: r.p };
}

function gather(column: Float64Array, positions: Int32Array) {
  const out = new Float64Array(positions.length);
  for (let i = 0; i < positions.length; i++) out[i] = column[positions[i]];
  return out;
}

function groupBySame<T>(items: readonly T[], positionsOf: (item: T) => Int32Array): T[][] {
  const buckets = new Map<number, { positions: Int32Array; items: T[] }[]>();
  const groups: T[][] = [];
  for (const item of items) {
    const positions = positionsOf(item);
    let h = positions.length | 0;
    for (let i = 0; i < positions.length; i++) h = Math.imul(h ^ positions[i], 0x01000193);
    let bucket = buckets.get(h);
    if (!bucket) buckets.set(h, (bucket = []));
    const same = bucket.find(
      (g) => g.positions.length === positions.length && g.positions.every((q, i) => q === positions[i]),
    );
    if (same) same.items.push(item);
    else {
      const group = { positions, items: [item] };
      bucket.push(group);
      groups.push(group.items);
    }
  }
  return groups;
}

/** The tests' and the measures' lists are checked below. */
const COMPARE_OPTION_TYPES: Readonly<Record<keyof CompareOptions, OptionType>> = {
  baseline: STRING,
  pairs: oneOf(["baseline", "all"]),
  tests: ANY,
  correction: oneOf(CORRECTIONS),
  alpha: NUMBER,
  iterations: NUMBER,
  seed: NUMBER,
  measures: ANY,
};

function checkRuns(runs: unknown): asserts runs is readonly NamedResult[] {
  if (!Array.isArray(runs))
    throw badInput(`runs must be an array of { name, result } (result: what evaluate() returned), not ${shown(runs)}`);
  runs.forEach((r: unknown, i) => {
    if (r === null || typeof r !== "object") throw badInput(`runs[${i}] must be { name, result }, not ${shown(r)}`);
    const { name, result } = r as Partial<NamedResult>;
    if (typeof name !== "string") throw badInput(`runs[${i}].name must be a string, not ${shown(name)}`);
    const looks =
      result !== null &&
      typeof result === "object" &&
      Array.isArray(result.measures) &&
      Array.isArray(result.qids) &&
      result.values !== null &&
      typeof result.values === "object" &&
      typeof result.conventions === "string";
    if (!looks)
      throw badInput(
        `runs[${i}].result (run ${shown(name)}) must be what evaluate() or evaluateRun() returned, not ${shown(result)}`,
      );
    for (const m of result.measures) {
      const v: unknown = result.values[m];
      if (
        v !== undefined &&
        !((Array.isArray(v) || ArrayBuffer.isView(v)) && (v as ArrayLike<number>).length === result.qids.length)
      )
        throw badInput(
          `runs[${i}].result (run ${shown(name)}): values[${shown(m)}] must hold a value per query (${result.qids.length}), not ${shown(v)}`,
        );
    }
  });
}

function resolveCompareOptions(runs: readonly NamedResult[], o: CompareOptions) {
  const bad = usageError;
  checkRuns(runs);
  checkOptions(o, COMPARE_OPTION_TYPES);
  if (runs.length < 2) throw bad(`comparing needs at least two runs, not ${runs.length}`);
  const names = runs.map((r) => r.name);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate !== undefined) throw bad(`two runs are named ${shown(duplicate)}; give each run its own name`);
  const pairs = o.pairs ?? DEFAULT_COMPARE_OPTIONS.pairs;
  if (pairs !== "baseline" && pairs !== "all") throw bad(`pairs must be "baseline" or "all", not ${shown(pairs)}`);
  const baseline = o.baseline ?? names[0];
  if (!names.includes(baseline)) throw bad(`baseline ${shown(baseline)} is not one of the runs (${names.join(", ")})`);
  const tests = o.tests ?? DEFAULT_COMPARE_OPTIONS.tests;
  if (!Array.isArray(tests))
    throw bad(`tests must be an array of test names (${TESTS.join(", ")}), not ${shown(tests)}`);
  if (o.measures !== undefined && !(Array.isArray(o.measures) && o.measures.every((m) => typeof m === "string")))
    throw bad(`measures must be an array of measure names, not ${shown(o.measures)}`);
  if (tests.length === 0) throw bad(`give at least one test (${TESTS.join(", ")})`);
  for (const t of tests)
    if (!TESTS.includes(t)) throw bad(`unknown test ${shown(t)}; the tests are ${TESTS.join(", ")}`);
  const ordered = TESTS.filter((t) => tests.includes(t));
  const perMeasure = pairs === "all" ? (runs.length * (runs.length - 1)) / 2 : runs.length - 1;
  const correction = o.correction ?? (perMeasure > 1 ? "holm" : "none");
  if (!CORRECTIONS.includes(correction))
    throw bad(`correction must be ${CORRECTIONS.join(", ")}, not ${shown(correction)}`);
  const alpha = o.alpha ?? DEFAULT_COMPARE_OPTIONS.alpha;
  if (!(alpha > 0 && alpha < 1)) throw bad(`alpha must be between 0 and 1, not ${shown(alpha)}`);
  const iterations = o.iterations ?? DEFAULT_COMPARE_OPTIONS.iterations;
  if (!(Number.isInteger(iterations) && iterations >= 1 && iterations <= 10_000_000))
    throw bad(`iterations must be an integer from 1 to 10000000, not ${shown(iterations)}`);
  const seed = o.seed ?? DEFAULT_COMPARE_OPTIONS.seed;
  if (!(Number.isSafeInteger(seed) && seed >= 0))
    throw bad(`seed must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}, not ${shown(seed)}`);
  return { baseline, pairs, tests: ordered, correction, alpha, iterations, seed };
}

/** Every pair's mean difference and t interval (the charts). */
export function meanDifferences(runs: readonly NamedResult[]) {
  return compare(runs, { pairs: "all", tests: ["t"], correction: "none" }).comparisons.map(
    ({ measure, baseline, run, n, difference, ci95 }) => ({ measure, baseline, run, n, difference, ci95 }),
  );
}
