// A run written as TREC text (`qid Q0 docid rank score tag`): the command line's and the page's fused runs.
import { compareBytes, sortQids } from "../c/strings.js";
import type { ScoredRun } from "../fusion/run-shapes.js";

/** Text written at once: about a megabyte. */
const CHARS_A_WRITE = 1 << 20;

/**
 * A run as TREC text (`qid Q0 docid rank score tag`), query by query: each query's documents by
 * descending score, ties by document id descending (trec_eval's order: the ranks written are those it
 * and rankeval evaluate), ranks from 1; scores as JavaScript writes numbers (the shortest text that
 * reads back as the same number). The caller gives the queries in their order.
 */
export class RunTextWriter {
  /** The lines not yet written (appended: V8 joins them once, when written). */
  private text = "";

  constructor(
    private readonly tag: string,
    private readonly write: (text: string) => void,
  ) {}

  /** One query: `docs[i]` scored `scores[i]`. */
  query(qid: string, docs: readonly string[], scores: ArrayLike<number>): void {
    const order = Array.from({ length: docs.length }, (_, i) => i);
    order.sort((a, b) => scores[b] - scores[a] || compareBytes(docs[b], docs[a]));
    const tail = ` ${this.tag}\n`;
    for (let i = 0; i < order.length; i++)
      this.text += `${qid} Q0 ${docs[order[i]]} ${i + 1} ${scores[order[i]]}${tail}`;
    if (this.text.length >= CHARS_A_WRITE) this.end();
  }

  /** Writes what is left. */
  end(): void {
    if (this.text.length) this.write(this.text);
    this.text = "";
  }
}

/** `run` as TREC text (RunTextWriter), its queries in trec_eval's order (byte order of their ids). */
export function writeRun(run: ScoredRun, tag: string, write: (text: string) => void): void {
  const w = new RunTextWriter(tag, write);
  for (const qid of sortQids(Object.keys(run))) {
    const docs = run[qid];
    const ids = Object.keys(docs);
    w.query(
      qid,
      ids,
      ids.map((d) => docs[d]),
    );
  }
  w.end();
}
