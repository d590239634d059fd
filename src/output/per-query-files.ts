/**
 * Per-query tables as files (Parquet, Arrow, CSV, JSON), read back by their bytes. Values are exact:
 * doubles, or the shortest round-trip decimal with -0, NaN and infinities kept. Parquet's doubles are
 * PLAIN: hyparquet-writer's dictionary keys by SameValueZero, folding -0 into 0. Browser compatible.
 */
import { counted } from "../errors/counted.js";
import { badInput } from "../errors/errors.js";
import { bytesSource, type ByteSource } from "../io/columnar.js";
import { magicOf } from "../io/magic.js";
import { csvField, csvRecords } from "./csv.js";
import {
  checkMeta,
  CONVENTIONS_KEY,
  damaged,
  emptyTable,
  CSV_PREFIX,
  META_KEY,
  type PerQueryMeta,
  type PerQueryTable,
} from "./per-query.js";

export type PerQueryFormat = "parquet" | "arrow" | "arrows" | "csv" | "json";

/** Rows of a Parquet row group: what a streaming merge holds of each shard at once. */
export const PARQUET_GROUP_ROWS = 1 << 14;

/** The format of a per-query file from its extension (.feather: arrow; .arrows: IPC stream), else null. */
export function perQueryFormatOf(name: string): PerQueryFormat | null {
  const m = /\.(parquet|arrow|feather|arrows|csv|json)$/i.exec(name);
  if (!m) return null;
  const ext = m[1].toLowerCase();
  return ext === "feather" ? "arrow" : (ext as PerQueryFormat);
}

/** The shortest round-trip decimal, -0 kept. */
const numberText = (v: number) => (Object.is(v, -0) ? "-0" : String(v));

const names = (meta: PerQueryMeta) => ["run", "qid", ...meta.columns.map((c) => c.name)];

const targets = (t: PerQueryTable): [string, string[] | Float64Array][] => [
  ["run", t.run],
  ["qid", t.qid],
  ...t.meta.columns.map((c): [string, string[] | Float64Array] => [
    c.name,
    c.kind === "number" ? t.numbers[c.name] : t.strings[c.name],
  ]),
];

export async function writePerQuery(t: PerQueryTable, format: PerQueryFormat): Promise<Uint8Array> {
  const metaJson = JSON.stringify(t.meta);
  const conventions = t.meta.conventionLines.join("\n");
  const n = t.qid.length;
  const columns = targets(t);
  if (format === "parquet") {
    const { parquetWriteBuffer } = await import("hyparquet-writer");
    const buffer = parquetWriteBuffer({
      columnData: columns.map(([name, data]) =>
        data instanceof Float64Array
          ? { name, data, type: "DOUBLE" as const, nullable: false, encoding: "PLAIN" as const }
          : { name, data, type: "STRING" as const, nullable: false },
      ),
      kvMetadata: [
        { key: META_KEY, value: metaJson },
        { key: CONVENTIONS_KEY, value: conventions },
      ],
      createdBy: `rankeval${t.meta.rankeval ? ` version ${t.meta.rankeval}` : ""}`,
      // --merge holds a group of each shard at once.
      rowGroupSize: PARQUET_GROUP_ROWS,
    });
    return new Uint8Array(buffer);
  }
  if (format === "arrow" || format === "arrows") {
    const {
      Field,
      Float64,
      RecordBatchFileWriter,
      RecordBatchStreamWriter,
      Schema,
      Table,
      Utf8,
      vectorFromArray,
      makeData,
      RecordBatch,
      Struct,
    } = await import("apache-arrow");
    const fields = columns.map(
      ([name, a]) => new Field(name, a instanceof Float64Array ? new Float64() : new Utf8(), false),
    );
    const schema = new Schema(
      fields,
      new Map([
        [META_KEY, metaJson],
        [CONVENTIONS_KEY, conventions],
      ]),
    );
    const children = columns.map(([, a]) =>
      a instanceof Float64Array
        ? makeData({ type: new Float64(), length: n, data: a })
        : vectorFromArray(a, new Utf8()).data[0],
    );
    const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length: n, children }));
    const table = new Table(schema, [batch]);
    const writer = format === "arrow" ? RecordBatchFileWriter.writeAll(table) : RecordBatchStreamWriter.writeAll(table);
    return writer.toUint8Array(true);
  }
  const enc = new TextEncoder();
  if (format === "csv") {
    const lines = [`${CSV_PREFIX}${metaJson}`, names(t.meta).map(csvField).join(",")];
    for (let i = 0; i < n; i++)
      lines.push(columns.map(([, a]) => (a instanceof Float64Array ? numberText(a[i]) : csvField(a[i]))).join(","));
    return enc.encode(`${lines.join("\n")}\n`);
  }
  const rows: string[] = [];
  const json = (v: number) =>
    Number.isNaN(v) ? "null" : Number.isFinite(v) ? numberText(v) : JSON.stringify(String(v));
  for (let i = 0; i < n; i++) {
    const fields = columns.map(
      ([name, a]) => `${JSON.stringify(name)}: ${a instanceof Float64Array ? json(a[i]) : JSON.stringify(a[i])}`,
    );
    rows.push(`    {${fields.join(", ")}}`);
  }
  return enc.encode(`{\n  "metadata": ${metaJson},\n  "rows": [\n${rows.join(",\n")}\n  ]\n}\n`);
}

