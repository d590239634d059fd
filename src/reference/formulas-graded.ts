/** Graded measures by their definitions. gain(label): 0 for labels <= 0 and unjudged. */
import { discountTable } from "../measures/discount.js";
import type { ResolvedOptions } from "../measures/options.js";
import { gain, isRelevant, ranksRead, ratio, type Formula, type Query } from "./ranking.js";

type O = ResolvedOptions;

/** Σ gains[i - 1] / log2(i + 1) over ranks i = 1..min(k, gains.length) (k = 0: all), in rank order. */
function discountedSum(gains: readonly number[], k: number) {
  const end = k === 0 ? gains.length : Math.min(k, gains.length);
  const discount = discountTable(end + 1);
  let sum = 0;
  for (let i = 1; i <= end; i++) sum += gains[i - 1] * discount[i];
  return sum;
}

const rankedGains = (q: Query, o: O) => q.ranking.map((d) => gain(d.label, o));
/** Every judged document's gain, retrieved or not, sorted descending. */
const idealGains = (q: Query, o: O) => q.judged.map((l) => gain(l, o)).sort((a, b) => b - a);
const dcg = (q: Query, k: number, o: O) => discountedSum(rankedGains(q, o), k);

function gainWalk(q: Query, o: O) {
  const ideal = idealGains(q, o);
  return { results: rankedGains(q, o), at: (i: number) => (i < ideal.length ? ideal[i] : 0) };
}

/** trec_eval's gain measures as its loops run (m_G.c ...): the ideal walk stops at its first gain <= 0. */
function trecG(q: Query, o: O) {
  const { results, at } = gainWalk(q, o);
  let idealGain = at(0);
  let sumResults = 0;
  let sumIdeal = 0;
  let sumCost = 0;
  let g = 0;
  let i = 0;
  for (; i < results.length; i++) {
    sumResults += results[i];
    if (idealGain > 0) {
      idealGain = at(i);
      if (idealGain > 0) sumIdeal += idealGain;
      sumCost += idealGain >= 1 ? idealGain : 1;
    } else sumCost += 1;
    if (results[i] !== 0) g += results[i] / Math.log2(2 + sumCost - sumResults);
  }
  for (; idealGain > 0; i++) {
    idealGain = at(i);
    if (idealGain > 0) sumIdeal += idealGain;
  }
  return sumIdeal > 0 ? g / sumIdeal : 0;
}

function ndcgRel(q: Query, o: O) {
  const { results, at } = gainWalk(q, o);
  let idealGain = at(0);
  let dcg = 0;
  let idcg = 0;
  let sum = 0;
  let relRet = 0;
  let rel = 0;
  const addIdeal = (i: number) => {
    idealGain = at(i);
    if (idealGain > 0) {
      rel++;
      idcg += idealGain / Math.log2(i + 2);
    }
  };
  let i = 0;
  for (; i < results.length; i++) {
    if (results[i] !== 0) dcg += results[i] / Math.log2(i + 2);
    if (idealGain > 0) addIdeal(i);
    if (results[i] > 0) {
      sum += dcg / idcg;
      relRet++;
    }
  }
  for (; idealGain > 0; i++) addIdeal(i);
  sum += ((rel - relRet) * dcg) / idcg;
  return sum > 0 ? sum / rel : 0;
}

/** NaN (0/0) when the query has relevant documents but no positive gain. */
function rndcg(q: Query, o: O) {
  if (!q.judged.some((l) => isRelevant(l, o))) return 0;
  const { results, at } = gainWalk(q, o);
  let idealGain = at(0);
  let old = idealGain;
  let dcg = 0;
  let idcg = 0;
  let sum = 0;
  let points = 0;
  const point = () => {
    if (idcg > 0) {
      sum += dcg / idcg;
      points++;
    }
  };
  const addIdeal = (i: number) => {
    idealGain = at(i);
    if (old !== idealGain) {
      point();
      old = idealGain;
    }
  };
  let i = 0;
  for (; i < results.length && idealGain > 0; i++) {
    addIdeal(i);
    if (results[i] !== 0) dcg += results[i] / Math.log2(i + 2);
    if (idealGain > 0) idcg += idealGain / Math.log2(i + 2);
  }
  if (i < results.length) {
    for (; i < results.length; i++) if (results[i] !== 0) dcg += results[i] / Math.log2(i + 2);
    point();
  }
  for (; idealGain > 0; i++) {
    addIdeal(i);
    if (idealGain > 0) idcg += idealGain / Math.log2(i + 2);
  }
  return sum / points;
}

/** The largest gain of levels 0..L, L the highest judged label (L itself too when fractional). */
function largestLevelGain(q: Query, o: O) {
  const top = Math.max(-1, ...q.judged);
  if (top < 0) return 0;
  let best = gain(top, o);
  // Past a table's largest label gains are linear: the last level stands for them.
  const listedMax = typeof o.gain === "string" ? 0 : Math.max(0, ...o.gain.keys());
  const last = Math.floor(top);
  for (let l = 0; l <= Math.min(last, listedMax); l++) best = Math.max(best, gain(l, o));
  return Math.max(best, gain(last, o));
}

