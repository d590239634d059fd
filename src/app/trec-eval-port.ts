/**
 * trec_eval 10's per-query computations, ported line by line from form_res_rels.c, gain_init.c and
 * m_*.c, for the lines the kernel does not compute as trec_eval does: every line under -l below 0
 * (unjudged documents relevant at their ranks but not in num_rel), gain tables the kernel cannot take,
 * rbp with gains, 11pt_avg at unordered points, cutoffs past 2^31, yaap, dcg and ideal_dcg. The kernel
 * is checked against it. Arithmetic in the C source's order, so the doubles are the same. Browser-safe.
 */
import { RankevalError } from "../errors/errors.js";
import { withTies, type Batch } from "../kernel/batch.js";
import { log as cmathLog, log2 as cmathLog2 } from "../c/math.js";
import { doubleToInt, glibcQsort } from "../c/qsort.js";
import { atol } from "../c/strings.js";
import type { TrecMeasure } from "../measures/trec-eval-table.js";
import { rankedRows } from "./relstring.js";
import { RELVALUE_NONPOOL, RELVALUE_UNJUDGED } from "../trec/jg.js";

/** trec_eval.h EPI: the evaluation parameters the measures read (-l, -M, -J, -N). */
export interface Epi {
  readonly relevanceLevel: number;
  readonly maxDocs: number;
  readonly judgedOnly: boolean;
  readonly numDocsInColl: number;
}

/** form_res_rels.c RES_RELS: one query's ranking as relevance values, and its counts. */
export interface ResRels {
  readonly numRet: number;
  readonly numRel: number;
  readonly numRelRet: number;
  readonly numNonpool: number;
  readonly numUnjudged: number;
  /** results_rel_list. */
  readonly rel: Float64Array;
  /** rel_levels: judged documents per label 0..max. */
  readonly relLevels: readonly number[];
  /** 1 + the highest label with a judged document; 0 when none is >= 0. */
  readonly numRelLevels: number;
}

/** Labels trec_eval keeps a count for each of (rel_levels); past this it would need gigabytes too. */
const MAX_LEVEL = 10_000_000;

/** te_form_res_rels for query q of the batch: ranked (the batch's `ties`), cut at -M, then -J. */
function formResRels(batch: Batch, q: number, epi: Epi): ResRels {
  const n = batch.offsets[q + 1] - batch.offsets[q];
  const rows = rankedRows(batch, q, n);
  const numResults = Math.min(n, epi.maxDocs);
  const jo = batch.judgedOffsets ?? batch.offsets;
  const judged = batch.judged ?? batch.labels;
  // Labels as trec_eval reads them (atol: integers), which evaluateBlock gives (src/pipeline/trec-labels.ts).
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
  return {
    numRet: rel.length,
    numRel,
    numRelRet,
    numNonpool,
    numUnjudged,
    rel: Float64Array.from(rel),
    relLevels,
    numRelLevels,
  };
}

/** C's lround: halves away from zero; LONG_MIN (x86-64) when out of range or NaN. */
function lround(x: number): number {
  if (!(Math.abs(x) < 2 ** 63)) return -(2 ** 63);
  const a = Math.abs(x);
  const f = Math.floor(a);
  const r = a - f >= 0.5 ? f + 1 : f;
  return x < 0 ? -r : r;
}

/** C's (long) of a double: truncation; LONG_MIN (x86-64) when out of range or NaN. */
function toLong(x: number): number {
  return Math.abs(x) < 2 ** 63 ? Math.trunc(x) : -(2 ** 63);
}

/** gain_init.c valid_int: an optional sign and digits, nothing else. */
function validInt(s: string): boolean {
  return /^[+-]?\d+$/.test(s);
}

interface RelGain {
  level: number;
  gain: number;
  count: number;
}

