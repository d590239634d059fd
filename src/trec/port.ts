/**
 * trec_eval 10's per-query computations, ported line by line (form_res_rels.c, gain_init.c, m_*.c),
 * keyed by src/trec/measures.ts's rows: for what the kernel cannot match (-l below 0, some gain tables,
 * rbp with gains, unordered 11pt_avg points, cutoffs past 2^31, yaap, dcg, ideal_dcg), and to check
 * it. Arithmetic in the C order, so the doubles are the same. Browser-safe.
 */
import { RankevalError } from "../errors/errors.js";
import type { Batch } from "../kernel/batch.js";
import { log, log2 } from "../c/math.js";
import { doubleToInt, glibcQsort } from "../c/qsort.js";
import { atol } from "../c/strings.js";
import { rankedRows } from "./relstring.js";

/** trec_eval.h EPI (-l, -M, -J, -N). */
export interface Epi {
  readonly relevanceLevel: number;
  readonly maxDocs: number;
  readonly judgedOnly: boolean;
  readonly numDocsInColl: number;
}

/** trec_eval.h: not in the qrels; judged with a negative label. */
export const RELVALUE_NONPOOL = -1;
export const RELVALUE_UNJUDGED = -2;

/** results_rel_list and its counts: what most m_*.c read. */
export interface RelList {
  readonly numRet: number;
  readonly numRel: number;
  readonly numRelRet: number;
  readonly rel: Float64Array;
}

/** form_res_rels.c RES_RELS. */
export interface ResRels extends RelList {
  readonly numNonpool: number;
  readonly numUnjudged: number;
  /** rel_levels: judged documents per label 0..max. */
  readonly relLevels: readonly number[];
  /** 1 + the highest judged label; 0 if none >= 0. */
  readonly numRelLevels: number;
}

/** A TrecMeasure's parameters. */
export interface Params {
  readonly cutoffs?: readonly number[];
  readonly values?: readonly number[];
  readonly pairs?: readonly (readonly [string, number])[];
}

/** A C port: per-query values, one per printed line. */
export type Port = (rr: ResRels, m: Params, epi: Pick<Epi, "relevanceLevel" | "numDocsInColl">) => number[];

/** rel_levels' length limit (trec_eval would need gigabytes too). */
const MAX_LEVEL = 10_000_000;

/** te_form_res_rels for query q: ranked (`ties`), cut at -M, then -J. */
export function formResRels(batch: Batch, q: number, epi: Epi): ResRels {
  const n = batch.offsets[q + 1] - batch.offsets[q];
  const rows = rankedRows(batch, q, n);
  const numResults = Math.min(n, epi.maxDocs);
  const jo = batch.judgedOffsets ?? batch.offsets;
  const judged = batch.judged ?? batch.labels;
  // Labels are atol's integers (src/pipeline/trec-labels.ts).
  let maxRel = -1;
  for (let j = jo[q]; j < jo[q + 1]; j++) if (judged[j] > maxRel) maxRel = judged[j];
  if (maxRel > MAX_LEVEL)
    throw new RankevalError(
      "too-large",
      `a label of ${maxRel}: trec_eval's per-level counts go up to ${MAX_LEVEL} here`,
    );
  const relLevels = new Array<number>(Math.max(0, maxRel + 1)).fill(0);
  for (let j = jo[q]; j < jo[q + 1]; j++) if (judged[j] >= 0) relLevels[judged[j] + 0]++;
  const relOf = (label: number) => (Number.isNaN(label) ? RELVALUE_NONPOOL : label < 0 ? RELVALUE_UNJUDGED : label + 0);
  const level = epi.relevanceLevel;
  const rel: number[] = [];
  let numRelRet = 0;
  let numNonpool = 0;
  let numUnjudged = 0;
  for (let i = 0; i < numResults; i++) {
    const r = relOf(batch.labels[rows[i]]);
    if (epi.judgedOnly) {
      if (r < 0) continue;
      if (r >= level) numRelRet++;
    } else if (r === RELVALUE_NONPOOL) numNonpool++;
    else if (r === RELVALUE_UNJUDGED) numUnjudged++;
    else if (r >= level) numRelRet++;
    rel.push(r);
  }
  let numRel = 0;
  let numRelLevels = 0;
  for (let i = 0; i < relLevels.length; i++) {
    if (relLevels[i]) {
      numRelLevels = i + 1;
      if (i >= level) numRel += relLevels[i];
    }
  }
  const numRet = rel.length;
  return { numRet, numRel, numRelRet, numNonpool, numUnjudged, rel: Float64Array.from(rel), relLevels, numRelLevels };
}

