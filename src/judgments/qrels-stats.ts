// What a set of judgments holds, per query and in all (issue 38): documents judged, how many at each label,
// how many relevant (label >= relevanceThreshold, trec_eval's -l), queries with none relevant, fractional
// and negative labels. Read as evaluation reads judgments (join-memory.ts): a document judged twice in a
// query is an error there and here. Browser-safe.
import { checkOptions, oneOf, shown, usageError, BOOLEAN, type OptionType } from "../errors/errors.js";
import { Interner } from "../io/interner.js";
import { sortedOrder } from "../c/strings.js";
import { csvField } from "../output/csv.js";
import { formatLine } from "../trec/format.js";
import type { Qrels } from "../pipeline/join-memory.js";
import { groupSource, QueryDocs, readSource } from "./query-docs.js";

export interface LabelCount {
  readonly label: number;
  readonly count: number;
}

export interface QueryQrelsStats {
  readonly qid: string;
  readonly judged: number;
  /** Label >= relevanceThreshold. */
  readonly relevant: number;
  /** Each label's documents, labels ascending. */
  readonly labels: LabelCount[];
  /** Labels that are not integers. */
  readonly fractional: number;
  readonly negative: number;
}

/** Plain objects and arrays (JSON.stringify writes them whole). */
export interface QrelsStats {
  readonly relevanceThreshold: number;
  readonly queries: number;
  readonly judged: number;
  readonly relevant: number;
  readonly labels: LabelCount[];
  readonly fractional: number;
  readonly negative: number;
  /** Queries without a relevant document, by id in bytes. */
  readonly queriesWithoutRelevant: string[];
  /** Every query given (`{}` too), by id in bytes (trec_eval's -q order). */
  readonly perQuery: QueryQrelsStats[];
}

export interface QrelsStatsOptions {
  /** A label this high or higher is relevant (trec_eval's -l, evaluate's `relevanceThreshold`). @default 1 */
  readonly relevanceThreshold?: number;
}

const FINITE: OptionType = { test: (v) => typeof v === "number" && Number.isFinite(v), is: "a finite number" };
const STATS_OPTIONS: Readonly<Record<keyof QrelsStatsOptions, OptionType>> = { relevanceThreshold: FINITE };

/** Counts of `qrels` (`{ qid: { docid: label } }` or columns, as `evaluate` reads them). */
export function qrelsStats(qrels: Qrels, options: QrelsStatsOptions = {}): QrelsStats {
  const threshold = checkOptions(options, STATS_OPTIONS, "qrelsStats").relevanceThreshold ?? 1;
  const names = new Interner(1024);
  const source = readSource(qrels, "qrels", "rel", names);
  groupSource(source, names.size);
  const table = new QueryDocs([source]);
  const qids = names.stringsOf(Array.from({ length: names.size }, (_, q) => q));
  const all = new Map<number, number>();
  const perQuery: QueryQrelsStats[] = [];
  const without: string[] = [];
  let [judged, relevant, fractional, negative] = [0, 0, 0, 0];
  for (const q of sortedOrder(qids)) {
    const from = source.begin[q];
    const to = source.begin[q + 1];
    table.reset(to - from);
    const counts = new Map<number, number>();
    let [rel, frac, neg] = [0, 0, 0];
    for (let i = from; i < to; i++) {
      const row = source.order[i];
      table.add(0, row, q);
      // -0 is 0: a Map's keys are compared as SameValueZero.
      const label = source.value[row];
      counts.set(label, (counts.get(label) ?? 0) + 1);
      if (label >= threshold) rel++;
      if (!Number.isInteger(label)) frac++;
      if (label < 0) neg++;
    }
    for (const [label, count] of counts) all.set(label, (all.get(label) ?? 0) + count);
    perQuery.push({
      qid: qids[q],
      judged: to - from,
      relevant: rel,
      labels: ascending(counts),
      fractional: frac,
      negative: neg,
    });
    if (rel === 0) without.push(qids[q]);
    judged += to - from;
    relevant += rel;
    fractional += frac;
    negative += neg;
  }
  return {
    relevanceThreshold: threshold,
    queries: qids.length,
    judged,
    relevant,
    labels: ascending(all),
    fractional,
    negative,
    queriesWithoutRelevant: without,
    perQuery,
  };
}

const ascending = (counts: Map<number, number>): LabelCount[] =>
  [...counts].sort((a, b) => a[0] - b[0]).map(([label, count]) => ({ label: label === 0 ? 0 : label, count }));

export interface FormatQrelsStatsOptions {
  /** `"text"`: trec_eval's lines `name\tqid\tvalue` ("all" the summary); `"csv"`: `qid,measure,value`. @default "text" */
  readonly format?: "text" | "csv";
  /** Each query's lines before the summary (trec_eval's -q). @default false */
  readonly perQuery?: boolean;
}

const FORMAT_OPTIONS: Readonly<Record<keyof FormatQrelsStatsOptions, OptionType>> = {
  format: oneOf(["text", "csv"]),
  perQuery: BOOLEAN,
};

/**
 * The statistics as trec_eval prints measures (`num_judged`, `num_rel`, `num_label.2`, `num_fractional`,
 * `num_negative`; the summary also `num_q` and `num_q_no_rel`), or as CSV with the columns of rankeval's
 * results less `run`.
 */
export function formatQrelsStats(stats: QrelsStats, options: FormatQrelsStatsOptions = {}): string {
  const o = checkOptions(options, FORMAT_OPTIONS, "formatQrelsStats");
  if (stats === null || typeof stats !== "object" || !Array.isArray(stats.perQuery))
    throw usageError(`formatQrelsStats: give what qrelsStats() returns, not ${shown(stats)}`);
  const csv = o.format === "csv";
  const out: string[] = csv ? ["qid,measure,value\n"] : [];
  const line = (name: string, qid: string, value: number) =>
    out.push(csv ? `${csvField(qid)},${csvField(name)},${value}\n` : formatLine(name, qid, value, "long"));
  const counts = (qid: string, s: Omit<QueryQrelsStats, "qid">) => {
    line("num_judged", qid, s.judged);
    line("num_rel", qid, s.relevant);
    for (const { label, count } of s.labels) line(`num_label.${label}`, qid, count);
    line("num_fractional", qid, s.fractional);
    line("num_negative", qid, s.negative);
  };
  if (o.perQuery) for (const q of stats.perQuery) counts(q.qid, q);
  line("num_q", "all", stats.queries);
  line("num_q_no_rel", "all", stats.queriesWithoutRelevant.length);
  counts("all", stats);
  return out.join("");
}
