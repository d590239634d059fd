/**
 * rankeval/node: judgments and runs read from files, and evaluated, in Node. The only entry point
 * that uses Node's built-ins (fs, zlib, worker_threads); "rankeval", "rankeval/io" and
 * "rankeval/reference" stay browser-safe.
 *
 * Every file is streamed through the command line's parsers, in any format it reads (TREC text,
 * JSON, CSV/TSV, each also gzipped: src/input/formats.ts), and nothing returned can be joined on the
 * wrong ids:
 *  - evaluateFiles reads and joins as the command line does (src/node/files.ts: a large TREC run
 *    block by block while a worker thread parses the next, a small one in the calling thread), so a
 *    run of any size takes the judgments and a few blocks of memory; its results' qids are the
 *    queries' ids, as strings. The worker threads are kept for the next call (idle, they do not keep
 *    the process alive).
 *  - readQrels / readRun return plain `{ qid: { docid: value } }` objects, the shape evaluateRun and
 *    ranx / pytrec_eval take: ids are strings, so two files read apart still join right. Building
 *    them costs a JS object a query and a property a row: about what evaluateRun then spends on them,
 *    right for inspecting files and for judgments, while a run of millions of rows is better given to
 *    evaluateFiles.
 *  - resamplingPool gives compareAsync (from "rankeval") worker threads of the same pool.
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
import type { ColumnNames } from "../io/delimited.js";
import { explicitOptions, OPTION_TYPES, wantsTieRange, type Options } from "../measures/options.js";
import { measuresPlan } from "../app/evaluator.js";
import { evaluateSources } from "../app/evaluation.js";
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
   * The format of every file: `"trec"`, `"json"`, `"csv"`, `"tsv"`, `"parquet"` or `"arrow"` (an
   * IPC file or stream); `"msmarco"`: runs of `qid docid rank` lines, ordered by rank (judgments by
   * their name). @default from each file's name: `.json`, `.csv`, `.tsv` (each also `.gz`),
   * `.parquet`, `.arrow`, `.feather`, `.arrows`, anything else TREC text (a directory: a Parquet or
   * Arrow dataset, Hive-partitioned or not); gzip is detected by its magic bytes whatever the name
   */
  inputFormat?: InputFormat;
  /**
   * CSV/TSV, Parquet, Arrow: the names of the query id, document id and value (label or score)
   * columns, and (Parquet, Arrow) of a run's tag column.
   * @default the first present of the usual names (qid, query_id, query-id, ...; see DEFAULT_COLUMNS)
   */
  columns?: ColumnNames;
}

/** evaluateFiles' options: the library's conventions (as evaluateRun's), and how to read the files. */
export interface EvaluateFilesOptions extends Options, FileOptions {
  /**
   * Evaluate the judged queries a run does not have too, with an empty ranking (trec_eval -c); they
   * are counted in `queries.skipped.notInRun` either way. @default false
   */
  complete?: boolean;
  /**
   * Give each result the call's `manifest` (src/app/manifest.ts, what `--manifest` writes): every
   * input's size, SHA-256 and format as read, the measures' tools and conventions, the query counts,
   * the warnings. Asked for, as hashing reads every file once more. @default false
   */
  manifest?: boolean;
}

/** evaluateFiles' result: with `manifest: true`, the call's manifest (the same object in each run's result). */
export type FileResult = Result<string> & { readonly manifest?: Manifest };

/** Judgments or a run as read: `{ qid: { docid: value } }`, the value a label or a score. */
export type IdValues = Record<string, Record<string, number>>;

/** What measures evaluateFiles takes: what evaluateRun takes. */
export type FileMeasures = Measures;

/** Said when `columns` is given for inputs that have none: this API's way to give the format. */
const COLUMNS_FORMAT = 'give the format with `inputFormat` ("csv", "tsv", "parquet" or "arrow")';

/** Said after a CSV/TSV header error: this API's way to name the columns or the format. */
const COLUMNS_HINT =
  'name them with the `columns` option ({ qid, docid, value }), or give the format with `inputFormat` ("trec", "json", "csv" or "tsv")';

/** readQrels' and readRun's options, for checkOptions (columns are checked in choiceOf). */
const FILE_OPTION_TYPES: Readonly<Record<keyof FileOptions, OptionType>> = {
  inputFormat: oneOf(INPUT_FORMATS),
  columns: ANY,
};

/** evaluateFiles' options: evaluateRun's, how to read the files, and `complete`. */
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
  const format = options?.inputFormat;
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
  return { format, columns, hint: COLUMNS_HINT };
}

function checkPath(path: unknown, what: string): string {
  if (typeof path !== "string" || path === "")
    throw new RankevalError("bad-option", `${what} must be a file path, not ${shown(path)}`);
  return path;
}

/**
 * Evaluates one run file, or several, against a qrels file, as the command line does: the judgments
 * are read once; each run is streamed and joined to them (documents it ranks without a judgment are
 * non-relevant, judged documents it never ranks still count in recall and the ideal ranking); run
 * queries without judgments are left out (`queries.skipped.notJudged`), and judged queries a run
 * lacks too (`queries.skipped.notInRun`) unless `complete`. The measures and conventions are
 * evaluateRun's, with its defaults. The queries come in byte order of their ids, as trec_eval lists
 * them (evaluateRun lists them in the run's order; the values are the same).
 *
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
  // Everything the call can get wrong is said before any file is read.
  const opts = explicitOptions(conventions);
  // The names read as evaluateRun reads them (each its tool's: src/names/resolve.ts).
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
  // The inputs hashed while they are evaluated (src/node/write-manifest.ts).
  let inputs: Promise<ManifestInput[]> | undefined;
  if (manifest) {
    checkHashable([qrels, ...paths], "manifest: true");
    inputs = describeInputs(qrels, paths, choice);
    inputs.catch(() => {}); // awaited below, after the evaluation's own errors
  }

  const results: FileResult[] = [];
  const runTags: string[] = [];
  const tieRange = wantsTieRange(conventions);
  // The threads of the process's pool are kept for the next call.
  const host = fileHost(qrels, paths, { ...choice, complete, pool: threadPool(), partitions: true, name: (f) => f });
  const spec = { measures: plan.measures, options: opts, tieRange };
  // The labels warning goes with the runs evaluated after the judgments were read here (partitions leave them).
  let labels: string[] = [];
  await evaluateSources(
    host,
    qrels,
    paths,
    { plan, options: opts, tieRange, spec, complete },
    {
      say: () => {},
      judgments: (_, l) => {
        if (l) labels = [l];
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
 * Reads a qrels file (`qid iter docno rel`, or JSON, CSV/TSV; gzipped or not) into
 * `{ qid: { docid: label } }`. A document judged twice for one query is an InputError naming the
 * line (the object could keep only one label).
 */
export function readQrels(path: string, options?: FileOptions): Promise<IdValues> {
  return readIdValues("qrels", "readQrels", path, options, (rows) => rows.rel);
}

/**
 * Reads a run file (`qid Q0 docno rank score tag`, or JSON, CSV/TSV; gzipped or not) into
 * `{ qid: { docid: score } }` (the rank and run tag columns are not kept: scores order a ranking, as
 * in trec_eval). A document ranked twice for one query is an InputError naming the line.
 */
export function readRun(path: string, options?: FileOptions): Promise<IdValues> {
  return readIdValues("run", "readRun", path, options, (rows) => rows.score);
}

/** readQrels' and readRun's reading, `what` naming the call in errors. */
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
  return idValuesAt(rows, values(rows), placeOf);
}
