// ranx 0.3.20's learned fusion (fusion/<method>.py): a document's score read off its position in each
// run, summed over the runs (comb_sum; bayesfuse: sum_odds).
import { badInput, notAnObject, shown, usageError } from "../errors/errors.js";
import { evaluateRanked, judgedLabels } from "./evaluate-ranked.js";
import { candidates, type Ranked } from "./normalize.js";
import { type RankedRun, rankedRun, scoredRun } from "./ranked-run.js";
import type { Judgments, ScoredRun } from "./run-shapes.js";

export interface LearnedMethod {
  /** The method's parameters learned from `qrels` and training `runs` (ranx's `<method>_train`). */
  train(
    qrels: Judgments,
    runs: readonly ScoredRun[],
    options: Readonly<Record<string, unknown>>,
  ): Record<string, unknown>;
  /** `runs` fused with parameters `train` gave (ranx's `<method>`). */
  fuse(runs: readonly ScoredRun[], params: Readonly<Record<string, unknown>>): ScoredRun;
  /** train on runs already in ranx's order. */
  trainRanked(qrels: Judgments, runs: readonly RankedRun[], options: Readonly<Record<string, unknown>>): Params;
  /** fuse on runs already in ranx's order. */
  fuseRanked<D>(runs: readonly RankedRun<D>[], params: Readonly<Record<string, unknown>>): RankedRun<D>;
}

type Params = Record<string, unknown>;

/** The score of position i of a query of `n` documents. */
type PositionScores = (run: number, n: number) => (i: number, score: number) => number;

/** ranx's bayesfuse: a missing document's log odds. */
const MIN_ODD = Math.log(0.001 / 0.999);

/** ranx's segfuse segments: [0, 5, 15, 35, ..., 5115). */
const SEGFUSE_BOUNDS = [0, ...Array.from({ length: 10 }, (_, k) => 10 * 2 ** k - 5)];

/** ranx's bayesfuse cut-offs. */
const BAYES_CUTS = [0, 5, 10, 15, 20, 30, 100, 200, 500, 1000];

/** Python's sum(a[start:end]). */
function sliceSum(a: ArrayLike<number>, start: number, end: number) {
  let s = 0;
  for (let i = start; i < Math.min(end, a.length); i++) s += a[i];
  return s;
}

function rankedRuns(runs: readonly ScoredRun[], method: string): RankedRun[] {
  if (!Array.isArray(runs) || runs.length < 2)
    throw usageError(`${method}: runs must be an array of at least two runs, not ${shown(runs)}`);
  return runs.map((run, i) => {
    if (notAnObject(run)) throw badInput(`${method}: runs[${i}] must be { qid: { docid: score } }, not ${shown(run)}`);
    return rankedRun(run, `${method}: runs[${i}]`);
  });
}

/** As ranx's fuse() asserts. */
function sameQueries(runs: readonly RankedRun<unknown>[], method: string) {
  for (let i = 1; i < runs.length; i++) {
    const a = runs[0].qids;
    const b = runs[i].qids;
    const missing = a.find((q) => !runs[i].lists.has(q)) ?? b.find((q) => !runs[0].lists.has(q));
    if (missing !== undefined)
      throw badInput(
        `${method}: runs 0 and ${i} have different queries (query ${JSON.stringify(missing)} is in one only); ranx fuses runs of the same queries`,
      );
  }
}

/** Query ids in code point order; relevant: label >= 1 (ranx's rel_lvl 1). */
function relevantSets(qrels: Judgments, method: string) {
  const { qids, labels } = judgedLabels(qrels, `${method}: `);
  const relevant = new Map(qids.map((q, i) => [q, new Set([...labels[i]].filter(([, l]) => l >= 1).map(([d]) => d))]));
  return { qids, relevant };
}

/**
 * ranx's get_hit_lists: per judged query, 1 where the document there is relevant. ranx pairs the i-th
 * judged query with the run's i-th, so differing queries are refused.
 */
