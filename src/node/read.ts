import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { RankevalError } from "../errors.js";
import type { Progress } from "./progress.js";

/** The parsers' side of reading: chunks in, any size, any boundary. */
export interface ChunkSink {
  push(chunk: Uint8Array): void;
  /** A promise to await before the next chunk (back-pressure), or null to go on. */
  ready?(): Promise<void> | null;
}

/** Where readInto reports how far it got (Progress, on a terminal). */
export type ProgressSink = Pick<Progress, "start" | "update" | "done">;

/**
 * The size of a file's text in bytes, a hint for sizing the parsers' columns: 0 (no hint) for
 * standard input and for gzip files, whose size says little about their text.
 */
export async function inputSize(path: string): Promise<number> {
  if (path === "-") return 0;
  try {
    const file = await open(path);
    try {
      const head = new Uint8Array(2);
      await file.read(head, 0, 2, 0);
      return head[0] === 0x1f && head[1] === 0x8b ? 0 : (await file.stat()).size;
    } finally {
      await file.close();
    }
  } catch {
    return 0; // readInto reports the error
  }
}

/**
 * Streams a file (or standard input for `-`) into `sink` in 1 MiB chunks, gunzipping it when it
 * starts with gzip's magic bytes, so memory holds one chunk of the file at a time.
 */
export async function readInto(path: string, sink: ChunkSink, progress?: ProgressSink): Promise<void> {
  const name = path === "-" ? "standard input" : path;
  let size = 0;
  if (path !== "-") {
    try {
      const s = await stat(path);
      if (s.isDirectory()) throw new RankevalError("bad-input", `${path}: is a directory, not a file`);
      size = s.size;
    } catch (e) {
      if (e instanceof RankevalError) throw e;
      throw new RankevalError("bad-input", `${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
  }
  const source: AsyncIterable<Buffer> = path === "-" ? process.stdin : createReadStream(path, { highWaterMark: 1 << 20 });
  const it = source[Symbol.asyncIterator]();
  let read = 0;
  progress?.start(name, size);
  async function* raw(first: Buffer): AsyncGenerator<Buffer> {
    yield first;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield r.value;
    }
  }
  try {
    const first = await it.next();
    if (first.done) return;
    const head = first.value;
    const gzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
    const counted = (async function* () {
      for await (const chunk of raw(head)) {
        read += chunk.length;
        yield chunk;
      }
    })();
    const chunks: AsyncIterable<Buffer> = gzip ? Readable.from(counted).pipe(createGunzip({ chunkSize: 1 << 20 })) : counted;
    for await (const chunk of chunks) {
      sink.push(chunk);
      progress?.update(read);
      const wait = sink.ready?.();
      if (wait) await wait;
    }
  } catch (e) {
    if (e instanceof RankevalError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "Z_DATA_ERROR" || code === "Z_BUF_ERROR") throw new RankevalError("bad-input", `${name}: not valid gzip (${(e as Error).message})`);
    throw new RankevalError("bad-input", `${name}: cannot read it (${code ?? String(e)})`);
  } finally {
    progress?.done();
  }
}
