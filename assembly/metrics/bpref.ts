// bpref (Buckley & Voorhees 2004), as trec_eval computes it:
//   bpref = (1/R) * sum over relevant ranked documents d of (1 - min(n_d, R) / min(NR, R)),
//   where n_d is the number of judged non-relevant documents ranked above d and NR the number of
//   judged non-relevant documents (0 <= label < threshold). Unjudged documents (no judgment, or a
//   negative label) are skipped. A term is 1 when n_d = 0. 0 if R = 0.        trec_eval bpref
import { N, R, NR, rankLabel, threshold, f64At } from "../state";

export function bpref(): f64 {
  if (R == 0) return 0;
  const cap = <f64>(NR < R ? NR : R);
  let nonrelAbove = 0;
  let sum: f64 = 0;
  for (let r = 0; r < N; r++) {
    const label = f64At(rankLabel, r);
    if (!(label >= 0)) continue; // unjudged: NaN or negative
    if (label >= threshold) {
      sum += nonrelAbove == 0 ? 1 : 1 - <f64>(nonrelAbove < R ? nonrelAbove : R) / cap;
    } else {
      nonrelAbove++;
    }
  }
  return sum / <f64>R;
}
