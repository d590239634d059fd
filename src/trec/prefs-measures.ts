/**
 * trec_eval 10's preference measures (-R prefs, qrels_prefs), ported from form_prefs_counts.c and
 * m_prefs_*.c (not the kernel: preferences relate documents). Ranked by score, ties by docno ASCENDING
 * (unlike form_res_rels.c), cut at -M. A judgment group (JG) of one subgroup is equivalence classes by
 * rel_level; of several, a preference array closed transitively. trec_eval's errors kept. Browser-safe.
 */
import { RankevalError } from "../errors/errors.js";
import { compareBytes as cmp } from "../c/strings.js";

export interface PrefLine {
  readonly jg: string;
  readonly jsg: string;
  readonly rel: number;
  readonly docno: string;
}

export interface Retrieved {
  readonly docno: string;
  readonly sim: number;
}

/** trec_format.h EC: the documents of one rel_level in a single-subgroup JG, by docid rank. */
interface Ec {
  readonly rel: number;
  readonly ranks: number[];
}

/** trec_format.h JG. */
export interface Jg {
  /** Equivalence classes, by rel_level descending; empty for a preference array. */
  readonly ecs: readonly Ec[];
  /** num_ecs as trec_eval counts (one fewer when the first rel_level is -3). */
  readonly numEcs: number;
  /** pa[i * numJudged + j] = 1 when i is preferred to j. */
  readonly pa: Uint8Array | null;
  /** rel_array: each docid rank's rel_level in this JG, -1 when absent. */
  readonly relArray: Float64Array | null;
  numPrefsFulfilledRet: number;
  numPrefsPossibleRet: number;
  numPrefsFulfilledImp: number;
  numPrefsPossibleImp: number;
  numPrefsPossibleNotoccur: number;
  numNonrel: number;
  numNonrelRet: number;
  numRel: number;
  numRelRet: number;
}

/** trec_format.h RESULTS_PREFS. */
export interface ResultsPrefs {
  readonly jgs: readonly Jg[];
  readonly numJudged: number;
  readonly numJudgedRet: number;
  /** pref_counts: [i * numJudged + j] = JGs preferring docid rank i to j (unsigned short). */
  readonly counts: Uint16Array;
}

const fail = (qid: string, why: string) =>
  new RankevalError("bad-input", `preferences of query ${JSON.stringify(qid)}: ${why}`);

/** form_prefs_counts for one query (documents in any order). */
export function formPrefsCounts(
  qid: string,
  retrieved: readonly Retrieved[],
  prefs: readonly PrefLine[],
  maxDocs: number,
): ResultsPrefs {
  // form_prefs_and_ranks: ranked, cut at -M, then by docno.
  const ranked = [...retrieved].sort((a, b) => (a.sim > b.sim ? -1 : a.sim < b.sim ? 1 : cmp(a.docno, b.docno)));
  const numResults = Math.min(ranked.length, maxDocs);
  const results = ranked.slice(0, numResults).map((d, i) => ({ docno: d.docno, rank: i + 1 }));
  results.sort((a, b) => cmp(a.docno, b.docno));
  for (let i = 1; i < results.length; i++) {
    if (results[i].docno === results[i - 1].docno)
      throw fail(qid, `document ${JSON.stringify(results[i].docno)} is retrieved twice (trec_eval: duplicate docs)`);
  }
  // Stable, as glibc's merge sort.
  const byDocno = prefs
    .map((p, i) => ({ p, i }))
    .sort((a, b) => cmp(a.p.docno, b.p.docno) || a.i - b.i)
    .map((x) => x.p);
  const judgedDocnos = new Set(byDocno.map((p) => p.docno));
  // Docid ranks: judged retrieved documents in rank order, then the others by docno.
  const judgedRet = results.filter((r) => judgedDocnos.has(r.docno)).sort((a, b) => a.rank - b.rank);
  const numJudgedRet = judgedRet.length;
  const docidRank = new Map<string, number>();
  judgedRet.forEach((r, i) => docidRank.set(r.docno, i));
  let next = numJudgedRet;
  for (const p of byDocno) if (!docidRank.has(p.docno)) docidRank.set(p.docno, next++);
  const numJudged = next;
  // comp_prefs_and_ranks_jg_rel_level: jg, jsg, rel_level descending, docid rank ascending.
  const lines = byDocno
    .map((p) => ({ ...p, rank: docidRank.get(p.docno)! }))
    .sort((a, b) => cmp(a.jg, b.jg) || cmp(a.jsg, b.jsg) || (a.rel > b.rel ? -1 : a.rel < b.rel ? 1 : a.rank - b.rank));

  const counts = new Uint16Array(numJudged * numJudged);
  const jgs: Jg[] = [];
  // Each JG, its subgroups and rel_level changes counted as there.
  let start = 0;
  while (start < lines.length) {
    let end = start;
    let numSubGroup = 0;
    let numRelLevel = 0;
    let jsg = "";
    let rel = -3.0; // "Illegal rel_level": a first rel_level of -3 is not counted
    while (end < lines.length && lines[end].jg === lines[start].jg) {
      if (lines[end].jsg !== jsg) {
        numSubGroup++;
        jsg = lines[end].jsg;
      }
      if (rel !== lines[end].rel) {
        numRelLevel++;
        rel = lines[end].rel;
      }
      end++;
    }
    const group = lines.slice(start, end);
    jgs.push(
      numSubGroup > 1
        ? formJgPa(qid, group, numJudged, numJudgedRet, counts)
        : formJgEc(qid, group, numRelLevel, numJudged, numJudgedRet, counts),
    );
    start = end;
  }
  return { jgs, numJudged, numJudgedRet, counts };
}

