// The faces test's input sets: a seeded collection of judgments and one or two runs, with what makes
// faces part ways (graded and fractional labels, tied scores, queries without a relevant document,
// judged queries the run lacks, run queries without judgments), at a chosen number of run rows.

/** mulberry32: a small seeded stream of uniform numbers in [0, 1). */
export function stream(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export interface Judgment {
  readonly qid: string;
  readonly docid: string;
  /** The label as written in every format (a decimal that reads as the same double everywhere). */
  readonly label: string;
}

export interface Ranked {
  readonly qid: string;
  readonly docid: string;
  /** The score as written (a short decimal: the same double in C's atof, JS and Parquet's DOUBLE). */
  readonly score: string;
  /** 1, 2, 3 per query in trec_eval's order (score descending, ties by document id descending): MS MARCO's ranks. */
  readonly rank: number;
}

export interface RunSet {
  /** The run's file name without its extension. */
  readonly name: string;
  readonly tag: string;
  readonly rows: readonly Ranked[];
}

export interface InputSet {
  /** Says what the set is for and how it was drawn (seed, rows). */
  readonly name: string;
  readonly qrels: readonly Judgment[];
  readonly runs: readonly RunSet[];
}

export interface SetShape {
  readonly seed: number;
  /** Run rows wanted (each run), about. */
  readonly rows: number;
  /** Labels 0.5, 1.5, 2.5 among the graded ones (trec_eval reads them as 0, 1, 2). */
  readonly fractional: boolean;
  /** Two runs (for the comparisons) rather than one. */
  readonly twoRuns?: boolean;
  /** Documents per run query, about (default 40). */
  readonly depth?: number;
}

/** trec_eval's order of a query's documents: score descending, then document id descending (strcmp). */
export function trecOrder(a: { docid: string; score: string }, b: { docid: string; score: string }): number {
  const d = Number(b.score) - Number(a.score);
  if (d !== 0) return d;
  return a.docid < b.docid ? 1 : a.docid > b.docid ? -1 : 0;
}

export function generate(shape: SetShape): InputSet {
  const random = stream(shape.seed);
  const int = (n: number) => Math.floor(random() * n);
  const depth = shape.depth ?? 40;
  const queries = Math.max(4, Math.round(shape.rows / depth));
  const qrels: Judgment[] = [];
  const runQueries: { qid: string; docs: string[] }[] = [];
  const labels = shape.fractional ? ["0", "1", "2", "3", "0.5", "1.5", "2.5"] : ["0", "1", "2", "3"];
  // Query ids of different lengths, so that their byte order is not their numeric order.
  const qidOf = (q: number) => String(100 + q * 7 + int(7));
  let made = 0;
  for (let q = 0; q < queries; q++) {
    const qid = qidOf(q);
    // Some queries' depth is drawn far from the mean: short rankings and long ones (past a cutoff of 100).
    const n = Math.max(1, Math.min(shape.rows - made, q === queries - 1 ? shape.rows - made : 1 + int(2 * depth - 1)));
    const kind = random();
    const docs = Array.from({ length: n }, (_, i) => `D${(q * 131 + i * 17) % 5000}-${i}`);
    made += n;
    // 1 in 10: a run query without judgments; 1 in 10: judged, none relevant; the others judged with some relevant.
    if (kind >= 0.1) {
      for (const d of docs) {
        if (random() < 0.5) {
          const none = kind < 0.2;
          qrels.push({ qid, docid: d, label: none ? "0" : labels[int(labels.length)] });
        }
      }
      // Judged documents no run retrieves (they count in recall and the ideal ranking).
      for (let j = 0; j < 1 + int(3); j++)
        qrels.push({ qid, docid: `U${q}-${j}`, label: kind < 0.2 ? "0" : labels[1 + int(labels.length - 1)] });
    }
    runQueries.push({ qid, docs });
    if (made >= shape.rows) break;
  }
  // Judged queries the runs lack (a tenth, at least one).
  for (let j = 0; j < Math.max(1, Math.round(queries / 10)); j++) {
    const qid = `9${j}${int(10)}`;
    qrels.push({ qid, docid: `M${j}`, label: "1" }, { qid, docid: `N${j}`, label: "0" });
  }
  const runs: RunSet[] = [];
  for (let r = 0; r < (shape.twoRuns ? 2 : 1); r++) {
    const rows: Ranked[] = [];
    for (const { qid, docs } of runQueries) {
      // Scores from a few values: many ties, broken by document id as trec_eval breaks them.
      const scored = docs.map((docid) => ({ qid, docid, score: String(int(12) / 4 - 1) }));
      scored.sort(trecOrder);
      scored.forEach((s, i) => rows.push({ ...s, rank: i + 1 }));
    }
    runs.push({ name: `run${r === 0 ? "A" : "B"}`, tag: `tag${r === 0 ? "A" : "B"}`, rows });
  }
  return {
    name: `seed ${shape.seed}, ${shape.rows} rows${shape.fractional ? ", fractional labels" : ""}`,
    qrels,
    runs,
  };
}

/**
 * A set whose recip_rank means are 9/32 = 0.28125 and 5/32 = 0.15625, exactly halfway between two
 * four-decimal values: trec_eval's %.4f of the exact double prints 0.2812 and 0.1562 (round half to
 * even of the binary value, which is exact here), where JS's toFixed(4) prints 0.2813 and 0.1563.
 */
export function halfwayMeans(): InputSet {
  // Eight queries; run A's first relevant document at ranks 1, 2, 2, 4, none x4 (1 + 1/2 + 1/2 + 1/4 = 2.25);
  // run B's at 2, 2, 8, 8, none x4 (1/2 + 1/2 + 1/8 + 1/8 = 1.25 → 0.15625).
  const firstRelevant = { A: [1, 2, 2, 4, 0, 0, 0, 0], B: [2, 2, 8, 8, 0, 0, 0, 0] };
  const qrels: Judgment[] = [];
  const runs: RunSet[] = [];
  for (let q = 0; q < 8; q++) qrels.push({ qid: `h${q}`, docid: "rel", label: "1" });
  for (const name of ["A", "B"] as const) {
    const rows: Ranked[] = [];
    for (let q = 0; q < 8; q++) {
      const at = firstRelevant[name][q];
      for (let rank = 1; rank <= 8; rank++) {
        const docid = rank === at ? "rel" : `x${rank}`;
        rows.push({ qid: `h${q}`, docid, score: String(9 - rank), rank });
      }
    }
    runs.push({ name: `half${name}`, tag: `half${name}`, rows });
  }
  return { name: "halfway means (0.28125, 0.15625)", qrels, runs };
}
