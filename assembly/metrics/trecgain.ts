// trec_eval's experimental gain measures (m_G.c, m_ndcg_rel.c, m_Rndcg.c), over the ranked gains
// g_i = gain(label_i) (0 for documents without a judgment or with a negative label) and the ideal
// gains I_0 >= I_1 >= ... >= I_{J-1} > 0, the positive gains of all the query's judged documents
// sorted descending (I_i = 0 for i >= J); dcg(k) and idcg(k) their discounted sums over ranks 1..k.
//
// g        = (Σ_{i<N, g_i != 0} g_i / log2(2 + C_i − S_i)) / Σ I, with S_i = g_0 + ... + g_i and
//            C_i = Σ_{j<=i} max(I_j, 1); 0 if J = 0.                                    trec_eval G
// ndcg_rel = (Σ over ranks i with g_i > 0 of dcg(i) / idcg(min(i, J))
//             + (J − that count) · dcg(N) / idcg(J)) / J; 0 if J = 0.             trec_eval ndcg_rel
// rndcg    = the mean of dcg(min(i, N)) / idcg(i) over the i in 1..J where I_i != I_{i−1} (the ends
//            of the ideal gain levels; i = J always), and of dcg(N) / idcg(J) when N >= J + 2
//            (trec_eval's loop adds that point only then); 0 if R = 0; NaN (0/0) if J = 0 < R.
//                                                                                  trec_eval Rndcg
// Each walks the ranking once and the ideal gains once; the ideal gains are sorted in the idealKeys
// scratch, which query.ts only uses while ranking.
import {
  N, R, rankLabel, cumDcg, discount, idealKeys, idealIdx, judged, judgedStart, judgedEnd, gainOf, f64At,
} from "../state";
import { sortPairs } from "../sort";

/** Sorts the query's positive judged gains descending into idealKeys; returns J, their number. */
function idealGains(): i32 {
  let n = 0;
  for (let j = judgedStart; j < judgedEnd; j++) {
    const g = gainOf(f64At(judged, j));
    if (g > 0) {
      store<f64>(idealKeys + (<usize>n << 3), g);
      store<i32>(idealIdx + (<usize>n << 2), n);
      n++;
    }
  }
  sortPairs(idealKeys, idealIdx, n);
  return n;
}

// @ts-ignore: decorator
@inline function ideal(i: i32, j: i32): f64 {
  return i < j ? f64At(idealKeys, i) : 0;
}

export function trecG(): f64 {
  const J = idealGains();
  if (J == 0) return 0;
  let total: f64 = 0;
  for (let i = 0; i < J; i++) total += f64At(idealKeys, i);
  let results: f64 = 0;
  let cost: f64 = 0;
  let sum: f64 = 0;
  for (let i = 0; i < N; i++) {
    const g = gainOf(f64At(rankLabel, i));
    results += g;
    const ig = ideal(i, J);
    cost += ig >= 1 ? ig : 1;
    if (g != 0) sum += g / Math.log2(2 + cost - results);
  }
  return sum / total;
}

export function ndcgRel(): f64 {
  const J = idealGains();
  if (J == 0) return 0;
  let idcg: f64 = 0;
  let sum: f64 = 0;
  let counted = 0;
  for (let i = 0; i < N; i++) {
    if (i < J) idcg += f64At(idealKeys, i) * f64At(discount, i + 1);
    if (gainOf(f64At(rankLabel, i)) > 0) {
      sum += f64At(cumDcg, i + 1) / idcg;
      counted++;
    }
  }
  for (let i = N; i < J; i++) idcg += f64At(idealKeys, i) * f64At(discount, i + 1);
  sum += <f64>(J - counted) * f64At(cumDcg, N) / idcg;
  return sum > 0 ? sum / <f64>J : 0;
}

export function rndcg(): f64 {
  if (R == 0) return 0;
  const J = idealGains();
  let idcg: f64 = 0;
  let sum: f64 = 0;
  let points = 0;
  for (let i = 1; i <= J; i++) {
    idcg += f64At(idealKeys, i - 1) * f64At(discount, i);
    if (ideal(i, J) != f64At(idealKeys, i - 1)) {
      sum += f64At(cumDcg, i < N ? i : N) / idcg;
      points++;
    }
  }
  if (J > 0 && N >= J + 2) {
    sum += f64At(cumDcg, N) / idcg;
    points++;
  }
  return sum / <f64>points;
}
