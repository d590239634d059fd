/**
 * XGBoost's measure names that are not rankeval's (src/metric/rank_metric.cc, 1.x: EvalRank's
 * constructor reads `name@k`, and a trailing `-`): its `-` variants, which score a query without
 * relevant documents 0 where the plain names score 1, and `pre@k`. Computed as XGBoost computes them
 * (the xgboost preset's conventions, src/measures/presets.ts), keyed by the name as written:
 *
 *   ndcg-, ndcg@k-   nDCG, 0 without relevant documents            EvalNDCG (minus_)
 *   map-, map@k-     XGBoost's AP (map_xgboost), 0 without them    EvalMAP (minus_)
 *   pre@k            precision@k                                   EvalPrecision
 *
 * XGBoost's `ndcg@k` and `map@k` are also rankeval's canonical names: under the xgboost preset they
 * are XGBoost's (1 without relevant documents).
 */
import { RankevalError } from "../errors/errors.js";
import { PRESETS } from "./presets.js";
import { makeMeasure, positiveCutoff, type Measure } from "./measure.js";
import { findFamily } from "./registry.js";

export type XgboostName = "ndcg-" | "map-" | `${"ndcg" | "map"}@${number}-` | `pre@${number}`;

export const XGBOOST_NAMES: readonly string[] = ["ndcg-", "map-", "pre"];

const WORD = /^(ndcg|map|pre)(?:@([^-]*))?(-)?$/;

/** One XGBoost measure word, or null if it is not one of the names above. */
export function parseXgboost(word: string): Measure | null {
  const m = WORD.exec(word);
  if (!m) return null;
  const [, name, cutoffText, minus] = m;
  // ndcg@k and map@k without `-` are rankeval's names; pre needs a cutoff and takes no `-`.
  if (name === "pre" ? cutoffText === undefined || minus !== undefined : minus === undefined) return null;
  const k = cutoffText === undefined ? 0 : positiveCutoff(word, cutoffText);
  const family = findFamily(name === "ndcg" ? "ndcg" : name === "map" ? "map_xgboost" : "precision");
  if (!family) throw new RankevalError("bad-measure", `xgboost measure "${word}": no family`);
  return makeMeasure(
    family,
    k,
    {},
    {
      tool: "xgboost",
      name: word,
      conventions: PRESETS.xgboost.conventions,
      fixed: minus ? { noRelevant: "zero" } : {},
      aggregate: "mean",
    },
  );
}
