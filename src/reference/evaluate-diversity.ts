import { RankevalError } from "../errors/errors.js";
import { subtopicOrder, type SubtopicQrels } from "../pipeline/join-subtopics.js";
import type { Run } from "../pipeline/join-memory.js";
import { measureOptions } from "../measures/measure.js";
import type { Measures } from "../pipeline/evaluate.js";
import type { Options } from "../measures/options.js";
import { rank, type Doc } from "./ranking.js";
import type { SubtopicQuery } from "./formulas-subtopic.js";
import { readCall, referenceValue, type Evaluated } from "./index.js";

/** evaluateDiversity by the definitions (formulas-subtopic.ts); a document's label: its highest judgment. */
export function referenceEvaluateDiversity(
  qrels: SubtopicQrels,
  run: Run,
  measures: Measures,
  options?: Options,
): Evaluated {
  const { o: explicit, ms } = readCall(measures, options);
  const byQuery = new Map<string, Map<string, Map<string, number>>>();
  const add = (q: string, s: string, d: string, v: number) => {
    if (!byQuery.has(q)) byQuery.set(q, new Map());
    const docs = byQuery.get(q)!;
    if (!docs.has(d)) docs.set(d, new Map());
    docs.get(d)!.set(s, v);
  };
  if ("qid" in qrels && typeof qrels.qid === "object") {
    const c = qrels as {
      qid: ArrayLike<string | number>;
      subtopic: ArrayLike<string | number>;
      docid: ArrayLike<string | number>;
      rel: ArrayLike<number>;
    };
    for (let i = 0; i < c.qid.length; i++) add(String(c.qid[i]), String(c.subtopic[i]), String(c.docid[i]), c.rel[i]);
  } else {
    for (const [q, subs] of Object.entries(qrels as Record<string, Record<string, Record<string, number>>>))
      for (const [s, docs] of Object.entries(subs)) for (const [d, v] of Object.entries(docs)) add(q, s, d, v);
  }
  const runRows = new Map<string, { docid: string; score: number }[]>();
  const r = run as { qid: ArrayLike<string | number>; docid: ArrayLike<string | number>; score: ArrayLike<number> };
  if (!("qid" in r && typeof r.qid === "object"))
    throw new RankevalError("bad-input", "reference: runs as columns only");
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
      const ranking = rank(input, o.depth, o.ties, o.judgedOnly) as SubtopicQuery["ranking"] & Doc[];
      const q = { ranking, judged: judged.map((d) => Math.max(...d.subs.values())), subtopics: { ranking, judged } };
      values[m.name][i] = referenceValue(m, q, o);
    });
  });
  return { qids, values };
}
