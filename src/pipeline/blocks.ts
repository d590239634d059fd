/**
 * A run joined to its judgments block by block as it streams in, so that memory holds the judgments
 * and a few blocks of run rows, not the whole run: how the command line and the web page read runs of
 * several GB.
 *
 * The parser (RunBlockParser) hands over its complete queries every `blockRows` rows
 * (RunParser.takeQueries) and RunBlocks joins each block (src/pipeline/join-rows.ts) and passes it to
 * `onBlock`, which evaluates it and may drop it. The parsing may happen in another thread
 * (src/pipeline/reader.ts) while this one joins and evaluates: its blocks travel as PortableBlocks. That
 * needs each query's rows together in the file, as every ranker writes them; a query that comes back
 * after another began throws NotGroupedError, and the caller reads the file whole instead (trec_eval
 * accepts any order).
 *
 * The path of a run file's bytes (the command line, the page): read (src/node/file-read.ts, web/read-file.ts)
 * -> parsed (src/io/) into blocks of whole queries (here; in another thread: reader.ts) -> joined to
 * the judgments (join-rows.ts) -> evaluated by the kernel (evaluate-block.ts, src/kernel/) -> the
 * blocks' per-query values merged (merge.ts) -> reports (src/app/plan.ts).
 *
 * Browser compatible.
 */
import { InputError, noQueryInCommon, RankevalError } from "../errors/errors.js";
import type { Interner } from "../io/interner.js";
import { RunParser, type RunRows } from "../io/run.js";
import { lazyQid, lineOfRow, querySpans } from "../io/rows.js";
import { compareBytes } from "../c/strings.js";
import type { Evaluated } from "./evaluate.js";
import { mergeBlocks } from "./merge.js";
import { joinParsed, judgedSample, type GroupedJudgments, type JoinedRun } from "./join-rows.js";

/** Run rows a block, about (a block ends with a query): the command line's and the page's. */
export const BLOCK_ROWS = 1 << 20;

/** A query's rows are not together in the run: it must be read whole. */
export class NotGroupedError extends InputError {}

/** What the blocks add up to, once the run is read. */
export interface RunSummary {
  runTag: string;
  /** Run queries without any judgment (ignored). */
  notJudged: number;
  /** Judged queries absent from the run, in strcmp order. */
  notInRunQids: string[];
  /** Rows of the run, and its queries (judged or not). */
  rows: number;
  queries: number;
  /** Queries evaluated: the run's queries with judgments. */
  evaluated: number;
  /** The run's first few query ids, for a message when none is judged. */
  someQids: string[];
}

/** Query ids a message shows, at most. */
const SOME = 3;

/**
 * Throws when the judgments have none (an empty, blank or header-only file): every run would
 * evaluate nothing. Called as soon as they are read, by the command line and the page.
 */
export function checkJudgments(judgments: GroupedJudgments): void {
  if (judgments.qrels.length === 0) {
    throw new RankevalError(
      "bad-input",
      `${judgments.qrels.file}: no judgments in it: the file is empty or holds no rows`,
    );
  }
}

/**
 * Throws when a run evaluates no query: it has no rows (an empty, blank or header-only file), or none
 * of its queries is judged (a wrong file, or ids written otherwise: "q1" against "1"). Its report
 * would be means over no query (trec_eval itself refuses an empty file, and prints "No queries with
 * both results and relevance info" for the other case). Under -c too: a run sharing no query with the
 * judgments would score 0 everywhere, which says nothing about the run.
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

/** Joins a run's blocks of complete queries to the judgments as they come, checking they never come back. */
export class RunBlocks {
  private readonly qidNames: Interner;
  /** seen[q] = 1 once query q's rows were handed over. */
  private seen = new Uint8Array(1024);
  private notJudged = 0;
  private rows = 0;
  private queries = 0;
  private evaluated = 0;
  private readonly someQids: string[] = [];
  /** The last block's batch, when onBlock lets go of each: the next join writes over its arrays. */
  private spare: JoinedRun["batch"] | undefined;

  /**
   * `recycle`: onBlock keeps nothing of a block's batch once it returns (it evaluates and drops it),
   * so each join reuses the arrays of the one before.
   */
  constructor(
    private readonly judgments: GroupedJudgments,
    private readonly file: string,
    private readonly onBlock: (joined: JoinedRun) => void,
    private readonly recycle = false,
  ) {
    this.qidNames = judgments.qrels.qidNames;
  }

