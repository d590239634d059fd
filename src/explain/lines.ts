// A TREC run's lines of a few queries, kept as the file streams by, for drill-downs. The lines kept go
// through the run's own parser, so they read exactly as the evaluation read them.
import { Interner } from "../io/interner.js";
import { docidString } from "../io/rows.js";
import { RunParser } from "../io/run.js";
import type { RunRows } from "./query.js";

const [LF, CR, SPACE, TAB, HASH] = [10, 13, 32, 9, 35];
const utf8 = new TextDecoder("utf-8");

/** A sink for a TREC run's bytes (push each chunk, then finish) that keeps the lines of `qids`. */
export class QueryLines {
  private readonly wanted: Set<string>;
  private readonly kept: Uint8Array[] = [];
  private keptBytes = 0;
  /** A line a chunk ended inside. */
  private carry: Uint8Array | null = null;
  private first = true;
  private lastQid: Uint8Array = new Uint8Array(0);
  private lastWanted = false;

  constructor(qids: Iterable<string>) {
    this.wanted = new Set(qids);
  }

  push(chunk: Uint8Array): void {
    let buf = chunk;
    if (this.carry) {
      buf = new Uint8Array(this.carry.length + chunk.length);
      buf.set(this.carry);
      buf.set(chunk, this.carry.length);
      this.carry = null;
    }
    let p = 0;
    if (this.first && buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) p = 3;
    if (buf.length) this.first = false;
    while (p < buf.length) {
      const end = buf.indexOf(LF, p);
      if (end < 0) {
        this.carry = buf.slice(p);
        return;
      }
      this.line(buf, p, end + 1);
      p = end + 1;
    }
  }

  private line(buf: Uint8Array, from: number, to: number): void {
    let s = from;
    while (s < to && (buf[s] === SPACE || buf[s] === TAB)) s++;
    if (s === to || buf[s] === LF || buf[s] === CR || buf[s] === HASH) return; // blank, or a comment
    let e = s;
    while (e < to && buf[e] !== SPACE && buf[e] !== TAB && buf[e] !== LF && buf[e] !== CR) e++;
    const last = this.lastQid;
    let same = e - s === last.length;
    for (let i = 0; same && i < last.length; i++) same = buf[s + i] === last[i];
    if (!same) {
      this.lastQid = buf.slice(s, e);
      this.lastWanted = this.wanted.has(utf8.decode(this.lastQid));
    }
    if (!this.lastWanted) return;
    const line = buf.slice(from, to);
    this.kept.push(line);
    this.keptBytes += line.length;
  }

  /** Each wanted query's rows, in the run's order; a query without a line is absent. */
  finish(file: string): Map<string, RunRows> {
    if (this.carry) {
      const line = new Uint8Array(this.carry.length + 1);
      line.set(this.carry);
      line[this.carry.length] = LF;
      this.carry = null;
      this.line(line, 0, line.length);
    }
    const parser = new RunParser({ file, qids: new Interner(), docids: "per-row", expectedBytes: this.keptBytes });
    for (const line of this.kept) parser.push(line);
    const run = parser.finish();
    const out = new Map<string, { docids: string[]; scores: number[] }>();
    for (let i = 0; i < run.length; i++) {
      const qid = run.qidNames.stringOf(run.qid[i]);
      let rows = out.get(qid);
      if (!rows) out.set(qid, (rows = { docids: [], scores: [] }));
      rows.docids.push(docidString(run.docids, i));
      rows.scores.push(run.score[i]);
    }
    return out;
  }
}
