/**
 * ndeval.c 4.5's column names (ERR-IA@k, NRBP, MAP-IA, strec@k, ...) as diversity families with its
 * definitions (alpha = beta = 0.5), keyed as written; `ndeval`: its 21 columns. Any cutoff (ndeval: <= 20).
 */
import { RankevalError } from "../errors/errors.js";
import { NDEVAL } from "./conventions.js";
import { makeMeasure, positiveCutoff, type Measure } from "./measure.js";
import { findFamily } from "./registry.js";

const NAMES: Readonly<Record<string, { family: string; cutoff: boolean }>> = {
  "ERR-IA": { family: "err_ia", cutoff: true },
  "nERR-IA": { family: "nerr_ia", cutoff: true },
  "alpha-DCG": { family: "alpha_dcg", cutoff: true },
  "alpha-nDCG": { family: "alpha_ndcg", cutoff: true },
  NRBP: { family: "nrbp", cutoff: false },
  nNRBP: { family: "nnrbp", cutoff: false },
  "MAP-IA": { family: "map_ia", cutoff: false },
  "P-IA": { family: "p_ia", cutoff: true },
  strec: { family: "strec", cutoff: true },
};

export type NdevalName =
  | "NRBP"
  | "nNRBP"
  | "MAP-IA"
  | "ndeval"
  | `${"ERR-IA" | "nERR-IA" | "alpha-DCG" | "alpha-nDCG" | "P-IA" | "strec"}@${number}`;

/** In its output's order (outputMeasures). */
export const NDEVAL_COLUMNS: readonly string[] = [
  "ERR-IA@5",
  "ERR-IA@10",
  "ERR-IA@20",
  "nERR-IA@5",
  "nERR-IA@10",
  "nERR-IA@20",
  "alpha-DCG@5",
  "alpha-DCG@10",
  "alpha-DCG@20",
  "alpha-nDCG@5",
  "alpha-nDCG@10",
  "alpha-nDCG@20",
  "NRBP",
  "nNRBP",
  "MAP-IA",
  "P-IA@5",
  "P-IA@10",
  "P-IA@20",
  "strec@5",
  "strec@10",
  "strec@20",
];

export const NDEVAL_NAMES: readonly string[] = [...Object.keys(NAMES), "ndeval"];

const WORD = /^([A-Za-z-]+?)(?:@(.*))?$/;

const fail = (word: string, why: string) => new RankevalError("bad-measure", `ndeval measure "${word}": ${why}`);

/** An ndeval word (or `ndeval`), or null if not one. */
export function parseNdeval(word: string): Measure[] | null {
  if (word === "ndeval") return NDEVAL_COLUMNS.flatMap((w) => parseNdeval(w)!);
  const m = WORD.exec(word);
  if (!m || !Object.hasOwn(NAMES, m[1])) return null;
  const [, name, cutoffText] = m;
  const { family, cutoff } = NAMES[name];
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
