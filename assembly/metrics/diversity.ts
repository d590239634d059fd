// Diversity measures as ndeval.c 4.5 (src/reference/formulas-subtopic.ts). At k = 1 ndeval leaves
// alpha-DCG and ERR-IA unnormalised (it normalises from rank 2), as here. The ideal ranking's ties: the
// greatest document id, first in the host's order.
import { N, order, threshold, f64At, i32At } from "../ranking/state";

// (subtopic, judgment) pairs per ranked row and per judged document (descending id).
let subtopics: usize = 0; // i32 per query
let rowOffsets: usize = 0; // i32 per row + 1
let rowSub: usize = 0; // i32 per pair
let rowGrade: usize = 0; // f64 per pair
let docOffsets: usize = 0; // i32 per query + 1
let docPairs: usize = 0; // i32 per judged document + 1
let docSub: usize = 0;
let docGrade: usize = 0;
let active: bool = false;

// Scratch: per rank (maxN + 1), per judged document (maxD + 1), per subtopic (maxS).
let runDcg: usize = 0; // f64: at [r], raw DCG of ranks 0..r-1
let runErr: usize = 0; // f64
let runPairs: usize = 0; // f64: relevant pairs
let runCovered: usize = 0; // f64: subtopics covered
let idealDcg: usize = 0; // f64: runDcg of the ideal ranking
let idealErr: usize = 0;
let picked: usize = 0; // i32 per judged document: taken by the greedy ranking
let gain: usize = 0; // f64 per subtopic
let count: usize = 0; // i32 per subtopic: relevant documents seen (MAP-IA), or covered (strec)
let total: usize = 0; // f64 per subtopic: MAP-IA's sum
let judgedRel: usize = 0; // i32 per subtopic: relevant judged documents (R_j)

export function diversityScratchBytes(maxN: i32, maxD: i32, maxS: i32): f64 {
  return (<f64>maxN + 1) * 8 * 4 + (<f64>maxD + 1) * (8 * 2 + 4) + (<f64>maxS + 1) * (8 * 2 + 4 * 2) + 64;
}

export function configureDiversity(
  subs: usize, ro: usize, rs: usize, rg: usize, dOff: usize, dPairs: usize, ds: usize, dg: usize, scratch: usize, maxN: i32, maxD: i32, maxS: i32,
): void {
  subtopics = subs;
  rowOffsets = ro;
  rowSub = rs;
  rowGrade = rg;
  docOffsets = dOff;
  docPairs = dPairs;
  docSub = ds;
  docGrade = dg;
  active = true;
  let p = (scratch + 7) & ~(<usize>7);
  const n = <usize>maxN + 1;
  const d = <usize>maxD + 1;
  const s = <usize>maxS + 1;
  runDcg = p; p += n * 8;
  runErr = p; p += n * 8;
  runPairs = p; p += n * 8;
  runCovered = p; p += n * 8;
  idealDcg = p; p += d * 8;
  idealErr = p; p += d * 8;
  gain = p; p += s * 8;
  total = p; p += s * 8;
  picked = p; p += d * 4;
  count = p; p += s * 4;
  judgedRel = p;
}

export function clearDiversity(): void {
  active = false;
}

export function diversityActive(): bool {
  return active;
}

// The current query, and the alpha and beta computed with.
let query: i32 = 0;
let doneSerial: i32 = -1;
let doneAlpha: f64 = NaN;
let doneBeta: f64 = NaN;
let m: i32 = 0;
let nrbp: f64 = 0;
let idealNrbp: f64 = 0;
let idealLength: i32 = 0;
let mapIa: f64 = 0;

export function setDiversityQuery(q: i32): void {
  query = q;
}

