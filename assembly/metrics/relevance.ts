// Binary relevance measures (src/reference/formulas-relevance.ts). Ranks past the list are non-relevant
// (trec_eval's padding); 0 where a denominator is 0.
import {
  N, R, NR, cumRel, firstRel, firstTieSize, firstTieRelevant, tieMode, TieMode, rankLabel, threshold, discount,
  relRank, ipAt, querySerial, f64At, i32At, ranksFor,
} from "../ranking/state";

export function numRet(): f64 {
  return <f64>N;
}

export function numRel(): f64 {
  return <f64>R;
}

export function numRelRet(): f64 {
  return f64At(cumRel, N);
}

export function precision(k: i32): f64 {
  const n = ranksFor(k);
  const denominator = k == 0 ? n : k; // precision without a cutoff is over the whole list (set_P)
  return denominator == 0 ? 0 : f64At(cumRel, n) / <f64>denominator;
}

export function recall(k: i32): f64 {
  return R == 0 ? 0 : f64At(cumRel, ranksFor(k)) / <f64>R;
}

export function f1(k: i32): f64 {
  const p = precision(k);
  const r = recall(k);
  return p + r == 0 ? 0 : (2 * p * r) / (p + r);
}

/** Ties "average": P(rel(k) > 0). */
export function hitRate(k: i32): f64 {
  if (tieMode != TieMode.AVERAGE) return f64At(cumRel, ranksFor(k)) > 0 ? 1 : 0;
  // 1 - C(t - r, m) / C(t, m) in the first tie holding a relevant document, m = k - a of its t places.
  if (firstRel == 0) return 0;
  const m = ranksFor(k) - (firstRel - 1);
  const t = firstTieSize;
  const r = firstTieRelevant;
  if (m <= 0) return 0;
  if (m >= t - r + 1) return 1;
  let none: f64 = 1;
  for (let i = 0; i < m; i++) none *= <f64>(t - r - i) / <f64>(t - i);
  return 1 - none;
}

export function hits(k: i32): f64 {
  return f64At(cumRel, ranksFor(k));
}

export function rPrecision(): f64 {
  return R == 0 ? 0 : f64At(cumRel, R < N ? R : N) / <f64>R;
}

/** trec_eval's relative_P_k, unj_k; ir_measures' Judged@k. */
export function relativeP(k: i32): f64 {
  if (R == 0) return 0;
  const best = k < R ? k : R;
  return f64At(cumRel, ranksFor(k)) / <f64>best;
}

export function unjudgedAt(k: i32): f64 {
  const n = ranksFor(k);
  let unjudged = 0;
  for (let r = 0; r < n; r++) unjudged += <i32>!(f64At(rankLabel, r) >= 0); // NaN or negative
  const denominator = k == 0 ? N : k;
  return denominator == 0 ? 0 : <f64>unjudged / <f64>denominator;
}

export function judgedAt(k: i32): f64 {
  const n = ranksFor(k);
  let judged = 0;
  for (let r = 0; r < n; r++) judged += <i32>(f64At(rankLabel, r) == f64At(rankLabel, r)); // not NaN
  return n == 0 ? 0 : <f64>judged / <f64>n;
}

// trec_eval's set measures: N documents, rel(N) relevant, unordered.
export function setP(): f64 {
  return N == 0 ? 0 : numRelRet() / <f64>N;
}

export function setRelativeP(): f64 {
  const best = N < R ? N : R;
  return best == 0 ? 0 : numRelRet() / <f64>best;
}

export function setRecall(): f64 {
  return R == 0 ? 0 : numRelRet() / <f64>R;
}

export function setMap(): f64 {
  const a = numRelRet();
  return N == 0 || R == 0 ? 0 : (a * a) / (<f64>N * <f64>R);
}

