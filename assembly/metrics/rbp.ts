// Rank-biased precision (Moffat & Zobel 2008), as trec_eval computes it.
//
// rbp(p)       = (1 - p) sum_{i=1..N} g_i p^(i-1), g_i = gain(label_i) / s, where s = the largest gain of
//                the levels 0..L (L = the query's highest judged label >= 0) when that exceeds 1, else
//                1: trec_eval rescales its gains (g - min)/(max - min) over those levels, per query,
//                when any lies outside [0, 1] (min = gain(0) = 0). Default p = 0.9.  trec_eval rbp
//                (trec_eval reads min and max uninitialised; this is the intended definition.)
// rbp_resid(p) = p^N + (1 - p) sum over ranks i holding a document without a judgment or with a
//                negative label of p^(i-1); 0 when there is no such document (trec_eval's quirk:
//                the tail p^N is only added then).                    trec_eval rbp_resid
import {
  N, rankLabel, gainOf, gainTable, gainTableLength, judged, judgedStart, judgedEnd, levelOf, f64At,
} from "../state";

/** The largest gain over the levels 0..L, L the highest judged label >= 0 (-1 when none is). */
function maxLevelGain(): f64 {
  let top: f64 = -1;
  for (let j = judgedStart; j < judgedEnd; j++) {
    const label = f64At(judged, j);
    if (label > top) top = label;
  }
  if (top < 0) return 0;
  // Integer levels in the table (custom tables need not grow with the label), then the top label's
  // own gain, which bounds the gains of the levels past the table (linear or exponential there).
  let best = gainOf(top);
  const last = levelOf(top) >= 0 ? <i32>top : (top >= <f64>gainTableLength ? gainTableLength - 1 : <i32>top);
  for (let l = 0; l <= last; l++) {
    const g = f64At(gainTable, l);
    if (g > best) best = g;
  }
  return best;
}

export function rbp(p: f64): f64 {
  const top = maxLevelGain();
  const scale = top > 1 ? top : 1;
  let weight: f64 = 1; // p^(i-1)
  let sum: f64 = 0;
  for (let i = 0; i < N; i++) {
    const g = gainOf(f64At(rankLabel, i));
    if (g != 0) sum += (g / scale) * weight;
    weight *= p;
  }
  return (1 - p) * sum;
}

export function rbpResidual(p: f64): f64 {
  let weight: f64 = 1;
  let sum: f64 = 0;
  let any = false;
  for (let i = 0; i < N; i++) {
    if (!(f64At(rankLabel, i) >= 0)) {
      any = true;
      sum += weight;
    }
    weight *= p;
  }
  return any ? weight + (1 - p) * sum : 0;
}
