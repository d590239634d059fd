// Seeded random subtopic qrels, runs and ndeval options, for the comparisons of `rankeval --format
// ndeval` with TREC's ndeval: test/ndeval-diff.test.ts (ndeval run live) and scripts/ndeval-fixtures.mjs
// (ndeval's outputs kept in test/fixtures/ndeval/, checked by test/ndeval-fixtures.test.ts).
import { Random } from "../trec-eval-diff/generate.js";

export interface Case {
  readonly qrels: string;
  readonly run: string;
  readonly options: readonly string[];
}

/**
 * Topics (natural numbers, as ndeval reads them), a few subtopics each, documents judged for every
 * subtopic or some (0, 1 or 2: ndeval reads > 1 as 1), topics on one side only, topics whose every
 * judgment is 0 (nNRBP's 0/0), scores with ties, -c and -M.
 */
export function generate(seed: number): Case {
  const r = new Random(seed);
  const topics = r.sample(
    Array.from({ length: 40 }, (_, i) => String(i + 1)),
    r.range(1, 5),
  );
  const pool = [
    ...Array.from({ length: 10 }, (_, i) => `d${i + 1}`),
    ...["D0-9", "D0-10", "a", "b", "z", "x1", "x2", "x3"],
  ];
  const qrels: string[] = [];
  const run: string[] = [];
  topics.forEach((t, n) => {
    const side =
      n === 0
        ? "both"
        : r.weighted([
            [75, "both"],
            [12, "qrels"],
            [13, "run"],
          ] as const);
    const docs = r.sample(pool, r.range(2, 14));
    if (side !== "run") {
      const subtopics = r.sample(["1", "2", "3", "4", "5", "6"], r.range(1, 4));
      const zero = r.chance(0.08);
      for (const d of r.sample(docs, r.range(1, docs.length))) {
        for (const s of subtopics) {
          if (r.chance(0.15)) continue; // not judged for this subtopic
          qrels.push(`${t} ${s} ${d} ${zero ? 0 : r.pick(["0", "0", "1", "1", "2"])}`);
        }
      }
      if (!qrels.some((l) => l.startsWith(`${t} `))) qrels.push(`${t} 1 ${docs[0]} 0`);
    }
    if (side !== "qrels") {
      const ranked = r.sample(
        [...docs, ...r.sample(pool, 3)].filter((d, i, a) => a.indexOf(d) === i),
        r.range(1, 16),
      );
      const values = r.chance(0.5)
        ? ["1", "2", "0.5"]
        : ["1", "2", "3", "0.5", "0.25", "4", "5", "0.1", "7", "8", "9", "10"];
      ranked.forEach((d, i) => run.push(`${t} Q0 ${d} ${i + 1} ${r.pick(values)} tag`));
    }
  });
  if (r.chance(0.3)) {
    // qrels in another order: ndeval sorts them
    for (let i = qrels.length - 1; i > 0; i--) {
      const j = r.int(i + 1);
      [qrels[i], qrels[j]] = [qrels[j], qrels[i]];
    }
  }
  const options: string[] = [];
  if (r.chance(0.3)) options.push("-c");
  if (r.chance(0.2)) options.push("-M", String(r.range(1, 6)));
  return { qrels: `${qrels.join("\n")}\n`, run: `${run.join("\n")}\n`, options };
}

/**
 * Hand-made cases the fixtures always hold: the ideal ranking's greedy choice among tied documents
 * (ndeval takes the greatest document id; another tie-break changes the ideal gains after it).
 */
export const HAND_CASES: readonly (Case & { readonly name: string })[] = [
  {
    name: "greedy ideal: a three-way tie",
    // Subtopics 1: d3, d1; 2: d3; 3: d2, d1; 4: d2: the ideal takes d3, d2, d1 (gains 2, 2, 1).
    qrels: "1 1 d3 1\n1 1 d1 1\n1 2 d3 1\n1 3 d2 1\n1 3 d1 1\n1 4 d2 1\n",
    run: "1 Q0 d1 1 3 tie\n1 Q0 d2 2 2 tie\n1 Q0 d3 3 1 tie\n",
    options: [],
  },
  {
    name: "greedy ideal: ties, two topics, one not in the run, -c",
    qrels: "2 1 a 1\n2 2 a 1\n2 2 b 1\n2 3 b 1\n2 3 c 1\n2 1 c 1\n2 4 d 1\n2 4 e 1\n2 1 e 0\n3 1 x 1\n",
    run: "2 Q0 e 1 5 tie\n2 Q0 d 2 4 tie\n2 Q0 c 3 3 tie\n2 Q0 b 4 2 tie\n2 Q0 a 5 1 tie\n",
    options: ["-c"],
  },
];
