// Compatibility (Clarke, Vtyurina & Smucker, TOIS 2021) as ir_measures' compat_provider.py; the ideal
// ranking's ties by the run's order, retrieved before unretrieved at score 0 (ir_measures: qrels order).
import { N, rankLabel, scores, order, judged, judgedStart, judgedEnd, f64At, i32At, positiveJudged } from "../ranking/state";
import { sortPairs } from "../ranking/sort";
import { extraA, extraB, extraIdx, extraIdx2 } from "./extra-scratch";

export function compat(p: f64, normalize: bool): f64 {
  // Retrieved with label > 0: label (extraA), rank (extraIdx), by label desc, rank asc.
  let m = 0;
  for (let r = 0; r < N; r++) {
    const label = f64At(rankLabel, r);
    if (label > 0) {
      store<f64>(extraA + (<usize>m << 3), label);
      store<i32>(extraIdx + (<usize>m << 2), r);
      m++;
    }
  }
  sortPairs(extraA, extraIdx, m);
  // Every judged label > 0, descending (extraB).
  const total = positiveJudged(judged, judgedStart, judgedEnd, false, extraB, extraIdx2);
  sortPairs(extraB, extraIdx2, total);
  // Overlap at depth i: a histogram of max(rank, ideal place).
  const depth = N > total ? N : total;
  for (let i = 0; i <= depth; i++) store<i32>(extraIdx2 + (<usize>i << 2), 0);
  let place = 0; // next ideal place
  let a = 0; // next retrieved entry
  let b = 0; // next judged entry
  while (b < total) {
    const label = f64At(extraB, b);
    let count = 0; // judged documents of this label
    while (b < total && f64At(extraB, b) == label) {
      b++;
      count++;
    }
    let retrieved = 0;
    // Scores >= 0 in rank order, then the unretrieved (score 0), then scores below 0.
    let c = a;
    while (c < m && f64At(extraA, c) == label && f64At(scores, i32At(order, i32At(extraIdx, c))) >= 0) {
      mark(i32At(extraIdx, c), place);
      place++;
      c++;
      retrieved++;
    }
    let d = c;
    while (d < m && f64At(extraA, d) == label) {
      d++;
      retrieved++;
    }
    place += count - retrieved; // the unretrieved ones
    for (let e = c; e < d; e++) {
      mark(i32At(extraIdx, e), place);
      place++;
    }
    a = d;
  }
  const score = rbo(p, depth, -1);
  if (!normalize) return score;
  const best = rbo(p, depth, total);
  return best > 0 ? score / best : score;
}

function mark(r: i32, q: i32): void {
  const at = extraIdx2 + (<usize>(r > q ? r : q) << 2);
  store<i32>(at, load<i32>(at) + 1);
}

/**
 * RBO over `depth` ranks: of the ranking with the ideal (histogram in extraIdx2), or, with `ideal`
 * >= 0, of an ideal ranking of that length with itself.
 */
function rbo(p: f64, depth: i32, ideal: i32): f64 {
  let weight: f64 = 1;
  let score: f64 = 0;
  let normalizer: f64 = 0;
  let overlap = 0;
  for (let i = 0; i < depth; i++) {
    overlap = ideal >= 0 ? (i + 1 < ideal ? i + 1 : ideal) : overlap + load<i32>(extraIdx2 + (<usize>i << 2));
    score += (weight * <f64>overlap) / <f64>(i + 1);
    normalizer += weight;
    weight *= p;
  }
  return depth == 0 ? 0 : score / normalizer;
}
