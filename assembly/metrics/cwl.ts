// C/W/L measures as ir_measures' cwl_eval (SIGIR 2019: cwl_metrics.py, each metric's c_vector; cwl_bpm.py
// static, unit costs); definitions: src/reference/formulas-graded.ts.
// W_1 = 1 / sum_{i=1..n} prod_{j<i} C_j, W_i = W_1 prod_{j<i} C_j; the value sum_i W_i g_i.
import { N, rankLabel, threshold, f64At } from "../ranking/state";

/** cwl_eval's ranking depth (RankingMaker max_n). */
const DEPTH: i32 = 1000;

export const enum CwlModel { SDCG = 0, INST = 1, INSQ = 2, NERR8 = 3, NERR9 = 4, NERR10 = 5, NERR11 = 6, BPM = 7, RBP = 8 }

// @ts-ignore: decorator
@inline function gainAt(i: i32, binary: bool, lo: f64, hi: f64): f64 {
  if (i >= N) return 0;
  const label = f64At(rankLabel, i);
  if (!(label == label)) return 0;
  const l = label > 0 ? label : 0;
  if (binary) return l >= threshold ? 1 : 0;
  const c = l < lo ? lo : l > hi ? hi : l;
  return (c - lo) / (hi - lo);
}

/**
 * The expected utility of model `model` with parameter `a` (T, or p), cutoff k (SDCG, NERR8, NERR9,
 * BPM), gains scaled from [lo, hi].
 */
export function cwl(model: i32, k: i32, a: f64, lo: f64, hi: f64): f64 {
  const binary = model == CwlModel.RBP;
  let weight: f64 = 1; // prod_{j<i} C_j
  let total: f64 = 0; // sum of the weights
  let utility: f64 = 0; // sum of weight * gain
  let cumulative: f64 = 0; // sum_{j<=i} g_j
  for (let p = 0; p < DEPTH; p++) {
    const rank = <f64>(p + 1);
    const g = gainAt(p, binary, lo, hi);
    cumulative += g;
    total += weight;
    utility += weight * g;
    let c: f64 = 0;
    switch (model) {
      case CwlModel.SDCG: c = p + 1 < k ? Math.log(rank + 1) / Math.log(2) / (Math.log(rank + 2) / Math.log(2)) : 0; break;
      case CwlModel.INST: {
        const ti = a - cumulative;
        const x = (rank + a + ti - 1) / (rank + a + ti);
        c = x * x;
        break;
      }
      case CwlModel.INSQ: {
        const x = (rank + 2 * a - 1) / (rank + 2 * a);
        c = x * x;
        break;
      }
      case CwlModel.NERR8: c = p < k - 1 ? 1 - g : 0; break;
      case CwlModel.NERR9: c = p < k - 1 ? (rank / (rank + 1)) * (1 - g) : 0; break;
      case CwlModel.NERR10: c = a * (1 - g); break;
      case CwlModel.NERR11: {
        const x = (rank + 2 * a - 1) / (rank + 2 * a);
        c = x * x * (1 - g);
        break;
      }
      case CwlModel.BPM: c = cumulative < a && rank < <f64>k ? 1 : 0; break;
      case CwlModel.RBP: c = a; break;
    }
    weight *= c;
  }
  return utility * (1 / total);
}