function hitLists(qrels: Judgments, run: RankedRun, index: number, method: string): Float64Array[] {
  const { qids, relevant } = relevantSets(qrels, method);
  if (qids.length === 0) throw badInput(`${method}: qrels has no query`);
  const missing = qids.find((q) => !run.lists.has(q)) ?? run.qids.find((q) => !relevant.has(q));
  if (missing !== undefined)
    throw badInput(
      `${method}: runs[${index}] and qrels have different queries (query ${JSON.stringify(missing)} is in one only); ranx trains on runs of the judged queries`,
    );
  return qids.map((q) => {
    const rel = relevant.get(q)!;
    return Float64Array.from(run.lists.get(q)!.docs, (d) => (rel.has(d) ? 1 : 0));
  });
}

/** ranx's _estimate_probs: per position, the share of queries with a relevant document there. */
function estimateProbs(hits: Float64Array[]) {
  let n = 0;
  for (const h of hits) n = Math.max(n, h.length);
  const num = new Float64Array(n);
  const den = new Float64Array(n);
  for (const h of hits)
    for (let i = 0; i < h.length; i++) {
      den[i] += 1;
      num[i] += h[i];
    }
  return Array.from(num, (x, i) => x / den[i]);
}

function perRunArrays(params: Readonly<Params>, key: string, runs: number, method: string): ArrayLike<number>[] {
  const v = params[key];
  const ok = (a: unknown) =>
    (Array.isArray(a) || a instanceof Float64Array) &&
    Array.prototype.every.call(a, (x: unknown) => typeof x === "number" && !Number.isNaN(x));
  if (!Array.isArray(v) || v.length !== runs || !v.every(ok))
    throw usageError(
      `${method}: params.${key} must be ${runs} arrays of numbers (one per run, as ${method}'s train gives), not ${shown(v)}`,
    );
  return v as ArrayLike<number>[];
}

function perRunNumbers(params: Readonly<Params>, key: string, runs: number, method: string) {
  const v = params[key];
  if (!Array.isArray(v) || v.length !== runs || !v.every((x) => typeof x === "number" && !Number.isNaN(x)))
    throw usageError(
      `${method}: params.${key} must be ${runs} numbers (one per run, as ${method}'s train gives), not ${shown(v)}`,
    );
  return v;
}

function integerOption(options: Readonly<Params>, key: string, method: string, min: number, max = Infinity) {
  const v = options[key];
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)
    throw usageError(
      `${method}: ${key} must be an integer >= ${min}${max < Infinity ? ` and <= ${max}` : ""}, not ${shown(v)}`,
    );
  return v;
}

/** A misspelt key would otherwise change nothing. */
function onlyKeys(given: Readonly<Params>, keys: readonly string[], method: string, what: string) {
  if (notAnObject(given)) throw usageError(`${method}: ${what} must be an object, not ${shown(given)}`);
  for (const k of Object.keys(given))
    if (!keys.includes(k))
      throw usageError(
        `${method}: unknown ${what.replace(/s$/, "")} ${shown(k)} (${method} takes ${keys.join(", ") || "none"})`,
      );
}

/** ranx's comb_sum of the position scores (bayesfuse's sum_odds: `missing` for a missing document). */
function sumPositions<D>(runs: readonly RankedRun<D>[], score: PositionScores, missing = 0): RankedRun<D> {
  const lists = new Map<string, Ranked<D>>();
  for (const q of runs[0].qids) {
    const { docs, at } = candidates(runs.map((run) => run.lists.get(q)!));
    const scores = new Float64Array(docs.length);
    const has = new Uint8Array(docs.length);
    runs.forEach((run, r) => {
      const list = run.lists.get(q)!;
      const value = score(r, list.docs.length);
      has.fill(0);
      for (let i = 0; i < list.docs.length; i++) {
        scores[at[r][i]] += value(i, list.scores[i]);
        has[at[r][i]] = 1;
      }
      for (let c = 0; c < docs.length; c++) if (!has[c]) scores[c] += missing;
    });
    lists.set(q, { docs, scores });
  }
  return { qids: runs[0].qids, lists };
}

