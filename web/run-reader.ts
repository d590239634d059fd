// The page's run reader: a second worker, started by worker.ts for each run file, that reads and
// parses the run into blocks of complete queries and hands each over (its buffers transferred, not
// copied) while worker.ts joins and evaluates the one before: parsing and evaluating run on two cores.
// At most AHEAD blocks wait to be evaluated, so memory stays bounded whatever the run's size.
import { Interner } from "../src/io/interner.js";
import { portableBlock, RunBlockParser, transferables, type PortableBlock } from "../src/run-blocks.js";
import { readInto } from "./read.js";

/** worker.ts -> reader. */
export type ReaderJob = { type: "read"; file: File; blockRows: number } | { type: "evaluated" };

/** Reader -> worker.ts. */
export type ReaderReport =
  | { type: "progress"; read: number; lines: number; seconds: number }
  | { type: "block"; block: PortableBlock }
  | { type: "end"; runTag: string }
  | { type: "error"; message: string; outOfMemory: boolean };

/** Blocks handed over and not yet evaluated, at most: two keep both cores busy. */
const AHEAD = 2;

const post = (r: ReaderReport, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(r, transfer);

let waiting = 0;
let wake: (() => void) | null = null;

async function read(file: File, blockRows: number): Promise<void> {
  let sent = 0;
  const parser = new RunBlockParser(file.name, new Interner(), (rows) => {
    const block = portableBlock(rows, sent);
    sent = rows.qidNames.size;
    waiting++;
    post({ type: "block", block }, transferables(block));
  }, blockRows);
  const sink = {
    push: (chunk: Uint8Array) => parser.push(chunk),
    get linesRead() {
      return parser.linesRead;
    },
    ready: () => (waiting < AHEAD ? null : new Promise<void>((resolve) => (wake = resolve))),
  };
  await readInto(file, sink, (read, lines, seconds) => post({ type: "progress", read, lines, seconds }));
  post({ type: "end", runTag: parser.finish() });
}

self.onmessage = async (e: MessageEvent<ReaderJob>) => {
  const job = e.data;
  if (job.type === "evaluated") {
    waiting--;
    if (waiting < AHEAD && wake) {
      const w = wake;
      wake = null;
      w();
    }
    return;
  }
  try {
    await read(job.file, job.blockRows);
  } catch (err) {
    post({ type: "error", message: err instanceof Error ? err.message : String(err), outOfMemory: err instanceof RangeError });
  }
};
