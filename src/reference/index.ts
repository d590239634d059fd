// The reference, from the README's definitions, checks the kernel's numbers: it shares only types, parsing
// and the discount table with the library; slow and obviously correct.
import { counted } from "../errors/counted.js";
import { badInput, gainTooLarge, notAnObject, shown, SUMMABLE_MAX } from "../errors/errors.js";
import type { Qid, Rows } from "../pipeline/rows-by-query.js";
import type { Qrels, Run } from "../pipeline/join-memory.js";
import { definedMeasure, measureOptions, type Measure } from "../measures/measure.js";
import { parseMeasures } from "../names/resolve.js";
import type { Measures } from "../pipeline/evaluate.js";
import { explicitOptions, type ExplicitOptions, type Options, type ResolvedOptions } from "../measures/options.js";
import { gain, numRelevant, rank, tieOrders, type Doc, type Formula, type Query } from "./ranking.js";
import { RELEVANCE_FORMULAS } from "./formulas-relevance.js";
import { GRADED_FORMULAS } from "./formulas-graded.js";
import { SUBTOPIC_FORMULAS } from "./formulas-subtopic.js";
import type { FamilyName } from "../measures/registry.js";

export { compareUtf8, rank, tieOrders, gain, isRelevant, type Doc, type Query } from "./ranking.js";

const FORMULAS: { readonly [F in FamilyName]: Formula } = {
  ...RELEVANCE_FORMULAS,
  ...GRADED_FORMULAS,
  ...SUBTOPIC_FORMULAS,
};

const formula = (m: Measure, q: Query, o: ResolvedOptions) =>
  FORMULAS[m.family.name as FamilyName](q, m.k, o, m.params);

/** One measure's value for one query under noRelevant, then beyondList (k > N); `value`: the formula. */
export function referenceValue(
  m: Measure,
  q: Query,
  o: ResolvedOptions,
  value: (m: Measure) => number = (m) => formula(m, q, o),
): number {
  const noRelevant = numRelevant(q, o) === 0;
  if (noRelevant && o.noRelevant === "skip") return NaN;
  if (noRelevant && m.family.needsRelevant) {
    if (o.noRelevant === "one") return 1;
    if (o.noRelevant === "nan") return NaN;
  }
  if (m.k > 0 && m.k > q.ranking.length) {
    if (o.beyondList === "nan") return NaN;
    if (o.beyondList === "zero") return 0;
    if (o.beyondList === "clip") return q.ranking.length === 0 ? 0 : value({ ...m, k: q.ranking.length });
  }
  return value(m);
}

/**
 * Refuses a gain past SUMMABLE_MAX (DCG could overflow) as the kernel does: the first measure summing
 * gains, the first query with one, its label of the largest gain (the largest label among equal gains).
 */
function checkGains(
  queries: readonly { docs: readonly Doc[]; judged: readonly number[] }[],
  qids: readonly Qid[],
  measures: readonly Measure[],
  options: readonly ResolvedOptions[],
): void {
  measures.forEach((m, s) => {
    if (!m.family.gain) return;
    const o = options[s];
    queries.forEach((input, i) => {
      let best = { label: -Infinity, gain: -Infinity };
      for (const label of [...input.docs.map((d) => d.label ?? NaN), ...input.judged]) {
        const g = gain(label, o);
        if (g > best.gain || (g === best.gain && label > best.label)) best = { label, gain: g };
      }
      if (best.gain > SUMMABLE_MAX)
        throw gainTooLarge(String(qids[i]), best.label, typeof o.gain === "string" ? o.gain : "table");
    });
  });
}

