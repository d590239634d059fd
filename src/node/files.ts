// QRELS and RUN files read, joined and evaluated: Node's adapter of src/input/input.ts.
import { statSync } from "node:fs";
import { RankevalError } from "../errors/errors.js";
import type { ParserChoice } from "../input/formats.js";
import { batchBlocks, evaluateRunInput, readJudgments as readInput, type Input } from "../input/input.js";
import type { Interner } from "../io/interner.js";
import { BLOCK_ROWS, parsedBlocks, READER_BLOCK_ROWS, type PendingJudgments } from "../pipeline/blocks.js";
import type { Evaluated } from "../pipeline/evaluate.js";
import type { GroupedJudgments, JoinedRun } from "../pipeline/join-rows.js";
import type { ThreadPool } from "./pool.js";
import { inputInfo, readInto, textInput, type InputInfo, type ProgressSink } from "./file-read.js";
import { threadBlocks } from "./run-reader-thread.js";
import { batchInput, columnarInput, fileFormat, isColumnarPath } from "./columnar-files.js";
import { parallelColumnarBlocks } from "./columnar-reader.js";
import type { RunPreparation } from "../pipeline/prepare-run.js";

/** Refuses column names where every input is TREC text or JSON (they would change nothing); JSON lines' fields are named so. */
export function checkColumnsRead(files: readonly string[], choice: ParserChoice, option: string, how: string): void {
  if (choice.columns === undefined) return;
  const given = choice.format;
  if (files.some((f) => isColumnarPath(f, given) || ["csv", "tsv", "jsonl"].includes(fileFormat(f, given).format)))
    return;
  const read = [...new Set(files.map((f) => (fileFormat(f, given).format === "json" ? "JSON" : "TREC text")))].join(
    " or ",
  );
  throw new RankevalError(
    "bad-option",
    `${option} names CSV/TSV, JSON lines, Parquet or Arrow columns, but every input is read as ${read}${given ? "" : " (by its name)"}: ${how}`,
  );
}

export const CLI_COLUMNS_FORMAT = "give the format with --input-format csv|tsv|jsonl|parquet|arrow";

/** `path` as the input layer reads it: text, or Parquet and Arrow files and datasets. */
export function inputOf(path: string, choice: ParserChoice, progress?: ProgressSink, info?: InputInfo): Input {
  return isColumnarPath(path, choice.format) ? batchInput(path, choice, progress) : textInput(path, progress, info);
}

/** The choice with the format told from the real name (messages may name stdin otherwise). */
const resolved = (path: string, choice: ParserChoice) => ({
  ...choice,
  format: fileFormat(path, choice.format).format,
});

export function readJudgments(file: string, qids: Interner, choice: ParserChoice, progress?: ProgressSink) {
  return readInput(inputOf(file, choice, progress), qids, resolved(file, choice));
}

/** The least run bytes a thread parses: a single block gains nothing (a TREC line is 12 bytes at least). */
const THREAD_MIN_BYTES = BLOCK_ROWS * 12;

/** A gzip file's text is taken to be this many times its size. */
const GZIP_RATIO = 6;

/** RANKEVAL_THREAD_MIN_BYTES where given (0: every run that streams). */
export function givenThreadMinBytes(): number | null {
  const given = process.env.RANKEVAL_THREAD_MIN_BYTES;
  return given !== undefined && /^\d+$/.test(given.trim()) ? Number(given) : null;
}

/** Only a regular TREC text file streams: a run not grouped by query is read again. */
function streamsBlocks(file: string, choice: ParserChoice, info: InputInfo): boolean {
  return fileFormat(file, choice.format).format === "trec" && info.regular;
}

/** Whether a pool thread parses this run (evaluateRunPath's choice, asked early to start the thread). */
export function readsOnThread(
  file: string,
  choice: ParserChoice & { complete?: boolean },
  info: InputInfo = inputInfo(file),
): boolean {
  return (
    streamsBlocks(file, choice, info) &&
    !choice.complete &&
    info.size * (info.gzip ? GZIP_RATIO : 1) >= (givenThreadMinBytes() ?? THREAD_MIN_BYTES)
  );
}

/**
 * Reads a run, joins it to the (maybe pending) judgments and evaluates it, TREC text block by block as
 * it streams; `evaluate` gets each joined block. A large run is parsed by a thread of `pool`.
 */
export async function evaluateRunPath(
  file: string,
  judgments: GroupedJudgments | PendingJudgments,
  choice: ParserChoice & { complete?: boolean; placeholder?: boolean; prepare?: RunPreparation },
  evaluate: (joined: JoinedRun) => Evaluated,
  progress?: ProgressSink,
  pool?: ThreadPool | null,
) {
  const source = { complete: choice.complete, placeholder: choice.placeholder, recycle: true, prepare: choice.prepare };
  if (isColumnarPath(file, choice.format)) {
    // Pipes are read whole: a scattered Arrow stream would be read again.
    const streams = inputInfo(file).regular || statSync(file, { throwIfNoEntry: false })?.isDirectory() === true;
    const parallel = streams && pool && pool.size > 0 && columnarInput(file, choice.format).format === "parquet";
    const input = batchInput(file, choice, progress);
    const blocks = !streams
      ? null
      : parallel
        ? parallelColumnarBlocks(file, choice, pool, pool.size, progress)
        : batchBlocks(input, 1);
    return evaluateRunInput(input, judgments, { ...source, blocks }, choice, evaluate);
  }
  const info = inputInfo(file, true);
  const streams = streamsBlocks(file, choice, info);
  const threaded = streams && pool && readsOnThread(file, choice, info);
  const blocks = !streams
    ? null
    : threaded
      ? threadBlocks(file, READER_BLOCK_ROWS, pool, progress)
      : parsedBlocks(file, (sink) => readInto(file, sink, progress, info));
  const input = textInput(file, progress, info);
  return evaluateRunInput(input, judgments, { ...source, blocks, early: !!threaded }, resolved(file, choice), evaluate);
}
