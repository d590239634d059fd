// The one place that decides what a file holds (decideFormat): the format given (--input-format,
// inputFormat) first, then its content (gzip's, Parquet's and Arrow's magic numbers, a .tsv's first
// line), then its name (anything else is TREC text); and the parser that reads it. The JSON and CSV/TSV
// parsers are loaded when a file needs one.
import { DEFAULT_COLUMNS, findColumn } from "../io/column-names.js";
import type { ColumnNames } from "../io/delimited.js";
import type { Interner } from "../io/interner.js";
import type { RowsKind, RowsOf } from "../io/json.js";
import { QrelsParser, type QrelsRows } from "../io/qrels.js";
import { endsAsBegun, magicOf } from "../io/magic.js";
import { RunParser, type RunRows } from "../io/run.js";

/** `msmarco`: runs of `qid docid rank` lines (MS MARCO's, dense retrievers'), judgments as TREC text. */
export type InputFormat = "trec" | "json" | "csv" | "tsv" | "parquet" | "arrow" | "msmarco";
export const INPUT_FORMATS: readonly InputFormat[] = ["trec", "json", "csv", "tsv", "parquet", "arrow", "msmarco"];

/**
 * The parsers' side of reading: chunks in, any size, any boundary. (Here, not in input.ts, so that the
 * package's types of rankeval/node reach no kernel types through formats.ts.)
 */
export interface ChunkSink {
  push(chunk: Uint8Array): void;
  /** A promise to await before the next chunk (back-pressure), or null to go on. */
  ready?(): Promise<void> | null;
}

/** What a file holds, as decided; `reason` says by what. */
export interface FormatDecision {
  format: InputFormat;
  gzipped: boolean;
  /** Parquet or Arrow: read in byte ranges as columns. */
  columnar: boolean;
  /** Subtopic judgments, where sniffed (subtopics.ts's subtopicShaped). */
  subtopic?: boolean;
  reason: "given" | "content" | "name";
}

/** What decideFormat is told of a file besides its name. */
export interface FormatClues {
  given?: InputFormat;
  /** msmarco names a run's shape; a .tsv's first line is read as one's. */
  kind?: RowsKind;
  /** Its first 8 bytes as stored. */
  head?: Uint8Array;
  /**
   * Its last 8 bytes, where known (a file, not a stream): a columnar format is then told by its content
   * only when its end agrees (a truncated file goes by its name, whose reader says what is missing).
   */
  tail?: Uint8Array;
  /** Its first line, decompressed. */
  firstLine?: string;
  /** CSV/TSV columns given: a .tsv is then never TREC text. */
  columns?: unknown;
  subtopic?: boolean;
}

/** A columnar file's format from its name: .parquet; .arrow, .feather (Feather v2 is Arrow's IPC file), .arrows (IPC stream). */
const COLUMNAR_NAME = /\.(parquet|arrow|feather|arrows)$/i;
const TEXT_NAME = /\.(json|csv|tsv)(\.gz)?$/i;

/** The format a file's name says (anything else is TREC text). */
function formatByName(file: string): InputFormat {
  const c = COLUMNAR_NAME.exec(file);
  if (c) return c[1].toLowerCase() === "parquet" ? "parquet" : "arrow";
  const m = TEXT_NAME.exec(file);
  return m ? (m[1].toLowerCase() as InputFormat) : "trec";
}

/**
 * What `file` holds: the format given; else its content where it can tell (a whole Parquet or Arrow
 * file by its magic numbers at both ends, or by its first bytes where no end is given; TREC's fields on
 * a .tsv's first line); else its name. JSON and CSV are told by name: text whose first line is TREC's,
 * JSON's or a header may be any (a .txt run streams as TREC text before a line is read). Standard input
 * (`-`) is TREC text. msmarco names a run's shape: judgments keep the format their content or name says.
 */
export function decideFormat(file: string, clues: FormatClues = {}): FormatDecision {
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
  // A .tsv, named or given, is TREC text where its first line is TREC's (MS MARCO's qrels).
  const tsv = (format: InputFormat, reason: FormatDecision["reason"]) =>
    format === "tsv" && firstLine !== undefined && kind && !clues.columns && isTrecLine(firstLine, kind)
      ? decided("trec", "content")
      : decided(format, reason);
  if (given !== undefined) return tsv(given, "given");
  if (magic !== null && magic !== "gzip" && (tail === undefined || endsAsBegun(magic, tail)))
    return decided(magic === "parquet" ? "parquet" : "arrow", "content");
  return tsv(formatByName(file), "name");
}

/** The format of `file`: the one given, else from its name (a directory, a dataset, is told by src/node/columnar-files.ts). */
export function formatOf(file: string, given?: InputFormat): InputFormat {
  return decideFormat(file, { given }).format;
}

