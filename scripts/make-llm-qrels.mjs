// Writes examples/llm-qrels.txt: a second set of judgments of the bundled TREC example, as a language
// model might give them (issue 38's `rankeval --agreement examples/qrels.txt examples/llm-qrels.txt`).
// Made up, and seeded (the file is reproducible): each judgment of examples/qrels.txt as a decimal label
// from 0 to 3 near the assessor's (noise of sd about 0.6, one decimal), one in ten left out, and the
// holes filled: the documents examples/bm25.run and examples/rerank.run rank in their top 20 that
// examples/qrels.txt does not judge, labelled near 0. node scripts/make-llm-qrels.mjs
import { readFileSync, writeFileSync } from "node:fs";

const examples = new URL("../examples/", import.meta.url);
let seed = 38;
const next = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
/** About normal, mean 0, sd `sd` (a sum of four uniforms). */
const noise = (sd) => (next() + next() + next() + next() - 2) * sd * Math.sqrt(3);
const label = (x) => Math.min(3, Math.max(0, Math.round(x * 10) / 10)).toFixed(1);

const lines = (name) =>
  readFileSync(new URL(name, examples), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => l.trim().split(/\s+/));

const judged = new Map(); // qid -> docid -> label
for (const [qid, , docid, rel] of lines("qrels.txt")) {
  if (!judged.has(qid)) judged.set(qid, new Map());
  judged.get(qid).set(docid, Number(rel));
}
const holes = new Map(); // qid -> docids ranked in a top 20 but not judged, first seen first
for (const run of ["bm25.run", "rerank.run"])
  for (const [qid, , docid, rank] of lines(run)) {
    if (Number(rank) > 20 || judged.get(qid)?.has(docid)) continue;
    if (!holes.has(qid)) holes.set(qid, new Set());
    holes.get(qid).add(docid);
  }

const out = [];
for (const [qid, docs] of judged) {
  for (const [docid, rel] of docs) {
    const kept = next() >= 0.1;
    const x = rel + noise(0.6);
    if (kept) out.push(`${qid} 0 ${docid} ${label(x)}`);
  }
  for (const docid of holes.get(qid) ?? []) out.push(`${qid} 0 ${docid} ${label(Math.abs(noise(0.6)))}`);
}
writeFileSync(new URL("llm-qrels.txt", examples), `${out.join("\n")}\n`);