export function setF(beta: f64): f64 {
  const a = numRelRet();
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

/** trec_eval's bpref: unjudged documents (NaN or negative) skipped. */
export function bpref(): f64 {
  if (R == 0) return 0;
  const cap = <f64>(NR < R ? NR : R);
  let nonrelAbove = 0;
  let sum: f64 = 0;
  for (let r = 0; r < N; r++) {
    const label = f64At(rankLabel, r);
    if (!(label >= 0)) continue; // NaN or negative
    if (label >= threshold) {
      sum += nonrelAbove == 0 ? 1 : 1 - <f64>(nonrelAbove < R ? nonrelAbove : R) / cap;
    } else {
      nonrelAbove++;
    }
  }
  return sum / <f64>R;
}

// trec_eval's infAP (Yilmaz & Aslam 2006) and binG: unjudged ("nonpool") documents take positions but
// are not counted; negative labels are "unjudged".
const INFAP_EPSILON: f64 = 0.00001;

export function infAP(): f64 {
  if (R == 0) return 0;
  let rel = 0;
  let nonrel = 0;
  let unjudged = 0;
  let sum: f64 = 0;
  for (let j = 0; j < N; j++) {
    const label = f64At(rankLabel, j);
    if (label != label) continue; // nonpool
    if (label < 0) {
      unjudged++;
    } else if (label < threshold) {
      nonrel++;
    } else {
      if (j == 0) {
        sum += 1;
      } else {
        const fj = <f64>j;
        sum += 1 / (fj + 1) + (fj / (fj + 1)) * (<f64>(rel + nonrel + unjudged) / fj) *
          ((<f64>rel + INFAP_EPSILON) / (<f64>(rel + nonrel) + 2 * INFAP_EPSILON));
      }
      rel++;
    }
  }
  return sum / <f64>R;
}

export function binG(): f64 {
  if (R == 0) return 0;
  let rel = 0;
  let sum: f64 = 0;
  for (let i = 0; i < N; i++) {
    if (f64At(rankLabel, i) >= threshold) {
      // 1 / log2(2 + m) is the discount of rank m + 1; m = i - rel <= N - 1.
      sum += f64At(discount, i - rel + 1);
      rel++;
    }
  }
  return sum / <f64>R;
}

/** trec_eval's utility: the weighted retrieved x relevant table; n: -N. */
export function utility(a: f64, b: f64, c: f64, d: f64, n: f64): f64 {
  const relRet = f64At(cumRel, N);
  return a * relRet + b * (<f64>N - relRet) + c * (<f64>R - relRet) + d * (n + relRet - <f64>N - <f64>R);
}

/** torchmetrics' RetrievalFallOut; 1 if NR = 0 (its empty_target_action "pos"). */
export function fallOut(k: i32): f64 {
  if (NR == 0) return 1;
  const n = ranksFor(k);
  let nonRelevant = 0;
  for (let r = 0; r < n; r++) {
    const label = f64At(rankLabel, r);
    nonRelevant += <i32>(label >= 0 && label < threshold); // false for NaN
  }
  return <f64>nonRelevant / <f64>NR;
}

/**
 * ir_measures' Accuracy (accuracy_provider.py): 1 - sum over relevant of (non-relevant above) / (rel x
 * non-rel). NaN without a relevant retrieved (ir_measures skips the query) or a non-relevant (it divides by 0).
 */
export function accuracy(k: i32): f64 {
  const n = ranksFor(k);
  let relevant: f64 = 0;
  let nonrelevant: f64 = 0;
  let misordered: f64 = 0;
  for (let r = 0; r < n; r++) {
    const label = f64At(rankLabel, r);
    if ((label == label ? label : 0) >= threshold) {
      relevant++;
      misordered += nonrelevant;
    } else nonrelevant++;
  }
  if (relevant == 0 || nonrelevant == 0) return NaN;
  return 1 - misordered / (nonrelevant * relevant);
}

// trec_eval's recall-level measures: iprec_at_recall's c = lround(x R) (trec_eval 10; 9.x used
// (long)(x R + 0.9)); rprec_mult's c = (long)(x R + 0.9).
/** lround for x >= 0: halves away from zero. (x − floor(x) is exact in doubles.) */
// @ts-ignore: decorator
@inline function roundHalfUp(x: f64): f64 {
  const f = Math.floor(x);
  return x - f >= 0.5 ? f + 1 : f;
}

let ipQuery: i32 = -1;

/** ipAt[c] = max P(j) at ranks j >= r_c: a suffix maximum of m / r_m (precision rises only at relevant ranks). */
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
  // c = 0 reads as c = 1.
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
