// What a file holds (decideFormat: given, else content, else name) and the parser that reads it.
import { DEFAULT_COLUMNS, findColumn } from "../io/column-names.js";
import type { ColumnNames } from "../io/delimited.js";
import type { Interner } from "../io/interner.js";
import type { RowsKind, RowsOf } from "../io/json.js";
import { QrelsParser, type QrelsRows } from "../io/qrels.js";
import { endsAsBegun, magicOf } from "../io/magic.js";
import { RunParser, type RunRows } from "../io/run.js";

/** `msmarco`: runs of `qid docid rank` lines, judgments as TREC text. `jsonl`: one JSON object a line (UMBRELA's). */
export type InputFormat = "trec" | "json" | "jsonl" | "csv" | "tsv" | "parquet" | "arrow" | "msmarco";
export const INPUT_FORMATS: readonly InputFormat[] = [
  "trec",
  "json",
  "jsonl",
  "csv",
  "tsv",
  "parquet",
  "arrow",
  "msmarco",
];

/** Chunks in, any size and boundary. (Here, not in input.ts: rankeval/node's types reach no kernel types.) */
export interface ChunkSink {
  push(chunk: Uint8Array): void;
  /** Back-pressure: a promise to await before the next chunk, or null. */
  ready?(): Promise<void> | null;
}

export interface FormatDecision {
  format: InputFormat;
  gzipped: boolean;
  columnar: boolean;
  /** Sniffed by subtopicShaped. */
  subtopic?: boolean;
  reason: "given" | "content" | "name";
}

export interface FormatClues {
  given?: InputFormat;
  kind?: RowsKind;
  /** First 8 bytes as stored. */
  head?: Uint8Array;
  /** Last 8 bytes of a file: a columnar magic counts only if they agree (a truncated file goes by name). */
  tail?: Uint8Array;
  firstLine?: string;
  /** Given: a .tsv is never TREC text. */
  columns?: unknown;
  subtopic?: boolean;
}

/** Feather v2 is Arrow's IPC file; .arrows, the IPC stream. */
const COLUMNAR_NAME = /\.(parquet|arrow|feather|arrows)$/i;
const TEXT_NAME = /\.(json|jsonl|ndjson|csv|tsv)(\.gz)?$/i;

function formatByName(file: string): InputFormat {
  const c = COLUMNAR_NAME.exec(file);
  if (c) return c[1].toLowerCase() === "parquet" ? "parquet" : "arrow";
  const m = TEXT_NAME.exec(file);
  const ext = m?.[1].toLowerCase();
  return ext === undefined ? "trec" : ext === "ndjson" ? "jsonl" : (ext as InputFormat);
}

/**
 * A line that begins a JSON lines row: an object whose first value is no object. ranx's JSON (one object
 * of objects, `{"q1": {"d1": 1}}`) never is; a TREC line never begins `{"`. Only the line's start is read
 * (a judge's row may be longer than the bytes sniffed).
 */
const JSON_LINES_ROW = /^\uFEFF?[ \t]*\{[ \t]*"(?:[^"\\]|\\.)*"[ \t]*:[ \t]*[^\s{]/;
export const isJsonLinesRow = (line: string) => JSON_LINES_ROW.test(line);

/**
 * What `file` holds: the format given; else its content (Parquet/Arrow magic at both ends, or at the
 * start where no end is given; TREC fields on a .tsv's first line); else its name (JSON, CSV: a first
 * line could be any of them). `-` is TREC text. msmarco applies to runs only.
 */
