// Parquet and Arrow inputs in Node: a file, or a Hive-partitioned dataset directory read as one input
// (files in byte order of their paths), read in byte ranges so only one row group is in memory.
import { open, type FileHandle } from "node:fs/promises";
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { gunzipSync, constants as zlibConstants } from "node:zlib";
import { badInput } from "../errors/errors.js";
import type { ColumnNames } from "../io/column-names.js";
import type { ByteSource, ColumnBatch, OnBatch } from "../io/columnar.js";
import type { RowsKind } from "../io/json.js";
import { compareBytes } from "../c/strings.js";
import { magicOf } from "../io/magic.js";
import { decideFormat, formatOf, runTagOf, type FormatDecision, type InputFormat } from "../input/formats.js";
import type { BatchInput } from "../input/input.js";
import { cannotRead, displayName, specialChunks, type ProgressSink } from "./file-read.js";

export const COLUMNAR_HINT = "name them with --columns qid=NAME,docid=NAME,value=NAME";

const PARTITION = /^([^=/]+)=([^/]*)$/;

/** Hive's name for a null partition value. */
const HIVE_NULL = "__HIVE_DEFAULT_PARTITION__";

/** Whether a directory is one dataset, not a directory of runs: a Hive partition, holds one, or `_SUCCESS`. */
export function isDataset(dir: string): boolean {
  if (dir.split("/").some((p) => PARTITION.test(p))) return true;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  return names.includes("_SUCCESS") || names.some((n) => PARTITION.test(n) && isDirectory(`${dir}/${n}`));
}

