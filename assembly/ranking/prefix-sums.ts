// One query's sort, then every prefix array the measures read, each only as deep as its deepest cutoff.

import {
  keys, order, rankLabel, cumRel, cumDcg, apSum, relRank, idealKeys, idealIdx, idcg, tmpIdx, tmpA, levelCount, discount, threshold,
  depth, judgedOnly, docids, poolBytes, poolOffsets, gainTable, gainTableLength, gainMonotone, gainOf, levelOf, f64At, setQuery, setFirstTie,
  tieMode, TieMode, reciprocal, tieStart, tieDelta, setTies, positiveJudged,
} from "./state";
import { sortRows, sortPairs, sortByDocidDesc } from "./sort";

/** Each prefix array's depth (0: not read, ALL: whole ranking). */
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

/** Ranks rows [start, end) and fills the prefix arrays. */
export function rankQuery(scores: usize, labels: usize, start: i32, end: i32, judged: usize, jStart: i32, jEnd: i32): void {
  const len = end - start;
  sortRows(scores, start, len, keys, order, tmpIdx);
  if (docids != 0) breakTiesByDocid(len);
  else if (tieMode == TieMode.BEST || tieMode == TieMode.WORST) orderTiesByLabel(labels, len, tieMode == TieMode.BEST);
  let n = imin(len, depth);
  if (judgedOnly) n = keepJudged(labels, n);

  const labelDepth = imin(n, Depths.label);
  const relDepth = imin(n, Depths.rel);
  const gainDepth = imin(n, Depths.gain);
  const apDepth = imin(n, Depths.ap); // <= relDepth: MAP reads both
  store<f64>(cumRel, 0);
  // Globals in locals (a global is a load per use). No branch on relevance (a coin flip to the
  // predictor): each rank is written at relRank[count], kept if relevant.
  const rows = order;
  const labelAt = rankLabel;
  const relAt = cumRel;
  const ranks = relRank;
  const thr = threshold;
  let rel = 0;
  let r = 0;
  for (; r < relDepth; r++) {
    const label = f64At(labels, load<i32>(rows + (<usize>r << 2)));
    store<f64>(labelAt + (<usize>r << 3), label);
    store<i32>(ranks + (<usize>rel << 2), r + 1);
    rel += <i32>(label >= thr);
    store<f64>(relAt + (<usize>(r + 1) << 3), <f64>rel);
  }
  for (; r < labelDepth; r++) {
    store<f64>(labelAt + (<usize>r << 3), f64At(labels, load<i32>(rows + (<usize>r << 2))));
  }
  const first = rel > 0 ? load<i32>(ranks) : 0;
  // AP over the relevant ranks only: fewer divisions.
  const apCount = apDepth > 0 ? <i32>f64At(relAt, apDepth) : 0;
  let ap: f64 = 0;
  store<f64>(apSum, 0);
  for (let i = 0; i < apCount; i++) {
    ap += <f64>(i + 1) / <f64>load<i32>(ranks + (<usize>i << 2));
    store<f64>(apSum + (<usize>(i + 1) << 3), ap);
  }
  let dcg: f64 = 0;
  store<f64>(cumDcg, 0);
  for (let r = 0; r < gainDepth; r++) {
    dcg += gainOf(f64At(rankLabel, r)) * f64At(discount, r + 1);
    store<f64>(cumDcg + (<usize>(r + 1) << 3), dcg);
  }
  judgeQuery(scores, judged, jStart, jEnd, n, tieMode == TieMode.AVERAGE ? averageTies(labels, judgedOnly ? n : len, n, first) : first);
}

