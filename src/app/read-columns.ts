// A file read as the judgments' functions read it (issue 38), by the command line
// (src/node/judgments-command.ts) and the page (web/worker.ts) alike: the library's columns, and how to
// find a duplicate row's file and line (src/judgments/on-files.ts says bad input of the files).
import { docidStrings, idValuesAt } from "../input/id-values.js";
import type { ParserChoice } from "../input/formats.js";
import { readRows, type Input } from "../input/input.js";
import { Interner } from "../io/interner.js";
import { type ParsedRows, skippedWarning } from "../io/rows.js";

/** Columns as the library reads them, qids by the parser's names. */
export type Columns<V extends "rel" | "score"> = { qid: Int32Array; qidNames: Interner; docid: string[] } & Record<
  V,
  Float64Array
>;

/** A file read as the library's columns, and how to say a duplicate row's file and line. */
export interface ColumnsRead<V extends "rel" | "score" = "rel" | "score"> {
  readonly file: string;
  /** Made on first read (a string an id): pool reads `parsed` instead. */
  readonly columns: Columns<V>;
  /** The rows as the parser gave them, ids as bytes. */
  readonly parsed: ParsedRows;
  /** Throws "FILE:LINE: document ... appears twice in query ..." where the file has such a row. */
  readonly checkTwice: () => void;
  /** What the reading left out, to be said (JSON lines' failed judgments: skippedWarning). */
  readonly notes: readonly string[];
}

/**
 * `input` read as a QRELS (`rel`) or RUN (`score`) is read, into columns (no object per query): qids
 * interned (the library reads them by the parser's names), docids a string each, made when the columns
 * are first read (the parser's rows as they are: `parsed`). Duplicates are found
 * by the library; which line is found again only where it finds one (`located`). `file`: as errors say it.
 */
export async function readColumns<V extends "rel" | "score">(
  value: V,
  input: Input,
  choice: ParserChoice,
  file: string,
): Promise<ColumnsRead<V>> {
  const { rows, placeOf } = await readRows(value === "rel" ? "qrels" : "run", input, new Interner(), choice);
  const n = rows.length;
  const values = ("rel" in rows ? rows.rel : rows.score).subarray(0, n);
  const qid = rows.qid.subarray(0, n);
  let columns: Columns<V> | undefined;
  const notes = rows.skipped ? [skippedWarning(file, rows.skipped)] : [];
  return {
    file,
    get columns() {
      columns ??= { qid, qidNames: rows.qidNames, docid: docidStrings(rows.docids, n), [value]: values } as Columns<V>;
      return columns;
    },
    parsed: { qid, qidNames: rows.qidNames, docids: rows.docids, value: values },
    checkTwice: () => void idValuesAt(rows, values, placeOf),
    notes,
  };
}
