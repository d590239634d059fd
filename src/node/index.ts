/**
 * rankeval/node: files read and evaluated in Node (the only entry point using Node's built-ins).
 * evaluateFiles streams runs as the command line does (memory: the judgments and a few blocks);
 * readQrels / readRun return `{ qid: { docid: value } }` objects (better for judgments than for
 * runs of millions of rows); resamplingPool gives compareAsync the same worker threads.
 *
 * @example
 * ```ts
 * import { evaluateFiles, readQrels } from "rankeval/node";
 * const [bm25, rerank] = await evaluateFiles("qrels.txt", ["bm25.run", "rerank.run.gz"], ["ndcg@10", "map"]);
 * bm25.mean["ndcg@10"];
 * const qrels = await readQrels("qrels.dev.tsv"); // { "1102432": { "2026790": 1 }, ... }
 * ```
 */
import {
  ANY,
  BOOLEAN,
  checkOptions,
  InputError,
  oneOf,
  RankevalError,
  shown,
  type OptionType,
} from "../errors/errors.js";
import type { Measures, Result } from "../pipeline/evaluate.js";
import type { CheckedMeasures } from "../names/name-types.js";
import { Interner } from "../io/interner.js";
import { skippedWarning } from "../io/rows.js";
import type { ColumnNames } from "../io/delimited.js";
import { explicitOptions, OPTION_TYPES, wantsTieRange, type Options } from "../measures/options.js";
import { measuresPlan } from "../app/evaluator.js";
import { evaluateSources } from "../app/evaluation.js";
import { notForSubtopics, runPreparation } from "../pipeline/prepare-run.js";
import { asksForSubtopics, evaluateSubtopicRun } from "../app/subtopic-runs.js";
import { readSubtopicJudgments } from "../input/subtopics.js";
import { looksLikeSubtopicQrels } from "./diversity-command.js";
import { fileFormat } from "./columnar-files.js";
import { textInput } from "./file-read.js";
import { checkColumnsRead, inputOf } from "./files.js";
import { threadPool } from "./pool.js";
export { resamplingPool, type ThreadPool } from "./compare-pool.js";
import { fileHost } from "./runs.js";
import { INPUT_FORMATS, type InputFormat, type ParserChoice } from "../input/formats.js";
import { readRows } from "../input/input.js";
import type { RowsOf } from "../io/json.js";
import { idValuesAt } from "../input/id-values.js";
import { manifestOf, type Manifest, type ManifestInput } from "../app/manifest.js";
import { checkHashable, describeInputs, rankevalVersion } from "./write-manifest.js";

export { RankevalError, InputError };
export type { ColumnNames, InputFormat, Manifest, ManifestInput };

/** How to read files. */
export interface FileOptions {
  /**
   * Every file's format: `"trec"`, `"json"`, `"jsonl"` (one JSON object a line, as UMBRELA writes),
   * `"csv"`, `"tsv"`, `"parquet"`, `"arrow"` (IPC file or stream), or `"msmarco"` (runs of `qid docid rank`
   * lines). @default from each file's name (`.json`, `.jsonl`, `.ndjson`, `.csv`, `.tsv`, `.parquet`,
   * `.arrow`, `.feather`, `.arrows`, else TREC; a directory: a Parquet or Arrow dataset), a .json or
   * unnamed file whose first line is a JSON object of values being JSON lines; gzip is told by its magic bytes
   */
  inputFormat?: InputFormat;
  /**
   * CSV/TSV, JSON lines (fields), Parquet, Arrow: the query id, document id, value and (Parquet, Arrow) run tag columns.
   * @default the first present of the usual names (qid, query_id, ...; see DEFAULT_COLUMNS)
   */
  columns?: ColumnNames;
}

/** evaluateFiles' options: evaluateRun's conventions, and how to read the files. */
export interface EvaluateFilesOptions extends Options, FileOptions {
  /** Evaluate judged queries the run lacks too, as empty rankings (trec_eval -c). @default false */
  complete?: boolean;
  /**
   * Give each result the call's `manifest` (what `--manifest` writes: inputs' sizes, SHA-256 and
   * formats, measures, conventions, counts, warnings); hashing reads every file again. @default false
   */
  manifest?: boolean;
}

/** evaluateFiles' result; with `manifest: true`, the call's manifest (one object shared by the runs). */
export type FileResult = Result<string> & { readonly manifest?: Manifest };

