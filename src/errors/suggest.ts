/**
 * Optimal string alignment distance (insert, delete, substitute, adjacent swap: 1; a change of case: 1/2,
 * so `NDCG` is nearer `nDCG` than `ndgc`). Past `max`: Infinity, found early (a far name costs a few rows).
 */
export function editDistance(a: string, b: string, max = Infinity) {
  const n = a.length;
  const m = b.length;
  // Three rows of d[i][j] = distance(a[0..i), b[0..j)) suffice for the swap.
  let before = new Float64Array(m + 1);
  let previous = Float64Array.from({ length: m + 1 }, (_, j) => j);
  let current = new Float64Array(m + 1);
  let previousLeast = 0;
  for (let i = 1; i <= n; i++) {
    current[0] = i;
    let least = i;
    for (let j = 1; j <= m; j++) {
      const x = a[i - 1];
      const y = b[j - 1];
      const substitution = x === y ? 0 : x.toLowerCase() === y.toLowerCase() ? 0.5 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + substitution);
      if (i > 1 && j > 1 && x === b[j - 2] && a[i - 2] === y) d = Math.min(d, before[j - 2] + 1);
      current[j] = d;
      if (d < least) least = d;
    }
    // Two rows past max leave every later one past it.
    if (least > max && previousLeast > max) return Infinity;
    previousLeast = least;
    [before, previous, current] = [previous, current, before];
  }
  return previous[m];
}

/**
 * Up to `limit` names of `known` nearest to `word` (ties in `known` order), within a third of the longer
 * length; a name whose length alone is further is skipped unread (a megabyte-long word costs nothing).
 */
export function nearest(word: string, known: Iterable<string>, limit = 3) {
  const scored: { name: string; d: number; i: number }[] = [];
  let i = 0;
  const seen = new Set<string>();
  for (const name of known) {
    if (seen.has(name) || name === word) continue;
    seen.add(name);
    const within = Math.max(1, Math.floor(Math.max(word.length, name.length) / 3));
    if (Math.abs(word.length - name.length) > within) continue;
    const d = editDistance(word, name, within);
    if (d <= within) scored.push({ name, d, i: i++ });
  }
  scored.sort((x, y) => x.d - y.d || x.i - y.i);
  return scored.slice(0, limit).map((s) => s.name);
}

/** ` (did you mean a, b or c?)`, or "". */
export function didYouMean(word: string, known: Iterable<string>, show = (n: string) => n) {
  const near = nearest(word, known).map(show);
  return near.length ? ` (did you mean ${orList(near)}?)` : "";
}

/** `a, b or c`. */
export function orList(items: readonly string[]) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
