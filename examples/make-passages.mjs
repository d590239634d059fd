// Writes examples/passages.run from examples/bm25.run: each document ranked as three passages (doc-1-3#0,
// doc-1-3#1, doc-1-3#2, scored around its score), and for the odd queries the query's own id (q1#0) ranked
// first, as BEIR's ArguAna runs rank the query's own argument. For --rollup '#' and --drop-self. Seeded:
// the file is reproducible. node examples/make-passages.mjs
import { readFileSync, writeFileSync } from "node:fs";

let seed = 11;
const next = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const byQuery = new Map();
for (const line of readFileSync(new URL("bm25.run", import.meta.url), "utf8")
  .trim()
  .split("\n")) {
  const [qid, , docid, , score] = line.split(/\s+/);
  if (!byQuery.has(qid)) byQuery.set(qid, []);
  const passages = byQuery.get(qid);
  for (let p = 0; p < 3; p++) passages.push({ id: `${docid}#${p}`, score: Number(score) - next() * 1.5 });
  if (Number(qid.slice(1)) % 2 === 1 && passages.length === 3) passages.push({ id: `${qid}#0`, score: 9 });
}
const lines = [];
for (const [qid, passages] of byQuery) {
  passages.sort((a, b) => b.score - a.score);
  passages.forEach((p, i) => lines.push(`${qid} Q0 ${p.id} ${i + 1} ${p.score.toFixed(3)} passages`));
}
writeFileSync(new URL("passages.run", import.meta.url), `${lines.join("\n")}\n`);