/** Each measure under its own options and definition; ties "average": the mean over every tie order. */
function evaluateQueries(
  queries: readonly { docs: readonly Doc[]; judged: readonly number[] }[],
  qids: readonly Qid[],
  measures: readonly Measure[],
  explicit: ExplicitOptions,
): Record<string, Float64Array> {
  const values: Record<string, Float64Array> = {};
  const options = measures.map((m) => measureOptions(m, explicit));
  const defined = measures.map((m) => definedMeasure(m, explicit));
  for (const m of measures) values[m.name] = new Float64Array(queries.length);
  checkGains(queries, qids, defined, options);
  queries.forEach((given, i) => {
    const rankings = new Map<string, Query[]>();
    let asTrecEval: typeof given | null = null;
    measures.forEach((m, s) => {
      const o = options[s];
      // trec_eval reads labels with atol (get_qrels.c).
      const trec = m.tool === "trec_eval";
      const input = trec ? (asTrecEval ??= atolLabels(given)) : given;
      const how = `${o.depth} ${o.ties} ${o.judgedOnly} ${trec}`;
      let qs = rankings.get(how);
      if (!qs) {
        const orders =
          o.ties !== "average"
            ? [rank(input.docs, o.depth, o.ties, o.judgedOnly)]
            : o.judgedOnly
              ? tieOrders(rank(input.docs, o.depth, "input", true), Infinity)
              : tieOrders(input.docs, o.depth);
        rankings.set(how, (qs = orders.map((ranking) => ({ ranking, judged: input.judged }))));
      }
      let sum = 0;
      for (const q of qs) sum += referenceValue(defined[s], q, o);
      values[m.name][i] = sum / qs.length;
    });
  });
  return values;
}

/** Truncated toward zero, -0.5 to 0 (not -0). */
const atol = (label: number) => Math.trunc(label) + 0;
const atolOrUnjudged = (label: number | undefined) => (label === undefined ? label : atol(label));

function atolLabels(q: { docs: readonly Doc[]; judged: readonly number[] }): typeof q {
  return { docs: q.docs.map((d) => ({ ...d, label: atolOrUnjudged(d.label) })), judged: q.judged.map(atol) };
}

export type Evaluated<Q = string> = { qids: Q[]; values: Record<string, Float64Array> };

export const readCall = (measures: Measures, options?: Options) => ({
  o: explicitOptions(options),
  ms: parseMeasures(measures),
});

const isColumn = (c: unknown): c is ArrayLike<unknown> =>
  Array.isArray(c) || (ArrayBuffer.isView(c) && !(c instanceof DataView));

/** evaluate(rows) by the definitions: a query's judgments are exactly its rows. */
export function referenceEvaluate(rows: Rows, measures: Measures, options?: Options): Evaluated<Qid> {
  const { o, ms } = readCall(measures, options);
  if (rows === null || typeof rows !== "object")
    throw badInput("rows must be an object of columns { qid, score, rel, docid? }");
  for (const c of ["qid", "score", "rel", "docid"] as const) {
    if (c === "docid" && rows.docid === undefined) continue;
    if (!isColumn(rows[c])) throw badInput(`rows.${c} must be an array or typed array`);
    if (rows[c]!.length !== rows.qid.length)
      throw badInput(`rows.${c} has ${counted(rows[c]!.length, "value")} but rows.qid has ${rows.qid.length}`);
  }
  const byQuery = new Map<Qid, { docs: Doc[]; judged: number[]; seen: Set<string> }>();
  for (let i = 0; i < rows.qid.length; i++) {
    const qid = rows.qid[i];
    const score = rows.score[i];
    const label = rows.rel[i];
    const where = `row ${i} (rows.qid[${i}] = ${JSON.stringify(qid)})`;
    if (typeof qid !== "string" && typeof qid !== "number") throw badInput(`${where}: qid is not a string or number`);
    if (typeof score !== "number" || !Number.isFinite(score))
      throw badInput(`${where}: rows.score[${i}] = ${String(score)} is not a finite number`);
    if (typeof label !== "number" || !Number.isFinite(label))
      throw badInput(`${where}: rows.rel[${i}] = ${String(label)} is not a finite number`);
    let query = byQuery.get(qid);
    if (!query) byQuery.set(qid, (query = { docs: [], judged: [], seen: new Set() }));
    let docid: string | undefined;
    if (rows.docid) {
      const d = rows.docid[i];
      if (typeof d !== "string" && typeof d !== "number")
        throw badInput(`${where}: rows.docid[${i}] is not a string or number`);
      docid = String(d);
      if (query.seen.has(docid))
        throw badInput(`${where}: rows.docid[${i}] = ${JSON.stringify(d)} appears twice in this query`);
      query.seen.add(docid);
    }
    query.docs.push({ score, label, docid });
    query.judged.push(label);
  }
  return { qids: [...byQuery.keys()], values: evaluateQueries([...byQuery.values()], [...byQuery.keys()], ms, o) };
}

