/**
 * Every error rankeval throws on purpose is a RankevalError, so callers can tell bad input from bugs.
 * `code` is stable for programs; `message` is for people and says what is wrong and where.
 */
export class RankevalError extends Error {
  constructor(
    readonly code: RankevalErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "RankevalError";
  }
}

export type RankevalErrorCode =
  | "bad-input" // rows or files that cannot be evaluated as given
  | "bad-measure" // a measure name or cutoff that does not parse
  | "bad-option" // an option outside its domain
  | "too-large"; // past what wasm32 memory can hold in one batch

/** An option or command line outside its domain (the command line's exit status 1). */
export const usageError = (message: string) => new RankevalError("bad-option", message);
/** Input that cannot be evaluated as given, where no file line applies (exit status 2). */
export const badInput = (message: string) => new RankevalError("bad-input", message);

/**
 * Bad input in a file: names the file, the 1-based line and column, and what was expected, as
 * `run.txt:57:22: score "0.1x" is not a number`.
 */
export class InputError extends RankevalError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super("bad-input", `${file}:${line}${column > 0 ? `:${column}` : ""}: ${reason}`);
    this.name = "InputError";
  }
}

/** The first three of `total` names, quoted, then "..." when there are more: `"q1", "q2", "q3", ...`. */
function someNames(names: readonly string[], total = names.length): string {
  return (
    names
      .slice(0, 3)
      .map((n) => JSON.stringify(n))
      .join(", ") + (total > 3 ? ", ..." : "")
  );
}

/**
 * The one wording of a document twice in one query, in judgments or a run. `where`: the rows' field
 * or row, when known; a file's line is an InputError (which columnar inputs say as the row of their file).
 */
export function documentTwice(
  doc: string,
  query: string,
  where?: string | { file: string; line: number },
): RankevalError {
  const reason = `document ${JSON.stringify(doc)} appears twice in query ${JSON.stringify(query)}`;
  if (typeof where === "object") return new InputError(where.file, where.line, 0, reason);
  return new RankevalError("bad-input", where === undefined ? reason : `${where}: ${reason}`);
}

/** What a run or judgments hold, for noQueryInCommon: a name, the number of queries, some of them. */
export interface QuerySample {
  readonly name: string;
  readonly queries: number;
  readonly some: readonly string[];
}

/**
 * The one wording of a run that shares no query with its judgments: a mistake (ids written otherwise,
 * "q1" against "1", or the wrong file) whose means would be NaN over no query.
 */
export function noQueryInCommon(run: QuerySample, judgments: QuerySample): RankevalError {
  const n = run.queries;
  return new RankevalError(
    "bad-input",
    `${run.name}: no query in common with the judgments: its ${n} ${n === 1 ? "query" : "queries"} (${someNames(run.some, n)}) ` +
      `${n === 1 ? "has" : "have"} none in ${judgments.name} (${judgments.queries} judged: ${someNames(judgments.some, judgments.queries)})`,
  );
}

/**
 * The largest magnitude rankeval sums: any 2^53 terms up to it (every row, judgment or query there can
 * be) add to a finite double. Gains past it (a label of 971 or more under exp gain) and compare()'s
 * values past it are refused, where their sums would overflow to Infinity and ratios become NaN.
 */
export const SUMMABLE_MAX = 2 ** 970;

/**
 * The one wording of a label whose gain passes SUMMABLE_MAX (`option`: the gain, "exp", "linear" or
 * "table"), in the kernel's path and the reference alike.
 */
export function gainTooLarge(query: string, label: number, option: string): RankevalError {
  const how = option === "exp" ? 'gain "exp" (2^label - 1)' : option === "linear" ? 'gain "linear"' : "the gain table";
  return badInput(
    `query ${JSON.stringify(query)}: label ${label} under ${how} gains more than the 2^970 (about 1e292) ` +
      "a gain may be for DCG's sums to stay finite: use smaller labels (up to 970 under exp gain) or another gain",
  );
}
