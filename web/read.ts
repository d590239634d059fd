// Reading a File in a worker: File.stream(), gunzipped when it starts with gzip's magic bytes, chunk
// by chunk into a parser. Shared by the page's two workers (worker.ts, run-reader.ts).
import { RankevalError } from "../src/errors.js";

/** Where the chunks go: a parser (LineParser's push and linesRead), which may ask to wait between chunks. */
export interface Sink {
  push(chunk: Uint8Array): void;
  readonly linesRead: number;
  /** A promise to await before the next chunk (back-pressure), or null to go on. */
  ready?(): Promise<void> | null;
}

/** Bytes of the file read (before gunzip) and lines parsed. */
export type OnProgress = (read: number, lines: number, seconds: number) => void;

/** Whether the file starts with gzip's magic bytes. */
export async function isGzip(file: File): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  return head.length === 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/** Streams `file` into `sink`; reports progress at most every 100 ms, and at the end. */
export async function readInto(file: File, sink: Sink, onProgress: OnProgress): Promise<void> {
  const gzip = await isGzip(file);
  const started = performance.now();
  let read = 0;
  let last = 0;
  const progress = () => {
    last = performance.now();
    onProgress(read, sink.linesRead, (last - started) / 1000);
  };
  const counted = file.stream().pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        read += chunk.byteLength;
        if (performance.now() - last > 100) progress();
        out.enqueue(chunk);
      },
    }),
  );
  const text: ReadableStream<Uint8Array> = gzip ? counted.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>) : counted;
  const reader = text.getReader();
  for (;;) {
    let r: ReadableStreamReadResult<Uint8Array>;
    try {
      r = await reader.read();
    } catch (e) {
      throw new RankevalError("bad-input", `${file.name}: ${gzip ? "not valid gzip" : "cannot read it"} (${(e as Error).message})`);
    }
    if (r.done) break;
    sink.push(r.value);
    const wait = sink.ready?.();
    if (wait) await wait;
  }
  read = file.size;
  progress();
}
