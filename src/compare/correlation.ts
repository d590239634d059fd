import { badInput, notAnObject, shown } from "../errors/errors.js";

/** System name -> score (higher ranks first). */
export type SystemScores = Readonly<Record<string, number>>;

export interface SystemCorrelation {
  /** Kendall's tau_b, as scipy.stats.kendalltau: NaN where either side ties every system. */
  readonly tau: number;
  /**
   * tau_AP (Yilmaz, Aslam & Robertson, SIGIR 2008), `a` the reference; ties in `b`: the expectation over
   * their orders (Urbano & Marrero's tau_AP,a, ICTIR 2017); NaN where `a` ties systems.
   */
  readonly tauAP: number;
}

/** Kendall's tau_b and tau_AP between two scorings of the same systems, `a` the reference of tau_AP. */
export function systemCorrelation(a: SystemScores, b: SystemScores): SystemCorrelation {
  const names = checkScores(a, "a");
  checkScores(b, "b");
  const missing = names.filter((n) => !Object.hasOwn(b, n));
  const extra = Object.keys(b).filter((n) => !Object.hasOwn(a, n));
  if (missing.length || extra.length)
    throw badInput(
      "systemCorrelation: a and b must score the same systems" +
        (missing.length ? `; b lacks ${someNames(missing)}` : "") +
        (extra.length ? `; a lacks ${someNames(extra)}` : ""),
    );
  if (names.length < 2) throw badInput(`systemCorrelation: an order needs at least 2 systems, not ${names.length}`);
  const x = names.map((n) => a[n]);
  const y = names.map((n) => b[n]);
  return { tau: kendallTauB(x, y), tauAP: tauAP(x, y) };
}

function checkScores(scores: unknown, what: string) {
  if (notAnObject(scores)) throw badInput(`systemCorrelation: ${what} must be { system: score }, not ${shown(scores)}`);
  const names = Object.keys(scores as object);
  for (const n of names) {
    const v = (scores as Record<string, unknown>)[n];
    if (typeof v !== "number" || !Number.isFinite(v))
      throw badInput(`systemCorrelation: ${what}[${JSON.stringify(n)}] = ${shown(v)} is not a finite number`);
  }
  return names;
}

function someNames(names: readonly string[]) {
  return `${names.slice(0, 3).map(shown).join(", ")}${names.length > 3 ? `, ... (${names.length})` : ""}`;
}

/** tau_b = (concordant - discordant) / sqrt(pairs - tied in x) / sqrt(pairs - tied in y), as scipy; O(n^2) in systems. */
function kendallTauB(x: readonly number[], y: readonly number[]) {
  const n = x.length;
  let tiedX = 0;
  let tiedY = 0;
  let concordantMinusDiscordant = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const sx = Math.sign(x[i] - x[j]);
      const sy = Math.sign(y[i] - y[j]);
      if (sx === 0) tiedX++;
      if (sy === 0) tiedY++;
      concordantMinusDiscordant += sx * sy;
    }
  }
  const pairs = (n * (n - 1)) / 2;
  if (tiedX === pairs || tiedY === pairs) return NaN;
  const tau = concordantMinusDiscordant / Math.sqrt(pairs - tiedX) / Math.sqrt(pairs - tiedY);
  return Math.min(1, Math.max(-1, tau));
}

/**
 * tau_AP = 2 / (n - 1) sum_{i=2..n} C(i) / (i - 1) - 1, C(i) the systems above y's rank i that x ranks
 * above it too. A tied group of t at rank r (tau_AP,a): C weighted by sum_{k=1..t} 1/(r + k - 2) / t, plus
 * sum_{k=1..t-1} (k / 2) / (r + k - 1) for its own pairs.
 */
function tauAP(x: readonly number[], y: readonly number[]) {
  const n = x.length;
  if (new Set(x).size < n) return NaN;
  const order = [...x.keys()].sort((i, j) => y[j] - y[i]);
  let sum = 0;
  for (let start = 0; start < n; ) {
    let end = start + 1;
    while (end < n && y[order[end]] === y[order[start]]) end++;
    const r = start + 1;
    const t = end - start;
    if (r > 1) {
      let meanInverse = 0;
      for (let k = 1; k <= t; k++) meanInverse += 1 / (r + k - 2);
      meanInverse /= t;
      for (let g = start; g < end; g++) {
        const i = order[g];
        let above = 0;
        for (let h = 0; h < start; h++) if (x[order[h]] > x[i]) above++;
        sum += above * meanInverse;
      }
    }
    for (let k = 1; k < t; k++) sum += k / 2 / (r + k - 1);
    start = end;
  }
  return (2 / (n - 1)) * sum - 1;
}
