// A drill-down of one query as plain data (JSON): each run's ranking with running values, ties, unjudged
// and moved documents, relevant documents never retrieved, and the ideal ranking. --explain, report, page.
import { measureOptions } from "../measures/measure.js";
import { DEFAULT_OPTIONS, type ResolvedOptions, type Ties } from "../measures/options.js";
import { gain as gainOf, isRelevant, rank, type Doc } from "../reference/ranking.js";
import { trecLines } from "../trec/measures.js";
import { lineKey, trecOptions, type Plan } from "../app/plan.js";
import { printValue, valueRows, type ValuePrint } from "../app/value-print.js";
import type { QueryRows, RunRows } from "./query.js";
import { queryValues, runningValues, type Evaluation, type RankedDoc } from "./running.js";

const MIN_DEPTH = 20;

/** The ranks shown when none is asked for: the largest cutoff of the measures, at least MIN_DEPTH. */
export function defaultDepth(measures: readonly Pick<ExplainedMeasure, "cutoff">[]): number {
  return Math.max(MIN_DEPTH, ...measures.map((m) => m.cutoff));
}

/** The cutoff of a plan's value row (0: none), by its printed name. */
export function cutoffOf(p: Plan, name: string): number {
  const key = valueRows(p).find((r) => r.name === name)?.key;
  return key === undefined ? 0 : (rowCutoffs(p).get(key) ?? 0);
}

export interface ExplainedMeasure {
  readonly name: string;
  readonly key: string;
  readonly print: ValuePrint;
  /** Index into `Explanation.rankings`. */
  readonly ranking: number;
  /** 0: none. */
  readonly cutoff: number;
}

export interface RankingRule {
  readonly ties: Ties;
  /** In words (TIE_WORDS). */
  readonly tieOrder: string;
  /** -M (null: all). */
  readonly depth: number | null;
  /** -J */
  readonly judgedOnly: boolean;
  /** As the first of its measures reads them. */
  readonly relevanceThreshold: number;
  readonly gain: string;
}

export interface ExplainedRow {
  readonly rank: number;
  readonly docid: string;
  readonly score: number;
  /** null: unjudged. */
  readonly label: number | null;
  readonly gain: number;
  readonly relevant: boolean;
  /** Its tie's number (1, 2, ...), null if none. */
  readonly tie: number | null;
  /** Its rank in Explanation.other's run, null if absent there. */
  readonly otherRank: number | null;
  /** By measure key (null: NaN). */
  readonly running: Readonly<Record<string, number | null>>;
}

export interface ExplainedRun {
  readonly name: string;
  readonly inRun: boolean;
  readonly retrieved: number;
  /** By `Explanation.rankings`, to `Explanation.depth`. */
  readonly rankings: readonly {
    /** After -M and -J. */
    readonly length: number;
    readonly rows: readonly ExplainedRow[];
  }[];
  /** By key (null: NaN, or not in the run). */
  readonly values: Readonly<Record<string, number | null>>;
  /** As -q prints them; "" where none. */
  readonly printed: Readonly<Record<string, string>>;
  /** Relevant documents not retrieved (best first, at most `listed`), and counts. */
  readonly unretrieved: {
    readonly relevant: readonly { readonly docid: string; readonly label: number }[];
    readonly relevantCount: number;
    readonly count: number;
  };
  /** Unjudged documents shown in the first ranking. */
  readonly unjudgedShown: number;
}

export interface Explanation {
  readonly qid: string;
  readonly measures: readonly ExplainedMeasure[];
  readonly rankings: readonly RankingRule[];
  readonly depth: number;
  readonly judged: { readonly count: number; readonly relevant: number };
  readonly runs: readonly ExplainedRun[];
  /** Each run's `otherRank`s' run (null: none). */
  readonly other: readonly (number | null)[];
  /** The judged documents, best labels first, as a run. */
  readonly ideal: {
    readonly length: number;
    readonly rows: readonly ExplainedRow[];
    readonly values: Readonly<Record<string, number | null>>;
  };
}

export interface ExplainOptions {
  /** @default defaultDepth */
  readonly depth?: number;
  /** Measures shown. @default every per-query number row of the plan */
  readonly keys?: readonly string[];
  /** Unretrieved relevant documents listed, at most. @default 50 */
  readonly listed?: number;
}

const TIE_WORDS: Record<Ties, string> = {
  docid: "equal scores by document id, descending (trec_eval's order)",
  input: "equal scores in the run's line order",
  average:
    "equal scores: the value is the mean over every order of the tie (shown in the run's line order); a running value is defined where a tie ends",
  best: "equal scores: higher labels first (the best order)",
  worst: "equal scores: lower labels first (the worst order)",
};

