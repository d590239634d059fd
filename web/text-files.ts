// Which parser reads a text File (apart from read-file.ts, which the run reader bundles).
import { formatOf, type ParserChoice } from "../src/input/formats.js";

/** By the name, as the CLI without --input-format; a hint for headers lacking columns (no --columns here). */
export const BY_NAME: ParserChoice = {
  hint: "name them so in the header (the page reads no --columns), or evaluate the file with the command line's --columns",
};

/** TREC text streams in blocks; others are read whole. */
export const isTrecText = (file: File): boolean => formatOf(file.name) === "trec";
