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

  // The prefix arrays, each as deep as its measures read.
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
  // One pass reads each ranked label and sums as deep as needed (apDepth <= relDepth <= labelDepth),
  // with the arrays and the threshold in locals: a global is a load from memory at each use.
  // Relevance is a coin flip to the branch predictor: the sums add 0 or 1 instead of branching.
  const rows = order;
  const labelAt = rankLabel;
  const relAt = cumRel;
  const apAt = cumAp;
  const thr = threshold;
  let r = 0;
  for (; r < apDepth; r++) {
    const label = f64At(labels, load<i32>(rows + (<usize>r << 2)));
    store<f64>(labelAt + (<usize>r << 3), label);
    const relevant = label >= thr;
    rel += <f64>relevant;
    first = select<i32>(r + 1, first, <i32>(first == 0) & <i32>relevant);
    store<f64>(relAt + (<usize>(r + 1) << 3), rel);
    ap += (rel / <f64>(r + 1)) * <f64>relevant; // not select(): V8 makes a branch of a select of doubles
    store<f64>(apAt + (<usize>(r + 1) << 3), ap);
  }
  for (; r < relDepth; r++) {
    const label = f64At(labels, load<i32>(rows + (<usize>r << 2)));
    store<f64>(labelAt + (<usize>r << 3), label);
    const relevant = label >= thr;
    rel += <f64>relevant;
    first = select<i32>(r + 1, first, <i32>(first == 0) & <i32>relevant);
    store<f64>(relAt + (<usize>(r + 1) << 3), rel);
  }
  for (; r < labelDepth; r++) {
    store<f64>(labelAt + (<usize>r << 3), f64At(labels, load<i32>(rows + (<usize>r << 2))));
  }
  for (let r = 0; r < gainDepth; r++) {
    dcg += gainOf(f64At(rankLabel, r)) * f64At(discount, r + 1);
    store<f64>(cumDcg + (<usize>(r + 1) << 3), dcg);
  }

  // Judgments: every judged document of the query, retrieved or not, counted for R and NR and,
  // when gains grow with the label, per level for the ideal ranking (as trec_eval does).
  const limit = Depths.ideal;
  const countLevels = limit > 0 && gainMonotone;
  if (countLevels) memory.fill(levelCount, 0, <usize>gainTableLength << 2);
  // Two labels at a time: the counts are lanes of 0 / -1 masks subtracted from accumulators, and
  // each label's level is a lane, without branches (whether a label is 0 is a coin flip to the
  // branch predictor). Labels that are no level count in level 0's slot, which nothing reads.
  const thr2 = f64x2.splat(thr);
  const zero2 = f64x2.splat(0);
  const none = i32x4.splat(0);
  const tableLength4 = i32x4.splat(gainTableLength);
  let rel2 = i64x2.splat(0);
  let nonrel2 = i64x2.splat(0);
  let top4 = i32x4.splat(0);
  let outside4 = i32x4.splat(0);
  let j = jStart;
  for (; j + 1 < jEnd; j += 2) {
    const label = v128.load(judged + (<usize>j << 3));
    rel2 = i64x2.sub(rel2, f64x2.ge(label, thr2));
    nonrel2 = i64x2.sub(nonrel2, v128.and(f64x2.ge(label, zero2), f64x2.lt(label, thr2)));
    if (countLevels) {
      // levelOf() on both lanes; the doubles' 64-bit masks narrowed to the levels' i32 lanes 0 and 1.
      const level = i32x4.trunc_sat_f64x2_s_zero(label);
      const exact = v128.shuffle<i32>(f64x2.eq(f64x2.convert_low_i32x4_s(level), label), none, 0, 2, 4, 4);
      const valid = v128.and(exact, i32x4.lt_u(level, tableLength4));
      const slot = v128.and(level, valid);
      top4 = i32x4.max_s(top4, slot);
      outside4 = v128.or(outside4, v128.andnot(v128.shuffle<i32>(f64x2.gt(label, zero2), none, 0, 2, 4, 4), valid));
      const slot0 = levelCount + (<usize>i32x4.extract_lane(slot, 0) << 2);
      store<i32>(slot0, load<i32>(slot0) + 1);
      const slot1 = levelCount + (<usize>i32x4.extract_lane(slot, 1) << 2);
      store<i32>(slot1, load<i32>(slot1) + 1);
    }
  }
  let numRel = <i32>(i64x2.extract_lane(rel2, 0) + i64x2.extract_lane(rel2, 1));
  let numNonrel = <i32>(i64x2.extract_lane(nonrel2, 0) + i64x2.extract_lane(nonrel2, 1));
  let topLevel = max(i32x4.extract_lane(top4, 0), i32x4.extract_lane(top4, 1));
  let outside = i32x4.extract_lane(outside4, 0) | i32x4.extract_lane(outside4, 1); // a positive label that is no table level
  if (j < jEnd) {
    // The last of an odd count, the same way.
    const label = f64At(judged, j);
    numRel += <i32>(label >= thr);
    numNonrel += <i32>(label >= 0) & <i32>(label < thr);
    if (countLevels) {
      const level = levelOf(label);
      const slot = levelCount + (<usize>max(level, 0) << 2);
      store<i32>(slot, load<i32>(slot) + 1);
      topLevel = max(topLevel, level);
      outside |= <i32>(level < 0) & <i32>(label > 0);
    }
  }
  let numIdeal = 0;
  if (countLevels && !outside) numIdeal = idealByLevel(topLevel, limit);
  else if (limit > 0 && limit <= TOP_K_MAX && gainMonotone) numIdeal = idealFromTop(judged, jStart, jEnd, limit);
  else if (limit > 0) numIdeal = idealBySort(judged, jStart, jEnd, limit);
  setQuery(scores, n, numRel, numNonrel, numIdeal, first);
}

