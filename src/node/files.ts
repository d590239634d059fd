// QRELS and RUN files read, joined and evaluated: the one way the command line (cli.ts) and
// rankeval/node (index.ts) do it.
import type { Interner } from "../io/interner.js";
import { BLOCK_ROWS, checkJudgments, evaluateRunFile, parsedBlocks } from "../run-blocks.js";
import type { Evaluated } from "../trec/plan.js";
import { groupJudgments, type GroupedJudgments, type JoinedRun } from "../trec-join.js";
import { formatOf, qrelsParserFor, runParserFor, type ParserChoice } from "./formats.js";
import { displayName, inputSize, readInto, rereadable, type ProgressSink } from "./read.js";
import { threadBlocks } from "./run-reader.js";

/** The judgments, grouped by query; the parser (and its query column) is garbage once this returns. */
export async function readJudgments(file: string, qids: Interner, choice: ParserChoice, progress?: ProgressSink): Promise<GroupedJudgments> {
  // Named in messages as the user knows it (standard input for -), its format from its real name.
  const parser = qrelsParserFor(displayName(file), qids, await inputSize(file), { ...choice, format: formatOf(file, choice.format) });
  await readInto(file, parser, progress);
  const judgments = groupJudgments(parser.finish());
  checkJudgments(judgments);
  return judgments;
}

/**
 * Reads a run, joins it to the judgments and evaluates it (src/run-blocks.ts): a TREC text file block
 * by block as it streams, so memory holds the judgments and one block of the run, whatever its size;
 * standard input and pipes, JSON and CSV/TSV runs, `complete` (trec_eval -c), and a run whose queries
 * are not grouped (read again) whole. `evaluate` gets each joined block and keeps nothing of its batch.
 * A run without rows, or sharing no query with the judgments, is an error (evaluateRunFile).
 * `placeholder`: with `complete`, an absent query ranks trec_eval's placeholder document (src/trec-join.ts).
 */
export async function evaluateRunPath(
  file: string,
  judgments: GroupedJudgments,
  choice: ParserChoice & { complete?: boolean; placeholder?: boolean },
  evaluate: (joined: JoinedRun) => Evaluated,
  progress?: ProgressSink,
) {
  // Only a regular file streams: a run found not grouped by query is read again, which a pipe cannot be.
  const streams = formatOf(file, choice.format) === "trec" && (await rereadable(file));
  return evaluateRunFile(judgments, {
    file: displayName(file),
    // Parsed in a worker thread while this one joins and evaluates (in this thread when run from source).
    blocks: streams ? (threadBlocks(file, BLOCK_ROWS, progress) ?? parsedBlocks(file, (sink) => readInto(file, sink, progress))) : null,
    whole: async () => {
      const parser = runParserFor(displayName(file), judgments.qrels.qidNames, await inputSize(file), { ...choice, format: formatOf(file, choice.format) });
      await readInto(file, parser, progress);
      return parser.finish();
    },
    complete: choice.complete,
    placeholder: choice.placeholder,
    recycle: true,
  }, evaluate);
}
