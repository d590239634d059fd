// fall_out@k = (judged non-relevant documents in ranks 1..min(k, N)) / NR, NR the query's judged
// non-relevant documents (0 <= label < threshold, retrieved or not); 1 if NR = 0. Documents without a
// judgment or with a negative label count in neither.            torchmetrics RetrievalFallOut
import { NR, rankLabel, threshold, f64At, ranksFor } from "../state";

export function fallOut(k: i32): f64 {
  if (NR == 0) return 1;
  const n = ranksFor(k);
  let nonRelevant = 0;
  for (let r = 0; r < n; r++) {
    const label = f64At(rankLabel, r);
    nonRelevant += <i32>(label >= 0 && label < threshold); // false for NaN: no judgment
  }
  return <f64>nonRelevant / <f64>NR;
}
