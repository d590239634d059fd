// Arrow IPC files (Feather v2) and streams, read with apache-arrow a record batch at a time: a file in byte
// ranges, a stream as it comes, a file through a pipe whole (it needs its footer). Uncompressed only (apache-arrow's limit).
import { counted } from "../errors/counted.js";
import type { Data, DataType as ArrowType, RecordBatch, RecordBatchReader, Schema, Vector } from "apache-arrow";
import { badInput, RankevalError } from "../errors/errors.js";
import { roleWhat } from "./column-names.js";
import {
  chooseColumns,
  columnBatch,
  messageOf,
  show,
  type ByteSource,
  type ColumnarReadOptions,
  type ColumnValues,
  type OnBatch,
} from "./columnar.js";
import { endsAsBegun, magicOf } from "./magic.js";
import type { RowsKind } from "./json.js";

const CHUNK = 1 << 20;

async function* chunksOf(source: ByteSource, start = 0): AsyncGenerator<Uint8Array> {
  for (let at = start; at < source.byteLength; at += CHUNK)
    yield new Uint8Array(await source.slice(at, Math.min(source.byteLength, at + CHUNK)));
}

/** A ByteSource as the file handle apache-arrow reads. */
function fileHandleOf(source: ByteSource) {
  return {
    fd: -1,
    stat: async () => ({ size: source.byteLength }),
    read: async (buffer: Uint8Array, offset: number, length: number, position: number) => {
      const bytes = new Uint8Array(await source.slice(position, Math.min(source.byteLength, position + length)));
      buffer.set(bytes, offset);
      return { bytesRead: bytes.length, buffer };
    },
    close: async () => {},
  };
}

/** Keeps a stream's last 8 bytes: without the end-of-stream marker it was cut short. */
class Tail {
  last = new Uint8Array(0);
  async *watch(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const c of chunks) {
      if (c.length >= 8) this.last = c.slice(c.length - 8);
      else {
        const joined = new Uint8Array(this.last.length + c.length);
        joined.set(this.last);
        joined.set(c, this.last.length);
        this.last = joined.slice(Math.max(0, joined.length - 8));
      }
      yield c;
    }
  }
  get endsWell(): boolean {
    return this.last.length === 8 && this.last.every((b, i) => b === (i < 4 ? 0xff : 0));
  }
}

export type ArrowInput = { source: ByteSource } | { chunks: AsyncIterable<Uint8Array> };

