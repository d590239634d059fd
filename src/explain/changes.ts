// The queries that lost and gained most from a baseline to a run, and those a report explains.
import { compareBytes } from "../c/strings.js";

export interface QueryValues {
  readonly qids: readonly string[];
  readonly values: ArrayLike<number>;
}

export interface Change {
  readonly qid: string;
  readonly baseline: number;
  readonly run: number;
  readonly difference: number;
}

/** The `limit` queries that lost and that gained most (NaN left out), largest first, ties in byte order of qid. */
export function changes(baseline: QueryValues, run: QueryValues, limit = 10): { lost: Change[]; gained: Change[] } {
  const all = paired(baseline, run);
  const byQid = (a: Change, b: Change) => compareBytes(a.qid, b.qid);
  const lost = all
    .filter((c) => c.difference < 0)
    .sort((a, b) => a.difference - b.difference || byQid(a, b))
    .slice(0, limit);
  const gained = all
    .filter((c) => c.difference > 0)
    .sort((a, b) => b.difference - a.difference || byQid(a, b))
    .slice(0, limit);
  return { lost, gained };
}

function paired(baseline: QueryValues, run: QueryValues): Change[] {
  const at = new Map<string, number>();
  baseline.qids.forEach((q, i) => at.set(q, i));
  const out: Change[] = [];
  for (let j = 0; j < run.qids.length; j++) {
    const i = at.get(run.qids[j]);
    if (i === undefined) continue;
    const a = baseline.values[i];
    const b = run.values[j];
    if (Number.isNaN(a) || Number.isNaN(b)) continue;
    out.push({ qid: run.qids[j], baseline: a, run: b, difference: b - a });
  }
  return out;
}

/** The `n` queries that changed most, in turn from each run's losses and gains; with one run, its `n` lowest. */
export function changedMost(runs: readonly QueryValues[], baseline: number, n: number): string[] {
  if (n <= 0 || runs.length === 0) return [];
  if (runs.length === 1) {
    const r = runs[0];
    const order = r.qids.map((q, i) => ({ q, v: r.values[i] })).filter((x) => !Number.isNaN(x.v));
    order.sort((a, b) => a.v - b.v || compareBytes(a.q, b.q));
    return order.slice(0, n).map((x) => x.q);
  }
  const lists: Change[][] = [];
  runs.forEach((r, i) => {
    if (i === baseline) return;
    const { lost, gained } = changes(runs[baseline], r, Infinity);
    lists.push(lost, gained);
  });
  const chosen = new Set<string>();
  const next = lists.map(() => 0);
  for (let more = true; more && chosen.size < n; ) {
    more = false;
    for (let l = 0; l < lists.length && chosen.size < n; l++) {
      while (next[l] < lists[l].length && chosen.has(lists[l][next[l]].qid)) next[l]++;
      if (next[l] < lists[l].length) {
        chosen.add(lists[l][next[l]++].qid);
        more = true;
      }
    }
  }
  return [...chosen];
}
