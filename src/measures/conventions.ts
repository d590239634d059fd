/** Each tool's names' conventions, unless the user sets them. */
import type { ExplicitOptions } from "./options.js";

/** trec_eval 10: m_ndcg.c (gain = label), meas_avg.c (over num_q), m_P.c (divides by k), form_res_rels.c (ties); -l's 1 is ours. */
export const TREC_EVAL: ExplicitOptions = Object.freeze({
  gain: "linear",
  noRelevant: "zero",
  beyondList: "pad",
  ties: "docid",
});

/** Via pytrec_eval; queries without a value get DEFAULT, 0 (providers/base.py Evaluator.iter_calc). */
export const IR_MEASURES = TREC_EVAL;

/** ir_measures via gdeval.pl (`nDCG(dcg='exp-log2')@k`, `ERR@k`): gain 2^label - 1, ties by docid descending. */
export const GDEVAL: ExplicitOptions = Object.freeze({ ...TREC_EVAL, gain: "exp" });

/** ranx: ties undefined (input order), `if len(qrels) == 0: return 0.0`, fix_k. */
export const RANX: ExplicitOptions = Object.freeze({ noRelevant: "zero", beyondList: "pad", ties: "input" });

/** ndeval.c: ranked as -traditional (score, docid descending); 0 without a relevant subtopic (not nNRBP); P-IA@k divides by k. */
export const NDEVAL: ExplicitOptions = Object.freeze({ noRelevant: "zero", beyondList: "pad", ties: "docid" });
