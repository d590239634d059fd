/**
 * The diversity measures (README "Diversity"), as ndeval's: Clarke et al. (SIGIR 2008: alpha-nDCG),
 * Chapelle et al. (CIKM 2009: ERR-IA), Clarke et al. (ICTIR 2009: NRBP), Agrawal et al. (WSDM 2009: -IA).
 * m = the subtopics some judged document is relevant to (0: every measure 0, nNRBP 0/0).
 * g_r = Σ_{j the document at rank r is relevant to} (1 − alpha)^{c_j(r)}, c_j(r) the documents above relevant to j.
 *   alpha-DCG@k = Σ_{r<=k} g_r / log2(r + 1)  /  Σ_{r<=k} m (1 − alpha)^(r−1) / log2(r + 1)
 *   ERR-IA@k    = Σ_{r<=k} g_r / r            /  Σ_{r<=k} m (1 − alpha)^(r−1) / r
 *     (ndeval divides neither at k = 1)
 *   alpha-nDCG@k, nERR-IA@k: over ndeval's greedy ideal ranking's (equal gains: the greatest id in bytes)
 *   NRBP = (1 − (1 − alpha) beta) / m Σ_r g_r beta^(r−1); nNRBP = NRBP / the ideal ranking's
 *   P-IA@k = Σ_{r<=k} (subtopics the document at r is relevant to) / (k m)
 *   strec@k = (subtopics some document in the top k is relevant to) / m
 *   MAP-IA = (1/m) Σ_{j judged relevant R_j > 0 times} (Σ_{r: relevant to j} (its relevant ones in 1..r) / r) / R_j
 * Without a cutoff, @k reads the whole ranking (and ideal ranking).
 */
import type { ResolvedOptions } from "../measures/options.js";
import { compareUtf8, type Formula, type Params } from "./ranking.js";

/** Subtopic index -> judgment. */
export type Judgments = ReadonlyMap<number, number>;

const relevantTo = (subs: Judgments | undefined, o: ResolvedOptions) =>
  [...(subs ?? new Map()).entries()]
    .filter(([, v]) => v >= o.relevanceThreshold)
    .map(([j]) => j)
    .sort((a, b) => a - b);

/** g_r for each document. */
function gains(list: readonly (Judgments | undefined)[], alpha: number, o: ResolvedOptions) {
  const seen = new Map<number, number>();
  return list.map((subs) => {
    let g = 0;
    for (const j of relevantTo(subs, o)) {
      g += (1 - alpha) ** (seen.get(j) ?? 0);
      seen.set(j, (seen.get(j) ?? 0) + 1);
    }
    return g;
  });
}

/** Subtopic j -> R_j; its size is m. */
function actual(q: SubtopicQuery, o: ResolvedOptions): Map<number, number> {
  const r = new Map<number, number>();
  for (const d of q.judged) for (const j of relevantTo(d.subs, o)) r.set(j, (r.get(j) ?? 0) + 1);
  return r;
}

function ideal(q: SubtopicQuery, alpha: number, o: ResolvedOptions): Judgments[] {
  const left = [...q.judged].sort((a, b) => compareUtf8(b.docid, a.docid));
  const out: Judgments[] = [];
  const seen = new Map<number, number>();
  while (left.length) {
    let best = -1;
    let bestGain = 0;
    left.forEach((d, i) => {
      const g = relevantTo(d.subs, o).reduce((s, j) => s + (1 - alpha) ** (seen.get(j) ?? 0), 0);
      if (best < 0 || g > bestGain) {
        best = i;
        bestGain = g;
      }
    });
    if (!(bestGain > 0)) break;
    const [d] = left.splice(best, 1);
    for (const j of relevantTo(d.subs, o)) seen.set(j, (seen.get(j) ?? 0) + 1);
    out.push(d.subs);
  }
  return out;
}

const discount = (r: number) => 1 / Math.log2(r + 1); // r 1-based

function sumTo(values: readonly number[], k: number, weight: (r: number) => number) {
  let s = 0;
  for (let r = 1; r <= Math.min(k, values.length); r++) s += values[r - 1] * weight(r);
  return s;
}

function idealIdeal(m: number, k: number, alpha: number, weight: (r: number) => number) {
  let s = 0;
  for (let r = 1; r <= k; r++) s += m * (1 - alpha) ** (r - 1) * weight(r);
  return s;
}

