// Agreement between two or more sets of judgments on the (query, document) pairs they share:
// Cohen's kappa (unweighted, linear, quadratic; as scikit-learn's cohen_kappa_score), binary kappa
// (labels >= threshold), Fleiss' kappa (as statsmodels.stats.inter_rater.fleiss_kappa, method "fleiss"),
// and Krippendorff's alpha (nominal, ordinal, interval; Krippendorff, "Computing Krippendorff's
// Alpha-Reliability", 2011). One pass over the pairs, one over them again for what needs totals.
import { ANY, badInput, checkOptions, NUMBER, shown, usageError } from "../errors/errors.js";
import type { Qrels } from "../pipeline/join-memory.js";
import { judgedUnits } from "./judged-units.js";

export interface AgreementOptions {
  /**
   * Labels >= threshold are relevant: for `binary_kappa` and `jaccard` (trec_eval's relevance level).
   * @default 1
   */
  readonly threshold?: number;
  /**
   * Sorted cut points: category i holds the labels in [bins[i-1], bins[i]) (numpy.digitize), for the
   * kappas, the confusion, observed agreement and nominal and ordinal alpha (interval alpha reads the
   * labels themselves). Without bins every distinct label is a category of its own, decimals too.
   * @default undefined
   */
  readonly bins?: readonly number[];
}

export interface AgreementPairs {
  /** (query, document) pairs judged by every set. */
  readonly shared: number;
  /** Pairs judged by at least one set. */
  readonly union: number;
  /** Per set, the pairs it judged. */
  readonly judged: number[];
  /** Per set, the pairs it alone judged. */
  readonly only: number[];
}

/** Set 0's categories down the rows, set 1's across, over the categories of the shared pairs. */
export interface Confusion {
  /** The categories, ascending: the labels, or with bins the bins' indices. */
  readonly labels: number[];
  /** With bins, each category's interval: "< 1", "[1, 2)", ">= 2". */
  readonly intervals?: string[];
  readonly matrix: number[][];
}

/** null where undefined: fewer than two labels to pair, or every label the same (no expected disagreement). */
export interface KrippendorffAlpha {
  readonly nominal: number | null;
  readonly ordinal: number | null;
  readonly interval: number | null;
}

/** Why a value is null, by its key. */
export type WhyNull = Record<string, string>;

export interface QueryAgreement {
  readonly qid: string;
  /** Pairs of this query judged by every set. */
  readonly pairs: number;
  /** Per set, this query's pairs it alone judged. */
  readonly only: number[];
  readonly observed_agreement: number | null;
  /** Two sets. */
  readonly cohen_kappa?: number | null;
  /** Two sets. */
  readonly binary_kappa?: number | null;
  /** Three or more sets. */
  readonly fleiss_kappa?: number | null;
  readonly why_null?: WhyNull;
}

export interface Agreement {
  readonly sets: number;
  readonly threshold: number;
  readonly bins: number[] | null;
  readonly pairs: AgreementPairs;
  /** Over the shared pairs, the share of pairs of sets that give one category (Fleiss' P-bar; two sets: the share of pairs that agree). */
  readonly observed_agreement: number | null;
  /** Two sets: sklearn's cohen_kappa_score(a, b) on the shared pairs. */
  readonly cohen_kappa?: number | null;
  /** Two sets: weights="linear", |i - j| over the categories' indices (not their values), as sklearn. */
  readonly cohen_kappa_linear?: number | null;
  /** Two sets: weights="quadratic", (i - j)^2 over the indices. */
  readonly cohen_kappa_quadratic?: number | null;
  /** Two sets: unweighted kappa of label >= threshold (trectools' check_kappa). */
  readonly binary_kappa?: number | null;
  /** Two sets; null past 256 categories (give bins). */
  readonly confusion?: Confusion | null;
  /** Over the shared pairs: judged relevant by every set / by any set. */
  readonly jaccard: number | null;
  /** statsmodels' fleiss_kappa on the shared pairs. */
  readonly fleiss_kappa: number | null;
  /** Every pair judged by two or more sets. */
  readonly krippendorff_alpha: KrippendorffAlpha;
  /** Queries in first-seen order (set 0's first). */
  readonly per_query: QueryAgreement[];
  readonly why_null?: WhyNull;
}

const CONFUSION_MAX = 256;

