/** Queries ranked as the README says, independently of the kernel. */
import type { ResolvedOptions } from "../measures/options.js";
import type { SubtopicQuery } from "./formulas-subtopic.js";

/** A retrieved document; `label` undefined when unjudged. */
export interface Doc {
  readonly score: number;
  readonly label: number | undefined;
  readonly docid?: string;
}

export interface Query {
  /** Sorted by the tie rules and cut at `depth`: ranking[i - 1] has rank i. */
  readonly ranking: readonly Doc[];
  /** Every judged document's label, retrieved or not. */
  readonly judged: readonly number[];
  readonly subtopics?: SubtopicQuery;
}

const utf8 = new TextEncoder();

/** By UTF-8 bytes, as C's strcmp. */
export function compareUtf8(a: string, b: string) {
  return compareBytes(utf8.encode(a), utf8.encode(b));
}

/**
 * Score descending; ties by docid descending in bytes ("docid", all with ids), label descending ("best")
 * or ascending ("worst", unjudged as 0), else input order; the top `depth`, then (judgedOnly) labels >= 0.
 */
export function rank(
  docs: readonly Doc[],
  depth: number,
  ties: ResolvedOptions["ties"] = "docid",
  judgedOnly = false,
): Doc[] {
  if (ties === "average") throw new Error('reference: ties "average" is every order (tieOrders), not one');
  const withIds = ties === "docid" && docs.length > 0 && docs.every((d) => d.docid !== undefined);
  const byLabel = ties === "best" ? -1 : ties === "worst" ? 1 : 0;
  const indexed = docs.map((doc, index) => ({ doc, index, bytes: withIds ? utf8.encode(doc.docid!) : null }));
  indexed.sort((a, b) => {
    if (a.doc.score > b.doc.score) return -1;
    if (a.doc.score < b.doc.score) return 1;
    if (a.bytes && b.bytes) {
      const c = compareBytes(b.bytes, a.bytes);
      if (c !== 0) return c;
    }
    if (byLabel !== 0) {
      const la = a.doc.label ?? 0;
      const lb = b.doc.label ?? 0;
      if (la !== lb) return byLabel * (la - lb);
    }
    return a.index - b.index;
  });
  const ranked = indexed.map((x) => x.doc);
  const cut = depth < ranked.length ? ranked.slice(0, depth) : ranked;
  return judgedOnly ? cut.filter((d) => d.label !== undefined && d.label >= 0) : cut;
}

/** tieOrders enumerates them one by one. */
const MAX_TIE_ORDERS = 50_000;

/** Every order of each run of equal scores, cut at `depth`: what ties "average" averages over. */
export function tieOrders(docs: readonly Doc[], depth: number): Doc[][] {
  const sorted = rank(docs, Infinity, "input");
  const runs: Doc[][] = [];
  for (const d of sorted) {
    const last = runs[runs.length - 1];
    if (last && last[0].score === d.score) last.push(d);
    else runs.push([d]);
  }
  let count = 1;
  for (const r of runs)
    for (let i = 2; i <= r.length; i++)
      if ((count *= i) > MAX_TIE_ORDERS)
        throw new Error(`reference: more than ${MAX_TIE_ORDERS} tie orders to enumerate`);
  const out: Doc[][] = [];
  const walk = (i: number, prefix: Doc[]) => {
    if (i === runs.length) {
      out.push(depth < prefix.length ? prefix.slice(0, depth) : prefix);
      return;
    }
    for (const p of permutations(runs[i])) walk(i + 1, [...prefix, ...p]);
  };
  walk(0, []);
  return out;
}

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  const out: T[][] = [];
  xs.forEach((x, i) => {
    for (const rest of permutations([...xs.slice(0, i), ...xs.slice(i + 1)])) out.push([x, ...rest]);
  });
  return out;
}

function compareBytes(x: Uint8Array, y: Uint8Array) {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** label >= 0 and >= relevanceThreshold. */
export function isRelevant(label: number | undefined, o: ResolvedOptions) {
  return label !== undefined && label >= 0 && label >= o.relevanceThreshold;
}

/** 0 <= label < threshold (negative labels are "unjudged"). */
export function isJudgedNonRelevant(label: number | undefined, o: ResolvedOptions) {
  return label !== undefined && label >= 0 && !isRelevant(label, o);
}

/** 0 for labels <= 0 and unjudged; else 2^label − 1, label, or the table's. */
export function gain(label: number | undefined, o: ResolvedOptions) {
  if (label === undefined || label <= 0) return 0;
  if (o.gain === "exp") return 2 ** label - 1;
  if (o.gain === "linear") return label;
  const listed = Number.isInteger(label) ? o.gain.get(label) : undefined;
  return listed !== undefined ? listed : label;
}

/** R. */
export function numRelevant(q: Query, o: ResolvedOptions) {
  return q.judged.filter((label) => isRelevant(label, o)).length;
}

/** rel(k) over ranks 1..min(k, N); k = 0: all. */
export function relevantInTop(q: Query, k: number, o: ResolvedOptions) {
  const end = ranksRead(q, k);
  let count = 0;
  for (let i = 0; i < end; i++) if (isRelevant(q.ranking[i].label, o)) count++;
  return count;
}

/** min(k, N), or N without a cutoff. */
export function ranksRead(q: Query, k: number) {
  return k === 0 ? q.ranking.length : Math.min(k, q.ranking.length);
}

export type Params = Readonly<Record<string, number>>;
/** Before the noRelevant/beyondList conventions. */
export type Formula = (q: Query, k: number, o: ResolvedOptions, p: Params) => number;

/** "0/0 = 0". */
export function ratio(a: number, b: number) {
  return b === 0 ? 0 : a / b;
}
