// trec_eval's set measures: the ranked list read as an unordered set of N documents, of which
// rel(N) = num_rel_ret are relevant. 0 where a denominator is 0.
//
// set_p                 = rel(N) / N                                   trec_eval set_P
// set_relative_p        = rel(N) / min(N, R)                           trec_eval set_relative_P
// set_recall            = rel(N) / R                                   trec_eval set_recall
// set_map               = rel(N)^2 / (N R)  (set_P times set_recall)   trec_eval set_map
// set_f(beta)           = (beta + 1) P Rc / (beta P + Rc), P = set_p, Rc = set_recall; 0 if rel(N) = 0
//                         (beta weighs recall against precision, default 1)   trec_eval set_F
// num_nonrel_judged_ret = ranked documents judged non-relevant: 0 <= label < threshold
//                         (N - nonpool - unjudged - num_rel_ret)       trec_eval num_nonrel_judged_ret
import { N, R, cumRel, rankLabel, threshold, f64At } from "../state";

// @ts-ignore: decorator
@inline function relRet(): f64 {
  return f64At(cumRel, N);
}

export function setP(): f64 {
  return N == 0 ? 0 : relRet() / <f64>N;
}

export function setRelativeP(): f64 {
  const best = N < R ? N : R;
  return best == 0 ? 0 : relRet() / <f64>best;
}

export function setRecall(): f64 {
  return R == 0 ? 0 : relRet() / <f64>R;
}

export function setMap(): f64 {
  const a = relRet();
  return N == 0 || R == 0 ? 0 : (a * a) / (<f64>N * <f64>R);
}

export function setF(beta: f64): f64 {
  const a = relRet();
  if (a == 0) return 0;
  const p = a / <f64>N;
  const rc = a / <f64>R;
  return ((beta + 1) * p * rc) / (beta * p + rc);
}

export function numNonrelJudgedRet(): f64 {
  let count = 0;
  for (let r = 0; r < N; r++) {
    const label = f64At(rankLabel, r);
    count += <i32>(label >= 0) & <i32>(label < threshold);
  }
  return <f64>count;
}
