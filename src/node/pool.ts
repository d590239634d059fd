/**
 * The process's worker threads, started when first needed and kept (200 runs pay a start-up of 50-150
 * ms once per thread); idle ones do not keep the process alive. A job holds a thread for a
 * conversation (acquire) or one request. Run from source there is no pool: callers work in this thread.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import type { TransferListItem, Worker } from "node:worker_threads";

/** Marks this module's threads, so that it serves only those. */
const THREAD_ENV = "RANKEVAL_POOL_THREAD";

export interface PoolMessage {
  kind: "read" | "reader" | "request" | "columnar" | "partition";
  [key: string]: unknown;
}

/** A thread held by one job: its messages go to this job only until it is released. */
export interface Conversation {
  /** `transfer`: buffers and ports moved with the message. */
  post(message: PoolMessage, transfer?: readonly Transferable[]): void;
  /** `onFail` is called once if the thread dies. */
  listen(onMessage: (message: unknown) => void, onFail: (message: string) => void): void;
  /** Gives the thread back; not `idle` (abandoned mid-way): the thread is ended. */
  release(idle: boolean): void;
}

interface Slot {
  worker: Worker;
  onMessage: ((message: unknown) => void) | null;
  onFail: ((message: string) => void) | null;
  dead: boolean;
}

export class ThreadPool {
  private readonly slots: Slot[] = [];
  private readonly idle: Slot[] = [];
  private readonly queue: ((slot: Slot) => void)[] = [];
  private readonly warming: Promise<Slot>[] = [];
  private workerClass: typeof Worker | undefined;
  private starting = 0;

  /** `script`: this module's built file, which the threads run. */
  constructor(
    readonly size: number,
    private readonly script: URL,
  ) {}

  get started(): number {
    return this.slots.length;
  }

  /** Holds a thread: an idle one, a new one while fewer than `size`, else the next released. */
  async acquire(): Promise<Conversation> {
    const slot =
      this.idle.pop() ??
      (this.warming.length ? await this.claim() : undefined) ??
      (this.slots.length + this.starting < this.size
        ? await this.start()
        : await new Promise<Slot>((resolve) => this.queue.push(resolve)));
    slot.worker.ref();
    let released = false;
    return {
      post: (message, transfer) => slot.worker.postMessage(message, (transfer ?? []) as readonly TransferListItem[]),
      listen: (onMessage, onFail) => {
        slot.onMessage = onMessage;
        slot.onFail = onFail;
      },
      release: (idle) => {
        if (released) return;
        released = true;
        slot.onMessage = slot.onFail = null;
        if (idle && !slot.dead) this.give(slot);
        else {
          this.end(slot);
          void slot.worker.terminate();
          const next = this.queue.shift();
          if (next) void this.start().then(next);
        }
      },
    };
  }

  /** Starts threads up to `count` (default all), each sent `message` (what to load), left idle: they start (50-250 ms) while this one works. */
  warm(message: PoolMessage, count = this.size): void {
    while (this.slots.length + this.starting < Math.min(count, this.size)) {
      const warming = this.start().then((slot) => {
        slot.worker.postMessage(message);
        return slot;
      });
      this.warming.push(warming);
      void warming.then((slot) => {
        const i = this.warming.indexOf(warming);
        if (i < 0) return; // claimed
        this.warming.splice(i, 1);
        this.give(slot);
      });
    }
  }

  /** A thread warm() is starting: waited for rather than another started beside it. */
  private claim(): Promise<Slot> {
    return this.warming.shift()!;
  }

  /** A thread if one is idle or may start now; null if all are busy. */
  tryAcquire(): Promise<Conversation> | null {
    return this.idle.length || this.slots.length + this.starting < this.size ? this.acquire() : null;
  }

  async request<T>(handler: string, job: unknown, transfer?: ArrayBuffer[]): Promise<T> {
    const c = await this.acquire();
    return new Promise<T>((resolve, reject) => {
      c.listen(
        (m) => {
          const reply = m as { ok: boolean; value?: T; message?: string };
          c.release(true);
          if (reply.ok) resolve(reply.value as T);
          else reject(new Error(reply.message));
        },
        (message) => {
          c.release(false);
          reject(new Error(`a worker thread failed (${message})`));
        },
      );
      c.post({ kind: "request", handler, job }, transfer);
    });
  }

  /** Ends every thread (new ones may start after). */
  async close(): Promise<void> {
    const all = this.slots.splice(0);
    this.idle.length = 0;
    for (const s of all) s.dead = true;
    await Promise.all(all.map((s) => s.worker.terminate()));
  }