/** Awaits each onBatch. */
export async function readArrow<K extends RowsKind>(
  input: ArrowInput,
  o: ColumnarReadOptions<K>,
  onBatch: OnBatch,
): Promise<void> {
  const { file } = o;
  const arrow = await import("apache-arrow");
  const { RecordBatchReader } = arrow;
  DataType = arrow.DataType;
  let reader: RecordBatchReader;
  let tail: Tail | null = new Tail();
  try {
    let chunks = "chunks" in input ? input.chunks : null;
    if ("source" in input) {
      const { source } = input;
      const head = new Uint8Array(await source.slice(0, Math.min(8, source.byteLength)));
      const kind = magicOf(head);
      if (kind !== "arrow-file" && kind !== "arrow-stream")
        throw badInput(
          `${file}: not an Arrow IPC file or stream: it does not start with "ARROW1" (a file) or 0xFFFFFFFF (a stream's first message); it starts with ${show(head)}`,
        );
      if (kind === "arrow-stream") chunks = chunksOf(source);
      else {
        const end = new Uint8Array(await source.slice(Math.max(0, source.byteLength - 6), source.byteLength));
        if (source.byteLength < 12 || !endsAsBegun(kind, end))
          throw badInput(
            `${file}: not a whole Arrow IPC file: it does not end with "ARROW1" (truncated? its footer, which says where its record batches are, is missing)`,
          );
      }
    }
    const handle = () => fileHandleOf((input as { source: ByteSource }).source) as never;
    reader = await RecordBatchReader.from(chunks ? tail.watch(chunks) : handle());
    await reader.open();
  } catch (e) {
    if (e instanceof RankevalError) throw e;
    throw badInput(`${file}: damaged Arrow IPC data: ${messageOf(e)}`);
  }
  // A file read whole from a pipe was read up to its footer.
  if (reader.isFile()) tail = null;
  const schema = reader.schema as Schema | undefined;
  if (!schema) throw badInput(`${file}: damaged Arrow IPC data: no schema (the stream is empty or cut short)`);
  const fields = new Map(schema.fields.map((f) => [f.name, f]));
  const { chosen, partition } = chooseColumns(
    schema.fields.map((f) => f.name),
    o,
  );
  for (const r of ["qid", "docid", "value", "tag"] as const) {
    const name = chosen[r];
    const f = name === undefined ? undefined : fields.get(name);
    if (!f) continue;
    if (!(r === "value" ? isNumberType(f.type) : isIdType(f.type))) {
      const want = r === "value" ? "numbers (integers or floating-point)" : "strings or integers";
      throw badInput(
        `${file}: column ${JSON.stringify(name)} (the ${roleWhat(r, o.kind)}) is ${String(f.type)}: ${roleWhat(r, o.kind)}s must be ${want}`,
      );
    }
  }
  let row = 0;
  try {
    for await (const batch of reader as AsyncIterable<RecordBatch>) {
      const n = batch.numRows;
      const read = (name: string) => {
        const v = fields.has(name) ? batch.getChild(name) : null;
        return v ? columnOf(v) : null;
      };
      await onBatch(columnBatch(chosen, partition, read, file, row, n, true));
      row += n;
    }
  } catch (e) {
    if (e instanceof RankevalError) throw e;
    throw badInput(`${file}: damaged Arrow IPC data after row ${row}: ${messageOf(e)}`);
  }
  if (tail && !tail.endsWell)
    throw badInput(
      `${file}: an Arrow IPC stream cut short: it ends without the end-of-stream marker, after ${counted(row, "row")} (truncated?)`,
    );
}

let DataType: typeof ArrowType;

function isIdType(t: ArrowType) {
  if (DataType.isDictionary(t)) return isIdType(t.dictionary);
  return (
    DataType.isUtf8(t) ||
    DataType.isLargeUtf8(t) ||
    DataType.isBinary(t) ||
    DataType.isLargeBinary(t) ||
    DataType.isInt(t) ||
    DataType.isUtf8View?.(t) ||
    DataType.isBinaryView?.(t)
  );
}

function isNumberType(t: ArrowType) {
  if (DataType.isDictionary(t)) return isNumberType(t.dictionary);
  return DataType.isInt(t) || DataType.isFloat(t);
}

/** Its buffers where their layout allows, else each value through `get`. */
function columnOf(v: Vector): ColumnValues {
  if (v.data.length !== 1) return generic(v);
  const data = v.data[0] as Data;
  const t = data.type as ArrowType;
  const valid = data.nullCount > 0 ? (i: number) => data.getValid(i) : undefined;
  if (data.offset === 0 && (DataType.isUtf8(t) || DataType.isBinary(t)) && data.valueOffsets instanceof Int32Array) {
    return { kind: "utf8", bytes: data.values as Uint8Array, offsets: data.valueOffsets, valid };
  }
  if (data.offset === 0 && DataType.isDictionary(t) && data.dictionary) {
    return {
      kind: "dictionary",
      indices: data.values as ArrayLike<number>,
      dictionary: columnOf(data.dictionary),
      valid,
    };
  }
  if (data.offset === 0 && (DataType.isInt(t) || (DataType.isFloat(t) && t.precision !== 0)) /* HALF: raw bits */) {
    return { kind: "values", values: data.values as ArrayLike<number>, valid };
  }
  return generic(v);
}

function generic(v: Vector): ColumnValues {
  const values = new Array<unknown>(v.length);
  for (let i = 0; i < v.length; i++) values[i] = v.get(i);
  return { kind: "values", values };
}
