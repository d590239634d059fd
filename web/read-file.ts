// A File read chunk by chunk into a parser (gunzipped if need be), in the page's two workers.
import { RankevalError } from "../src/errors/errors.js";
import type { ChunkSink } from "../src/input/formats.js";
import { magicOf } from "../src/io/magic.js";

/** Where the chunks go: a parser (its push and, for progress, linesRead), which may ask to wait between chunks. */
export type Sink = ChunkSink & { readonly linesRead?: number };

/** Bytes of the file read (before gunzip) and lines parsed. */
export type OnProgress = (read: number, lines: number, seconds: number) => void;

export async function isGzip(file: File): Promise<boolean> {
  return magicOf(new Uint8Array(await file.slice(0, 2).arrayBuffer())) === "gzip";
}

/** Bytes read into at a time, from an uncompressed file. */
const CHUNK = 1 << 20;

/**
 * Streams `file` into `sink`, with progress every 100 ms. Uncompressed files go through a BYOB reader
 * into one reused buffer (fresh buffers cost 0.5 s a GB in Chromium). One file at a time: with two read
 * at once in two workers, a BYOB read stalled for good in Chromium 156.
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

/** A BYOB reader of the file's stream, or null where the browser's File.stream() is not a byte stream. */
function byobReader(file: File): ReadableStreamBYOBReader | null {
  try {
    return file.stream().getReader({ mode: "byob" });
  } catch {
    return null;
  }
}

/** How every gzip member starts: its magic number and deflate's method. */
const MEMBER_START = [0x1f, 0x8b, 0x08] as const;

/** Whether `bytes` hold the start of a gzip member at `at`. */
const memberAt = (bytes: Uint8Array, at: number) =>
  bytes[at] === MEMBER_START[0] && bytes[at + 1] === MEMBER_START[1] && bytes[at + 2] === MEMBER_START[2];

/**
 * A gzip file's text, streamed: every member, one after another, as gzip and zlib (the command line)
 * read them, and the zero bytes after the last left as they leave them. `onRead`: compressed bytes read.
 *
 * DecompressionStream reads one member and refuses anything after it, so each member gets its own. Where
 * a member ends is known by its decompressor only: the compressed bytes are written to it in pieces cut
 * where a next member may start (`1f 8b 08`) or where the zeros at the file's end start (there a byte at a
 * time). A member that ended refuses the piece after it as a whole, having handed over all its text (a
 * decompressor transforms a piece once what it gave before is read), and the member's last 4 bytes (its
 * length mod 2^32) equal the text it gave: then the next member starts with that piece. Anything else
 * refused is not valid gzip. One pass over the file, a chunk at a time; nothing read twice.
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

/**
 * The text of a slice of a gzip file's first bytes, a chunk at a time to `each` until it returns false
 * or the slice ends (mid-stream, most often: what was decompressed is all there is): a sniff of a file's
 * head that leaves no stream open.
 */
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
  /** Where it starts in the file. */
  start: number;
  writer: WritableStreamDefaultWriter<Uint8Array>;
  /** Bytes of text it gave (and were read). */
  given: number;
  /** Its text read into `out`: settles once it ends or fails. */
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
        // The text is no longer wanted: the pieces waiting to be written fail too.
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
  /** Where the next piece starts in the file. */
  let at = 0;
  /** Whether the file's end was reached: zeros after the last member, left as gzip leaves them. */
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
    /** A chunk's last bytes that may begin a member (`1f`, `1f 8b`), held to be read with the next chunk. */
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
      // A piece where a member may start; a byte at a time from where the zeros at the file's end start.
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

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const both = new Uint8Array(a.byteLength + b.byteLength);
  both.set(a);
  both.set(b, a.byteLength);
  return both;
}

/** A member's last 4 bytes, ending at `end`: its text's length mod 2^32 (little-endian). */
async function lengthBefore(file: Blob, end: number): Promise<number | null> {
  if (end < 8) return null;
  return new DataView(await file.slice(end - 4, end).arrayBuffer()).getUint32(0, true);
}

/** Where the zero bytes that end the file start (its size if it ends otherwise), read from its end. */
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
