/**
 * Diversity evaluation: a run joined to subtopic judgments (TREC's diversity qrels, `topic subtopic
 * docno judgment`, as ndeval reads them), into a batch that carries, beside each document's label
 * (its highest judgment: every other measure reads that), each document's judgment per subtopic,
 * which the diversity measures read (alpha-nDCG, ERR-IA, NRBP, P-IA, MAP-IA, strec: src/measures,
 * assembly/metrics/diversity.ts). Browser-safe.
 */
import { RankevalError } from "./errors.js";
import { evaluateBatch, type Measures, type Result } from "./pipeline/evaluate.js";
import { isColumn } from "./pipeline/group.js";
import type { Run } from "./pipeline/join.js";
import type { Batch, DiversityData } from "./kernel/batch.js";
import { StringPool } from "./kernel/pool.js";
import { parseMeasures } from "./measures/resolve.js";
import { explicitOptions, type Options } from "./options.js";
import { compareBytes } from "./c/strings.js";

/**
 * Subtopic judgments: `{ qid: { subtopic: { docid: judgment } } }` (pyndeval's nested form) or
 * columns (a diversity qrels file's: qid, subtopic, docid, rel).
 */
export type SubtopicQrels =
  | Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, number>>>>>>
  | {
      readonly qid: ArrayLike<string | number>;
      readonly subtopic: ArrayLike<string | number>;
      readonly docid: ArrayLike<string | number>;
      readonly rel: ArrayLike<number>;
    };

export interface DiversityJoin {
  readonly batch: Batch;
  /** The evaluated queries: the run's queries that have judgments, in order of first appearance (with `complete`, then the judged queries the run lacks). */
  readonly qids: string[];
  /** The run's queries without judgments (ndeval prints them with zeros: --format ndeval). */
  readonly runOnly: string[];
  readonly notJudged: number;
  readonly notInRun: number;
}

const bad = (message: string) => new RankevalError("bad-input", message);

/**
 * Tells a subtopic qrels by its shape, line by line: a document of a query judged on two lines with
 * two different second columns (subtopics), which read as plain qrels would be a document judged
 * twice. `line` returns (and `found` keeps) whether one was seen.
 */
export class SubtopicShape {
  private readonly seen = new Map<string, string>();
  found = false;
  line(line: string): boolean {
    if (this.found) return true;
    const f = line.trim().split(/[ \t]+/);
    if (f.length !== 4 || f[0].startsWith("#")) return false;
    const key = `${f[0]}\u0000${f[2]}`;
    const before = this.seen.get(key);
    if (before !== undefined && before !== f[1]) return (this.found = true);
    this.seen.set(key, f[1]);
    return false;
  }
}

/** Subtopic ids in order: by number when every one is a natural number (ndeval's), else by their bytes. */
export function subtopicOrder(ids: readonly string[]): string[] {
  const numeric = ids.every((s) => /^\d+$/.test(s));
  const key = (s: string) => s.replace(/^0+(?=\d)/, "");
  return [...ids].sort(numeric ? (a, b) => key(a).length - key(b).length || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) || compareBytes(a, b) : compareBytes);
}

interface Judgments {
  /** docid -> (subtopic index -> judgment) */
  docs: Map<string, Map<number, number>>;
  subtopics: string[];
}

