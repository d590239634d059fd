// rankeval/node: the bundled TREC example (20 queries, two runs) evaluated from its files, as the
// command line reads them, then the judgments read into a { qid: { docid: label } } object.
// node examples/evaluate-files.mjs   (from the repository, or from node_modules/rankeval)
import { fileURLToPath } from "node:url";
import { formatTable } from "rankeval";
import { evaluateFiles, readQrels } from "rankeval/node";

const here = (name) => fileURLToPath(new URL(name, import.meta.url));
const [bm25, rerank] = await evaluateFiles(
  here("qrels.txt"),
  [here("bm25.run"), here("rerank.run")],
  ["ndcg@10", "map", "mrr", "recall@10"],
);
console.log(
  formatTable([
    { name: "bm25", result: bm25 },
    { name: "rerank", result: rerank },
  ]),
);

const qrels = await readQrels(here("qrels.txt"));
const relevant = Object.values(qrels.q1).filter((label) => label > 0).length;
console.log(`\nq1 has ${Object.keys(qrels.q1).length} judged documents, ${relevant} of them relevant`);
