// num_ret     = N, documents ranked (after depth)                      trec_eval num_ret
// num_rel     = R, judged documents with label >= threshold            trec_eval num_rel
// num_rel_ret = relevant documents ranked                              trec_eval num_rel_ret
import { N, R, cumRel, f64At } from "../state";

export function numRet(): f64 {
  return <f64>N;
}

export function numRel(): f64 {
  return <f64>R;
}

export function numRelRet(): f64 {
  return f64At(cumRel, N);
}
