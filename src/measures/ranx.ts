/**
 * ranx's measure names that differ from rankeval's (ranx/metrics/__init__.py metric_switch), with
 * ranx's definitions and conventions. ranx's other names (precision@k, recall@k, f1@k, map, mrr,
 * r-precision, hit_rate@k, bpref) are rankeval's canonical names with the same definitions; ranx's
 * `ndcg` and `dcg` are linear-gain, rankeval's canonical ones exp-gain by default (give
 * `{ gain: "linear" }`, or use trec_eval's `ndcg_cut.k` or ir_measures' `nDCG@k`).
 *
 *   hits@k          the number of relevant documents in the top k           metrics/hits.py _hits
 *   ndcg_burges@k   nDCG with gain 2^label - 1 (Burges et al. 2005)         metrics/ndcg.py _ndcg(jarvelin=False)
 *   dcg_burges@k    DCG with gain 2^label - 1                               metrics/ndcg.py _dcg(jarvelin=False)
 *
 * Without `@k` the whole ranking (ranx's k = 0). A `-lN` suffix (`hits@10-l2`), ranx's relevance
 * level, sets the relevance threshold (meta/evaluate.py extract_metric_and_params). Results are keyed
 * by the name as written, as ranx keys them.
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

/** One ranx measure word, or null if it does not start with one of the names above. */
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
    // ranx reads the level with int(): an integer.
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
