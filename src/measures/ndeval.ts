/**
 * ndeval.c 4.5's column names (ERR-IA@k, NRBP, MAP-IA, strec@k, ...) as diversity families with its
 * definitions (alpha = beta = 0.5), keyed as written; `ndeval`: its 21 columns. Any cutoff (ndeval: <= 20).
 */
import { RankevalError } from "../errors/errors.js";
import { NDEVAL } from "./conventions.js";
import { makeMeasure, positiveCutoff, type Measure } from "./measure.js";
import { findFamily } from "./registry.js";

const NAMES = ["ERR-IA", "nERR-IA", "alpha-DCG", "alpha-nDCG", "NRBP", "nNRBP", "MAP-IA", "P-IA", "strec"];
const UNCUT = ["NRBP", "nNRBP", "MAP-IA"];

export type NdevalName =
  | "NRBP"
  | "nNRBP"
  | "MAP-IA"
  | "ndeval"
  | `${"ERR-IA" | "nERR-IA" | "alpha-DCG" | "alpha-nDCG" | "P-IA" | "strec"}@${number}`;

/** In its output's order (outputMeasures). */
export const NDEVAL_COLUMNS: readonly string[] = NAMES.flatMap((n) =>
  UNCUT.includes(n) ? [n] : [5, 10, 20].map((k) => `${n}@${k}`),
);

export const NDEVAL_NAMES: readonly string[] = [...NAMES, "ndeval"];

const WORD = /^([A-Za-z-]+?)(?:@(.*))?$/;

const fail = (word: string, why: string) => new RankevalError("bad-measure", `ndeval measure "${word}": ${why}`);

/** An ndeval word (or `ndeval`), or null if not one. */
export function parseNdeval(word: string): Measure[] | null {
  if (word === "ndeval") return NDEVAL_COLUMNS.flatMap((w) => parseNdeval(w)!);
  const m = WORD.exec(word);
  if (!m || !NAMES.includes(m[1])) return null;
  const [, name, cutoffText] = m;
  const family = name.toLowerCase().replace("-", "_");
  const cutoff = !UNCUT.includes(name);
  if (cutoff && cutoffText === undefined)
    throw fail(word, `${name} needs a cutoff, as ${name}@20 (ndeval prints @5, @10 and @20)`);
  if (!cutoff && cutoffText !== undefined) throw fail(word, `${name} takes no cutoff`);
  const k = cutoffText === undefined ? 0 : positiveCutoff(word, cutoffText);
  return [
    makeMeasure(
      findFamily(family)!,
      k,
      {},
      {
        tool: "ndeval",
        name: word,
        conventions: NDEVAL,
        // nNRBP: 0/0 without a relevant subtopic.
        fixed: family === "nnrbp" ? { noRelevant: "nan" } : {},
        aggregate: "mean",
      },
    ),
  ];
}
