// RBO_ext of Webber, Moffat & Zobel (2010), "A similarity measure for indefinite rankings", TOIS 28(4),
// eq. 32, with its section on ties.
import { badInput, checkOptions, notAnObject, PROBABILITY, shown } from "../errors/errors.js";
import { sortQids } from "../c/strings.js";
import type { ScoredRun } from "../fusion/run-shapes.js";

export interface RboOptions {
  /** The persistence: the weight of depth d is (1 - p) p^(d-1). @default 0.9 */
  readonly p?: number;
}

/** `values[i]` belongs to `qids[i]`. */
export interface RboResult {
  /** In byte order (trec_eval's). */
  readonly qids: string[];
  readonly values: Float64Array;
  readonly mean: number;
}

export const DEFAULT_RBO_P = 0.9;

interface Ranking {
  readonly docs: string[];
  /** The first rank (1-based) of docs[i]'s tie group. */
  readonly top: Int32Array;
}

/**
 * Rank-biased overlap (RBO_ext) of two runs per query with a document in either (in one only: 0). Tied
 * documents enter the prefix together at their first rank; agreement at depth d: 2 X_d / (|A_:d| + |B_:d|).
 */
export function rbo(runA: ScoredRun, runB: ScoredRun, options?: RboOptions): RboResult {
  const { p = DEFAULT_RBO_P } = checkOptions(options, { p: PROBABILITY }, "rbo");
  return rboOfRuns(runA, runB, p, ["runA", "runB"]);
}

/** rbo(), the runs called `names` in messages. */
export function rboOfRuns(runA: ScoredRun, runB: ScoredRun, p: number, names: readonly [string, string]): RboResult {
  const [nameA, nameB] = names;
  checkRun(runA, nameA);
  checkRun(runB, nameB);
  const seen = new Set<string>();
  for (const run of [runA, runB]) for (const q of Object.keys(run)) if (Object.keys(run[q]).length) seen.add(q);
  const all = [...seen];
  if (!all.length) throw badInput("rbo: neither run has a document: no query to compare");
  if (!all.some((q) => has(runA, q) && has(runB, q)))
    throw badInput(
      `rbo: ${nameA} and ${nameB} have no query in common (${nameA}: ${someQueries(runA)}; ${nameB}: ${someQueries(runB)}): ` +
        "are the ids written alike?",
    );
  const qids = sortQids(all);
  const values = new Float64Array(qids.length);
  let sum = 0;
  for (let i = 0; i < qids.length; i++) {
    const q = qids[i];
    values[i] = has(runA, q) && has(runB, q) ? rboExt(ranking(runA[q]), ranking(runB[q]), p) : 0;
    sum += values[i];
  }
  return { qids, values, mean: sum / qids.length };
}

function has(run: ScoredRun, q: string) {
  return Object.hasOwn(run, q) && Object.keys(run[q]).length > 0;
}

function someQueries(run: ScoredRun) {
  const q = Object.keys(run);
  return `${q.slice(0, 3).map(shown).join(", ")}${q.length > 3 ? ", ..." : ""}`;
}

function checkRun(run: unknown, what: string): asserts run is ScoredRun {
  if (notAnObject(run)) throw badInput(`rbo: ${what} must be { qid: { docid: score } }, not ${shown(run)}`);
  for (const [q, docs] of Object.entries(run as object)) {
    if (notAnObject(docs))
      throw badInput(`rbo: ${what}[${JSON.stringify(q)}] must be an object of docid: score, not ${shown(docs)}`);
    for (const [d, s] of Object.entries(docs as object))
      if (typeof s !== "number" || !Number.isFinite(s))
        throw badInput(
          `rbo: ${what}[${JSON.stringify(q)}][${JSON.stringify(d)}]: score ${shown(s)} is not a finite number`,
        );
  }
}

function ranking(scores: Readonly<Record<string, number>>): Ranking {
  const docs = Object.keys(scores).sort((a, b) => scores[b] - scores[a]);
  const top = new Int32Array(docs.length);
  for (let i = 0; i < docs.length; i++) top[i] = i > 0 && scores[docs[i]] === scores[docs[i - 1]] ? top[i - 1] : i + 1;
  return { docs, top };
}

/**
 * RBO_ext (eq. 32 with ties), S the shorter list (s), L the longer (l); past s, S agrees at A_s:
 *   RBO_ext = (1 - p) sum_{d=1..l} p^(d-1) A_d + p^l (X_l + (l - s) A_s) / l,
 *   A_d = 2 X_d / (|S_:d| + |L_:d|) for d <= s,   A_d = 2 (X_d + (d - s) A_s) / (d + |L_:d|) for s < d <= l,
 * |S_:d| the documents whose tie group starts at or above d.
 */
function rboExt(a: Ranking, b: Ranking, p: number) {
  const [S, L] = a.docs.length <= b.docs.length ? [a, b] : [b, a];
  const s = S.docs.length;
  const l = L.docs.length;
  // Per depth: documents entering each prefix, and both (at the later entry).
  const inS = new Int32Array(l + 1);
  const inL = new Int32Array(l + 1);
  const inBoth = new Int32Array(l + 1);
  const topS = new Map<string, number>();
  for (let i = 0; i < s; i++) {
    inS[S.top[i]]++;
    topS.set(S.docs[i], S.top[i]);
  }
  for (let i = 0; i < l; i++) {
    inL[L.top[i]]++;
    const t = topS.get(L.docs[i]);
    if (t !== undefined) inBoth[Math.max(t, L.top[i])]++;
  }
  let sizeS = 0;
  let sizeL = 0;
  let x = 0;
  let aS = 0;
  let sum = 0;
  let power = 1; // p^(d-1)
  for (let d = 1; d <= l; d++) {
    sizeS += inS[d];
    sizeL += inL[d];
    x += inBoth[d];
    const agreement = d <= s ? (2 * x) / (sizeS + sizeL) : (2 * (x + (d - s) * aS)) / (d + sizeL);
    if (d === s) aS = agreement;
    sum += power * agreement;
    power *= p;
  }
  const value = (1 - p) * sum + power * ((x + (l - s) * aS) / l);
  // Rounding can put identical lists a hair past 1.
  return Math.min(1, Math.max(0, value));
}