  private async start(): Promise<Slot> {
    // Counted at once, so that acquires meanwhile do not start more than `size`.
    this.starting++;
    try {
      this.workerClass ??= (await import("node:worker_threads")).Worker;
    } finally {
      this.starting--;
    }
    const worker = new this.workerClass(this.script, { env: { ...process.env, [THREAD_ENV]: "1" } });
    // A listener per thread on our streams: 16 threads are no leak.
    for (const stream of [process.stdout, process.stderr])
      if (stream.getMaxListeners() < this.slots.length + 11) stream.setMaxListeners(this.slots.length + 11);
    const slot: Slot = { worker, onMessage: null, onFail: null, dead: false };
    this.slots.push(slot);
    worker.on("message", (m) => slot.onMessage?.(m));
    const fail = (message: string) => {
      const onFail = slot.onFail;
      this.end(slot);
      slot.onMessage = slot.onFail = null;
      onFail?.(message);
    };
    worker.on("error", (e) => fail(e.message));
    // A thread killed silently (out of memory) would leave its job waiting for ever.
    worker.on("exit", (code) => fail(`its thread ended (exit code ${code})`));
    return slot;
  }

  private give(slot: Slot): void {
    const next = this.queue.shift();
    if (next) {
      next(slot);
      return;
    }
    slot.worker.unref();
    this.idle.push(slot);
  }

  private end(slot: Slot): void {
    slot.dead = true;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    const j = this.idle.indexOf(slot);
    if (j >= 0) this.idle.splice(j, 1);
  }
}

/**
 * RANKEVAL_THREADS (0: none), else one per core up to 4, then 3/4 of the cores: on 16 cores, 12 threads
 * took 0.93-1.03 s, 15 1.14-1.35 s, 16 1.39 s (page faults and memory traffic).
 */
function poolSize(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.RANKEVAL_THREADS;
  if (given !== undefined && /^\d+$/.test(given.trim())) return Math.min(Number(given), 256);
  const cores = availableParallelism();
  return cores <= 4 ? cores : Math.ceil((cores * 3) / 4);
}

const self = new URL(import.meta.url);

/** The built pool.js (or .cjs): this file, or beside the bundle; null from source. */
function scriptOf(url: URL): URL | null {
  const own = /\/pool\.c?js$/.test(url.pathname) ? url : new URL("./pool.js", url);
  return /\/pool\.c?js$/.test(own.pathname) && existsSync(fileURLToPath(own)) ? own : null;
}

let shared: ThreadPool | null | undefined;
let sizeGiven: number | undefined;

/** --threads: the pool's size, before it is made. */
export function setPoolSize(size: number): void {
  if (shared !== undefined && (shared?.size ?? 0) !== size) shared = undefined;
  sizeGiven = size;
}

/** The process's pool; null from source or when RANKEVAL_THREADS or --threads gives none. */
export function threadPool(): ThreadPool | null {
  if (shared === undefined) {
    const size = sizeGiven ?? poolSize();
    const script = size > 0 ? scriptOf(self) : null;
    shared = script ? new ThreadPool(size, script) : null;
  }
  return shared;
}

// ---- In a thread of the pool ----

type Handler = (
  job: unknown,
) => { value: unknown; transfer?: ArrayBuffer[] } | Promise<{ value: unknown; transfer?: ArrayBuffer[] }>;

/** Request handlers, each imported when first asked for. */
const HANDLERS: Record<string, () => Promise<Handler>> = {
  resample: async () => {
    const { runResamplingJob } = await import("../compare/resampling.js");
    return (job) => {
      const output = runResamplingJob(job as Parameters<typeof runResamplingJob>[0]);
      return { value: output, transfer: output.map((o) => o.buffer as ArrayBuffer) };
    };
  },
};

async function serve(): Promise<void> {
  const { parentPort } = await import("node:worker_threads");
  if (!parentPort) return;
  const port = parentPort;
  const handlers = new Map<string, Handler>();
  let reader: ((job: unknown) => void) | null = null;
  let columnar: ((job: unknown) => void) | null = null;
  // Partition jobs handled in the order sent, the first waiting for the module to load.
  let partition: Promise<(job: unknown) => void> | null = null;
  port.on("message", async (m: PoolMessage) => {
    if (m.kind === "read") {
      const { readerThread } = await import("./run-reader-thread.js");
      reader = readerThread((r, transfer) => port.postMessage(r, transfer));
      // warm() sends none: loaded only.
      if (m.job !== undefined) reader(m.job);
    } else if (m.kind === "reader") {
      reader?.(m.job);
    } else if (m.kind === "columnar") {
      if (!columnar) {
        const { columnarThread } = await import("./columnar-reader.js");
        columnar ??= columnarThread((r, transfer) => port.postMessage(r, transfer));
      }
      columnar(m.job);
    } else if (m.kind === "partition") {
      partition ??= import("./partitioned.js").then(({ partitionThread }) =>
        partitionThread((r, transfer) => port.postMessage(r, (transfer ?? []) as readonly TransferListItem[])),
      );
      void partition.then((handle) => handle(m.job));
    } else if (m.kind === "request") {
      try {
        const name = m.handler as string;
        let h = handlers.get(name);
        if (!h) {
          const make = HANDLERS[name];
          if (!make) throw new Error(`no handler ${name}`);
          handlers.set(name, (h = await make()));
        }
        const { value, transfer } = await h(m.job);
        port.postMessage({ ok: true, value }, transfer ?? []);
      } catch (e) {
        port.postMessage({ ok: false, message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
      }
    }
  });
}

// Only in this module's threads: the main thread never loads node:worker_threads to ask.
if (process.env[THREAD_ENV] === "1") void serve();
