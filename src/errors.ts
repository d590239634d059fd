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
