/**
 * XGBoost 1.x's names that are not rankeval's (rank_metric.cc EvalRank): `ndcg@k-`, `map@k-` (0, not
 * 1, without relevant documents: minus_) and `pre@k`, under the xgboost preset's conventions, keyed as
 * written. Its `ndcg@k`, `map@k` are rankeval's names (XGBoost's under the xgboost preset).
 */
import { PRESETS } from "./presets.js";
import { makeMeasure, positiveCutoff, type Measure } from "./measure.js";
import { findFamily } from "./registry.js";

export type XgboostName = "ndcg-" | "map-" | `${"ndcg" | "map"}@${number}-` | `pre@${number}`;

export const XGBOOST_NAMES: readonly string[] = ["ndcg-", "map-", "pre"];

const WORD = /^(ndcg|map|pre)(?:@([^-]*))?(-)?$/;

/** An XGBoost word, or null if not one. */
export function parseXgboost(word: string): Measure | null {
  const m = WORD.exec(word);
  if (!m) return null;
  const [, name, cutoffText, minus] = m;
  // ndcg@k, map@k without `-` are rankeval's; pre needs a cutoff, no `-`.
  if (name === "pre" ? cutoffText === undefined || minus !== undefined : minus === undefined) return null;
  const k = cutoffText === undefined ? 0 : positiveCutoff(word, cutoffText);
  return makeMeasure(
    findFamily(name === "ndcg" ? "ndcg" : name === "map" ? "map_xgboost" : "precision")!,
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
