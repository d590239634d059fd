// Parquet files read with hyparquet in byte ranges: only the columns read, a row group (or SLICE_ROWS rows) at a time.
import { counted } from "../errors/counted.js";
import type { ColumnMetaData, FileMetaData, SchemaElement } from "hyparquet";
import { badInput, RankevalError } from "../errors/errors.js";
import { roleWhat } from "./column-names.js";
import { ColumnBuffer, ColumnPages, NullValue, fastKind, pageFunctions, type PageFunctions } from "./parquet-pages.js";
import {
  chooseColumns,
  columnBatch,
  messageOf,
  rowError,
  show,
  type ByteSource,
  type ColumnarReadOptions,
  type ColumnBatch,
  type ColumnValues,
  type OnBatch,
} from "./columnar.js";
import type { RowsKind } from "./json.js";
import { endsAsBegun, magicOf } from "./magic.js";

/** A larger row group (Spark's are 128 MB) is read in slices. */
const SLICE_ROWS = 1 << 20;

/** Loaded when a Parquet file is first read. */
async function hyparquet() {
  const [h, c] = await Promise.all([import("hyparquet"), import("hyparquet-compressors")]);
  return { ...h, compressors: c.compressors };
}

async function bytesAt(source: ByteSource, start: number, end: number): Promise<Uint8Array> {
  return new Uint8Array(await source.slice(start, end));
}

/** The footer, magic numbers and length checked (a file cut short says so, not a decoder). */
export async function parquetFooter(source: ByteSource, file: string): Promise<FileMetaData> {
  const size = source.byteLength;
  if (size < 12)
    throw badInput(
      `${file}: not a Parquet file: ${counted(size, "byte")}, too short for one (a Parquet file starts and ends with "PAR1")`,
    );
  const head = await bytesAt(source, 0, 4);
  if (magicOf(head) !== "parquet")
    throw badInput(
      `${file}: not a Parquet file: it does not start with Parquet's magic number "PAR1" (it starts with ${show(head)})`,
    );
  const tail = await bytesAt(source, size - 8, size);
  if (!endsAsBegun("parquet", tail)) {
    throw badInput(
      `${file}: not a whole Parquet file: it does not end with Parquet's magic number "PAR1" (truncated? its footer, which says where its rows are, is missing)`,
    );
  }
  const footerLength = new DataView(tail.buffer, tail.byteOffset, 8).getUint32(0, true);
  if (footerLength + 12 > size)
    throw badInput(
      `${file}: damaged Parquet file: its footer would be ${counted(footerLength, "byte")}, longer than the file (${counted(size, "byte")})`,
    );
  const { parquetMetadataAsync } = await hyparquet();
  try {
    return await parquetMetadataAsync(source);
  } catch (e) {
    throw badInput(`${file}: damaged Parquet file: its footer cannot be read (${messageOf(e)})`);
  }
}

export function parquetKeyValues(metadata: FileMetaData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of metadata.key_value_metadata ?? []) out[kv.key] = kv.value ?? "";
  return out;
}

/** `DOUBLE`, `BYTE_ARRAY (STRING)`. */
function typeName(e: SchemaElement) {
  const logical = e.logical_type?.type ?? e.converted_type;
  return `${e.type ?? "a group"}${logical ? ` (${logical})` : ""}`;
}

/** Logical types that are not ids or numbers, though stored as integers or bytes. */
const NOT_PLAIN = new Set([
  "DATE",
  "TIME",
  "TIMESTAMP",
  "TIME_MILLIS",
  "TIME_MICROS",
  "TIMESTAMP_MILLIS",
  "TIMESTAMP_MICROS",
  "INTERVAL",
  "LIST",
  "MAP",
  "MAP_KEY_VALUE",
  "JSON",
  "BSON",
  "VARIANT",
  "GEOMETRY",
  "GEOGRAPHY",
  "FLOAT16",
]);

