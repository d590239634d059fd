// The kernel's ABI (declared in src/kernel/module.ts). The host owns memory from heapBase() on.

import { setConfiguration, NoRelevant, BeyondList, ALL, gainOf } from "./ranking/state";
import { rankQuery, Depths } from "./ranking/prefix-sums";
import { BUCKETS_PER_ROW } from "./ranking/sort";
import * as state from "./ranking/state";
import { extraBytes, layExtra } from "./metrics/extra-scratch";
import { clearDiversity, setDiversityQuery } from "./metrics/diversity";
import { addDepths, measure } from "./families.generated";
export { Family } from "./families.generated";

/** f64 parameters per measure: utility's five (a, b, c, d, n). */
export const PARAM_SLOTS: i32 = 5;

export const SPEC_NEEDS_RELEVANT: i32 = 1;

export function heapBase(): usize {
  return __heap_base;
}

/** configure()'s scratch bytes for maxN rows and maxJ judgments; a double, so the host sees a u32 overflow. */
export function scratchBytes(maxN: i32, maxJ: i32, gainTableLength: i32): f64 {
  const n = <f64>maxN + 1;
  const j = <f64>maxJ + 1;
  return n * (8 * 9 + 4 * 3 + 4 * (BUCKETS_PER_ROW + 1)) + 16 + j * (8 * 2 + 4) + <f64>gainTableLength * 4 + 64 + extraBytes(maxN, maxJ);
}

/** Fields: ranking/state.ts. gainMode: 0 linear, 1 exp, 2 table; noRelevant: 0 zero, 1 one, 2 NaN; docids 0: input order. */
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
  // 1/i: ties "average" multiplies where a division would cost several.
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
  clearDiversity();
}

export { configureDiversity, diversityScratchBytes } from "./metrics/diversity";

/** All `count` doubles finite: x - x is 0 only for finite x; four sums overlap. */
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
 * A bound on the labels' gains: max(the table's largest, the formula's gain of the largest label). One SIMD
 * pass; the host calls largestGain only where it passes what sums can hold.
 */
export function gainBound(values: usize, count: i32): f64 {
  // pmax(a, b) is a < b ? b : a: NaN passed over.
  let hi = f64x2.splat(-Infinity);
  let i = 0;
  for (; i + 2 <= count; i += 2) hi = f64x2.pmax(hi, v128.load(values + (<usize>i << 3)));
  let top = Math.max(f64x2.extract_lane(hi, 0), f64x2.extract_lane(hi, 1));
  for (; i < count; i++) {
    const label = load<f64>(values + (<usize>i << 3));
    if (label > top) top = label;
  }
  let bound = state.gainOutsideTable(top);
  for (let k = 0; k < state.gainTableLength; k++) bound = Math.max(bound, load<f64>(state.gainTable + (<usize>k << 3)));
  return bound;
}

/** Index of the largest gain (ties: the largest label, whatever the order); -1 if none. For checkGains. */
export function largestGain(values: usize, count: i32): i32 {
  let best = -1;
  let bestGain = -Infinity;
  let bestLabel = -Infinity;
  for (let i = 0; i < count; i++) {
    const label = load<f64>(values + (<usize>i << 3));
    const g = gainOf(label);
    if (g > bestGain || (g == bestGain && label > bestLabel)) {
      best = i;
      bestGain = g;
      bestLabel = label;
    }
  }
  return best;
}

/** The table's gain, else the formula's. */
export function labelGain(label: f64): f64 {
  return gainOf(label);
}

/** Measure s's value for query q to out[s * numQueries + q]; labels NaN = unjudged. */
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
        // clip: read at k = N; an empty list scores 0, where k = 0 would mean "no cutoff".
        if (k > state.N && state.beyondList == BeyondList.CLIP) k = state.N;
        v = k == 0 && state.N == 0 && load<i32>(cutoffs + (<usize>s << 2)) > 0 ? 0 : measure(load<i32>(families + (<usize>s << 2)), k, params + <usize>s * <usize>PARAM_SLOTS * 8);
      }
      store<f64>(out + ((<usize>s * <usize>numQueries + <usize>q) << 3), v);
    }
  }
}

export {
  randomizationSums, bootstrapSums, tukeyRanges, permBytes, tukeyTableBytes, TILE_BLOCKS, TUKEY_CHUNK,
} from "./significance";

export {
  parseRunRows, parseQrelsRows, parseLetorRows, parseScoreRows, querySpans, PARSE_PAD, ST_LETOR, LETOR_KNOWN, LETOR_QID, LETOR_DOCID, PARSE_STATE_BYTES,
  ST_ROWS, ST_USED, ST_LINE, ST_SHIFT, ST_STOP, ST_QID_START, ST_QID_END, ST_QID_ID, ST_QID_LEN, ST_TAG_START, ST_TAG_END, ST_QID_BYTES,
  STOP_END, STOP_QID, STOP_SHIFT,
} from "./parse";

export { splitLines, SPLIT_PAD } from "./split";

export { joinQueries, firstRepeated, duplicateRow, duplicateQuery, JOIN_PAD, DUP_NONE, DUP_JUDGED, DUP_RUN } from "./join";
