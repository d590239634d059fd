// Judgments and runs read from an Input (adapted by src/node/files.ts and web/read-file.ts) into the
// rows the join takes. Browser-safe.
import { counted, isAre } from "../errors/counted.js";
import { InputError } from "../errors/errors.js";
import { ColumnarRows, RowError, type OnBatch } from "../io/columnar.js";
import type { Interner } from "../io/interner.js";
import type { RowsKind, RowsOf } from "../io/json.js";
import type { RunRows } from "../io/run.js";
import { checkJudgments, evaluateRunFile, type PendingJudgments, type RunSource } from "../pipeline/blocks.js";
import type { Evaluated } from "../pipeline/evaluate.js";
import { groupJudgments, type GroupedJudgments, type JoinedRun } from "../pipeline/join-rows.js";
import { qrelsParserFor, runParserFor, type ChunkSink, type ParserChoice } from "./formats.js";
import { lineOfRow } from "../io/rows.js";
import { fileLabelsRead } from "../pipeline/trec-labels.js";

/** Gunzipped bytes, pushed chunk by chunk. */
export interface TextInput {
  readonly name: string;
  /** Text bytes, to size the parsers' columns (0: unknown). */
  readonly size: number;
  read(sink: ChunkSink): Promise<void>;
}

/** Parquet or Arrow: row groups or record batches, in order. */
export interface BatchInput {
  readonly name: string;
  /** Where rows have no tag column. */
  readonly runTag: string;
  batches(kind: RowsKind, onBatch: OnBatch): Promise<void>;
}

export type Input = TextInput | BatchInput;

/** Row `line` of a whole columnar input as its file and row there. */
export type PlaceOf = (line: number) => { file: string; row: number };

type Rows<K extends RowsKind> = { rows: RowsOf<K>; placeOf?: PlaceOf };
type Placed<K extends RowsKind> = Required<Rows<K>>;

/** An error about a columnar input's row `line`, said as `run.parquet: row 57: ...`. */
export function asRowError(e: unknown, name: string, rows: { placeOf: PlaceOf }) {
  if (!(e instanceof InputError) || e instanceof RowError || e.file !== name || e.constructor !== InputError) return e;
  const { file, row } = rows.placeOf(e.line);
  return new RowError(file, row, undefined, e.reason);
}

/** Columnar judgments' rows, for errors found at the join. */
const places = new WeakMap<object, PlaceOf>();

async function batchRows<K extends RowsKind>(input: BatchInput, kind: K, qids: Interner): Promise<Placed<K>> {
  const rows = new ColumnarRows({ file: input.name, qids, kind, runTag: input.runTag });
  await input.batches(kind, (b) => rows.add(b));
  return { rows: rows.finish(), placeOf: (line) => rows.placeOf(line) };
}

/** RunSource.blocks of a columnar run: complete queries at a row group's end once `blockRows` are held. */
export function batchBlocks(input: BatchInput, blockRows: number): NonNullable<RunSource["blocks"]> {
  return async (qids, add) => {
    const rows = new ColumnarRows({ file: input.name, qids, kind: "run", runTag: input.runTag });
    const give = (r: RunRows) => {
      try {
        add(r);
      } catch (e) {
        throw asRowError(e, input.name, rows);
      }
    };
    await input.batches("run", (b) => {
      rows.add(b);
      if (!b.endOfGroup) return;
      const block = rows.takeQueries(blockRows);
      if (block) give(block);
    });
    const last = rows.finish();
    give(last);
    return last.runTag;
  };
}

/** The labels trec_eval reads as another number (1.5 is 1): how many, and the first one's line or row. */
export function judgmentsLabelsRead(judgments: GroupedJudgments, file: string = judgments.qrels.file) {
  // Every label whole, none truncated (groupJudgments scanned them): the scan below would find none.
  if (judgments.wholeLabels) return undefined;
  const q = judgments.qrels;
  const placeOf = places.get(judgments);
  return fileLabelsRead({ ...q, file }, (i) => {
    if (!q.lines) return `${file} row ${i + 1}`;
    const line = lineOfRow(q.lines, i);
    if (!placeOf) return `${file}:${line}`;
    const p = placeOf(line);
    return `${p.file}: row ${p.row}`;
  });
}

export async function readJudgments(input: Input, qids: Interner, choice: ParserChoice) {
  let judgments: GroupedJudgments;
  if ("batches" in input) {
    const { rows, placeOf } = await batchRows(input, "qrels", qids);
    try {
      judgments = groupJudgments(rows);
    } catch (e) {
      throw asRowError(e, rows.file, { placeOf });
    }
    places.set(judgments, placeOf);
  } else judgments = groupJudgments((await readRows("qrels", input, qids, choice)).rows);
  checkJudgments(judgments);
  return judgments;
}

export async function readRows<K extends RowsKind>(
  kind: K,
  input: Input,
  qids: Interner,
  choice: ParserChoice,
): Promise<Rows<K>> {
  if ("batches" in input) return batchRows(input, kind, qids);
  const parser = await (kind === "qrels" ? qrelsParserFor : runParserFor)(input.name, qids, input.size, choice);
  await input.read(parser);
  return { rows: parser.finish() as RowsOf<K> };
}

/** A run read, joined and evaluated in `source`'s blocks or whole; columnar errors name file and row. */
export async function evaluateRunInput(
  input: Input,
  judgments: GroupedJudgments | PendingJudgments,
  source: Omit<RunSource, "file" | "whole">,
  choice: ParserChoice,
  evaluate: (joined: JoinedRun) => Evaluated,
) {
  let whole: { placeOf?: PlaceOf } = {};
  try {
    return await evaluateRunFile(
      judgments,
      {
        ...source,
        file: input.name,
        whole: async () => {
          const qids = "ready" in judgments ? judgments.qids : judgments.qrels.qidNames;
          const read = await readRows("run", input, qids, choice);
          whole = read;
          return read.rows;
        },
      },
      evaluate,
    );
  } catch (e) {
    const err = whole.placeOf ? asRowError(e, input.name, { placeOf: whole.placeOf }) : e;
    const read = "ready" in judgments ? await judgments.ready.catch(() => null) : judgments;
    const placeOf = read && places.get(read);
    throw placeOf ? asRowError(err, read.qrels.file, { placeOf }) : err;
  }
}

/** The judged queries a run lacks (left out unless -c); `hint`: that -c counts them as 0. */
export function notInRun(name: string, qids: readonly string[] | number, hint = false) {
  const n = typeof qids === "number" ? qids : qids.length;
  const some = typeof qids === "number" ? "" : ` (${qids.slice(0, 5).join(", ")}${n > 5 ? ", ..." : ""})`;
  const c = hint ? `; -c counts ${n === 1 ? "it" : "them"} as 0` : "";
  return `${name}: ${counted(n, "judged query", "judged queries")} ${isAre(n)} not in the run and ${isAre(n)} left out${some}${c}`;
}