function checkType(file: string, name: string, e: SchemaElement, role: "id" | "value" | "tag", what: string) {
  const logical = e.logical_type?.type ?? e.converted_type;
  const ok =
    e.type !== undefined &&
    !(logical && NOT_PLAIN.has(logical)) &&
    (role === "value"
      ? ["INT32", "INT64", "FLOAT", "DOUBLE"].includes(e.type) || logical === "DECIMAL"
      : role === "id"
        ? ["BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY", "INT32", "INT64"].includes(e.type) && logical !== "DECIMAL"
        : e.type !== "BOOLEAN");
  if (ok) return;
  const want =
    role === "value" ? "numbers (integers or floating-point)" : role === "id" ? "strings or integers" : "strings";
  throw badInput(`${file}: column ${JSON.stringify(name)} (the ${what}) is ${typeName(e)}: ${what}s must be ${want}`);
}

/** The footer (read unless given) and each role's column, checked. */
export async function prepareParquet<K extends RowsKind>(
  source: ByteSource,
  o: ColumnarReadOptions<K> & { metadata?: FileMetaData },
) {
  const { file, kind } = o;
  const metadata = o.metadata ?? (await parquetFooter(source, file));
  const { parquetSchema } = await hyparquet();
  const top = parquetSchema(metadata).children;
  const elements = new Map(top.map((c) => [c.element.name, c]));
  const { chosen, partition } = chooseColumns(
    top.map((c) => c.element.name),
    o,
  );
  const roles = (["qid", "docid", "value", "tag"] as const).filter((r) => chosen[r] !== undefined);
  for (const r of roles) {
    const c = elements.get(chosen[r]!);
    if (!c) continue; // from the path: text
    if (c.children.length)
      throw badInput(
        `${file}: column ${JSON.stringify(chosen[r])} (the ${roleWhat(r, kind)}) is a nested structure, not a plain column`,
      );
    checkType(file, chosen[r]!, c.element, r === "value" ? "value" : r === "tag" ? "tag" : "id", roleWhat(r, kind));
  }
  const read = [...new Set(roles.map((r) => chosen[r]!).filter((n) => elements.has(n)))];
  return { metadata, elements, partition, chosen, roles, read };
}

/** Awaits each onBatch (another thread's reader may wait). */
export async function readParquet<K extends RowsKind>(
  source: ByteSource,
  o: ColumnarReadOptions<K> & { rowGroups?: readonly number[]; metadata?: FileMetaData },
  onBatch: OnBatch,
): Promise<void> {
  const { file, kind } = o;
  const { metadata, elements, partition, chosen, roles, read } = await prepareParquet(source, o);
  const { parquetScan, compressors } = await hyparquet();
  // For the row groups the page decoder does not take.
  let scan: Awaited<ReturnType<typeof parquetScan>> | undefined;
  const generic = async () => {
    try {
      return (scan ??= await parquetScan({ file: source, metadata, columns: read, compressors, utf8: true }));
    } catch (e) {
      throw badInput(`${file}: damaged Parquet file: ${messageOf(e)}`);
    }
  };
  const pages = o.generic ? null : await pageFunctions();
  const batch = (start: number, n: number, columns: ColumnValues[], groupEnd: number): ColumnBatch =>
    columnBatch(chosen, partition, (c) => columns[read.indexOf(c)] ?? null, file, start, n, start + n === groupEnd);
  const roleOf = (name: string) => roles.find((r) => chosen[r] === name)!;
  let groupStart = 0;
  for (let g = 0; g < metadata.row_groups.length; g++) {
    const group = metadata.row_groups[g];
    const groupRows = Number(group.num_rows);
    // Only the row groups asked for (a reader thread's share), in the file's order.
    if (o.rowGroups && !o.rowGroups.includes(g)) {
      groupStart += groupRows;
      continue;
    }
    const metas = read.map(
      (name) =>
        group.columns.find((c) => c.meta_data?.path_in_schema.length === 1 && c.meta_data.path_in_schema[0] === name)
          ?.meta_data,
    );
    const kinds = read.map((name, k) => fastKind(elements.get(name)!.element, metas[k]));
    let emitted = 0;
    if (pages && groupRows > 0 && kinds.every((k) => k !== null)) {
      try {
        parquetGroupsRead.pages++;
        emitted = await fastGroup(
          source,
          file,
          groupStart,
          groupRows,
          read,
          metas.map((m) => m!),
          kinds.map((k) => k!),
          elements,
          pages,
          async (start, n, columns) => {
            await onBatch(batch(start, n, columns, groupStart + groupRows));
          },
          (name) => roleWhat(roleOf(name), kind),
        );
      } catch (e) {
        // A page the decoder doesn't take, before any row was handed on: the general reader reads the group.
        if (!(e instanceof Unsupported) || e.emitted > 0)
          throw e instanceof Unsupported
            ? badInput(`${file}: rows ${groupStart + e.emitted + 1} on cannot be read (${e.message})`)
            : e;
      }
    }
    if (emitted < groupRows) parquetGroupsRead.general++;
    for (let start = groupStart + emitted; start < groupStart + groupRows; start += SLICE_ROWS) {
      const end = Math.min(groupStart + groupRows, start + SLICE_ROWS);
      const sc = await generic();
      let data: unknown[][];
      try {
        data = await Promise.all(
          read.map((column) => sc.readColumn({ column, rowStart: start, rowEnd: end }) as Promise<unknown[]>),
        );
      } catch (e) {
        throw badInput(`${file}: damaged Parquet file: rows ${start + 1} to ${end} cannot be read (${messageOf(e)})`);
      }
      read.forEach((name, k) => {
        if (data[k].length !== end - start)
          throw badInput(
            `${file}: damaged Parquet file: column ${JSON.stringify(name)} has ${counted(data[k].length, "value")} for rows ${start + 1} to ${end}`,
          );
      });
      await onBatch(
        batch(
          start,
          end - start,
          data.map((values) => ({ kind: "values", values })),
          groupStart + groupRows,
        ),
      );
    }
    groupStart += groupRows;
  }
}