export function decideFormat(file: string, clues: FormatClues = {}) {
  const { head, tail, firstLine, kind } = clues;
  const given = clues.given === "msmarco" && kind === "qrels" ? undefined : clues.given;
  const magic = head ? magicOf(head) : null;
  const decided = (format: InputFormat, reason: FormatDecision["reason"]): FormatDecision => ({
    format,
    gzipped: magic === "gzip",
    columnar: format === "parquet" || format === "arrow",
    ...(clues.subtopic !== undefined && { subtopic: clues.subtopic }),
    reason,
  });
  // A .tsv whose first line is TREC's (MS MARCO's qrels) is TREC text.
  const tsv = (format: InputFormat, reason: FormatDecision["reason"]) =>
    format === "tsv" && firstLine !== undefined && kind && !clues.columns && isTrecLine(firstLine, kind)
      ? decided("trec", "content")
      : decided(format, reason);
  if (given !== undefined) return tsv(given, "given");
  if (magic !== null && magic !== "gzip" && (tail === undefined || endsAsBegun(magic, tail)))
    return decided(magic === "parquet" ? "parquet" : "arrow", "content");
  const byName = formatByName(file);
  // JSON lines named .json (or not named at all) are told by their first line.
  if ((byName === "json" || byName === "trec") && firstLine !== undefined && isJsonLinesRow(firstLine))
    return decided("jsonl", "content");
  return tsv(byName, "name");
}

/** The format given, else by name (directories: src/node/columnar-files.ts). */
export function formatOf(file: string, given?: InputFormat) {
  return decideFormat(file, { given }).format;
}

