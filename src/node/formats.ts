// The command line's input formats: which parser reads a QRELS or RUN file, from --input-format or
// from the file's name (.json, .csv, .tsv, each also .gz; anything else is TREC text).
import { basename } from "node:path";
import { DelimitedParser, type ColumnNames } from "../io/delimited.js";
import type { Interner } from "../io/interner.js";
import { JsonParser } from "../io/json.js";
import { QrelsParser, type QrelsRows } from "../io/qrels.js";
import { RunParser, type RunRows } from "../io/run.js";

export type InputFormat = "trec" | "json" | "csv" | "tsv";
export const INPUT_FORMATS: readonly InputFormat[] = ["trec", "json", "csv", "tsv"];

/** The format of `file`: the one given, else from its name (standard input, `-`, is TREC text). */
export function formatOf(file: string, given?: InputFormat): InputFormat {
  if (given !== undefined) return given;
  const m = /\.(json|csv|tsv)(\.gz)?$/i.exec(file);
  return m ? (m[1].toLowerCase() as InputFormat) : "trec";
}

/** A JSON or CSV/TSV run's tag: the file's name without its directory and its format's extension. */
export function runTagOf(file: string): string {
  if (file === "-") return "-";
  return basename(file).replace(/\.(json|csv|tsv)(\.gz)?$/i, "") || basename(file);
}

export interface ParserChoice {
  format?: InputFormat;
  columns?: ColumnNames;
}

/** What readInto feeds and finish() reads. */
interface Parser<T> {
  push(chunk: Uint8Array): void;
  finish(): T;
}

/** The per-row parser for a QRELS file. */
export function qrelsParserFor(file: string, qids: Interner, expectedBytes: number, choice: ParserChoice): Parser<QrelsRows> {
  const format = formatOf(file, choice.format);
  if (format === "json") return new JsonParser({ file, qids, kind: "qrels", expectedBytes });
  if (format === "csv" || format === "tsv") {
    return new DelimitedParser({ file, qids, kind: "qrels", expectedBytes, delimiter: format === "csv" ? "," : "\t", columns: choice.columns });
  }
  return new QrelsParser({ file, qids, docids: "per-row", expectedBytes });
}

/** The per-row parser for a RUN file. */
export function runParserFor(file: string, qids: Interner, expectedBytes: number, choice: ParserChoice): Parser<RunRows> {
  const format = formatOf(file, choice.format);
  const runTag = runTagOf(file);
  if (format === "json") return new JsonParser({ file, qids, kind: "run", runTag, expectedBytes });
  if (format === "csv" || format === "tsv") {
    return new DelimitedParser({ file, qids, kind: "run", runTag, expectedBytes, delimiter: format === "csv" ? "," : "\t", columns: choice.columns });
  }
  return new RunParser({ file, qids, docids: "per-row", expectedBytes });
}
