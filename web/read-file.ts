// Files read chunk by chunk into a parser, gunzipped if need be.
import { RankevalError } from "../src/errors/errors.js";
import type { ChunkSink } from "../src/input/formats.js";
import { magicOf } from "../src/io/magic.js";

/** A parser; linesRead for progress. */
export type Sink = ChunkSink & { readonly linesRead?: number };

/** `read`: the file's bytes (before gunzip). */
export type OnProgress = (read: number, lines: number, seconds: number) => void;

export async function isGzip(file: File): Promise<boolean> {
  return magicOf(new Uint8Array(await file.slice(0, 2).arrayBuffer())) === "gzip";
}

const CHUNK = 1 << 20;

/**
 * Streams `file` into `sink`; uncompressed, by BYOB into one buffer (fresh ones cost 0.5 s a GB in
 * Chromium). One file at a time: two at once stalled a BYOB read for good in Chromium 156.
 */
export async function readInto(file: File, sink: Sink, onProgress: OnProgress): Promise<void> {
  const gzip = await isGzip(file);
  const started = performance.now();
  let read = 0;
  let last = 0;
  const progress = () => {
    last = performance.now();
    onProgress(read, sink.linesRead ?? 0, (last - started) / 1000);
  };
  const fail = (e: unknown) =>
    new RankevalError(
      "bad-input",
      `${file.name}: ${gzip ? "not valid gzip" : "cannot read it"} (${(e as Error).message})`,
    );
  const take = async (chunk: Uint8Array) => {
    sink.push(chunk);
    if (performance.now() - last > 100) progress();
    const wait = sink.ready?.();
    if (wait) await wait;
  };
  const byob = gzip ? null : byobReader(file);
  if (byob) {
    let buffer = new ArrayBuffer(CHUNK);
    for (;;) {
      let r: ReadableStreamReadResult<Uint8Array>;
      try {
        r = await byob.read(new Uint8Array(buffer));
      } catch (e) {
        throw fail(e);
      }
      if (r.done) break;
      read += r.value.byteLength;
      await take(r.value);
      buffer = r.value.buffer as ArrayBuffer;
    }
  } else {
    const text = gzip
      ? gunzip(file, (bytes) => (read += bytes))
      : file.stream().pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, out) {
              read += chunk.byteLength;
              out.enqueue(chunk);
            },
          }),
        );
    const reader = text.getReader();
    for (;;) {
      let r: ReadableStreamReadResult<Uint8Array>;
      try {
        r = await reader.read();
      } catch (e) {
        throw fail(e);
      }
      if (r.done) break;
      await take(r.value);
    }
  }
  read = file.size;
  progress();
}

/** Null where File.stream() is not a byte stream. */
function byobReader(file: File): ReadableStreamBYOBReader | null {
  try {
    return file.stream().getReader({ mode: "byob" });
  } catch {
    return null;
  }
}

/** A gzip member's start: magic, deflate. */
const MEMBER_START = [0x1f, 0x8b, 0x08] as const;

const memberAt = (bytes: Uint8Array, at: number) =>
  bytes[at] === MEMBER_START[0] && bytes[at + 1] === MEMBER_START[1] && bytes[at + 2] === MEMBER_START[2];

/**
 * A gzip file's text: every member, trailing zeros ignored, as gzip and zlib (the CLI) read it. `onRead`:
 * compressed bytes. DecompressionStream takes one member, and only it knows where it ends: pieces are cut
 * where a member may start (`1f 8b 08`) and byte by byte in the zeros; an ended member refuses the next
 * piece whole, which starts the next member if the last 4 bytes match the text given, else is not gzip.
 */
export function gunzip(file: Blob, onRead: (bytes: number) => void = () => {}): ReadableStream<Uint8Array> {
  const text = new TransformStream<Uint8Array, Uint8Array>();
  const out = text.writable.getWriter();
  members(file, out, onRead).then(
    () => out.close().catch(() => {}),
    (e) => out.abort(e).catch(() => {}),
  );
  return text.readable;
}

