// The bundled example run by `npm start`: a small learning-to-rank evaluation, twice, to show that
// the conventions (here the gain) change the numbers, and that every report says which it used.
import { evaluate, formatTable } from "rankeval";

// 8 queries from a made-up product search: labels 0 (bad) to 3 (perfect), scores from a model.
const data = `
q1 3 2.1  q1 2 1.7  q1 0 1.6  q1 1 0.9  q1 0 0.4  q1 2 0.3
q2 0 1.9  q2 1 1.2  q2 3 1.1  q2 0 0.2
q3 1 0.8  q3 0 0.8  q3 0 0.5  q3 1 0.1
q4 2 3.0  q4 2 2.4  q4 1 2.2  q4 0 1.0  q4 0 0.9  q4 1 0.1  q4 0 0.0
q5 0 0.7  q5 0 0.6  q5 0 0.1
q6 1 1.5  q6 3 1.4  q6 0 1.3  q6 2 0.9  q6 0 0.3
q7 0 2.2  q7 0 2.0  q7 1 1.8  q7 0 1.1  q7 2 0.4
q8 3 0.9  q8 0 0.8  q8 2 0.7  q8 1 0.6  q8 1 0.5  q8 0 0.4`;
const words = data.trim().split(/\s+/);
const rows = { qid: [], rel: [], score: [] };
for (let i = 0; i < words.length; i += 3) {
  rows.qid.push(words[i]);
  rows.rel.push(Number(words[i + 1]));
  rows.score.push(Number(words[i + 2]));
}

const measures = ["ndcg@3,5", "ndcg", "map", "mrr", "precision@3", "recall@3", "err@5", "kendall_tau"];
console.log("LTR convention (gain 2^label - 1):\n");
console.log(formatTable(evaluate(rows, measures, { gain: "exp" })));
console.log("\ntrec_eval convention (gain = label); q5 has no relevant document, so skipping it changes the mean:\n");
console.log(formatTable(evaluate(rows, measures, { gain: "linear", noRelevant: "skip" })));
