/**
 * Diversity evaluation: a run joined to subtopic judgments (ndeval's `topic subtopic docno judgment`)
 * into a batch carrying each document's judgment per subtopic beside its label (its highest judgment,
 * read by every other measure). Browser-safe.
 */
import { counted } from "../errors/counted.js";
import { documentTwice, badInput, BOOLEAN, checkOptions } from "../errors/errors.js";
import { evaluateBatch, type Measures, type Result } from "./evaluate.js";
import { isColumn } from "./rows-by-query.js";
import { joinMemory, MemoryRows, type MemoryJoin, type Run } from "./join-memory.js";
import type { Batch } from "../kernel/batch.js";
import { parseMeasures } from "../names/resolve.js";
import type { CheckedMeasures } from "../names/name-types.js";
import { explicitOptions, OPTION_TYPES, type Options } from "../measures/options.js";
import { compareBytes } from "../c/strings.js";

/** Subtopic judgments: `{ qid: { subtopic: { docid: judgment } } }` (pyndeval) or columns. */
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
  /** The run's judged queries, first-seen order (with `complete`, then judged ones it lacks). */
  readonly qids: string[];
  /** Run queries without judgments (ndeval prints them with zeros). */
  readonly runOnly: string[];
  readonly notJudged: number;
  readonly notInRun: number;
}

/**
 * Tells a subtopic qrels line by line: a document judged twice in a query under different subtopics.
 * While every line has the first line's subtopic (a qrels' iteration field, "0" on every line) no
 * document can be, so the lines are only held; the (query, document) map, most of the sniff's time
 * (30 ms of a MiB at start-up), is made once a second subtopic shows.
 */
export class SubtopicShape {
  private readonly seen = new Map<string, string>();
  private held: string[] | null = [];
  private first: string | undefined;
  found = false;
  line(line: string): boolean {
    if (this.found) return true;
    if (this.held) {
      const subtopic = secondOfFour(line);
      if (subtopic === undefined) return false;
      this.first ??= subtopic;
      if (subtopic === this.first) {
        this.held.push(line);
        return false;
      }
      const held = this.held;
      this.held = null;
      for (const h of held) this.judged(h);
    }
    return this.judged(line);
  }

  private judged(line: string): boolean {
    const f = line.trim().split(/[ \t]+/);
    if (f.length !== 4 || f[0].startsWith("#")) return false;
    const key = `${f[0]}\u0000${f[2]}`;
    const before = this.seen.get(key);
    if (before !== undefined && before !== f[1]) return (this.found = true);
    this.seen.set(key, f[1]);
    return false;
  }
}

/** The second field of a line of four (as `judged` splits it), undefined for any other line or a comment. */
function secondOfFour(line: string): string | undefined {
  const t = line.trim();
  if (t.charCodeAt(0) === 35) return undefined; // '#'
  let fields = 1;
  let start = 0;
  let end = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c !== 32 && c !== 9) continue;
    const at = i;
    while (i + 1 < t.length && (t.charCodeAt(i + 1) === 32 || t.charCodeAt(i + 1) === 9)) i++;
    fields++;
    if (fields === 2) start = i + 1;
    else if (fields === 3) end = at;
    else if (fields > 4) return undefined;
  }
  return fields === 4 ? t.slice(start, end) : undefined;
}

/** Subtopic ids by number when all are natural numbers (ndeval), else by bytes. */
export function subtopicOrder(ids: readonly string[]): string[] {
  const numeric = ids.every((s) => /^\d+$/.test(s));
  const key = (s: string) => s.replace(/^0+(?=\d)/, "");
  return [...ids].sort(
    numeric
      ? (a, b) =>
          key(a).length - key(b).length || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) || compareBytes(a, b)
      : compareBytes,
  );
}

interface Judgments {
  /** docid -> (subtopic index -> judgment) */
  docs: Map<string, Map<number, number>>;
  subtopics: string[];
}

