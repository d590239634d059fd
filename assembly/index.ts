// The kernel's whole ABI. The host (src/kernel/) owns linear memory: it lays out the batch after
// heapBase(), calls configure() once and evaluate() once per batch, and reads the results back.
// Numbers only cross this boundary; nothing here allocates.

import { setConfiguration, NoRelevant, BeyondList, ALL } from "./state";
import { rankQuery, Depths } from "./query";
import { BUCKETS_PER_ROW } from "./sort";
import * as state from "./state";
import { numRet, numRel, numRelRet } from "./metrics/counts";
import { precision, recall, f1, hitRate, hits, rPrecision } from "./metrics/cutoff";
import { averagePrecision, reciprocalRank, mapLightgbm, mapXgboost, mapTorchmetrics, mapPtranking } from "./metrics/rank";
import { dcg, ndcg } from "./metrics/gain";
import { err } from "./metrics/err";
import { bpref } from "./metrics/bpref";
import { inversions, kendallTau } from "./metrics/pairs";
import { mse } from "./metrics/pointwise";
import { relativeP, unjudgedAt, judgedAt } from "./metrics/relative";
import { iprecAtRecall, elevenPointAverage, rPrecisionMult } from "./metrics/interpolated";
import { infAP, binG } from "./metrics/inferred";
import { rbp, rbpResidual } from "./metrics/rbp";
import { utility } from "./metrics/utility";
import { trecG, ndcgRel, rndcg } from "./metrics/trecgain";
import { setP, setRelativeP, setRecall, setMap, setF, numNonrelJudgedRet } from "./metrics/set";
import { cwl, CwlModel } from "./metrics/cwl";
import { compat } from "./metrics/compat";
import { accuracy } from "./metrics/accuracy";
import { extraBytes, layExtra } from "./metrics/extra-scratch";
import {
  clearDiversity, setDiversityQuery, diversityActive, alphaDcg, alphaNdcg, errIa, nerrIa, nrbpOf, nnrbpOf, mapIaOf, pIa, strec,
} from "./metrics/diversity";

/** Measure families. src/measures/registry.ts names each by this enum's member names. */
export enum Family {
  NUM_RET, NUM_REL, NUM_REL_RET, PRECISION, RECALL, F1, MAP, MRR, DCG, NDCG, ERR, R_PRECISION, BPREF,
  HIT_RATE, INVERSIONS, KENDALL_TAU, MSE,
  RELATIVE_P, SET_P, SET_RELATIVE_P, SET_RECALL, SET_MAP, SET_F, NUM_NONREL_JUDGED_RET, UNJ,
  IPREC_AT_RECALL, _11PT_AVG, RPREC_MULT, INFAP, BING, RBP, RBP_RESID, UTILITY,
  G, NDCG_REL, RNDCG, HITS, JUDGED, MAP_LIGHTGBM, MAP_XGBOOST, MAP_TORCHMETRICS, MAP_PTRANKING,
  NUMQ, SDCG, INST, INSQ, NERR8, NERR9, NERR10, NERR11, BPM, RBP_CWL, COMPAT, ACCURACY,
  ALPHA_DCG, ALPHA_NDCG, ERR_IA, NERR_IA, NRBP, NNRBP, MAP_IA, P_IA, STREC,
}

/**
 * Parameter slots per measure: evaluate()'s params hold PARAM_SLOTS f64 per measure, the family's
 * parameters in the order its registry row lists them (src/measures/registry.ts), unused slots 0.
 * Five is utility's count (a, b, c, d and the collection size n).
 */
export const PARAM_SLOTS: i32 = 5;

/** Spec flags, per measure. */
export const SPEC_NEEDS_RELEVANT: i32 = 1;

/** Called by src/kernel/: the first byte the host may use. */
export function heapBase(): usize {
  return __heap_base;
}

/**
 * Called by src/kernel/ to size the scratch region passed to configure(): maxN is the longest
 * ranking in the batch, maxJ the most judgments of one query, gainTableLength as for configure().
 */