/** gain_init.c setup_gains, sorted by comp_rel_gain ((int) of the gains' difference) as glibc sorts. */
function setupGains(pairs: readonly (readonly [string, number])[], rr: ResRels): RelGain[] {
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

/** gain_init.c get_gain: the first level in sorted order that matches, else 0. */
function getGain(level: number, gains: readonly RelGain[]): number {
  for (const g of gains) if (g.level === level) return g.gain;
  return 0;
}

// glibc's log2 and log, as trec_eval's numbers are made with them (src/c/math.ts).
const log2 = cmathLog2;

/** The ideal ranking's walk of m_ndcg.c, m_G.c, m_ndcg_rel.c, m_Rndcg.c: stops at the first gain <= 0. */
class IdealWalk {
  cur: number;
  gain: number;
  private atLevel = 0;
  constructor(private readonly gains: readonly RelGain[]) {
    this.cur = gains.length - 1;
    this.gain = this.cur >= 0 ? gains[this.cur].gain : 0;
  }
  /** The next ideal document's gain (the loop body's "Calculate change in ideal dcg" step). */
  step(): number {
    this.atLevel++;
    while (this.cur >= 0 && this.atLevel > this.gains[this.cur].count) {
      this.atLevel = 1;
      this.cur--;
      this.gain = this.cur >= 0 ? this.gains[this.cur].gain : 0;
    }
    return this.gain;
  }
}

/** m_ndcg.c (ndcg, dcg, ideal_dcg). */
function ndcgFamily(rr: ResRels, pairs: readonly (readonly [string, number])[]): { dcg: number; ideal: number } {
  const gains = setupGains(pairs, rr);
  const walk = new IdealWalk(gains);
  let dcg = 0;
  let ideal = 0;
  let i = 0;
  for (; i < rr.numRet && walk.gain > 0; i++) {
    const g = getGain(rr.rel[i], gains);
    if (g !== 0) dcg += g / log2(i + 2);
    walk.step();
    if (walk.gain > 0) ideal += walk.gain / log2(i + 2);
  }
  for (; i < rr.numRet; i++) {
    const g = getGain(rr.rel[i], gains);
    if (g !== 0) dcg += g / log2(i + 2);
  }
  for (; walk.gain > 0; i++) {
    walk.step();
    if (walk.gain > 0) ideal += walk.gain / log2(i + 2);
  }
  return { dcg, ideal };
}

/** m_G.c. */
function trecG(rr: ResRels, pairs: readonly (readonly [string, number])[]): number {
  const gains = setupGains(pairs, rr);
  const walk = new IdealWalk(gains);
  const minCost = 1;
  let resultsG = 0;
  let sumResults = 0;
  let sumIdeal = 0;
  let sumCost = 0;
  let i = 0;
  for (; i < rr.numRet && walk.gain > 0; i++) {
    const g = getGain(rr.rel[i], gains);
    sumResults += g;
    walk.step();
    if (walk.gain > 0) sumIdeal += walk.gain;
    if (walk.gain >= minCost) sumCost += walk.gain;
    else sumCost += minCost;
    if (g !== 0) resultsG += g / log2(2 + sumCost - sumResults);
  }
  for (; i < rr.numRet; i++) {
    const g = getGain(rr.rel[i], gains);
    sumResults += g;
    sumCost += minCost;
    if (g !== 0) resultsG += g / log2(2 + sumCost - sumResults);
  }
  for (; walk.gain > 0; i++) {
    walk.step();
    if (walk.gain > 0) sumIdeal += walk.gain;
  }
  return sumIdeal > 0 ? resultsG / sumIdeal : 0;
}

/** m_ndcg_rel.c. */
function ndcgRel(rr: ResRels, pairs: readonly (readonly [string, number])[]): number {
  const gains = setupGains(pairs, rr);
  const walk = new IdealWalk(gains);
  let dcg = 0;
  let ideal = 0;
  let sum = 0;
  let numRelRet = 0;
  let numRel = 0;
  let i = 0;
  for (; i < rr.numRet && walk.gain > 0; i++) {
    const g = getGain(rr.rel[i], gains);
    if (g !== 0) dcg += g / log2(i + 2);
    walk.step();
    if (walk.gain > 0) {
      numRel++;
      ideal += walk.gain / log2(i + 2);
    }
    if (g > 0) {
      sum += dcg / ideal;
      numRelRet++;
    }
  }
  for (; i < rr.numRet; i++) {
    const g = getGain(rr.rel[i], gains);
    if (g !== 0) dcg += g / log2(i + 2);
    if (g > 0) {
      sum += dcg / ideal;
      numRelRet++;
    }
  }
  for (; walk.gain > 0; i++) {
    walk.step();
    if (walk.gain > 0) {
      numRel++;
      ideal += walk.gain / log2(i + 2);
    }
  }
  sum += ((numRel - numRelRet) * dcg) / ideal;
  return sum > 0 ? sum / numRel : 0;
}

/** m_Rndcg.c. */
function rndcg(rr: ResRels, pairs: readonly (readonly [string, number])[]): number {
  const gains = setupGains(pairs, rr);
  if (rr.numRel === 0) return 0;
  const walk = new IdealWalk(gains);
  let old = walk.gain;
  let changed = 0;
  let dcg = 0;
  let ideal = 0;
  let sum = 0;
  const boundary = () => {
    if (old !== walk.gain) {
      if (ideal > 0) {
        sum += dcg / ideal;
        changed++;
      }
      old = walk.gain;
    }
  };
  let i = 0;
  for (; i < rr.numRet && walk.gain > 0; i++) {
    const g = getGain(rr.rel[i], gains);
    walk.step();
    boundary();
    if (g !== 0) dcg += g / log2(i + 2);
    if (walk.gain > 0) ideal += walk.gain / log2(i + 2);
  }
  if (i < rr.numRet) {
    for (; i < rr.numRet; i++) {
      const g = getGain(rr.rel[i], gains);
      if (g !== 0) dcg += g / log2(i + 2);
    }
    if (ideal > 0) {
      sum += dcg / ideal;
      changed++;
    }
  }
  for (; walk.gain > 0; i++) {
    walk.step();
    boundary();
    if (walk.gain > 0) ideal += walk.gain / log2(i + 2);
  }
  return sum / changed;
}

/** rbp's p: the last pair named "p" (m_rbp.c, m_rbp_resid.c), else 0.9. */
function persistence(pairs: readonly (readonly [string, number])[]): number {
  let p = 0.9;
  for (const [name, value] of pairs) if (name === "p") p = value;
  return p;
}

/**
 * m_rbp.c. Its min and max are read uninitialised; trec_eval 10 as built by its Makefile (-O0) finds
 * 0 in both, which is what this starts from: gains are rescaled by (g - min) / (max - min) over every
 * gain of setup_gains when one lies outside [0, 1].
 */
function rbp(rr: ResRels, pairs: readonly (readonly [string, number])[]): number {
  const p = persistence(pairs);
  const gains = setupGains(pairs, rr);
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
  return (1 - p) * sum;
}

/** m_rbp_resid.c. */
function rbpResid(rr: ResRels, pairs: readonly (readonly [string, number])[]): number {
  const p = persistence(pairs);
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
  return unjudged ? weight + (1 - p) * sum : 0;
}

/** The cutoff loop of m_P.c, m_recall.c, m_map_cut.c, ... (cutoffs in trec_eval's order). */
function cutoffLoop(
  rr: ResRels,
  cutoffs: readonly number[],
  count: (i: number) => void,
  atCut: (c: number, i: number) => number,
  past: (c: number) => number,
): number[] {
  const v = new Array<number>(cutoffs.length).fill(0);
  let c = 0;
  for (let i = 0; i < rr.numRet; i++) {
    if (i === cutoffs[c]) {
      v[c] = atCut(c, i);
      if (++c === cutoffs.length) break;
    }
    count(i);
  }
  for (; c < cutoffs.length; c++) v[c] = past(c);
  return v;
}

/** m_ndcg_cut.c: DCG with the labels as gains, over the ideal ranking of the per-level counts. */
function ndcgCut(rr: ResRels, cutoffs: readonly number[]): number[] {
  let sum = 0;
  const v = cutoffLoop(
    rr,
    cutoffs,
    (i) => {
      const gain = rr.rel[i];
      if (gain > 0) sum += gain / log2(i + 2);
    },
    () => sum,
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
    // trec_eval breaks at level 0; with no level at all (a query whose judgments are all negative, a
    // deliberate divergence) it would walk on with level -1.
    if (cur <= 0) break;
    if (i === cutoffs[c]) {
      if (ideal > 0) v[c] /= ideal;
      if (++c === cutoffs.length) break;
    }
    ideal += cur / log2(i + 2);
  }
  for (; c < cutoffs.length; c++) if (ideal > 0) v[c] /= ideal;
  return v;
}

/** m_iprec_at_recall.c and m_11pt_avg.c: interpolated precision at recall points, in the given order. */
function interpolated(
  rr: ResRels,
  points: readonly number[],
  level: number,
  record: (c: number, value: number) => void,
): void {
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
function rprecMult(rr: ResRels, points: readonly number[], level: number): number[] {
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

/** One measure's per-query values, one per printed line, in its lines' order. */
function measureValues(m: TrecMeasure, rr: ResRels, epi: Epi): number[] {
  const level = epi.relevanceLevel;
  const isRel = (i: number) => rr.rel[i] >= level;
  const cut = m.cutoffs ?? [];
  const pairs = m.pairs ?? [];
  switch (m.name) {
    case "num_ret":
      return [rr.numRet];
    case "num_rel":
      return [rr.numRel];
    case "num_rel_ret":
      return [rr.numRelRet];
    case "map":
    case "gm_map":
    case "yaap": {
      let relSoFar = 0;
      let sum = 0;
      for (let i = 0; i < rr.numRet; i++) {
        if (isRel(i)) {
          relSoFar++;
          sum += relSoFar / (i + 1);
        }
      }
      if (m.name === "yaap") return [cmathLog((1 + sum) / (1 + rr.numRel - sum))];
      // gm_map's line takes the per-query AP; the report takes log(max(AP, 1e-5)) as m_gm_map.c.
      return [relSoFar ? sum / rr.numRel : 0];
    }
    case "Rprec": {
      const look = Math.min(rr.numRet, rr.numRel);
      if (look === 0) return [0];
      let relSoFar = 0;
      for (let i = 0; i < look; i++) if (isRel(i)) relSoFar++;
      return [relSoFar / rr.numRel];
    }
    case "bpref":
    case "gm_bpref": {
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
    }
    case "recip_rank": {
      let i = 0;
      while (i < rr.numRet && !isRel(i)) i++;
      return [i < rr.numRet ? 1 / (i + 1) : 0];
    }
    case "iprec_at_recall": {
      const v = new Array<number>(cut.length).fill(0);
      interpolated(rr, cut, level, (c, value) => (v[c] = value));
      return v;
    }
    case "11pt_avg": {
      let sum = 0;
      interpolated(rr, m.values!, level, (_c, value) => (sum += value));
      return [sum / m.values!.length];
    }
    case "P": {
      let relSoFar = 0;
      return cutoffLoop(
        rr,
        cut,
        (i) => void (isRel(i) && relSoFar++),
        (_c, i) => relSoFar / i,
        (c) => relSoFar / cut[c],
      );
    }
    case "recall": {
      if (rr.numRel === 0) return cut.map(() => 0);
      let relSoFar = 0;
      return cutoffLoop(
        rr,
        cut,
        (i) => void (isRel(i) && relSoFar++),
        () => relSoFar / rr.numRel,
        () => relSoFar / rr.numRel,
      );
    }
    case "map_cut": {
      if (rr.numRel === 0) return cut.map(() => 0);
      let relSoFar = 0;
      let sum = 0;
      const count = (i: number) => {
        if (isRel(i)) {
          relSoFar++;
          sum += relSoFar / (i + 1);
        }
      };
      return cutoffLoop(
        rr,
        cut,
        count,
        () => sum / rr.numRel,
        () => sum / rr.numRel,
      );
    }
    case "relative_P": {
      if (rr.numRel === 0) return cut.map(() => 0);
      let relSoFar = 0;
      const at = (i: number) => relSoFar / (i > rr.numRel ? rr.numRel : i);
      return cutoffLoop(
        rr,
        cut,
        (i) => void (isRel(i) && relSoFar++),
        (_c, i) => at(i),
        (c) => at(cut[c]),
      );
    }
    case "success": {
      let relSoFar = 0;
      return cutoffLoop(
        rr,
        cut,
        (i) => void (isRel(i) && relSoFar++),
        () => (relSoFar ? 1 : 0),
        () => (relSoFar ? 1 : 0),
      );
    }
    case "unj": {
      let unj = 0;
      const count = (i: number) => void ((rr.rel[i] === RELVALUE_NONPOOL || rr.rel[i] === RELVALUE_UNJUDGED) && unj++);
      return cutoffLoop(
        rr,
        cut,
        count,
        (_c, i) => unj / i,
        (c) => unj / cut[c],
      );
    }
    case "ndcg_cut":
      return ndcgCut(rr, cut);
    case "infAP": {
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
          else {
            const fj = j;
            ap +=
              1 / (fj + 1) +
              (fj / (fj + 1)) *
                ((relSoFar - 1 + nonrel + unjudged) / fj) *
                ((relSoFar - 1 + INFAP_EPSILON) / (relSoFar - 1 + nonrel + 2 * INFAP_EPSILON));
          }
        }
      }
      if (rr.numRel) ap /= rr.numRel;
      return [ap];
    }
    case "Rprec_mult":
      return rprecMult(rr, cut, level);
    case "utility": {
      const [a, b, c, d] = m.values!;
      return [
        a * rr.numRelRet +
          b * (rr.numRet - rr.numRelRet) +
          c * (rr.numRel - rr.numRelRet) +
          d * (epi.numDocsInColl + rr.numRelRet - rr.numRet - rr.numRel),
      ];
    }
    case "binG": {
      let relSoFar = 0;
      let sum = 0;
      for (let i = 0; i < rr.numRet; i++) {
        if (isRel(i)) {
          relSoFar++;
          sum += 1 / log2(3 + i - relSoFar);
        }
      }
      return [relSoFar ? sum / rr.numRel : 0];
    }
    case "G":
      return [trecG(rr, pairs)];
    case "dcg":
      return [ndcgFamily(rr, pairs).dcg];
    case "ideal_dcg":
      return [ndcgFamily(rr, pairs).ideal];
    case "ndcg": {
      const { dcg, ideal } = ndcgFamily(rr, pairs);
      return [ideal > 0 ? dcg / ideal : 0];
    }
    case "ndcg_rel":
      return [ndcgRel(rr, pairs)];
    case "Rndcg":
      return [rndcg(rr, pairs)];
    case "set_P":
      return [rr.numRet ? rr.numRelRet / rr.numRet : 0];
    case "set_relative_P":
      return [rr.numRet && rr.numRel ? rr.numRelRet / Math.min(rr.numRet, rr.numRel) : 0];
    case "set_recall":
      return [rr.numRel ? rr.numRelRet / rr.numRel : 0];
    case "set_map":
      return [rr.numRet && rr.numRel ? (rr.numRelRet * rr.numRelRet) / (rr.numRet * rr.numRel) : 0];
    case "set_F": {
      if (!rr.numRelRet) return [0];
      const p = rr.numRelRet / rr.numRet;
      const r = rr.numRelRet / rr.numRel;
      const x = m.values![0];
      return [((x + 1) * p * r) / (x * p + r)];
    }
    case "num_nonrel_judged_ret":
      return [rr.numRet - rr.numNonpool - rr.numUnjudged - rr.numRelRet];
    case "rbp":
      return [rbp(rr, pairs)];
    case "rbp_resid":
      return [rbpResid(rr, pairs)];
    default:
      throw new RankevalError("bad-measure", `trec_eval measure ${m.name}: not ported (a bug)`);
  }
}

/** trec_eval.h INFAP_EPSILON. */
const INFAP_EPSILON = 0.00001;

/** Per-query values of `measures` (not runid, num_q, relstring), an array per line of trecLines(measures). */
export function exactValues(
  measures: readonly TrecMeasure[],
  batch: Batch,
  ties: "docid" | "input",
  epi: Epi,
): Float64Array[] {
  const ranked = withTies(batch, ties);
  const out: Float64Array[][] = measures.map((m) => m.lines.map(() => new Float64Array(batch.numQueries)));
  for (let q = 0; q < batch.numQueries; q++) {
    const rr = formResRels(ranked, q, epi);
    measures.forEach((m, j) => {
      const v = measureValues(m, rr, epi);
      for (let i = 0; i < v.length; i++) out[j][i][q] = v[i];
    });
  }
  return out.flat();
}
