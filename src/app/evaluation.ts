// One evaluation for every face (CLI, evaluateFiles, the page's worker): hosts read, hooks receive. Partitions
// first; what they leave goes the one-thread way, whose errors name file and line. Judgments are read beside
// the first runs. Each warning once, then a run's missing judged queries (unless -c), then the run. Browser-safe.
import { judgmentsLabelsRead, notInRun } from "../input/input.js";
import { Interner } from "../io/interner.js";
import { skippedWarning } from "../io/rows.js";
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

/** `kept`: what the host keeps (the page's blocks). */
export type RunDone = PartitionedRun & { kept?: unknown };

/** `summary`: -c's num_rel under trec_eval's names. */
export type RunOutcome<S> = RunDone & { source: S; summary?: { num_rel: number } };

export type EvaluateFor<S> = (source: S, warn: (w: string) => void) => (joined: JoinedRun) => Evaluated;

export interface EvaluationHost<S> {
  name(source: S): string;
  /** Evaluates runs across partitions; returns how many (the first ones). */
  partitioned?(
    qrels: S,
    runs: readonly S[],
    job: PartitionJob<EvaluationSpec>,
    onJudged: (judged: OwnedJudgments) => void,
    done: (index: number, run: PartitionedRun) => void,
  ): Promise<number>;
  /** Into `qids` where read beside the runs, else read first. */
  judgments(qrels: S, qids: Interner): Promise<GroupedJudgments> | PendingJudgments;
  /** One-thread way; `done` gets each in order, the first failure rejects. */
  runs(
    runs: readonly S[],
    judgments: GroupedJudgments | PendingJudgments,
    evaluateFor: EvaluateFor<S>,
    done: (index: number, run: RunDone) => void,
  ): Promise<void>;
}

export interface EvaluationRequest {
  /** `evaluated`: with the page's curve. */
  plan: Plan;
  evaluated?: Plan;
  options: ExplicitOptions;
  tieRange: boolean;
  /** The same as data, for partitions. */
  spec: EvaluationSpec;
  complete?: boolean;
  /** notInRun's hint. */
  hint?: boolean;
  /** Warnings said already. */
  warned?: Set<string>;
}

export interface EvaluationHooks<S> {
  say(message: string): void;
  run(index: number, outcome: RunOutcome<S>): void;
  judgments?(judgments: GroupedJudgments, labels: string | undefined): void;
  /** Each joined block before evaluation (--explain, --report). */
  block?(source: S, joined: JoinedRun): void;
}

/** Rejects with the first run that fails. */
export async function evaluateSources<S>(
  host: EvaluationHost<S>,
  qrels: S,
  runs: readonly S[],
  request: EvaluationRequest,
  hooks: EvaluationHooks<S>,
) {
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
    // JSON lines' failed judgments, left out: said whatever the measures.
    const skipped = judgments.qrels.skipped;
    if (skipped) hooks.say(skippedWarning(judgments.qrels.file, skipped));
    if (trec && complete) summary = { num_rel: positiveJudgments(judgments) };
    hooks.judgments?.(judgments, labels);
    return judgments;
  });
  // The runs raise it.
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

/** m_num_rel.c's summary under -c: judgments labelled > 0 (atol: 0.5 is 0), whatever -l. */
function positiveJudgments(judgments: GroupedJudgments) {
  let n = 0;
  const rel = judgments.atolRel ?? judgments.qrels.rel;
  for (let i = 0; i < judgments.qrels.length; i++) if (trecLabelOf(rel[i]) > 0) n++;
  return n;
}