/** The public train and fuse on objects, from the ranked ones. */
function method(
  name: string,
  trainKeys: readonly string[],
  paramKeys: readonly string[],
  trainRanked: (qrels: Judgments, runs: readonly RankedRun[], options: Readonly<Params>) => Params,
  fuseRanked: <D>(runs: readonly RankedRun<D>[], params: Readonly<Params>) => RankedRun<D>,
): LearnedMethod {
  const train = (qrels: Judgments, runs: readonly RankedRun[], options: Readonly<Params>) => {
    onlyKeys(options ?? {}, trainKeys, name, "options");
    return trainRanked(qrels, runs, options ?? {});
  };
  const fuse = <D>(runs: readonly RankedRun<D>[], params: Readonly<Params>) => {
    onlyKeys(params ?? {}, paramKeys, name, "params");
    sameQueries(runs, name);
    return fuseRanked(runs, params ?? {});
  };
  return {
    train: (qrels, runs, options = {}) => train(qrels, rankedRuns(runs, name), options),
    fuse: (runs, params = {}) => scoredRun(fuse(rankedRuns(runs, name), params)),
    trainRanked: train,
    fuseRanked: fuse,
  };
}

/** ProbFuse (Lillis et al. 2006): fusion/probfuse.py. */
const probfuse = method(
  "probfuse",
  ["n_segments"],
  ["probs"],
  (qrels, runs, options) => {
    // The bound keeps a mistyped count from allocating gigabytes.
    const n = integerOption(options, "n_segments", "probfuse", 1, 1_000_000);
    const probs = runs.map((run, r) => {
      const hits = hitLists(qrels, run, r, "probfuse");
      const p = new Float64Array(n);
      for (const h of hits) {
        const size = Math.ceil(h.length / n);
        for (let k = 0; k < n; k++) {
          const end = Math.min((k + 1) * size, h.length);
          const start = Math.min(k * size, end);
          if (end > start) p[k] += sliceSum(h, start, end) / (end - start);
        }
      }
      return Array.from(p, (x) => x / hits.length);
    });
    return { probs };
  },
  (runs, params) => {
    const probs = perRunArrays(params, "probs", runs.length, "probfuse");
    return sumPositions(runs, (r, n) => {
      const p = probs[r];
      const size = Math.ceil(n / p.length);
      return (i) => p[Math.floor(i / size)] / (Math.floor(i / size) + 1);
    });
  },
);

/** SegFuse (Shokouhi 2007): fusion/segfuse.py. */
const segfuse = method(
  "segfuse",
  [],
  ["probs"],
  (qrels, runs) => {
    const probs = runs.map((run, r) => {
      const hits = hitLists(qrels, run, r, "segfuse");
      const p = new Float64Array(SEGFUSE_BOUNDS.length - 1);
      for (const h of hits)
        for (let k = 0; k < p.length; k++) {
          const [start, end] = [SEGFUSE_BOUNDS[k], SEGFUSE_BOUNDS[k + 1]];
          p[k] += sliceSum(h, start, end) / (end - start);
        }
      return Array.from(p, (x) => x / hits.length);
    });
    return { probs };
  },
  (runs, params) => {
    const probs = perRunArrays(params, "probs", runs.length, "segfuse");
    return sumPositions(runs, (r) => {
      const p = probs[r];
      // Ranks past the run's probabilities (at most 10 segments) score 0, as in ranx.
      return (i, score) => {
        let k = 0;
        while (k < p.length && k + 1 < SEGFUSE_BOUNDS.length && i >= SEGFUSE_BOUNDS[k + 1]) k++;
        const inSegment = k < p.length && k + 1 < SEGFUSE_BOUNDS.length;
        return (inSegment ? p[k] : 0) * (score + 1);
      };
    });
  },
);