/** With labels that are no table level, cutoffs up to this read the ideal ranking from a kept top k; deeper ones sort. */
const TOP_K_MAX: i32 = 64;

/** Inserts label into the descending top list idealKeys[0..kept), at most `limit` long. */
function keepTop(label: f64, kept: i32, limit: i32): i32 {
  let i = kept < limit ? kept : limit - 1;
  while (i > 0 && f64At(idealKeys, i - 1) < label) {
    store<f64>(idealKeys + (<usize>i << 3), f64At(idealKeys, i - 1));
    i--;
  }
  store<f64>(idealKeys + (<usize>i << 3), label);
  return kept < limit ? kept + 1 : kept;
}

/**
 * The ideal ranking sorts all judged gains descending. Each of these fills idcg[0..min(J, limit)]
 * and returns J, the number of judged documents with a positive gain, or (idealFromTop) min(J, limit),
 * which the measures cannot tell apart: they read idcg at min(k, J) with k <= limit.
 */
function idealFromTop(judged: usize, jStart: i32, jEnd: i32, limit: i32): i32 {
  let kept = 0; // labels kept in idealKeys, descending
  let entry: f64 = 0; // what a label must beat to be kept
  for (let j = jStart; j < jEnd; j++) {
    const label = f64At(judged, j);
    if (label > entry) {
      kept = keepTop(label, kept, limit);
      entry = kept == limit ? f64At(idealKeys, limit - 1) : 0;
    }
  }
  // Gains grow with labels, so the top labels give the top gains.
  let sum: f64 = 0;
  let numIdeal = 0;
  store<f64>(idcg, 0);
  for (let i = 0; i < kept; i++) {
    const g = gainOf(f64At(idealKeys, i));
    if (!(g > 0)) break;
    sum += g * f64At(discount, i + 1);
    store<f64>(idcg + (<usize>(i + 1) << 3), sum);
    numIdeal++;
  }
  return numIdeal;
}

/**
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
      store<f64>(idealKeys + (<usize>numIdeal << 3), g);
      store<i32>(idealIdx + (<usize>numIdeal << 2), numIdeal);
      numIdeal++;
    }
  }
  sortPairs(idealKeys, idealIdx, numIdeal); // descending gains
  let sum: f64 = 0;
  store<f64>(idcg, 0);
  const stop = imin(numIdeal, limit);
  for (let i = 0; i < stop; i++) {
    sum += f64At(idealKeys, i) * f64At(discount, i + 1);
    store<f64>(idcg + (<usize>(i + 1) << 3), sum);
  }
  return numIdeal;
}

/** Reorders each run of equal scores by document id, descending. */
function breakTiesByDocid(len: i32): void {
  let runStart = 0;
  for (let i = 1; i <= len; i++) {
    if (i == len || f64At(keys, i) != f64At(keys, runStart)) {
      if (i - runStart > 1) sortByDocidDesc(order + (<usize>runStart << 2), i - runStart, docids, poolBytes, poolOffsets, tmpIdx);
      runStart = i;
    }
  }
}
