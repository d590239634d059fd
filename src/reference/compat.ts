/**
 * Compatibility (Clarke, Vtyurina & Smucker, TOIS 2021), as ir_measures' compat provider defines it:
 * the rank-biased overlap of the ranking R with the ideal ranking I,
 *   RBO = Σ_{i=1..d} p^(i−1) |R_i ∩ I_i| / i  /  Σ_{i=1..d} p^(i−1),   d = max(|R|, |I|),
 * R_i, I_i their first i documents; I is every judged document with a label > 0, by label
 * descending, then by its score in the run descending (0 when not retrieved), then (rankeval's
 * order of such ties) retrieved before not, by rank. normalize: divided by I's RBO with itself when
 * that is > 0.
 */
import type { Query } from "./ranking.js";

export function compatibility(q: Query, p: number, normalize: boolean): number {
  // The ideal's documents: retrieved ones by their rank; unretrieved ones as the judged labels left.
  const retrieved = q.ranking.map((d, rank) => ({ label: d.label ?? 0, score: d.score, rank, id: `r${rank}` })).filter((d) => d.label > 0);
  const left = q.judged.filter((l) => l > 0).sort((a, b) => b - a);
  for (const d of retrieved) left.splice(left.indexOf(d.label), 1);
  const ideal = [...retrieved, ...left.map((label, i) => ({ label, score: 0, rank: Infinity, id: `u${i}` }))]
    .sort((a, b) => b.label - a.label || b.score - a.score || a.rank - b.rank)
    .map((d) => d.id);
  const ranking = q.ranking.map((_, rank) => `r${rank}`);
  const rbo = (a: string[], b: string[]) => {
    const depth = Math.max(ranking.length, ideal.length);
    const sa = new Set<string>();
    const sb = new Set<string>();
    let score = 0;
    let norm = 0;
    for (let i = 0; i < depth; i++) {
      if (i < a.length) sa.add(a[i]);
      if (i < b.length) sb.add(b[i]);
      let overlap = 0;
      for (const x of sa) if (sb.has(x)) overlap++;
      score += (p ** i * overlap) / (i + 1);
      norm += p ** i;
    }
    return depth === 0 ? 0 : score / norm;
  };
  const score = rbo(ranking, ideal);
  if (!normalize) return score;
  const best = rbo(ideal, ideal);
  return best > 0 ? score / best : score;
}