function emptyJg(ecs: Ec[], numEcs: number, pa: Uint8Array | null, relArray: Float64Array | null): Jg {
  return {
    ecs,
    numEcs,
    pa,
    relArray,
    numPrefsFulfilledRet: 0,
    numPrefsPossibleRet: 0,
    numPrefsFulfilledImp: 0,
    numPrefsPossibleImp: 0,
    numPrefsPossibleNotoccur: 0,
    numNonrel: 0,
    numNonrelRet: 0,
    numRel: 0,
    numRelRet: 0,
  };
}

/** form_jg_ec and add_ec_pref_to_jg: a single-subgroup JG as equivalence classes. */
function formJgEc(
  qid: string,
  prefs: readonly (PrefLine & { rank: number })[],
  numEcs: number,
  numJudged: number,
  numJudgedRet: number,
  counts: Uint16Array,
): Jg {
  const ecs: Ec[] = [];
  for (const p of prefs) {
    if (ecs.length === 0 || ecs[ecs.length - 1].rel !== p.rel) ecs.push({ rel: p.rel, ranks: [] });
    ecs[ecs.length - 1].ranks.push(p.rank);
  }
  const jg = emptyJg(ecs, numEcs, null, null);
  for (let e1 = 0; e1 < numEcs; e1++) {
    const r1 = ecs[e1].ranks;
    let ret = 0;
    while (ret < r1.length && r1[ret] < numJudgedRet) ret++;
    if (ecs[e1].rel > 0.0) {
      jg.numRelRet += ret;
      jg.numRel += r1.length;
    } else {
      jg.numNonrelRet += ret;
      jg.numNonrel += r1.length;
    }
    for (let e2 = e1 + 1; e2 < numEcs; e2++) {
      for (const a of r1) {
        for (const b of ecs[e2].ranks) {
          if (a === b)
            throw fail(
              qid,
              `a document has two rel_levels in one judgment subgroup (trec_eval: internal docid ${a} occurs with different rel_level in same jsg)`,
            );
          addPref(jg, counts, numJudged, numJudgedRet, a, b);
        }
      }
    }
  }
  return closeCounts(jg);
}

/** add_ec_pref_to_jg, add_pa_pref_to_jg: a preferred to b, fulfilled or possible, ret/imp/notoccur. */
function addPref(jg: Jg, counts: Uint16Array, n: number, ret: number, a: number, b: number): void {
  counts[a * n + b]++;
  if (a < b) {
    if (b < ret) jg.numPrefsFulfilledRet++;
    else if (a < ret) jg.numPrefsFulfilledImp++;
    else jg.numPrefsPossibleNotoccur++;
  } else if (a < ret) jg.numPrefsPossibleRet++;
  else if (b < ret) jg.numPrefsPossibleImp++;
  else jg.numPrefsPossibleNotoccur++;
}

/** The possible counts include the fulfilled ones. */
function closeCounts(jg: Jg): Jg {
  jg.numPrefsPossibleRet += jg.numPrefsFulfilledRet;
  jg.numPrefsPossibleImp += jg.numPrefsFulfilledImp;
  return jg;
}

