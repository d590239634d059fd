/**
 * A run joined to its judgments block by block as it streams, so memory holds the judgments and a few
 * blocks, not a run of several GB. RunBlockParser hands over its whole queries every `blockRows` rows
 * (RunParser.takeQueries), maybe in another thread (reader.ts: PortableBlocks); RunBlocks joins each
 * (join-rows.ts) for `onBlock` to evaluate. A query that comes back after another began throws
 * NotGroupedError, and the run is read whole (trec_eval accepts any order).
 */
import { InputError, noQueryInCommon, RankevalError } from "../errors/errors.js";
import type { Interner } from "../io/interner.js";
import { RunParser, type RunRows } from "../io/run.js";
import { grow, lazyQid, lineOfRow, querySpans } from "../io/rows.js";
import { compareBytes } from "../c/strings.js";
import type { Evaluated } from "./evaluate.js";
import { mergeBlocks } from "./merge.js";
import { joinParsed, judgedSample, type GroupedJudgments, type JoinedRun } from "./join-rows.js";

/** Run rows a block, about (a block ends with a query). */
export const BLOCK_ROWS = 1 << 20;

export class NotGroupedError extends InputError {}

export interface RunSummary {
  runTag: string;
  notJudged: number;
  /** Judged queries absent from the run, in strcmp order. */
  notInRunQids: string[];
  rows: number;
  queries: number;
  /** Queries evaluated: the run's queries with judgments. */
  evaluated: number;
  someQids: string[];
}

const SOME = 3;

/** Throws when the judgments have none (an empty, blank or header-only file): every run would evaluate nothing. */
export function checkJudgments(judgments: GroupedJudgments): void {
  if (judgments.qrels.length === 0) {
    throw new RankevalError(
      "bad-input",
      `${judgments.qrels.file}: no judgments in it: the file is empty or holds no rows`,
    );
  }
}

/**
 * Throws when a run evaluates no query: no rows, or none of its queries judged ("q1" against "1"):
 * means over no query say nothing (trec_eval refuses an empty file, and says "No queries with both
 * results and relevance info"). Under -c too: a run sharing no query would score 0 everywhere.
 */
export function checkRunEvaluated(
  file: string,
  judgments: GroupedJudgments,
  run: Pick<RunSummary, "rows" | "queries" | "evaluated" | "someQids">,
): void {
  if (run.rows === 0)
    throw new RankevalError("bad-input", `${file}: no rankings in it: the file is empty or holds no rows`);
  if (run.evaluated > 0) return;
  throw noQueryInCommon({ name: file, queries: run.queries, some: run.someQids }, judgedSample(judgments));
}

/** Joins a run's blocks of whole queries to the judgments as they come, checking none comes back. */
export class RunBlocks {
  private readonly qidNames: Interner;
  /** seen[q] = 1 once query q's rows were handed over. */
  private seen = new Uint8Array(1024);
  private notJudged = 0;
  private rows = 0;
  private queries = 0;
  private evaluated = 0;
  private readonly someQids: string[] = [];
  /** The last block's batch, when onBlock lets go of each. */
  private spare: JoinedRun["batch"] | undefined;

  /** `recycle`: onBlock keeps nothing of a block's batch, so each join reuses the one before's arrays. */
  constructor(
    private readonly judgments: GroupedJudgments,
    private readonly file: string,
    private readonly onBlock: (joined: JoinedRun) => void,
    private readonly recycle = false,
  ) {
    this.qidNames = judgments.qrels.qidNames;
  }

  /** Joins the next rows (whole queries, ids in the judgments' qidNames) and passes them on. */
  add(rows: RunRows): void {
    if (this.seen.length < this.qidNames.size)
      this.seen = grow(this.seen, Math.max(this.qidNames.size, 2 * this.seen.length));
    const { ids, starts } = rows.spans ?? querySpans(rows.qid, rows.length);
    for (let k = 0; k < ids.length; k++) {
      const q = ids[k];
      if (this.seen[q]) {
        const name = JSON.stringify(this.qidNames.stringOf(q));
        throw new NotGroupedError(
          this.file,
          lineOfRow(rows.lines, starts[k]),
          0,
          `query ${name} comes back after other queries (the run is not grouped by query)`,
        );
      }
      this.seen[q] = 1;
      if (this.queries++ < SOME) this.someQids.push(this.qidNames.stringOf(q));
    }
    this.rows += rows.length;
    const joined = joinParsed(this.judgments, rows, { block: true, reuse: this.spare, transient: this.recycle });
    this.notJudged += joined.notJudged;
    this.evaluated += joined.qids.length;
    this.onBlock(joined);
    // A batch in the kernel's memory (join-kernel.ts) is not join-rows.ts's to write over.
    if (this.recycle) this.spare = joined.batch.inPlace ? undefined : joined.batch;
  }