export function scratchBytes(maxN: i32, maxJ: i32, gainTableLength: i32): usize {
  const n = <usize>maxN + 1;
  const j = <usize>maxJ + 1;
  return n * (8 * 9 + 4 * 3 + 4 * (BUCKETS_PER_ROW + 1)) + 16 + j * (8 * 2 + 4) + (<usize>gainTableLength << 2) + 64 + extraBytes(maxN, maxJ);
}

/**
 * Called by src/kernel/ before evaluate(). gainMode: 0 linear, 1 exp, 2 table. gainTable: f64, the
 * gain of each integer label 0..gainTableLength-1 (0 for label 0); gainMonotone: those gains never
 * decrease with the label. noRelevant: 0 zero, 1 one, 2 NaN. beyondList: state.ts BeyondList;
 * ties: state.ts TieMode. judgedOnly: after the depth cut, the documents without a judgment (NaN) or
 * with a negative label leave the ranking (trec_eval -J, which form_res_rels.c applies after -M).
 * discount: f64[maxRank + 1] with
 * discount[i] = 1/log2(i + 1). docids: i32 per row into the byte pool (poolBytes, poolOffsets i32[n+1])
 * for trec_eval's tie order, or 0 to keep ties in input order. scratch: scratchBytes(maxN, maxJ, gainTableLength) bytes.
 */
export function configure(
  gainMode: i32, gainTable: usize, gainTableLength: i32, gainMonotone: bool, threshold: f64, noRelevant: i32,
  beyondList: i32, ties: i32, depth: i32, judgedOnly: bool, discount: usize, docids: usize, poolBytes: usize, poolOffsets: usize,
  scratch: usize, maxN: i32, maxJ: i32,
): void {
  setConfiguration(gainMode, gainTable, gainTableLength, gainMonotone, threshold, noRelevant, beyondList, ties, depth, judgedOnly, discount, docids, poolBytes, poolOffsets);
  const n = <usize>maxN + 1;
  const j = <usize>maxJ + 1;
  let p = (scratch + 7) & ~(<usize>7);
  state.keys = p; p += n * 8;
  state.rankLabel = p; p += n * 8;
  state.cumRel = p; p += n * 8;
  state.cumDcg = p; p += n * 8;
  state.apSum = p; p += n * 8;
  state.tmpA = p; p += n * 8;
  state.tmpB = p; p += n * 8;
  state.ipAt = p; p += n * 8;
  state.reciprocal = p; p += n * 8;
  // 1/i for the ranks (ties "average" reads it for average precision: a multiplication a rank
  // where a division would cost several).
  if (ties == state.TieMode.AVERAGE) for (let i = 1; i <= maxN; i++) store<f64>(state.reciprocal + (<usize>i << 3), 1.0 / <f64>i);
  state.idealKeys = p; p += j * 8;
  state.idcg = p; p += j * 8;
  state.order = p; p += n * 4;
  state.relRank = p; p += n * 4;
  state.tmpIdx = p; p += n * 4 * (BUCKETS_PER_ROW + 1) + 16;
  state.idealIdx = p; p += j * 4;
  state.tieStart = state.tmpIdx;
  state.tieDelta = state.tmpB;
  state.levelCount = p;
  p += <usize>gainTableLength << 2;
  layExtra(p, maxN, maxJ);
  // Subtopic judgments come with configureDiversity(), called after this for a batch that has them.
  clearDiversity();
}

// Subtopic judgments (the diversity measures): see assembly/metrics/diversity.ts.
export { configureDiversity, diversityScratchBytes } from "./metrics/diversity";

/**
 * Called by src/kernel/ on each block of rows whose numbers the host has not checked: whether the
 * `count` doubles at `values` are all finite. x - x is 0 for a finite x and NaN for NaN and the
 * infinities, so the sums stay 0 only if all are; eight at a time, in four sums so that the
 * additions overlap instead of each waiting for the one before.
 */