/** C's lround; LONG_MIN (x86-64) out of range or NaN. */
function lround(x: number): number {
  if (!(Math.abs(x) < 2 ** 63)) return -(2 ** 63);
  const a = Math.abs(x);
  const f = Math.floor(a);
  const r = a - f >= 0.5 ? f + 1 : f;
  return x < 0 ? -r : r;
}

/** C's (long); LONG_MIN (x86-64) out of range or NaN. */
const toLong = (x: number) => (Math.abs(x) < 2 ** 63 ? Math.trunc(x) : -(2 ** 63));

/** gain_init.c valid_int. */
export const validInt = (s: string) => /^[+-]?\d+$/.test(s);

interface RelGain {
  level: number;
  gain: number;
  count: number;
}

/** gain_init.c setup_gains, sorted by comp_rel_gain as glibc sorts. */
function setupGains(pairs: readonly (readonly [string, number])[] = [], rr: ResRels): RelGain[] {
  const gains: RelGain[] = [];
  for (const [name, value] of pairs)
    if (validInt(name)) gains.push({ level: Number(atol(name)), gain: value, count: 0 });
  for (let i = 0; i < rr.numRelLevels; i++) {
    const j = gains.findIndex((g) => g.level === i);
    if (j >= 0) gains[j].count = rr.relLevels[i];
    else gains.push({ level: i, gain: i, count: rr.relLevels[i] });
  }
  return glibcQsort(gains, (a, b) => doubleToInt(a.gain - b.gain));
}

/** gain_init.c get_gain: the first match in sorted order, else 0. */
function getGain(level: number, gains: readonly RelGain[]): number {
  for (const g of gains) if (g.level === level) return g.gain;
  return 0;
}

/**
 * m_ndcg.c, m_G.c, m_ndcg_rel.c, m_Rndcg.c's three loops: results beside the ideal ranking (to its
 * first gain <= 0), results left, ideal left. `at` gets rank i, the gain (null past the results) and
 * the stepped ideal gain; `resultsLeft` runs after the second loop, if it ran.
 */
function walkIdeal(
  rr: ResRels,
  gains: readonly RelGain[],
  at: (i: number, g: number | null, ideal: number) => void,
  resultsLeft?: () => void,
): void {
  let cur = gains.length - 1;
  let ideal = cur >= 0 ? gains[cur].gain : 0;
  let atLevel = 0;
  const step = () => {
    atLevel++;
    while (cur >= 0 && atLevel > gains[cur].count) {
      atLevel = 1;
      cur--;
      ideal = cur >= 0 ? gains[cur].gain : 0;
    }
    return ideal;
  };
  let i = 0;
  for (; i < rr.numRet && ideal > 0; i++) {
    const g = getGain(rr.rel[i], gains);
    at(i, g, step());
  }
  if (i < rr.numRet) {
    for (; i < rr.numRet; i++) at(i, getGain(rr.rel[i], gains), ideal);
    resultsLeft?.();
  }
  for (; ideal > 0; i++) at(i, null, step());
}

