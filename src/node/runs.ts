// Many runs in one command: RUN directories and globs, and runs evaluated a few at a time, in order.
import { readdirSync } from "node:fs";
import { RankevalError } from "../errors/errors.js";
import { compareBytes } from "../c/strings.js";
import type { Evaluated } from "../pipeline/evaluate.js";
import type { PendingJudgments } from "../pipeline/blocks.js";
import type { GroupedJudgments, JoinedRun } from "../pipeline/join-rows.js";
import { isDataset, isDirectory, statOf } from "./columnar-files.js";
import { evaluateRunPath, readJudgments } from "./files.js";
import type { ParserChoice } from "../input/formats.js";
import type { ThreadPool } from "./pool.js";
import type { ProgressSink } from "./file-read.js";
import type { EvaluationHost } from "../app/evaluation.js";
import type { PartitionedRun } from "../pipeline/partition-coordinator.js";
import { evaluatePartitioned, partitionable, partitionWorkers } from "./partitioned.js";
import type { RunPreparation } from "../pipeline/prepare-run.js";

export interface ExpandedRuns {
  files: string[];
  notes: string[];
}

const WILDCARD = /[*?[]/;

/**
 * RUN arguments as run files: a directory gives its files in byte order (`ls` under LC_ALL=C), hidden
 * ones and subdirectories skipped (noted); a missing path with a wildcard in its last component is a
 * glob, matched as a shell does (for lists too long for a command line). Neither giving a file is bad input.
 */
export function expandRuns(args: readonly string[]): ExpandedRuns {
  const files: string[] = [];
  const notes: string[] = [];
  for (const arg of args) {
    const stat = arg === "-" ? null : statOf(arg);
    const isDir = stat?.isDirectory() === true;
    if (isDir && isDataset(arg)) {
      // A Parquet or Arrow dataset: one run.
      files.push(arg);
    } else if (isDir) {
      const { found, skipped } = listed(arg, null);
      if (skipped.length)
        notes.push(`${arg}: skipped ${skipped.join(", ")} (runs are the files directly in it, hidden ones left out)`);
      if (!found.length)
        throw new RankevalError(
          "bad-input",
          `${arg}: no run files in it${skipped.length ? ` (skipped ${skipped.join(", ")})` : ""}`,
        );
      files.push(...found);
    } else if (stat === undefined && WILDCARD.test(arg.slice(arg.lastIndexOf("/") + 1))) {
      const slash = arg.lastIndexOf("/");
      const dir = slash < 0 ? "." : slash === 0 ? "/" : arg.slice(0, slash);
      const pattern = globRegExp(arg.slice(slash + 1));
      const found = isDirectory(dir) ? listed(dir, pattern, slash < 0 ? "" : arg.slice(0, slash + 1)).found : [];
      if (!found.length)
        throw new RankevalError("bad-input", `${arg}: no such file, and no file matches it as a pattern`);
      files.push(...found);
    } else {
      files.push(arg);
    }
  }
  return { files, notes };
}

/** The files of `dir` in byte order, each as `prefix` + name; with a pattern, only the names it matches. */
function listed(
  dir: string,
  pattern: RegExp | null,
  prefix = dir.endsWith("/") ? dir : `${dir}/`,
): { found: string[]; skipped: string[] } {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    throw new RankevalError("bad-input", `${dir}: cannot list it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  names.sort(compareBytes);
  const found: string[] = [];
  const skipped: string[] = [];
  for (const name of names) {
    if (pattern ? !pattern.test(name) : name.startsWith(".")) {
      if (!pattern) skipped.push(name);
      continue;
    }
    const path = prefix + name;
    const s = statOf(path); // undefined: a broken link, skipped
    if (s?.isFile()) found.push(path);
    else skipped.push(s?.isDirectory() ? `${name}/` : name);
  }
  return { found, skipped };
}

/** A shell pattern of one path component as a RegExp: `*`, `?`, `[...]`, `[!...]`; a leading dot only matched by one. */
export function globRegExp(pattern: string): RegExp {
  let re = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const close = pattern.indexOf("]", i + 2);
      if (close < 0) {
        re += "\\[";
        continue;
      }
      let body = pattern.slice(i + 1, close);
      const negate = body[0] === "!" || body[0] === "^";
      if (negate) body = body.slice(1);
      re += `[${negate ? "^" : ""}${body.replace(/[\\\]^]/g, (m) => `\\${m}`)}]`;
      i = close;
    } else re += c.replace(/[.+^${}()|\\/]/g, (m) => `\\${m}`);
  }
  return new RegExp(`^${pattern.startsWith(".") ? "" : "(?!\\.)"}${re}$`, "u");
}

export type RunOutcome = PartitionedRun & { file: string };

export interface RunsProgress {
  start(name: string, totalBytes: number): void;
  update(bytes: number, name?: string): void;
  done(name?: string): void;
  runs?(done: number, total: number): void;
}

/** A sink naming its file in every call (files are read several at once). */
export function oneFile(progress: RunsProgress): ProgressSink {
  let name = "";
  return {
    start: (n, total) => progress.start((name = n), total),
    update: (bytes) => progress.update(bytes, name),
    done: () => progress.done(name),
  };
}

/** Thrown into a run still being read once an earlier one failed. */
class Abandoned extends Error {}

export interface EvaluateRunsOptions extends ParserChoice {
  complete?: boolean;
  placeholder?: boolean;
  pool?: ThreadPool | null;
  progress?: RunsProgress;
  /** Runs read at once, at most. @default one more than the pool's threads */
  inFlight?: number;
  /** Each run's preparation, in its joins. */
  prepare?: RunPreparation;
}

/**
 * Evaluates `files` a few at a time, each outcome to `done` in order as soon as the runs before it are
 * done. The first failure rejects, after `done` got those before it; the later runs are abandoned.
 */
export async function evaluateRuns(
  files: readonly string[],
  judgments: GroupedJudgments | PendingJudgments,
  evaluateFor: (file: string, warn: (message: string) => void) => (joined: JoinedRun) => Evaluated,
  done: (index: number, outcome: RunOutcome) => void,
  options: EvaluateRunsOptions = {},
): Promise<void> {
  const { pool, progress } = options;
  const inFlight = Math.max(1, options.inFlight ?? (pool ? pool.size + 1 : 1));
  const pending: (Promise<RunOutcome> | undefined)[] = new Array(files.length);
  let abandoned = false;
  const start = (i: number): Promise<RunOutcome> => {
    const file = files[i];
    const warnings: string[] = [];
    const evaluate = evaluateFor(file, (w) => warnings.push(w));
    const p = evaluateRunPath(
      file,
      judgments,
      options,
      (joined) => {
        if (abandoned) throw new Abandoned();
        return evaluate(joined);
      },
      progress && oneFile(progress),
      pool,
    ).then((r) => ({ file, runTag: r.runTag, evaluated: r.evaluated, notInRunQids: r.notInRunQids, warnings }));
    // Its error is raised in its turn, never as an unhandled rejection.
    p.catch(() => {});
    return p;
  };
  let next = 0;
  try {
    for (let i = 0; i < files.length; i++) {
      while (next < files.length && next - i < inFlight) pending[next] = start(next++);
      const outcome = await pending[i]!;
      pending[i] = undefined;
      done(i, outcome);
      progress?.runs?.(i + 1, files.length);
    }
  } catch (e) {
    abandoned = true;
    throw e;
  }
}

/** Files as evaluateSources reads them: across the threads where allowed and partitionable, else evaluateRuns. */
export function fileHost(
  qrels: string,
  runs: readonly string[],
  options: EvaluateRunsOptions & { partitions: boolean; name: (file: string) => string },
): EvaluationHost<string> {
  const { progress, name } = options;
  const workers = partitionWorkers(options.pool ?? null);
  const sink = progress && oneFile(progress);
  return {
    name,
    partitioned:
      options.partitions && partitionable(workers, [qrels, ...runs], options)
        ? (qrels, runs, job, onJudged, done) => evaluatePartitioned(workers, qrels, runs, job, onJudged, done, sink)
        : undefined,
    judgments: (qrels, qids) => ({
      qids,
      // With threads, one turn later: the runs' read jobs are posted before the judgments' parse holds this thread.
      ready: options.pool
        ? new Promise<void>((resolve) => setImmediate(resolve)).then(() => readJudgments(qrels, qids, options, sink))
        : readJudgments(qrels, qids, options, sink),
    }),
    runs: (runs, judgments, evaluateFor, done, prepare) =>
      evaluateRuns(runs, judgments, evaluateFor, done, { ...options, prepare }),
  };
}