const NO_PAIRS = "no pair is judged by every set";
const ONE_CATEGORY = "expected agreement is 1: every shared pair has one and the same category";
const ONE_CLASS = "expected agreement is 1: every shared pair is on the same side of the threshold";

/**
 * Agreement of two or more sets of judgments (`{ qid: { docid: label } }` or columns, as evaluateRun
 * takes them) on the pairs they share. Labels may be any finite numbers: without `bins`, each distinct
 * label (0.5 and 0.75 too) is a category of its own for the kappas. A kappa is null, with the reason in
 * `why_null`, where it is 0/0: no shared pair, or expected agreement 1 (one category throughout), where
 * scikit-learn returns NaN. Kappas, observed agreement and Jaccard read the pairs every set judged;
 * alpha reads every pair judged by two or more sets (Krippendorff drops units of one value).
 */
export function agreement(sets: readonly Qrels[], options?: AgreementOptions): Agreement {
  if (!Array.isArray(sets) || sets.length < 2)
    throw badInput(
      `agreement: sets must be an array of 2 or more judgments ({ qid: { docid: label } } or columns), not ${shown(sets)}`,
    );
  const given = checkOptions(options, { threshold: NUMBER, bins: ANY }, "agreement");
  const threshold = given.threshold ?? 1;
  if (!Number.isFinite(threshold)) throw usageError(`agreement: threshold must be a finite number, not ${threshold}`);
  const bins = given.bins === undefined ? null : checkBins(given.bins);

  const { qids, offsets, labels } = judgedUnits(sets, "sets");
  const m = sets.length;
  const units = labels.length / m;
  const { cat, values: categories } = categoriesOf(labels, bins);
  const K = categories.length;

  // Pass 1: counts, and everything that needs no totals.
  const judged = new Array<number>(m).fill(0);
  const only = new Array<number>(m).fill(0);
  let shared = 0;
  let equalShared = 0; // ordered pairs of sets agreeing, over shared pairs (Fleiss)
  const sharedCount = new Float64Array(K); // categories over shared pairs, every set
  const r = new Float64Array(K); // two sets: set 0's categories over shared pairs
  const c = new Float64Array(K);
  let agree = 0;
  const bin = [0, 0, 0, 0]; // two sets: [00, 01, 10, 11] of label >= threshold
  let allRelevant = 0;
  let anyRelevant = 0;
  // Krippendorff: values in units of two or more values ("pairable").
  const nc = new Float64Array(K);
  let n = 0;
  let sumX = 0;
  let doNominal = 0;
  let doInterval = 0;

  const xs = new Float64Array(m);
  const cs = new Int32Array(m);
  const perQuery: QueryAgreement[] = new Array(qids.length);
  const qr = new Float64Array(K);
  const qc = new Float64Array(K);
  const touched: number[] = [];

  for (let q = 0; q < qids.length; q++) {
    const qOnly = new Array<number>(m).fill(0);
    let qShared = 0;
    let qEqual = 0;
    let qAgree = 0;
    const qBin = [0, 0, 0, 0];
    for (let u = offsets[q]; u < offsets[q + 1]; u++) {
      let k = 0;
      let last = 0;
      for (let s = 0; s < m; s++) {
        const x = labels[u * m + s];
        if (Number.isNaN(x)) continue;
        judged[s]++;
        xs[k] = x;
        cs[k++] = cat[u * m + s];
        last = s;
      }
      if (k === 1) {
        only[last]++;
        qOnly[last]++;
        continue;
      }
      // Ordered pairs of values: equal categories, squared differences.
      let equal = 0;
      let squares = 0;
      for (let i = 0; i < k; i++) {
        nc[cs[i]]++;
        sumX += xs[i];
        for (let j = i + 1; j < k; j++) {
          if (cs[i] === cs[j]) equal += 2;
          squares += 2 * (xs[i] - xs[j]) ** 2;
        }
      }
      n += k;
      doNominal += (k * (k - 1) - equal) / (k - 1);
      doInterval += squares / (k - 1);
      if (k < m) continue;
      shared++;
      qShared++;
      equalShared += equal;
      qEqual += equal;
      let relevant = 0;
      for (let i = 0; i < k; i++) {
        sharedCount[cs[i]]++;
        if (xs[i] >= threshold) relevant++;
        if (qr[cs[i]] === 0 && qc[cs[i]] === 0) touched.push(cs[i]);
        // Two sets: set 0's counts and set 1's apart; more: all in qr.
        if (m === 2 && i === 1) qc[cs[i]]++;
        else qr[cs[i]]++;
      }
      if (relevant === m) allRelevant++;
      if (relevant > 0) anyRelevant++;
      if (m === 2) {
        r[cs[0]]++;
        c[cs[1]]++;
        if (cs[0] === cs[1]) {
          agree++;
          qAgree++;
        }
        const b = 2 * +(xs[0] >= threshold) + +(xs[1] >= threshold);
        bin[b]++;
        qBin[b]++;
      }
    }
    // This query's kappa from its own counts (the categories it touched).
    let products = 0;
    for (const t of touched) {
      products += m === 2 ? qr[t] * qc[t] : qr[t] * qr[t];
      qr[t] = 0;
      qc[t] = 0;
    }
    touched.length = 0;
    const why: WhyNull = {};
    const observed = qShared === 0 ? null : qEqual / (qShared * m * (m - 1));
    if (observed === null) why.observed_agreement = NO_PAIRS;
    const entry: Record<string, unknown> = { qid: qids[q], pairs: qShared, only: qOnly, observed_agreement: observed };
    if (m === 2) {
      entry.cohen_kappa = unweighted(qShared, qAgree, products, "cohen_kappa", why, ONE_CATEGORY);
      entry.binary_kappa = binaryKappa(qBin, "binary_kappa", why);
    } else {
      entry.fleiss_kappa = fleiss(qShared, m, qEqual, products, "fleiss_kappa", why);
    }
    if (Object.keys(why).length) entry.why_null = why;
    perQuery[q] = entry as unknown as QueryAgreement;
  }

  // Totals: categories present in the shared pairs (sklearn's labels), ordinal mid-ranks, interval mean.
  const present: number[] = [];
  const compact = new Int32Array(K).fill(-1);
  for (let k = 0; k < K; k++) if (r[k] + c[k] > 0) compact[k] = present.push(k) - 1;
  const mid = new Float64Array(K);
  let cumulative = 0;
  for (let k = 0; k < K; k++) {
    // Krippendorff 2011's ordinal metric: sum_{g=c..k} n_g - (n_c + n_k) / 2 = mid(k) - mid(c),
    // mid(c) = (values ranked below c) + n_c / 2.
    mid[k] = cumulative + nc[k] / 2;
    cumulative += nc[k];
  }
  const meanX = sumX / n;

  // Pass 2: what needs the totals.
  let wLinear = 0;
  let wQuadratic = 0;
  let doOrdinal = 0;
  let spreadX = 0;
  const showConfusion = m === 2 && present.length <= CONFUSION_MAX;
  const matrix = showConfusion ? present.map(() => new Array<number>(present.length).fill(0)) : [];
  for (let u = 0; u < units; u++) {
    let k = 0;
    for (let s = 0; s < m; s++) {
      const x = labels[u * m + s];
      if (Number.isNaN(x)) continue;
      xs[k] = x;
      cs[k++] = cat[u * m + s];
    }
    if (k < 2) continue;
    let squares = 0;
    for (let i = 0; i < k; i++) {
      spreadX += (xs[i] - meanX) ** 2;
      for (let j = i + 1; j < k; j++) squares += 2 * (mid[cs[i]] - mid[cs[j]]) ** 2;
    }
    doOrdinal += squares / (k - 1);
    if (m === 2) {
      const d = compact[cs[0]] - compact[cs[1]];
      wLinear += Math.abs(d);
      wQuadratic += d * d;
      if (showConfusion) matrix[compact[cs[0]]][compact[cs[1]]]++;
    }
  }

  const why: WhyNull = {};
  const observed = shared === 0 ? null : equalShared / (shared * m * (m - 1));
  if (observed === null) why.observed_agreement = NO_PAIRS;
  const out: Record<string, unknown> = {
    sets: m,
    threshold,
    bins,
    pairs: { shared, union: units, judged, only },
    observed_agreement: observed,
  };
  if (m === 2) {
    let products = 0;
    for (let k = 0; k < K; k++) products += r[k] * c[k];
    out.cohen_kappa = unweighted(shared, agree, products, "cohen_kappa", why, ONE_CATEGORY);
    const rp = present.map((k) => r[k]);
    const cp = present.map((k) => c[k]);
    out.cohen_kappa_linear = weighted(shared, wLinear, linearExpected(rp, cp), "cohen_kappa_linear", why);
    out.cohen_kappa_quadratic = weighted(shared, wQuadratic, quadraticExpected(rp, cp), "cohen_kappa_quadratic", why);
    out.binary_kappa = binaryKappa(bin, "binary_kappa", why);
    if (showConfusion) {
      const labelsOf = present.map((k) => categories[k]);
      out.confusion = bins
        ? { labels: labelsOf, intervals: labelsOf.map((b) => interval(bins, b)), matrix }
        : { labels: labelsOf, matrix };
    } else {
      out.confusion = null;
      why.confusion = `${present.length} categories, more than ${CONFUSION_MAX}: give bins`;
    }
  }
  out.jaccard = anyRelevant === 0 ? null : allRelevant / anyRelevant;
  if (anyRelevant === 0) why.jaccard = "no set judges a shared pair relevant";
  let squaresShared = 0;
  for (let k = 0; k < K; k++) squaresShared += sharedCount[k] * sharedCount[k];
  out.fleiss_kappa = fleiss(shared, m, equalShared, squaresShared, "fleiss_kappa", why);

  // Krippendorff 2011: alpha = 1 - (n - 1) sum_ck o_ck delta_ck / sum_ck n_c n_k delta_ck, with
  // sum_ck o_ck delta_ck = sum_u sum_{i != j} delta(v_ui, v_uj) / (m_u - 1) and, for squared
  // differences, sum_ck n_c n_k (x_c - x_k)^2 = 2 n sum (x - mean)^2.
  let sumSquares = 0;
  let meanMid = 0;
  for (let k = 0; k < K; k++) {
    sumSquares += nc[k] * nc[k];
    meanMid += nc[k] * mid[k];
  }
  meanMid /= n;
  let spreadMid = 0;
  for (let k = 0; k < K; k++) spreadMid += nc[k] * (mid[k] - meanMid) ** 2;
  out.krippendorff_alpha = {
    nominal: alpha(n, doNominal, n * n - sumSquares, "krippendorff_alpha.nominal", why),
    ordinal: alpha(n, doOrdinal, 2 * n * spreadMid, "krippendorff_alpha.ordinal", why),
    interval: alpha(n, doInterval, 2 * n * spreadX, "krippendorff_alpha.interval", why),
  };
  out.per_query = perQuery;
  if (Object.keys(why).length) out.why_null = why;
  return out as unknown as Agreement;
}

