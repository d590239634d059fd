/**
 * A run joined to its judgments block by block as it streams in, so that memory holds the judgments
 * and one block of run rows, not the whole run: how the web page reads runs of several GB.
 *
 * The parser hands over its complete queries every `blockRows` rows (RunParser.takeQueries) and each
 * block is joined (src/trec-join.ts) and passed to `onBlock`, which evaluates it and may drop it. That
 * needs each query's rows together in the file, as every ranker writes them; a query that comes back
 * after another began throws NotGroupedError, and the caller reads the file whole instead (trec_eval
 * accepts any order).
 *
 * Browser compatible.
 */
import { InputError } from "./errors.js";
import type { Interner } from "./io/interner.js";
import { RunParser, type RunRows } from "./io/run.js";
import { lineOfRow } from "./io/rows.js";
import { compareBytes } from "./trec/format.js";
import { mergeBlocks, type Evaluated } from "./trec/plan.js";
import { joinParsed, type GroupedJudgments, type JoinedRun } from "./trec-join.js";

/** A query's rows are not together in the run: it must be read whole. */
export class NotGroupedError extends InputError {}

/** What the blocks add up to, once the run is read. */
export interface RunSummary {
  runTag: string;
  /** Run queries without any judgment (ignored). */
  notJudged: number;
  /** Judged queries absent from the run, in strcmp order. */
  notInRunQids: string[];
}

export class RunBlocks {
  private readonly parser: RunParser<"per-row">;
  private readonly qidNames: Interner;
  /** seen[q] = 1 once query q's rows were handed over. */
  private seen = new Uint8Array(1024);
  private notJudged = 0;

  constructor(
    private readonly judgments: GroupedJudgments,
    private readonly file: string,
    private readonly onBlock: (joined: JoinedRun) => void,
    private readonly blockRows = 1 << 20,
  ) {
    this.qidNames = judgments.qrels.qidNames;
    this.parser = new RunParser({ file, qids: this.qidNames, docids: "per-row" });
  }

  get linesRead(): number {
    return this.parser.linesRead;
  }

  push(chunk: Uint8Array): void {
    this.parser.push(chunk);
    const rows = this.parser.takeQueries(this.blockRows);
    if (rows) this.add(rows);
  }

  finish(): RunSummary {
    const last = this.parser.finish();
    this.add(last);
    const absent: string[] = [];
    const { begin, end } = this.judgments.groups;
    for (let q = 0; q < begin.length; q++) if (end[q] > begin[q] && !(q < this.seen.length && this.seen[q])) absent.push(this.qidNames.stringOf(q));
    absent.sort(compareBytes);
    return { runTag: last.runTag, notJudged: this.notJudged, notInRunQids: absent };
  }

  private add(rows: RunRows): void {
    // A query seen in an earlier block (or earlier in this one, after another query) comes back.
    if (this.seen.length < this.qidNames.size) {
      const grown = new Uint8Array(Math.max(this.qidNames.size, 2 * this.seen.length));
      grown.set(this.seen);
      this.seen = grown;
    }
    const qid = rows.qid;
    let prev = -1;
    for (let i = 0; i < rows.length; i++) {
      const q = qid[i];
      if (q === prev) continue;
      if (this.seen[q]) {
        const name = JSON.stringify(this.qidNames.stringOf(q));
        throw new NotGroupedError(this.file, lineOfRow(rows.lines, i), 0, `query ${name} comes back after other queries (the run is not grouped by query)`);
      }
      this.seen[q] = 1;
      prev = q;
    }
    const joined = joinParsed(this.judgments, rows, { block: true });
    this.notJudged += joined.notJudged;
    this.onBlock(joined);
  }
}

/** How evaluateRunFile reads a run. */
export interface RunSource {
  /** The run's name in messages. */
  file: string;
  /** Streams the run's bytes into `sink`; null when the run cannot stream in blocks (read it whole). */
  stream: ((sink: RunBlocks) => Promise<void>) | null;
  /** Reads the run (again) whole into a parser's rows. */
  whole: () => Promise<RunRows>;
  /** trec_eval -c, which needs the whole run. @default false */
  complete?: boolean;
  /** Called when a streamed run turned out not grouped by query, before it is read again whole. */
  restart?: () => void;
}

/**
 * A run joined to its judgments and evaluated: block by block as it streams when it can, whole
 * otherwise or when its queries turn out scattered. `evaluate` gets each joined block (one, when whole).
 * The one way the command line and the page read a run.
 */
export async function evaluateRunFile(
  judgments: GroupedJudgments, source: RunSource, evaluate: (joined: JoinedRun) => Evaluated, blockRows?: number,
): Promise<{ evaluated: Evaluated; runTag: string; notInRunQids: string[] }> {
  if (source.stream && !source.complete) {
    const parts: Evaluated[] = [];
    try {
      const reader = new RunBlocks(judgments, source.file, (joined) => parts.push(evaluate(joined)), blockRows);
      await source.stream(reader);
      const s = reader.finish();
      return { evaluated: mergeBlocks(parts, s.notJudged, s.notInRunQids.length), runTag: s.runTag, notInRunQids: s.notInRunQids };
    } catch (e) {
      if (!(e instanceof NotGroupedError)) throw e;
    }
    source.restart?.();
  }
  const joined = joinParsed(judgments, await source.whole(), { complete: source.complete });
  return { evaluated: mergeBlocks([evaluate(joined)], joined.notJudged, joined.notInRun), runTag: joined.runTag, notInRunQids: joined.notInRunQids };
}