/** form_jg_pa, add_transitives, add_pa_pref_to_jg. */
function formJgPa(
  qid: string,
  prefs: readonly (PrefLine & { rank: number })[],
  n: number,
  numJudgedRet: number,
  counts: Uint16Array,
): Jg {
  const pa = new Uint8Array(n * n);
  const relArray = new Float64Array(n).fill(-1.0);
  for (let i = 0; i < prefs.length; i++) {
    const p = prefs[i];
    const old = relArray[p.rank];
    if ((old > 0.0 && p.rel === 0.0) || (old === 0.0 && p.rel > 0.0)) {
      throw fail(
        qid,
        `document ${JSON.stringify(p.docno)} has both 0 and a rel_level above 0 in judgment group ${JSON.stringify(p.jg)}`,
      );
    }
    relArray[p.rank] = p.rel;
    let j = i + 1;
    while (j < prefs.length && prefs[j].jsg === p.jsg && prefs[j].rel === p.rel) j++;
    for (; j < prefs.length && prefs[j].jsg === p.jsg; j++) pa[p.rank * n + prefs[j].rank] = 1;
  }
  // Transitive closure (as trec_eval's repeated self-product with the diagonal set); a 2-way pair is a cycle.
  for (let i = 0; i < n; i++) pa[i * n + i] = 1;
  for (let k = 0; k < n; k++) {
    for (let i = 0; i < n; i++) {
      if (!pa[i * n + k]) continue;
      for (let j = 0; j < n; j++) if (pa[k * n + j]) pa[i * n + j] = 1;
    }
  }
  for (let i = 0; i < n; i++) pa[i * n + i] = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i !== j && pa[i * n + j] && pa[j * n + i]) {
        throw fail(
          qid,
          `the preferences of judgment group ${JSON.stringify(prefs[0].jg)} contradict each other (a cycle; trec_eval aborts: "Pref inconsistency found")`,
        );
      }
    }
  }
  const jg = emptyJg([], 0, pa, relArray);
  for (let i = 0; i < numJudgedRet; i++) {
    if (relArray[i] > 0.0) jg.numRelRet++;
    else if (relArray[i] === 0.0) jg.numNonrelRet++;
  }
  jg.numRel = jg.numRelRet;
  jg.numNonrel = jg.numNonrelRet;
  for (let i = numJudgedRet; i < n; i++) {
    if (relArray[i] > 0.0) jg.numRel++;
    else if (relArray[i] === 0.0) jg.numNonrel++;
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (pa[i * n + j]) addPref(jg, counts, n, numJudgedRet, i, j);
  return closeCounts(jg);
}

type Part = "ret" | "imp" | "all";

/** A JG's fulfilled and possible counts. */
function fulPoss(jg: Jg, part: Part): [number, number] {
  let ful = jg.numPrefsFulfilledRet;
  let poss = jg.numPrefsPossibleRet;
  if (part !== "ret") {
    ful += jg.numPrefsFulfilledImp;
    poss += jg.numPrefsPossibleImp;
  }
  if (part === "all") poss += jg.numPrefsPossibleNotoccur;
  return [ful, poss];
}

/** m_prefs_simp*.c. */
function simp(rp: ResultsPrefs, part: Part): number {
  let ful = 0;
  let poss = 0;
  for (const jg of rp.jgs) {
    const [f, p] = fulPoss(jg, part);
    ful += f;
    poss += p;
  }
  return poss ? ful / poss : 0;
}

/** m_prefs_avgjg*.c. */
function avgjg(rp: ResultsPrefs, part: Part): number {
  let sum = 0.0;
  for (const jg of rp.jgs) {
    const [f, p] = fulPoss(jg, part);
    if (p) sum += f / p;
  }
  return sum > 0.0 ? sum / rp.jgs.length : 0;
}

/** m_prefs_pair*.c. */
function pair(rp: ResultsPrefs, part: Part): number {
  const n = rp.numJudged;
  const ret = rp.numJudgedRet;
  const c = rp.counts;
  let sum = 0;
  let pairs = 0;
  const add = (i: number, j: number, withSum: boolean) => {
    const a = c[i * n + j];
    const b = c[j * n + i];
    if (a || b) {
      pairs++;
      if (withSum) sum += a / (a + b);
    }
  };
  for (let i = 0; i < ret; i++) for (let j = i + 1; j < ret; j++) add(i, j, true);
  if (part !== "ret") for (let i = 0; i < ret; i++) for (let j = ret; j < n; j++) add(i, j, true);
  if (part === "all") for (let i = ret; i < n; i++) for (let j = i + 1; j < n; j++) add(i, j, false);
  return pairs ? sum / pairs : 0;
}

/** m_prefs_avgjg_Rnonrel(_ret).c: as many non-relevant as relevant (R >= N adds R (R - N) fulfilled). */
function avgjgRnonrel(rp: ResultsPrefs, retOnly: boolean): number {
  let sum = 0.0;
  for (const jg of rp.jgs) {
    const R = retOnly ? jg.numRelRet : jg.numRel;
    const N = retOnly ? jg.numNonrelRet : jg.numNonrel;
    let ful: number;
    let poss: number;
    if (R >= N) {
      [ful, poss] = fulPoss(jg, retOnly ? "ret" : "all");
      ful += jg.numRelRet * (R - N);
      poss += jg.numRel * (R - N);
    } else {
      [ful, poss] = recalculate(jg, rp.numJudgedRet, retOnly);
    }
    sum += ful / poss; // 0/0: NaN, as in C
  }
  return sum > 0.0 ? sum / rp.jgs.length : 0;
}

