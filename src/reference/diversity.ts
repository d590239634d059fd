/**
 * The diversity measures by their definitions (README: "Diversity"), for checking the kernel
 * (assembly/metrics/diversity.ts): TREC's ndeval's, after Clarke et al. (SIGIR 2008: alpha-nDCG),
 * Chapelle et al. (CIKM 2009: ERR-IA), Clarke et al. (ICTIR 2009: NRBP), Agrawal et al. (WSDM 2009:
 * intent-aware measures).
 *
 * A query's subtopics j; a document is relevant to j when judged >= the threshold for it;
 * m = the subtopics some judged document is relevant to (0: every measure 0, nNRBP 0/0).
 * The document at rank r (1-based) gains g_r = Σ_{j it is relevant to} (1 − alpha)^{c_j(r)}, where
 * c_j(r) = the documents above r relevant to j (novelty: a subtopic seen before counts less).
 *   alpha-DCG@k = Σ_{r<=k} g_r / log2(r + 1)  /  Σ_{r<=k} m (1 − alpha)^(r−1) / log2(r + 1)
 *   ERR-IA@k    = Σ_{r<=k} g_r / r            /  Σ_{r<=k} m (1 − alpha)^(r−1) / r
 *     (ndeval divides neither at k = 1)
 *   alpha-nDCG@k, nERR-IA@k: the ranking's value over the ideal ranking's (0 when the ranking's is 0);
 *     the ideal ranking takes, rank after rank, the judged document of highest gain (equal gains: the
 *     greatest document id in byte order), as ndeval's greedy one
 *   NRBP = (1 − (1 − alpha) beta) / m Σ_r g_r beta^(r−1); nNRBP = NRBP / the ideal ranking's
 *   P-IA@k = Σ_{r<=k} (subtopics the document at r is relevant to) / (k m)
 *   strec@k = (subtopics some document in the top k is relevant to) / m
 *   MAP-IA = (1/m) Σ_{j judged relevant R_j > 0 times} (Σ_{r: relevant to j} (its relevant ones in 1..r) / r) / R_j
 * Without a cutoff, @k reads the whole ranking (alpha-nDCG and nERR-IA: and the whole ideal ranking).
 */
import { RankevalError } from "../errors.js";
import type { SubtopicQrels } from "../diversity.js";
import { subtopicOrder } from "../diversity.js";
import type { Run } from "../pipeline/join.js";
import { measureOptions, type Measure } from "../measures/measure.js";
import { parseMeasures } from "../measures/resolve.js";
import type { Measures } from "../pipeline/evaluate.js";
import { explicitOptions, type Options, type ResolvedOptions } from "../options.js";
import { compareUtf8, rank, type Doc } from "./ranking.js";
import { referenceValue } from "./index.js";

/** A document's judgments: subtopic index -> judgment. */
type Judgments = ReadonlyMap<number, number>;

interface DivQuery {
  /** The ranking (ranked as every measure ranks: score, then document id descending; depth, -J). */
  readonly ranking: readonly (Doc & { readonly subs?: Judgments })[];
  /** Every judged document: id and judgments. */
  readonly judged: readonly { readonly docid: string; readonly subs: Judgments }[];
}

const relevantTo = (subs: Judgments | undefined, o: ResolvedOptions) => [...(subs ?? new Map()).entries()].filter(([, v]) => v >= o.relevanceThreshold).map(([j]) => j).sort((a, b) => a - b);

/** g_r for each document of a list, by the definition (counts of the subtopics seen above). */
function gains(list: readonly (Judgments | undefined)[], alpha: number, o: ResolvedOptions): number[] {
  const seen = new Map<number, number>();
  return list.map((subs) => {
    let g = 0;
    for (const j of relevantTo(subs, o)) {
      g += (1 - alpha) ** (seen.get(j) ?? 0);
      seen.set(j, (seen.get(j) ?? 0) + 1);
    }
    return g;
  });
}

/** The subtopics judged relevant and how many times (R_j), and m. */
function actual(q: DivQuery, o: ResolvedOptions): Map<number, number> {
  const r = new Map<number, number>();
  for (const d of q.judged) for (const j of relevantTo(d.subs, o)) r.set(j, (r.get(j) ?? 0) + 1);
  return r;
}

