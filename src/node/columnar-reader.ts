// A Parquet run decoded by several threads, a row group each; the main thread puts them back in order,
// carries each last query into the next, and joins whole queries: output is one thread's to the byte.
import { asRowError } from "../input/input.js";
import { ColumnarRows, concatRows, splitFirstQuery, splitLastQuery, type ColumnarReadOptions } from "../io/columnar.js";
import { Interner } from "../io/interner.js";
import type { RunRows } from "../io/run.js";
import {
  portableBlock,
  PortableBlocks,
  transferables,
  type PortableBlock,
  type RunSource,
} from "../pipeline/blocks.js";
import { rethrown, threadError, type ThreadError } from "../pipeline/reader.js";
import { columnarInput, columnarRunTag, COLUMNAR_HINT, fileSource } from "./columnar-files.js";
import type { ParserChoice } from "../input/formats.js";
import type { ThreadPool, Conversation } from "./pool.js";
import { displayName, type ProgressSink } from "./file-read.js";

/** Main -> thread. */
export type ColumnarJob =
  | { type: "start" }
  | {
      type: "decode";
      unit: number;
      path: string;
      group: number;
      lineBase: number;
      runTag: string;
      options: Omit<ColumnarReadOptions<"run">, "kind">;
    }
  | { type: "end" };

/** Thread -> main. */
export type ColumnarReport =
  | { type: "rows"; unit: number; block: PortableBlock }
  | ({ type: "error"; unit: number } & ThreadError);

/** Row groups decoded and not yet added, beyond two per thread, at most. */
const AHEAD = 2;

export function columnarThread(post: (r: ColumnarReport, transfer: ArrayBuffer[]) => void): (job: unknown) => void {
  let qids = new Interner();
  let sent = 0;
  const files = new Map<string, Promise<Awaited<ReturnType<typeof fileSource>> & { metadata: unknown }>>();
  const closeAll = () => {
    for (const f of files.values()) void f.then((x) => x.handle.close()).catch(() => {});
    files.clear();
  };
  let queue: Promise<void> = Promise.resolve();
  return (message) => {
    const job = message as ColumnarJob;
    if (job.type === "start") {
      qids = new Interner();
      sent = 0;
      return;
    }
    if (job.type === "end") {
      queue = queue.then(closeAll);
      return;
    }
    queue = queue.then(async () => {
      try {
        const { readParquet, parquetFooter } = await import("../io/parquet.js");
        let opened = files.get(job.path);
        if (!opened) {
          opened = fileSource(job.path).then(async (f) => ({
            ...f,
            metadata: await parquetFooter(f.source, job.options.file),
          }));
          files.set(job.path, opened);
        }
        const { source, metadata } = await opened;
        const rows = new ColumnarRows({
          file: job.options.file,
          qids,
          kind: "run",
          runTag: job.runTag,
          lineBase: job.lineBase,
        });
        await readParquet(
          source,
          { ...job.options, kind: "run", rowGroups: [job.group], metadata: metadata as never },
          (b) => rows.add(b),
        );
        const r = rows.finish();
        const block = portableBlock(r, sent);
        sent = qids.size;
        post({ type: "rows", unit: job.unit, block }, transferables(block));
      } catch (err) {
        post({ type: "error", unit: job.unit, ...threadError(err) }, []);
      }
    });
  };
}

type Arrived = { rows: RunRows; runTag: string } | { error: unknown };

