// Compatibility (Clarke, Vtyurina & Smucker, "Assessing top-k preferences", TOIS 2021), as ir_measures'
// compat provider computes it (providers/compat_provider.py); definition: src/reference/formulas-graded.ts.
// rankeval orders the ideal ranking's ties (equal label and score) by the run's order, retrieved
// documents before unretrieved ones at score 0; ir_measures by the qrels' order (README).
import { N, rankLabel, scores, order, judged, judgedStart, judgedEnd, f64At, i32At } from "../state";
import { sortPairs } from "../sort";
import { extraA, extraB, extraIdx, extraIdx2 } from "./extra-scratch";

export function compat(p: f64, normalize: bool): f64 {
  // The retrieved documents with a label > 0: their label (extraA) and rank (extraIdx), sorted by label
  // descending, rank ascending.
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
  // Every judged label > 0, descending (extraB), to count the unretrieved documents of each label.
  let total = 0;
  for (let j = judgedStart; j < judgedEnd; j++) {
    const label = f64At(judged, j);
    if (label > 0) {
      store<f64>(extraB + (<usize>total << 3), label);
      store<i32>(extraIdx2 + (<usize>total << 2), total);
      total++;
    }
  }
  sortPairs(extraB, extraIdx2, total);
  // Each retrieved relevant document's place in the ideal ranking; then, per depth i, the overlap
  // counts the documents whose rank and ideal place are both <= i: a histogram of their max (extraIdx2).
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
    // Retrieved documents of this label with a score >= 0, in rank order; then the unretrieved ones
    // (score 0); then those with a score below 0.
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

/** Counts a document at rank r (0-based) and ideal place q in the histogram of max(r, q). */
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