export function allFinite(values: usize, count: i32): bool {
  let sum0 = f64x2.splat(0);
  let sum1 = sum0;
  let sum2 = sum0;
  let sum3 = sum0;
  let i = 0;
  for (; i + 7 < count; i += 8) {
    const p = values + (<usize>i << 3);
    const x0 = v128.load(p);
    const x1 = v128.load(p, 16);
    const x2 = v128.load(p, 32);
    const x3 = v128.load(p, 48);
    sum0 = f64x2.add(sum0, f64x2.sub(x0, x0));
    sum1 = f64x2.add(sum1, f64x2.sub(x1, x1));
    sum2 = f64x2.add(sum2, f64x2.sub(x2, x2));
    sum3 = f64x2.add(sum3, f64x2.sub(x3, x3));
  }
  const sum = f64x2.add(f64x2.add(sum0, sum1), f64x2.add(sum2, sum3));
  let total = f64x2.extract_lane(sum, 0) + f64x2.extract_lane(sum, 1);
  for (; i < count; i++) {
    const x = load<f64>(values + (<usize>i << 3));
    total += x - x;
  }
  return total == 0;
}

/**
 * Called by src/kernel/ once per batch. Query q's ranked rows are [offsets[q], offsets[q+1]) of
 * scores (f64) and labels (f64, NaN = unjudged); its judgments are [judgedOffsets[q],
 * judgedOffsets[q+1]) of judged (f64), which may alias labels/offsets when every row is judged.
 * Measure s is (families[s], cutoffs[s] (0 = none), params[s * PARAM_SLOTS ..+ PARAM_SLOTS], flags[s]);
 * its value for query q goes to out[s * numQueries + q].
 */
export function evaluate(
  numQueries: i32, offsets: usize, scores: usize, labels: usize, judgedOffsets: usize, judged: usize,
  numSpecs: i32, families: usize, cutoffs: usize, params: usize, flags: usize, out: usize,
): void {
  Depths.label = Depths.rel = Depths.gain = Depths.ap = Depths.ideal = 0;
  for (let s = 0; s < numSpecs; s++) {
    const k = load<i32>(cutoffs + (<usize>s << 2));
    addDepths(load<i32>(families + (<usize>s << 2)), k == 0 ? ALL : k);
  }
  const noRelValue: f64 = state.noRelevant == NoRelevant.ONE ? 1 : NaN;
  for (let q = 0; q < numQueries; q++) {
    const start = load<i32>(offsets + (<usize>q << 2));
    const end = load<i32>(offsets + (<usize>(q + 1) << 2));
    const jStart = load<i32>(judgedOffsets + (<usize>q << 2));
    const jEnd = load<i32>(judgedOffsets + (<usize>(q + 1) << 2));
    rankQuery(scores, labels, start, end, judged, jStart, jEnd);
    state.setJudgments(judged, jStart, jEnd);
    setDiversityQuery(q);
    for (let s = 0; s < numSpecs; s++) {
      let k = load<i32>(cutoffs + (<usize>s << 2));
      let v: f64;
      if (state.R == 0 && state.noRelevant != NoRelevant.ZERO && (load<i32>(flags + (<usize>s << 2)) & SPEC_NEEDS_RELEVANT)) {
        v = noRelValue;
      } else if (k > state.N && state.beyondList == BeyondList.NAN) {
        v = NaN;
      } else if (k > state.N && state.beyondList == BeyondList.ZERO) {
        v = 0;
      } else {
        // clip: read at k = N; an empty list (depth 0, or nothing kept by -J) scores 0 at any cutoff,
        // where k = 0 would read "no cutoff".
        if (k > state.N && state.beyondList == BeyondList.CLIP) k = state.N;
        v = k == 0 && state.N == 0 && load<i32>(cutoffs + (<usize>s << 2)) > 0 ? 0 : measure(load<i32>(families + (<usize>s << 2)), k, params + <usize>s * <usize>PARAM_SLOTS * 8);
      }
      store<f64>(out + ((<usize>s * <usize>numQueries + <usize>q) << 3), v);
    }
  }
}

