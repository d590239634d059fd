// The batch's configuration and the current query's ranking and prefix arrays.

export const enum GainMode { LINEAR = 0, EXP = 1, TABLE = 2 }
/** Ranks to read when a measure has no cutoff. */
export const ALL: i32 = 0x7fffffff;
export const enum NoRelevant { ZERO = 0, ONE = 1, NAN = 2 }
/** A cutoff past the list: pad non-relevant, NaN, 0, or read at k = N. */
export const enum BeyondList { PAD = 0, NAN = 1, ZERO = 2, CLIP = 3 }
export const enum TieMode { GIVEN = 0, AVERAGE = 1, BEST = 2, WORST = 3 }

export let gainMode: i32 = GainMode.EXP;
export let gainTable: usize = 0; // f64: gains of labels 0..length-1
export let gainTableLength: i32 = 0;
export let gainMonotone: bool = true; // the ideal ranking is by label
export let threshold: f64 = 1;
export let noRelevant: i32 = NoRelevant.ZERO;
export let beyondList: i32 = BeyondList.PAD;
export let tieMode: i32 = TieMode.GIVEN;
export let depth: i32 = 0x7fffffff;
export let judgedOnly: bool = false; // trec_eval -J, after the depth cut
export let discount: usize = 0; // f64[maxRank + 1]: 1 / log2(i + 1), from the host
export let docids: usize = 0; // i32 per row: its docid's pool entry; 0: ties in input order
export let poolBytes: usize = 0;
export let poolOffsets: usize = 0; // i32[entries + 1]

// Scratch, sized by scratchBytes(maxRetrieved, maxJudged).
export let keys: usize = 0; // f64[maxN]: scores by rank
export let order: usize = 0; // i32[maxN]: rows by rank
export let rankLabel: usize = 0; // f64[maxN]: label by rank (NaN: unjudged)
export let cumRel: usize = 0; // f64[maxN + 1]: relevant in ranks 1..i
export let cumDcg: usize = 0; // f64[maxN + 1]: DCG@i
export let apSum: usize = 0; // f64[maxN + 1]: precision summed at the first c relevant ranks (c = cumRel[i]);
//                               ties "average": the expected sum over ranks 1..i (metrics/rank.ts apSumAt)
export let relRank: usize = 0; // i32[maxN + 1]: relevant ranks
export let reciprocal: usize = 0; // f64[maxN + 1]: 1/i (ties "average" only)
export let ipAt: usize = 0; // f64[maxN + 1]: interpolated precision at c relevant
export let idealKeys: usize = 0; // f64[maxJ]: judged gains, descending
export let idealIdx: usize = 0; // i32[maxJ]
export let idcg: usize = 0; // f64[maxJ + 1]: ideal DCG@i
export let tmpA: usize = 0; // f64[maxN]
export let tmpB: usize = 0; // f64[maxN]
export let tmpIdx: usize = 0; // i32[(BUCKETS_PER_ROW + 1) (maxN + 1) + 4]: buckets
export let levelCount: usize = 0; // i32[gainTableLength]: judged per label
// Ties "average", in rank order (prefix-sums.ts averageTies). tieStart (in tmpIdx): i32 x 4 per tie (first
// place a, size t, relevant r, relevant above c); tieDelta (in tmpB): f64 x 2 (E[S] - S summed to its end, mean gain).
export let tieStart: usize = 0;
export let tieDelta: usize = 0;
export let tieCount: i32 = 0;

export function setTies(count: i32): void {
  tieCount = count;
}

// The current query.
export let scores: usize = 0; // f64 per row
export let N: i32 = 0; // ranked, after depth
export let R: i32 = 0; // judged relevant, retrieved or not
export let NR: i32 = 0; // judged 0 <= label < threshold
export let J: i32 = 0; // judged with a positive gain: the ideal ranking's length
export let firstRel: i32 = 0; // 0 if none; ties "average": the first rank of its tie
// Ties "average": the first relevant document's tie: its size and relevant count.
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

/** A measure's cache is current while this is unchanged. */
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

/** Values > 0 of judged[from, to) (gains when `gains`) to toKeys, positions to toIdx, for sortPairs; their count. */
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

/** k, or the whole list when k = 0, never past the list. */
// @ts-ignore: decorator
@inline export function ranksFor(k: i32): i32 {
  return k == 0 || k > N ? N : k;
}

/** An integer label's table slot, else -1. */
// @ts-ignore: decorator
@inline export function levelOf(label: f64): i32 {
  const level = <i32>label; // saturating; NaN gives 0, caught below
  return <f64>level == label && <u32>level < <u32>gainTableLength ? level : -1;
}

/** The table's gain for integer labels, else the formula's; 0 for labels <= 0 and NaN. */
// @ts-ignore: decorator
@inline export function gainOf(label: f64): f64 {
  const level = levelOf(label);
  return level >= 0 ? f64At(gainTable, level) : gainOutsideTable(label);
}

export function gainOutsideTable(label: f64): f64 {
  if (!(label > 0)) return 0;
  return gainMode == GainMode.EXP ? Math.pow(2.0, label) - 1.0 : label;
}

// The query's judged labels, for measures reading more than R, NR and J (negative: "unjudged").
export let judged: usize = 0;
export let judgedStart: i32 = 0;
export let judgedEnd: i32 = 0;

export function setJudgments(j: usize, start: i32, end: i32): void {
  judged = j;
  judgedStart = start;
  judgedEnd = end;
}