/**
 * `recalculate`: in an EC JG the last class is the non-relevant (trec_eval reads past a short one:
 * rankeval does not); in a preference array, non-relevant ones after the num_rel-th go.
 */
function recalculate(jg: Jg, numJudgedRet: number, retOnly: boolean): [number, number] {
  let ful = 0;
  let poss = 0;
  if (jg.numEcs > 0) {
    const last = jg.ecs[jg.numEcs - 1].ranks;
    const nonrel = last.slice(0, Math.min(retOnly ? jg.numRelRet : jg.numRel, last.length));
    const count = (a: number, b: number) => {
      if (retOnly) {
        if (a < b) ful++;
        else poss++;
      } else if (a < b && a < numJudgedRet) ful++;
      else poss++;
    };
    // _ret stops at the first unretrieved (ranks ascend within a class).
    const walk = (ranks: readonly number[]) => (retOnly ? ranks.filter((r) => r < numJudgedRet) : ranks);
    for (let e1 = 0; e1 < jg.numEcs; e1++) {
      for (let e2 = e1 + 1; e2 < jg.numEcs - 1; e2++) {
        for (const a of walk(jg.ecs[e1].ranks)) for (const b of walk(jg.ecs[e2].ranks)) count(a, b);
      }
    }
    for (let e1 = 0; e1 < jg.numEcs; e1++) {
      for (const a of walk(jg.ecs[e1].ranks)) for (const b of walk(nonrel)) count(a, b);
    }
    poss += ful;
    return [ful, poss];
  }
  const a = jg.pa!;
  const rel = jg.relArray!;
  const n = rel.length;
  let seen = 0;
  let i = 0;
  // The (num_rel + 1)-th non-relevant document (_ret: among the retrieved).
  for (; i < (retOnly ? numJudgedRet : n); i++) {
    if (rel[i] === 0.0 && ++seen === jg.numRel + 1) break;
  }
  const firstDiscarded = i;
  const gone = (x: number) => x >= firstDiscarded && rel[x] === 0.0;
  for (let r = 0; r < numJudgedRet; r++) {
    if (gone(r)) continue;
    for (let c = 0; c < r; c++) if (!gone(c) && a[r * n + c]) poss++;
    for (let c = r + 1; c < numJudgedRet; c++) if (!gone(c) && a[r * n + c]) ful++;
    if (!retOnly) for (let c = numJudgedRet; c < n; c++) if (!gone(c) && a[r * n + c]) ful++;
  }
  if (!retOnly) {
    for (let r = numJudgedRet; r < n; r++) {
      if (gone(r)) continue;
      for (let c = 0; c < numJudgedRet; c++) if (!gone(c) && a[r * n + c]) poss++;
      for (let c = numJudgedRet; c < n; c++) if (!gone(c) && a[r * n + c]) poss++;
    }
  }
  poss += ful;
  return [ful, poss];
}

const sum = (rp: ResultsPrefs, count: (jg: Jg) => number) => rp.jgs.reduce((s, jg) => s + count(jg), 0);

/** In trec_eval's table order. */
const PREFS = {
  prefs_num_prefs_poss: (rp) =>
    sum(rp, (jg) => jg.numPrefsPossibleRet + jg.numPrefsPossibleImp + jg.numPrefsPossibleNotoccur),
  prefs_num_prefs_ful: (rp) => sum(rp, (jg) => jg.numPrefsFulfilledRet + jg.numPrefsFulfilledImp),
  prefs_num_prefs_ful_ret: (rp) => sum(rp, (jg) => jg.numPrefsFulfilledRet),
  prefs_simp: (rp) => simp(rp, "all"),
  prefs_pair: (rp) => pair(rp, "all"),
  prefs_avgjg: (rp) => avgjg(rp, "all"),
  prefs_avgjg_Rnonrel: (rp) => avgjgRnonrel(rp, false),
  prefs_simp_ret: (rp) => simp(rp, "ret"),
  prefs_pair_ret: (rp) => pair(rp, "ret"),
  prefs_avgjg_ret: (rp) => avgjg(rp, "ret"),
  prefs_avgjg_Rnonrel_ret: (rp) => avgjgRnonrel(rp, true),
  prefs_simp_imp: (rp) => simp(rp, "imp"),
  prefs_pair_imp: (rp) => pair(rp, "imp"),
  prefs_avgjg_imp: (rp) => avgjg(rp, "imp"),
} satisfies Record<string, (rp: ResultsPrefs) => number>;
export type PrefsMeasure = keyof typeof PREFS;
export const PREFS_MEASURES = Object.keys(PREFS) as PrefsMeasure[];

export const prefsValue = (name: PrefsMeasure, rp: ResultsPrefs): number => PREFS[name](rp);
