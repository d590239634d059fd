// ranx 0.3.20's fusion methods that learn nothing (ranx/fusion/): its sums, order of ties and stand-in for
// a missing document (0 in sum and wsum, -1e9 in max, 1e9 in min, left out of the others).
import { checkOptions, NUMBER, type OptionType, required, shown, usageError } from "../errors/errors.js";
import { candidates, type Ranked, reordered } from "./normalize.js";
import { pythonSorted, rankOrder } from "./order.js";

/** One query of every run, side by side: candidate c of run r at [r * n + c]. */
interface Table<D> {
  readonly docs: readonly D[];
  readonly n: number;
  readonly runs: number;
  readonly score: Float64Array;
  /** 0-based; -1 where the run lacks it. */
  readonly rank: Int32Array;
}

function table<D>(qs: readonly Ranked<D>[]): Table<D> {
  const { docs, at: candidate } = candidates(qs);
  const n = docs.length;
  const score = new Float64Array(qs.length * n);
  const rank = new Int32Array(qs.length * n).fill(-1);
  for (let r = 0; r < qs.length; r++) {
    const q = qs[r];
    for (let i = 0; i < q.docs.length; i++) {
      const at = r * n + candidate[r][i];
      score[at] = q.scores[i];
      rank[at] = i;
    }
  }
  return { docs, n, runs: qs.length, score, rank };
}

/** As ranx's Run.sort(). */
function sorted<D>(t: Table<D>, fused: Float64Array): Ranked<D> {
  return reordered({ docs: t.docs, scores: fused }, rankOrder(fused));
}

/** A method's parameters: weights (one per run), k, sigma, phi, gamma. */
export interface FusionParams {
  readonly weights?: readonly number[];
  readonly k?: number;
  readonly sigma?: number;
  readonly phi?: number;
  readonly gamma?: number;
}

type Combine = (t: Table<unknown>, p: FusionParams) => Float64Array;

function each(t: Table<unknown>, f: (c: number) => number) {
  const out = new Float64Array(t.n);
  for (let c = 0; c < t.n; c++) out[c] = f(c);
  return out;
}

/** Python's sum, from 0, over the runs having candidate c (`missing` for the others). */
function sumOf(t: Table<unknown>, c: number, value: (r: number, at: number) => number, missing?: number) {
  let s = 0;
  for (let r = 0; r < t.runs; r++) {
    const at = r * t.n + c;
    if (t.rank[at] >= 0) s += value(r, at);
    else if (missing !== undefined) s += missing;
  }
  return s;
}

function count(t: Table<unknown>, c: number) {
  let k = 0;
  for (let r = 0; r < t.runs; r++) if (t.rank[r * t.n + c] >= 0) k++;
  return k;
}

const scoreOf = (t: Table<unknown>) => (_r: number, at: number) => t.score[at];

const combSum: Combine = (t) => {
  const v = scoreOf(t);
  return each(t, (c) => sumOf(t, c, v, 0));
};
/** `f` of the scores' sum and count. */
const combMnz = (t: Table<unknown>, f: (sum: number, count: number) => number) => {
  const v = scoreOf(t);
  return each(t, (c) => f(sumOf(t, c, v), count(t, c)));
};

function extreme(t: Table<unknown>, stand: number, pick: (a: number, b: number) => number) {
  return each(t, (c) => {
    let m = Number.NaN;
    for (let r = 0; r < t.runs; r++) {
      const at = r * t.n + c;
      const x = t.rank[at] >= 0 ? t.score[at] : stand;
      m = r === 0 ? x : pick(m, x);
    }
    return m;
  });
}

function median(t: Table<unknown>) {
  const xs: number[] = [];
  return each(t, (c) => {
    xs.length = 0;
    for (let r = 0; r < t.runs; r++) if (t.rank[r * t.n + c] >= 0) xs.push(t.score[r * t.n + c]);
    xs.sort((a, b) => a - b);
    const h = xs.length >> 1;
    return xs.length % 2 === 1 ? xs[h] : (xs[h - 1] + xs[h]) / 2;
  });
}

/** Σ value(rank) over the runs having the candidate. */
function rankSum(
  t: Table<unknown>,
  value: (i: number) => number,
  f?: (sum: number, count: number) => number,
): Float64Array {
  const v = (_r: number, at: number) => value(t.rank[at]);
  return f === undefined ? each(t, (c) => sumOf(t, c, v, 0)) : each(t, (c) => f(sumOf(t, c, v), count(t, c)));
}

/** ranx's Borda points: rank i gets n - i (n candidates), a missing one (n - m + 1) / 2 (m the run's length). */
function borda(t: Table<unknown>, weights?: readonly number[]) {
  const unranked = new Float64Array(t.runs);
  for (let r = 0; r < t.runs; r++) {
    let m = 0;
    for (let c = 0; c < t.n; c++) if (t.rank[r * t.n + c] >= 0) m++;
    unranked[r] = (t.n - m + 1) / 2;
  }
  return each(t, (c) => {
    let s = 0;
    for (let r = 0; r < t.runs; r++) {
      const i = t.rank[r * t.n + c];
      const points = i >= 0 ? t.n - i : unranked[r];
      s += weights === undefined ? points : weights[r] * points;
    }
    return s;
  });
}

/** ranx's rank for a missing candidate. */
const CONDORCET_UNRANKED = 1_000_000;

