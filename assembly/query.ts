// One query's ranking and prefix sums: the single sort, then every prefix array the requested
// measures read. Everything else in the kernel reads from here.

import {
  keys, order, rankLabel, cumRel, cumDcg, cumAp, idealKeys, idealIdx, idcg, tmpIdx, discount, threshold,
  depth, docids, poolBytes, poolOffsets, gainOf, f64At, setQuery,
} from "./state";
import { sortPairs, descendingKey, sortByDocidDesc } from "./sort";

/** Which prefix arrays the batch's measures read (bits). */
export const enum Needs { GAIN = 1, AP = 2, IDEAL = 4 }

/**
 * Ranks rows [start, end) by score descending; ties in input order, or by document id descending
 * (byte order) when the host gave document ids: trec_eval's order. Then fills the label and prefix
 * arrays for the top `depth` ranks.
 */
export function rankQuery(scores: usize, labels: usize, start: i32, end: i32, judged: usize, jStart: i32, jEnd: i32, needs: i32): void {
  const len = end - start;
  for (let i = 0; i < len; i++) {
    store<u64>(keys + (<usize>i << 3), descendingKey(f64At(scores, start + i)));
    store<i32>(order + (<usize>i << 2), start + i);
  }
  sortPairs(keys, order, len);
  if (docids != 0) breakTiesByDocid(len);

  const n = len < depth ? len : depth;
  let first = 0;
  let rel: f64 = 0;
  store<f64>(cumRel, 0);
  for (let r = 0; r < n; r++) {
    const label = f64At(labels, load<i32>(order + (<usize>r << 2)));
    store<f64>(rankLabel + (<usize>r << 3), label);
    if (label >= threshold) {
      rel += 1;
      if (first == 0) first = r + 1;
    }
    store<f64>(cumRel + (<usize>(r + 1) << 3), rel);
  }
  if (needs & Needs.GAIN) {
    let dcg: f64 = 0;
    store<f64>(cumDcg, 0);
    for (let r = 0; r < n; r++) {
      dcg += gainOf(f64At(rankLabel, r)) * f64At(discount, r + 1);
      store<f64>(cumDcg + (<usize>(r + 1) << 3), dcg);
    }
  }
  if (needs & Needs.AP) {
    let sum: f64 = 0;
    store<f64>(cumAp, 0);
    for (let r = 0; r < n; r++) {
      if (f64At(rankLabel, r) >= threshold) sum += f64At(cumRel, r + 1) / <f64>(r + 1);
      store<f64>(cumAp + (<usize>(r + 1) << 3), sum);
    }
  }

  // Judgments: every judged document of the query, retrieved or not.
  let numRel = 0;
  let numNonrel = 0;
  let numIdeal = 0;
  for (let j = jStart; j < jEnd; j++) {
    const label = f64At(judged, j);
    if (label >= threshold) numRel++;
    else if (label >= 0) numNonrel++;
    if (needs & Needs.IDEAL) {
      const g = gainOf(label);
      if (g > 0) {
        // Positive doubles order as their bit patterns do; inverted, ascending keys = descending gains.
        store<u64>(idealKeys + (<usize>numIdeal << 3), ~reinterpret<u64>(g));
        store<i32>(idealIdx + (<usize>numIdeal << 2), numIdeal);
        numIdeal++;
      }
    }
  }
  if (needs & Needs.IDEAL) {
    sortPairs(idealKeys, idealIdx, numIdeal);
    let sum: f64 = 0;
    store<f64>(idcg, 0);
    for (let i = 0; i < numIdeal; i++) {
      sum += reinterpret<f64>(~load<u64>(idealKeys + (<usize>i << 3))) * f64At(discount, i + 1);
      store<f64>(idcg + (<usize>(i + 1) << 3), sum);
    }
  }
  setQuery(scores, n, numRel, numNonrel, numIdeal, first);
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
