/**
 * ranx's names that are not rankeval's (metric_switch): hits@k, ndcg_burges@k and dcg_burges@k (gain
 * 2^label - 1, _dcg(jarvelin=False)); its others are rankeval's, but its ndcg is linear-gain. `-lN`
 * (`hits@10-l2`) is the relevance threshold (extract_metric_and_params). Keyed as written.
 */
import { RankevalError } from "../errors/errors.js";
import { RANX } from "./conventions.js";
import { makeMeasure, positiveCutoff, type Measure } from "./measure.js";
import { findFamily } from "./registry.js";

export type RanxName = "hits" | "ndcg_burges" | "dcg_burges";

const NAMES: Readonly<Record<RanxName, { family: string; gain?: "exp" }>> = {
  hits: { family: "hits" },
  ndcg_burges: { family: "ndcg", gain: "exp" },
  dcg_burges: { family: "dcg", gain: "exp" },
};

export const RANX_NAMES: readonly string[] = Object.keys(NAMES);

const WORD = /^([a-z_]+)(?:@([^-]*))?(?:-l(.*))?$/;

/** A ranx word, or null if not one. */
export function parseRanx(word: string): Measure | null {
  const m = WORD.exec(word);
  if (!m || !Object.hasOwn(NAMES, m[1])) return null;
  const [, written, cutoffText, levelText] = m;
  const name = written as RanxName;
  const { family, gain } = NAMES[name];
  const fail = (why: string) => new RankevalError("bad-measure", `ranx measure "${word}": ${why}`);
  if (cutoffText?.includes(","))
    throw fail(
      `ranx takes one cutoff per measure: give ${cutoffText
        .split(",")
        .map((k) => `${name}@${k}`)
        .join(" ")}`,
    );
  const k = cutoffText === undefined ? 0 : positiveCutoff(word, cutoffText);
  let level: number | undefined;
  if (levelText !== undefined) {
    level = /^[0-9]+$/.test(levelText) ? Number(levelText) : NaN;
    if (!(level > 0)) throw fail(`relevance level "${levelText}" is not a positive integer`);
  }
  return makeMeasure(
    findFamily(family)!,
    k,
    {},
    {
      tool: "ranx",
      name: word,
      conventions: RANX,
      fixed: {
        ...(gain ? { gain } : {}),
        ...(level !== undefined && level !== 1 ? { relevanceThreshold: level } : {}),
      },
      aggregate: "mean",
    },
  );
}