interface Triples {
  qid: ArrayLike<string | number>;
  docid: ArrayLike<string | number>;
  value: ArrayLike<number>;
}

/** Objects or columns as columns. */
function triples(x: Qrels | Run, what: "qrels" | "run"): Triples {
  const valueName = what === "qrels" ? "rel" : "score";
  if (notAnObject(x)) throw badInput(`${what} must be { qid: { docid: ${valueName} } } or columns, not ${shown(x)}`);
  const c = x as Record<string, unknown>;
  if (isColumn(c.qid)) {
    for (const name of ["docid", valueName]) {
      if (!isColumn(c[name])) throw badInput(`${what}.${name} must be an array or typed array`);
      if ((c[name] as ArrayLike<unknown>).length !== c.qid.length)
        throw badInput(
          `${what}.${name} has ${counted((c[name] as ArrayLike<unknown>).length, "value")} but ${what}.qid has ${c.qid.length}`,
        );
    }
    return {
      qid: c.qid as ArrayLike<string | number>,
      docid: c.docid as ArrayLike<string | number>,
      value: c[valueName] as ArrayLike<number>,
    };
  }
  const t = { qid: [] as string[], docid: [] as string[], value: [] as number[] };
  for (const [q, docs] of Object.entries(x as Record<string, Record<string, number>>)) {
    if (notAnObject(docs))
      throw badInput(`${what}[${JSON.stringify(q)}] must be an object of docid: ${valueName}, not ${shown(docs)}`);
    for (const [d, v] of Object.entries(docs)) {
      t.qid.push(q);
      t.docid.push(d);
      t.value.push(v);
    }
  }
  return t;
}

/** evaluateRun by the definitions: every judgment counts, retrieved or not. */
export function referenceEvaluateRun(qrels: Qrels, run: Run, measures: Measures, options?: Options): Evaluated {
  const { o, ms } = readCall(measures, options);
  const j = triples(qrels, "qrels");
  const r = triples(run, "run");
  const where = (what: string, t: Triples, i: number) =>
    `${what} row ${i} (query ${JSON.stringify(t.qid[i])}, document ${JSON.stringify(t.docid[i])})`;

  const judgments = new Map<string, Map<string, number>>();
  for (let i = 0; i < j.qid.length; i++) {
    const label = j.value[i];
    if (typeof label !== "number" || !Number.isFinite(label))
      throw badInput(`${where("qrels", j, i)}: label ${String(label)} is not a finite number`);
    const q = String(j.qid[i]);
    const d = String(j.docid[i]);
    if (!judgments.has(q)) judgments.set(q, new Map());
    if (judgments.get(q)!.has(d)) throw badInput(`${where("qrels", j, i)}: document judged twice for this query`);
    judgments.get(q)!.set(d, label);
  }

  const byQuery = new Map<string, { docs: Doc[]; judged: number[]; seen: Set<string> }>();
  for (let i = 0; i < r.qid.length; i++) {
    const q = String(r.qid[i]);
    const d = String(r.docid[i]);
    const score = r.value[i];
    const judged = judgments.get(q);
    if (!judged) continue; // as trec_eval
    if (typeof score !== "number" || !Number.isFinite(score))
      throw badInput(`${where("run", r, i)}: score ${String(score)} is not a finite number`);
    let query = byQuery.get(q);
    if (!query) byQuery.set(q, (query = { docs: [], judged: [...judged.values()], seen: new Set() }));
    if (query.seen.has(d)) throw badInput(`${where("run", r, i)}: document ranked twice for this query`);
    query.seen.add(d);
    query.docs.push({ score, label: judged.get(d), docid: d });
  }
  return { qids: [...byQuery.keys()], values: evaluateQueries([...byQuery.values()], [...byQuery.keys()], ms, o) };
}
