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
import { N, R, cumRel, relRank, ipAt, querySerial, f64At, i32At } from "../state";

/** lround for x >= 0: halves away from zero. (x − floor(x) is exact in doubles.) */
// @ts-ignore: decorator
@inline function roundHalfUp(x: f64): f64 {
  const f = Math.floor(x);
  return x - f >= 0.5 ? f + 1 : f;
}

/** The query ipAt was made for (querySerial). */
let ipQuery: i32 = -1;

/**
 * Interpolated precision at each count c of relevant documents retrieved: ipAt[c] = the best P(j) at
 * ranks j >= r_c. Precision only rises at a relevant rank (at any other it falls), so that best is
 * at one of the relevant ranks r_c, r_c+1, ...: a suffix maximum of m / r_m over them, from the
 * relevant ranks relRank lists. The same quotients as a walk up every rank gives, so the same value;
 * made once a query for its iprec_at_recall points instead of a walk for each.
 */
function fillIpAt(relRet: i32): void {
  let best: f64 = 0;
  for (let m = relRet; m >= 1; m--) {
    const p = <f64>m / <f64>i32At(relRank, m - 1);
    if (p > best) best = p;
    store<f64>(ipAt + (<usize>m << 3), best);
  }
}

export function iprecAtRecall(x: f64): f64 {
  const relRet = f64At(cumRel, N);
  const c = roundHalfUp(x * <f64>R);
  if (c > relRet || relRet == 0) return 0;
  if (ipQuery != querySerial) {
    fillIpAt(<i32>relRet);
    ipQuery = querySerial;
  }
  // c = 0 reads as c = 1: the best precision from the first relevant rank down.
  return f64At(ipAt, c < 1 ? 1 : <i32>c);
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