/** A gzip slice's text to `each` until it returns false or the slice ends; no stream left open. */
export async function gunzippedHead(slice: Blob, each: (chunk: Uint8Array) => boolean): Promise<void> {
  const reader = gunzip(slice).getReader();
  try {
    for (;;) {
      let r: ReadableStreamReadResult<Uint8Array>;
      try {
        r = await reader.read();
      } catch {
        return;
      }
      if (r.done || !each(r.value)) return;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}

interface Member {
  start: number;
  writer: WritableStreamDefaultWriter<Uint8Array>;
  /** Text bytes given. */
  given: number;
  /** Settles once it ends or fails. */
  reading: Promise<void>;
}

function member(start: number, out: WritableStreamDefaultWriter<Uint8Array>): Member {
  const decompressor = new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>;
  const reader = decompressor.readable.getReader();
  const m: Member = { start, writer: decompressor.writable.getWriter(), given: 0, reading: Promise.resolve() };
  m.reading = (async () => {
    for (;;) {
      const r = await reader.read();
      if (r.done) return;
      m.given += r.value.byteLength;
      try {
        await out.write(r.value);
      } catch (e) {
        // Text no longer wanted: fail the waiting pieces too.
        await reader.cancel(e).catch(() => {});
        throw e;
      }
    }
  })();
  m.reading.catch(() => {}); // awaited where it matters
  return m;
}

async function members(file: Blob, out: WritableStreamDefaultWriter<Uint8Array>, onRead: (n: number) => void) {
  const zeros = await zerosAtEnd(file);
  const source = file.stream().getReader();
  let m = member(0, out);
  let at = 0;
  /** In the trailing zeros. */
  let ended = false;
  const write = async (piece: Uint8Array): Promise<void> => {
    const start = at;
    at += piece.byteLength;
    try {
      await m.writer.write(piece);
      return;
    } catch (e) {
      await m.reading.catch(() => {});
      const zero = start >= zeros;
      if (!(start > m.start && (zero || memberAt(piece, 0)) && (await lengthBefore(file, start)) === m.given % 2 ** 32))
        throw e;
      if (zero) {
        ended = true;
        return;
      }
      m = member(start, out);
    }
    await m.writer.write(piece);
  };
  try {
    /** A chunk's last `1f` or `1f 8b`, held for the next. */
    let held: Uint8Array | null = null;
    while (!ended) {
      const r = await source.read();
      if (r.done) {
        if (held) await write(held);
        break;
      }
      onRead(r.value.byteLength);
      const chunk: Uint8Array = held ? concat(held, r.value) : r.value;
      const chunkAt = at;
      let end = chunk.byteLength;
      if (chunk[end - 1] === MEMBER_START[0]) end -= 1;
      else if (chunk[end - 2] === MEMBER_START[0] && chunk[end - 1] === MEMBER_START[1]) end -= 2;
      held = end < chunk.byteLength ? chunk.slice(end) : null;
      let from = 0;
      const cut = async (to: number) => {
        if (to > from) await write(chunk.subarray(from, to));
        from = to;
      };
      for (let i = chunk.indexOf(MEMBER_START[0], 1); i >= 0 && i < end; i = chunk.indexOf(MEMBER_START[0], i + 1))
        if (memberAt(chunk, i)) await cut(i);
      for (let i = Math.max(from, zeros - chunkAt); i < end && !ended; i++) await cut(i);
      if (!ended) await cut(end);
    }
    if (ended) void source.cancel().catch(() => {});
    else {
      await m.writer.close();
      await m.reading;
    }
  } catch (e) {
    void source.cancel(e).catch(() => {});
    void m.writer.abort(e).catch(() => {});
    throw e;
  }
}

export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const both = new Uint8Array(a.byteLength + b.byteLength);
  both.set(a);
  both.set(b, a.byteLength);
  return both;
}

/** The member's ISIZE ending at `end`. */
async function lengthBefore(file: Blob, end: number): Promise<number | null> {
  if (end < 8) return null;
  return new DataView(await file.slice(end - 4, end).arrayBuffer()).getUint32(0, true);
}

/** Where the file's trailing zeros start (its size if none). */
async function zerosAtEnd(file: Blob): Promise<number> {
  let end = file.size;
  while (end > 0) {
    const start = Math.max(0, end - (1 << 16));
    const bytes = new Uint8Array(await file.slice(start, end).arrayBuffer());
    let i = bytes.length;
    while (i > 0 && bytes[i - 1] === 0) i--;
    if (i > 0) return start + i;
    end = start;
  }
  return 0;
}