/** Judgments or a run as read: `{ qid: { docid: value } }`, the value a label or a score. */
export type IdValues = Record<string, Record<string, number>>;

/** The measures evaluateFiles takes: evaluateRun's. */
export type FileMeasures = Measures;

const COLUMNS_FORMAT = 'give the format with `inputFormat` ("csv", "tsv", "jsonl", "parquet" or "arrow")';

const COLUMNS_HINT =
  'name them with the `columns` option ({ qid, docid, value }), or give the format with `inputFormat` ("trec", "json", "jsonl", "csv" or "tsv")';

const FILE_OPTION_TYPES: Readonly<Record<keyof FileOptions, OptionType>> = {
  inputFormat: oneOf(INPUT_FORMATS),
  columns: ANY,
};

const EVALUATE_FILES_OPTION_TYPES: Readonly<Record<keyof EvaluateFilesOptions, OptionType>> = {
  ...OPTION_TYPES,
  ...FILE_OPTION_TYPES,
  complete: BOOLEAN,
  manifest: BOOLEAN,
};

function choiceOf(
  options: FileOptions | undefined,
  what: string,
  types: Readonly<Record<string, OptionType>> = FILE_OPTION_TYPES,
): ParserChoice {
  checkOptions(options, types, what);
  const columns = options?.columns;
  if (columns !== undefined) {
    if (columns === null || typeof columns !== "object")
      throw new RankevalError(
        "bad-option",
        `columns must be an object { qid?, docid?, value? } of header names, not ${shown(columns)}`,
      );
    for (const [k, v] of Object.entries(columns)) {
      if (!["qid", "docid", "value", "tag"].includes(k))
        throw new RankevalError(
          "bad-option",
          `columns.${k}: the columns are qid, docid, value and tag (Parquet and Arrow)`,
        );
      if (typeof v !== "string" || v === "")
        throw new RankevalError("bad-option", `columns.${k} must be a header name, not ${shown(v)}`);
    }
  }
  return { format: options?.inputFormat, columns, hint: COLUMNS_HINT };
}

function checkPath(path: unknown, what: string): string {
  if (typeof path !== "string" || path === "")
    throw new RankevalError("bad-option", `${what} must be a file path, not ${shown(path)}`);
  return path;
}

/**
 * Evaluates one run file or several against a qrels file, as the command line does: the judgments
 * read once, each run streamed and joined to them. Run queries without judgments are skipped
 * (`queries.skipped.notJudged`), judged queries a run lacks too (`notInRun`) unless `complete`.
 * Measures and conventions are evaluateRun's; queries come in byte order of their ids (trec_eval's).
 * Bad input rejects with an InputError naming the file, line and column.
 */
