/**
 * Presets: a tool's conventions and definitions in one word (`{ preset: "xgboost" }` gives what XGBoost
 * prints), each citing its source; undefined tie orders are input order. Chosen, so above a name's
 * implied tool. Imports no values from options.ts (which imports this).
 */
import { RankevalError, shown } from "../errors/errors.js";
import { didYouMean } from "../errors/suggest.js";
import type { ExplicitOptions } from "./options.js";

export interface Preset {
  /** The conventions it sets (other options still override them). */
  readonly conventions: ExplicitOptions;
  /** Family -> its own definition's family (LightGBM's `map@k` is `map_lightgbm@k`), under the name asked. */
  readonly definitions: Readonly<Record<string, string>>;
  /** Where each convention comes from. */
  readonly source: string;
}

type O = Required<ExplicitOptions>;
function preset(
  gain: O["gain"],
  noRelevant: O["noRelevant"],
  beyondList: O["beyondList"],
  ties: O["ties"],
  source: string,
  map?: string,
): Preset {
  return { conventions: { gain, noRelevant, beyondList, ties }, definitions: map ? { map } : {}, source };
}

const TREC_EVAL = preset(
  "linear",
  "zero",
  "pad",
  "docid",
  "trec_eval 10: m_ndcg.c (gain = the label), meas_avg.c (a query without relevant documents scores 0), m_P.c (P@k divides by k), form_res_rels.c (ties: docno descending)",
);

const TABLE = {
  trec_eval: TREC_EVAL,
  // pytrec_eval wraps trec_eval; ir_measures' DefaultPipeline uses pytrec_eval.
  pytrec_eval: TREC_EVAL,
  ir_measures: TREC_EVAL,
  ranx: preset(
    "linear",
    "zero",
    "pad",
    "input",
    "ranx: metrics/ndcg.py _dcg(jarvelin=True) (linear gain for ndcg), `if len(qrels) == 0: return 0.0`, fix_k (a cutoff past the list reads the list); ties: numba's unstable argsort, undefined: input order",
  ),
  sklearn: preset(
    "linear",
    "zero",
    "pad",
    "average",
    "scikit-learn: metrics/_ranking.py ndcg_score/dcg_score (gain = y_true; ignore_ties=False averages tied scores: _tie_averaged_dcg; a query whose ideal DCG is 0 scores 0; k zeroes the discount past k)",
  ),
  lightgbm: preset(
    "exp",
    "one",
    "clip",
    "input",
    "LightGBM: src/metric/dcg_calculator.cpp DefaultLabelGain (2^i - 1 for labels 0..30), CalDCG/CalMaxDCG (stable_sort by score: input order; k clamped to the list), rank_metric.hpp (a query with max DCG 0 scores 1), map_metric.hpp CalMapAtK (sum over relevant ranks <= k / min(relevant, k), 1 without relevant documents)",
    "map_lightgbm",
  ),
  xgboost: preset(
    "exp",
    "one",
    "pad",
    "input",
    "XGBoost 1.x: src/metric/rank_metric.cc EvalNDCG (gain 2^l - 1, stable_sort by score: input order; IDCG 0 scores 1, or 0 for ndcg@k-), EvalMAP (sum over relevant ranks <= k / relevant documents in the list; 1 without, 0 for map@k-), EvalPrecision (divides by k)",
    "map_xgboost",
  ),
  catboost: preset(
    "linear",
    "one",
    "pad",
    "worst",
    "CatBoost: libs/metrics/dcg.cpp CalcNdcg (type=Base: gain = the label; idcg > 0 ? dcg / idcg : 1), doc_comparator.h CompareDocs (equal predictions: lower target first, the worst order)",
  ),
  torchmetrics: preset(
    "linear",
    "zero",
    "pad",
    "input",
    "torchmetrics: functional/retrieval/ndcg.py (gain = target; argsort, whose tie order torch does not define: input order; IDCG 0 scores 0), retrieval/base.py empty_target_action='neg' (a query without relevant documents scores 0), average_precision.py (mean precision over the relevant documents in the top k)",
    "map_torchmetrics",
  ),
  ignite: preset(
    "exp",
    "skip",
    "pad",
    "input",
    "PyTorch-Ignite: metrics/rec_sys/ndcg.py NDCG (gain_function='exp_rank': 2^l - 1; ignore_zero_hits=True leaves queries without relevant items out; torch.topk, whose tie order is not defined: input order)",
  ),
  ptranking: preset(
    "exp",
    "nan",
    "zero",
    "input",
    "ptranking: metric/adhoc/adhoc_metric.py torch_nDCG_at_ks (gain 2^l - 1; 0/0 = NaN without relevant documents), torch_ap_at_ks (sum over relevant ranks <= k / sum of the top k ideal labels), torch_precision_at_ks and the others (0 for k > n); torch.sort, whose tie order is not defined: input order",
    "map_ptranking",
  ),
  "ptranking-tutorial": preset(
    "exp",
    "nan",
    "zero",
    "input",
    "ptranking's seed tutorial: tor_nDCG_at_ks (gain 2^l - 1, ideal DCG of the labels sorted, cut at k; 0/0 = NaN without relevant documents), tor_ap_at_ks (sum of the precisions at relevant ranks <= k, divided by k), tor_p_at_ks (divides by k), tor_err_at_ks ((2^l - 1) / 2^max_rele_level: err(max=M)@k), each 0 for k > n; relevant: label > 0; torch.sort, whose tie order is not defined: input order",
    "map_over_k",
  ),
  tfranking: preset(
    "exp",
    "zero",
    "clip",
    "input",
    "TF-Ranking: python/metrics_impl.py _DEFAULT_GAIN_FN (2^l - 1), NDCGMetric (divide_no_nan: 0 without relevant documents), _per_list_precision (divides by min(topn, list size)), MeanAveragePrecisionMetric (sum over relevant ranks <= topn / relevant documents in the top n); utils.sort_by_scores(shuffle_ties=True) breaks ties at random: input order",
    "map_torchmetrics",
  ),
  "rankeval-default": {
    conventions: { gain: "exp", relevanceThreshold: 1, noRelevant: "zero", beyondList: "pad", ties: "docid" },
    definitions: {},
    source: "rankeval's own defaults (DEFAULT_OPTIONS)",
  },
} as const satisfies Readonly<Record<string, Preset>>;

export type PresetName = keyof typeof TABLE;

export const PRESETS: Readonly<Record<PresetName, Preset>> = TABLE;

export const PRESET_NAMES = Object.keys(TABLE) as PresetName[];

/** `name`, checked as a preset name. */
export function presetName(name: unknown): PresetName {
  if (typeof name === "string" && Object.hasOwn(TABLE, name)) return name as PresetName;
  const hint = typeof name === "string" ? didYouMean(name, PRESET_NAMES) : "";
  throw new RankevalError(
    "bad-option",
    `unknown preset ${shown(name)}${hint} (the presets are ${PRESET_NAMES.join(", ")})`,
  );
}
