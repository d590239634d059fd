// A measure's running value at rank i: its value (evaluateBlock's) for the ranking cut after rank i, so
// at the last rank and from its cutoff on it is the per-query value. Before the end a cutoff past rank i
// pads whatever beyondList says: a running value says what the ranks so far contribute.
import type { Batch } from "../kernel/batch.js";
import type { ExplicitOptions, Ties } from "../measures/options.js";
import { evaluateBlock } from "../app/evaluate-block.js";
import type { Plan } from "../app/plan.js";
import { PLACEHOLDER_DOCNO } from "../pipeline/join-rows.js";
import type { JudgedDocs } from "./query.js";

/** A document of a ranking (label undefined: unjudged). */
export interface RankedDoc {
  readonly docid: string;
  readonly score: number;
  readonly label: number | undefined;
  /** Its row among the query's rows in the run: input order. */
  readonly index: number;
}

const utf8 = new TextEncoder();

/** A kernel batch of queries, each the documents given against the same judgments; ids pooled for trec_eval's tie order. */
export function batchOf(queries: readonly (readonly RankedDoc[])[], judged: JudgedDocs): Batch {
  let rows = 0;
  for (const q of queries) rows += q.length;
  const offsets = new Int32Array(queries.length + 1);
  const scores = new Float64Array(rows);
  const labels = new Float64Array(rows);
  const docids = new Int32Array(rows);
  const J = judged.labels.length;
  const judgedOffsets = new Int32Array(queries.length + 1);
  const judgedLabels = new Float64Array(J * queries.length);
  const entry = new Map<number, number>();
  const encoded: Uint8Array[] = [];
  let at = 0;
  queries.forEach((q, k) => {
    for (const d of q) {
      scores[at] = d.score;
      labels[at] = d.label === undefined ? NaN : d.label;
      let e = entry.get(d.index);
      if (e === undefined) {
        entry.set(d.index, (e = encoded.length));
        encoded.push(utf8.encode(d.docid));
      }
      docids[at++] = e;
    }
    offsets[k + 1] = at;
    judgedLabels.set(judged.labels, J * k);
    judgedOffsets[k + 1] = J * (k + 1);
  });
  const poolOffsets = new Int32Array(encoded.length + 1);
  for (let e = 0; e < encoded.length; e++) poolOffsets[e + 1] = poolOffsets[e] + encoded[e].length;
  const bytes = new Uint8Array(poolOffsets[encoded.length]);
  encoded.forEach((b, e) => bytes.set(b, poolOffsets[e]));
  return {
    numQueries: queries.length,
    offsets,
    scores,
    labels,
    judgedOffsets,
    judged: judgedLabels,
    docids,
    pool: { bytes, offsets: poolOffsets },
  };
}

export interface Evaluation {
  readonly p: Plan;
  readonly explicit: ExplicitOptions;
  /** trec_eval -c */
  readonly complete?: boolean;
}

/** A batch's values by key (warnings were said by the evaluation). */
function valuesOf(
  e: Evaluation,
  batch: Batch,
  explicit: ExplicitOptions,
  placeholders: number[] = [],
): Record<string, Float64Array> {
  const qids = Array.from({ length: batch.numQueries }, (_, i) => String(i));
  return evaluateBlock(e.p, batch, qids, explicit, "", () => {}, placeholders).result.values;
}

/** A run's values of the query by key; without the query, under -c those of an empty ranking (trec_eval's placeholder), else null. */
export function queryValues(
  e: Evaluation,
  judged: JudgedDocs,
  docs: readonly RankedDoc[] | null,
): Record<string, number> | null {
  let values: Record<string, Float64Array>;
  if (docs) values = valuesOf(e, batchOf([docs], judged), e.explicit);
  else if (!e.complete) return null;
  else if (e.p.kind === "trec") {
    const at = judged.docids.indexOf(PLACEHOLDER_DOCNO);
    const placeholder: RankedDoc = {
      docid: PLACEHOLDER_DOCNO,
      score: 1,
      label: at < 0 ? undefined : judged.labels[at],
      index: 0,
    };
    values = valuesOf(e, batchOf([[placeholder]], judged), e.explicit, [0]);
  } else values = valuesOf(e, batchOf([[]], judged), e.explicit);
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v[0]]));
}

/**
 * The running values at ranks 1..upTo of `ranking`, by key (entry i - 1: rank i). Each prefix goes to
 * the kernel in the run's order, ranked as the whole list was. Under ties "average" one ending inside a tie is NaN.
 */
export function runningValues(
  e: Evaluation,
  judged: JudgedDocs,
  ranking: readonly RankedDoc[],
  upTo: number,
  ties: Ties,
  final?: Readonly<Record<string, number>> | null,
): Record<string, Float64Array> {
  const n = Math.min(upTo, ranking.length);
  const inputOrder = (docs: readonly RankedDoc[]) => [...docs].sort((a, b) => a.index - b.index);
  const prefixes: RankedDoc[][] = [];
  for (let i = 1; i <= n && i < ranking.length; i++) prefixes.push(inputOrder(ranking.slice(0, i)));
  const out: Record<string, Float64Array> = {};
  const pad: ExplicitOptions = Object.freeze({ ...e.explicit, beyondList: "pad" });
  const before = prefixes.length ? valuesOf(e, batchOf(prefixes, judged), pad) : {};
  // The whole ranking under its own beyondList: `final` when given (under ties "average" with -M
  // cutting a tie, which documents are kept is itself averaged over, not the ones shown).
  const last = (): Record<string, ArrayLike<number>> =>
    final
      ? Object.fromEntries(Object.entries(final).map(([k, v]) => [k, [v]]))
      : valuesOf(e, batchOf([inputOrder(ranking)], judged), e.explicit);
  const whole = n === ranking.length && n > 0 ? last() : {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(whole)])) {
    const v = new Float64Array(n);
    if (before[key]) v.set(before[key]);
    if (whole[key]) v[n - 1] = whole[key][0];
    out[key] = v;
  }
  if (ties === "average") {
    for (let i = 1; i < n; i++) {
      if (ranking[i - 1].score !== ranking[i].score) continue;
      for (const v of Object.values(out)) v[i - 1] = NaN;
    }
  }
  return out;
}
