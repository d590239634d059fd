/**
 * dcg@k  = Σ_{i <= min(k, N)} gain(label_i) / log2(i + 1)                (Järvelin & Kekäläinen 2002)
 * ndcg@k = dcg@k / idcg@k, where idcg@k is the dcg@k of the ideal ranking: the gains of *all* the
 *          query's judged documents (retrieved or not) sorted descending, cut at k too; 0 if idcg = 0.
 * Without a cutoff (k = 0) both read the whole list. The discount 1/log2(i + 1) is the shared table.
 */
import { discountTable } from "../measures/discount.js";
import type { ResolvedOptions } from "../options.js";
import { gain, ratio, type Query } from "./ranking.js";

/** Σ gains[i - 1] / log2(i + 1) over ranks i = 1..min(k, gains.length), summed in rank order. */
function discountedSum(gains: readonly number[], k: number): number {
  const end = k === 0 ? gains.length : Math.min(k, gains.length);
  const discount = discountTable(end + 1);
  let sum = 0;
  for (let i = 1; i <= end; i++) sum += gains[i - 1] * discount[i];
  return sum;
}

export function dcg(q: Query, k: number, o: ResolvedOptions): number {
  return discountedSum(q.ranking.map((d) => gain(d.label, o)), k);
}

export function idealDcg(q: Query, k: number, o: ResolvedOptions): number {
  const ideal = q.judged.map((label) => gain(label, o)).sort((a, b) => b - a);
  return discountedSum(ideal, k);
}

export function ndcg(q: Query, k: number, o: ResolvedOptions): number {
  return ratio(dcg(q, k, o), idealDcg(q, k, o));
}