function judgeQuery(scores: usize, judged: usize, jStart: i32, jEnd: i32, n: i32, first: i32): void {
  const thr = threshold;
  // Every judged document, retrieved or not, counted for R and NR and, for monotone gains, per level
  // for the ideal ranking (as trec_eval).
  const limit = Depths.ideal;
  const countLevels = limit > 0 && gainMonotone;
  // Two labels at a time, branch-free (subtracting lane masks). Levels 1 to 4 (nearly all scales) count
  // in registers; others recount level by level. An odd count pads with -1.
  const thr2 = f64x2.splat(thr);
  const zero2 = f64x2.splat(0);
  let rel2 = i64x2.splat(0);
  let judged2 = i64x2.splat(0);
  let positive2 = i64x2.splat(0);
  let level1 = i64x2.splat(0);
  let level2 = i64x2.splat(0);
  let level3 = i64x2.splat(0);
  let level4 = i64x2.splat(0);
  for (let j = jStart; j < jEnd; j += 2) {
    const label = j + 1 < jEnd ? v128.load(judged + (<usize>j << 3)) : f64x2.replace_lane(f64x2.splat(-1), 0, f64At(judged, j));
    rel2 = i64x2.sub(rel2, f64x2.ge(label, thr2));
    judged2 = i64x2.sub(judged2, f64x2.ge(label, zero2));
    if (countLevels) {
      positive2 = i64x2.sub(positive2, f64x2.gt(label, zero2));
      level1 = i64x2.sub(level1, f64x2.eq(label, f64x2.splat(1)));
      level2 = i64x2.sub(level2, f64x2.eq(label, f64x2.splat(2)));
      level3 = i64x2.sub(level3, f64x2.eq(label, f64x2.splat(3)));
      level4 = i64x2.sub(level4, f64x2.eq(label, f64x2.splat(4)));
    }
  }
  const numRel = lanes(rel2);
  // The threshold is > 0 (the host's check).
  const numNonrel = lanes(judged2) - numRel;
  let topLevel = 0;
  let outside = false; // a positive label off the table
  if (countLevels) {
    const c1 = lanes(level1);
    const c2 = lanes(level2);
    const c3 = lanes(level3);
    const c4 = lanes(level4);
    if (c1 + c2 + c3 + c4 == lanes(positive2) && gainTableLength > 4) {
      store<i32>(levelCount + 4, c1);
      store<i32>(levelCount + 8, c2);
      store<i32>(levelCount + 12, c3);
      store<i32>(levelCount + 16, c4);
      topLevel = c4 > 0 ? 4 : c3 > 0 ? 3 : c2 > 0 ? 2 : c1 > 0 ? 1 : 0;
    } else {
      topLevel = countByLevel(judged, jStart, jEnd);
      outside = topLevel < 0;
    }
  }
  let numIdeal = 0;
  if (countLevels && !outside) numIdeal = idealByLevel(topLevel, limit);
  else if (limit > 0 && limit <= TOP_K_MAX && gainMonotone) numIdeal = idealFromTop(judged, jStart, jEnd, limit);
  else if (limit > 0) numIdeal = idealBySort(judged, jStart, jEnd, limit);
  setQuery(scores, n, numRel, numNonrel, numIdeal, first);
}

/** Ties "best" / "worst": equal scores by label (NaN as 0), then row. */
function orderTiesByLabel(labels: usize, len: i32, best: bool): void {
  let runStart = 0;
  for (let i = 1; i <= len; i++) {
    if (i == len || f64At(keys, i) != f64At(keys, runStart)) {
      const t = i - runStart;
      if (t > 1) {
        for (let p = runStart; p < i; p++) {
          const label = f64At(labels, load<i32>(order + (<usize>p << 2)));
          const l = label == label ? label : 0;
          store<f64>(tmpA + (<usize>p << 3), best ? l : -l);
        }
        sortPairs(tmpA + (<usize>runStart << 3), order + (<usize>runStart << 2), t);
      }
      runStart = i;
    }
  }
}