/** Built by evaluate-diversity.ts. */
export interface SubtopicQuery {
  /** Ranked as every measure ranks. */
  readonly ranking: readonly { readonly subs?: Judgments }[];
  readonly judged: readonly { readonly docid: string; readonly subs: Judgments }[];
}

type SubFormula = (q: SubtopicQuery, k: number, o: ResolvedOptions, p: Params) => number;

/** `f` of m and the gains g (alpha 0.5 if none given); 0 if m = 0. */
type Over = (q: SubtopicQuery, k: number, o: ResolvedOptions, p: Params, m: number, g: number[]) => number;
const over =
  (f: Over): SubFormula =>
  (q, k, o, p) => {
    const m = actual(q, o).size;
    return m === 0
      ? 0
      : f(
          q,
          k,
          o,
          p,
          m,
          gains(
            q.ranking.map((d) => d.subs),
            p.alpha ?? 0.5,
            o,
          ),
        );
  };

/** alpha-DCG@k and ERR-IA@k. */
const undivided = (w: (r: number) => number): SubFormula =>
  over((_q, k, _o, p, m, g) => {
    const at = k === 0 ? g.length : k;
    if (at === 0) return 0;
    const raw = sumTo(g, at, w);
    return at === 1 ? raw : raw / idealIdeal(m, at, p.alpha, w);
  });

/** alpha-nDCG@k and nERR-IA@k. */
const normalized = (w: (r: number) => number): SubFormula =>
  over((q, k, o, p, _m, g) => {
    const gi = gains(ideal(q, p.alpha, o), p.alpha, o);
    const at = k === 0 ? Math.max(g.length, gi.length) : k;
    if (at === 0) return 0;
    const run = sumTo(g, at, w);
    return run === 0 ? 0 : run / sumTo(gi, at, w);
  });

const nrbpSum = (g: readonly number[], beta: number) => g.reduce((s, x, i) => s + x * beta ** i, 0);

const byRank = (r: number) => 1 / r;
const alphaDcg = undivided(discount);
const errIa = undivided(byRank);
const alphaNdcg = normalized(discount);
const nerrIa = normalized(byRank);

const nrbp = over((_q, _k, _o, p, m, g) => ((1 - (1 - p.alpha) * p.beta) / m) * nrbpSum(g, p.beta));

const nnrbp = over(
  (q, _k, o, p, _m, g) => nrbpSum(g, p.beta) / nrbpSum(gains(ideal(q, p.alpha, o), p.alpha, o), p.beta),
);

const pIa = over((q, k, o, _p, m, g) => {
  const at = k === 0 ? g.length : k;
  if (at === 0) return 0;
  let pairs = 0;
  for (let r = 0; r < Math.min(at, g.length); r++) pairs += relevantTo(q.ranking[r].subs, o).length;
  return pairs / (at * m);
});

const strec = over((q, k, o, _p, m, g) => {
  const at = k === 0 ? g.length : k;
  const covered = new Set<number>();
  for (let r = 0; r < Math.min(at, g.length); r++) for (const j of relevantTo(q.ranking[r].subs, o)) covered.add(j);
  return covered.size / m;
});

const mapIa = over((q, _k, o, _p, m) => {
  let sum = 0;
  for (const [j, rj] of [...actual(q, o).entries()].sort((a, b) => a[0] - b[0])) {
    let c = 0;
    let s = 0;
    q.ranking.forEach((d, r) => {
      if (relevantTo(d.subs, o).includes(j)) s += ++c / (r + 1);
    });
    sum += s / rj;
  }
  return sum / m;
});

/** NaN without subtopic judgments (as the kernel). */
const sub =
  (f: SubFormula): Formula =>
  (q, k, o, p) =>
    q.subtopics ? f(q.subtopics, k, o, p) : NaN;

export const SUBTOPIC_FORMULAS = {
  alpha_dcg: sub(alphaDcg),
  alpha_ndcg: sub(alphaNdcg),
  err_ia: sub(errIa),
  nerr_ia: sub(nerrIa),
  nrbp: sub(nrbp),
  nnrbp: sub(nnrbp),
  map_ia: sub(mapIa),
  p_ia: sub(pIa),
  strec: sub(strec),
} satisfies Record<string, Formula>;