/** m_ndcg.c (ndcg, dcg, ideal_dcg). */
function ndcgParts(rr: ResRels, m: Params): { dcg: number; ideal: number } {
  let dcg = 0;
  let ideal = 0;
  walkIdeal(rr, setupGains(m.pairs, rr), (i, g, ig) => {
    if (g !== null && g !== 0) dcg += g / log2(i + 2);
    if (ig > 0) ideal += ig / log2(i + 2);
  });
  return { dcg, ideal };
}

/** m_G.c. */
const G: Port = (rr, m) => {
  let resultsG = 0;
  let sumResults = 0;
  let sumIdeal = 0;
  let sumCost = 0;
  walkIdeal(rr, setupGains(m.pairs, rr), (_i, g, ig) => {
    if (g !== null) sumResults += g;
    if (ig > 0) sumIdeal += ig;
    if (g === null) return;
    sumCost += ig >= 1 ? ig : 1; // minCost 1
    if (g !== 0) resultsG += g / log2(2 + sumCost - sumResults);
  });
  return [sumIdeal > 0 ? resultsG / sumIdeal : 0];
};

/** m_ndcg_rel.c. */
const ndcgRel: Port = (rr, m) => {
  let dcg = 0;
  let ideal = 0;
  let sum = 0;
  let numRelRet = 0;
  let numRel = 0;
  walkIdeal(rr, setupGains(m.pairs, rr), (i, g, ig) => {
    if (g !== null && g !== 0) dcg += g / log2(i + 2);
    if (ig > 0) {
      numRel++;
      ideal += ig / log2(i + 2);
    }
    if (g !== null && g > 0) {
      sum += dcg / ideal;
      numRelRet++;
    }
  });
  sum += ((numRel - numRelRet) * dcg) / ideal;
  return [sum > 0 ? sum / numRel : 0];
};

/** m_Rndcg.c: the mean of ndcg at each rank where the ideal gain changes. */
const Rndcg: Port = (rr, m) => {
  const gains = setupGains(m.pairs, rr);
  if (rr.numRel === 0) return [0];
  let old = gains.length ? gains[gains.length - 1].gain : 0;
  let [dcg, ideal, sum, changed] = [0, 0, 0, 0];
  const close = () => {
    if (ideal > 0) {
      sum += dcg / ideal;
      changed++;
    }
  };
  walkIdeal(
    rr,
    gains,
    (i, g, ig) => {
      if (old !== ig) {
        close();
        old = ig;
      }
      if (g !== null && g !== 0) dcg += g / log2(i + 2);
      if (ig > 0) ideal += ig / log2(i + 2);
    },
    close,
  );
  return [sum / changed];
};

/** rbp's p: the last pair named "p" (m_rbp.c, m_rbp_resid.c), else 0.9. */
function persistence(pairs: readonly (readonly [string, number])[] = []): number {
  let p = 0.9;
  for (const [name, value] of pairs) if (name === "p") p = value;
  return p;
}

/**
 * m_rbp.c. Its min and max are read uninitialised: 0 in trec_eval built by its Makefile (-O0). Gains
 * are rescaled to [0, 1] when one lies outside.
 */
const rbp: Port = (rr, m) => {
  const p = persistence(m.pairs);
  const gains = setupGains(m.pairs, rr);
  let min = 0;
  let max = 0;
  for (const g of gains) {
    if (g.gain < min) min = g.gain;
    if (g.gain > max) max = g.gain;
  }
  if (min < 0 || max > 1) for (const g of gains) g.gain = (g.gain - min) / (max - min);
  let sum = 0;
  let weight = 1;
  for (let i = 0; i < rr.numRet; i++) {
    const g = getGain(rr.rel[i], gains);
    if (g !== 0) sum += g * weight;
    weight = weight * p;
  }
  return [(1 - p) * sum];
};

/** m_rbp_resid.c. */
const rbpResid: Port = (rr, m) => {
  const p = persistence(m.pairs);
  let unjudged = 0;
  let sum = 0;
  let weight = 1;
  for (let i = 0; i < rr.numRet; i++) {
    if (rr.rel[i] < 0) {
      unjudged++;
      sum += weight;
    }
    weight = weight * p;
  }
  return [unjudged ? weight + (1 - p) * sum : 0];
};