const open = (label: number | undefined) => label === undefined || label < 0;

type CwlModel = "sdcg" | "inst" | "insq" | "nerr8" | "nerr9" | "nerr10" | "nerr11" | "bpm" | "rbp_cwl";
const CWL_DEPTH = 1000;

/**
 * C/W/L (Moffat et al.) as cwl_eval for ir_measures, i = 1..1000 (CWL_DEPTH): g_i = (clip(max(label, 0),
 * min, max) − min) / (max − min) (RBP: max(label, 0) >= threshold), 0 unjudged; C_i the probability to go
 * on; V_i = Π_{j<i} C_j; value = Σ_i V_i g_i / Σ_i V_i.
 *   SDCG@k     C_i = log(i + 1) / log(i + 2) for i < k, else 0
 *   INST(T)    C_i = ((i + T + T_i − 1) / (i + T + T_i))², T_i = T − (g_1 + … + g_i)
 *   INSQ(T)    C_i = ((i + 2T − 1) / (i + 2T))²
 *   NERR8@k    C_i = 1 − g_i for i < k, else 0
 *   NERR9@k    C_i = (i / (i + 1)) (1 − g_i) for i < k, else 0
 *   NERR10(p)  C_i = p (1 − g_i)
 *   NERR11(T)  C_i = ((i + 2T − 1) / (i + 2T))² (1 − g_i)
 *   BPM(T)@k   C_i = 1 when g_1 + … + g_i < T and i < k, else 0
 *   RBP(p)     C_i = p
 */
const cwl =
  (model: CwlModel): Formula =>
  (q, k, o, params) => {
    const lo = params.min ?? 0;
    const hi = params.max ?? 1;
    const g = Array.from({ length: CWL_DEPTH }, (_, i) => {
      const label = q.ranking[i]?.label;
      if (label === undefined) return 0;
      const l = Math.max(label, 0);
      if (model === "rbp_cwl") return l >= o.relevanceThreshold ? 1 : 0;
      return (Math.min(Math.max(l, lo), hi) - lo) / (hi - lo);
    });
    const T = params.t;
    // i 1-based; sumTo = g_1 + ... + g_i.
    const continuation = (i: number, sumTo: number): number => {
      switch (model) {
        case "sdcg":
          return i < k ? Math.log(i + 1) / Math.log(i + 2) : 0;
        case "inst":
          return ((i + T + (T - sumTo) - 1) / (i + T + (T - sumTo))) ** 2;
        case "insq":
          return ((i + 2 * T - 1) / (i + 2 * T)) ** 2;
        case "nerr8":
          return i < k ? 1 - g[i - 1] : 0;
        case "nerr9":
          return i < k ? (i / (i + 1)) * (1 - g[i - 1]) : 0;
        case "nerr10":
          return params.p * (1 - g[i - 1]);
        case "nerr11":
          return ((i + 2 * T - 1) / (i + 2 * T)) ** 2 * (1 - g[i - 1]);
        case "bpm":
          return sumTo < T && i < k ? 1 : 0;
        case "rbp_cwl":
          return params.p;
      }
    };
    const v: number[] = [1];
    let sum = 0;
    for (let i = 1; i < CWL_DEPTH; i++) {
      sum += g[i - 1];
      v.push(v[i - 1] * continuation(i, sum));
    }
    return v.reduce((a, vi, i) => a + vi * g[i], 0) / v.reduce((a, b) => a + b, 0);
  };

/**
 * Compatibility (Clarke, Vtyurina & Smucker, TOIS 2021), as ir_measures' compat provider:
 *   RBO = Σ_{i=1..d} p^(i−1) |R_i ∩ I_i| / i  /  Σ_{i=1..d} p^(i−1),   d = max(|R|, |I|),
 * I the judged documents with label > 0 by label, then score (0 unretrieved), descending, then
 * (rankeval's) retrieved first, by rank. normalize: over I's RBO with itself when > 0.
 */
function compat(q: Query, p: number, normalize: boolean) {
  const retrieved = q.ranking
    .map((d, rank) => ({ label: d.label ?? 0, score: d.score, rank, id: `r${rank}` }))
    .filter((d) => d.label > 0);
  const left = q.judged.filter((l) => l > 0).sort((a, b) => b - a);
  for (const d of retrieved) left.splice(left.indexOf(d.label), 1);
  const ideal = [...retrieved, ...left.map((label, i) => ({ label, score: 0, rank: Infinity, id: `u${i}` }))]
    .sort((a, b) => b.label - a.label || b.score - a.score || a.rank - b.rank)
    .map((d) => d.id);
  const ranking = q.ranking.map((_, rank) => `r${rank}`);
  const rbo = (a: string[], b: string[]) => {
    const depth = Math.max(ranking.length, ideal.length);
    const sa = new Set<string>();
    const sb = new Set<string>();
    let score = 0;
    let norm = 0;
    for (let i = 0; i < depth; i++) {
      if (i < a.length) sa.add(a[i]);
      if (i < b.length) sb.add(b[i]);
      let overlap = 0;
      for (const x of sa) if (sb.has(x)) overlap++;
      score += (p ** i * overlap) / (i + 1);
      norm += p ** i;
    }
    return depth === 0 ? 0 : score / norm;
  };
  const score = rbo(ranking, ideal);
  const best = normalize ? rbo(ideal, ideal) : 0;
  return best > 0 ? score / best : score;
}

