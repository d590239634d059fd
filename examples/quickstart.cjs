// The library from CommonJS: require("rankeval") loads its CommonJS build.
// node examples/quickstart.cjs   (from the repository, or from node_modules/rankeval)
const { evaluateRun, formatTable } = require("rankeval");

const qrels = { q1: { d1: 2, d2: 0, d3: 1 }, q2: { d4: 1, d5: 1 } };
const run = { q1: { d1: 0.9, d2: 0.8, d3: 0.1 }, q2: { d6: 0.7, d5: 0.6, d4: 0.2 } };
console.log(formatTable(evaluateRun(qrels, run, ["ndcg@3", "map", "mrr"])));