function judgmentsOf(qrels: SubtopicQrels): Map<string, Judgments> {
  if (qrels === null || typeof qrels !== "object")
    throw badInput(
      "subtopic qrels must be { qid: { subtopic: { docid: rel } } } or columns { qid, subtopic, docid, rel }",
    );
  const rows: [string, string, string, number, string][] = [];
  const c = qrels as Record<string, unknown>;
  if (isColumn(c.qid)) {
    for (const name of ["subtopic", "docid", "rel"]) {
      const col = c[name];
      if (!isColumn(col)) throw badInput(`subtopic qrels.${name} must be an array or typed array`);
      if (col.length !== c.qid.length)
        throw badInput(`subtopic qrels.${name} has ${counted(col.length, "value")} but qrels.qid has ${c.qid.length}`);
    }
    const { qid: q, subtopic: s, docid: d, rel: r } = qrels as Extract<SubtopicQrels, { rel: unknown }>;
    for (let i = 0; i < q.length; i++)
      rows.push([String(q[i]), String(s[i]), String(d[i]), r[i], `subtopic qrels row ${i}`]);
  } else {
    for (const [q, subs] of Object.entries(qrels as Record<string, Record<string, Record<string, number>>>)) {
      if (subs === null || typeof subs !== "object")
        throw badInput(`subtopic qrels[${JSON.stringify(q)}] must be an object of subtopic: { docid: rel }`);
      for (const [s, docs] of Object.entries(subs)) {
        if (docs === null || typeof docs !== "object")
          throw badInput(`subtopic qrels[${JSON.stringify(q)}][${JSON.stringify(s)}] must be an object of docid: rel`);
        for (const [d, v] of Object.entries(docs))
          rows.push([q, s, d, v, `subtopic qrels[${JSON.stringify(q)}][${JSON.stringify(s)}][${JSON.stringify(d)}]`]);
      }
    }
  }
  const byQuery = new Map<string, { docs: Map<string, Map<string, number>>; subtopics: Set<string> }>();
  for (const [q, s, d, v, where] of rows) {
    if (typeof v !== "number" || !Number.isFinite(v))
      throw badInput(`${where}: judgment ${JSON.stringify(v)} is not a finite number`);
    let query = byQuery.get(q);
    if (!query) byQuery.set(q, (query = { docs: new Map(), subtopics: new Set() }));
    let doc = query.docs.get(d);
    if (!doc) query.docs.set(d, (doc = new Map()));
    if (doc.has(s)) throw documentTwice(d, q, `${where} (subtopic ${JSON.stringify(s)})`);
    doc.set(s, v);
    query.subtopics.add(s);
  }
  const out = new Map<string, Judgments>();
  for (const [q, { docs, subtopics }] of byQuery) {
    const order = subtopicOrder([...subtopics]);
    const index = new Map(order.map((s, i) => [s, i]));
    const numbered = new Map<string, Map<number, number>>();
    for (const [d, subs] of docs)
      numbered.set(
        d,
        new Map([...subs].map(([s, v]) => [index.get(s)!, v] as [number, number]).sort((a, b) => a[0] - b[0])),
      );
    out.set(q, { docs: numbered, subtopics: order });
  }
  return out;
}

/**
 * Joins a run to subtopic judgments; a ranked document's label is its highest judgment (NaN without).
 * `complete`: judged queries the run lacks get an empty ranking (ndeval -c). Duplicates are errors.
 */
export function joinDiversity(qrels: SubtopicQrels, run: Run, options: { complete?: boolean } = {}): DiversityJoin {
  const { joined, ...rest } = subtopicJoin(qrels, run, checkOptions(options, { complete: BOOLEAN }, "joinDiversity"));
  return rest;
}

