/**
 * trec_eval's experimental gain measures, written as its loops run (m_G.c, m_ndcg_rel.c, m_Rndcg.c):
 * the ranking's gains and the ideal gains (every judged document's gain, sorted descending) walked
 * side by side, the ideal walk stopping at the first gain <= 0. Gains are the `gain` option's (gain 0
 * for a document without a judgment, a label <= 0 or a negative label). See the README's table.
 */
import type { ResolvedOptions } from "../options.js";
import { gain, isRelevant, type Query } from "./ranking.js";

function gains(q: Query, o: ResolvedOptions): { results: number[]; ideal: number[] } {
  return {
    results: q.ranking.map((d) => gain(d.label, o)),
    ideal: q.judged.map((l) => gain(l, o)).sort((a, b) => b - a),
  };
}

/** m_G.c. */
export function trecG(q: Query, o: ResolvedOptions): number {
  const { results, ideal } = gains(q, o);
  const at = (i: number) => (i < ideal.length ? ideal[i] : 0);
  let idealGain = at(0);
  let sumResults = 0;
  let sumIdeal = 0;
  let sumCost = 0;
  let g = 0;
  let i = 0;
  for (; i < results.length && idealGain > 0; i++) {
    sumResults += results[i];
    idealGain = at(i);
    if (idealGain > 0) sumIdeal += idealGain;
    sumCost += idealGain >= 1 ? idealGain : 1;
    if (results[i] !== 0) g += results[i] / Math.log2(2 + sumCost - sumResults);
  }
  for (; i < results.length; i++) {
    sumResults += results[i];
    sumCost += 1;
    if (results[i] !== 0) g += results[i] / Math.log2(2 + sumCost - sumResults);
  }
  for (; idealGain > 0; i++) {
    idealGain = at(i);
    if (idealGain > 0) sumIdeal += idealGain;
  }
  return sumIdeal > 0 ? g / sumIdeal : 0;
}

/** m_ndcg_rel.c. */
export function ndcgRel(q: Query, o: ResolvedOptions): number {
  const { results, ideal } = gains(q, o);
  const at = (i: number) => (i < ideal.length ? ideal[i] : 0);
  const disc = (i: number) => Math.log2(i + 2);
  let idealGain = at(0);
  let dcg = 0;
  let idcg = 0;
  let sum = 0;
  let relRet = 0;
  let rel = 0;
  let i = 0;
  for (; i < results.length && idealGain > 0; i++) {
    if (results[i] !== 0) dcg += results[i] / disc(i);
    idealGain = at(i);
    if (idealGain > 0) {
      rel++;
      idcg += idealGain / disc(i);
    }
    if (results[i] > 0) {
      sum += dcg / idcg;
      relRet++;
    }
  }
  for (; i < results.length; i++) {
    if (results[i] !== 0) dcg += results[i] / disc(i);
    if (results[i] > 0) {
      sum += dcg / idcg;
      relRet++;
    }
  }
  for (; idealGain > 0; i++) {
    idealGain = at(i);
    if (idealGain > 0) {
      rel++;
      idcg += idealGain / disc(i);
    }
  }
  sum += ((rel - relRet) * dcg) / idcg;
  return sum > 0 ? sum / rel : 0;
}

/** m_Rndcg.c: NaN (0/0) when the query has relevant documents but no positive gain. */
export function rndcg(q: Query, o: ResolvedOptions): number {
  if (!q.judged.some((l) => isRelevant(l, o))) return 0;
  const { results, ideal } = gains(q, o);
  const at = (i: number) => (i < ideal.length ? ideal[i] : 0);
  const disc = (i: number) => Math.log2(i + 2);
  let idealGain = at(0);
  let old = idealGain;
  let dcg = 0;
  let idcg = 0;
  let sum = 0;
  let points = 0;
  const boundary = () => {
    if (old !== idealGain) {
      if (idcg > 0) {
        sum += dcg / idcg;
        points++;
      }
      old = idealGain;
    }
  };
  let i = 0;
  for (; i < results.length && idealGain > 0; i++) {
    idealGain = at(i);
    boundary();
    if (results[i] !== 0) dcg += results[i] / disc(i);
    if (idealGain > 0) idcg += idealGain / disc(i);
  }
  if (i < results.length) {
    for (; i < results.length; i++) if (results[i] !== 0) dcg += results[i] / disc(i);
    if (idcg > 0) {
      sum += dcg / idcg;
      points++;
    }
  }
  for (; idealGain > 0; i++) {
    idealGain = at(i);
    boundary();
    if (idealGain > 0) idcg += idealGain / disc(i);
  }
  return sum / points;
}
