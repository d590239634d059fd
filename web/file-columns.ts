// Parquet and Arrow Files read by byte ranges, as BatchInput (src/input/input.ts).
import { decideFormat, roleOfHeader, runTagOf } from "../src/input/formats.js";
import type { BatchInput } from "../src/input/input.js";
import { missingColumn, readColumnarSource, type ByteSource, type ColumnarFormat } from "../src/io/columnar.js";
import type { OnProgress } from "./read-file.js";

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

/** A File's columnar format by its first bytes, or null. */
export async function columnarFormat(file: File): Promise<ColumnarFormat | null> {
  const d = decideFormat(file.name, { head: new Uint8Array(await file.slice(0, 8).arrayBuffer()) });
  return d.columnar && d.reason === "content" ? (d.format as ColumnarFormat) : null;
}

export function batchInput(file: File, format: ColumnarFormat, onProgress: OnProgress): BatchInput {
  return {
    name: file.name,
    runTag: runTagOf(file.name),
    async batches(kind, onBatch) {
      const counted = { read: 0 };
      const started = performance.now();
      let last = 0;
      let rows = 0;
      await readColumnarSource(fileSource(file, counted), format, { file: file.name, kind }, async (b) => {
        await onBatch(b);
        rows += b.length;
        if (performance.now() - last > 100) {
          last = performance.now();
          onProgress(Math.min(counted.read, file.size), rows, (last - started) / 1000);
        }
      });
      onProgress(file.size, rows, (performance.now() - started) / 1000);
    },
  };
}

/** A dropped columnar file's input: a run unless it lacks a score column (then roleOfHeader). */
export async function columnarRole(file: File, format: ColumnarFormat): Promise<"qrels" | "run"> {
  const enough = new Error("the columns are found");
  try {
    await readColumnarSource(fileSource(file, { read: 0 }), format, { file: file.name, kind: "run" }, () => {
      throw enough;
    });
  } catch (e) {
    const missing = missingColumn.get(e as Error);
    if (missing?.role === "value") return roleOfHeader(missing.names);
  }
  return "run";
}
