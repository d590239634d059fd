import { closeSync, constants, createReadStream, fstatSync, openSync, readSync, statSync, type Stats } from "node:fs";
import { InputError, RankevalError } from "../errors/errors.js";
import type { ChunkSink } from "../input/formats.js";
import type { TextInput } from "../input/input.js";
import type { Progress } from "./progress.js";
import { magicOf } from "../io/magic.js";

const names = new Map<string, string>();

/** A file as messages name it (`-`: standard input). */
export const displayName = (path: string) => names.get(path) ?? (path === "-" ? "standard input" : path);

/** Names `path` `name` in every message until the returned function is called (--fuse's temporary run). */
export function namedAs(path: string, name: string): () => void {
  names.set(path, name);
  return () => names.delete(path);
}

export type ProgressSink = Pick<Progress, "start" | "update" | "done">;

/** A regular, not gzipped file's size (the parsers' sizing hint), else 0. */
export async function inputSize(path: string): Promise<number> {
  return textSize(inputInfo(path));
}

function textSize(info: InputInfo): number {
  return info.regular && !info.gzip ? info.size : 0;
}

export interface InputInfo {
  /** Can be read again from its start (not stdin, a pipe or a device). */
  regular: boolean;
  size: number;
  gzip: boolean;
  /** With `read`, a file's bytes up to READ_AT_ONCE. */
  bytes?: Uint8Array;
}

/** What `path` is (synchronous: cheaper, once per input); a pipe is not opened. */
export function inputInfo(path: string, read = false): InputInfo {
  const none = () => ({ regular: false, size: 0, gzip: false });
  if (path === "-") return none();
  try {
    const s = statSync(path);
    if (!s.isFile()) return none();
    if (read && s.size <= READ_AT_ONCE) {
      const bytes = readWhole(path, s.size);
      if (bytes) return { regular: true, size: s.size, gzip: isGzip(bytes), bytes };
    }
    return { regular: true, size: s.size, gzip: s.size >= 2 && isGzip(readHead(path)) };
  } catch {
    return none();
  }
}

function openRead(path: string, name: string, flags: string | number = "r"): number {
  try {
    return openSync(path, flags);
  } catch (e) {
    throw cannotRead(name, e);
  }
}

function readHead(path: string): Uint8Array {
  const fd = openRead(path, displayName(path));
  try {
    const head = new Uint8Array(2);
    readSync(fd, head, 0, 2, 0);
    return head;
  } catch (e) {
    throw cannotRead(displayName(path), e);
  } finally {
    closeSync(fd);
  }
}

const isGzip = (b: Uint8Array) => magicOf(b) === "gzip";

export async function rereadable(path: string): Promise<boolean> {
  if (path === "-") return false;
  try {
    return statSync(path).isFile();
  } catch {
    return false; // readInto reports the error
  }
}

/** Refuses standard input or one pipe given for two inputs (the first read would take its bytes). */
export async function checkReadOnce(inputs: readonly (readonly [string, string])[]): Promise<void> {
  const seen = new Map<string, string>();
  for (const [what, path] of inputs) {
    let key: string | null = null;
    try {
      const s = path === "-" ? fstatSync(0) : statSync(path);
      if (path === "-" || s.isFIFO() || s.isSocket()) key = `${s.dev}:${s.ino}`;
    } catch {
      if (path === "-") key = "-"; // standard input closed: still one input at most
    }
    if (key === null) continue;
    const given = `${what} ${path}`;
    const before = seen.get(key);
    if (before !== undefined)
      throw new RankevalError(
        "bad-option",
        `${before} and ${given} are the same pipe or standard input, which can be read only once`,
      );
    seen.set(key, given);
  }
}

export function textInput(path: string, progress?: ProgressSink, info = inputInfo(path, true)): TextInput {
  return { name: displayName(path), size: textSize(info), read: (sink) => readInto(path, sink, progress, info) };
}

