/** The conventions each tool's measure names carry unless the user sets them, cited from its source. */
import type { ExplicitOptions } from "./options.js";

/**
 * trec_eval 10: gain = the label (m_ndcg.c), a query without relevant documents scores 0
 * (meas_avg.c averages over num_q), a cutoff past the list is padded (P divides by k), equal scores
 * by document id descending (form_res_rels.c). -l's threshold is 1, as the library's.
 */
export const TREC_EVAL: ExplicitOptions = Object.freeze({
  gain: "linear",
  noRelevant: "zero",
  beyondList: "pad",
  ties: "docid",
});

/**
 * ir_measures through pytrec_eval, its default provider: trec_eval's. Queries a provider gives no value
 * get the measure's DEFAULT, 0 (providers/base.py Evaluator.iter_calc).
 */
export const IR_MEASURES = TREC_EVAL;

/**
 * ir_measures through gdeval (providers/gdeval_provider.py, bin/gdeval.pl), which computes
 * `nDCG(dcg='exp-log2')@k` and `ERR@k`: gain 2^label - 1, ties by document id descending (runOrder),
 * ranks past the list add nothing.
 */
export const GDEVAL: ExplicitOptions = Object.freeze({ ...TREC_EVAL, gain: "exp" });

/**
 * ranx (ranx/metrics/*.py): ties are whatever order its sort leaves (undefined: rankeval takes the
 * input order, the run's order within the query), a query without relevant documents scores 0
 * (`if len(qrels) == 0: return 0.0`), a cutoff past the list reads the list (fix_k).
 */
export const RANX: ExplicitOptions = Object.freeze({ noRelevant: "zero", beyondList: "pad", ties: "input" });

/**
 * TREC's ndeval (ndeval.c): rankeval ranks as ndeval -traditional does, by score then document id
 * descending (ndeval's default reads the run's rank column, which well-formed runs agree with); every
 * value is 0 for a query without a relevant subtopic but nNRBP (its 0/0, fixed on that name); a cutoff
 * past the ranking is padded (P-IA@k divides by k).
 */
export const NDEVAL: ExplicitOptions = Object.freeze({ noRelevant: "zero", beyondList: "pad", ties: "docid" });
