/**
 * inversions  = #{ ranks i < j : label_i < label_j }  (unjudged = 0): the swaps bubble sort needs
 *               to order the labels as ranked (the MSLR notebook). Counted here pair by pair, O(N²).
 * kendall_tau = Kendall's τ-b between scores and labels (unjudged = 0), over the N ranked documents:
 *               (n0 − n1 − n2 + n3 − 2D) / √((n0 − n1)(n0 − n2)), 0 when undefined (denominator 0),
 *               n0 = N(N−1)/2 pairs, n1 = pairs tied in score, n2 = pairs tied in label,
 *               n3 = pairs tied in both, D = discordant pairs.          (Kendall 1945, Knight 1966)
 * mse         = (1/N) Σ over ranked documents of (score − label)² (unjudged = 0); 0 if N = 0.
 * Negative labels are used as they are (they are judged); only documents without a judgment read 0.
 */
import type { Query } from "./ranking.js";

const labelOrZero = (label: number | undefined): number => (label === undefined ? 0 : label);

export function inversions(q: Query): number {
  const labels = q.ranking.map((d) => labelOrZero(d.label));
  let count = 0;
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) if (labels[i] < labels[j]) count++;
  }
  return count;
}

export function kendallTau(q: Query): number {
  const n = q.ranking.length;
  const s = q.ranking.map((d) => d.score);
  const l = q.ranking.map((d) => labelOrZero(d.label));
  let n1 = 0;
  let n2 = 0;
  let n3 = 0;
  let D = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const tieS = s[i] === s[j];
      const tieL = l[i] === l[j];
      if (tieS) n1++;
      if (tieL) n2++;
      if (tieS && tieL) n3++;
      if (!tieS && !tieL && (s[i] < s[j]) !== (l[i] < l[j])) D++;
    }
  }
  const n0 = (n * (n - 1)) / 2;
  const denominator = Math.sqrt((n0 - n1) * (n0 - n2));
  return denominator === 0 ? 0 : (n0 - n1 - n2 + n3 - 2 * D) / denominator;
}

export function meanSquaredError(q: Query): number {
  if (q.ranking.length === 0) return 0;
  let sum = 0;
  for (const d of q.ranking) sum += (d.score - labelOrZero(d.label)) ** 2;
  return sum / q.ranking.length;
}
