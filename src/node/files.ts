// QRELS and RUN files read, joined and evaluated: the one way the command line (cli.ts) and
// rankeval/node (index.ts) do it.
import type { Interner } from "../io/interner.js";
import { BLOCK_ROWS, evaluateRunFile, parsedBlocks } from "../run-blocks.js";
import type { Evaluated } from "../trec/plan.js";
import { groupJudgments, type GroupedJudgments, type JoinedRun } from "../trec-join.js";
import { formatOf, qrelsParserFor, runParserFor, type ParserChoice } from "./formats.js";
import { inputSize, readInto, type ProgressSink } from "./read.js";
import { threadBlocks } from "./run-reader.js";

/** The judgments, grouped by query; the parser (and its query column) is garbage once this returns. */
export async function readJudgments(file: string, qids: Interner, choice: ParserChoice, progress?: ProgressSink): Promise<GroupedJudgments> {
  const parser = qrelsParserFor(file, qids, await inputSize(file), choice);
  await readInto(file, parser, progress);
  return groupJudgments(parser.finish());
}

/**
 * Reads a run, joins it to the judgments and evaluates it (src/run-blocks.ts): a TREC text file block
 * by block as it streams, so memory holds the judgments and one block of the run, whatever its size;
 * standard input, JSON and CSV/TSV runs, `complete` (trec_eval -c), and a run whose queries are not
 * grouped (read again) whole. `evaluate` gets each joined block and keeps nothing of its batch.
 */
export function evaluateRunPath(
  file: string,
  judgments: GroupedJudgments,
  choice: ParserChoice & { complete?: boolean },
  evaluate: (joined: JoinedRun) => Evaluated,
  progress?: ProgressSink,
) {
  const streams = file !== "-" && formatOf(file, choice.format) === "trec";
  return evaluateRunFile(judgments, {
    file,
    // Parsed in a worker thread while this one joins and evaluates (in this thread when run from source).
    blocks: streams ? (threadBlocks(file, BLOCK_ROWS, progress) ?? parsedBlocks(file, (sink) => readInto(file, sink, progress))) : null,
    whole: async () => {
      const parser = runParserFor(file, judgments.qrels.qidNames, await inputSize(file), choice);
      await readInto(file, parser, progress);
      return parser.finish();
    },
    complete: choice.complete,
    recycle: true,
  }, evaluate);
}
