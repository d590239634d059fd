// ranx 0.3.20's optimize_fusion (meta/optimize_fusion.py): its grid, its order, its evaluation
// (evaluate-ranked.ts). wsum: each query's documents laid out once, a candidate a column of sums.
import { OPTION_TYPES, type Options } from "../measures/options.js";
import { ANY, checkOptions, notAnObject, shown, usageError } from "../errors/errors.js";
import { RankedEvaluator } from "./evaluate-ranked.js";
import { LEARNED_METHODS, type LearnedMethod } from "./learned.js";
import { type FusionParams, fuseQuery, scoreMethod } from "./methods.js";
import { candidates, type NormName, normName, normalizedQueries, type Ranked } from "./normalize.js";
import { rankOrder } from "./order.js";
import { type RankedRun, rankedRun, resorted, resortedList } from "./ranked-run.js";
import type { Judgments, ScoredRun } from "./run-shapes.js";

export interface OptimizeFusionOptions extends Omit<Options, "tieRange"> {
  /** ranx's method name. @default "wsum" */
  readonly method?: string;
  /** The normalisation applied to each run first; null for none. @default "min-max" */
  readonly norm?: NormName | null;
  /** The measure to maximise, a ranx metric name ("ndcg@10", "map@100", "mrr"), under ranx's conventions. @default "ndcg" */
  readonly metric?: string;
  /** The grid's step: weights' (0.1), rrf's k (10), sigma's, gamma's and phi's (0.01). */
  readonly step?: number;
  /** The other ends of the grids, ranx's names and defaults (min_k 10, max_k 100, min_n_segments 1, ...). */
  readonly min_k?: number;
  readonly max_k?: number;
  readonly min_sigma?: number;
  readonly max_sigma?: number;
  readonly min_gamma?: number;
  readonly max_gamma?: number;
  readonly min_phi?: number;
  readonly max_phi?: number;
  readonly min_n_segments?: number;
  readonly max_n_segments?: number;
  readonly min_w?: number;
  readonly max_w?: number;
}

/** A method's grid: its options (ranx's names, defaults) and its candidates in ranx's order. */
interface Grid {
  /** ranx's key in what it returns. */
  readonly param: string;
  readonly options: Readonly<Record<string, number>>;
  candidates(o: Readonly<Record<string, number>>, runs: number): Record<string, unknown>[];
}

/** ranx has no bound, but would run for days past it. */
const MAX_GRID = 1_000_000;

const tooLarge = (what: string) =>
  usageError(
    `optimizeFusion: the grid has ${what}: more than ${MAX_GRID.toLocaleString("en")} candidates; a larger step or a narrower range`,
  );

