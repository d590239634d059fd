// ranx 0.3.20's normalisations (ranx/normalization/): its 1e-9 floors, sums and order of documents after.
import { sortQids } from "../c/strings.js";
import { badInput, notAnObject, setOwn, shown, usageError } from "../errors/errors.js";
import { didYouMean } from "../errors/suggest.js";
import { rankOrder } from "./order.js";
import type { ScoredRun } from "./run-shapes.js";

export type NormName = "min-max" | "min-max-inverted" | "max" | "sum" | "zmuv" | "rank" | "borda";

export const NORMS: readonly NormName[] = ["min-max", "min-max-inverted", "max", "sum", "zmuv", "rank", "borda"];
/** ranx's norm_switch takes these spellings too. */
const NORM_ALIASES: Readonly<Record<string, NormName>> = {
  min_max: "min-max",
  min_max_inverted: "min-max-inverted",
};

export function normName(name: unknown, option: string): NormName {
  if (typeof name === "string") {
    if ((NORMS as readonly string[]).includes(name)) return name as NormName;
    if (Object.hasOwn(NORM_ALIASES, name)) return NORM_ALIASES[name];
  }
  const hint = typeof name === "string" ? didYouMean(name, NORMS) : "";
  throw usageError(`${option} must be one of ${NORMS.join(", ")}, not ${shown(name)}${hint}`);
}

/** One query of one run, in ranx's order. Docs: ids, or numbers for them (output/fused-run.ts). */
export interface Ranked<D = string> {
  readonly docs: readonly D[];
  readonly scores: Float64Array;
}

/** A query's `{ docid: score }` as ranx's Run holds it: key order, then rankOrder. */
export function rankedQuery(docs: unknown, where: string): Ranked {
  if (notAnObject(docs)) throw badInput(`${where} must be an object of docid: score, not ${shown(docs)}`);
  const ids = Object.keys(docs as object);
  const given = new Float64Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const v = (docs as Record<string, unknown>)[ids[i]];
    if (typeof v !== "number" || !Number.isFinite(v))
      throw badInput(`${where}[${JSON.stringify(ids[i])}] is ${shown(v)}, not a finite number`);
    given[i] = v;
  }
  return reordered({ docs: ids, scores: given }, rankOrder(given));
}

export function reordered<D>(q: Ranked<D>, order: Int32Array): Ranked<D> {
  const docs = new Array<D>(order.length);
  const scores = new Float64Array(order.length);
  for (let i = 0; i < order.length; i++) {
    docs[i] = q.docs[order[i]];
    scores[i] = q.scores[order[i]];
  }
  return { docs, scores };
}

/** Python's (and numba's) sum: left to right from 0. */
function total(x: Float64Array) {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return s;
}

/** ranx's safe_min and safe_max: 0 for no scores. */
function minMax(x: Float64Array): [number, number] {
  if (x.length === 0) return [0, 0];
  let lo = x[0];
  let hi = x[0];
  for (let i = 1; i < x.length; i++) {
    if (x[i] < lo) lo = x[i];
    if (x[i] > hi) hi = x[i];
  }
  return [lo, hi];
}

/** Borda needs every run's query: bordaQuery. */
export function normalizedQuery<D>(q: Ranked<D>, norm: Exclude<NormName, "borda">): Ranked<D> {
  const x = q.scores;
  const n = x.length;
  const out = new Float64Array(n);
  switch (norm) {
    case "min-max":
    case "min-max-inverted": {
      const [lo, hi] = minMax(x);
      const d = Math.max(hi - lo, 1e-9);
      if (norm === "min-max") for (let i = 0; i < n; i++) out[i] = (x[i] - lo) / d;
      else {
        for (let i = 0; i < n; i++) out[i] = (hi - x[i]) / d;
        // ranx re-sorts the inverted run (Run.sort()).
        return reordered({ docs: q.docs, scores: out }, rankOrder(out));
      }
      break;
    }
    case "max": {
      const d = Math.max(minMax(x)[1], 1e-9);
      for (let i = 0; i < n; i++) out[i] = x[i] / d;
      break;
    }
    case "sum": {
      const lo = minMax(x)[0];
      const d = Math.max(total(x) - lo * n, 1e-9);
      for (let i = 0; i < n; i++) out[i] = (x[i] - lo) / d;
      break;
    }
    case "zmuv": {
      // numpy's mean and std (ddof 0).
      const mean = total(x) / n;
      let ss = 0;
      for (let i = 0; i < n; i++) ss += (x[i] - mean) * (x[i] - mean);
      const d = Math.max(Math.sqrt(ss / n), 1e-9);
      for (let i = 0; i < n; i++) out[i] = (x[i] - mean) / d;
      break;
    }
    case "rank":
      for (let i = 0; i < n; i++) out[i] = 1 - i / n;
      break;
  }
  return { docs: q.docs, scores: out };
}

/**
 * One query's documents over all runs in order of first appearance; run r's document i is docs[at[r][i]].
 * ranx's Python set varies with PYTHONHASHSEED: only tied documents' order (and ranks after borda) depend on it.
 */
export function candidates<D>(qs: readonly Ranked<D>[]): { docs: D[]; at: Int32Array[] } {
  const index = new Map<D, number>();
  const docs: D[] = [];
  const at = qs.map((q) => {
    const of = new Int32Array(q.docs.length);
    for (let i = 0; i < q.docs.length; i++) {
      const d = q.docs[i];
      let c = index.get(d);
      if (c === undefined) {
        c = docs.length;
        index.set(d, c);
        docs.push(d);
      }
      of[i] = c;
    }
    return of;
  });
  return { docs, at };
}

/** ranx's borda_norm: rank i (from 0) scores 1 - i/n (n candidates), a missing one 0.5 - (m - 1)/(2n) (m the run's length). */
export function bordaQuery<D>(qs: readonly Ranked<D>[]): Ranked<D>[] {
  const { docs, at } = candidates(qs);
  const n = docs.length;
  return qs.map((q, r) => {
    const missing = 0.5 - (q.docs.length - 1) / (2 * n);
    const out = new Float64Array(n).fill(missing);
    for (let i = 0; i < q.docs.length; i++) out[at[r][i]] = 1 - i / n;
    return { docs, scores: out };
  });
}

export function normalizedQueries<D>(qs: readonly Ranked<D>[], norm: NormName | null): readonly Ranked<D>[] {
  if (norm === "borda") return bordaQuery(qs);
  return norm === null ? qs : qs.map((q) => normalizedQuery(q, norm));
}

export function queryObject(q: Ranked): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = 0; i < q.docs.length; i++) setOwn(out, q.docs[i], q.scores[i]);
  return out;
}

/** Query ids by code point, as Python sorts. */
export function queryIds(run: object) {
  return sortQids(Object.keys(run));
}

/** `run` normalised by `norm`, query by query; "borda" as ranx's borda_norm of this one run. */
export function normalize(run: ScoredRun, norm: NormName): ScoredRun {
  const name = normName(norm, "normalize: norm");
  if (notAnObject(run)) throw badInput(`normalize: run must be { qid: { docid: score } }, not ${shown(run)}`);
  const out: Record<string, Record<string, number>> = {};
  for (const qid of queryIds(run)) {
    const q = rankedQuery(run[qid], `run[${JSON.stringify(qid)}]`);
    setOwn(out, qid, queryObject(normalizedQueries([q], name)[0]));
  }
  return out;
}