/** The subtopic judgments by query, each query's subtopics numbered in their order. */
function judgmentsOf(qrels: SubtopicQrels): Map<string, Judgments> {
  if (qrels === null || typeof qrels !== "object") throw bad("subtopic qrels must be { qid: { subtopic: { docid: rel } } } or columns { qid, subtopic, docid, rel }");
  const rows: [string, string, string, number, string][] = [];
  const c = qrels as Record<string, unknown>;
  if (isColumn(c.qid)) {
    for (const name of ["subtopic", "docid", "rel"]) {
      if (!isColumn(c[name])) throw bad(`subtopic qrels.${name} must be an array or typed array`);
      if ((c[name] as ArrayLike<unknown>).length !== (c.qid as ArrayLike<unknown>).length) throw bad(`subtopic qrels.${name} has ${(c[name] as ArrayLike<unknown>).length} values but qrels.qid has ${(c.qid as ArrayLike<unknown>).length}`);
    }
    const q = c.qid as ArrayLike<string | number>;
    const s = c.subtopic as ArrayLike<string | number>;
    const d = c.docid as ArrayLike<string | number>;
    const r = c.rel as ArrayLike<number>;
    for (let i = 0; i < q.length; i++) rows.push([String(q[i]), String(s[i]), String(d[i]), r[i], `subtopic qrels row ${i}`]);
  } else {
    for (const [q, subs] of Object.entries(qrels as Record<string, Record<string, Record<string, number>>>)) {
      if (subs === null || typeof subs !== "object") throw bad(`subtopic qrels[${JSON.stringify(q)}] must be an object of subtopic: { docid: rel }`);
      for (const [s, docs] of Object.entries(subs)) {
        if (docs === null || typeof docs !== "object") throw bad(`subtopic qrels[${JSON.stringify(q)}][${JSON.stringify(s)}] must be an object of docid: rel`);
        for (const [d, v] of Object.entries(docs)) rows.push([q, s, d, v, `subtopic qrels[${JSON.stringify(q)}][${JSON.stringify(s)}][${JSON.stringify(d)}]`]);
      }
    }
  }
  const byQuery = new Map<string, { docs: Map<string, Map<string, number>>; subtopics: Set<string> }>();
  for (const [q, s, d, v, where] of rows) {
    if (typeof v !== "number" || !Number.isFinite(v)) throw bad(`${where}: judgment ${JSON.stringify(v)} is not a finite number`);
    let query = byQuery.get(q);
    if (!query) byQuery.set(q, (query = { docs: new Map(), subtopics: new Set() }));
    let doc = query.docs.get(d);
    if (!doc) query.docs.set(d, (doc = new Map()));
    if (doc.has(s)) throw bad(`${where}: document ${JSON.stringify(d)} is judged twice for subtopic ${JSON.stringify(s)} of query ${JSON.stringify(q)}`);
    doc.set(s, v);
    query.subtopics.add(s);
  }
  const out = new Map<string, Judgments>();
  for (const [q, { docs, subtopics }] of byQuery) {
    const order = subtopicOrder([...subtopics]);
    const index = new Map(order.map((s, i) => [s, i]));
    const numbered = new Map<string, Map<number, number>>();
    for (const [d, subs] of docs) numbered.set(d, new Map([...subs].map(([s, v]) => [index.get(s)!, v] as [number, number]).sort((a, b) => a[0] - b[0])));
    out.set(q, { docs: numbered, subtopics: order });
  }
  return out;
}

/** The run as (qid, docid, score) columns. */
function runColumns(run: Run): { qid: ArrayLike<string | number>; docid: ArrayLike<string | number>; score: ArrayLike<number> } {
  if (run === null || typeof run !== "object") throw bad("run must be { qid: { docid: score } } or columns { qid, docid, score }");
  const c = run as Record<string, unknown>;
  if (isColumn(c.qid)) {
    for (const name of ["docid", "score"]) {
      if (!isColumn(c[name])) throw bad(`run.${name} must be an array or typed array`);
      if ((c[name] as ArrayLike<unknown>).length !== (c.qid as ArrayLike<unknown>).length) throw bad(`run.${name} has ${(c[name] as ArrayLike<unknown>).length} values but run.qid has ${(c.qid as ArrayLike<unknown>).length}`);
    }
    return { qid: c.qid as ArrayLike<string | number>, docid: c.docid as ArrayLike<string | number>, score: c.score as ArrayLike<number> };
  }
  const qid: string[] = [];
  const docid: string[] = [];
  const score: number[] = [];
  for (const [q, docs] of Object.entries(run as Record<string, Record<string, number>>)) {
    if (docs === null || typeof docs !== "object") throw bad(`run[${JSON.stringify(q)}] must be an object of docid: score`);
    for (const [d, s] of Object.entries(docs)) {
      qid.push(q);
      docid.push(d);
      score.push(s);
    }
  }
  return { qid, docid, score };
}

/**
 * Joins a run to subtopic judgments, query by query. A ranked document's label is its highest
 * judgment (NaN without one), and it carries its judgment per subtopic; each query carries its judged
 * documents (in descending id order, for ndeval's ideal ranking) with theirs. `complete`: the judged
 * queries the run lacks are evaluated too, on an empty ranking (ndeval -c). A document judged twice for
 * one subtopic, or ranked twice, is an error.
 */
