// A run written as TREC text (`qid Q0 docid rank score tag`): the command line's and the page's fused runs.
import { compareBytes, sortQids } from "../c/strings.js";
import type { ScoredRun } from "../fusion/run.js";

/** Lines written at once: about a megabyte of text. */
const LINES_A_WRITE = 20_000;

/**
 * `run` as TREC text (`qid Q0 docid rank score tag`): queries in trec_eval's order (byte order of their
 * ids), each query's documents by descending score, ties by document id descending (trec_eval's
 * order: the ranks written are those it and rankeval evaluate), ranks from 1; scores as JavaScript
 * writes numbers (the shortest text that reads back as the same number).
 */
export function writeRun(run: ScoredRun, tag: string, write: (text: string) => void): void {
  let lines: string[] = [];
  for (const qid of sortQids(Object.keys(run))) {
    const docs = run[qid];
    const ids = Object.keys(docs);
    ids.sort((a, b) => docs[b] - docs[a] || byIdDescending(a, b));
    for (let i = 0; i < ids.length; i++) {
      lines.push(`${qid} Q0 ${ids[i]} ${i + 1} ${docs[ids[i]]} ${tag}\n`);
      if (lines.length === LINES_A_WRITE) {
        write(lines.join(""));
        lines = [];
      }
    }
  }
  if (lines.length) write(lines.join(""));
}

/** Document ids descending in byte order (strcmp's, as trec_eval breaks ties). */
function byIdDescending(a: string, b: string): number {
  return compareBytes(b, a);
}