/** A per-query table read from a file, its format told by its first bytes. */
export async function readPerQuery(source: ByteSource, file: string): Promise<PerQueryTable> {
  const magic = magicOf(new Uint8Array(await source.slice(0, Math.min(source.byteLength, 8))));
  if (magic === "parquet") return readParquetTable(source, file);
  if (magic === "arrow-file" || magic === "arrow-stream") return readArrowTable(source, file);
  const all = new TextDecoder().decode(new Uint8Array(await source.slice(0, source.byteLength)));
  if (all.startsWith(CSV_PREFIX)) return readCsvTable(all, file);
  if (/^\s*\{/.test(all)) return readJsonTable(all, file);
  throw badInput(
    `${file}: not per-query results rankeval wrote with --per-query-out (Parquet, Arrow, CSV starting with "${CSV_PREFIX.trim()}", or JSON)`,
  );
}

export function readPerQueryBytes(bytes: Uint8Array, file: string): Promise<PerQueryTable> {
  return readPerQuery(bytesSource(bytes), file);
}

/** The metadata's columns checked against the file's. */
function checkColumns(meta: PerQueryMeta, found: readonly string[], file: string): void {
  for (const name of names(meta)) {
    if (!found.includes(name))
      throw damaged(
        file,
        `no column ${JSON.stringify(name)} (its columns are ${found.map((f) => JSON.stringify(f)).join(", ")})`,
      );
  }
}

function parseMeta(json: string | undefined, file: string): PerQueryMeta {
  if (json === undefined)
    throw badInput(`${file}: not per-query results rankeval wrote with --per-query-out (no "${META_KEY}" metadata)`);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    throw damaged(file, `its "${META_KEY}" metadata is not JSON (${(e as Error).message})`);
  }
  return checkMeta(value, file);
}

/** A per-query Parquet file's footer, its metadata checked, and a scan of `columns` (default all). */
async function parquetTable(source: ByteSource, file: string, columns?: (meta: PerQueryMeta) => string[]) {
  const { parquetFooter, parquetKeyValues } = await import("../io/parquet.js");
  const metadata = await parquetFooter(source, file);
  const meta = parseMeta(parquetKeyValues(metadata)[META_KEY], file);
  const { parquetScan, parquetSchema } = await import("hyparquet");
  const { compressors } = await import("hyparquet-compressors");
  checkColumns(
    meta,
    parquetSchema(metadata).children.map((c) => c.element.name),
    file,
  );
  return { metadata, meta, scan: await parquetScan({ file: source, metadata, columns: columns?.(meta), compressors }) };
}

async function readParquetTable(source: ByteSource, file: string): Promise<PerQueryTable> {
  const { metadata, meta, scan } = await parquetTable(source, file);
  const t = emptyTable(meta, Number(metadata.num_rows));
  for (const { rowStart, rowEnd } of scan.ranges)
    for (const [column, into] of targets(t)) {
      const v = (await scan.readColumn({ column, rowStart, rowEnd })) as ArrayLike<unknown>;
      for (let i = 0; i < v.length; i++) (into as unknown[])[rowStart + i] = v[i];
    }
  return t;
}

async function readArrowTable(source: ByteSource, file: string): Promise<PerQueryTable> {
  const { tableFromIPC } = await import("apache-arrow");
  let table;
  try {
    table = tableFromIPC(new Uint8Array(await source.slice(0, source.byteLength)));
  } catch (e) {
    throw badInput(`${file}: damaged Arrow IPC data: ${(e as Error).message}`);
  }
  const meta = parseMeta(table.schema.metadata.get(META_KEY), file);
  checkColumns(
    meta,
    table.schema.fields.map((f) => f.name),
    file,
  );
  const t = emptyTable(meta, table.numRows);
  for (const [name, into] of targets(t)) {
    const v = table.getChild(name)!;
    for (let i = 0; i < table.numRows; i++) (into as unknown[])[i] = v.get(i);
  }
  return t;
}

/** A CSV number as written (shortest round-trip decimal, -0, NaN, Infinity), else null. */
function csvNumber(s: string): number | null {
  if (s === "NaN") return NaN;
  if (s === "Infinity") return Infinity;
  if (s === "-Infinity") return -Infinity;
  if (!/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s)) return null;
  return Number(s);
}

