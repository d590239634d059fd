// ir_measures' Accuracy (providers/accuracy_provider.py): among the top k retrieved documents, the
// share of (relevant, non-relevant) pairs in which the relevant one is ranked first,
//   1 - sum over relevant documents of (non-relevant documents above it) / (relevant x non-relevant);
// relevant: a label (0 for a document without a judgment) >= the threshold. NaN without a relevant
// retrieved document (ir_measures leaves the query out) and without a non-relevant one (ir_measures
// divides by zero there).
import { rankLabel, threshold, f64At, ranksFor } from "../state";

export function accuracy(k: i32): f64 {
  const n = ranksFor(k);
  let relevant: f64 = 0;
  let nonrelevant: f64 = 0;
  let misordered: f64 = 0;
  for (let r = 0; r < n; r++) {
    const label = f64At(rankLabel, r);
    if ((label == label ? label : 0) >= threshold) {
      relevant++;
      misordered += nonrelevant;
    } else nonrelevant++;
  }
  if (relevant == 0 || nonrelevant == 0) return NaN;
  return 1 - misordered / (nonrelevant * relevant);
}