  /** Joins the next rows of the run (whole queries, ids interned in the judgments' qidNames) and passes them on. */
  add(rows: RunRows): void {
    // A query seen in an earlier block (or earlier in this one, after another query) comes back.
    if (this.seen.length < this.qidNames.size) {
      const grown = new Uint8Array(Math.max(this.qidNames.size, 2 * this.seen.length));
      grown.set(this.seen);
      this.seen = grown;
    }
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
    // A batch in the kernel's memory (join-kernel.ts) is not for join-rows.ts's own loop to write over.
    if (this.recycle) this.spare = joined.batch.inPlace ? undefined : joined.batch;
  }

  /** What the blocks added up to, once the run is read; `runTag` is its last line's. */
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

/**
 * A run parsed as its bytes come (push, as LineParser), handing its complete queries to `onRows`
 * every `blockRows` rows, and the rest at finish(), which returns the run tag.
 */
export class RunBlockParser {
  private readonly parser: RunParser<"per-row">;

  /** `spare`: a buffer of a block evaluated and given back, for the next block to be written into (or none). */
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
    // Copies, as takeQueries' blocks are: finish() gives views of the parser's memory, which a block
    // handed to another thread cannot take with it.
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
 * A block parsed in another worker, with its own query interner, as it travels (postMessage with
 * `transferables`, no copy): the run rows' columns and the bytes of the query ids that worker
 * interned since its previous block, ids `first` to `first + count - 1`.
 */
export interface PortableBlock {
  /** The rows but their query ids, which travel as runs (spans): the receiver makes the column when read (rows.ts lazyQid). */
  rows: Omit<RunRows, "qidNames" | "file" | "qid" | "spans"> & { spans: NonNullable<RunRows["spans"]> };
  newQids: { first: number; bytes: Uint8Array; offsets: Int32Array };
}

/** `rows` to send, with the query ids interned from `first` on (the sender's count of ids sent so far). */
export function portableBlock(rows: RunRows, first: number): PortableBlock {
  const { bytes, offsets } = rows.qidNames.pool();
  const base = offsets[first];
  const newOffsets = offsets.slice(first, rows.qidNames.size + 1).map((o) => o - base);
  // Named one by one: the qid column is not read (where it is made from the spans, reading it makes it).
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

/** The buffers a PortableBlock hands over. */
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
    if (first + count > this.ids.length) {
      const grown = new Int32Array(Math.max(first + count, 2 * this.ids.length));
      grown.set(this.ids);
      this.ids = grown;
    }
    for (let k = 0; k < count; k++) this.ids[first + k] = this.qids.intern(bytes, offsets[k], offsets[k + 1]);
    // The runs' ids translated; the qid column made from them if read (lazyQid).
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

/** checkRunEvaluated for a run joined whole (with `complete`, or not). */
export function checkJoined(
  file: string,
  judgments: GroupedJudgments,
  run: RunRows,
  joined: JoinedRun,
  complete: boolean,
): void {
  // Under complete, the judged queries absent from the run are evaluated too: they are not in common.
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
  /** The run's name in messages. */
  file: string;
  /**
   * Reads the run into `add`, complete queries at a time and in file order, with query ids interned
   * in `qids`, and returns its run tag (parsedBlocks, or another worker's); null when the run cannot
   * be read in blocks (read it whole). `add` returns a promise while the judgments are still being
   * read (only where `early`): the next block waits for it.
   */
  blocks: ((qids: Interner, add: (rows: RunRows) => void | Promise<void>) => Promise<string>) | null;
  /**
   * The blocks may come before the judgments are read: true for a reader in another thread, which
   * then starts reading at once, both files read at the same time. @default false: the blocks are
   * read once the judgments are
   */
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

/**
 * Judgments still being read: the query-id interner their parser interns into (a run read at the
 * same time interns into it too), and the judgments once read.
 */
export interface PendingJudgments {
  readonly qids: Interner;
  readonly ready: Promise<GroupedJudgments>;
}

/**
 * A run joined to its judgments and evaluated: block by block as it streams when it can, whole
 * otherwise or when its queries turn out scattered. `evaluate` gets each joined block (one, when whole).
 * The one way the command line and the page read a run. The judgments may still be being read
 * (PendingJudgments): a source that can (`early`) starts reading the run at once, its blocks waiting
 * for them. Throws a RankevalError ("bad-input") when the judgments or the run are empty, or share no
 * query (checkJudgments, checkRunEvaluated); when both the judgments and the run are bad, the
 * judgments' error, as when they are read first.
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