/**
 * Ties "average" (McSherry & Najork, ECIR 2008): each measure's mean over every order of each tie. The
 * sorted order's prefix arrays are patched where ties (rare) change them. A tie of t documents, r
 * relevant, gains summing to G, at ranks a+1..a+t below c relevant ones, gives its place j:
 *   cumRel[a+j] = c + j r / t (exact again at the tie's end);
 *   a gain of G/t: cumDcg is recomputed from the first tie on;
 *   to AP's sum S, (r/t)(c + 1 + (j-1)(r-1)/(t-1)) / (a+j) (the other r-1 relevant fill t-1 places evenly).
 * S after a tie is off the given order's by a constant, kept per tie (state.ts tieStart ...) and read by
 * metrics/rank.ts apSumAt. A tie cut by depth keeps its first places, a random subset: the same per
 * place. Returns the first rank of the first tie holding a relevant document (0: none); its size and
 * relevant count go to state for first-relevant measures (metrics/rank.ts, relevance.ts).
 */
function averageTies(labels: usize, len: i32, n: i32, givenFirst: i32): i32 {
  const relDepth = imin(n, Depths.rel);
  const gainDepth = imin(n, Depths.gain);
  const apDepth = imin(n, Depths.ap);
  const deepest = max(relDepth, max(gainDepth, apDepth));
  const thr = threshold;
  const scoreAt = keys;
  const rows = order;
  const relAt = cumRel;
  const inverse = reciprocal;
  let first = givenFirst;
  let firstSize = 1;
  let firstRelevant = 1;
  let firstIsTie = false;
  let ties = 0;
  let deltaBefore: f64 = 0;
  let dcgFrom = -1; // the first tie within gainDepth
  let i = 0;
  while (i < deepest) {
    if (i + 1 >= len || f64At(scoreAt, i + 1) != f64At(scoreAt, i)) {
      i++;
      continue;
    }
    // The tie from rank a + 1 (past the depth too).
    const a = i;
    const key = f64At(scoreAt, a);
    let e = a + 2;
    while (e < len && f64At(scoreAt, e) == key) e++;
    const t = e - a;
    let r = 0;
    let gains: f64 = 0;
    for (let p = a; p < e; p++) {
      const label = f64At(labels, load<i32>(rows + (<usize>p << 2)));
      r += <i32>(label >= thr);
      gains += gainOf(label);
    }
    if (a < gainDepth && dcgFrom < 0) dcgFrom = a;
    // The given order's first relevant document is here or later: this tie is the first holding one.
    if (!firstIsTie && r > 0 && (first == 0 || first > a)) {
      first = a + 1;
      firstSize = t;
      firstRelevant = r;
      firstIsTie = true;
    }
    const c = a < relDepth ? <i32>f64At(relAt, a) : 0;
    const fr = <f64>r;
    const share = fr / <f64>t; // P(a tied place is relevant)
    const spread = t > 1 ? <f64>(r - 1) / <f64>(t - 1) : 0;
    const relStop = imin(e - 1, relDepth); // the last place is exact
    for (let p = a; p < relStop; p++) store<f64>(relAt + (<usize>(p + 1) << 3), <f64>c + (<f64>(p - a + 1) * fr) / <f64>t);
    // Expected terms of S within apDepth; the given order's, if whole.
    let expected: f64 = 0;
    if (a < apDepth && r > 0) {
      const apStop = imin(e, apDepth);
      for (let p = a; p < apStop; p++) expected += share * (<f64>c + 1 + <f64>(p - a) * spread) * f64At(inverse, p + 1);
    }
    let delta: f64 = 0;
    if (e <= apDepth) delta = expected - (f64At(apSum, c + r) - f64At(apSum, c));
    store<i32>(tieStart + (<usize>ties << 4), a);
    store<i32>(tieStart + (<usize>ties << 4) + 4, t);
    store<i32>(tieStart + (<usize>ties << 4) + 8, r);
    store<i32>(tieStart + (<usize>ties << 4) + 12, c);
    deltaBefore += delta;
    store<f64>(tieDelta + (<usize>ties << 4), deltaBefore); // differences summed to the tie's end
    store<f64>(tieDelta + (<usize>ties << 4) + 8, gains / <f64>t);
    ties++;
    i = e;
  }
  setTies(ties);
  if (dcgFrom >= 0) {
    // Each tied place gains its tie's mean gain.
    let dcg = f64At(cumDcg, dcgFrom);
    let g = 0;
    while (g < ties && load<i32>(tieStart + (<usize>g << 4)) < dcgFrom) g++;
    for (let p = dcgFrom; p < gainDepth; p++) {
      while (g < ties && load<i32>(tieStart + (<usize>g << 4)) + load<i32>(tieStart + (<usize>g << 4) + 4) <= p) g++;
      const inTie = g < ties && load<i32>(tieStart + (<usize>g << 4)) <= p;
      const gain = inTie ? f64At(tieDelta + (<usize>g << 4), 1) : gainOf(f64At(rankLabel, p));
      dcg += gain * f64At(discount, p + 1);
      store<f64>(cumDcg + (<usize>(p + 1) << 3), dcg);
    }
  }
  setFirstTie(first == 0 ? 0 : firstSize, first == 0 ? 0 : firstRelevant);
  return first;
}

