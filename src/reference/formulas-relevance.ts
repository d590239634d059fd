/**
 * Binary relevance (README "Measures"; TREC_EVAL_SEMANTICS.md (a)). rel(k): relevant documents in ranks
 * 1..min(k, N) (no cutoff: all); R: relevant judgments, retrieved or not; NR: judged non-relevant
 * (0 <= label < threshold); 0/0 = 0.
 */
import type { ResolvedOptions } from "../measures/options.js";
import {
  isJudgedNonRelevant as nonRel,
  isRelevant,
  numRelevant,
  ranksRead,
  ratio,
  relevantInTop,
  type Formula,
  type Query,
} from "./ranking.js";

type O = ResolvedOptions;

/** precision@k = rel(k) / k (no cutoff: rel(N) / N). */
const precision = (q: Query, k: number, o: O) => ratio(relevantInTop(q, k, o), k === 0 ? q.ranking.length : k);
const recall = (q: Query, k: number, o: O) => ratio(relevantInTop(q, k, o), numRelevant(q, o));

/** S(k): the sum over relevant documents at ranks i <= k of rel(i) / i. */
function precisionSum(q: Query, k: number, o: O) {
  let sum = 0;
  let relSoFar = 0;
  for (let i = 1; i <= ranksRead(q, k); i++) if (isRelevant(q.ranking[i - 1].label, o)) sum += ++relSoFar / i;
  return sum;
}

/** a = rel(N). */
const relRet = (q: Query, o: O) => relevantInTop(q, 0, o);
const setP = (q: Query, o: O) => ratio(relRet(q, o), q.ranking.length);
const setRecall = (q: Query, o: O) => ratio(relRet(q, o), numRelevant(q, o));
const count = <T>(xs: readonly T[], f: (x: T) => boolean) => xs.filter(f).length;

/**
 * iprec_at_recall(recall=x): c = lround(x·R) (trec_eval 10); 0 if c > rel(N), else max{P(j) : j >= rank
 * of the max(c, 1)-th relevant document}.
 */
function iprecAtRecall(q: Query, x: number, o: O) {
  const n = q.ranking.length;
  const rr = relRet(q, o);
  const c = Math.round(x * numRelevant(q, o)); // x·R >= 0: as lround
  if (c > rr || n === 0 || rr === 0) return 0;
  let seen = 0;
  let from = 0;
  while (from < n && !(isRelevant(q.ranking[from].label, o) && ++seen === Math.max(c, 1))) from++;
  let best = 0;
  for (let j = from + 1; j <= n; j++) best = Math.max(best, relevantInTop(q, j, o) / j);
  return best;
}

const EPS = 1e-5;