function subtopicJoin(
  qrels: SubtopicQrels,
  run: Run,
  options: { complete?: boolean },
): DiversityJoin & { joined: MemoryJoin } {
  const judgments = judgmentsOf(qrels);
  // Judged documents (descending id, ndeval's ideal order) are rows labelled by their index here.
  const entries: Map<number, number>[] = [];
  const subtopics = new Map<string, number>();
  const joined = joinMemory(
    run,
    (names) => {
      const rows = new MemoryRows("qrels", names);
      for (const [q, j] of judgments) {
        const id = names.internString(q);
        subtopics.set(names.stringOf(id), j.subtopics.length);
        for (const d of [...j.docs.keys()].sort((a, b) => compareBytes(b, a))) {
          rows.add(id, d, entries.length);
          entries.push(j.docs.get(d)!);
        }
      }
      return rows;
    },
    options,
  );
  const { qids } = joined;
  const highest = (e: number) => Math.max(...entries[e].values());
  const batch = joined.batch;
  const nq = batch.numQueries;
  const numSubtopics = Int32Array.from(qids, (q) => subtopics.get(q)!);
  const rowOffsets = new Int32Array(batch.offsets[nq] + 1);
  const docPairs = new Int32Array(batch.judgedOffsets![nq] + 1);
  const rowSub: number[] = [];
  const rowGrade: number[] = [];
  const docSub: number[] = [];
  const docGrade: number[] = [];
  const pairs = (e: number, sub: number[], grade: number[]) => {
    for (const [s, v] of entries[e]) {
      sub.push(s);
      grade.push(v);
    }
  };
  batch.labels.forEach((e, row) => {
    if (e === e) pairs(e, rowSub, rowGrade);
    rowOffsets[row + 1] = rowSub.length;
    batch.labels[row] = e === e ? highest(e) : NaN;
  });
  batch.judged!.forEach((e, k) => {
    pairs(e, docSub, docGrade);
    docPairs[k + 1] = docSub.length;
    batch.judged![k] = highest(e);
  });
  const diversity: Batch = {
    ...batch,
    // The labels were the entries' numbers, now their grades: whole or not, as the grades are.
    wholeLabels: undefined,
    diversity: {
      subtopics: numSubtopics,
      rowOffsets,
      rowSub: Int32Array.from(rowSub),
      rowGrade: Float64Array.from(rowGrade),
      docOffsets: batch.judgedOffsets!,
      docPairs,
      docSub: Int32Array.from(docSub),
      docGrade: Float64Array.from(docGrade),
    },
  };
  const runOnly: string[] = [];
  for (let q = 0; q < joined.runQueries; q++) if (!joined.judged(q)) runOnly.push(joined.run.qidNames.stringOf(q));
  return { batch: diversity, qids, runOnly, notJudged: joined.notJudged, notInRun: joined.notInRun, joined };
}

/**
 * Evaluates a run against subtopic judgments: diversity measures (`alpha-nDCG@20`, `ERR-IA@20`, `NRBP`, ...)
 * and any other measure over each document's highest judgment.
 *
 * @example
 * evaluateDiversity({ q1: { "1": { d1: 1 }, "2": { d2: 1, d1: 1 } } }, { q1: { d1: 2, d2: 1 } }, ["alpha-nDCG@10", "strec@10"])
 */
export function evaluateDiversity<const M extends Measures>(
  qrels: SubtopicQrels,
  run: Run,
  measures: CheckedMeasures<M>,
  options?: Options & { complete?: boolean },
): Result<string>;
export function evaluateDiversity(
  qrels: SubtopicQrels,
  run: Run,
  measures: Measures,
  options?: Options & { complete?: boolean },
): Result<string> {
  const { complete, ...rest } = checkOptions(options, { ...OPTION_TYPES, complete: BOOLEAN }, "evaluateDiversity");
  const explicit = explicitOptions(rest);
  const warnings: string[] = [];
  const ms = parseMeasures(measures, warnings);
  const { batch, qids, notJudged, notInRun, joined } = subtopicJoin(qrels, run, { complete });
  if (qids.length === 0) throw joined.noQueryInCommon("the subtopic judgments");
  return evaluateBatch(batch, qids, ms, explicit, notJudged, notInRun, warnings);
}