function compute(serial: i32, alpha: f64, beta: f64): void {
  if (doneSerial == serial && doneAlpha == alpha && doneBeta == beta) return;
  doneSerial = serial;
  doneAlpha = alpha;
  doneBeta = beta;
  const S = i32At(subtopics, query);
  const d0 = i32At(docOffsets, query);
  const d1 = i32At(docOffsets, query + 1);
  const thr = threshold;
  for (let j = 0; j < S; j++) store<i32>(judgedRel + (<usize>j << 2), 0);
  for (let d = d0; d < d1; d++) {
    for (let p = i32At(docPairs, d); p < i32At(docPairs, d + 1); p++) {
      if (f64At(docGrade, p) >= thr) {
        const at = judgedRel + (<usize>i32At(docSub, p) << 2);
        store<i32>(at, load<i32>(at) + 1);
      }
    }
  }
  m = 0;
  for (let j = 0; j < S; j++) if (i32At(judgedRel, j) > 0) m++;
  for (let j = 0; j < S; j++) {
    store<f64>(gain + (<usize>j << 3), 1);
    store<i32>(count + (<usize>j << 2), 0);
    store<f64>(total + (<usize>j << 3), 0);
  }
  const keep = 1 - alpha;
  let dcg: f64 = 0;
  let err: f64 = 0;
  let pairs: f64 = 0;
  let covered: f64 = 0;
  let decay: f64 = 1;
  nrbp = 0;
  store<f64>(runDcg, 0);
  store<f64>(runErr, 0);
  store<f64>(runPairs, 0);
  store<f64>(runCovered, 0);
  for (let r = 0; r < N; r++) {
    const row = i32At(order, r);
    let score: f64 = 0;
    for (let p = i32At(rowOffsets, row); p < i32At(rowOffsets, row + 1); p++) {
      if (!(f64At(rowGrade, p) >= thr)) continue;
      const j = i32At(rowSub, p);
      const g = gain + (<usize>j << 3);
      score += load<f64>(g);
      store<f64>(g, load<f64>(g) * keep);
      pairs++;
      const c = count + (<usize>j << 2);
      const seen = load<i32>(c) + 1;
      if (seen == 1) covered++;
      store<i32>(c, seen);
      const t = total + (<usize>j << 3);
      store<f64>(t, load<f64>(t) + <f64>seen / <f64>(r + 1));
    }
    dcg += score * discountAt(r);
    err += score / <f64>(r + 1);
    nrbp += score * decay;
    decay *= beta;
    store<f64>(runDcg + (<usize>(r + 1) << 3), dcg);
    store<f64>(runErr + (<usize>(r + 1) << 3), err);
    store<f64>(runPairs + (<usize>(r + 1) << 3), pairs);
    store<f64>(runCovered + (<usize>(r + 1) << 3), covered);
  }
  const factor = (1 - keep * beta) / <f64>m;
  nrbp *= factor;
  mapIa = 0;
  for (let j = 0; j < S; j++) {
    const rj = i32At(judgedRel, j);
    if (rj > 0) mapIa += f64At(total, j) / <f64>rj;
  }
  mapIa /= <f64>m;
  // ndeval's greedy ideal, while a document adds to the score.
  for (let j = 0; j < S; j++) store<f64>(gain + (<usize>j << 3), 1);
  for (let d = d0; d < d1; d++) store<i32>(picked + (<usize>(d - d0) << 2), 0);
  idealLength = 0;
  idealNrbp = 0;
  decay = 1;
  dcg = 0;
  err = 0;
  store<f64>(idealDcg, 0);
  store<f64>(idealErr, 0);
  for (let r = 0; r < d1 - d0; r++) {
    let where = -1;
    let best: f64 = 0;
    for (let d = d0; d < d1; d++) {
      if (i32At(picked, d - d0)) continue;
      let s: f64 = 0;
      for (let p = i32At(docPairs, d); p < i32At(docPairs, d + 1); p++) {
        if (f64At(docGrade, p) >= thr) s += f64At(gain, i32At(docSub, p));
      }
      // Descending id: the first of the highest is ndeval's choice.
      if (where < 0 || s > best) {
        where = d;
        best = s;
      }
    }
    if (!(best > 0)) break;
    store<i32>(picked + (<usize>(where - d0) << 2), 1);
    for (let p = i32At(docPairs, where); p < i32At(docPairs, where + 1); p++) {
      if (f64At(docGrade, p) >= thr) {
        const g = gain + (<usize>i32At(docSub, p) << 3);
        store<f64>(g, load<f64>(g) * keep);
      }
    }
    dcg += best * discountAt(r);
    err += best / <f64>(r + 1);
    idealNrbp += best * decay;
    decay *= beta;
    idealLength = r + 1;
    store<f64>(idealDcg + (<usize>(r + 1) << 3), dcg);
    store<f64>(idealErr + (<usize>(r + 1) << 3), err);
  }
  idealNrbp *= factor;
}