export function joinDiversity(qrels: SubtopicQrels, run: Run, options: { complete?: boolean } = {}): DiversityJoin {
  const judgments = judgmentsOf(qrels);
  const r = runColumns(run);
  const rowsOf = new Map<string, number[]>();
  for (let i = 0; i < r.qid.length; i++) {
    const q = String(r.qid[i]);
    let rows = rowsOf.get(q);
    if (!rows) rowsOf.set(q, (rows = []));
    rows.push(i);
  }
  const qids = [...rowsOf.keys()].filter((q) => judgments.has(q));
  const runOnly = [...rowsOf.keys()].filter((q) => !judgments.has(q));
  const absent = [...judgments.keys()].filter((q) => !rowsOf.has(q));
  if (options.complete) qids.push(...absent);

  const pool = new StringPool();
  const offsets: number[] = [0];
  const judgedOffsets: number[] = [0];
  const scores: number[] = [];
  const labels: number[] = [];
  const judged: number[] = [];
  const docids: number[] = [];
  const subtopics: number[] = [];
  const rowOffsets: number[] = [0];
  const rowSub: number[] = [];
  const rowGrade: number[] = [];
  const docOffsets: number[] = [0];
  const docPairs: number[] = [0];
  const docSub: number[] = [];
  const docGrade: number[] = [];
  const highest = (subs: Map<number, number>) => Math.max(...subs.values());
  for (const q of qids) {
    const j = judgments.get(q)!;
    const seen = new Set<string>();
    for (const i of rowsOf.get(q) ?? []) {
      const d = String(r.docid[i]);
      const s = r.score[i];
      if (typeof s !== "number" || !Number.isFinite(s)) throw bad(`run row ${i} (query ${JSON.stringify(q)}, document ${JSON.stringify(d)}): score ${JSON.stringify(s)} is not a finite number`);
      if (seen.has(d)) throw bad(`run row ${i}: document ${JSON.stringify(d)} is ranked twice for query ${JSON.stringify(q)}`);
      seen.add(d);
      const subs = j.docs.get(d);
      scores.push(s);
      labels.push(subs ? highest(subs) : NaN);
      docids.push(pool.intern(d));
      if (subs) {
        for (const [sub, v] of subs) {
          rowSub.push(sub);
          rowGrade.push(v);
        }
      }
      rowOffsets.push(rowSub.length);
    }
    offsets.push(scores.length);
    for (const d of [...j.docs.keys()].sort((a, b) => compareBytes(b, a))) {
      const subs = j.docs.get(d)!;
      judged.push(highest(subs));
      for (const [sub, v] of subs) {
        docSub.push(sub);
        docGrade.push(v);
      }
      docPairs.push(docSub.length);
    }
    judgedOffsets.push(judged.length);
    docOffsets.push(judged.length);
    subtopics.push(j.subtopics.length);
  }
  const diversity: DiversityData = {
    subtopics: Int32Array.from(subtopics),
    rowOffsets: Int32Array.from(rowOffsets),
    rowSub: Int32Array.from(rowSub),
    rowGrade: Float64Array.from(rowGrade),
    docOffsets: Int32Array.from(docOffsets),
    docPairs: Int32Array.from(docPairs),
    docSub: Int32Array.from(docSub),
    docGrade: Float64Array.from(docGrade),
  };
  const batch: Batch = {
    numQueries: qids.length,
    offsets: Int32Array.from(offsets),
    scores: Float64Array.from(scores),
    labels: Float64Array.from(labels),
    judgedOffsets: Int32Array.from(judgedOffsets),
    judged: Float64Array.from(judged),
    docids: Int32Array.from(docids),
    pool: pool.pool(),
    diversity,
  };
  return { batch, qids, runOnly, notJudged: runOnly.length, notInRun: options.complete ? 0 : absent.length };
}

/**
 * Evaluates a run against subtopic judgments: the diversity measures (ndeval's names, ir_measures'
 * and rankeval's: `alpha-nDCG@20`, `alpha_nDCG@20`, `alpha_ndcg@20`, `ERR-IA@20`, `NRBP`, ...) and
 * any other measure over each document's highest judgment.
 *
 * @example
 * evaluateDiversity({ q1: { "1": { d1: 1 }, "2": { d2: 1, d1: 1 } } }, { q1: { d1: 2, d2: 1 } }, ["alpha-nDCG@10", "strec@10"])
 */
export function evaluateDiversity(qrels: SubtopicQrels, run: Run, measures: Measures, options?: Options & { complete?: boolean }): Result<string> {
  const { complete, ...rest } = options ?? {};
  const explicit = explicitOptions(rest);
  const warnings: string[] = [];
  const ms = parseMeasures(measures, warnings);
  const { batch, qids, notJudged, notInRun } = joinDiversity(qrels, run, { complete });
  if (qids.length === 0) throw bad(`the run and the subtopic judgments have no query in common (the run has ${notJudged} ${notJudged === 1 ? "query" : "queries"})`);
  return evaluateBatch(batch, qids, ms, explicit, notJudged, notInRun, warnings);
}
