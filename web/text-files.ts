// Which parser reads a text File on the page (apart from read-file.ts, which the run reader's worker
// bundles: the parsers of JSON and CSV are loaded on demand, and the reader reads TREC text only).
import { formatOf, type ParserChoice } from "../src/input/formats.js";

/**
 * How the page reads a text File: by its name, as the command line does without --input-format (.csv,
 * .tsv, .json, also gzipped; anything else TREC text). A CSV/TSV header without the columns looked for
 * says what to do here, where there is no --columns.
 */
export const BY_NAME: ParserChoice = {
  hint: "name them so in the header (the page reads no --columns), or evaluate the file with the command line's --columns",
};

/** Whether a text File is TREC text, which streams in blocks (others are read whole, as the command line reads them). */
export const isTrecText = (file: File): boolean => formatOf(file.name) === "trec";