/** m_P.c, m_map_cut.c, ...'s cutoff loop: `count` each rank below the last cutoff, `value` at each cutoff. */
function cutoffLoop(rr: RelList, cutoffs: readonly number[], count: (i: number) => void, value: (c: number) => number) {
  const v = new Array<number>(cutoffs.length).fill(0);
  let c = 0;
  for (let i = 0; i < rr.numRet; i++) {
    if (i === cutoffs[c]) {
      v[c] = value(c);
      if (++c === cutoffs.length) break;
    }
    count(i);
  }
  for (; c < cutoffs.length; c++) v[c] = value(c);
  return v;
}

/** From how many ranked pass `counts`: m_P.c, m_recall.c, m_success.c, ... */
const counted =
  (value: (n: number, k: number, rr: RelList) => number, counts = (r: number, level: number) => r >= level) =>
  (rr: RelList, m: Params, epi: { relevanceLevel: number }) => {
    let n = 0;
    const cut = m.cutoffs!;
    return cutoffLoop(
      rr,
      cut,
      (i) => void (counts(rr.rel[i], epi.relevanceLevel) && n++),
      (c) => value(n, cut[c], rr),
    );
  };

export const P = counted((n, k) => n / k);

/** m_map_cut.c. */
const mapCut: Port = (rr, m, { relevanceLevel: level }) => {
  let relSoFar = 0;
  let sum = 0;
  const count = (i: number) => {
    if (rr.rel[i] >= level) sum += ++relSoFar / (i + 1);
  };
  return cutoffLoop(rr, m.cutoffs!, count, () => (rr.numRel ? sum / rr.numRel : 0));
};

/** m_ndcg_cut.c: gain = label. */
const ndcgCut: Port = (rr, m) => {
  const cutoffs = m.cutoffs!;
  let sum = 0;
  const v = cutoffLoop(
    rr,
    cutoffs,
    (i) => {
      if (rr.rel[i] > 0) sum += rr.rel[i] / log2(i + 2);
    },
    () => sum,
  );
  let c = 0;
  let cur = rr.numRelLevels - 1;
  let count = 0;
  let ideal = 0;
  for (let i = 0; ; i++) {
    count++;
    while (cur > 0 && count > rr.relLevels[cur]) {
      cur--;
      count = 1;
    }
    // trec_eval breaks at level 0, but with none (all judgments negative) walks on at -1: we stop (deliberate).
    if (cur <= 0) break;
    if (i === cutoffs[c]) {
      if (ideal > 0) v[c] /= ideal;
      if (++c === cutoffs.length) break;
    }
    ideal += cur / log2(i + 2);
  }
  for (; c < cutoffs.length; c++) if (ideal > 0) v[c] /= ideal;
  return v;
};

/** m_iprec_at_recall.c, m_11pt_avg.c, at points in the given order. */
function interpolated(rr: ResRels, points: readonly number[], level: number, record: (c: number, v: number) => void) {
  const cutoffs = points.map((x) => lround(x * rr.numRel));
  let cur = cutoffs.length - 1;
  while (cur >= 0 && cutoffs[cur] > rr.numRelRet) cur--;
  let precis = rr.numRelRet / rr.numRet;
  let best = precis;
  let relSoFar = rr.numRelRet;
  for (let i = rr.numRet; i > 0 && relSoFar > 0; i--) {
    precis = relSoFar / i;
    if (best < precis) best = precis;
    if (rr.rel[i - 1] >= level) {
      while (cur >= 0 && relSoFar === cutoffs[cur]) record(cur--, best);
      relSoFar--;
    }
  }
  while (cur >= 0) record(cur--, best);
}