/** Unjudged as 0. */
const labels = (q: Query) => q.ranking.map((d) => d.label ?? 0);

export const GRADED_FORMULAS = {
  /** dcg@k = Σ_{i <= min(k, N)} gain(label_i) / log2(i + 1) (Järvelin & Kekäläinen 2002). */
  dcg,
  /** ndcg@k = dcg@k / the ideal ranking's dcg@k (of idealGains); 0 if that is 0. */
  ndcg: (q, k, o) => ratio(dcg(q, k, o), discountedSum(idealGains(q, o), k)),
  /**
   * err@k = Σ_{r <= k} (1/r) · p_r · Π_{i < r} (1 − p_i) (Chapelle et al. 2009), p = (2^min(label, max)
   * − 1) / 2^max for label > 0, else 0 (also without a judgment); `max` 4 by default, as gdeval.
   */
  err: (q, k, _o, { max }) => {
    let sum = 0;
    let notStoppedYet = 1;
    for (let r = 1; r <= ranksRead(q, k); r++) {
      const label = q.ranking[r - 1].label;
      const p = label !== undefined && label > 0 ? (2 ** Math.min(label, max) - 1) / 2 ** max : 0;
      sum += (1 / r) * p * notStoppedYet;
      notStoppedYet *= 1 - p;
    }
    return sum;
  },
  g: (q, _k, o) => trecG(q, o),
  ndcg_rel: (q, _k, o) => ndcgRel(q, o),
  rndcg: (q, _k, o) => rndcg(q, o),
  /**
   * rbp(p) = (1 − p) Σ_{i=1..N} g_i p^(i−1) (Moffat & Zobel 2008) as trec_eval: gains divided by the
   * largest level gain when it exceeds 1 (trec_eval's (g − min)/(max − min), min = gain(0) = 0).
   */
  rbp: (q, _k, o, { p }) => {
    const max = largestLevelGain(q, o);
    const scale = max > 1 ? max : 1;
    return (1 - p) * q.ranking.reduce((s, d, i) => s + (gain(d.label, o) / scale) * p ** i, 0);
  },
  /** rbp_resid(p) = p^N + (1 − p) Σ over ranks i of `open` documents of p^(i−1); 0 without one. */
  rbp_resid: (q, _k, _o, { p }) => {
    if (!q.ranking.some((d) => open(d.label))) return 0;
    return p ** q.ranking.length + (1 - p) * q.ranking.reduce((s, d, i) => (open(d.label) ? s + p ** i : s), 0);
  },
  sdcg: cwl("sdcg"),
  inst: cwl("inst"),
  insq: cwl("insq"),
  nerr8: cwl("nerr8"),
  nerr9: cwl("nerr9"),
  nerr10: cwl("nerr10"),
  nerr11: cwl("nerr11"),
  bpm: cwl("bpm"),
  rbp_cwl: cwl("rbp_cwl"),
  compat: (q, _k, _o, p) => compat(q, p.p, p.normalize !== 0),
  /** inversions = #{ranks i < j : label_i < label_j} (the MSLR notebook). */
  inversions: (q) => {
    const l = labels(q);
    let count = 0;
    for (let i = 0; i < l.length; i++) for (let j = i + 1; j < l.length; j++) if (l[i] < l[j]) count++;
    return count;
  },
  /**
   * Kendall's τ-b between scores and labels (Kendall 1945, Knight 1966): (n0 − n1 − n2 + n3 − 2D) /
   * √((n0 − n1)(n0 − n2)), 0 when the denominator is; n0 = N(N−1)/2 pairs, n1 tied in score, n2 tied
   * in label, n3 tied in both, D discordant.
   */
  kendall_tau: (q) => {
    const n = q.ranking.length;
    const s = q.ranking.map((d) => d.score);
    const l = labels(q);
    let n1 = 0;
    let n2 = 0;
    let n3 = 0;
    let D = 0;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const tieS = s[i] === s[j];
        const tieL = l[i] === l[j];
        if (tieS) n1++;
        if (tieL) n2++;
        if (tieS && tieL) n3++;
        if (!tieS && !tieL && s[i] < s[j] !== l[i] < l[j]) D++;
      }
    }
    const n0 = (n * (n - 1)) / 2;
    const denominator = Math.sqrt((n0 - n1) * (n0 - n2));
    return denominator === 0 ? 0 : (n0 - n1 - n2 + n3 - 2 * D) / denominator;
  },
  /** mse = (1/N) Σ (score − label)²; 0 if N = 0. */
  mse: (q) => {
    const l = labels(q);
    return ratio(
      q.ranking.reduce((s, d, i) => s + (d.score - l[i]) ** 2, 0),
      q.ranking.length,
    );
  },
} satisfies Record<string, Formula>;
