// Which parser reads judgments or a run: --input-format, else the file's name (anything else is TREC
// text), and for a .tsv its first line (TREC's fields without a header, as MS MARCO's qrels, are TREC
// text). The JSON and CSV/TSV parsers are loaded when a file needs one.
import type { ColumnNames } from "../io/delimited.js";
import type { Interner } from "../io/interner.js";
import type { RowsKind, RowsOf } from "../io/json.js";
import { QrelsParser, type QrelsRows } from "../io/qrels.js";
import { RunParser, type RunRows } from "../io/run.js";

/** `msmarco`: runs of `qid docid rank` lines (MS MARCO's, dense retrievers'), judgments as TREC text. */
export type InputFormat = "trec" | "json" | "csv" | "tsv" | "parquet" | "arrow" | "msmarco";
export const INPUT_FORMATS: readonly InputFormat[] = ["trec", "json", "csv", "tsv", "parquet", "arrow", "msmarco"];

/** A columnar file's format from its name: .parquet; .arrow, .feather (Feather v2 is Arrow's IPC file), .arrows (IPC stream). */
const COLUMNAR_NAME = /\.(parquet|arrow|feather|arrows)$/i;

/**
 * The format of `file`: the one given, else from its name (standard input, `-`, is TREC text). A
 * directory (a Parquet or Arrow dataset) is told by src/node/columnar-files.ts, which looks inside.
 */
export function formatOf(file: string, given?: InputFormat): InputFormat {
  if (given !== undefined) return given;
  const c = COLUMNAR_NAME.exec(file);
  if (c) return c[1].toLowerCase() === "parquet" ? "parquet" : "arrow";
  const m = /\.(json|csv|tsv)(\.gz)?$/i.exec(file);
  return m ? (m[1].toLowerCase() as InputFormat) : "trec";
}

/** A JSON, CSV/TSV, Parquet or Arrow run's tag (without a tag column): its name without directory and extension. */
export function runTagOf(file: string): string {
  const name = file.replace(/\/+$/, "").replace(/^.*\//, "");
  return name.replace(/\.(json|csv|tsv)(\.gz)?$/i, "").replace(COLUMNAR_NAME, "") || name;
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

/** The format judgments (`kind` qrels) or a run are read in before their first line is seen. */
function namedFormat(kind: RowsKind, file: string, given?: InputFormat): InputFormat {
  // msmarco names a run's shape: judgments keep the format of their name (TREC text, BEIR's TSV).
  return given === "msmarco" && kind === "qrels" ? formatOf(file) : formatOf(file, given);
}

/**
 * The format a file is parsed in, as parserFor chooses it: a .tsv without --columns is TREC text
 * where its first line (`firstLine`, decompressed) is TREC's.
 */
export function formatRead(kind: RowsKind, file: string, choice: ParserChoice, firstLine: string): InputFormat {
  const format = namedFormat(kind, file, choice.format);
  return format === "tsv" && !choice.columns && isTrecLine(firstLine, kind) ? "trec" : format;
}

/** The per-row parser for judgments (`kind` qrels) or a run. */
async function parserFor<K extends RowsKind>(
  kind: K,
  file: string,
  qids: Interner,
  expectedBytes: number,
  choice: ParserChoice,
): Promise<Parser<RowsOf<K>>> {
  const format = namedFormat(kind, file, choice.format);
  const runTag = kind === "run" ? runTagOf(file) : undefined;
  const o = { file, qids, kind, runTag, expectedBytes };
  if (format === "json") return new (await import("../io/json.js")).JsonParser(o);
  const trec = () => {
    const t = { file, qids, docids: "per-row" as const, expectedBytes };
    const shape = format === "msmarco" ? ("msmarco" as const) : undefined;
    const parser = kind === "qrels" ? new QrelsParser(t) : new RunParser({ ...t, shape, runTag: runTagOf(file) });
    return parser as unknown as Parser<RowsOf<K>>;
  };
  if (format === "trec" || format === "msmarco") return trec();
  const { DelimitedParser } = await import("../io/delimited.js");
  const delimiter = format === "csv" ? "," : "\t";
  const hint = choice.hint ?? CLI_COLUMNS_HINT;
  const delimited = () => new DelimitedParser({ ...o, delimiter, columns: choice.columns, hint });
  if (format === "csv") return delimited();
  if (format !== "tsv") return trec();
  if (choice.columns) return delimited();
  return new ChosenByFirstLine((line) => (isTrecLine(line, kind) ? trec() : delimited()));
}

type ParserFor<T> = (file: string, qids: Interner, expectedBytes: number, choice: ParserChoice) => Promise<Parser<T>>;

/** The per-row parser for a QRELS file. */
export const qrelsParserFor: ParserFor<QrelsRows> = (...a) => parserFor("qrels", ...a);

/** The per-row parser for a RUN file. */
export const runParserFor: ParserFor<RunRows> = (...a) => parserFor("run", ...a);