/** m_Rprec_mult.c. */
export function RprecMult(rr: RelList, m: Params, { relevanceLevel: level }: { relevanceLevel: number }): number[] {
  const points = m.cutoffs!;
  const v = new Array<number>(points.length).fill(0);
  const cutoffs = points.map((x) => toLong(x * rr.numRel + 0.9));
  let precis = rr.numRelRet / rr.numRet;
  let cur = cutoffs.length - 1;
  while (cur >= 0 && cutoffs[cur] > rr.numRet) {
    v[cur] = rr.numRelRet / cutoffs[cur];
    cur--;
  }
  let relSoFar = rr.numRelRet;
  for (let i = rr.numRet; i > 0 && relSoFar > 0; i--) {
    precis = relSoFar / i;
    while (cur >= 0 && i === cutoffs[cur]) v[cur--] = precis;
    if (rr.rel[i - 1] >= level) relSoFar--;
  }
  return v;
}

/** m_map.c's sum of precisions at relevant ranks, and how many. */
function precisionSum(rr: RelList, level: number): [number, number] {
  let relSoFar = 0;
  let sum = 0;
  for (let i = 0; i < rr.numRet; i++) if (rr.rel[i] >= level) sum += ++relSoFar / (i + 1);
  return [sum, relSoFar];
}

/** m_map.c; also gm_map's (the report takes the log). */
export function map(rr: RelList, _m: Params, epi: { relevanceLevel: number }): number[] {
  const [sum, relSoFar] = precisionSum(rr, epi.relevanceLevel);
  return [relSoFar ? sum / rr.numRel : 0];
}

/** m_bpref.c (gm_bpref's line too). */
const bpref: Port = (rr, _m, { relevanceLevel: level }) => {
  let numNonrel = 0;
  for (let j = 0; j < level && j < rr.relLevels.length; j++) numNonrel += rr.relLevels[j];
  let nonrel = 0;
  let bpref = 0;
  for (let j = 0; j < rr.numRet; j++) {
    const r = rr.rel[j];
    if (r === RELVALUE_NONPOOL || r === RELVALUE_UNJUDGED) continue;
    if (r >= 0 && r < level) nonrel++;
    else bpref += nonrel > 0 ? 1 - Math.min(nonrel, rr.numRel) / Math.min(numNonrel, rr.numRel) : 1;
  }
  if (rr.numRel) bpref /= rr.numRel;
  return [bpref];
};

/** trec_eval.h INFAP_EPSILON. */
const INFAP_EPSILON = 0.00001;

/** m_infAP.c. */
const infAP: Port = (rr, _m, { relevanceLevel: level }) => {
  let nonrel = 0;
  let relSoFar = 0;
  let unjudged = 0;
  let ap = 0;
  for (let j = 0; j < rr.numRet; j++) {
    const r = rr.rel[j];
    if (r === RELVALUE_NONPOOL) continue;
    if (r === RELVALUE_UNJUDGED) {
      unjudged++;
      continue;
    }
    if (r >= 0 && r < level) nonrel++;
    else {
      relSoFar++;
      if (j === 0) ap += 1;
      else
        ap +=
          1 / (j + 1) +
          (j / (j + 1)) *
            ((relSoFar - 1 + nonrel + unjudged) / j) *
            ((relSoFar - 1 + INFAP_EPSILON) / (relSoFar - 1 + nonrel + 2 * INFAP_EPSILON));
    }
  }
  if (rr.numRel) ap /= rr.numRel;
  return [ap];
};