/** Each value row's options: its measure's, trec_eval's for its own algorithm's lines. */
function rowOptions(p: Plan, e: Evaluation): Map<string, ResolvedOptions> {
  const out = new Map<string, ResolvedOptions>();
  for (const m of p.measures) out.set(m.name, measureOptions(m, e.explicit));
  for (const l of trecLines(p.trec)) if (l.meanOf) out.set(l.name, measureOptions(l.meanOf[0].measure, e.explicit));
  for (const l of trecLines(p.exact))
    out.set(lineKey(l)!, { ...trecOptions(e.explicit), relevanceThreshold: p.epi.relevanceLevel });
  return out;
}

/** Each value row's cutoff (0: none). */
function rowCutoffs(p: Plan): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of p.measures) out.set(m.name, m.k);
  for (const l of trecLines(p.trec)) {
    const key = lineKey(l);
    if (key !== null && !out.has(key)) out.set(key, l.cutoff ?? 0);
  }
  return out;
}

/** The cutoffs of kernel measures read at their cutoff only. */
function readAtCutoff(p: Plan): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of p.measures) if (m.k > 0 && m.family.topK) out.set(m.name, m.k);
  return out;
}

const describeGain = (g: ResolvedOptions["gain"]) =>
  typeof g === "string" ? g : `table ${[...g].map(([l, v]) => `${l}=${v}`).join(",")}`;

const docsOf = (rows: RunRows, labels: ReadonlyMap<string, number>): RankedDoc[] =>
  rows.docids.map((docid, index) => ({ docid, score: rows.scores[index], label: labels.get(docid), index }));

/** Documents ranked as measures under `o` rank them (the reference's ranking). */
function ranked(docs: RankedDoc[], o: Pick<ResolvedOptions, "ties" | "depth" | "judgedOnly">): RankedDoc[] {
  // "average" is every order of a tie: shown in the run's order.
  return rank(docs as Doc[], o.depth, o.ties === "average" ? "input" : o.ties, o.judgedOnly) as unknown as RankedDoc[];
}

const nullable = (v: number) => (Number.isNaN(v) ? null : v);

