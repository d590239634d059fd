import { counted } from "./counted.js";
import { didYouMean, orList } from "./suggest.js";

/** Every error rankeval throws on purpose: `code` is stable for programs, `message` says what and where. */
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

/** Exit status 1. */
export const usageError = (message: string) => new RankevalError("bad-option", message);
/** Bad input with no file line (exit status 2). */
export const badInput = (message: string) => new RankevalError("bad-input", message);

/** Bad input at a 1-based line and column: `run.txt:57:22: score "0.1x" is not a number`. */
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

const QUOTED_CHARACTERS = 40;

/** `text` cut to 40 characters and "…", for a message. */
export function shortened(text: string) {
  return text.length > QUOTED_CHARACTERS ? `${text.slice(0, QUOTED_CHARACTERS)}…` : text;
}

/**
 * A value as messages print it: strings quoted and shortened, numbers and bigints as written, anything
 * else by its kind ("a Map"): never a whole structure, never a throw (as JSON.stringify on a bigint).
 */
export function shown(value: unknown) {
  switch (typeof value) {
    case "string":
      return JSON.stringify(shortened(value));
    case "number":
      return Object.is(value, -0) ? "-0" : String(value);
    case "bigint":
      return `${value}n`;
    case "boolean":
    case "undefined":
      return String(value);
    case "symbol":
      return shortened(value.toString());
    case "function":
      return "a function";
  }
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array (length ${value.length})`;
  if (value instanceof Map) return "a Map";
  if (value instanceof Set) return "a Set";
  if (value instanceof ArrayBuffer) return "an ArrayBuffer";
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  if (value instanceof Date) return "a Date";
  if (value instanceof Promise) return "a Promise (await it first)";
  return "an object";
}

/** An option's test, and how a message says it (`true or false`). */
export interface OptionType {
  readonly test: (value: unknown) => boolean;
  readonly is: string;
  readonly required?: boolean;
}

export const BOOLEAN: OptionType = { test: (v) => typeof v === "boolean", is: "true or false" };
export const STRING: OptionType = { test: (v) => typeof v === "string", is: "a string" };
export const NUMBER: OptionType = { test: (v) => typeof v === "number" && !Number.isNaN(v), is: "a number" };
/** Sizes past 4 GiB too. */
export const COUNT: OptionType = {
  test: (v) => typeof v === "number" && Number.isInteger(v) && v >= 0,
  is: "an integer >= 0",
};
export const PROBABILITY: OptionType = {
  test: (v) => typeof v === "number" && v > 0 && v < 1,
  is: "a number between 0 and 1",
};
export const SEED: OptionType = {
  test: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  is: "a safe integer >= 0",
};
/** A known key whose value the call checks itself. */
export const ANY: OptionType = { test: () => true, is: "" };

export function oneOf(values: readonly string[]): OptionType {
  return { test: (v) => typeof v === "string" && values.includes(v), is: orList(values.map((v) => JSON.stringify(v))) };
}

export const required = (t: OptionType): OptionType => ({ ...t, required: true });

/** `object[key] = value`, "__proto__" too (an assignment would set the prototype). */
export function setOwn<T>(object: Record<string, T>, key: string, value: T) {
  if (key === "__proto__")
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

/** Not usable as an object of options or `{ id: value }` (an array's keys, a Map's none, or no object). */
export function notAnObject(v: unknown) {
  return (
    v === null ||
    typeof v !== "object" ||
    Array.isArray(v) ||
    v instanceof Map ||
    v instanceof Set ||
    v instanceof ArrayBuffer ||
    ArrayBuffer.isView(v) ||
    v instanceof Promise
  );
}

/**
 * Checks a public call's options (undefined is `{}`): refuses a non-object, an unknown key (a misspelling
 * would change nothing silently), a missing required key, a value of the wrong type. `types` lists every
 * key; `call` prefixes the messages. Returns `given`.
 */
export function checkOptions<T extends object>(
  given: T | undefined,
  types: Readonly<Record<string, OptionType>>,
  call?: string,
) {
  const at = call === undefined ? "" : `${call}: `;
  const keys = Object.keys(types);
  if (given === undefined && !keys.some((k) => types[k].required)) return {} as T;
  if (notAnObject(given))
    throw usageError(
      `${at}options must be an object${keys.length ? ` { ${keys.join(", ")} }` : ""}, not ${shown(given)}`,
    );
  for (const key of Object.keys(given as object)) {
    if (Object.hasOwn(types, key)) continue;
    throw usageError(`${at}unknown option ${shown(key)}${didYouMean(key, keys)} (the options are ${keys.join(", ")})`);
  }
  for (const key of keys) {
    const v = (given as Record<string, unknown>)[key];
    const t = types[key];
    if (v === undefined) {
      if (t.required) throw usageError(`${at}option ${key} is missing: it must be ${t.is}`);
    } else if (!t.test(v)) throw usageError(`${at}${key} must be ${t.is}, not ${shown(v)}`);
  }
  return given as T;
}

/** A streaming parser's push(): bytes only (a string's characters are not bytes), never after finish(). */
export function checkChunk(chunk: unknown, file: string, finished: boolean): asserts chunk is Uint8Array {
  if (finished) throw usageError(`${file}: push() after finish(): a parser reads one input; make a new one`);
  if (chunk instanceof Uint8Array) return;
  const hint =
    typeof chunk === "string"
      ? " (encode text first: new TextEncoder().encode(text))"
      : chunk instanceof ArrayBuffer
        ? " (wrap it: new Uint8Array(buffer))"
        : "";
  throw usageError(`${file}: push(chunk): chunk must be a Uint8Array of bytes, not ${shown(chunk)}${hint}`);
}

/** `"q1", "q2", "q3", ...` */
function someNames(names: readonly string[], total = names.length) {
  return (
    names
      .slice(0, 3)
      .map((n) => JSON.stringify(n))
      .join(", ") + (total > 3 ? ", ..." : "")
  );
}

/** A document twice in one query. `where`: a field or row; a file's line makes an InputError. */
export function documentTwice(doc: string, query: string, where?: string | { file: string; line: number }) {
  const reason = `document ${JSON.stringify(doc)} appears twice in query ${JSON.stringify(query)}`;
  if (typeof where === "object") return new InputError(where.file, where.line, 0, reason);
  return new RankevalError("bad-input", where === undefined ? reason : `${where}: ${reason}`);
}

export interface QuerySample {
  readonly name: string;
  readonly queries: number;
  readonly some: readonly string[];
}

/** A run sharing no query with its judgments ("q1" against "1", the wrong file): its means would be NaN. */
export function noQueryInCommon(run: QuerySample, judgments: QuerySample) {
  const n = run.queries;
  return new RankevalError(
    "bad-input",
    `${run.name}: no query in common with the judgments: its ${counted(n, "query", "queries")} (${someNames(run.some, n)}) ` +
      `${n === 1 ? "has" : "have"} none in ${judgments.name} (${judgments.queries} judged: ${someNames(judgments.some, judgments.queries)})`,
  );
}

/**
 * The largest magnitude rankeval sums: any 2^53 terms up to it add to a finite double. Gains (a label
 * >= 971 under exp gain) and compare()'s values past it are refused: sums would overflow to Infinity.
 */
export const SUMMABLE_MAX = 2 ** 970;

/** A label whose gain passes SUMMABLE_MAX; `option`: "exp", "linear" or "table". */
export function gainTooLarge(query: string, label: number, option: string) {
  const how = option === "exp" ? 'gain "exp" (2^label - 1)' : option === "linear" ? 'gain "linear"' : "the gain table";
  return badInput(
    `query ${JSON.stringify(query)}: label ${label} under ${how} gains more than the 2^970 (about 1e292) ` +
      "a gain may be for DCG's sums to stay finite: use smaller labels (up to 970 under exp gain) or another gain",
  );
}
