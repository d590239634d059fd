// Measures of incomplete judgments, as trec_eval computes them. A ranked document is relevant
// (label >= threshold), judged non-relevant (0 <= label < threshold), "unjudged" (negative label)
// or "nonpool" (no judgment, NaN).
//
// infap = (1/R) sum over relevant ranked documents at 0-based position j of
//           1                                              if j = 0, else
//           1/(j+1) + (j/(j+1)) ((rel + nonrel + unj)/j) ((rel + eps)/(rel + nonrel + 2 eps))
//         where rel, nonrel, unj count the relevant, judged non-relevant and unjudged documents
//         above it (nonpool documents are not counted, but do take positions); eps = 1e-5.
//         0 if R = 0. (Yilmaz & Aslam 2006, inferred AP.)        trec_eval infAP
// bing  = (1/R) sum over relevant ranked documents d of 1 / log2(2 + m_d), m_d the number of
//         documents above d that are not relevant (of any kind). 0 if R = 0.   trec_eval binG
import { N, R, rankLabel, threshold, discount, f64At } from "../state";

const INFAP_EPSILON: f64 = 0.00001;

export function infAP(): f64 {
  if (R == 0) return 0;
  let rel = 0;
  let nonrel = 0;
  let unjudged = 0;
  let sum: f64 = 0;
  for (let j = 0; j < N; j++) {
    const label = f64At(rankLabel, j);
    if (label != label) continue; // nonpool
    if (label < 0) {
      unjudged++;
    } else if (label < threshold) {
      nonrel++;
    } else {
      if (j == 0) {
        sum += 1;
      } else {
        const fj = <f64>j;
        sum += 1 / (fj + 1) + (fj / (fj + 1)) * (<f64>(rel + nonrel + unjudged) / fj) *
          ((<f64>rel + INFAP_EPSILON) / (<f64>(rel + nonrel) + 2 * INFAP_EPSILON));
      }
      rel++;
    }
  }
  return sum / <f64>R;
}

export function binG(): f64 {
  if (R == 0) return 0;
  let rel = 0;
  let sum: f64 = 0;
  for (let i = 0; i < N; i++) {
    if (f64At(rankLabel, i) >= threshold) {
      // 1 / log2(2 + m) is the discount of rank m + 1; m = i - rel <= N - 1.
      sum += f64At(discount, i - rel + 1);
      rel++;
    }
  }
  return sum / <f64>R;
}
