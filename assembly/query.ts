// One query's ranking and prefix sums: the single sort, then every prefix array the batch's
// measures read, each only as deep as the deepest cutoff that reads it. Metrics read from here.

import {
  keys, order, rankLabel, cumRel, cumDcg, cumAp, idealKeys, idealIdx, idcg, tmpIdx, levelCount, discount, threshold,
  depth, docids, poolBytes, poolOffsets, gainTable, gainTableLength, gainMonotone, gainOf, levelOf, f64At, setQuery,
} from "./state";
import { sortRows, sortPairs, sortByDocidDesc } from "./sort";

/**
 * How deep each prefix array must go for the batch's measures (ranks; 0 = not needed, ALL = the
 * whole ranking). Set by index.ts from the measures before the first query.
 */
export class Depths {
  static label: i32 = 0; // rankLabel
  static rel: i32 = 0; // cumRel, firstRel
  static gain: i32 = 0; // cumDcg
  static ap: i32 = 0; // cumAp
  static ideal: i32 = 0; // idcg
}

// @ts-ignore: decorator
@inline function imin(a: i32, b: i32): i32 {
  return a < b ? a : b;
}

/**
 * Ranks rows [start, end) by score descending; ties in input order, or by document id descending
 * (byte order) when the host gave document ids: trec_eval's order. Keeps the top `depth` ranks and
 * fills the arrays the measures read; counts the query's judgments [jStart, jEnd) of `judged`.
 */
export function rankQuery(scores: usize, labels: usize, start: i32, end: i32, judged: usize, jStart: i32, jEnd: i32): void {
  const len = end - start;
  sortRows(scores, start, len, keys, order, tmpIdx);
  if (docids != 0) breakTiesByDocid(len);
  const n = imin(len, depth);

  const labelDepth = imin(n, Depths.label);
  for (let r = 0; r < labelDepth; r++) {
    store<f64>(rankLabel + (<usize>r << 3), f64At(labels, load<i32>(order + (<usize>r << 2))));
  }
  let first = 0;
  if (Depths.rel > 0) {
    const m = imin(n, Depths.rel);
    let rel: f64 = 0;
    store<f64>(cumRel, 0);
    for (let r = 0; r < m; r++) {
      if (f64At(rankLabel, r) >= threshold) {
        rel += 1;
        if (first == 0) first = r + 1;
      }
      store<f64>(cumRel + (<usize>(r + 1) << 3), rel);
    }
  }
  if (Depths.gain > 0) {
    const m = imin(n, Depths.gain);
    let dcg: f64 = 0;
    store<f64>(cumDcg, 0);
    for (let r = 0; r < m; r++) {
      dcg += gainOf(f64At(rankLabel, r)) * f64At(discount, r + 1);
      store<f64>(cumDcg + (<usize>(r + 1) << 3), dcg);
    }
  }
  if (Depths.ap > 0) {
    const m = imin(n, Depths.ap);
    let sum: f64 = 0;
    store<f64>(cumAp, 0);
    for (let r = 0; r < m; r++) {
      if (f64At(rankLabel, r) >= threshold) sum += f64At(cumRel, r + 1) / <f64>(r + 1);
      store<f64>(cumAp + (<usize>(r + 1) << 3), sum);
    }
  }

  // Judgments: every judged document of the query, retrieved or not.
  let numRel = 0;
  let numNonrel = 0;
  for (let j = jStart; j < jEnd; j++) {
    const label = f64At(judged, j);
    if (label >= threshold) numRel++;
    else if (label >= 0) numNonrel++;
  }
  const numIdeal = Depths.ideal > 0 ? idealRanking(judged, jStart, jEnd, Depths.ideal) : 0;
  setQuery(scores, n, numRel, numNonrel, numIdeal, first);
}

/**
 * Fills idcg[0..min(J, limit)] for the ideal ranking (all judged gains, descending) and returns J,
 * the number of judged documents with a positive gain. Integer labels are counted by level, as
 * trec_eval does, so the ideal costs O(judgments + cutoff); other labels fall back to a sort.
 */
function idealRanking(judged: usize, jStart: i32, jEnd: i32, limit: i32): i32 {
  let byLevel = gainMonotone;
  let top = 0;
  if (byLevel) {
    memory.fill(levelCount, 0, <usize>gainTableLength << 2);
    for (let j = jStart; j < jEnd; j++) {
      const label = f64At(judged, j);
      const level = levelOf(label);
      if (level > 0) {
        const slot = levelCount + (<usize>level << 2);
        store<i32>(slot, load<i32>(slot) + 1);
        if (level > top) top = level;
      } else if (level < 0 && label > 0) {
        byLevel = false; // a fractional or very large label
        break;
      }
    }
  }
  let sum: f64 = 0;
  let i = 0;
  store<f64>(idcg, 0);
  if (byLevel) {
    let numIdeal = 0;
    for (let level = top; level > 0; level--) {
      const count = load<i32>(levelCount + (<usize>level << 2));
      const g = f64At(gainTable, level);
      if (count == 0 || !(g > 0)) continue;
      numIdeal += count;
      const stop = imin(numIdeal, limit);
      for (; i < stop; i++) {
        sum += g * f64At(discount, i + 1);
        store<f64>(idcg + (<usize>(i + 1) << 3), sum);
      }
    }
    return numIdeal;
  }
  let numIdeal = 0;
  for (let j = jStart; j < jEnd; j++) {
    const g = gainOf(f64At(judged, j));
    if (g > 0) {
      // Positive doubles order as their bit patterns do; inverted, ascending keys = descending gains.
      store<u64>(idealKeys + (<usize>numIdeal << 3), ~reinterpret<u64>(g));
      store<i32>(idealIdx + (<usize>numIdeal << 2), numIdeal);
      numIdeal++;
    }
  }
  sortPairs(idealKeys, idealIdx, numIdeal);
  const stop = imin(numIdeal, limit);
  for (; i < stop; i++) {
    sum += reinterpret<f64>(~load<u64>(idealKeys + (<usize>i << 3))) * f64At(discount, i + 1);
    store<f64>(idcg + (<usize>(i + 1) << 3), sum);
  }
  return numIdeal;
}

/** Reorders each run of equal scores by document id, descending. */
function breakTiesByDocid(len: i32): void {
  let runStart = 0;
  for (let i = 1; i <= len; i++) {
    if (i == len || load<u64>(keys + (<usize>i << 3)) != load<u64>(keys + (<usize>runStart << 3))) {
      if (i - runStart > 1) sortByDocidDesc(order + (<usize>runStart << 2), i - runStart, docids, poolBytes, poolOffsets, tmpIdx);
      runStart = i;
    }
  }
}
