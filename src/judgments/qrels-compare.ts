// Systems under two sets of judgments (issue 38): each run evaluated under QRELS A and under QRELS B,
// per measure each run's two means, Kendall's tau and tau_AP between the two orderings of the systems
// (systemCorrelation), and how the two sets agree (agreement): the table the LLM-judge papers print.
import { systemCorrelation } from "../compare/correlation.js";
import { badInput, notAnObject, shown } from "../errors/errors.js";
import { agreement, type Agreement, type AgreementOptions } from "./agreement.js";
import { evaluateJoined, type Measures } from "../pipeline/evaluate.js";
import { Interner } from "../io/interner.js";
import {
  type JoinedQueries,
  JudgmentsInMemory,
  type MemoryRows,
  type Qrels,
  type Run,
} from "../pipeline/join-memory.js";
import type { Options } from "../measures/options.js";

/** The evaluation's options, and agreement's: `threshold` (default relevanceThreshold, else 1) and `bins`. */
export type QrelsCompareOptions = Options & AgreementOptions;

/** One run under both sets: its means, and how many queries each is over (null: no query counted). */
export interface QrelsCompareRun {
  readonly run: string;
  readonly mean_a: number | null;
  readonly mean_b: number | null;
  readonly queries_a: number;
  readonly queries_b: number;
}

/** One measure: each run's two means, and how alike the two orderings of the systems are. */
export interface QrelsCompareMeasure {
  readonly runs: QrelsCompareRun[];
  /** Kendall's tau_b between the systems' means under A and under B (symmetric). null: undefined. */
  readonly kendall_tau: number | null;
  /** tau_AP with A the reference (B's ties averaged over their orders). null: undefined. */
  readonly tau_ap: number | null;
  /** tau_AP with B the reference. null: undefined. */
  readonly tau_ap_b: number | null;
  readonly why_null?: Record<string, string>;
}

export interface QrelsCompare {
  /** The runs' names: the record's keys, or the array's indices ("0", "1", ...). */
  readonly runs: string[];
  /** The measures' keys, as evaluateRun names them, in the order asked. */
  readonly measures: string[];
  readonly by_measure: Record<string, QrelsCompareMeasure>;
  /** agreement([qrelsA, qrelsB]) without its per_query (ask agreement itself for those). */
  readonly agreement: Omit<Agreement, "per_query">;
}

const finite = (x: number) => (Number.isFinite(x) ? x : null);

/**
 * Every run evaluated under `qrelsA` and under `qrelsB` (evaluateRun, same measures and options), then
 * per measure Kendall's tau_b and tau_AP (systemCorrelation) between the systems' means under A and
 * under B, and agreement of A and B (summary only). `runs`: an array or `{ name: run }`, 2 or more.
 */
export function qrelsCompare(
  qrelsA: Qrels,
  qrelsB: Qrels,
  runs: readonly Run[] | Readonly<Record<string, Run>>,
  measures: Measures,
  options?: QrelsCompareOptions,
): QrelsCompare {
  if (!Array.isArray(runs) && notAnObject(runs))
    throw badInput(`qrelsCompare: runs must be an array or { name: run } of 2 or more runs, not ${shown(runs)}`);
  const entries: [string, Run][] = Array.isArray(runs)
    ? (runs as readonly Run[]).map((r, i) => [String(i), r])
    : Object.entries(runs as Record<string, Run>);
  if (entries.length < 2)
    throw badInput(
      `qrelsCompare: the systems' orderings need 2 or more runs (tau of one system is undefined), not ${entries.length}`,
    );
  if (options !== undefined && notAnObject(options))
    throw badInput(`qrelsCompare: options must be an object, not ${shown(options)}`);
  const { threshold, bins, ...evaluation } = options ?? {};
  const agreed = agreement([qrelsA, qrelsB], {
    threshold: threshold ?? evaluation.relevanceThreshold ?? 1,
    ...(bins === undefined ? {} : { bins }),
  });
  const { per_query: _, ...summary } = agreed;

  // Each set of judgments read and grouped once for every run, each run read once for both: as
  // evaluateRun(qrelsA, run) then evaluateRun(qrelsB, run), the same means, counts and errors.
  const names = new Interner(1024);
  const underA = new JudgmentsInMemory(qrelsA, names);
  const underB = new JudgmentsInMemory(qrelsB, names);
  // A batch is dead once evaluated (a result holds none of its arrays): the next join writes over it.
  let spare: JoinedQueries["batch"] | undefined;
  const evaluated = (under: JudgmentsInMemory, rows: () => MemoryRows) =>
    evaluateJoined(
      (prepare) => {
        const joined = under.join(rows(), spare, prepare);
        spare = joined.batch;
        return joined;
      },
      measures,
      evaluation,
    );
  const results = entries.map(([, run]) => {
    let rows: MemoryRows | undefined;
    const read = () => (rows ??= underA.readRun(run));
    return [evaluated(underA, read), evaluated(underB, read)];
  });
  const keys = results[0][0].measures;
  const byMeasure: Record<string, QrelsCompareMeasure> = {};
  for (const key of keys) {
    const rows = entries.map(([name], i) => {
      const [a, b] = results[i];
      return {
        run: name,
        mean_a: finite(a.mean[key]),
        mean_b: finite(b.mean[key]),
        queries_a: a.counted[key],
        queries_b: b.counted[key],
      };
    });
    const undefinedMean = rows.find((r) => r.mean_a === null || r.mean_b === null);
    const why: Record<string, string> = {};
    let tau: number | null = null;
    let tauAP: number | null = null;
    let tauAPB: number | null = null;
    if (undefinedMean) {
      const reason = `run ${JSON.stringify(undefinedMean.run)} has no mean under ${undefinedMean.mean_a === null ? "A" : "B"}`;
      why.kendall_tau = why.tau_ap = why.tau_ap_b = reason;
    } else {
      const a = Object.fromEntries(rows.map((r) => [r.run, r.mean_a!]));
      const b = Object.fromEntries(rows.map((r) => [r.run, r.mean_b!]));
      const ab = systemCorrelation(a, b);
      const ba = systemCorrelation(b, a);
      tau = finite(ab.tau);
      tauAP = finite(ab.tauAP);
      tauAPB = finite(ba.tauAP);
      if (tau === null) why.kendall_tau = "one set of judgments ties every system";
      if (tauAP === null) why.tau_ap = "A ties systems";
      if (tauAPB === null) why.tau_ap_b = "B ties systems";
    }
    byMeasure[key] = {
      runs: rows,
      kendall_tau: tau,
      tau_ap: tauAP,
      tau_ap_b: tauAPB,
      ...(Object.keys(why).length ? { why_null: why } : {}),
    };
  }
  return { runs: entries.map(([n]) => n), measures: keys, by_measure: byMeasure, agreement: summary };
}
