// The batch's configuration and the current query's ranking and prefix arrays (prefix-sums.ts).

export const enum GainMode { LINEAR = 0, EXP = 1, TABLE = 2 }
/** Ranks to read when a measure has no cutoff. */
export const ALL: i32 = 0x7fffffff;
export const enum NoRelevant { ZERO = 0, ONE = 1, NAN = 2 }
/** A cutoff past the list: pad with non-relevant ranks, NaN, 0, or read at k = N. */
export const enum BeyondList { PAD = 0, NAN = 1, ZERO = 2, CLIP = 3 }
export const enum TieMode { GIVEN = 0, AVERAGE = 1, BEST = 2, WORST = 3 }

export let gainMode: i32 = GainMode.EXP;
export let gainTable: usize = 0; // f64[gainTableLength]: the gain of each integer label 0..length-1
export let gainTableLength: i32 = 0;
export let gainMonotone: bool = true; // gains never decrease with the label: the ideal ranking is by label
export let threshold: f64 = 1;
export let noRelevant: i32 = NoRelevant.ZERO;
export let beyondList: i32 = BeyondList.PAD;
export let tieMode: i32 = TieMode.GIVEN;
export let depth: i32 = 0x7fffffff;
export let judgedOnly: bool = false; // after the depth cut, drop documents without a judgment >= 0 (trec_eval -J)
export let discount: usize = 0; // f64[maxRank + 1]: discount[i] = 1 / log2(i + 1), made by the host
export let docids: usize = 0; // i32 per row: pool entry of its document id; 0: ties in input order
export let poolBytes: usize = 0;
export let poolOffsets: usize = 0; // i32[entries + 1]

// Scratch, sized by scratchBytes(maxRetrieved, maxJudged).
export let keys: usize = 0; // f64[maxN]: scores in rank order
export let order: usize = 0; // i32[maxN]: rows in rank order
export let rankLabel: usize = 0; // f64[maxN]: label at each rank (NaN = unjudged)
export let cumRel: usize = 0; // f64[maxN + 1]: relevant documents in ranks 1..i
export let cumDcg: usize = 0; // f64[maxN + 1]: DCG@i
export let apSum: usize = 0; // f64[maxN + 1]: sum of precision at the first c relevant ranks (c = cumRel[i] for ranks 1..i);
//                               with ties "average", the expected sum over ranks 1..i, by rank (metrics/rank.ts apSumAt)
export let relRank: usize = 0; // i32[maxN + 1]: the relevant ranks, in order
export let reciprocal: usize = 0; // f64[maxN + 1]: 1/i (filled with ties "average" only)
export let ipAt: usize = 0; // f64[maxN + 1]: interpolated precision at c relevant documents (metrics/relevance.ts)
export let idealKeys: usize = 0; // f64[maxJ]: judged gains, sorted descending
export let idealIdx: usize = 0; // i32[maxJ]
export let idcg: usize = 0; // f64[maxJ + 1]: ideal DCG@i
export let tmpA: usize = 0; // f64[maxN]
export let tmpB: usize = 0; // f64[maxN]
export let tmpIdx: usize = 0; // i32[(BUCKETS_PER_ROW + 1) (maxN + 1) + 4]: sortRows' buckets
export let levelCount: usize = 0; // i32[gainTableLength]: judged documents per integer label
// Ties "average": the current query's runs of tied documents (prefix-sums.ts averageTies), in rank order.
// tieStart: i32 x 4 per tie (first place a, size t, relevant r, relevant above c), in tmpIdx;
// tieDelta: f64 x 2 per tie (the sum of E[S] - S over the ties up to its end, its mean gain), in tmpB.
export let tieStart: usize = 0;
export let tieDelta: usize = 0;
export let tieCount: i32 = 0;

export function setTies(count: i32): void {
  tieCount = count;
}