/** RunSource.blocks for a Parquet run decoded by `threads` threads; footers and columns checked here first. */
export function parallelColumnarBlocks(
  path: string,
  choice: ParserChoice,
  pool: ThreadPool,
  threads: number,
  progress?: ProgressSink,
): NonNullable<RunSource["blocks"]> {
  return async (qids, add) => {
    const { prepareParquet } = await import("../io/parquet.js");
    const input = columnarInput(path, choice.format);
    const name = displayName(path);
    const runTag = columnarRunTag(path);
    // Row groups in order, and where each file's rows start.
    const units: {
      path: string;
      group: number;
      lineBase: number;
      options: Omit<ColumnarReadOptions<"run">, "kind">;
    }[] = [];
    const starts: { file: string; first: number }[] = [];
    let lineBase = 0;
    for (const part of input.parts) {
      const options = {
        file: displayName(part.file),
        columns: choice.columns,
        hint: choice.hint ?? COLUMNAR_HINT,
        partition: part.partition,
      };
      const f = await fileSource(part.file);
      try {
        const { metadata } = await prepareParquet(f.source, { ...options, kind: "run" });
        starts.push({ file: options.file, first: lineBase });
        metadata.row_groups.forEach((g, group) => {
          units.push({ path: part.file, group, lineBase, options });
          lineBase += Number(g.num_rows);
        });
      } finally {
        await f.handle.close();
      }
    }
    const placeOf = (line: number) => {
      let s = starts[0];
      for (const x of starts) if (x.first < line) s = x;
      return { file: s.file, row: line - s.first };
    };
    progress?.start(name, 0);
    const wanted = Math.max(1, Math.min(threads, units.length));
    const conversations: Conversation[] = [];
    const arrivals = new Map<number, Arrived>();
    let wake: (() => void) | null = null;
    let failed: unknown = null;
    try {
      // One thread waited for; more if idle now (other runs may hold the rest).
      conversations.push(await pool.acquire());
      for (let t = 1; t < wanted; t++) {
        const c = pool.tryAcquire();
        if (!c) break;
        conversations.push(await c);
      }
      const n = conversations.length;
      const translate = conversations.map(() => new PortableBlocks(qids, name));
      // Two row groups in flight per thread: the next is at hand while this one joins.
      const busy = new Array<number>(n).fill(0);
      let next = 0;
      let done = 0;
      const assign = () => {
        for (let round = 0; round < 2; round++) {
          for (let t = 0; t < n && next < units.length; t++) {
            if (busy[t] > round || next - done >= 2 * n + AHEAD) continue;
            busy[t]++;
            const u = units[next];
            conversations[t].post({
              kind: "columnar",
              job: {
                type: "decode",
                unit: next,
                path: u.path,
                group: u.group,
                lineBase: u.lineBase,
                runTag,
                options: u.options,
              } satisfies ColumnarJob,
            });
            next++;
          }
        }
      };
      conversations.forEach((c, t) => {
        c.listen(
          (m) => {
            const r = m as ColumnarReport;
            busy[t]--;
            if (r.type === "rows") {
              try {
                const rows = translate[t].rows(r.block);
                arrivals.set(r.unit, { rows, runTag: rows.runTag });
              } catch (e) {
                arrivals.set(r.unit, { error: e });
              }
            } else {
              arrivals.set(r.unit, { error: rethrown(r) });
            }
            wake?.();
          },
          (message) => {
            failed = new Error(`${name}: a Parquet reader thread failed (${message})`);
            wake?.();
          },
        );
        c.post({ kind: "columnar", job: { type: "start" } satisfies ColumnarJob });
      });
      assign();
      let carry: RunRows | null = null;
      let tag = runTag;
      while (done < units.length) {
        let a = arrivals.get(done);
        while (!a) {
          if (failed) throw failed;
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
          a = arrivals.get(done);
        }
        arrivals.delete(done);
        done++;
        if ("error" in a) throw a.error;
        tag = a.runTag;
        // The carried query joined with this group's first where it goes on (a small copy), then its
        // queries but the last (views), which is carried.
        const { first, rest } = splitFirstQuery(a.rows);
        const blocks: RunRows[] = [];
        if (carry && carry.qid[0] === first.qid[0]) {
          if (rest) blocks.push(concatRows(carry, first));
          else carry = concatRows(carry, first);
        } else {
          if (carry) blocks.push(carry);
          if (rest) blocks.push(first);
          else carry = first;
        }
        if (rest) {
          const { head, tail } = splitLastQuery(rest);
          if (head) blocks.push(head);
          carry = tail;
        }
        try {
          for (const b of blocks) add(b);
        } catch (e) {
          throw asRowError(e, name, { placeOf });
        }
        assign();
      }
      try {
        if (carry) add(carry);
      } catch (e) {
        throw asRowError(e, name, { placeOf });
      }
      for (const c of conversations) c.post({ kind: "columnar", job: { type: "end" } satisfies ColumnarJob });
      for (const c of conversations.splice(0)) c.release(true);
      return tag;
    } finally {
      // An abandoned read ends its threads.
      for (const c of conversations) c.release(false);
      progress?.done();
    }
  };
}