function checkBins(bins: unknown): number[] {
  if (!Array.isArray(bins) && !ArrayBuffer.isView(bins))
    throw usageError(`agreement: bins must be an array of ascending cut points, not ${shown(bins)}`);
  const out = Array.from(bins as ArrayLike<unknown>);
  for (let i = 0; i < out.length; i++) {
    const b = out[i];
    if (typeof b !== "number" || !Number.isFinite(b))
      throw usageError(`agreement: bins[${i}] must be a finite number, not ${shown(b)}`);
    if (i > 0 && !(b > (out[i - 1] as number)))
      throw usageError(`agreement: bins must ascend strictly: bins[${i}] = ${b} after ${out[i - 1]}`);
  }
  return out as number[];
}

/** Each label's category index (-1 where missing), categories ascending: bins' indices, or the distinct labels. */
function categoriesOf(labels: Float64Array, bins: readonly number[] | null): { cat: Int32Array; values: number[] } {
  const cat = new Int32Array(labels.length).fill(-1);
  if (bins) {
    for (let i = 0; i < labels.length; i++) {
      const x = labels[i];
      if (Number.isNaN(x)) continue;
      // numpy.digitize(x, bins): the number of cut points <= x.
      let lo = 0;
      let hi = bins.length;
      while (lo < hi) {
        const h = (lo + hi) >>> 1;
        if (bins[h] <= x) lo = h + 1;
        else hi = h;
      }
      cat[i] = lo;
    }
    return { cat, values: Array.from({ length: bins.length + 1 }, (_, i) => i) };
  }
  const seen = new Map<number, number>();
  for (let i = 0; i < labels.length; i++) {
    const x = labels[i];
    if (!Number.isNaN(x) && !seen.has(x)) seen.set(x, 0);
  }
  // Map keys compare -0 and 0 equal, as numpy.unique.
  const values = [...seen.keys()].sort((a, b) => a - b);
  for (let k = 0; k < values.length; k++) seen.set(values[k], k);
  for (let i = 0; i < labels.length; i++) {
    const x = labels[i];
    if (!Number.isNaN(x)) cat[i] = seen.get(x) as number;
  }
  return { cat, values };
}