const READ_ERRORS: Record<string, string> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "is a directory, not a file",
  ENOTDIR: "a part of the path is not a directory",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "the name is too long",
  EMFILE: "too many open files",
  EIO: "input/output error",
  ENXIO: "no such device",
  EAGAIN: "no data (non-blocking input)",
};

/** An InputError about a whole file, at no line. */
export class FileError extends InputError {
  constructor(file: string, reason: string) {
    super(file, 0, 0, reason);
    this.message = `${file}: ${reason}`;
  }
}

export function cannotRead(name: string, e: unknown): InputError {
  const code = (e as NodeJS.ErrnoException).code;
  const why = code ? `${READ_ERRORS[code] ?? "error"} (${code})` : String((e as Error).message ?? e);
  return new FileError(name, `cannot read it: ${why}`);
}

function notAFile(name: string, stats: Stats): InputError | null {
  if (stats.isDirectory()) return new FileError(name, "cannot read it: is a directory, not a file");
  if (stats.isSocket()) return new FileError(name, "cannot read it: is a socket, not a file or a pipe");
  return null;
}

/**
 * A FIFO or device as chunks, opened O_NONBLOCK: in libuv's pool an open of a FIFO without a writer
 * waits, holding even process.exit(). A FIFO is read as a pipe in the event loop, a terminal as one,
 * other devices by reads that never wait.
 */
export async function specialChunks(path: string, stats: Stats): Promise<AsyncIterable<Uint8Array>> {
  const name = displayName(path);
  const refused = notAFile(name, stats);
  if (refused) throw refused;
  const fd = openRead(path, name, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if (stats.isFIFO()) {
      const { Socket } = await import("node:net");
      return new Socket({ fd, readable: true, writable: false });
    }
    const tty = await import("node:tty");
    if (tty.isatty(fd)) return new tty.ReadStream(fd);
  } catch (e) {
    closeSync(fd);
    throw cannotRead(name, e);
  }
  return deviceChunks(fd, name);
}

async function* deviceChunks(fd: number, name: string): AsyncGenerator<Uint8Array> {
  try {
    yield* reads(fd, name, true);
  } finally {
    closeSync(fd);
  }
}

/** `fd`'s bytes by synchronous reads of CHUNK into one buffer (valid until the next), or `fresh` ones. */
function* reads(fd: number, name: string, fresh: boolean): Generator<Uint8Array> {
  let buf = new Uint8Array(CHUNK);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, CHUNK, null);
    } catch (e) {
      throw cannotRead(name, e);
    }
    if (n === 0) return;
    yield buf.subarray(0, n);
    if (fresh) buf = new Uint8Array(CHUNK);
  }
}

const CHUNK = 1 << 20;

/** Files up to this size are read in one call: a stream costs more. */
const READ_AT_ONCE = 4 << 20;

let zlib: typeof import("node:zlib") | undefined;