export function statOf(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

export const isDirectory = (path: string) => statOf(path)?.isDirectory() === true;

/** The path without its `key=value` components (shards evaluated apart carry the whole's name). */
export function datasetName(path: string): string {
  const parts = path.replace(/\/+$/, "").split("/");
  if (!parts.some((p) => PARTITION.test(p))) return path;
  return parts.filter((p) => !PARTITION.test(p)).join("/") || path;
}

/** A columnar input's run tag without a tag column: its dataset's name without extension. */
export function columnarRunTag(path: string): string {
  return runTagOf(datasetName(path).replace(/\/+$/, "") || path);
}

export interface Part {
  file: string;
  partition: Record<string, string>;
}

export interface ColumnarInput {
  format: "parquet" | "arrow";
  parts: Part[];
}

function partFormat(name: string): "parquet" | "arrow" | null {
  const f = formatOf(name);
  return f === "parquet" || f === "arrow" ? f : null;
}

/** A columnar input's files in byte order with their partition values; `_` and `.` files skipped as Spark does. */
export function columnarInput(path: string, given?: InputFormat): ColumnarInput {
  if (path === "-" || !isDirectory(path)) {
    const { format } = fileFormat(path, given);
    if (format !== "parquet" && format !== "arrow") throw new Error(`columnarInput: ${path} is ${format}`);
    return { format, parts: [{ file: path, partition: {} }] };
  }
  const files: Part[] = [];
  const walk = (dir: string, partition: Record<string, string>) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (e) {
      throw badInput(`${dir}: cannot list it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
    for (const name of names.sort(compareBytes)) {
      if (name.startsWith(".") || name.startsWith("_")) continue;
      const path = `${dir.replace(/\/+$/, "")}/${name}`;
      if (isDirectory(path)) {
        const m = PARTITION.exec(name);
        walk(
          path,
          m ? { ...partition, [unescapeHive(m[1])]: m[2] === HIVE_NULL ? "" : unescapeHive(m[2]) } : partition,
        );
      } else files.push({ file: path, partition });
    }
  };
  walk(path, {});
  const format =
    given === "parquet" || given === "arrow" ? given : files.map((f) => partFormat(f.file)).find((f) => f !== null);
  if (!files.length || !format)
    throw badInput(
      `${path}: no Parquet or Arrow files in it${
        files.length
          ? ` (it has ${files
              .slice(0, 3)
              .map((f) => f.file)
              .join(", ")}${files.length > 3 ? ", ..." : ""})`
          : ""
      }`,
    );
  const other = given === undefined ? files.find((f) => partFormat(f.file) !== format) : undefined;
  if (other)
    throw badInput(
      `${other.file}: not a ${format === "parquet" ? "Parquet" : "Arrow"} file as the rest of the dataset ${path} (the files of a dataset are all of one format)`,
    );
  return { format, parts: files };
}

function unescapeHive(s: string): string {
  return s.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** Whether `path` is a Parquet or Arrow file, or a directory of them. */
export function isColumnarPath(path: string, given?: InputFormat): boolean {
  if (path !== "-" && isDirectory(path)) {
    if (given !== undefined) return given === "parquet" || given === "arrow";
    if (isDataset(path)) return true;
    try {
      return readdirSync(path).some((n) => !n.startsWith(".") && !n.startsWith("_") && partFormat(n) !== null);
    } catch {
      return false;
    }
  }
  return fileFormat(path, given).columnar;
}

/** The start of the first line of text (gunzipped: a .json.gz of JSON lines), or undefined for binary. */
function firstLineOf(head: Uint8Array): string | undefined {
  const magic = magicOf(head);
  let text = head;
  if (magic === "gzip") {
    try {
      // A head's worth of a gzip stream: flushed, not finished (the rest is unread).
      text = gunzipSync(head, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    } catch {
      return undefined; // its reader says what is wrong
    }
  } else if (magic !== null) return undefined;
  const nl = text.indexOf(10);
  return new TextDecoder().decode(nl < 0 ? text : text.subarray(0, nl));
}

/** Enough of a first line to tell a JSON lines row (isJsonLinesRow reads its start). */
const FIRST_LINE_BYTES = 1024;

/** What a file holds, from a regular file's first and last 8 bytes and first line (pipes by their name: read once). */
export function fileFormat(path: string, given?: InputFormat): FormatDecision {
  const stat = given === undefined && path !== "-" ? statOf(path) : undefined;
  if (!stat?.isFile()) return decideFormat(path, { given });
  const { size } = stat;
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return decideFormat(path); // its reader says why it cannot be read
  }
  try {
    const at = (start: number, bytes = 8) => {
      const b = new Uint8Array(Math.min(bytes, size));
      return b.subarray(0, readSync(fd, b, 0, b.length, start));
    };
    const head = at(0, FIRST_LINE_BYTES);
    return decideFormat(path, {
      head: head.subarray(0, 8),
      tail: at(Math.max(0, size - 8)),
      firstLine: firstLineOf(head),
    });
  } finally {
    closeSync(fd);
  }
}

/** A file read in byte ranges; `read` counts the bytes read. */
export async function fileSource(
  path: string,
  refused: (path: string, e: unknown) => Error = cannotRead,
): Promise<{ source: ByteSource; handle: FileHandle; read: () => number }> {
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch (e) {
    throw refused(path, e);
  }
  const { size } = await handle.stat();
  let read = 0;
  const source: ByteSource = {
    byteLength: size,
    async slice(start: number, end = size) {
      const bytes = new Uint8Array(Math.max(0, Math.min(end, size) - start));
      let at = 0;
      while (at < bytes.length) {
        const { bytesRead } = await handle.read(bytes, at, bytes.length - at, start + at);
        if (bytesRead === 0) throw badInput(`${path}: the file became shorter while it was read`);
        at += bytesRead;
      }
      read += bytes.length;
      return bytes.buffer;
    },
  };
  return { source, handle, read: () => read };
}

async function* stdinChunks(): AsyncGenerator<Uint8Array> {
  for await (const c of process.stdin) yield c as Uint8Array;
}

type ColumnarChoice = { format?: InputFormat; columns?: ColumnNames; hint?: string };

async function readColumnar(
  path: string,
  kind: RowsKind,
  choice: ColumnarChoice,
  onBatch: OnBatch,
  progress?: ProgressSink,
): Promise<void> {
  const input = columnarInput(path, choice.format);
  const [{ readParquet }, { readArrow }] = await Promise.all([import("../io/parquet.js"), import("../io/arrow.js")]);
  for (const part of input.parts) {
    const o = {
      file: displayName(part.file),
      kind,
      columns: choice.columns,
      hint: choice.hint ?? COLUMNAR_HINT,
      partition: part.partition,
    };
    if (part.file === "-") {
      if (input.format === "parquet")
        throw badInput(
          "standard input: Parquet cannot be read from standard input or a pipe (its footer, at the end, says where its rows are): give the file",
        );
      await readArrow({ chunks: stdinChunks() }, o, onBatch);
      continue;
    }
    let stats;
    try {
      stats = statSync(part.file);
    } catch (e) {
      throw cannotRead(part.file, e);
    }
    if (!stats.isFile()) {
      if (input.format === "parquet")
        throw badInput(
          `${part.file}: Parquet cannot be read from a pipe (its footer, at the end, says where its rows are): give the file`,
        );
      await readArrow({ chunks: await specialChunks(part.file, stats) }, o, onBatch);
      continue;
    }
    const { source, handle, read } = await fileSource(part.file);
    progress?.start(o.file, source.byteLength);
    try {
      const counted = async (b: ColumnBatch) => {
        await onBatch(b);
        progress?.update(read());
      };
      if (input.format === "parquet") await readParquet(source, o, counted);
      else await readArrow({ source }, o, counted);
    } finally {
      progress?.done(o.file);
      await handle.close();
    }
  }
}

/** A columnar input (file, dataset directory, Arrow stream on stdin) as the input layer reads it. */
export function batchInput(path: string, choice: ColumnarChoice, progress?: ProgressSink): BatchInput {
  const batches: BatchInput["batches"] = (kind, onBatch) => readColumnar(path, kind, choice, onBatch, progress);
  return { name: displayName(path), runTag: columnarRunTag(path), batches };
}
