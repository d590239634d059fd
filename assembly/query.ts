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

  // One pass down the ranking fills every prefix array, each as deep as its measures read.
  const labelDepth = imin(n, Depths.label);
  const relDepth = imin(n, Depths.rel);
  const gainDepth = imin(n, Depths.gain);
  const apDepth = imin(n, Depths.ap); // <= relDepth: MAP reads both
  let first = 0;
  let rel: f64 = 0;
  let dcg: f64 = 0;
  let ap: f64 = 0;
  store<f64>(cumRel, 0);
  store<f64>(cumDcg, 0);
  store<f64>(cumAp, 0);
  for (let r = 0; r < labelDepth; r++) {
    const label = f64At(labels, load<i32>(order + (<usize>r << 2)));
    store<f64>(rankLabel + (<usize>r << 3), label);
    const relevant = label >= threshold;
    if (r < relDepth) {
      if (relevant) {
        rel += 1;
        if (first == 0) first = r + 1;
      }
      store<f64>(cumRel + (<usize>(r + 1) << 3), rel);
      if (r < apDepth) {
        if (relevant) ap += rel / <f64>(r + 1);
        store<f64>(cumAp + (<usize>(r + 1) << 3), ap);
      }
    }
    if (r < gainDepth) {
      dcg += gainOf(label) * f64At(discount, r + 1);
      store<f64>(cumDcg + (<usize>(r + 1) << 3), dcg);
    }
  }

  // Judgments: every judged document of the query, retrieved or not. Integer labels are counted
  // by level on the way, for the ideal ranking.
  const countLevels = Depths.ideal > 0 && gainMonotone;
  if (countLevels) memory.fill(levelCount, 0, <usize>gainTableLength << 2);
  let numRel = 0;
  let numNonrel = 0;
  let topLevel = 0;
  let byLevel = countLevels;
  for (let j = jStart; j < jEnd; j++) {
    const label = f64At(judged, j);
    if (label >= threshold) numRel++;
    else if (label >= 0) numNonrel++;
    if (countLevels) {
      const level = levelOf(label);
      if (level > 0) {
        const slot = levelCount + (<usize>level << 2);
        store<i32>(slot, load<i32>(slot) + 1);
        topLevel = level > topLevel ? level : topLevel;
      } else if (level < 0 && label > 0) {
        byLevel = false; // a fractional or very large label: sort the gains instead
      }
    }
  }
  let numIdeal = 0;
  if (Depths.ideal > 0) {
    numIdeal = byLevel ? idealByLevel(topLevel, Depths.ideal) : idealBySort(judged, jStart, jEnd, Depths.ideal);
  }
  setQuery(scores, n, numRel, numNonrel, numIdeal, first);
}

/**
 * The ideal ranking sorts all judged gains descending. idealByLevel and idealBySort fill
 * idcg[0..min(J, limit)] and return J, the number of judged documents with a positive gain.
 * With integer labels and gains that grow with the label, the ranking is by label, read from the
 * counts per level (as trec_eval does): O(levels + cutoff) instead of a sort.
 */
function idealByLevel(topLevel: i32, limit: i32): i32 {
  let sum: f64 = 0;
  let i = 0;
  let numIdeal = 0;
  store<f64>(idcg, 0);
  for (let level = topLevel; level > 0; level--) {
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

function idealBySort(judged: usize, jStart: i32, jEnd: i32, limit: i32): i32 {
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
  let sum: f64 = 0;
  store<f64>(idcg, 0);
  const stop = imin(numIdeal, limit);
  for (let i = 0; i < stop; i++) {
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