/** Streams a file (or `-`) into `sink` in 1 MiB chunks, gunzipped if gzip, in one pass. */
export async function readInto(
  path: string,
  sink: ChunkSink,
  progress?: ProgressSink,
  known?: InputInfo,
): Promise<void> {
  const name = displayName(path);
  if (known?.bytes && !known.gzip) return pushAll(name, known.bytes, sink, progress);
  let size = 0;
  let stats: Stats | undefined;
  if (path !== "-") {
    try {
      stats = statSync(path);
    } catch (e) {
      throw cannotRead(path, e);
    }
    const refused = notAFile(path, stats);
    if (refused) throw refused;
    size = stats.size;
  }
  if (stats?.isFile() && size <= READ_AT_ONCE) {
    const bytes = readWhole(path, size);
    if (bytes && !isGzip(bytes)) return pushAll(name, bytes, sink, progress);
    // gzip, or changed under us: streamed below.
  } else if (stats?.isFile() && !(known ? known.gzip : size >= 2 && isGzip(readHead(path)))) {
    return readRegular(path, name, size, sink, progress);
  }
  let source: AsyncIterable<Uint8Array>;
  try {
    source =
      path === "-"
        ? process.stdin
        : stats?.isFile()
          ? createReadStream(path, { highWaterMark: CHUNK })
          : await specialChunks(path, stats!);
  } catch (e) {
    if (e instanceof RankevalError) throw e;
    throw cannotRead(name, e); // standard input closed (`<&-`): Node cannot make a stream of it
  }
  const it = source[Symbol.asyncIterator]();
  let read = 0;
  progress?.start(name, size);
  try {
    // Gzip's magic number is two bytes; a pipe may hand over one at a time.
    const head: Uint8Array[] = [];
    let headBytes = 0;
    let ended = false;
    while (headBytes < 2) {
      const r = await it.next();
      if (r.done) {
        ended = true;
        break;
      }
      head.push(r.value);
      headBytes += r.value.length;
    }
    if (headBytes === 0) return;
    const first = Buffer.concat(head);
    const gzip = isGzip(first);
    const counted = (async function* (): AsyncGenerator<Uint8Array> {
      read += first.length;
      yield first;
      while (!ended) {
        const r = await it.next();
        if (r.done) return;
        read += r.value.length;
        yield r.value;
      }
    })();
    let chunks: AsyncIterable<Uint8Array> = counted;
    if (gzip) {
      zlib ??= await import("node:zlib");
      const { Readable } = await import("node:stream");
      const gunzip = zlib.createGunzip({ chunkSize: CHUNK });
      const compressed = Readable.from(counted);
      // pipe() does not pass a read error on: without this the gunzip would wait for ever.
      compressed.on("error", (e) => gunzip.destroy(e));
      chunks = compressed.pipe(gunzip);
    }
    for await (const chunk of chunks) {
      sink.push(chunk);
      progress?.update(read);
      const wait = sink.ready?.();
      if (wait) await wait;
    }
  } catch (e) {
    if (e instanceof RankevalError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "Z_DATA_ERROR" || code === "Z_BUF_ERROR") {
      const why = code === "Z_BUF_ERROR" ? "it ends before its end (truncated)" : (e as Error).message;
      throw new FileError(name, `not valid gzip: ${why}`);
    }
    if (e instanceof RangeError) throw e; // out of memory: the caller says so
    if (!code) throw e; // not a read error: a bug, not the file's
    throw cannotRead(name, e);
  } finally {
    progress?.done();
    // A pipe left open after an error would keep the process alive.
    it.return?.().catch(() => {});
  }
}

/** A regular file's `size` bytes; null where it changed (streamed instead). */
function readWhole(path: string, size: number): Uint8Array | null {
  const fd = openRead(path, path);
  try {
    const bytes = new Uint8Array(size);
    let at = 0;
    while (at < size) {
      const n = readSync(fd, bytes, at, size - at, at);
      if (n === 0) return null;
      at += n;
    }
    // One more byte: a file that grew since its stat is streamed instead.
    return readSync(fd, new Uint8Array(1), 0, 1, size) === 0 ? bytes : null;
  } catch (e) {
    throw cannotRead(path, e);
  } finally {
    closeSync(fd);
  }
}

/** A regular file read synchronously: a stream's reads wait for libuv's thread, which waits for a core (a quarter of the judgments' time). */
async function readRegular(
  path: string,
  name: string,
  size: number,
  sink: ChunkSink,
  progress?: ProgressSink,
): Promise<void> {
  const fd = openRead(path, name);
  progress?.start(name, size);
  try {
    let read = 0;
    for (const chunk of reads(fd, name, false)) {
      read += chunk.length;
      sink.push(chunk);
      progress?.update(read);
      const wait = sink.ready?.();
      if (wait) await wait;
    }
  } finally {
    closeSync(fd);
    progress?.done();
  }
}

async function pushAll(name: string, bytes: Uint8Array, sink: ChunkSink, progress?: ProgressSink): Promise<void> {
  progress?.start(name, bytes.length);
  for (let at = 0; at < bytes.length; at += CHUNK) {
    sink.push(bytes.subarray(at, Math.min(at + CHUNK, bytes.length)));
    const wait = sink.ready?.();
    if (wait) await wait;
  }
  progress?.done();
}
