// Pairwise agreement between the ranking and the labels (unjudged documents count as label 0).
//
// inversions  = number of pairs ranked i < j with label_i < label_j: the adjacent swaps bubble sort
//               needs to order the labels as ranked (the MSLR notebook's "pairwise difference"),
//               counted by merge sort in O(n log n).
// kendall_tau = Kendall's tau-b between scores and labels (scipy.stats.kendalltau's default):
//               (n0 - n1 - n2 + n3 - 2 D) / sqrt((n0 - n1)(n0 - n2)), n0 = n(n-1)/2, n1 pairs tied in
//               score, n2 tied in label, n3 tied in both, D discordant (Knight 1966). 0 when undefined.
import { N, keys, rankLabel, tmpA, tmpB, f64At } from "../state";
import { sortDescCountInversions } from "../sort";

// @ts-ignore: decorator
@inline function labelAt(r: i32): f64 {
  const l = f64At(rankLabel, r);
  return l == l ? l : 0;
}

export function inversions(): f64 {
  for (let r = 0; r < N; r++) store<f64>(tmpA + (<usize>r << 3), labelAt(r));
  return sortDescCountInversions(tmpA, N, tmpB);
}

// @ts-ignore: decorator
@inline function tiedPairs(t: i32): f64 {
  return (<f64>t * <f64>(t - 1)) / 2;
}

export function kendallTau(): f64 {
  const n = N;
  let n1: f64 = 0;
  let n3: f64 = 0;
  // Within each run of equal scores, sort the labels descending: pairs tied in score then never
  // count as discordant, and equal labels sit together so n3 can be counted.
  let runStart = 0;
  for (let r = 0; r < n; r++) store<f64>(tmpA + (<usize>r << 3), labelAt(r));
  for (let i = 1; i <= n; i++) {
    if (i == n || f64At(keys, i) != f64At(keys, runStart)) {
      const t = i - runStart;
      if (t > 1) {
        n1 += tiedPairs(t);
        const run = tmpA + (<usize>runStart << 3);
        sortDescCountInversions(run, t, tmpB);
        let same = 1;
        for (let j = 1; j <= t; j++) {
          if (j < t && f64At(run, j) == f64At(run, j - 1)) same++;
          else {
            n3 += tiedPairs(same);
            same = 1;
          }
        }
      }
      runStart = i;
    }
  }
  const discordant = sortDescCountInversions(tmpA, n, tmpB);
  let n2: f64 = 0;
  let same = 1;
  for (let j = 1; j <= n; j++) {
    if (j < n && f64At(tmpA, j) == f64At(tmpA, j - 1)) same++;
    else {
      n2 += tiedPairs(same);
      same = 1;
    }
  }
  const n0 = tiedPairs(n);
  const denominator = Math.sqrt((n0 - n1) * (n0 - n2));
  return denominator > 0 ? (n0 - n1 - n2 + n3 - 2 * discordant) / denominator : 0;
}
