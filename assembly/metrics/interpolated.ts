// trec_eval's recall-level measures. P(j) = rel(j) / j is the precision at rank j.
//
// iprec_at_recall(recall=x) = 0 if c > rel(N), else max over ranks j >= r_c of P(j), with
//   c = lround(x R) (trec_eval 10; 9.x used (long)(x R + 0.9)) relevant documents to reach and
//   r_c the rank of the c-th relevant document (c = 0: of the first; none relevant: 0)
//                                                             trec_eval iprec_at_recall_x
// 11pt_avg                  = (1/11) sum over x = 0.0, 0.1, ..., 1.0 of iprec_at_recall(x)
//                                                             trec_eval 11pt_avg
// rprec_mult(x=x)           = rel(c) / c with c = (long)(x R + 0.9), ranks past N non-relevant;
//                             0 if c = 0                      trec_eval Rprec_mult_x
import { N, R, cumRel, rankLabel, threshold, f64At } from "../state";

/** lround for x >= 0: halves away from zero. (x − floor(x) is exact in doubles.) */
// @ts-ignore: decorator
@inline function roundHalfUp(x: f64): f64 {
  const f = Math.floor(x);
  return x - f >= 0.5 ? f + 1 : f;
}

export function iprecAtRecall(x: f64): f64 {
  const relRet = f64At(cumRel, N);
  const c = roundHalfUp(x * <f64>R);
  if (c > relRet || N == 0) return 0;
  // Walk up from the bottom, keeping the best precision seen, until the c-th relevant document.
  let best = relRet / <f64>N;
  let relSoFar = relRet;
  for (let i = N; i > 0 && relSoFar > 0; i--) {
    const p = relSoFar / <f64>i;
    if (p > best) best = p;
    if (f64At(rankLabel, i - 1) >= threshold) {
      if (relSoFar == c) return best;
      relSoFar--;
    }
  }
  return best;
}

export function elevenPointAverage(): f64 {
  let sum: f64 = 0;
  for (let j = 10; j >= 0; j--) sum += iprecAtRecall(<f64>j / 10);
  return sum / 11;
}

export function rPrecisionMult(x: f64): f64 {
  const c = <i64>(x * <f64>R + 0.9); // C's (long) cast: truncation
  if (c <= 0) return 0;
  const n = c < <i64>N ? <i32>c : N;
  return f64At(cumRel, n) / <f64>c;
}
