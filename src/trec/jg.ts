/**
 * trec_eval 10's judgment-group measures (-R qrels_jg: `qid jg docno rel`), ported from
 * form_res_rels_jg.c and m_*_avgjg.c (the kernel holds one judgment per document). Browser-safe.
 */
import { RankevalError } from "../errors/errors.js";
import { compareBytes as cmp } from "../c/strings.js";
import type { Retrieved } from "./prefs-measures.js";
import { map, P, RELVALUE_NONPOOL, RELVALUE_UNJUDGED, RprecMult, type RelList } from "./port.js";

/** One judgment (rel: atol). */
export interface JgJudgment {
  readonly jg: string;
  readonly docno: string;
  readonly rel: number;
}

/** trec_format.h RES_RELS, per judgment group. */
export type JgResRels = RelList;

/** -l (atol), -M, -J. */
export interface JgEpi {
  readonly relevanceLevel: number;
  readonly maxDocs: number;
  readonly judgedOnly: boolean;
}

/** te_form_res_rels_jg for one query: a RES_RELS per group, in id order; trec_eval's errors kept. */
export function formResRelsJg(
  qid: string,
  retrieved: readonly Retrieved[],
  judgments: readonly JgJudgment[],
  epi: JgEpi,
): JgResRels[] {
  // Ties by docno descending.
  const ranked = [...retrieved].sort((a, b) => (a.sim > b.sim ? -1 : a.sim < b.sim ? 1 : cmp(b.docno, a.docno)));
  const numResults = Math.min(ranked.length, epi.maxDocs);
  const seen = new Set<string>();
  for (let i = 0; i < numResults; i++) {
    if (seen.has(ranked[i].docno))
      throw new RankevalError(
        "bad-input",
        `query ${JSON.stringify(qid)}: document ${JSON.stringify(ranked[i].docno)} is retrieved twice (trec_eval: duplicate docs)`,
      );
    seen.add(ranked[i].docno);
  }
  // Groups in strcmp order (get_qrels_jg.c).
  const groups = new Map<string, Map<string, number>>();
  for (const j of judgments) {
    let g = groups.get(j.jg);
    if (!g) groups.set(j.jg, (g = new Map()));
    if (g.has(j.docno))
      throw new RankevalError(
        "bad-input",
        `query ${JSON.stringify(qid)}: document ${JSON.stringify(j.docno)} is judged twice by judgment group ${JSON.stringify(j.jg)} (trec_eval: duplicate docs)`,
      );
    g.set(j.docno, j.rel);
  }
  const names = [...groups.keys()].sort(cmp);
  const level = epi.relevanceLevel;
  return names.map((name) => {
    const g = groups.get(name)!;
    const rel: number[] = [];
    for (let i = 0; i < numResults; i++) {
      const label = g.get(ranked[i].docno);
      const r = label === undefined ? RELVALUE_NONPOOL : label < 0 ? RELVALUE_UNJUDGED : label;
      if (epi.judgedOnly && r < 0) continue;
      rel.push(r);
    }
    // Labels below 0 are no level.
    let numRel = 0;
    for (const label of g.values()) if (label >= 0 && label >= level) numRel++;
    return { numRet: rel.length, numRel, numRelRet: countRelRet(rel, level), rel: Float64Array.from(rel) };
  });
}

/** form_res_rels_jg.c's num_rel_ret: labels >= 0 and >= -l (nonpool, unjudged never, even under -l < 0). */
function countRelRet(rel: readonly number[], level: number): number {
  let n = 0;
  for (const r of rel) if (r >= 0 && r >= level) n++;
  return n;
}

/** m_*_avgjg.c: summed per group, divided by the groups when more than one. */
function perGroup(groups: readonly JgResRels[], n: number, values: (g: JgResRels) => number[]): number[] {
  const sum = new Array<number>(n).fill(0);
  for (const g of groups) values(g).forEach((v, i) => (sum[i] += v));
  return groups.length > 1 ? sum.map((v) => v / groups.length) : sum;
}

export const mapAvgjg = (groups: readonly JgResRels[], level: number): number =>
  perGroup(groups, 1, (g) => map(g, {}, { relevanceLevel: level }))[0];

export const pAvgjg = (groups: readonly JgResRels[], cutoffs: readonly number[], level: number): number[] =>
  perGroup(groups, cutoffs.length, (g) => P(g, { cutoffs }, { relevanceLevel: level }));

export const rprecMultAvgjg = (groups: readonly JgResRels[], percents: readonly number[], level: number): number[] =>
  perGroup(groups, percents.length, (g) => RprecMult(g, { cutoffs: percents }, { relevanceLevel: level }));
