/**
 * The C/W/L measures (Moffat et al., "C/W/L": user models as continuation probabilities), as
 * cwl_eval computes them for ir_measures (README: "ir_measures' measures"):
 *
 *   positions i = 1..1000 (cwl_eval's ranking depth); g_i = the document's gain there, 0 past the
 *   ranking and for a document without a judgment; scaled families g = (clip(max(label, 0), min, max)
 *   − min) / (max − min); RBP g = 1 when max(label, 0) >= the relevance threshold, else 0;
 *   C_i the probability to go on from i to i + 1 (below); V_i = Π_{j<i} C_j (V_1 = 1);
 *   value = Σ_i V_i g_i / Σ_i V_i.
 *
 *   SDCG@k     C_i = log(i + 1) / log(i + 2) for i < k, else 0
 *   INST(T)    C_i = ((i + T + T_i − 1) / (i + T + T_i))², T_i = T − (g_1 + … + g_i)
 *   INSQ(T)    C_i = ((i + 2T − 1) / (i + 2T))²
 *   NERR8@k    C_i = 1 − g_i for i < k, else 0
 *   NERR9@k    C_i = (i / (i + 1)) (1 − g_i) for i < k, else 0
 *   NERR10(p)  C_i = p (1 − g_i)
 *   NERR11(T)  C_i = ((i + 2T − 1) / (i + 2T))² (1 − g_i)
 *   BPM(T)@k   C_i = 1 when g_1 + … + g_i < T and i < k, else 0
 *   RBP(p)     C_i = p
 */
import type { ResolvedOptions } from "../options.js";
import type { Query } from "./ranking.js";

export type CwlModel = "sdcg" | "inst" | "insq" | "nerr8" | "nerr9" | "nerr10" | "nerr11" | "bpm" | "rbp_cwl";

const DEPTH = 1000;

/** The 1000 gains of the ranking. */
function gains(q: Query, model: CwlModel, lo: number, hi: number, o: ResolvedOptions): number[] {
  return Array.from({ length: DEPTH }, (_, i) => {
    const label = q.ranking[i]?.label;
    if (label === undefined) return 0;
    const l = Math.max(label, 0);
    if (model === "rbp_cwl") return l >= o.relevanceThreshold ? 1 : 0;
    return (Math.min(Math.max(l, lo), hi) - lo) / (hi - lo);
  });
}

export function cwlMeasure(q: Query, model: CwlModel, k: number, params: Readonly<Record<string, number>>, o: ResolvedOptions): number {
  const lo = params.min ?? 0;
  const hi = params.max ?? 1;
  const g = gains(q, model, lo, hi, o);
  const T = params.t;
  const continuation = (i: number, sumTo: number): number => {
    // i is the 1-based position, sumTo = g_1 + ... + g_i
    switch (model) {
      case "sdcg": return i < k ? Math.log(i + 1) / Math.log(i + 2) : 0;
      case "inst": {
        const Ti = T - sumTo;
        return ((i + T + Ti - 1) / (i + T + Ti)) ** 2;
      }
      case "insq": return ((i + 2 * T - 1) / (i + 2 * T)) ** 2;
      case "nerr8": return i < k ? 1 - g[i - 1] : 0;
      case "nerr9": return i < k ? (i / (i + 1)) * (1 - g[i - 1]) : 0;
      case "nerr10": return params.p * (1 - g[i - 1]);
      case "nerr11": return ((i + 2 * T - 1) / (i + 2 * T)) ** 2 * (1 - g[i - 1]);
      case "bpm": return sumTo < T && i < k ? 1 : 0;
      case "rbp_cwl": return params.p;
    }
  };
  const v: number[] = [1];
  let sum = 0;
  for (let i = 1; i < DEPTH; i++) {
    sum += g[i - 1];
    v.push(v[i - 1] * continuation(i, sum));
  }
  const total = v.reduce((a, b) => a + b, 0);
  return v.reduce((a, vi, i) => a + vi * g[i], 0) / total;
}