export async function evaluateFiles<const M extends FileMeasures>(
  qrels: string,
  runs: string,
  measures: CheckedMeasures<M>,
  options?: EvaluateFilesOptions,
): Promise<FileResult>;
export async function evaluateFiles<const M extends FileMeasures>(
  qrels: string,
  runs: readonly string[],
  measures: CheckedMeasures<M>,
  options?: EvaluateFilesOptions,
): Promise<FileResult[]>;
export async function evaluateFiles(
  qrels: string,
  runs: string | readonly string[],
  measures: FileMeasures,
  options: EvaluateFilesOptions = {},
): Promise<FileResult | FileResult[]> {
  const choice = choiceOf(options, "evaluateFiles", EVALUATE_FILES_OPTION_TYPES);
  const { inputFormat: _f, columns: _c, complete, manifest, ...conventions } = options;
  // Every mistake in the call is said before any file is read.
  const opts = explicitOptions(conventions);
  const prepare = runPreparation(conventions);
  const plan = measuresPlan(measures as Parameters<typeof measuresPlan>[0]);
  checkPath(qrels, "qrels");
  const paths =
    typeof runs === "string" ? [runs] : Array.isArray(runs) ? runs.map((r, i) => checkPath(r, `runs[${i}]`)) : null;
  if (paths === null || paths.length === 0)
    throw new RankevalError("bad-option", "runs must be a run file's path or a non-empty array of them");
  checkPath(paths[0], "runs");
  if ([qrels, ...paths].filter((p) => p === "-").length > 1)
    throw new RankevalError("bad-option", "only one file can be standard input (-)");
  checkColumnsRead([qrels, ...paths], choice, "columns", COLUMNS_FORMAT);
  const tieRange = wantsTieRange(conventions);
  // Subtopic judgments, asked for or told by their shape, as the command line and the page read them.
  if (asksForSubtopics(plan) || (await looksLikeSubtopicQrels(qrels, choice.format))) {
    if (manifest) throw new RankevalError("bad-option", "manifest: true is not written for subtopic judgments");
    if (prepare) throw notForSubtopics(prepare);
    const judgments = await readSubtopicJudgments(textInput(qrels));
    const results: FileResult[] = [];
    for (const path of paths) {
      const c = { ...choice, format: fileFormat(path, choice.format).format };
      const request = { name: path, plan, options: opts, complete, extras: { tieRange } };
      // Warnings unsaid, as with qrels judgments: the queries skipped are counted in the result.
      results.push((await evaluateSubtopicRun(judgments, inputOf(path, c), c, request, () => {})).evaluated.result);
    }
    return typeof runs === "string" ? results[0] : results;
  }
  let inputs: Promise<ManifestInput[]> | undefined;
  if (manifest) {
    checkHashable([qrels, ...paths], "manifest: true");
    inputs = describeInputs(qrels, paths, choice);
    inputs.catch(() => {}); // awaited below, after the evaluation's own errors
  }

  const results: FileResult[] = [];
  const runTags: string[] = [];
  const host = fileHost(qrels, paths, { ...choice, complete, pool: threadPool(), partitions: true, name: (f) => f });
  const spec = { measures: plan.measures, options: opts, tieRange };
  // The labels warning goes with the runs (partitions leave it out).
  let labels: string[] = [];
  await evaluateSources(
    host,
    qrels,
    paths,
    { plan, options: opts, tieRange, spec, complete, prepare },
    {
      say: () => {},
      judgments: (j, l) => {
        const skipped = j.qrels.skipped && skippedWarning(j.qrels.file, j.qrels.skipped);
        labels = [l, skipped].filter((w): w is string => !!w);
      },
      run: (_, r) => {
        const result = r.evaluated.result;
        results.push(labels.length ? { ...result, warnings: [...result.warnings, ...labels] } : result);
        runTags.push(r.runTag);
      },
    },
  );
  if (inputs) {
    const manifest = manifestOf({
      version: rankevalVersion(),
      options: { ...options },
      inputs: await inputs,
      rows: plan.rows,
      runs: results.map((result, i) => ({ name: paths[i], runTag: runTags[i], result })),
      warnings: results.flatMap((r) => r.warnings),
    });
    for (let i = 0; i < results.length; i++) results[i] = { ...results[i], manifest };
  }
  return typeof runs === "string" ? results[0] : results;
}

/**
 * Reads a qrels file (TREC, JSON, CSV/TSV; gzipped or not) into `{ qid: { docid: label } }`. A
 * document judged twice for one query is an InputError naming the line.
 */
export function readQrels(path: string, options?: FileOptions): Promise<IdValues> {
  return readIdValues("qrels", "readQrels", path, options, (rows) => rows.rel);
}

/**
 * Reads a run file (TREC, JSON, CSV/TSV; gzipped or not) into `{ qid: { docid: score } }` (rank and
 * tag dropped: scores order a ranking, as in trec_eval). A document ranked twice is an InputError.
 */
export function readRun(path: string, options?: FileOptions): Promise<IdValues> {
  return readIdValues("run", "readRun", path, options, (rows) => rows.score);
}

async function readIdValues<K extends "qrels" | "run">(
  kind: K,
  what: string,
  path: string,
  options: FileOptions | undefined,
  values: (rows: RowsOf<K>) => Float64Array,
): Promise<IdValues> {
  const choice = choiceOf(options, what);
  checkPath(path, `${what}: path`);
  checkColumnsRead([path], choice, `${what}: columns`, COLUMNS_FORMAT);
  const { rows, placeOf } = await readRows(kind, inputOf(path, choice), new Interner(), choice);
  // The plain object has no room for warnings: the rows left out are said as Node's libraries say
  // theirs (on stderr unless the program listens for 'warning'), never dropped unsaid.
  if (rows.skipped) process.emitWarning(skippedWarning(rows.file, rows.skipped), { code: "RANKEVAL_ROWS_SKIPPED" });
  return idValuesAt(rows, values(rows), placeOf);
}