/** The greedy ideal ranking's judgments. */
function ideal(q: DivQuery, alpha: number, o: ResolvedOptions): Judgments[] {
  const left = [...q.judged].sort((a, b) => compareUtf8(b.docid, a.docid));
  const out: Judgments[] = [];
  const seen = new Map<number, number>();
  while (left.length) {
    let best = -1;
    let bestGain = 0;
    left.forEach((d, i) => {
      const g = relevantTo(d.subs, o).reduce((s, j) => s + (1 - alpha) ** (seen.get(j) ?? 0), 0);
      if (best < 0 || g > bestGain) {
        best = i;
        bestGain = g;
      }
    });
    if (!(bestGain > 0)) break;
    const [d] = left.splice(best, 1);
    for (const j of relevantTo(d.subs, o)) seen.set(j, (seen.get(j) ?? 0) + 1);
    out.push(d.subs);
  }
  return out;
}

const discount = (r: number) => 1 / Math.log2(r + 1); // r 1-based

function sumTo(values: readonly number[], k: number, weight: (r: number) => number): number {
  let s = 0;
  for (let r = 1; r <= Math.min(k, values.length); r++) s += values[r - 1] * weight(r);
  return s;
}

function idealIdeal(m: number, k: number, alpha: number, weight: (r: number) => number): number {
  let s = 0;
  for (let r = 1; r <= k; r++) s += m * (1 - alpha) ** (r - 1) * weight(r);
  return s;
}

/** The formula of a diversity family for one query. */
export function diversityValue(m: Measure, q: DivQuery, o: ResolvedOptions): number {
  const R = actual(q, o);
  const subtopics = R.size;
  if (subtopics === 0) return 0;
  const alpha = m.params.alpha ?? 0.5;
  const beta = m.params.beta ?? 0.5;
  const ranked = q.ranking.map((d) => d.subs);
  const g = gains(ranked, alpha, o);
  const N = g.length;
  const weightOf = (name: string) => (name.startsWith("alpha") ? discount : (r: number) => 1 / r);
  switch (m.family.name) {
    case "alpha_dcg":
    case "err_ia": {
      const k = m.k === 0 ? N : m.k;
      if (k === 0) return 0;
      const w = weightOf(m.family.name);
      const raw = sumTo(g, k, w);
      return k === 1 ? raw : raw / idealIdeal(subtopics, k, alpha, w);
    }
    case "alpha_ndcg":
    case "nerr_ia": {
      const gi = gains(ideal(q, alpha, o), alpha, o);
      const k = m.k === 0 ? Math.max(N, gi.length) : m.k;
      if (k === 0) return 0;
      const w = weightOf(m.family.name.slice(1) === "err_ia" ? "err" : "alpha");
      const run = sumTo(g, k, w);
      if (run === 0) return 0;
      return run / sumTo(gi, k, w);
    }
    case "nrbp":
    case "nnrbp": {
      const factor = (1 - (1 - alpha) * beta) / subtopics;
      const nrbp = g.reduce((s, x, i) => s + x * beta ** i, 0) * factor;
      if (m.family.name === "nrbp") return nrbp;
      const gi = gains(ideal(q, alpha, o), alpha, o);
      return nrbp / (gi.reduce((s, x, i) => s + x * beta ** i, 0) * factor);
    }
    case "p_ia": {
      const k = m.k === 0 ? N : m.k;
      if (k === 0) return 0;
      let pairs = 0;
      for (let r = 0; r < Math.min(k, N); r++) pairs += relevantTo(ranked[r], o).length;
      return pairs / (k * subtopics);
    }
    case "strec": {
      const k = m.k === 0 ? N : m.k;
      const covered = new Set<number>();
      for (let r = 0; r < Math.min(k, N); r++) for (const j of relevantTo(ranked[r], o)) covered.add(j);
      return covered.size / subtopics;
    }
    case "map_ia": {
      let sum = 0;
      for (const [j, rj] of [...R.entries()].sort((a, b) => a[0] - b[0])) {
        let c = 0;
        let s = 0;
        ranked.forEach((subs, r) => {
          if (relevantTo(subs, o).includes(j)) s += ++c / (r + 1);
        });
        sum += s / rj;
      }
      return sum / subtopics;
    }
  }
  throw new Error(`reference: ${m.family.name} is no diversity measure`);
}