// @ts-ignore: decorator
@inline function lanes(count: v128): i32 {
  return <i32>(i64x2.extract_lane(count, 0) + i64x2.extract_lane(count, 1));
}

/** Counts judged labels per level; returns the highest, or -1 for a positive label off the table. */
function countByLevel(judged: usize, jStart: i32, jEnd: i32): i32 {
  memory.fill(levelCount, 0, <usize>gainTableLength << 2);
  let topLevel = 0;
  for (let j = jStart; j < jEnd; j++) {
    const label = f64At(judged, j);
    const level = levelOf(label);
    if (level > 0) {
      const slot = levelCount + (<usize>level << 2);
      store<i32>(slot, load<i32>(slot) + 1);
      topLevel = max(topLevel, level);
    } else if (level < 0 && label > 0) {
      return -1;
    }
  }
  return topLevel;
}

/** With labels off the table, cutoffs up to this read the ideal from a kept top k; deeper ones sort. */
const TOP_K_MAX: i32 = 64;

function keepTop(label: f64, kept: i32, limit: i32): i32 {
  let i = kept < limit ? kept : limit - 1;
  while (i > 0 && f64At(idealKeys, i - 1) < label) {
    store<f64>(idealKeys + (<usize>i << 3), f64At(idealKeys, i - 1));
    i--;
  }
  store<f64>(idealKeys + (<usize>i << 3), label);
  return kept < limit ? kept + 1 : kept;
}

/** Each fills idcg[0..min(J, limit)] and returns J (idealFromTop: min(J, limit), the same to measures). */
function idealFromTop(judged: usize, jStart: i32, jEnd: i32, limit: i32): i32 {
  let kept = 0; // in idealKeys, descending
  let entry: f64 = 0; // the bar to be kept
  for (let j = jStart; j < jEnd; j++) {
    const label = f64At(judged, j);
    if (label > entry) {
      kept = keepTop(label, kept, limit);
      entry = kept == limit ? f64At(idealKeys, limit - 1) : 0;
    }
  }
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

/** Integer labels, monotone gains: the ideal from counts per level (as trec_eval), no sort. */
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
  const numIdeal = positiveJudged(judged, jStart, jEnd, true, idealKeys, idealIdx);
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

/** trec_eval -J after the depth cut (form_res_rels.c): keeps ranks judged >= 0. */
function keepJudged(labels: usize, n: i32): i32 {
  let kept = 0;
  for (let r = 0; r < n; r++) {
    const row = load<i32>(order + (<usize>r << 2));
    if (!(f64At(labels, row) >= 0)) continue;
    store<i32>(order + (<usize>kept << 2), row);
    store<f64>(keys + (<usize>kept << 3), f64At(keys, r));
    kept++;
  }
  return kept;
}

function breakTiesByDocid(len: i32): void {
  let runStart = 0;
  for (let i = 1; i <= len; i++) {
    if (i == len || f64At(keys, i) != f64At(keys, runStart)) {
      if (i - runStart > 1) sortByDocidDesc(order + (<usize>runStart << 2), i - runStart, docids, poolBytes, poolOffsets, tmpIdx);
      runStart = i;
    }
  }
}