export const RELEVANCE_FORMULAS = {
  /** N (after depth). */
  num_ret: (q) => q.ranking.length,
  num_rel: (q, _k, o) => numRelevant(q, o),
  num_rel_ret: (q, _k, o) => relRet(q, o),
  numq: () => 1,
  precision,
  /** recall@k = rel(k) / R. */
  recall,
  /** f1@k = 2·P·Rc / (P + Rc), P = precision@k, Rc = recall@k (van Rijsbergen 1979). */
  f1: (q, k, o) => {
    const p = precision(q, k, o);
    const rc = recall(q, k, o);
    return ratio(2 * p * rc, p + rc);
  },
  /**
   * map@k = S(k) / R. Others divide S(k) by: LightGBM (map_metric.hpp CalMapAtK) min(R, k, N); XGBoost
   * (rank_metric.cc EvalMAP) rel(N); torchmetrics, TF-Ranking rel(k); ptranking (torch_ap_at_ks) the ideal
   * top k labels' sum (labels > 0); ptranking's tutorial (tor_ap_at_ks) k (map_over_k; no cutoff: N).
   */
  map: (q, k, o) => ratio(precisionSum(q, k, o), numRelevant(q, o)),
  map_lightgbm: (q, k, o) => ratio(precisionSum(q, k, o), Math.min(numRelevant(q, o), ranksRead(q, k))),
  map_xgboost: (q, k, o) => ratio(precisionSum(q, k, o), relRet(q, o)),
  map_torchmetrics: (q, k, o) => ratio(precisionSum(q, k, o), relevantInTop(q, k, o)),
  map_ptranking: (q, k, o) => {
    const ideal = q.judged.filter((l) => l > 0).sort((a, b) => b - a);
    return ratio(
      precisionSum(q, k, o),
      (k === 0 ? ideal : ideal.slice(0, k)).reduce((a, b) => a + b, 0),
    );
  },
  map_over_k: (q, k, o) => ratio(precisionSum(q, k, o), k === 0 ? q.ranking.length : k),
  /** mrr@k = 1/i for the rank i <= k of the first relevant document, else 0 (Voorhees 1999). */
  mrr: (q, k, o) => {
    for (let i = 1; i <= ranksRead(q, k); i++) if (isRelevant(q.ranking[i - 1].label, o)) return 1 / i;
    return 0;
  },
  /** r-precision = rel(R) / R. */
  "r-precision": (q, _k, o) => {
    const r = numRelevant(q, o);
    return ratio(relevantInTop(q, r, o), r);
  },
  /**
   * bpref = (1/R) Σ_{relevant ranked d} (1 − min(n_d, R) / min(NR, R)) (1 when n_d = 0), n_d the judged
   * non-relevant above d (Buckley & Voorhees 2004).
   */
  bpref: (q, _k, o) => {
    const R = numRelevant(q, o);
    const NR = count(q.judged, (l) => nonRel(l, o));
    let sum = 0;
    let above = 0;
    for (const d of q.ranking) {
      if (isRelevant(d.label, o)) sum += above === 0 ? 1 : 1 - Math.min(above, R) / Math.min(NR, R);
      else if (nonRel(d.label, o)) above++;
    }
    return ratio(sum, R);
  },
  hit_rate: (q, k, o) => (relevantInTop(q, k, o) > 0 ? 1 : 0),
  /** hits@k = rel(k) (ranx/metrics/hits.py _hits). */
  hits: (q, k, o) => relevantInTop(q, k, o),
  /** judged@k = (judged in ranks 1..n, any label) / n, n = min(k, N) (ir_measures' judged_provider.py). */
  judged: (q, k) =>
    ratio(
      count(q.ranking.slice(0, ranksRead(q, k)), (d) => d.label !== undefined),
      ranksRead(q, k),
    ),
  /** fall_out@k = NR in ranks 1..k / NR; 1 if NR = 0 (torchmetrics' RetrievalFallOut, empty_target_action "pos"). */
  fall_out: (q, k, o) => {
    const all = count(q.judged, (l) => nonRel(l, o));
    return all === 0 ? 1 : count(q.ranking.slice(0, ranksRead(q, k)), (d) => nonRel(d.label, o)) / all;
  },
  /** ir_measures' Accuracy: the share of (relevant, non-relevant) pairs in the top k ordered; unjudged: 0; NaN without a pair. */
  accuracy: (q, k, o) => {
    const rel = q.ranking.slice(0, ranksRead(q, k)).map((d) => (d.label ?? 0) >= o.relevanceThreshold);
    let pairs = 0;
    let ordered = 0;
    for (let i = 0; i < rel.length; i++) {
      for (let j = 0; j < rel.length; j++) {
        if (!rel[i] || rel[j]) continue;
        pairs++;
        if (i < j) ordered++;
      }
    }
    return pairs === 0 ? NaN : ordered / pairs;
  },
  /** relative_p@k = rel(k) / min(k, R) (trec_eval relative_P_k). */
  relative_p: (q, k, o) => ratio(relevantInTop(q, k, o), Math.min(k, numRelevant(q, o))),
  /** unj@k = (ranks 1..min(k, N) unjudged or with a negative label) / k (trec_eval unj_k). */
  unj: (q, k) => {
    const open = count(q.ranking.slice(0, ranksRead(q, k)), (d) => d.label === undefined || d.label < 0);
    return ratio(open, k === 0 ? q.ranking.length : k);
  },
  // trec_eval's set measures: the ranking as a set of N documents, a = rel(N) of them relevant.
  /** a / N */
  set_p: (q, _k, o) => setP(q, o),
  /** a / min(N, R) */
  set_relative_p: (q, _k, o) => ratio(relRet(q, o), Math.min(q.ranking.length, numRelevant(q, o))),
  /** a / R */
  set_recall: (q, _k, o) => setRecall(q, o),
  /** a² / (N·R) */
  set_map: (q, _k, o) => ratio(relRet(q, o) ** 2, q.ranking.length * numRelevant(q, o)),
  /** (beta + 1)·P·Rc / (beta·P + Rc), P = set_p, Rc = set_recall; 0 when a = 0 (van Rijsbergen 1979). */
  set_f: (q, _k, o, { beta }) => {
    if (relRet(q, o) === 0) return 0;
    const p = setP(q, o);
    const rc = setRecall(q, o);
    return ((beta + 1) * p * rc) / (beta * p + rc);
  },
  /** Ranked documents judged non-relevant. */
  num_nonrel_judged_ret: (q, _k, o) => count(q.ranking, (d) => nonRel(d.label, o)),
  iprec_at_recall: (q, _k, o, p) => iprecAtRecall(q, p.recall, o),
  /** The mean of iprec_at_recall at x = 0.0, 0.1, ..., 1.0. */
  "11pt_avg": (q, _k, o) => {
    let sum = 0;
    for (let i = 0; i <= 10; i++) sum += iprecAtRecall(q, i / 10, o);
    return sum / 11;
  },
  /** rprec_mult(x=x): precision at c = trunc(x·R + 0.9) ranks, ranks past N non-relevant; 0 if c = 0. */
  rprec_mult: (q, _k, o, p) => {
    const c = Math.trunc(p.x * numRelevant(q, o) + 0.9);
    return c <= 0 ? 0 : relevantInTop(q, c, o) / c;
  },
  /**
   * trec_eval's infAP (Yilmaz & Aslam): Σ / R over relevant documents at position j (from 0), rel, nonrel,
   * unj (negative label) above: 1 if j = 0, else 1/(j+1) + (j/(j+1))·((rel+nonrel+unj)/j)·((rel+ε)/(rel+nonrel+2ε)).
   */
  infap: (q, _k, o) => {
    let sum = 0;
    q.ranking.forEach((d, j) => {
      if (!isRelevant(d.label, o)) return;
      const above = q.ranking.slice(0, j);
      const rel = count(above, (a) => isRelevant(a.label, o));
      const unj = count(above, (a) => a.label !== undefined && a.label < 0);
      const nonrel = count(above, (a) => nonRel(a.label, o));
      sum +=
        j === 0
          ? 1
          : 1 / (j + 1) + (j / (j + 1)) * ((rel + nonrel + unj) / j) * ((rel + EPS) / (rel + nonrel + 2 * EPS));
    });
    return ratio(sum, numRelevant(q, o));
  },
  /** trec_eval's binG: Σ over relevant ranked documents of 1/log2(2 + m), m = the non-relevant above it; / R. */
  bing: (q, _k, o) => {
    let sum = 0;
    let notRelevantAbove = 0;
    for (const d of q.ranking) {
      if (isRelevant(d.label, o)) sum += 1 / Math.log2(2 + notRelevantAbove);
      else notRelevantAbove++;
    }
    return ratio(sum, numRelevant(q, o));
  },
  /** utility = a·rel(N) + b·(N − rel(N)) + c·(R − rel(N)) + d·(n + rel(N) − N − R), n: trec_eval -N (0). */
  utility: (q, _k, o, w) => {
    const rr = relRet(q, o);
    const ret = q.ranking.length;
    const rel = numRelevant(q, o);
    return w.a * rr + w.b * (ret - rr) + w.c * (rel - rr) + w.d * (w.n + rr - ret - rel);
  },
} satisfies Record<string, Formula>;