/** A JSON, CSV/TSV, Parquet or Arrow run's tag (without a tag column): its name without directory and extension. */
export function runTagOf(file: string): string {
  const name = file.replace(/\/+$/, "").replace(/^.*\//, "");
  return name.replace(TEXT_NAME, "").replace(COLUMNAR_NAME, "") || name;
}

export interface ParserChoice {
  format?: InputFormat;
  columns?: ColumnNames;
  /**
   * Said after a CSV/TSV header error: how to name the columns or the format.
   * @default the command line's options (--columns, --input-format)
   */
  hint?: string;
}

/** The command line's way to name the columns or the format, said when a header lacks a column. */
const CLI_COLUMNS_HINT =
  "name them with --columns qid=NAME,docid=NAME,value=NAME, or give the format with --input-format trec|json|csv|tsv";

/** What readInto feeds and finish() reads. */
export interface Parser<T> {
  push(chunk: Uint8Array): void;
  finish(): T;
}

const LF = 10;
/** The most of a first line held to choose a parser: a longer line is no TREC line. */
const FIRST_LINE_MAX = 1 << 16;
/** Judgments where a header (CSV, TSV, Parquet's or Arrow's columns) has a label column and no score column, else a run. */
export function roleOfHeader(names: readonly string[]): "qrels" | "run" {
  const labels = DEFAULT_COLUMNS.qrels.filter((n) => !(DEFAULT_COLUMNS.run as readonly string[]).includes(n));
  return findColumn(names, undefined, labels) >= 0 && findColumn(names, undefined, DEFAULT_COLUMNS.run) < 0
    ? "qrels"
    : "run";
}

/** A number as TREC text writes a label or a score. */
export const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Whether a .tsv's first line is TREC's: its number of fields (4 or 6), a number where the label or
 * score is; or for a run MS MARCO's `qid docid 1` (RunParser reads it, its ranks checked to count 1, 2, 3).
 */
export function isTrecLine(line: string, kind: "qrels" | "run"): boolean {
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
 * The lines of the first `limit` bytes a `read` gives (decompressed), each to `each` until it returns
 * true. A last line without its end counts where the input ends, not where the limit cuts it. Every
 * sniff by lines reads through this: subtopic judgments, --fuse's qrels.
 */
export async function readFirstLines(
  read: (sink: ChunkSink) => Promise<void>,
  each: (line: string) => boolean,
  limit: number,
): Promise<void> {
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

/** A parser chosen from the input's first line: holds the chunks until it is complete, then hands them on. */
class ChosenByFirstLine<T> implements Parser<T> {
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  private parser: Parser<T> | null = null;

  constructor(private readonly choose: (firstLine: string) => Parser<T>) {}

  push(chunk: Uint8Array): void {
    if (this.parser !== null) {
      this.parser.push(chunk);
      return;
    }
    // Copied: the caller may reuse its chunk's memory once push returns.
    this.held.push(chunk.slice());
    this.heldBytes += chunk.length;
    if (chunk.includes(LF) || this.heldBytes >= FIRST_LINE_MAX) this.start();
  }

  finish(): T {
    if (this.parser === null) this.start();
    return this.parser!.finish();
  }

  private start(): void {
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

/**
 * The format a file is parsed in, as parserFor chooses it: a .tsv without --columns is TREC text
 * where its first line (`firstLine`, decompressed) is TREC's; `head`, its first bytes as stored.
 */
export function formatRead(
  kind: RowsKind,
  file: string,
  choice: ParserChoice,
  firstLine: string,
  head?: Uint8Array,
): InputFormat {
  return decideFormat(file, { given: choice.format, kind, firstLine, columns: choice.columns, head }).format;
}

/** The per-row parser for judgments (`kind` qrels) or a run, as decideFormat says (from the first line where it may tell). */
async function parserFor<K extends RowsKind>(
  kind: K,
  file: string,
  qids: Interner,
  expectedBytes: number,
  choice: ParserChoice,
): Promise<Parser<RowsOf<K>>> {
  const clues = { given: choice.format, kind, columns: choice.columns };
  const d = decideFormat(file, clues);
  const lineMayTell = d.format === "tsv" && !choice.columns;
  const runTag = kind === "run" ? runTagOf(file) : undefined;
  const o = { file, qids, kind, runTag, expectedBytes };
  const json = d.format === "json" ? (await import("../io/json.js")).JsonParser : null;
  const delimited = ["csv", "tsv"].includes(d.format) ? (await import("../io/delimited.js")).DelimitedParser : null;
  const hint = choice.hint ?? CLI_COLUMNS_HINT;
  const make = (format: InputFormat): Parser<RowsOf<K>> => {
    if (format === "json" && json) return new json(o);
    if ((format === "csv" || format === "tsv") && delimited)
      return new delimited({ ...o, delimiter: format === "csv" ? "," : "\t", columns: choice.columns, hint });
    const t = { file, qids, docids: "per-row" as const, expectedBytes };
    const shape = format === "msmarco" ? ("msmarco" as const) : undefined;
    const parser = kind === "qrels" ? new QrelsParser(t) : new RunParser({ ...t, shape, runTag: runTagOf(file) });
    return parser as unknown as Parser<RowsOf<K>>;
  };
  if (!lineMayTell) return make(d.format);
  return new ChosenByFirstLine((firstLine) => make(decideFormat(file, { ...clues, firstLine }).format));
}

type ParserFor<T> = (file: string, qids: Interner, expectedBytes: number, choice: ParserChoice) => Promise<Parser<T>>;

/** The per-row parser for a QRELS file. */
export const qrelsParserFor: ParserFor<QrelsRows> = (...a) => parserFor("qrels", ...a);

/** The per-row parser for a RUN file. */
export const runParserFor: ParserFor<RunRows> = (...a) => parserFor("run", ...a);
