/**
 * The differential fuzzing loop against the real trec_eval, shared by test/trec-eval-diff.test.ts and
 * scripts/fuzz-trec-eval.mjs: builds trec_eval from ../shared (or says why it cannot), runs N seeded
 * cases a few at a time (trec_eval's processes overlap rankeval's in-process work), shrinks the
 * mismatches and groups them by the shape of their shrunk command line.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { caseSeed, generateCase } from "./generate.js";
import { runCase, shrink, signature, writeRepro, type CaseResult, type Programs } from "./harness.js";

const SHARED = fileURLToPath(new URL("../../../shared/", import.meta.url));
const BUILD_SCRIPT = `${SHARED}tools/build-trec-eval.sh`;
/** Where the built trec_eval is kept between runs (this checkout's own). */
const CACHE = fileURLToPath(new URL("../../node_modules/.cache/trec_eval-10/", import.meta.url));

function haveCommand(name: string): boolean {
  try {
    execFileSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * The real trec_eval 10, compiled from ../shared/reference/trec_eval by ../shared/tools/build-trec-eval.sh
 * into a cache (reused once built), or why there is none: ../shared absent, or no C compiler or make
 * (`missingCompiler`, which CI treats as a failure where ../shared exists).
 */
export function buildTrecEval(): { path: string } | { skip: string; missingCompiler: boolean } {
  if (process.env.TREC_EVAL) return { path: process.env.TREC_EVAL };
  if (!existsSync(BUILD_SCRIPT) || !existsSync(`${SHARED}reference/trec_eval`)) {
    return { skip: `${SHARED} (trec_eval's source and build script) not found`, missingCompiler: false };
  }
  if (!existsSync(`${CACHE}trec_eval`)) {
    const missing = ["cc", "make"].filter((c) => !haveCommand(c));
    if (missing.length)
      return { skip: `cannot build trec_eval: ${missing.join(" and ")} not found`, missingCompiler: true };
  }
  const path = execFileSync("bash", [BUILD_SCRIPT, CACHE], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
  return { path };
}

export interface FuzzOptions {
  readonly programs: Programs;
  /** The run's seed: case i has seed caseSeed(seed, i). */
  readonly seed: number;
  readonly cases: number;
  /** Cases in flight at once. @default 4 */
  readonly concurrency?: number;
  /** How many mismatches to shrink (each takes up to a few hundred runs). @default 20 */
  readonly shrinkLimit?: number;
  /** Where to write shrunk mismatches as files to re-run by hand. @default none */
  readonly reproDir?: string;
  readonly onProgress?: (done: number, mismatches: number) => void;
}

export interface FuzzReport {
  readonly cases: number;
  /** Cases judged under each deliberate divergence (they count as matches when they compare as it says). */
  readonly divergences: ReadonlyMap<string, number>;
  /** Every mismatching case, as found. */
  readonly mismatches: readonly CaseResult[];
  /** The first `shrinkLimit` of them, shrunk, with their class and (with reproDir) the folder written. */
  readonly shrunk: readonly {
    readonly found: CaseResult;
    readonly shrunk: CaseResult;
    readonly signature: string;
    readonly folder?: string;
  }[];
}

export async function fuzz(o: FuzzOptions): Promise<FuzzReport> {
  const divergences = new Map<string, number>();
  const mismatches: CaseResult[] = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= o.cases) return;
      const r = await runCase(o.programs, generateCase(caseSeed(o.seed, i)));
      for (const d of r.verdict.divergences) divergences.set(d, (divergences.get(d) ?? 0) + 1);
      if (r.verdict.kind === "mismatch") mismatches.push(r);
      done++;
      if (done % 100 === 0) o.onProgress?.(done, mismatches.length);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency ?? 4 }, worker));
  mismatches.sort((a, b) => a.case.seed - b.case.seed);
  const shrunk: FuzzReport["shrunk"][number][] = [];
  for (const found of mismatches.slice(0, o.shrinkLimit ?? 20)) {
    const s = await shrink(o.programs, found);
    const folder = o.reproDir ? writeRepro(o.reproDir, s, o.programs.trecEval) : undefined;
    shrunk.push({ found, shrunk: s, signature: signature(s.case), folder });
  }
  return { cases: o.cases, divergences, mismatches, shrunk };
}

/** Mismatches per class (shrunk signature), most frequent first. */
export function classes(report: FuzzReport): [string, number][] {
  const counts = new Map<string, number>();
  for (const s of report.shrunk) counts.set(s.signature, (counts.get(s.signature) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}