function interval(bins: readonly number[], b: number): string {
  if (b === 0) return `< ${bins[0]}`;
  if (b === bins.length) return `>= ${bins[b - 1]}`;
  return `[${bins[b - 1]}, ${bins[b]})`;
}

/**
 * sklearn's 1 - sum(w * O) / sum(w * E) with w = 1 - I and E = outer(r, c) / N, in integers:
 * 1 - N (N - agree) / (N^2 - sum_i r_i c_i). null where 0/0.
 */
function unweighted(N: number, agree: number, products: number, key: string, why: WhyNull, reason: string) {
  if (N === 0) return nullFor(key, why, NO_PAIRS);
  const expected = N * N - products;
  if (expected === 0) return nullFor(key, why, reason);
  return 1 - (N * (N - agree)) / expected;
}

function binaryKappa(bin: readonly number[], key: string, why: WhyNull) {
  const N = bin[0] + bin[1] + bin[2] + bin[3];
  // Rows set 0 (bin[2] + bin[3] relevant), columns set 1 (bin[1] + bin[3]).
  const r1 = bin[2] + bin[3];
  const c1 = bin[1] + bin[3];
  return unweighted(N, bin[0] + bin[3], r1 * c1 + (N - r1) * (N - c1), key, why, ONE_CLASS);
}