function readCsvTable(text: string, file: string): PerQueryTable {
  const nl = text.indexOf("\n");
  const meta = parseMeta(text.slice(CSV_PREFIX.length, nl < 0 ? text.length : nl), file);
  const body = nl < 0 ? text.length : nl + 1;
  const records: string[][] = [];
  let header: string[] | null = null;
  try {
    for (const r of csvRecords(text, body, 2)) {
      if (!header) header = r.fields;
      else {
        if (r.fields.length !== header.length)
          throw new Error(`line ${r.line + 1}: ${counted(r.fields.length, "field")}, the header has ${header.length}`);
        records.push(r.fields);
      }
    }
  } catch (e) {
    throw damaged(file, `${(e as Error).message}`);
  }
  checkColumns(meta, header ?? [], file);
  const t = emptyTable(meta, records.length);
  for (const [name, into] of targets(t)) {
    const k = header!.indexOf(name);
    records.forEach((f, i) => {
      if (!(into instanceof Float64Array)) into[i] = f[k];
      else {
        const v = csvNumber(f[k]);
        if (v === null)
          throw badInput(`${file}:${i + 3}: ${JSON.stringify(f[k])} in column ${JSON.stringify(name)} is not a number`);
        into[i] = v;
      }
    });
  }
  return t;
}

function readJsonTable(text: string, file: string): PerQueryTable {
  let doc: { metadata?: unknown; rows?: unknown };
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw badInput(
      `${file}: not per-query results rankeval wrote with --per-query-out: not JSON (${(e as Error).message})`,
    );
  }
  const meta = checkMeta(doc?.metadata, file);
  if (!Array.isArray(doc.rows)) throw damaged(file, `no "rows" array`);
  const rows = doc.rows as Record<string, unknown>[];
  const t = emptyTable(meta, rows.length);
  rows.forEach((r, i) => {
    if (!r || typeof r !== "object") throw damaged(file, `row ${i + 1} is not an object`);
    if (typeof r.run !== "string" || typeof r.qid !== "string")
      throw damaged(file, `row ${i + 1} has no "run" and "qid" strings`);
    t.run[i] = r.run;
    t.qid[i] = r.qid;
    for (const c of meta.columns) {
      const v = r[c.name];
      if (c.kind === "string") {
        if (typeof v !== "string") throw damaged(file, `row ${i + 1}: ${JSON.stringify(c.name)} is not a string`);
        t.strings[c.name][i] = v;
      } else {
        const x = v === null ? NaN : v === "Infinity" ? Infinity : v === "-Infinity" ? -Infinity : v;
        if (typeof x !== "number") throw damaged(file, `row ${i + 1}: ${JSON.stringify(c.name)} is not a number`);
        t.numbers[c.name][i] = x;
      }
    }
  });
  return t;
}

/** A chunk of a run's rows in a per-query file (byte order of qid). */
export interface PerQueryChunk {
  qid: string[];
  numbers: Record<string, ArrayLike<number>>;
}

/** A per-query Parquet file's metadata, and each run's rows (by index) a row group at a time; null if not Parquet. */
export async function openPerQueryParquet(
  source: ByteSource,
  file: string,
): Promise<{ meta: PerQueryMeta; chunks: (run: number) => AsyncGenerator<PerQueryChunk> } | null> {
  if (magicOf(new Uint8Array(await source.slice(0, Math.min(source.byteLength, 4)))) !== "parquet") return null;
  const numbers = (meta: PerQueryMeta) => meta.columns.filter((c) => c.kind === "number").map((c) => c.name);
  const { metadata, meta, scan } = await parquetTable(source, file, (m) => ["qid", ...numbers(m)]);
  const numeric = numbers(meta);
  const groups: number[] = [0];
  for (const g of metadata.row_groups) groups.push(groups[groups.length - 1] + Number(g.num_rows));
  const starts = [0];
  for (const r of meta.runs) starts.push(starts[starts.length - 1] + r.queries);
  if (starts[starts.length - 1] !== groups[groups.length - 1])
    throw damaged(
      file,
      `${counted(groups[groups.length - 1], "row")}, its metadata's runs have ${starts[starts.length - 1]}`,
    );
  async function* chunks(run: number): AsyncGenerator<PerQueryChunk> {
    const end = starts[run + 1];
    for (let at = starts[run]; at < end; ) {
      const to = Math.min(end, groups.find((g) => g > at)!);
      const read = async (name: string) =>
        (await scan.readColumn({ column: name, rowStart: at, rowEnd: to })) as ArrayLike<unknown>;
      const qid = Array.from(await read("qid"), String);
      const numbers: Record<string, ArrayLike<number>> = {};
      for (const name of numeric) numbers[name] = (await read(name)) as ArrayLike<number>;
      yield { qid, numbers };
      at = to;
    }
  }
  return { meta, chunks };
}
