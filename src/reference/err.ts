/**
 * err@k = Σ_{r <= k} (1/r) · p_r · Π_{i < r} (1 − p_i)                        (Chapelle et al. 2009)
 * p = (2^min(label, max) − 1) / 2^max for label > 0, else 0 (also for unjudged documents);
 * parameter `max` (default 4, as gdeval). Ranks past N add nothing; no cutoff reads the whole list.
 */
import { ranksRead, type Query } from "./ranking.js";

export function stopProbability(label: number | undefined, max: number): number {
  if (label === undefined || !(label > 0)) return 0;
  return (Math.pow(2, Math.min(label, max)) - 1) / Math.pow(2, max);
}

export function expectedReciprocalRank(q: Query, k: number, max: number): number {
  let sum = 0;
  let notStoppedYet = 1; // Π_{i < r} (1 − p_i)
  for (let r = 1; r <= ranksRead(q, k); r++) {
    const p = stopProbability(q.ranking[r - 1].label, max);
    sum += (1 / r) * p * notStoppedYet;
    notStoppedYet *= 1 - p;
  }
  return sum;
}