/** ranx's (weighted) Condorcet: `sorted` with "x before y when the votes for x >= those against", scored n..1. */
function condorcet<D>(t: Table<D>, weights?: readonly number[]): Ranked<D> {
  const rankAt = (r: number, c: number) => {
    const i = t.rank[r * t.n + c];
    return i >= 0 ? i : CONDORCET_UNRANKED;
  };
  const less = (x: number, y: number) => {
    let forX = 0;
    let forY = 0;
    for (let r = 0; r < t.runs; r++) {
      const w = weights === undefined ? 1 : weights[r];
      if (rankAt(r, x) < rankAt(r, y)) forX += w;
      else forY += w;
    }
    return forX >= forY;
  };
  const order = pythonSorted(t.n, less);
  const docs = new Array<D>(t.n);
  const scores = new Float64Array(t.n);
  for (let i = 0; i < t.n; i++) {
    docs[i] = t.docs[order[i]];
    scores[i] = t.n - i;
  }
  return { docs, scores };
}

interface Method {
  readonly params: Readonly<Record<string, OptionType>>;
  readonly fuse: <D>(t: Table<D>, p: FusionParams) => Ranked<D>;
}

const WEIGHTS: OptionType = {
  test: (v) => Array.isArray(v) && v.every((w) => typeof w === "number" && Number.isFinite(w)),
  is: "an array of finite numbers, one per run",
  required: true,
};
const UNIT: OptionType = { test: (v) => typeof v === "number" && v >= 0 && v <= 1, is: "a number in [0, 1]" };
const NON_NEGATIVE: OptionType = {
  test: (v) => typeof v === "number" && v >= 0 && Number.isFinite(v),
  is: "a finite number >= 0",
};
const FINITE: OptionType = { test: (v) => NUMBER.test(v) && Number.isFinite(v), is: "a finite number" };

const scored = (combine: Combine, params: Readonly<Record<string, OptionType>> = {}): Method => ({
  params,
  fuse: (t, p) => sorted(t, combine(t, p)),
});

const weighted = (combine: (t: Table<unknown>, w: readonly number[]) => Float64Array) =>
  scored((t, p) => combine(t, p.weights as readonly number[]), { weights: WEIGHTS });

/** ranx's defaults. */
const DEFAULTS = { k: 60, sigma: 0.01 } as const;

const isr = (i: number) => 1 / (i + 1) ** 2;

const METHODS: Readonly<Record<string, Method>> = {
  rrf: scored((t, p) => rankSum(t, (i) => 1 / ((p.k ?? DEFAULTS.k) + i + 1)), { k: NON_NEGATIVE }),
  isr: scored((t) => rankSum(t, isr, (s, n) => s * n)),
  log_isr: scored((t) => rankSum(t, isr, (s, n) => s * Math.log(n))),
  logn_isr: scored((t, p) => rankSum(t, isr, (s, n) => s * Math.log(n + (p.sigma ?? DEFAULTS.sigma))), { sigma: UNIT }),
  bordafuse: scored((t) => borda(t)),
  w_bordafuse: scored((t, p) => borda(t, p.weights), { weights: WEIGHTS }),
  condorcet: { params: {}, fuse: (t) => condorcet(t) },
  w_condorcet: { params: { weights: WEIGHTS }, fuse: (t, p) => condorcet(t, p.weights) },
  max: scored((t) => extreme(t, -1e9, Math.max)),
  min: scored((t) => extreme(t, 1e9, Math.min)),
  med: scored(median),
  sum: scored(combSum),
  anz: scored((t) => combMnz(t, (s, n) => s / n)),
  mnz: scored((t) => combMnz(t, (s, n) => s * n)),
  gmnz: scored((t, p) => combMnz(t, (s, n) => s * n ** (p.gamma as number)), { gamma: required(FINITE) }),
  wsum: weighted((t, w) => each(t, (c) => sumOf(t, c, (r, at) => w[r] * t.score[at], 0))),
  wmnz: weighted((t, w) => each(t, (c) => sumOf(t, c, scoreOf(t)) * sumOf(t, c, (r) => w[r]))),
  mixed: weighted((t, w) => each(t, (c) => sumOf(t, c, (r, at) => t.score[at] * w[r]) * Math.sqrt(count(t, c)))),
  rbc: scored((t, p) => rankSum(t, (i) => (1 - (p.phi as number)) * (p.phi as number) ** i), { phi: required(UNIT) }),
};

/** ranx's class names. */
const METHOD_ALIASES: Readonly<Record<string, string>> = {
  weighted_bordafuse: "w_bordafuse",
  weighted_condorcet: "w_condorcet",
};

/** The methods that learn nothing, with aliases. */
export const METHOD_NAMES: readonly string[] = [...Object.keys(METHODS), ...Object.keys(METHOD_ALIASES)];

export function scoreMethod(name: string): string | undefined {
  if (Object.hasOwn(METHODS, name)) return name;
  if (Object.hasOwn(METHOD_ALIASES, name)) return METHOD_ALIASES[name];
  return undefined;
}

/** Whether `name`'s method takes a weight a run (wsum, w_bordafuse, ...). */
export function takesWeights(name: string) {
  const method = scoreMethod(name);
  return method !== undefined && Object.hasOwn(METHODS[method].params, "weights");
}

/** `params` checked for `method` (scoreMethod's name) and `runs` runs. */
export function methodParams(method: string, params: unknown, runs: number): FusionParams {
  const p = checkOptions(params as FusionParams | undefined, METHODS[method].params, `fuse: ${method}'s params`);
  if (p.weights !== undefined && p.weights.length !== runs)
    throw usageError(
      `fuse: ${method}'s params: weights must have one weight per run (${runs}), not ${shown(p.weights)}`,
    );
  return p;
}

/** One query of every (normalised) run fused. */
export function fuseQuery<D>(method: string, qs: readonly Ranked<D>[], params: FusionParams): Ranked<D> {
  return METHODS[method].fuse(table(qs), params);
}
