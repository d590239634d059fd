/**
 * Rank-biased precision (Moffat & Zobel 2008) as trec_eval means it (TREC_EVAL_SEMANTICS.md (a)):
 *
 * rbp(p)       = (1 − p) Σ_{i=1..N} g_i p^(i−1). The gains of the levels 0..L, L the query's highest
 *                judged label >= 0 (with L itself when fractional), are rescaled per query to
 *                (g − min)/(max − min) when any lies outside [0, 1]; gains are >= 0 and gain(0) = 0,
 *                so min = 0 and the rescaling is a division by the largest level gain when it
 *                exceeds 1. Documents without a judgment or with a negative label gain 0.  trec_eval rbp
 * rbp_resid(p) = p^N + (1 − p) Σ over ranks i of documents without a judgment or with a negative
 *                label of p^(i−1), when there is at least one such document; else 0.  trec_eval rbp_resid
 */
import type { ResolvedOptions } from "../options.js";
import { gain, type Query } from "./ranking.js";

function largestLevelGain(q: Query, o: ResolvedOptions): number {
  const top = Math.max(-1, ...q.judged);
  if (top < 0) return 0;
  let best = gain(top, o);
  // Every integer level up to the top. Past the largest label a custom table lists, gains are
  // linear and grow, so the last integer level stands for them.
  const listedMax = typeof o.gain === "string" ? 0 : Math.max(0, ...o.gain.keys());
  const last = Math.floor(top);
  for (let l = 0; l <= Math.min(last, listedMax); l++) best = Math.max(best, gain(l, o));
  return Math.max(best, gain(last, o));
}

export function rankBiasedPrecision(q: Query, p: number, o: ResolvedOptions): number {
  const max = largestLevelGain(q, o);
  const scale = max > 1 ? max : 1;
  let sum = 0;
  q.ranking.forEach((d, i) => {
    sum += (gain(d.label, o) / scale) * p ** i;
  });
  return (1 - p) * sum;
}

export function rbpResidual(q: Query, p: number): number {
  const open = (label: number | undefined) => label === undefined || label < 0;
  if (!q.ranking.some((d) => open(d.label))) return 0;
  let sum = 0;
  q.ranking.forEach((d, i) => {
    if (open(d.label)) sum += p ** i;
  });
  return p ** q.ranking.length + (1 - p) * sum;
}