/** Which prefix arrays a measure reads, and how deep (k = its cutoff, or ALL). */
function addDepths(family: i32, k: i32): void {
  switch (family) {
    case Family.NUM_RET: case Family.NUM_REL: break;
    case Family.PRECISION: case Family.RECALL: case Family.F1: case Family.HIT_RATE: case Family.HITS: case Family.MRR:
      Depths.rel = max(Depths.rel, k); break;
    case Family.NUM_REL_RET: case Family.R_PRECISION: Depths.rel = ALL; break;
    case Family.MAP: case Family.MAP_LIGHTGBM: case Family.MAP_TORCHMETRICS: case Family.MAP_PTRANKING:
      Depths.rel = max(Depths.rel, k); Depths.ap = max(Depths.ap, k); break;
    case Family.MAP_XGBOOST: Depths.rel = ALL; Depths.ap = max(Depths.ap, k); break; // divides by rel(N)
    case Family.DCG: Depths.gain = max(Depths.gain, k); break;
    case Family.NDCG: Depths.gain = max(Depths.gain, k); Depths.ideal = max(Depths.ideal, k); break;
    case Family.ERR: case Family.UNJ: case Family.JUDGED: Depths.label = max(Depths.label, k); break;
    case Family.RELATIVE_P: Depths.rel = max(Depths.rel, k); break;
    case Family.SET_P: case Family.SET_RELATIVE_P: case Family.SET_RECALL: case Family.SET_MAP: case Family.SET_F:
    case Family.IPREC_AT_RECALL: case Family._11PT_AVG: case Family.RPREC_MULT: case Family.UTILITY:
      Depths.rel = ALL; break;
    case Family.G: Depths.label = ALL; break;
    case Family.NUMQ: break;
    case Family.ALPHA_DCG: case Family.ALPHA_NDCG: case Family.ERR_IA: case Family.NERR_IA: case Family.NRBP: case Family.NNRBP:
    case Family.MAP_IA: case Family.P_IA: case Family.STREC:
      break; // they read the order (and their own judgments) only
    case Family.ACCURACY: Depths.label = max(Depths.label, k); break;
    case Family.NDCG_REL: case Family.RNDCG: Depths.gain = ALL; break;
    default: Depths.label = ALL; // bpref, inversions, kendall_tau, mse read every ranked label
  }
  Depths.label = max(Depths.label, max(Depths.rel, max(Depths.gain, Depths.ap)));
}

/** Parameter i of a measure whose slots start at p. */
// @ts-ignore: decorator
@inline function param(p: usize, i: i32): f64 {
  return load<f64>(p + (<usize>i << 3));
}