/** A run's tag where it has no tag column: its base name without extension. */
export function runTagOf(file: string) {
  const name = file.replace(/\/+$/, "").replace(/^.*\//, "");
  return name.replace(TEXT_NAME, "").replace(COLUMNAR_NAME, "") || name;
}

export interface ParserChoice {
  format?: InputFormat;
  columns?: ColumnNames;
  /** Said after a CSV/TSV header error. @default the CLI's --columns, --input-format */
  hint?: string;
}

const CLI_COLUMNS_HINT =
  "name them with --columns qid=NAME,docid=NAME,value=NAME, or give the format with --input-format trec|json|jsonl|csv|tsv";

export interface Parser<T> {
  push(chunk: Uint8Array): void;
  finish(): T;
}

const LF = 10;
/** A longer first line is no TREC line. */
const FIRST_LINE_MAX = 1 << 16;
/** Judgments where a header has a label column and no score column, else a run. */
export function roleOfHeader(names: readonly string[]) {
  const labels = DEFAULT_COLUMNS.qrels.filter((n) => !(DEFAULT_COLUMNS.run as readonly string[]).includes(n));
  return findColumn(names, undefined, labels) >= 0 && findColumn(names, undefined, DEFAULT_COLUMNS.run) < 0
    ? "qrels"
    : "run";
}

export const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A .tsv line is TREC's: 4 or 6 fields with a number as label or score; or a run's MS MARCO `qid docid 1`. */
export function isTrecLine(line: string, kind: "qrels" | "run") {
  const fields = line
    .replace(/^\uFEFF/, "")
    .replace(/\r$/, "")
    .split("\t")
    .map((f) => f.trim());
  return kind === "qrels"
    ? fields.length === 4 && NUMERIC.test(fields[3])
    : (fields.length === 6 && NUMERIC.test(fields[4])) || (fields.length === 3 && fields[2] === "1");
}

const ENOUGH = new Error("enough lines");

/**
 * Each line of the first `limit` bytes to `each` until it returns true. An unterminated last line counts
 * where the input ends, not where the limit cuts. Every sniff by lines reads through this.
 */
export async function readFirstLines(
  read: (sink: ChunkSink) => Promise<void>,
  each: (line: string) => boolean,
  limit: number,
) {
  const decoder = new TextDecoder();
  let carry = "";
  let bytes = 0;
  try {
    await read({
      push(chunk) {
        const part = chunk.subarray(0, limit - bytes);
        bytes += part.length;
        const lines = (carry + decoder.decode(part, { stream: true })).split("\n");
        carry = lines.pop() ?? "";
        for (const line of lines) if (each(line)) throw ENOUGH;
        if (bytes >= limit) throw ENOUGH;
      },
    });
  } catch (e) {
    if (e !== ENOUGH) throw e;
    return;
  }
  if (carry) each(carry);
}

/** Holds chunks until the first line is complete, then hands them to the parser it chooses. */
class ChosenByFirstLine<T> implements Parser<T> {
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  private parser: Parser<T> | null = null;

  constructor(private readonly choose: (firstLine: string) => Parser<T>) {}

  push(chunk: Uint8Array) {
    if (this.parser !== null) {
      this.parser.push(chunk);
      return;
    }
    // The caller may reuse its chunk.
    this.held.push(chunk.slice());
    this.heldBytes += chunk.length;
    if (chunk.includes(LF) || this.heldBytes >= FIRST_LINE_MAX) this.start();
  }

  finish() {
    if (this.parser === null) this.start();
    return this.parser!.finish();
  }

  private start() {
    const all = new Uint8Array(this.heldBytes);
    let at = 0;
    for (const c of this.held) {
      all.set(c, at);
      at += c.length;
    }
    const nl = all.indexOf(LF);
    const parser = this.choose(new TextDecoder().decode(nl < 0 ? all : all.subarray(0, nl)));
    this.parser = parser;
    this.held = [];
    parser.push(all);
  }
}

/** The format parserFor parses a file in. */
export function formatRead(kind: RowsKind, file: string, choice: ParserChoice, firstLine: string, head?: Uint8Array) {
  return decideFormat(file, { given: choice.format, kind, firstLine, columns: choice.columns, head }).format;
}

async function parserFor<K extends RowsKind>(
  kind: K,
  file: string,
  qids: Interner,
  expectedBytes: number,
  choice: ParserChoice,
): Promise<Parser<RowsOf<K>>> {
  const clues = { given: choice.format, kind, columns: choice.columns };
  const d = decideFormat(file, clues);
  const runTag = kind === "run" ? runTagOf(file) : undefined;
  const o = { file, qids, kind, runTag, expectedBytes };
  // A .json or unnamed file may turn out JSON lines by its first line (sniffs).
  const sniffs = choice.format === undefined && (d.format === "json" || d.format === "trec");
  const json = d.format === "json" ? (await import("../io/json.js")).JsonParser : null;
  const jsonl = d.format === "jsonl" || sniffs ? (await import("../io/jsonl.js")).JsonlParser : null;
  const delimited = ["csv", "tsv"].includes(d.format) ? (await import("../io/delimited.js")).DelimitedParser : null;
  const hint = choice.hint ?? CLI_COLUMNS_HINT;
  const make = (format: InputFormat): Parser<RowsOf<K>> => {
    if (format === "json" && json) return new json(o);
    if (format === "jsonl" && jsonl) return new jsonl({ ...o, columns: choice.columns, hint });
    if ((format === "csv" || format === "tsv") && delimited)
      return new delimited({
        ...o,
        delimiter: format === "csv" ? "," : "\t",
        columns: choice.columns,
        hint,
      });
    const t = { file, qids, docids: "per-row" as const, expectedBytes };
    const shape = format === "msmarco" ? ("msmarco" as const) : undefined;
    return (kind === "qrels" ? new QrelsParser(t) : new RunParser({ ...t, shape, runTag })) as unknown as Parser<
      RowsOf<K>
    >;
  };
  if (!sniffs && (d.format !== "tsv" || choice.columns)) return make(d.format);
  return new ChosenByFirstLine((firstLine) => make(decideFormat(file, { ...clues, firstLine }).format));
}

type ParserFor<T> = (file: string, qids: Interner, expectedBytes: number, choice: ParserChoice) => Promise<Parser<T>>;

export const qrelsParserFor: ParserFor<QrelsRows> = (...a) => parserFor("qrels", ...a);

export const runParserFor: ParserFor<RunRows> = (...a) => parserFor("run", ...a);