  /** What the blocks added up to; `runTag` is the last line's. */
  finish(runTag: string): RunSummary {
    const absent: string[] = [];
    const { begin, end } = this.judgments.groups;
    for (let q = 0; q < begin.length; q++)
      if (end[q] > begin[q] && !(q < this.seen.length && this.seen[q])) absent.push(this.qidNames.stringOf(q));
    absent.sort(compareBytes);
    return {
      runTag,
      notJudged: this.notJudged,
      notInRunQids: absent,
      rows: this.rows,
      queries: this.queries,
      evaluated: this.evaluated,
      someQids: this.someQids,
    };
  }
}

/** A run parsed as its bytes come, handing its whole queries to `onRows` every `blockRows` rows and the rest at finish(). */
export class RunBlockParser {
  private readonly parser: RunParser<"per-row">;

  /** `spare`: a given-back block's buffer for the next block (or none). */
  constructor(
    file: string,
    qids: Interner,
    private readonly onRows: (rows: RunRows) => void,
    private readonly blockRows = BLOCK_ROWS,
    private readonly spare?: () => ArrayBuffer | undefined,
  ) {
    this.parser = new RunParser({ file, qids, docids: "per-row" });
  }

  get linesRead(): number {
    return this.parser.linesRead;
  }

  push(chunk: Uint8Array): void {
    this.parser.push(chunk);
    const rows = this.parser.takeQueries(this.blockRows, this.spare);
    if (rows) this.onRows(rows);
  }

  finish(): string {
    const last = this.parser.finish();
    // Copies: finish() gives views of the parser's memory, which a block sent to another thread cannot take.
    const { docids, lines } = last;
    this.onRows({
      ...last,
      qid: last.qid.slice(),
      score: last.score.slice(),
      docids: { bytes: docids.bytes.slice(), offsets: docids.offsets.slice(), hashes: docids.hashes.slice() },
      lines: { rows: lines.rows.slice(), shifts: lines.shifts.slice() },
      ...(last.spans ? { spans: { ids: last.spans.ids.slice(), starts: last.spans.starts.slice() } } : {}),
    });
    return last.runTag;
  }
}

/** RunSource.blocks for a run parsed in this thread, its bytes streamed by `read` into the parser. */
export function parsedBlocks(
  file: string,
  read: (sink: RunBlockParser) => Promise<void>,
  blockRows?: number,
): NonNullable<RunSource["blocks"]> {
  return async (qids, add) => {
    const parser = new RunBlockParser(file, qids, add, blockRows);
    await read(parser);
    return parser.finish();
  };
}

/**
 * A block parsed in another worker, as it travels (transferred, not copied): the rows and the bytes of
 * the query ids that worker interned since its previous block, ids `first` to `first + count - 1`.
 */
export interface PortableBlock {
  /** The rows but their query ids, which travel as spans (the receiver's rows.ts lazyQid). */
  rows: Omit<RunRows, "qidNames" | "file" | "qid" | "spans"> & { spans: NonNullable<RunRows["spans"]> };
  newQids: { first: number; bytes: Uint8Array; offsets: Int32Array };
}

/** `rows` to send, with the query ids interned from `first` on. */
export function portableBlock(rows: RunRows, first: number): PortableBlock {
  const { bytes, offsets } = rows.qidNames.pool();
  const base = offsets[first];
  const newOffsets = offsets.slice(first, rows.qidNames.size + 1).map((o) => o - base);
  // Named one by one: reading the qid column would make it from the spans.
  const columns = {
    docids: rows.docids,
    score: rows.score,
    runTag: rows.runTag,
    lines: rows.lines,
    length: rows.length,
    spans: rows.spans ?? querySpans(rows.qid, rows.length),
  };
  return {
    rows: columns,
    newQids: { first, bytes: bytes.slice(base, offsets[rows.qidNames.size]), offsets: newOffsets },
  };
}

export function transferables(b: PortableBlock): ArrayBuffer[] {
  const { rows, newQids } = b;
  const arrays = [
    rows.score,
    rows.docids.bytes,
    rows.docids.offsets,
    rows.docids.hashes,
    rows.lines.rows,
    rows.lines.shifts,
    newQids.bytes,
    newQids.offsets,
    rows.spans.ids,
    rows.spans.starts,
  ];
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}

/** Receives PortableBlocks: their query ids translated into `qids`, in place. */
export class PortableBlocks {
  /** ids[sender's id] = the id in `qids`. */
  private ids = new Int32Array(1024);

  constructor(
    private readonly qids: Interner,
    private readonly file: string,
  ) {}

  rows(b: PortableBlock): RunRows {
    const { first, bytes, offsets } = b.newQids;
    const count = offsets.length - 1;
    if (first + count > this.ids.length) this.ids = grow(this.ids, Math.max(first + count, 2 * this.ids.length));
    for (let k = 0; k < count; k++) this.ids[first + k] = this.qids.intern(bytes, offsets[k], offsets[k + 1]);
    const ids = this.ids;
    const spans = b.rows.spans;
    for (let k = 0; k < spans.ids.length; k++) spans.ids[k] = ids[spans.ids[k]];
    return lazyQid({ ...b.rows, qidNames: this.qids, file: this.file }, spans, b.rows.length);
  }
}

