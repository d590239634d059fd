// A File read chunk by chunk into a parser (gunzipped if need be), in the page's two workers.
import { RankevalError } from "../src/errors/errors.js";
import type { ChunkSink } from "../src/input/input.js";

/** Where the chunks go: a parser (its push and, for progress, linesRead), which may ask to wait between chunks. */
export type Sink = ChunkSink & { readonly linesRead?: number };

/** Bytes of the file read (before gunzip) and lines parsed. */
export type OnProgress = (read: number, lines: number, seconds: number) => void;

export async function isGzip(file: File): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  return head.length === 2 && head[0] === 0x1f && head[1] === 0x8b;
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
    const counted = file.stream().pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          read += chunk.byteLength;
          out.enqueue(chunk);
        },
      }),
    );
    const text = gzip
      ? counted.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>)
      : counted;
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
