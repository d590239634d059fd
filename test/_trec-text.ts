// Judgments and runs as `{ qid: { docid: value } }`, written as TREC text (a run's rank is its order).
export type IdValues = Record<string, Record<string, number>>;

export const qrelsText = (x: IdValues) =>
  Object.entries(x)
    .flatMap(([q, docs]) => Object.entries(docs).map(([d, v]) => `${q} 0 ${d} ${v}\n`))
    .join("");

export const runText = (x: IdValues) =>
  Object.entries(x)
    .flatMap(([q, docs]) => Object.entries(docs).map(([d, v], i) => `${q} Q0 ${d} ${i + 1} ${v} r\n`))
    .join("");