/** The probabilities slidefuse and posfuse train (common.py estimate_probs_multi). */
const positionProbs = (name: string) => (qrels: Judgments, runs: readonly RankedRun[]) => ({
  probs: runs.map((run, r) => estimateProbs(hitLists(qrels, run, r, name))),
});

/** SlideFuse (Lillis et al. 2008): fusion/slidefuse.py. */
const slidefuse = method("slidefuse", [], ["probs", "w"], positionProbs("slidefuse"), (runs, params) => {
  const probs = perRunArrays(params, "probs", runs.length, "slidefuse");
  const w = integerOption(params, "w", "slidefuse", 0);
  return sumPositions(runs, (r, n) => (p) => {
    const a = Math.max(p - w, 0);
    const b = Math.min(p + w, n - 1);
    return sliceSum(probs[r], a, b + 1) / (b - a + 1);
  });
});

/** PosFuse (Lillis et al. 2010): fusion/posfuse.py. */
const posfuse = method("posfuse", [], ["probs"], positionProbs("posfuse"), (runs, params) => {
  const probs = perRunArrays(params, "probs", runs.length, "posfuse");
  return sumPositions(runs, (r) => (i) => (i < probs[r].length ? probs[r][i] : 0));
});

/** MAPFuse (Lillis et al. 2010): fusion/mapfuse.py; its training is each run's MAP (ranx's "map"). */
const mapfuse = method(
  "mapfuse",
  [],
  ["map_scores"],
  (qrels, runs) => ({
    map_scores: runs.map((run, r) => {
      hitLists(qrels, run, r, "mapfuse");
      return evaluateRanked(qrels, run, "map").mean;
    }),
  }),
  (runs, params) => {
    const maps = perRunNumbers(params, "map_scores", runs.length, "mapfuse");
    return sumPositions(runs, (r) => (i) => maps[r] / (i + 1));
  },
);

/** BayesFuse (Aslam and Montague 2001): fusion/bayesfuse.py. */
const bayesfuse = method(
  "bayesfuse",
  [],
  ["log_odds"],
  (qrels, runs) => ({
    log_odds: runs.map((run, r) => {
      const hits = hitLists(qrels, run, r, "bayesfuse");
      const odds = new Float64Array(BAYES_CUTS[BAYES_CUTS.length - 1]);
      for (let c = 0; c + 1 < BAYES_CUTS.length; c++) {
        const [start, end] = [BAYES_CUTS[c], BAYES_CUTS[c + 1]];
        let precision = 0;
        for (const h of hits) precision += sliceSum(h, start, end) / (end - start) / hits.length;
        if (precision === 0) precision += 0.001;
        let negative = 1 - precision;
        if (negative === 0) negative += 0.001;
        odds.fill(Math.log(precision / negative), start, end);
      }
      return Array.from(odds);
    }),
  }),
  (runs, params) => {
    const odds = perRunArrays(params, "log_odds", runs.length, "bayesfuse");
    runs.forEach((run, r) => {
      const long = run.qids.find((q) => run.lists.get(q)!.docs.length > odds[r].length);
      if (long !== undefined)
        throw badInput(
          `bayesfuse: query ${JSON.stringify(long)} of runs[${r}] ranks ${run.lists.get(long)!.docs.length} documents, past the ${odds[r].length} ranks its log odds cover (ranx reads past them)`,
        );
    });
    return sumPositions(runs, (r) => (i) => odds[r][i], MIN_ODD);
  },
);

export const LEARNED_METHODS: Readonly<Record<string, LearnedMethod>> = {
  probfuse,
  segfuse,
  slidefuse,
  posfuse,
  mapfuse,
  bayesfuse,
};
