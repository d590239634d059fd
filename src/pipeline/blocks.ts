/**
 * A run joined to its judgments block by block as it streams, so memory holds a few blocks, not the run.
 * A query that comes back after another throws NotGroupedError and the run is read whole (trec_eval
 * accepts any order).
 */
import { InputError, noQueryInCommon, RankevalError } from "../errors/errors.js";
import type { Interner } from "../io/interner.js";
import { RunParser, type RunRows } from "../io/run.js";
import { grow, lazyQid, lineOfRow, querySpans } from "../io/rows.js";
import { compareBytes } from "../c/strings.js";
import type { Evaluated } from "./evaluate.js";
import { mergeBlocks } from "./merge.js";
import { joinParsed, judgedSample, type GroupedJudgments, type JoinedRun } from "./join-rows.js";
import { addPrepared, NOTHING_PREPARED, type RunPreparation, type RunPrepared } from "./prepare-run.js";

/** Run rows a block, about: columnar batches' on the page, and the measure of the reader thread's threshold (THREAD_MIN_BYTES). */
export const BLOCK_ROWS = 1 << 20;

/**
 * Rows a block read, joined and evaluated in one thread: its columns (about 1.3 MB) are still in the
 * core's cache when it is joined and evaluated (the parser's and the join's memory serve every block,
 * only the hand-over between them is a fresh buffer). On the large set with
 * `--threads 1` (2 cores): 2^15 1.29 s, 363 MB peak; 2^16 1.30 s; 2^18 1.36 s; 2^20 1.48 s, 516 MB.
 */
export const IN_THREAD_BLOCK_ROWS = 1 << 15;

/**
 * Rows a block a reader (the command line's thread, the page's worker) hands to the one that evaluates:
 * fewer hand-overs than smaller blocks, each joined and evaluated with less of it out of cache than
 * larger ones. On the large set (2 cores), the command line's default threads: 2^18 1.05 s; 2^16 1.06 s;
 * 2^15 1.12 s; 2^20 1.14 s. The page in Chromium: 2^18 as fast as 2^20, its tab 0.59 GiB, not 0.65.
 */
export const READER_BLOCK_ROWS = 1 << 18;

export class NotGroupedError extends InputError {}

export interface RunSummary {
  runTag: string;
  notJudged: number;
  /** Judged queries absent from the run, in strcmp order. */
  notInRunQids: string[];
  rows: number;
  queries: number;
  evaluated: number;
  someQids: string[];
  /** With a preparation: what it did, over the blocks. */
  prepared?: RunPrepared;
}

const SOME = 3;

/** Throws when the judgments have no rows. */
export function checkJudgments(judgments: GroupedJudgments): void {
  if (judgments.qrels.length === 0) {
    throw new RankevalError(
      "bad-input",
      `${judgments.qrels.file}: no judgments in it: the file is empty or holds no rows`,
    );
  }
}

/** Throws when a run evaluates no query (as trec_eval: "No queries with both results and relevance info"), -c too. */
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

/** Joins a run's blocks of whole queries as they come, checking none comes back. */
export class RunBlocks {
  private readonly qidNames: Interner;
  private seen = new Uint8Array(1024);
  private notJudged = 0;
  private rows = 0;
  private queries = 0;
  private evaluated = 0;
  private readonly someQids: string[] = [];
  private spare: JoinedRun["batch"] | undefined;
  private prepared = NOTHING_PREPARED;

  /** `recycle`: onBlock keeps nothing of a batch, so each join reuses the last one's arrays. */
  constructor(
    private readonly judgments: GroupedJudgments,
    private readonly file: string,
    private readonly onBlock: (joined: JoinedRun) => void,
    private readonly recycle = false,
    private readonly prepare?: RunPreparation,
  ) {
    this.qidNames = judgments.qrels.qidNames;
  }

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
    const joined = joinParsed(this.judgments, rows, {
      block: true,
      reuse: this.spare,
      transient: this.recycle,
      prepare: this.prepare,
    });
    if (joined.prepared) this.prepared = addPrepared(this.prepared, joined.prepared);
    this.notJudged += joined.notJudged;
    this.evaluated += joined.qids.length;
    this.onBlock(joined);
    // A batch in kernel memory is not join-rows.ts's to write over.
    if (this.recycle) this.spare = joined.batch.inPlace ? undefined : joined.batch;
  }

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
      ...(this.prepare ? { prepared: this.prepared } : {}),
    };
  }
}

/** A streamed run parser handing whole queries to `onRows` every `blockRows` rows. */
export class RunBlockParser {
  private readonly parser: RunParser<"per-row">;

