// Two runs whose P.8 means are exact ties at the fifth decimal: C's printf, and so every output of
// rankeval, sends them to the even digit, where toFixed rounds them away from zero.
//   a: 3, 2, 2, 2 of its top 8 relevant: mean 9/32 = 0.28125, printed 0.2812 (toFixed: 0.2813)
//   b: 3, 0, 1, 1 of its top 8 relevant: mean 5/32 = 0.15625, printed 0.1562 (toFixed: 0.1563)
// The differences (0, 2/8, 1/8, 1/8) vary, so the t test's interval and effect size are numbers.

const RELEVANT = { q1: 3, q2: 2, q3: 2, q4: 2 } as const;
const DOCS = ["d01", "d02", "d03", "d04", "d05", "d06", "d07", "d08", "d09", "d10"];

/** Each query's documents d01..d10, the first RELEVANT[q] of them relevant. */
export const TIES_QRELS = Object.entries(RELEVANT)
  .flatMap(([q, r]) => DOCS.map((d, i) => `${q} 0 ${d} ${i < r ? 1 : 0}\n`))
  .join("");

const run = (tag: string, order: Record<string, readonly string[]>) =>
  Object.entries(order)
    .flatMap(([q, docs]) => docs.map((d, i) => `${q} Q0 ${d} ${i + 1} ${docs.length - i} ${tag}\n`))
    .join("");

/** The documents in order: every relevant one in the top 8. */
export const TIES_RUN_A = run("a", { q1: DOCS, q2: DOCS, q3: DOCS, q4: DOCS });

/** q1 as a; q2's relevant documents at 9 and 10; q3 and q4 with d02 at 9. */
const lastTwo = [...DOCS.slice(2), "d01", "d02"];
const secondAtNine = ["d01", ...DOCS.slice(2, 9), "d02", "d10"];
export const TIES_RUN_B = run("b", { q1: DOCS, q2: lastTwo, q3: secondAtNine, q4: secondAtNine });
