import { ANY, badInput, checkOptions, notAnObject, setOwn, shown, usageError } from "../errors/errors.js";
import { didYouMean } from "../errors/suggest.js";
import { LEARNED_METHODS } from "./learned.js";
import { fuseQuery, METHOD_NAMES, methodParams, scoreMethod } from "./methods.js";
import {
  type NormName,
  normalizedQueries,
  normName,
  queryIds,
  queryObject,
  type Ranked,
  rankedQuery,
} from "./normalize.js";
import type { ScoredRun } from "./run-shapes.js";

export { normalize, NORMS, type NormName } from "./normalize.js";
export { METHOD_NAMES, type FusionParams } from "./methods.js";

export interface FuseOptions {
  /** ranx's method name: "rrf", "wsum", "probfuse", ... */
  readonly method: string;
  /** Applied to each run first; null for none. @default "min-max" */
  readonly norm?: NormName | null;
  /** The method's parameters (weights, k, phi, ...; a learned method's trained parameters). */
  readonly params?: Readonly<Record<string, unknown>>;
}

const FUSE_OPTIONS = { method: { ...ANY, required: true }, norm: ANY, params: ANY };

/**
 * `runs` fused as ranx's `fuse(runs, norm, method, params)`: each normalised, then fused. Every run must
 * have the same queries; no document is cut; ties in ranx's order.
 */
export function fuse(runs: readonly ScoredRun[], options: FuseOptions): ScoredRun {
  fuseSettings(options);
  if (!Array.isArray(runs)) throw usageError(`fuse: runs must be an array of runs, not ${shown(runs)}`);
  if (runs.length < 2) throw usageError(`fuse: runs must hold at least 2 runs to fuse, not ${runs.length}`);
  const out: Record<string, Record<string, number>> = {};
  fuseLists(
    sameQueries(runs),
    runs.length,
    (qid, r) => rankedQuery(runs[r][qid], `runs[${r}][${JSON.stringify(qid)}]`),
    options,
    (qid, fused) => setOwn(out, qid, queryObject(fused)),
  );
  return out;
}

function fuseSettings(options: FuseOptions): { method: string; learned: boolean; norm: NormName | null } {
  const o = checkOptions(options, FUSE_OPTIONS, "fuse");
  const learned = typeof o.method === "string" && Object.hasOwn(LEARNED_METHODS, o.method);
  const method = learned ? o.method : typeof o.method === "string" ? scoreMethod(o.method) : undefined;
  if (method === undefined) {
    const names = [...METHOD_NAMES, ...Object.keys(LEARNED_METHODS)];
    const hint = typeof o.method === "string" ? didYouMean(o.method, names) : "";
    throw usageError(`fuse: method must be one of ${names.join(", ")}, not ${shown(o.method)}${hint}`);
  }
  const norm = o.norm === null ? null : normName(o.norm ?? "min-max", "fuse: norm");
  return { method, learned, norm };
}

/**
 * fuse() once the runs are read (objects, or rows: output/fused-run.ts): run r's list of query `qid` from
 * `listOf`, each fused query to `each` in the order of `qids`.
 */
export function fuseLists<D>(
  qids: readonly string[],
  runs: number,
  listOf: (qid: string, r: number) => Ranked<D>,
  options: FuseOptions,
  each: (qid: string, fused: Ranked<D>) => void,
): void {
  const { method, learned, norm } = fuseSettings(options);
  const params = learned ? null : methodParams(method, options.params ?? {}, runs);
  const byRun: Map<string, Ranked<D>>[] = Array.from({ length: runs }, () => new Map());
  for (const qid of qids) {
    const qs = normalizedQueries(
      Array.from({ length: runs }, (_, r) => listOf(qid, r)),
      norm,
    );
    if (params !== null) each(qid, fuseQuery(method, qs, params));
    else for (let r = 0; r < runs; r++) byRun[r].set(qid, qs[r]);
  }
  if (params !== null) return;
  // Learned: the normalised runs whole, not sorted again.
  const fused = LEARNED_METHODS[method].fuseRanked(
    byRun.map((lists) => ({ qids, lists })),
    options.params ?? {},
  );
  for (const qid of fused.qids) each(qid, fused.lists.get(qid) as Ranked<D>);
}

/** The runs' query ids, the same in every run (as ranx asserts). */
function sameQueries(runs: readonly ScoredRun[]) {
  for (let r = 0; r < runs.length; r++)
    if (notAnObject(runs[r]))
      throw badInput(`fuse: runs[${r}] must be { qid: { docid: score } }, not ${shown(runs[r])}`);
  const qids = queryIds(runs[0]);
  for (let r = 1; r < runs.length; r++) {
    const other = Object.keys(runs[r]);
    const lacking = qids.find((q) => !Object.hasOwn(runs[r], q));
    const extra = other.find((q) => !Object.hasOwn(runs[0], q));
    if (lacking !== undefined || extra !== undefined)
      throw badInput(
        `fuse: runs[0] and runs[${r}] must have the same queries, as ranx requires: query ${shown(lacking ?? extra)} ` +
          `is in runs[${lacking !== undefined ? 0 : r}] only`,
      );
  }
  return qids;
}