/** The drill-down of a query; moves against the first run (its against the second). */
export function explainQuery(e: Evaluation, q: QueryRows, o: ExplainOptions = {}): Explanation {
  const { p } = e;
  const all = valueRows(p);
  const wanted = o.keys ? all.filter((r) => o.keys!.includes(r.key)) : all;
  const rows = wanted.length ? wanted : all;
  const options = rowOptions(p, e);
  const cutoffs = rowCutoffs(p);
  const topK = readAtCutoff(p);
  // One ranking per (tie order, depth, -J).
  const rules: RankingRule[] = [];
  const ruleOf = new Map<string, number>();
  const measures = rows.map((r) => {
    const opts = options.get(r.key) ?? DEFAULT_OPTIONS;
    const id = `${opts.ties}\0${opts.depth}\0${opts.judgedOnly}`;
    let ranking = ruleOf.get(id);
    if (ranking === undefined) {
      ruleOf.set(id, (ranking = rules.length));
      rules.push({
        ties: opts.ties,
        tieOrder: TIE_WORDS[opts.ties],
        depth: Number.isFinite(opts.depth) ? opts.depth : null,
        judgedOnly: opts.judgedOnly,
        relevanceThreshold: opts.relevanceThreshold,
        gain: describeGain(opts.gain),
      });
    }
    return { name: r.name, key: r.key, print: r.print, ranking, cutoff: cutoffs.get(r.key) ?? 0 };
  });
  const depth = Math.max(1, Math.floor(o.depth ?? defaultDepth(measures)));
  const ruleOptions = rules.map((_, i) => options.get(measures.find((m) => m.ranking === i)!.key) ?? DEFAULT_OPTIONS);
  const labels = new Map<string, number>();
  q.judged.docids.forEach((d, i) => labels.set(d, q.judged.labels[i]));
  const first = ruleOptions[0];
  const relevantJudged = q.judged.labels.filter((l) => isRelevant(l, first)).length;
  const keys = measures.map((m) => m.key);
  const pick = (values: Readonly<Record<string, number>> | Record<string, Float64Array>, at?: number) =>
    Object.fromEntries(
      keys.map((k) => {
        const v = values[k] as number | Float64Array | undefined;
        return [k, v === undefined ? null : nullable(typeof v === "number" ? v : v[at!])];
      }),
    );

  const rankings = q.runs.map((run) =>
    rules.map((_, i) => (run.rows ? ranked(docsOf(run.rows, labels), ruleOptions[i]) : [])),
  );
  const rankOf = rankings.map((rs) => new Map(rs[0].map((d, i) => [d.docid, i + 1])));
  const other = q.runs.map((_, i) => (q.runs.length < 2 ? null : i === 0 ? 1 : 0));

  const runs = q.runs.map((run, r) => {
    const values = queryValues(e, q.judged, run.rows && docsOf(run.rows, labels));
    const rowsOf = (ranking: readonly RankedDoc[], rule: number) => {
      const o2 = ruleOptions[rule];
      const running = runningValues(e, q.judged, ranking, depth, o2.ties, values);
      // Under ties "average" from a measure's cutoff on its value is the measure's (each order's top k is in the ranks so far).
      if (o2.ties === "average" && values) {
        for (const [key, k] of topK) {
          const v = running[key];
          if (v) for (let i = k - 1; i < v.length; i++) if (Number.isNaN(v[i])) v[i] = values[key];
        }
      }
      const ties = tieGroups(ranking);
      const otherRanks = other[r] === null ? null : rankOf[other[r]!];
      return ranking
        .slice(0, depth)
        .map((d, i) =>
          rowOf(d, i, o2, ties[i], otherRanks ? (otherRanks.get(d.docid) ?? null) : null, pick(running, i)),
        );
    };
    const retrieved = new Set(run.rows?.docids ?? []);
    const missing = q.judged.docids
      .map((docid, i) => ({ docid, label: q.judged.labels[i] }))
      .filter((d) => !retrieved.has(d.docid));
    const relevantMissing = missing.filter((d) => isRelevant(d.label, first)).sort((a, b) => b.label - a.label);
    const firstRows = rowsOf(rankings[r][0], 0);
    return {
      name: run.name,
      inRun: run.rows !== null,
      retrieved: run.rows?.docids.length ?? 0,
      rankings: rules.map((_, i) => ({
        length: rankings[r][i].length,
        rows: i === 0 ? firstRows : rowsOf(rankings[r][i], i),
      })),
      values: pick(values ?? {}),
      printed: Object.fromEntries(
        measures.map((m) => [m.key, values ? printValue(values[m.key] ?? NaN, m.print) : ""]),
      ),
      unretrieved: {
        relevant: relevantMissing.slice(0, o.listed ?? 50),
        relevantCount: relevantMissing.length,
        count: missing.length,
      },
      unjudgedShown: firstRows.filter((x) => x.label === null).length,
    };
  });

  // The ideal ranking: higher labels first, judgments' order among equals.
  const idealDocs: RankedDoc[] = q.judged.docids
    .map((docid, index) => ({ docid, label: q.judged.labels[index], index }))
    .sort((a, b) => b.label - a.label || a.index - b.index)
    .map((d, i, all) => ({ docid: d.docid, score: all.length - i, label: d.label, index: d.index }));
  const idealRanking = ranked(idealDocs, { ...first, ties: "input" });
  const idealValues = queryValues(e, q.judged, idealDocs)!;
  const idealRunning = runningValues(e, q.judged, idealRanking, depth, "input", idealValues);
  const ideal = {
    length: idealRanking.length,
    rows: idealRanking.slice(0, depth).map((d, i) => rowOf(d, i, first, null, null, pick(idealRunning, i))),
    values: pick(idealValues),
  };
  return {
    qid: q.qid,
    measures,
    rankings: rules,
    depth,
    judged: { count: q.judged.docids.length, relevant: relevantJudged },
    runs,
    other,
    ideal,
  };
}

function rowOf(
  d: RankedDoc,
  i: number,
  o: ResolvedOptions,
  tie: number | null,
  otherRank: number | null,
  running: Readonly<Record<string, number | null>>,
): ExplainedRow {
  return {
    rank: i + 1,
    docid: d.docid,
    score: d.score,
    label: d.label ?? null,
    gain: gainOf(d.label, o),
    relevant: isRelevant(d.label, o),
    tie,
    otherRank,
    running,
  };
}

/** Each rank's tie number (1, 2, ...), null for a score of its own. */
function tieGroups(ranking: readonly RankedDoc[]): (number | null)[] {
  const out: (number | null)[] = new Array(ranking.length).fill(null);
  let group = 0;
  for (let i = 0; i < ranking.length; ) {
    let j = i + 1;
    while (j < ranking.length && ranking[j].score === ranking[i].score) j++;
    if (j - i > 1) {
      group++;
      for (let k = i; k < j; k++) out[k] = group;
    }
    i = j;
  }
  return out;
}