  constructor(
    file: string,
    qids: Interner,
    private readonly onRows: (rows: RunRows) => void,
    private readonly blockRows = IN_THREAD_BLOCK_ROWS,
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
    // Copies: finish() gives views of the parser's memory, which cannot be transferred.
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

/** RunSource.blocks for a run parsed in this thread. */
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

/** A block parsed in another worker, transferred with the query ids it interned since its last block. */
export interface PortableBlock {
  /** Query ids travel as spans. */
  rows: Omit<RunRows, "qidNames" | "file" | "qid" | "spans"> & { spans: NonNullable<RunRows["spans"]> };
  newQids: { first: number; bytes: Uint8Array; offsets: Int32Array };
}

export function portableBlock(rows: RunRows, first: number): PortableBlock {
  const { bytes, offsets } = rows.qidNames.pool();
  const base = offsets[first];
  const newOffsets = offsets.slice(first, rows.qidNames.size + 1).map((o) => o - base);
  return {
    // Not spread: reading qid would build it from the spans.
    rows: {
      docids: rows.docids,
      score: rows.score,
      runTag: rows.runTag,
      lines: rows.lines,
      length: rows.length,
      spans: rows.spans ?? querySpans(rows.qid, rows.length),
    },
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

/** Receives PortableBlocks, translating their query ids into `qids` in place. */
export class PortableBlocks {
  /** Sender's id to ours. */
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
  /** Reads whole queries into `add` and returns the run tag; null when blocks can't be read. */
  blocks: ((qids: Interner, add: (rows: RunRows) => void | Promise<void>) => Promise<string>) | null;
  /** Blocks may come before the judgments are read. @default false */
  early?: boolean;
  whole: () => Promise<RunRows>;
  /** trec_eval -c, which needs the whole run. @default false */
  complete?: boolean;
  /** JoinOptions.placeholder. @default false */
  placeholder?: boolean;
  /** Called before a run not grouped by query is read again whole. */
  restart?: () => void;
  /** `evaluate` keeps nothing of a batch: the next join may write over it. @default false */
  recycle?: boolean;
  /** The run's preparation (prepare-run.ts), in every join of it. */
  prepare?: RunPreparation;
}

/** Judgments still being read, and the interner shared with a run read meanwhile. */
export interface PendingJudgments {
  readonly qids: Interner;
  readonly ready: Promise<GroupedJudgments>;
}

/**
 * A run joined and evaluated in blocks as it streams when it can, else whole: how the CLI and the page
 * read a run. Throws "bad-input" when either is empty or none shared; the judgments' error first.
 */
export async function evaluateRunFile(
  given: GroupedJudgments | PendingJudgments,
  source: RunSource,
  evaluate: (joined: JoinedRun) => Evaluated,
): Promise<{ evaluated: Evaluated; runTag: string; notInRunQids: string[] }> {
  const pending = "ready" in given ? given : null;
  const now = pending ? null : (given as GroupedJudgments);
  const ready = pending ? pending.ready.then((j) => (checkJudgments(j), j)) : null;
  // Raised where awaited, so the judgments' error wins.
  ready?.catch(() => {});
  if (now) checkJudgments(now);
  if (source.blocks && !source.complete) {
    const parts: Evaluated[] = [];
    let blocks: RunBlocks | null = null;
    const start = (j: GroupedJudgments) =>
      (blocks ??= new RunBlocks(
        j,
        source.file,
        (joined) => parts.push(evaluate(joined)),
        source.recycle,
        source.prepare,
      ));
    if (!pending || !source.early) start(now ?? (await ready!));
    const qids = pending ? pending.qids : now!.qrels.qidNames;
    try {
      const runTag = await source.blocks(qids, (rows) =>
        blocks ? blocks.add(rows) : ready!.then((j) => start(j).add(rows)),
      );
      const judgments = now ?? (await ready!);
      const s = start(judgments).finish(runTag);
      checkRunEvaluated(source.file, judgments, s);
      return {
        evaluated: withPrepared(mergeBlocks(parts, s.notJudged, s.notInRunQids.length), s.prepared),
        runTag: s.runTag,
        notInRunQids: s.notInRunQids,
      };
    } catch (e) {
      if (ready) await ready;
      if (!(e instanceof NotGroupedError)) throw e;
    }
    source.restart?.();
  }
  const judgments = now ?? (await ready!);
  const run = await source.whole();
  const joined = joinParsed(judgments, run, {
    complete: source.complete,
    placeholder: source.placeholder,
    prepare: source.prepare,
  });
  checkJoined(source.file, judgments, run, joined, source.complete === true);
  return {
    evaluated: withPrepared(mergeBlocks([evaluate(joined)], joined.notJudged, joined.notInRun), joined.prepared),
    runTag: joined.runTag,
    notInRunQids: joined.notInRunQids,
  };
}

/** `Result.prepared` set where a preparation was asked. */
export function withPrepared(evaluated: Evaluated, prepared: RunPrepared | undefined): Evaluated {
  return prepared ? { ...evaluated, result: { ...evaluated.result, prepared } } : evaluated;
}
