// Seeded in-memory batches for the benchmarks: the same rows on every run and machine.

/** mulberry32: a small, fast, seeded generator. */
export function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `queries` queries of `perQuery` rows, grouped by query: labels 0..4 skewed towards 0, scores
 * correlated with the label, rounded to 3 decimals so that ties occur, as a model's would.
 */
export function ltrBatch(queries, perQuery, seed = 1) {
  const next = random(seed);
  const n = queries * perQuery;
  const qid = new Int32Array(n);
  const score = new Float64Array(n);
  const rel = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    qid[i] = Math.floor(i / perQuery);
    const label = Math.min(4, Math.floor(-Math.log(1 - next()) * 0.8));
    rel[i] = label;
    score[i] = Math.round((label * 0.5 + next() * 2) * 1000) / 1000;
  }
  return { qid, score, rel };
}