/** sklearn's weighted kappa: 1 - sum(w * O) / sum(w * E) = 1 - N sum(w * O) / sum_ij w_ij r_i c_j. */
function weighted(N: number, observed: number, expected: number, key: string, why: WhyNull) {
  if (N === 0) return nullFor(key, why, NO_PAIRS);
  if (expected === 0) return nullFor(key, why, ONE_CATEGORY);
  return 1 - (N * observed) / expected;
}

/** sum_ij |i - j| r_i c_j, by prefix sums over i. */
function linearExpected(r: readonly number[], c: readonly number[]) {
  let count = 0;
  let sum = 0;
  for (let i = 0; i < r.length; i++) {
    count += r[i];
    sum += i * r[i];
  }
  let below = 0;
  let belowSum = 0;
  let total = 0;
  for (let j = 0; j < c.length; j++) {
    const above = count - below - r[j];
    const aboveSum = sum - belowSum - j * r[j];
    total += c[j] * (j * below - belowSum + (aboveSum - j * above));
    below += r[j];
    belowSum += j * r[j];
  }
  return total;
}

/** sum_ij (i - j)^2 r_i c_j = C sum_i r_i (i - mu)^2 + R sum_j c_j (j - mu)^2, mu c's mean index (no cancellation). */
function quadraticExpected(r: readonly number[], c: readonly number[]) {
  let R = 0;
  let C = 0;
  let mu = 0;
  for (let i = 0; i < r.length; i++) {
    R += r[i];
    C += c[i];
    mu += i * c[i];
  }
  mu /= C;
  let sr = 0;
  let sc = 0;
  for (let i = 0; i < r.length; i++) {
    sr += r[i] * (i - mu) ** 2;
    sc += c[i] * (i - mu) ** 2;
  }
  return C * sr + R * sc;
}

/**
 * statsmodels' fleiss_kappa (method "fleiss"): P-bar = mean over subjects of (sum_j n_ij^2 - m) / (m (m - 1)),
 * P-e = sum_j p_j^2; here sum_j n_ij^2 - m is `equal`, the ordered pairs of raters that agree.
 */
function fleiss(S: number, m: number, equal: number, squares: number, key: string, why: WhyNull) {
  if (S === 0) return nullFor(key, why, NO_PAIRS);
  const pBar = equal / (S * m * (m - 1));
  const pE = squares / (S * m) ** 2;
  if (pE === 1) return nullFor(key, why, ONE_CATEGORY);
  return (pBar - pE) / (1 - pE);
}

function alpha(n: number, observed: number, expected: number, key: string, why: WhyNull) {
  if (n === 0) return nullFor(key, why, "no pair is judged by two or more sets");
  if (expected === 0) return nullFor(key, why, "every value is the same: no expected disagreement");
  return 1 - ((n - 1) * observed) / expected;
}

function nullFor(key: string, why: WhyNull, reason: string): null {
  why[key] = reason;
  return null;
}
