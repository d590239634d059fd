// Writes the bundled TREC example (examples/qrels.txt, bm25.run, rerank.run): 20 made-up queries of
// 30 documents, graded labels 0-3, and two runs, the second a better ranker. Seeded: the files are
// reproducible. node examples/make-trec-example.mjs
import { writeFileSync } from "node:fs";

let seed = 7;
const next = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const qrels = [];
const bm25 = [];
const rerank = [];
for (let q = 1; q <= 20; q++) {
  const docs = [];
  for (let d = 1; d <= 30; d++) {
    const label = Math.max(0, Math.floor(next() * 7) - 3);
    docs.push({ id: `doc-${q}-${d}`, label, bm25: label * 0.3 + next() * 2.5, rerank: label * 0.8 + next() * 2.5 });
    if (d <= 24 || label > 0) qrels.push(`q${q} 0 doc-${q}-${d} ${label}`);
  }
  for (const [name, out] of [
    ["bm25", bm25],
    ["rerank", rerank],
  ]) {
    docs
      .slice()
      .sort((a, b) => b[name] - a[name])
      .forEach((doc, i) => out.push(`q${q} Q0 ${doc.id} ${i + 1} ${doc[name].toFixed(3)} ${name}`));
  }
}
const dir = new URL(".", import.meta.url);
writeFileSync(new URL("qrels.txt", dir), `${qrels.join("\n")}\n`);
writeFileSync(new URL("bm25.run", dir), `${bm25.join("\n")}\n`);
writeFileSync(new URL("rerank.run", dir), `${rerank.join("\n")}\n`);
