/** A worker's side of partition.ts: splits chunks, sends buckets to owners over peer ports, owns its partition. Browser compatible. */
import { PartitionOwner, QuerySplitter, type EvaluatorFor } from "./partition.js";
import type { PartitionMessage, PartitionReport, WorkerReport } from "./partition-protocol.js";
import { Interner } from "../io/interner.js";

/** Worker to worker: a bucket for its owner (null: no line), or a buffer given back. */
type PeerMessage =
  | { type: "bucket"; session: number; stream: number; chunk: number; bucket: Uint8Array | null }
  | { type: "spare"; session: number; buffer: ArrayBuffer };

export type ReadInto<S> = (source: S, start: number, into: Uint8Array) => void | Promise<void>;

/**
 * A worker's message handler: messages in order sent, buckets taken in chunk order. A start begins
 * afresh whatever the last session left; peers' messages of another session are dropped.
 */
export function partitionWorker<S, Spec>(
  post: (r: PartitionReport, transfer?: Transferable[]) => void,
  read: ReadInto<S>,
  evaluatorOf: (spec: Spec) => EvaluatorFor,
): (message: PartitionMessage<S, Spec>) => void {
  let session = 0;
  const report = (r: WorkerReport, transfer?: Transferable[]) => post({ ...r, session }, transfer);
  let owner: PartitionOwner | null = null;
  let splitter: QuerySplitter | null = null;
  let peers: (MessagePort | null)[] = [];
  let me = 0;
  let qids = new Interner();
  let parts = 1;
  let failed = false;
  let judgments = { file: "", expectedBytes: 0 };
  /** The stream being taken (0: judgments; -1: none) and its next chunk. */
  let stream = -1;
  let next = 0;
  /** Buckets before their turn. */
  const waiting = new Map<string, Uint8Array | null>();
  const spares: ArrayBuffer[] = [];
  const take = (size: number) => {
    if (size === 0) return new Uint8Array(0);
    const i = spares.findIndex((b) => b.byteLength >= size);
    const buffer = i >= 0 ? spares.splice(i, 1)[0] : new ArrayBuffer(Math.ceil(size * 1.25));
    return new Uint8Array(buffer, 0, size);
  };

  const takeWaiting = () => {
    for (let key = `${stream} ${next}`; waiting.has(key); key = `${stream} ${next}`) {
      const bucket = waiting.get(key)!;
      waiting.delete(key);
      const chunk = next++;
      let keep = false;
      if (bucket) {
        if (stream === 0) owner!.judgmentsChunk(bucket, judgments.file, qids, judgments.expectedBytes);
        else keep = owner!.runChunk(bucket);
        // Its buffer back to its splitter (kept under -c).
        const from = chunk % parts;
        const buffer = bucket.buffer as ArrayBuffer;
        if (!keep && from === me) spares.push(buffer);
        else if (!keep) peers[from]!.postMessage({ type: "spare", session, buffer } satisfies PeerMessage, [buffer]);
      }
      report({ type: "took", chunk });
    }
  };

  const handle = async (m: PartitionMessage<S, Spec> | PeerMessage): Promise<void> => {
    switch (m.type) {
      case "start":
        session = m.session;
        parts = m.parts;
        me = m.index;
        qids = new Interner();
        stream = -1;
        waiting.clear();
        for (const p of peers) p?.close();
        peers = m.peers;
        for (const p of peers) if (p) p.onmessage = (e: MessageEvent<PeerMessage>) => enqueue(e.data);
        owner = new PartitionOwner(m.index, parts, evaluatorOf(m.job.spec), {
          complete: m.job.complete,
          placeholder: m.job.placeholder,
        });
        return;
      case "split": {
        if (splitter?.parts !== parts) splitter = new QuerySplitter(parts);
        const bytes = m.end - m.start;
        await read(m.source, m.start, splitter.input(bytes));
        const { buckets, last } = splitter.split(bytes, take);
        buckets.forEach((b, to) => {
          const bucket = b.length ? b : null;
          const message: PeerMessage = { type: "bucket", session, stream: m.stream, chunk: m.chunk, bucket };
          // Its own bucket waits behind the chunks to split, as the others' do.
          if (to === me) enqueue(message);
          else peers[to]!.postMessage(message, bucket ? [bucket.buffer as ArrayBuffer] : []);
        });
        return report({ type: "split", chunk: m.chunk, last });
      }
      case "bucket":
        waiting.set(`${m.stream} ${m.chunk}`, m.bucket);
        return takeWaiting();
      case "spare":
        spares.push(m.buffer);
        return;
      case "judgmentsStart":
        judgments = { file: m.file, expectedBytes: m.expectedBytes };
        stream = 0;
        next = 0;
        return takeWaiting();
      case "judgmentsEnd":
        return report({ type: "judged", judged: owner!.judgmentsEnd(m.file, qids) });
      case "runStart":
        owner!.runStart(m.file, m.spec === undefined ? undefined : evaluatorOf(m.spec));
        stream = m.stream;
        next = 0;
        return takeWaiting();
      case "runEnd":
        return report({ type: "run", owned: owner!.runEnd() });
      case "load":
        new QuerySplitter(1);
        return;
      case "stop":
        owner = null;
        splitter = null;
        spares.length = 0;
        waiting.clear();
        for (const p of peers) p?.close();
        peers = [];
        qids = new Interner();
        return;
    }
  };
  // In order, but a split goes before waiting buckets and ends (not a start or stop): every owner waits on it.
  const queue: (PartitionMessage<S, Spec> | PeerMessage)[] = [];
  let running = false;
  const nextMessage = () => {
    for (let i = 0; i < queue.length; i++) {
      const t = queue[i].type;
      if (t === "start" || t === "stop") break;
      if (t === "split") return queue.splice(i, 1)[0];
    }
    return queue.shift()!;
  };
  const pump = async () => {
    running = true;
    while (queue.length) {
      const m = nextMessage();
      if (m.type === "start") failed = false;
      if (failed && m.type !== "stop") continue;
      if ((m.type === "bucket" || m.type === "spare") && m.session !== session) continue;
      try {
        await handle(m);
      } catch (e) {
        failed = true;
        report({ type: "failed", message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
      }
    }
    running = false;
  };
  const enqueue = (m: PartitionMessage<S, Spec> | PeerMessage) => {
    queue.push(m);
    if (!running) void pump();
  };
  return enqueue;
}