/** The run's first few distinct query ids, in file order. */
function firstQids(run: RunRows): string[] {
  const out: string[] = [];
  let prev = -1;
  for (let i = 0; i < run.length && out.length < SOME; i++) {
    const q = run.qid[i];
    if (q === prev) continue;
    prev = q;
    const name = run.qidNames.stringOf(q);
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** checkRunEvaluated for a run joined whole. */
export function checkJoined(
  file: string,
  judgments: GroupedJudgments,
  run: RunRows,
  joined: JoinedRun,
  complete: boolean,
): void {
  // Under complete the judged queries absent from the run are evaluated too, not in common.
  const evaluated = joined.qids.length - (complete ? joined.notInRun : 0);
  checkRunEvaluated(file, judgments, {
    rows: run.length,
    queries: evaluated + joined.notJudged,
    evaluated,
    someQids: firstQids(run),
  });
}

/** How evaluateRunFile reads a run. */
export interface RunSource {
  file: string;
  /**
   * Reads the run into `add`, whole queries in file order, ids interned in `qids`, and returns its run
   * tag; null when it cannot be read in blocks. Under `early`, `add` may return a promise to wait for.
   */
  blocks: ((qids: Interner, add: (rows: RunRows) => void | Promise<void>) => Promise<string>) | null;
  /** The blocks may come before the judgments are read (a reader in another thread). @default false */
  early?: boolean;
  /** Reads the run (again) whole into a parser's rows. */
  whole: () => Promise<RunRows>;
  /** trec_eval -c, which needs the whole run. @default false */
  complete?: boolean;
  /** With `complete`, absent queries rank trec_eval's placeholder document (JoinOptions.placeholder). @default false */
  placeholder?: boolean;
  /** Called when a streamed run turned out not grouped by query, before it is read again whole. */
  restart?: () => void;
  /** `evaluate` keeps nothing of a block's batch: the next block's join may write over it. @default false */
  recycle?: boolean;
}

/** Judgments still being read: the interner their parser (and a run read meanwhile) interns into, and the judgments. */
export interface PendingJudgments {
  readonly qids: Interner;
  readonly ready: Promise<GroupedJudgments>;
}

/**
 * A run joined to its judgments and evaluated, in blocks as it streams when it can, else whole (also
 * when its queries turn out scattered): the one way the command line and the page read a run. A source
 * that can (`early`) reads the run while the judgments are still read. Throws a RankevalError
 * ("bad-input") when either is empty or they share no query; the judgments' error first.
 */
export async function evaluateRunFile(
  given: GroupedJudgments | PendingJudgments,
  source: RunSource,
  evaluate: (joined: JoinedRun) => Evaluated,
): Promise<{ evaluated: Evaluated; runTag: string; notInRunQids: string[] }> {
  const pending = "ready" in given ? given : null;
  const ready = pending ? pending.ready.then((j) => (checkJudgments(j), j)) : null;
  // Raised where awaited below (a run that fails first waits for it, so the judgments' error wins).
  ready?.catch(() => {});
  if (!pending) checkJudgments(given as GroupedJudgments);
  if (source.blocks && !source.complete) {
    const parts: Evaluated[] = [];
    let blocks: RunBlocks | null = null;
    const start = (j: GroupedJudgments) =>
      (blocks ??= new RunBlocks(j, source.file, (joined) => parts.push(evaluate(joined)), source.recycle));
    if (!pending || !source.early) start(pending ? await ready! : (given as GroupedJudgments));
    const qids = pending ? pending.qids : (given as GroupedJudgments).qrels.qidNames;
    try {
      const runTag = await source.blocks(qids, (rows) =>
        blocks ? blocks.add(rows) : ready!.then((j) => start(j).add(rows)),
      );
      const judgments = pending ? await ready! : (given as GroupedJudgments);
      const s = start(judgments).finish(runTag);
      checkRunEvaluated(source.file, judgments, s);
      return {
        evaluated: mergeBlocks(parts, s.notJudged, s.notInRunQids.length),
        runTag: s.runTag,
        notInRunQids: s.notInRunQids,
      };
    } catch (e) {
      if (ready) await ready;
      if (!(e instanceof NotGroupedError)) throw e;
    }
    source.restart?.();
  }
  const judgments = pending ? await ready! : (given as GroupedJudgments);
  const run = await source.whole();
  const joined = joinParsed(judgments, run, { complete: source.complete, placeholder: source.placeholder });
  checkJoined(source.file, judgments, run, joined, source.complete === true);
  return {
    evaluated: mergeBlocks([evaluate(joined)], joined.notJudged, joined.notInRun),
    runTag: joined.runTag,
    notInRunQids: joined.notInRunQids,
  };
}