/** Row groups read by each decoder (for tests). */
export const parquetGroupsRead = { pages: 0, general: 0 };

class Unsupported extends Error {
  constructor(
    message: string,
    readonly emitted: number,
  ) {
    super(message);
  }
}

/** Rows decoded per column before a batch is handed on (a page holds ~1 MB). */
const BATCH_ROWS = 1 << 18;

/** A row group decoded page by page, handed to `emit` as the slowest column's pages come. */
async function fastGroup(
  source: ByteSource,
  file: string,
  groupStart: number,
  groupRows: number,
  read: string[],
  metas: ColumnMetaData[],
  kinds: NonNullable<ReturnType<typeof fastKind>>[],
  elements: Map<string, { element: SchemaElement }>,
  f: PageFunctions,
  emit: (start: number, n: number, columns: ColumnValues[]) => Promise<void>,
  what: (name: string) => string,
): Promise<number> {
  const chunks = await Promise.all(
    metas.map(async (m) => {
      const start = Number(m.dictionary_page_offset || m.data_page_offset);
      const end = start + Number(m.total_compressed_size);
      if (end > source.byteLength)
        throw badInput(
          `${file}: damaged Parquet file: a column chunk of rows ${groupStart + 1} to ${groupStart + groupRows} ends past the end of the file`,
        );
      return new Uint8Array(await source.slice(start, end));
    }),
  );
  const pages = chunks.map(
    (bytes, k) => new ColumnPages(bytes, elements.get(read[k])!.element, kinds[k], metas[k].codec, f),
  );
  const buffers = kinds.map((k) => new ColumnBuffer(k));
  let emitted = 0;
  while (emitted < groupRows) {
    for (let k = 0; k < pages.length; k++) {
      try {
        while (buffers[k].length < BATCH_ROWS && !pages[k].done) pages[k].next(buffers[k]);
      } catch (e) {
        if (e instanceof NullValue) throw rowError(file, groupStart + e.row, read[k], `the ${what(read[k])} is null`);
        if (e instanceof RankevalError) throw e;
        throw new Unsupported(`column ${JSON.stringify(read[k])}: ${messageOf(e)}`, emitted);
      }
    }
    const n = Math.min(groupRows - emitted, ...buffers.map((b) => b.length));
    if (n === 0)
      throw badInput(
        `${file}: damaged Parquet file: a column of rows ${groupStart + 1} to ${groupStart + groupRows} has ${counted(emitted, "value")}`,
      );
    await emit(
      groupStart + emitted,
      n,
      buffers.map((b) => b.take(n)),
    );
    emitted += n;
  }
  return emitted;
}
