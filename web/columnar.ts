// Parquet and Arrow files in the page's worker: a File read in byte ranges (File.slice), a row group
// or record batch at a time, into the rows the text parsers give (src/io/columnar.ts), so a run is
// joined and evaluated block by block as a TREC run is. Read in this worker (the run-reader worker
// parses text only).
import { InputError, RankevalError } from "../src/errors.js";
import { ColumnarRows, RowError, columnarFormatOf, readColumnarSource, type ByteSource, type ColumnarFormat } from "../src/io/columnar.js";
import type { Interner } from "../src/io/interner.js";
import type { RowsKind, RowsOf } from "../src/io/json.js";
import type { RunRows } from "../src/io/run.js";
import type { RunSource } from "../src/pipeline/blocks.js";
import type { OnProgress } from "./read.js";

/** A File as a ByteSource, counting the bytes read. */
function fileSource(file: File, counted: { read: number }): ByteSource {
  return {
    byteLength: file.size,
    async slice(start: number, end = file.size) {
      const bytes = await file.slice(start, end).arrayBuffer();
      counted.read += bytes.byteLength;
      return bytes;
    },
  };
}

/** A File's columnar format, from its first bytes (Parquet's "PAR1", Arrow's "ARROW1" or a stream's first message), or null. */
export async function columnarFormat(file: File): Promise<ColumnarFormat | null> {
  return columnarFormatOf(new Uint8Array(await file.slice(0, 8).arrayBuffer()));
}

/** A run tag from a file's name, as the command line's: without its format's extension. */
function runTagOf(name: string): string {
  return name.replace(/\.(parquet|arrow|feather|arrows)$/i, "") || name;
}

/** Reads a columnar File into `rows`, posting progress (bytes read, rows) as it goes. */
async function read<K extends RowsKind>(file: File, format: ColumnarFormat, rows: ColumnarRows<K>, kind: K, onProgress: OnProgress, onBatch?: () => void): Promise<void> {
  const counted = { read: 0 };
  const started = performance.now();
  let last = 0;
  await readColumnarSource(fileSource(file, counted), format, { file: file.name, kind }, (b) => {
    rows.add(b);
    onBatch?.();
    if (performance.now() - last > 100) {
      last = performance.now();
      onProgress(Math.min(counted.read, file.size), rows.length, (last - started) / 1000);
    }
  });
  onProgress(file.size, rows.length, (performance.now() - started) / 1000);
}

/** An error of the join about a row (its "line" counts rows), said as the row of its file. */
export function asRowError(e: unknown, name: string, rows: ColumnarRows<RowsKind>): unknown {
  if (!(e instanceof InputError) || e instanceof RowError || e.file !== name || e.constructor !== InputError) return e;
  const { file, row } = rows.placeOf(e.line);
  return new RowError(file, row, undefined, e.reason);
}

/** Every row of a columnar File (judgments, or a run read whole). */
export async function columnarRows<K extends RowsKind>(file: File, format: ColumnarFormat, kind: K, qids: Interner, onProgress: OnProgress): Promise<{ rows: RowsOf<K>; reader: ColumnarRows<K> }> {
  const reader = new ColumnarRows({ file: file.name, qids, kind, runTag: runTagOf(file.name) });
  await read(file, format, reader, kind, onProgress);
  return { rows: reader.finish(), reader };
}

/** RunSource.blocks for a columnar run: its complete queries every `blockRows` rows, as they come. */
export function columnarBlocks(file: File, format: ColumnarFormat, blockRows: number, onProgress: OnProgress): NonNullable<RunSource["blocks"]> {
  return async (qids, add) => {
    const rows = new ColumnarRows({ file: file.name, qids, kind: "run", runTag: runTagOf(file.name) });
    const give = (r: RunRows) => {
      try {
        add(r);
      } catch (e) {
        throw asRowError(e, file.name, rows);
      }
    };
    await read(file, format, rows, "run", onProgress, () => {
      const block = rows.takeQueries(blockRows);
      if (block) give(block);
    });
    const last = rows.finish();
    give(last);
    return last.runTag;
  };
}

/**
 * Which input a columnar file dropped on the page belongs to: judgments when it has a label column
 * (rel, label, relevance, grade) and no run's score column (score, rank_score, prediction); a run
 * otherwise. A file whose columns cannot be read goes to the runs, whose reading says what is wrong.
 */
export async function columnarRole(file: File, format: ColumnarFormat): Promise<"qrels" | "run"> {
  const enough = new Error("the columns are found");
  try {
    // Read as a run's columns, stopping at the first batch.
    await readColumnarSource(fileSource(file, { read: 0 }), format, { file: file.name, kind: "run" }, () => {
      throw enough;
    });
  } catch (e) {
    if (e instanceof RankevalError && /: no score column/.test(e.message) && /"(rel|label|relevance|grade)"/i.test(e.message)) return "qrels";
  }
  return "run";
}