/**
 * evaluateDiversity by the definitions: the run's queries with subtopic judgments, in order of first
 * appearance; each document's label its highest judgment (every measure that is not a diversity one
 * reads that, as the reference's own); the diversity measures under each measure's options and the
 * conventions (`referenceValue`'s noRelevant and beyondList rules, a query without an actual
 * subtopic being one without a relevant document).
 */
export function referenceEvaluateDiversity(
  qrels: SubtopicQrels, run: Run, measures: Measures, options?: Options,
): { qids: string[]; values: Record<string, Float64Array> } {
  const explicit = explicitOptions(options);
  const ms = parseMeasures(measures);
  const byQuery = new Map<string, Map<string, Map<string, number>>>();
  const add = (q: string, s: string, d: string, v: number) => {
    if (!byQuery.has(q)) byQuery.set(q, new Map());
    const docs = byQuery.get(q)!;
    if (!docs.has(d)) docs.set(d, new Map());
    docs.get(d)!.set(s, v);
  };
  if ("qid" in qrels && typeof qrels.qid === "object") {
    const c = qrels as { qid: ArrayLike<string | number>; subtopic: ArrayLike<string | number>; docid: ArrayLike<string | number>; rel: ArrayLike<number> };
    for (let i = 0; i < c.qid.length; i++) add(String(c.qid[i]), String(c.subtopic[i]), String(c.docid[i]), c.rel[i]);
  } else {
    for (const [q, subs] of Object.entries(qrels as Record<string, Record<string, Record<string, number>>>)) for (const [s, docs] of Object.entries(subs)) for (const [d, v] of Object.entries(docs)) add(q, s, d, v);
  }
  const runRows = new Map<string, { docid: string; score: number }[]>();
  const r = run as { qid: ArrayLike<string | number>; docid: ArrayLike<string | number>; score: ArrayLike<number> };
  if (!("qid" in r && typeof r.qid === "object")) throw new RankevalError("bad-input", "reference: runs as columns only");
  for (let i = 0; i < r.qid.length; i++) {
    const q = String(r.qid[i]);
    if (!runRows.has(q)) runRows.set(q, []);
    runRows.get(q)!.push({ docid: String(r.docid[i]), score: r.score[i] });
  }
  const qids = [...runRows.keys()].filter((q) => byQuery.has(q));
  const values: Record<string, Float64Array> = {};
  for (const m of ms) values[m.name] = new Float64Array(qids.length);
  qids.forEach((qid, i) => {
    const docs = byQuery.get(qid)!;
    const order = subtopicOrder([...new Set([...docs.values()].flatMap((s) => [...s.keys()]))]);
    const index = new Map(order.map((s, k) => [s, k]));
    const subsOf = (d: string) => {
      const s = docs.get(d);
      return s ? new Map([...s].map(([sub, v]) => [index.get(sub)!, v] as [number, number])) : undefined;
    };
    const judged = [...docs.keys()].map((d) => ({ docid: d, subs: subsOf(d)! }));
    const input = runRows.get(qid)!.map((row) => {
      const subs = subsOf(row.docid);
      return { score: row.score, docid: row.docid, label: subs ? Math.max(...subs.values()) : undefined, subs };
    });
    ms.forEach((m) => {
      const o = measureOptions(m, explicit);
      const ranking = rank(input, o.depth, o.ties, o.judgedOnly) as DivQuery["ranking"];
      const q = { ranking, judged: judged.map((d) => Math.max(...d.subs.values())) };
      values[m.name][i] = m.family.diversity
        ? referenceValue(m, q, o, (mk) => diversityValue(mk, { ranking, judged }, o))
        : referenceValue(m, q, o);
    });
  });
  return { qids, values };
}