/** ndeval's discount(r) = log(2) / log(r + 2), 0-based r. */
// @ts-ignore: decorator
@inline function discountAt(r: i32): f64 {
  return r == 0 ? 1 : Math.log(2.0) / Math.log(<f64>r + 2);
}

// @ts-ignore: decorator
@inline function prefix(a: usize, length: i32, k: i32): f64 {
  return f64At(a, k == 0 || k > length ? length : k);
}

/** The "ideal ideal": every subtopic covered at every rank 0..k-1. */
function idealIdeal(k: i32, alpha: f64, dcg: bool): f64 {
  let g = <f64>m;
  let sum: f64 = 0;
  for (let r = 0; r < k; r++) {
    sum += dcg ? g * discountAt(r) : g / <f64>(r + 1);
    g *= 1 - alpha;
  }
  return sum;
}

// @ts-ignore: decorator
@inline function depthOf(k: i32): i32 {
  return k == 0 ? (N > idealLength ? N : idealLength) : k;
}

/** alpha-DCG@k (over the "ideal ideal") or ERR-IA@k, as ndeval's normalised values. */
function collectionIndependent(k: i32, alpha: f64, dcg: bool): f64 {
  if (m == 0) return 0;
  const kk = k == 0 ? N : k;
  if (kk == 0) return 0;
  const raw = prefix(dcg ? runDcg : runErr, N, kk);
  return kk == 1 ? raw : raw / idealIdeal(kk, alpha, dcg);
}

export function alphaDcg(serial: i32, k: i32, alpha: f64): f64 {
  compute(serial, alpha, 0.5);
  return collectionIndependent(k, alpha, true);
}

export function errIa(serial: i32, k: i32, alpha: f64): f64 {
  compute(serial, alpha, 0.5);
  return collectionIndependent(k, alpha, false);
}

/** alpha-nDCG@k or nERR-IA@k (0 when the ranking's is 0). */
function collectionDependent(serial: i32, k: i32, alpha: f64, dcg: bool): f64 {
  compute(serial, alpha, 0.5);
  if (m == 0) return 0;
  const kk = depthOf(k);
  if (kk == 0) return 0;
  const run = prefix(dcg ? runDcg : runErr, N, kk);
  if (run == 0) return 0;
  const ideal = prefix(dcg ? idealDcg : idealErr, idealLength, kk);
  if (kk == 1) return run / ideal;
  const norm = idealIdeal(kk, alpha, dcg);
  return run / norm / (ideal / norm);
}

export function alphaNdcg(serial: i32, k: i32, alpha: f64): f64 {
  return collectionDependent(serial, k, alpha, true);
}

export function nerrIa(serial: i32, k: i32, alpha: f64): f64 {
  return collectionDependent(serial, k, alpha, false);
}

export function nrbpOf(serial: i32, alpha: f64, beta: f64): f64 {
  compute(serial, alpha, beta);
  return m == 0 ? 0 : nrbp;
}

/** nNRBP: NaN (0/0) without an actual subtopic, as ndeval. */
export function nnrbpOf(serial: i32, alpha: f64, beta: f64): f64 {
  compute(serial, alpha, beta);
  return m == 0 ? 0 : nrbp / idealNrbp;
}

export function mapIaOf(serial: i32): f64 {
  compute(serial, 0.5, 0.5);
  return m == 0 ? 0 : mapIa;
}

export function pIa(serial: i32, k: i32): f64 {
  compute(serial, 0.5, 0.5);
  if (m == 0) return 0;
  const kk = k == 0 ? N : k;
  if (kk == 0) return 0;
  return prefix(runPairs, N, kk) / <f64>(kk * m);
}

export function strec(serial: i32, k: i32): f64 {
  compute(serial, 0.5, 0.5);
  if (m == 0) return 0;
  return prefix(runCovered, N, k) / <f64>m;
}