/** The C ports by trec_eval measure. */
export const PORTS = {
  num_ret: (rr) => [rr.numRet],
  num_rel: (rr) => [rr.numRel],
  num_rel_ret: (rr) => [rr.numRelRet],
  map,
  gm_map: map,
  /** m_Rprec.c. */
  Rprec: (rr, _m, { relevanceLevel: level }) => {
    const look = Math.min(rr.numRet, rr.numRel);
    let relSoFar = 0;
    for (let i = 0; i < look; i++) if (rr.rel[i] >= level) relSoFar++;
    return [look ? relSoFar / rr.numRel : 0];
  },
  bpref,
  /** m_recip_rank.c. */
  recip_rank: (rr, _m, { relevanceLevel: level }) => {
    let i = 0;
    while (i < rr.numRet && !(rr.rel[i] >= level)) i++;
    return [i < rr.numRet ? 1 / (i + 1) : 0];
  },
  iprec_at_recall: (rr, m, epi) => {
    const v = new Array<number>(m.cutoffs!.length).fill(0);
    interpolated(rr, m.cutoffs!, epi.relevanceLevel, (c, value) => (v[c] = value));
    return v;
  },
  P,
  recall: counted((n, _k, rr) => (rr.numRel ? n / rr.numRel : 0)),
  infAP,
  gm_bpref: bpref,
  Rprec_mult: RprecMult,
  /** m_utility.c. */
  utility: (rr, m, epi) => {
    const [a, b, c, d] = m.values!;
    return [
      a * rr.numRelRet +
        b * (rr.numRet - rr.numRelRet) +
        c * (rr.numRel - rr.numRelRet) +
        d * (epi.numDocsInColl + rr.numRelRet - rr.numRet - rr.numRel),
    ];
  },
  "11pt_avg": (rr, m, epi) => {
    let sum = 0;
    interpolated(rr, m.values!, epi.relevanceLevel, (_c, value) => (sum += value));
    return [sum / m.values!.length];
  },
  /** m_binG.c. */
  binG: (rr, _m, { relevanceLevel: level }) => {
    let relSoFar = 0;
    let sum = 0;
    for (let i = 0; i < rr.numRet; i++) if (rr.rel[i] >= level) sum += 1 / log2(3 + i - ++relSoFar);
    return [relSoFar ? sum / rr.numRel : 0];
  },
  G,
  dcg: (rr, m) => [ndcgParts(rr, m).dcg],
  ideal_dcg: (rr, m) => [ndcgParts(rr, m).ideal],
  ndcg: (rr, m) => {
    const { dcg, ideal } = ndcgParts(rr, m);
    return [ideal > 0 ? dcg / ideal : 0];
  },
  ndcg_rel: ndcgRel,
  Rndcg,
  ndcg_cut: ndcgCut,
  map_cut: mapCut,
  relative_P: counted((n, k, rr) => (rr.numRel ? n / (k > rr.numRel ? rr.numRel : k) : 0)),
  success: counted((n) => (n ? 1 : 0)),
  // m_set_*.c.
  set_P: (rr) => [rr.numRet ? rr.numRelRet / rr.numRet : 0],
  set_relative_P: (rr) => [rr.numRet && rr.numRel ? rr.numRelRet / Math.min(rr.numRet, rr.numRel) : 0],
  set_recall: (rr) => [rr.numRel ? rr.numRelRet / rr.numRel : 0],
  set_map: (rr) => [rr.numRet && rr.numRel ? (rr.numRelRet * rr.numRelRet) / (rr.numRet * rr.numRel) : 0],
  set_F: (rr, m) => {
    if (!rr.numRelRet) return [0];
    const p = rr.numRelRet / rr.numRet;
    const r = rr.numRelRet / rr.numRel;
    const x = m.values![0];
    return [((x + 1) * p * r) / (x * p + r)];
  },
  num_nonrel_judged_ret: (rr) => [rr.numRet - rr.numNonpool - rr.numUnjudged - rr.numRelRet],
  /** m_yaap.c. */
  yaap: (rr, _m, epi) => {
    const [sum] = precisionSum(rr, epi.relevanceLevel);
    return [log((1 + sum) / (1 + rr.numRel - sum))];
  },
  rbp,
  rbp_resid: rbpResid,
  unj: counted(
    (n, k) => n / k,
    (r) => r === RELVALUE_NONPOOL || r === RELVALUE_UNJUDGED,
  ),
} satisfies Record<string, Port>;