// The current query.
export let scores: usize = 0; // f64 per row
export let N: i32 = 0; // documents ranked (after depth)
export let R: i32 = 0; // judged relevant documents (label >= threshold), retrieved or not
export let NR: i32 = 0; // judged non-relevant documents (0 <= label < threshold)
export let J: i32 = 0; // judged documents with a positive gain: the length of the ideal ranking
export let firstRel: i32 = 0; // rank of the first relevant document, 0 if none; with ties "average", the first rank of the first tie holding one
// With ties "average": the tie that holds the first relevant document (from rank firstRel): its size and relevant documents.
export let firstTieSize: i32 = 0;
export let firstTieRelevant: i32 = 0;

export function setConfiguration(
  gm: i32, gt: usize, gtl: i32, monotone: bool, thr: f64, noRel: i32, beyond: i32, ties: i32, dep: i32, judgedOnlyFlag: bool,
  disc: usize, dids: usize, pb: usize, po: usize,
): void {
  gainMode = gm;
  gainTable = gt;
  gainTableLength = gtl;
  gainMonotone = monotone;
  threshold = thr;
  noRelevant = noRel;
  beyondList = beyond;
  tieMode = ties;
  depth = dep;
  judgedOnly = judgedOnlyFlag;
  discount = disc;
  docids = dids;
  poolBytes = pb;
  poolOffsets = po;
}

/** Counts the queries set: a measure's cache for a query is current while this is unchanged. */
export let querySerial: i32 = 0;

export function setFirstTie(size: i32, relevant: i32): void {
  firstTieSize = size;
  firstTieRelevant = relevant;
}

export function setQuery(s: usize, n: i32, r: i32, nr: i32, j: i32, first: i32): void {
  querySerial++;
  scores = s;
  N = n;
  R = r;
  NR = nr;
  J = j;
  firstRel = first;
}

// @ts-ignore: decorator
@inline export function f64At(base: usize, i: i32): f64 {
  return load<f64>(base + (<usize>i << 3));
}

// @ts-ignore: decorator
@inline export function i32At(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}

/**
 * The values > 0 of judged[from, to) (their gains when `gains`, else the labels) into toKeys, each with
 * its position into toIdx, ready for sortPairs; their count.
 */
export function positiveJudged(base: usize, from: i32, to: i32, gains: bool, toKeys: usize, toIdx: usize): i32 {
  let n = 0;
  for (let j = from; j < to; j++) {
    const v = gains ? gainOf(f64At(base, j)) : f64At(base, j);
    if (v > 0) {
      store<f64>(toKeys + (<usize>n << 3), v);
      store<i32>(toIdx + (<usize>n << 2), n);
      n++;
    }
  }
  return n;
}

/** Ranks read for a cutoff: k, or the whole list when k = 0, and never past the list. */
// @ts-ignore: decorator
@inline export function ranksFor(k: i32): i32 {
  return k == 0 || k > N ? N : k;
}

/** The table slot of an integer label in [0, gainTableLength), else -1 (fractional, large, negative, NaN). */
// @ts-ignore: decorator
@inline export function levelOf(label: f64): i32 {
  const level = <i32>label; // saturating truncation; NaN gives 0, caught by the comparison
  return <f64>level == label && <u32>level < <u32>gainTableLength ? level : -1;
}

/**
 * The gain of a label: the host's table for integer labels (where nearly all labels are), the
 * formula otherwise. 0 for labels <= 0 and unjudged (NaN) documents.
 */
// @ts-ignore: decorator
@inline export function gainOf(label: f64): f64 {
  const level = levelOf(label);
  return level >= 0 ? f64At(gainTable, level) : gainOutsideTable(label);
}

export function gainOutsideTable(label: f64): f64 {
  if (!(label > 0)) return 0;
  return gainMode == GainMode.EXP ? Math.pow(2.0, label) - 1.0 : label;
}

// The current query's judged labels, for measures that read more than R, NR and J (negative: "unjudged").
export let judged: usize = 0;
export let judgedStart: i32 = 0;
export let judgedEnd: i32 = 0;

export function setJudgments(j: usize, start: i32, end: i32): void {
  judged = j;
  judgedStart = start;
  judgedEnd = end;
}
