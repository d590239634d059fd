// Expected reciprocal rank (Chapelle et al. 2009), as gdeval computes it:
//   p(g)  = (2^g - 1) / 2^max for a label g > 0 (labels above max count as max), else 0
//   err@k = sum over ranks r <= k of (1/r) p(g_r) prod_{i<r} (1 - p(g_i))
import { rankLabel, f64At, ranksFor } from "../state";

export function err(k: i32, maxGrade: f64): f64 {
  const n = ranksFor(k);
  const scale = Math.pow(2.0, maxGrade);
  let notYetStopped: f64 = 1;
  let sum: f64 = 0;
  for (let r = 0; r < n; r++) {
    const label = f64At(rankLabel, r);
    if (label > 0) {
      const g = label < maxGrade ? label : maxGrade;
      const p = (Math.pow(2.0, g) - 1) / scale;
      sum += (notYetStopped * p) / <f64>(r + 1);
      notYetStopped *= 1 - p;
    }
  }
  return sum;
}
