// One evaluation of a QRELS source and RUN sources, whatever face asks: the command line, evaluateFiles
// and the page's worker are adapters of evaluateSources (CONTRIBUTING.md's "How it works"). A face gives
// how its sources are read (EvaluationHost) and what becomes of what is said and evaluated (its hooks);
// every decision between is made here, once:
//  - across partitions first, where the host has them; what they leave (all, on bad input or a thread
//    lost) the one-thread way, which says the error with its file and line;
//  - the judgments read once, while the first runs are (their blocks wait for them: PendingJudgments);
//  - the labels warning, -c's num_rel (m_num_rel.c), each run's warnings said once in the evaluation,
//    then the judged queries it lacks (unless -c), then the run, in the order given.
// Browser-safe.
import { judgmentsLabelsRead, notInRun } from "../input/input.js";
import { Interner } from "../io/interner.js";
import type { ExplicitOptions } from "../measures/options.js";
import type { PendingJudgments } from "../pipeline/blocks.js";
import type { Evaluated } from "../pipeline/evaluate.js";
import type { GroupedJudgments, JoinedRun } from "../pipeline/join-rows.js";
import type { OwnedJudgments } from "../pipeline/partition.js";
import type { PartitionedRun } from "../pipeline/partition-coordinator.js";
import type { PartitionJob } from "../pipeline/partition-protocol.js";
import { labelsWarning, trecLabelOf } from "../pipeline/trec-labels.js";
import { evaluatorFor, type EvaluationSpec } from "./evaluator.js";
import { readsTrecLabels, type Plan } from "./plan.js";

/** A run as a host hands it on; `kept`: what the host keeps of it (the page's blocks). */
export type RunDone = PartitionedRun & { kept?: unknown };

/** A run evaluated, as the hooks get it; `summary`: -c's num_rel under trec_eval's names. */
export type RunOutcome<S> = RunDone & { source: S; summary?: { num_rel: number } };

/** What evaluates a run's joined blocks (`warn`: its warnings, said with its result). */
export type EvaluateFor<S> = (source: S, warn: (w: string) => void) => (joined: JoinedRun) => Evaluated;

/** How a face reads its sources. */
export interface EvaluationHost<S> {
  /** A source's name in messages. */
  name(source: S): string;
  /** The runs evaluated across partitions, where it has them; returns how many, in order (the first ones). */
  partitioned?(
    qrels: S,
    runs: readonly S[],
    job: PartitionJob<EvaluationSpec>,
    onJudged: (judged: OwnedJudgments) => void,
    done: (index: number, run: PartitionedRun) => void,
  ): Promise<number>;
  /** The judgments read: into `qids` where they can be read beside the runs, else given read. */
  judgments(qrels: S, qids: Interner): Promise<GroupedJudgments> | PendingJudgments;
  /** The runs evaluated the one-thread way; `done` gets each in order, the first failure rejects. */
  runs(
    runs: readonly S[],
    judgments: GroupedJudgments | PendingJudgments,
    evaluateFor: EvaluateFor<S>,
    done: (index: number, run: RunDone) => void,
  ): Promise<void>;
}

/** What is evaluated. */
export interface EvaluationRequest {
  /** The plan of the names asked (its kind and labels decide); `evaluated`: with the page's curve. */
  plan: Plan;
  evaluated?: Plan;
  options: ExplicitOptions;
  tieRange: boolean;
  /** The same, as data, for partitions. */
  spec: EvaluationSpec;
  complete?: boolean;
  /** notInRun's "-c counts them as 0" (the command line's). */
  hint?: boolean;
  /** Warnings said already (the page's of the settings shown). */
  warned?: Set<string>;
}

export interface EvaluationHooks<S> {
  /** A line to say (a warning, judged queries not in a run). */
  say(message: string): void;
  /** Each run, in the order given. */
  run(index: number, outcome: RunOutcome<S>): void;
  /** The judgments as read the one-thread way, and the labels warning said of them. */
  judgments?(judgments: GroupedJudgments, labels: string | undefined): void;
  /** Each joined block, before it is evaluated (--explain, --report). */
  block?(source: S, joined: JoinedRun): void;
}

/** The judgments and runs evaluated (see the top of this file); rejects with the first run that fails. */
export async function evaluateSources<S>(
  host: EvaluationHost<S>,
  qrels: S,
  runs: readonly S[],
  request: EvaluationRequest,
  hooks: EvaluationHooks<S>,
): Promise<void> {
  const { plan: p, complete } = request;
  const trec = p.kind === "trec";
  const trecLabels = readsTrecLabels(p);
  let summary: { num_rel: number } | undefined;
  const warned = request.warned ?? new Set<string>();
  const finished = (i: number, r: RunDone) => {
    for (const w of r.warnings) {
      if (!warned.has(w)) hooks.say(w);
      warned.add(w);
    }
    const source = runs[i];
    if (r.notInRunQids.length && !complete) hooks.say(notInRun(host.name(source), r.notInRunQids, request.hint));
    hooks.run(i, { ...r, source, summary });
  };
  let first = 0;
  if (host.partitioned) {
    const job = { spec: request.spec, complete, placeholder: trec, trecLabels };
    const onJudged = (judged: OwnedJudgments) => {
      if (trec && complete) summary = { num_rel: judged.positive };
    };
    first = await host.partitioned(qrels, runs, job, onJudged, finished);
    if (first === runs.length) return;
  }
  const given = host.judgments(qrels, new Interner());
  const ready = ("ready" in given ? given.ready : given).then((judgments) => {
    const read = trecLabels ? judgmentsLabelsRead(judgments) : undefined;
    const labels = read && labelsWarning(read);
    if (labels) hooks.say(labels);
    if (trec && complete) summary = { num_rel: positiveJudgments(judgments) };
    hooks.judgments?.(judgments, labels);
    return judgments;
  });
  // Raised by the runs, which wait for it.
  ready.catch(() => {});
  const evaluate = evaluatorFor(request.evaluated ?? p, request.options, request.tieRange);
  const evaluateFor: EvaluateFor<S> = (source, warn) => {
    const e = evaluate(host.name(source), warn);
    return (joined) => {
      hooks.block?.(source, joined);
      return e(joined);
    };
  };
  const judgments = "ready" in given ? { qids: given.qids, ready } : await ready;
  await host.runs(runs.slice(first), judgments, evaluateFor, (i, r) => finished(first + i, r));
}

/**
 * m_num_rel.c's summary under -c: the judgments with a label > 0 in every judged query, whatever -l,
 * labels as trec_eval reads them (atol: 0.5 is 0).
 */
function positiveJudgments(judgments: GroupedJudgments): number {
  let n = 0;
  const rel = judgments.atolRel ?? judgments.qrels.rel;
  for (let i = 0; i < judgments.qrels.length; i++) if (trecLabelOf(rel[i]) > 0) n++;
  return n;
}