function measure(family: i32, k: i32, p: usize): f64 {
  switch (family) {
    case Family.NUM_RET: return numRet();
    case Family.NUM_REL: return numRel();
    case Family.NUM_REL_RET: return numRelRet();
    case Family.PRECISION: return precision(k);
    case Family.RECALL: return recall(k);
    case Family.F1: return f1(k);
    case Family.MAP: return averagePrecision(k);
    case Family.MAP_LIGHTGBM: return mapLightgbm(k);
    case Family.MAP_XGBOOST: return mapXgboost(k);
    case Family.MAP_TORCHMETRICS: return mapTorchmetrics(k);
    case Family.MAP_PTRANKING: return mapPtranking(k);
    case Family.MRR: return reciprocalRank(k);
    case Family.DCG: return dcg(k);
    case Family.NDCG: return ndcg(k);
    case Family.ERR: return err(k, param(p, 0));
    case Family.R_PRECISION: return rPrecision();
    case Family.BPREF: return bpref();
    case Family.HIT_RATE: return hitRate(k);
    case Family.HITS: return hits(k);
    case Family.JUDGED: return judgedAt(k);
    case Family.INVERSIONS: return inversions();
    case Family.KENDALL_TAU: return kendallTau();
    case Family.MSE: return mse();
    case Family.RELATIVE_P: return relativeP(k);
    case Family.SET_P: return setP();
    case Family.SET_RELATIVE_P: return setRelativeP();
    case Family.SET_RECALL: return setRecall();
    case Family.SET_MAP: return setMap();
    case Family.SET_F: return setF(param(p, 0));
    case Family.NUM_NONREL_JUDGED_RET: return numNonrelJudgedRet();
    case Family.UNJ: return unjudgedAt(k);
    case Family.IPREC_AT_RECALL: return iprecAtRecall(param(p, 0));
    case Family._11PT_AVG: return elevenPointAverage();
    case Family.RPREC_MULT: return rPrecisionMult(param(p, 0));
    case Family.INFAP: return infAP();
    case Family.BING: return binG();
    case Family.RBP: return rbp(param(p, 0));
    case Family.RBP_RESID: return rbpResidual(param(p, 0));
    case Family.UTILITY: return utility(param(p, 0), param(p, 1), param(p, 2), param(p, 3), param(p, 4));
    case Family.G: return trecG();
    case Family.NDCG_REL: return ndcgRel();
    case Family.RNDCG: return rndcg();
    case Family.NUMQ: return 1;
    case Family.SDCG: return cwl(CwlModel.SDCG, k, 0, param(p, 0), param(p, 1));
    case Family.INST: return cwl(CwlModel.INST, k, param(p, 0), param(p, 1), param(p, 2));
    case Family.INSQ: return cwl(CwlModel.INSQ, k, param(p, 0), param(p, 1), param(p, 2));
    case Family.NERR8: return cwl(CwlModel.NERR8, k, 0, param(p, 0), param(p, 1));
    case Family.NERR9: return cwl(CwlModel.NERR9, k, 0, param(p, 0), param(p, 1));
    case Family.NERR10: return cwl(CwlModel.NERR10, k, param(p, 0), param(p, 1), param(p, 2));
    case Family.NERR11: return cwl(CwlModel.NERR11, k, param(p, 0), param(p, 1), param(p, 2));
    case Family.BPM: return cwl(CwlModel.BPM, k, param(p, 0), param(p, 1), param(p, 2));
    case Family.RBP_CWL: return cwl(CwlModel.RBP, k, param(p, 0), 0, 1);
    case Family.COMPAT: return compat(param(p, 0), param(p, 1) != 0);
    case Family.ACCURACY: return accuracy(k);
    case Family.ALPHA_DCG: return diversityActive() ? alphaDcg(state.querySerial, k, param(p, 0)) : NaN;
    case Family.ALPHA_NDCG: return diversityActive() ? alphaNdcg(state.querySerial, k, param(p, 0)) : NaN;
    case Family.ERR_IA: return diversityActive() ? errIa(state.querySerial, k, param(p, 0)) : NaN;
    case Family.NERR_IA: return diversityActive() ? nerrIa(state.querySerial, k, param(p, 0)) : NaN;
    case Family.NRBP: return diversityActive() ? nrbpOf(state.querySerial, param(p, 0), param(p, 1)) : NaN;
    case Family.NNRBP: return diversityActive() ? nnrbpOf(state.querySerial, param(p, 0), param(p, 1)) : NaN;
    case Family.MAP_IA: return diversityActive() ? mapIaOf(state.querySerial) : NaN;
    case Family.P_IA: return diversityActive() ? pIa(state.querySerial, k) : NaN;
    case Family.STREC: return diversityActive() ? strec(state.querySerial, k) : NaN;
    default: return NaN;
  }
}

// The resampling of the significance tests (src/compare/): see assembly/compare.ts.
export { randomizationSums, bootstrapSums, tukeyRanges, permBytes, tukeyTableBytes, TILE_BLOCKS, TUKEY_CHUNK, RIFFLE_MAX_RUNS } from "./compare";

// TREC text parsed into per-row columns (src/io/_kernel_rows.ts): see assembly/parse.ts.
export {
  parseRunRows, parseQrelsRows, parseLetorRows, parseScoreRows, firstRepeated, querySpans, PARSE_PAD, ST_LETOR, LETOR_KNOWN, LETOR_QID, LETOR_DOCID, PARSE_STATE_BYTES,
  ST_ROWS, ST_USED, ST_LINE, ST_SHIFT, ST_STOP, ST_QID_START, ST_QID_END, ST_QID_ID, ST_QID_LEN, ST_TAG_START, ST_TAG_END, ST_QID_BYTES,
  STOP_END, STOP_QID, STOP_SHIFT,
} from "./parse";

// A block of a run joined to its judgments (src/pipeline/join-kernel.ts): see assembly/join.ts.
export { joinQueries, duplicateRow, duplicateQuery, JOIN_PAD, DUP_NONE, DUP_JUDGED, DUP_RUN } from "./join";
