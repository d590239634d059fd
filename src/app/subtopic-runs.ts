// Subtopic judgments (ndeval's `qid subtopic docno judgment`) decided and evaluated once for every face:
// the command line, evaluateFiles and the page. Browser-safe.
import type { ParserChoice } from "../input/formats.js";
import { notInRun, type Input } from "../input/input.js";
import { joinSubtopicRun, type SubtopicJudgments } from "../input/subtopics.js";
import type { ExplicitOptions } from "../measures/options.js";
import type { BatchExtras } from "../pipeline/evaluate.js";
import { mergeBlocks } from "../pipeline/merge.js";
import { evaluateBlock } from "./evaluate-block.js";
import type { Plan } from "./plan.js";

/** Measures of subtopic judgments where none are named: ndeval's. */
export const SUBTOPIC_MEASURES = ["ndeval"];

/** Said when a qrels file is read per subtopic by its shape (the command line adds its flag). */
export const readPerSubtopic = (name: string) =>
  `${name} judges documents per subtopic (its second column): read as a diversity qrels`;

/** Whether the plan's measures need judgments per subtopic. */
export const asksForSubtopics = (p: Plan) => p.measures.some((m) => m.family.diversity);

/**
 * A run read, joined to subtopic judgments and evaluated, judged queries it lacks said (unless
 * `complete`); queries skipped counted as evaluateDiversity counts them.
 */
export async function evaluateSubtopicRun(
  judgments: SubtopicJudgments,
  input: Input,
  choice: ParserChoice,
  request: {
    name: string;
    plan: Plan;
    options: ExplicitOptions;
    complete?: boolean;
    hint?: boolean;
    extras?: BatchExtras;
  },
  warn: (w: string) => void,
) {
  const { joined, runTag, qids } = await joinSubtopicRun(judgments, input, choice, request.complete);
  const { name, plan, options, complete, extras } = request;
  if (joined.notInRun && !complete) warn(notInRun(name, joined.notInRun, request.hint));
  const block = { batch: joined.batch, qids: joined.qids };
  // Summaries once, by mergeBlocks, as the page's blocks are.
  const one = evaluateBlock(plan, block.batch, block.qids, options, name, warn, [], { ...extras, summaries: false });
  return { joined, runTag, qids, block, evaluated: mergeBlocks([one], joined.notJudged, joined.notInRun) };
}
