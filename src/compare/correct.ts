// Multiple-comparison corrections of one family (a measure and a test). NaN p-values stay out and NaN.

export type Correction = "holm" | "bonferroni" | "bh" | "none";
export const CORRECTIONS: readonly Correction[] = ["holm", "bonferroni", "bh", "none"];

/**
 * In the order given:
 *   bonferroni  min(1, m p)
 *   holm        p_(i) sorted ascending: max over j <= i of min(1, (m - j + 1) p_(j))  (Holm 1979)
 *   bh          p_(i) sorted ascending: min over j >= i of min(1, m p_(j) / j)        (Benjamini & Hochberg 1995)
 *   none        p
 * as statsmodels' multipletests and R's p.adjust.
 */
export function adjust(p: readonly number[], correction: Correction) {
  const present = p.map((v, i) => [v, i] as const).filter(([v]) => !Number.isNaN(v));
  const m = present.length;
  const out = p.map(() => NaN);
  if (correction === "none") return p.slice();
  if (correction === "bonferroni") {
    for (const [v, i] of present) out[i] = Math.min(1, m * v);
    return out;
  }
  const sorted = present.slice().sort((a, b) => a[0] - b[0]);
  if (correction === "holm") {
    let running = 0;
    sorted.forEach(([v, i], j) => {
      running = Math.max(running, Math.min(1, (m - j) * v));
      out[i] = running;
    });
    return out;
  }
  let running = 1;
  for (let j = m - 1; j >= 0; j--) {
    const [v, i] = sorted[j];
    running = Math.min(running, Math.min(1, (m * v) / (j + 1)));
    out[i] = running;
  }
  return out;
}