/** Python's str(step)[::-1].find("."): how many digits ranx rounds a grid to (repr: 1e-05 below 1e-4). */
export function roundingDigits(step: number) {
  let s = String(step);
  if (step !== 0 && Math.abs(step) < 1e-4) {
    const [m, e] = step.toExponential().split("e");
    const exp = Number(e);
    s = `${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  } else if (Number.isInteger(step) && Math.abs(step) < 1e16) s = `${step}.0`;
  return [...s].reverse().join("").indexOf(".");
}

/** Python's round(x, digits) (half to even between the two nearest at that many digits). */
function pyRound(x: number, digits: number) {
  if (digits >= 0 && digits <= 100) return Number(x.toFixed(digits));
  const f = 10 ** -digits;
  const y = x / f;
  const r = Math.round(y);
  return (r - y === 0.5 && r % 2 !== 0 ? r - 1 : r) * f;
}

/** numpy's arange of floats: ceil((stop - start) / step) values start + i * delta. */
export function arange(start: number, stop: number, step: number) {
  const n = Math.max(0, Math.ceil((stop - start) / step));
  if (n > MAX_GRID) throw tooLarge(`${n} values from ${start} to ${stop} by ${step}`);
  if (n === 0) return [];
  const out = [start];
  if (n > 1) out.push(start + step);
  const delta = out.length > 1 ? out[1] - out[0] : step;
  for (let i = 2; i < n; i++) out.push(start + i * delta);
  return out;
}

/** ranx's get_trial_configs: every n-tuple of weights (itertools.product order) summing to 1.0. */
export function weightCandidates(step: number, n: number): number[][] {
  const d = roundingDigits(step);
  const weights = arange(0, 1 + step, step).map((x) => pyRound(x, d));
  if (weights.length ** n > MAX_GRID * 100) throw tooLarge(`${weights.length}^${n} tuples of weights (step ${step})`);
  const out: number[][] = [];
  const t = new Array<number>(n).fill(0);
  const at = new Array<number>(n).fill(0);
  for (;;) {
    let s = 0;
    for (let i = 0; i < n; i++) s += t[i] = weights[at[i]];
    if (s === 1) out.push(t.slice());
    let i = n - 1;
    while (i >= 0 && ++at[i] === weights.length) at[i--] = 0;
    if (i < 0) return out;
  }
}

/** min to max by step, rounded as ranx rounds it. */
const rangeGrid = (name: string, min: number, max: number, step: number): Grid => ({
  param: name,
  options: { [`min_${name}`]: min, [`max_${name}`]: max, step },
  candidates: (o) => {
    const d = roundingDigits(o.step);
    return arange(o[`min_${name}`], o[`max_${name}`] + o.step, o.step).map((x) => ({ [name]: pyRound(x, d) }));
  },
});

/** Python's range(min, max + 1, step) of integers. */
const integerGrid = (name: string, min: number, max: number, step?: number): Grid => ({
  param: name,
  options: { [`min_${name}`]: min, [`max_${name}`]: max, ...(step === undefined ? {} : { step }) },
  candidates: (o) => {
    const out: Record<string, unknown>[] = [];
    const [min, max, step] = [o[`min_${name}`], o[`max_${name}`], o.step ?? 1];
    if ((max + 1 - min) / step > MAX_GRID) throw tooLarge(`${name} from ${min} to ${max} by ${step}`);
    for (let x = min; x < max + 1; x += step) out.push({ [name]: x });
    return out;
  },
});

const weightsGrid: Grid = {
  param: "weights",
  options: { step: 0.1 },
  candidates: (o, n) => weightCandidates(o.step, n).map((weights) => ({ weights })),
};

/** ranx's optimization_switch. */
const GRIDS: Readonly<Record<string, Grid>> = {
  wsum: weightsGrid,
  mixed: weightsGrid,
  wmnz: weightsGrid,
  w_bordafuse: weightsGrid,
  weighted_bordafuse: weightsGrid,
  w_condorcet: weightsGrid,
  weighted_condorcet: weightsGrid,
  rrf: integerGrid("k", 10, 100, 10),
  logn_isr: rangeGrid("sigma", 0.01, 1.0, 0.01),
  gmnz: rangeGrid("gamma", 0.01, 1.0, 0.01),
  rbc: rangeGrid("phi", 0.01, 1.0, 0.01),
  probfuse: integerGrid("n_segments", 1, 100),
  slidefuse: integerGrid("w", 1, 100),
};

/** optimize_fusion returns their training. */
const TRAINED_ONLY = new Set(["segfuse", "posfuse", "mapfuse", "bayesfuse"]);

function normalizedRuns(ranked: RankedRun[], norm: NormName | null): RankedRun[] {
  if (norm === null) return ranked;
  const lists = ranked.map(() => new Map<string, Ranked>());
  for (const q of ranked[0].qids) {
    normalizedQueries(
      ranked.map((r) => r.lists.get(q)!),
      norm,
    ).forEach((x, r) => lists[r].set(q, x));
  }
  return ranked.map((r, i) => ({ qids: r.qids, lists: lists[i] }));
}

/** ranx's fusion methods sort what they return (Run.sort()). */
function sortedLists(e: RankedEvaluator, fused: RankedRun): (i: number) => Ranked {
  return (i) => resortedList(fused.lists.get(e.qids[i])!);
}

function wsumScores(e: RankedEvaluator, runs: readonly RankedRun[], weightings: number[][]) {
  const nq = e.qids.length;
  const offsets = new Int32Array(nq + 1);
  // ranx's _weighted_sum: documents in order of first appearance, runs in order, each in its order.
  const perQuery = e.qids.map((q) => candidates(runs.map((run) => run.lists.get(q)!)));
  for (let i = 0; i < nq; i++) offsets[i + 1] = offsets[i] + perQuery[i].docs.length;
  const rows = offsets[nq];
  // 0 where the run lacks the document (ranx's get(d, 0.0)).
  const columns = runs.map((run, r) => {
    const c = new Float64Array(rows);
    for (let i = 0; i < nq; i++) {
      const { scores } = run.lists.get(e.qids[i])!;
      const at = perQuery[i].at[r];
      for (let k = 0; k < scores.length; k++) c[offsets[i] + at[k]] = scores[k];
    }
    return c;
  });
  const labels = new Float64Array(rows);
  for (let i = 0; i < nq; i++) labels.set(e.labelsOf(i, perQuery[i].docs), offsets[i]);
  const fused = new Float64Array(rows);
  const scores = new Float64Array(rows);
  const batchLabels = new Float64Array(rows);
  const out = new Float64Array(weightings.length);
  weightings.forEach((w, c) => {
    // Python's sum(): from 0, the runs left to right.
    fused.fill(0);
    for (let r = 0; r < columns.length; r++) {
      const col = columns[r];
      const wr = w[r];
      for (let k = 0; k < rows; k++) fused[k] += wr * col[k];
    }
    for (let i = 0; i < nq; i++) {
      const o = offsets[i];
      const end = offsets[i + 1];
      if (!hasTies(fused, o, end)) {
        // No ties: the kernel's own sort gives ranx's order.
        for (let k = o; k < end; k++) {
          scores[k] = fused[k];
          batchLabels[k] = labels[k];
        }
        continue;
      }
      // Ties: numba's quicksort order.
      const order = rankOrder(fused.subarray(o, end));
      for (let k = 0; k < order.length; k++) {
        scores[o + k] = fused[o + order[k]];
        batchLabels[o + k] = labels[o + order[k]];
      }
    }
    out[c] = e.evaluateColumns(offsets, scores, batchLabels).mean;
  });
  return out;
}

/** Whether two of x[from..to) are equal (-0 too): a hash, ~20x faster than sorting a copy (150 documents: 1 µs). */
const hasTies = (() => {
  let values = new Float64Array(256);
  let used = new Uint8Array(256);
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  return (x: Float64Array, from: number, to: number): boolean => {
    let size = values.length;
    while (size < 2 * (to - from)) size *= 2;
    if (size !== values.length) [values, used] = [new Float64Array(size), new Uint8Array(size)];
    else used.fill(0);
    const mask = size - 1;
    const shift = 32 - Math.log2(size);
    for (let k = from; k < to; k++) {
      const v = x[k] + 0; // -0 → 0
      bits[0] = v;
      let h = Math.imul(words[0] ^ words[1], 0x9e3779b1) >>> shift;
      while (used[h]) {
        if (values[h] === v) return true;
        h = (h + 1) & mask;
      }
      used[h] = 1;
      values[h] = v;
    }
    return false;
  };
})();

const OWN_OPTIONS = [
  "method",
  "norm",
  "metric",
  "step",
  ...new Set(Object.values(GRIDS).flatMap((g) => Object.keys(g.options))),
];

/**
 * ranx's optimize_fusion: the parameters of `method` whose fused run scores best on `metric` against
 * `qrels` (the last of equal best), as ranx returns them (`{ weights }`, `{ k }`, probfuse's `{ probs }`,
 * ...; segfuse, posfuse, mapfuse, bayesfuse: their training). Runs and qrels must have the same queries.
 * evaluateRun's options go over the ranx preset. `report` receives every candidate's params and score.
 *
 * @example
 * optimizeFusion(qrels, [bm25, dense], { method: "wsum", norm: "min-max", metric: "ndcg@10", step: 0.1 })
 * // { weights: [0.3, 0.7] }
 */
export function optimizeFusion(
  qrels: Judgments,
  runs: readonly ScoredRun[],
  options: OptimizeFusionOptions = {},
  report?: { params: Record<string, unknown>; score: number }[],
): Record<string, unknown> {
  const types = Object.fromEntries([...OWN_OPTIONS.map((k) => [k, ANY]), ...Object.entries(OPTION_TYPES)]);
  delete types.tieRange;
  checkOptions(options, types, "optimizeFusion");
  if (report !== undefined && !Array.isArray(report))
    throw usageError(
      `optimizeFusion: report must be an array (it receives each candidate's score), not ${shown(report)}`,
    );
  const given = options as Record<string, unknown>;
  const method = (given.method ?? "wsum") as string;
  const norm = given.norm === null ? null : normName(given.norm ?? "min-max", "optimizeFusion: norm");
  const metric = (given.metric ?? "ndcg") as string;
  const grid = typeof method === "string" && Object.hasOwn(GRIDS, method) ? GRIDS[method] : undefined;
  if (!grid && !TRAINED_ONLY.has(method))
    throw usageError(
      `optimizeFusion: method must be one ranx optimises (${[...Object.keys(GRIDS), ...TRAINED_ONLY].join(", ")}), not ${shown(method)}`,
    );
  const gridOptions: Record<string, number> = { ...(grid?.options ?? {}) };
  for (const k of OWN_OPTIONS.filter((k) => !["method", "norm", "metric"].includes(k))) {
    const v = given[k];
    if (v === undefined) continue;
    if (!Object.hasOwn(gridOptions, k))
      throw usageError(
        `optimizeFusion: ${method} takes no option ${k} (its options: ${Object.keys(gridOptions).join(", ") || "none"})`,
      );
    const integer = method === "rrf" || method === "probfuse" || method === "slidefuse";
    if (typeof v !== "number" || !Number.isFinite(v) || (integer && !Number.isInteger(v)))
      throw usageError(`optimizeFusion: ${k} must be ${integer ? "an integer" : "a finite number"}, not ${shown(v)}`);
    if (k === "step" && !(v > 0)) throw usageError(`optimizeFusion: step must be > 0, not ${shown(v)}`);
    gridOptions[k] = v;
  }
  if (!Array.isArray(runs) || runs.length < 2)
    throw usageError(`optimizeFusion: runs must be an array of at least two runs, not ${shown(runs)}`);
  // A grid too large is refused before the runs are read.
  const candidates = grid ? grid.candidates(gridOptions, runs.length) : [];
  const evaluateOptions = Object.fromEntries(
    Object.entries(given).filter(([k]) => !OWN_OPTIONS.includes(k)),
  ) as Options;

  if (notAnObject(qrels))
    throw usageError(`optimizeFusion: qrels must be { qid: { docid: label } }, not ${shown(qrels)}`);
  const e = new RankedEvaluator(qrels, metric, evaluateOptions);
  const ranked = runs.map((run, i) => {
    if (notAnObject(run))
      throw usageError(`optimizeFusion: runs[${i}] must be { qid: { docid: score } }, not ${shown(run)}`);
    const r = rankedRun(run, `optimizeFusion: runs[${i}]`);
    const missing = e.qids.find((q) => !r.lists.has(q)) ?? r.qids.find((q) => !Object.hasOwn(qrels, q));
    if (missing !== undefined)
      throw usageError(
        `optimizeFusion: runs[${i}] and qrels have different queries (query ${JSON.stringify(missing)} is in one only); ranx optimises on runs of the judged queries`,
      );
    return r;
  });
  const normed = normalizedRuns(ranked, norm);

  const learned = LEARNED_METHODS[method];
  // ranx's training re-sorts normalised runs (Run.to_typed_list of a run not marked sorted).
  const trainRuns = norm === null || norm === "min-max-inverted" ? normed : normed.map(resorted);
  if (TRAINED_ONLY.has(method)) return learned.trainRanked(qrels, trainRuns, {});
  const s = searched(e, method, learned, qrels, normed, trainRuns, candidates);
  if (report) candidates.forEach((c, i) => report.push({ params: c, score: s.scores[i] }));
  return s.result(bestOf(s.scores));
}

/** result(-1): none scored 0 or more. */
interface Searched {
  readonly scores: Float64Array;
  result(best: number): Record<string, unknown>;
}

function searched(
  e: RankedEvaluator,
  method: string,
  learned: LearnedMethod | undefined,
  qrels: Judgments,
  normed: RankedRun[],
  trainRuns: RankedRun[],
  candidates: Record<string, unknown>[],
): Searched {
  const scores = new Float64Array(candidates.length);
  if (method === "slidefuse") {
    const trained = learned!.trainRanked(qrels, trainRuns, {});
    candidates.forEach((c, i) => {
      scores[i] = e.evaluateLists(sortedLists(e, learned!.fuseRanked(trainRuns, { ...trained, ...c }))).mean;
    });
    return { scores, result: (best) => ({ ...trained, w: best < 0 ? [] : candidates[best].w }) };
  }
  if (method === "probfuse") {
    // ranx returns the best's probabilities (None: null).
    candidates.forEach((c, i) => {
      const trained = learned!.trainRanked(qrels, trainRuns, c);
      scores[i] = e.evaluateLists(sortedLists(e, learned!.fuseRanked(trainRuns, trained))).mean;
    });
    const probs = (best: number) => (best < 0 ? null : learned!.trainRanked(qrels, trainRuns, candidates[best]).probs);
    return { scores, result: (best) => ({ probs: probs(best) }) };
  }
  const param = GRIDS[method].param;
  if (method === "wsum")
    scores.set(
      wsumScores(
        e,
        normed,
        candidates.map((c) => c[param] as number[]),
      ),
    );
  else {
    // Candidates unchecked: ranx's grid can pass fuse()'s range (rbc's phi by 0.05 ends at 1.01) and ranx computes with it.
    const m = scoreMethod(method)!;
    candidates.forEach((c, i) => {
      const lists = (q: number) =>
        fuseQuery(
          m,
          normed.map((r) => r.lists.get(e.qids[q])!),
          c as FusionParams,
        );
      scores[i] = e.evaluateLists(lists).mean;
    });
  }
  return { scores, result: (best) => ({ [param]: best < 0 ? [] : candidates[best][param] }) };
}

/** ranx's `score >= best` from 0: the last of equal scores; -1 when none scores 0 or more. */
function bestOf(scores: Float64Array) {
  let best = 0;
  let at = -1;
  scores.forEach((s, c) => {
    if (s >= best) [best, at] = [s, c];
  });
  return at;
}
