/** The kernel's WebAssembly module (embedded at build), compiled once, its instances and exports' declaration. */
import { RankevalError } from "../errors/errors.js";
import { KERNEL_WASM_BASE64 } from "./wasm.generated.js";

/** A row parser of assembly/parse.ts; returns where it stopped. */
type ParseRows = (
  st: number,
  p: number,
  end: number,
  qid: number,
  value: number,
  offsets: number,
  hashes: number,
  pool: number,
) => number;

export type Layout = [
  docids: number,
  poolBytes: number,
  poolOffsets: number,
  scratch: number,
  maxN: number,
  maxJ: number,
];

type Resampling = [rows: number, vectors: number, x: number, iterations: number, first: number, seed: bigint];

/** The kernel's exports (ABI: assembly/index.ts). */
export interface KernelExports {
  heapBase(): number;
  scratchBytes(maxN: number, maxJ: number, gainTableLength: number): number;
  configure(
    gainMode: number,
    gainTable: number,
    gainTableLength: number,
    gainMonotone: number,
    threshold: number,
    noRelevant: number,
    beyondList: number,
    ties: number,
    depth: number,
    judgedOnly: number,
    discount: number,
    ...layout: Layout
  ): void;
  allFinite(values: number, count: number): number;
  largestGain(values: number, count: number): number;
  gainBound(values: number, count: number): number;
  labelGain(label: number): number;
  evaluate(
    numQueries: number,
    offsets: number,
    scores: number,
    labels: number,
    judgedOffsets: number,
    judged: number,
    numSpecs: number,
    families: number,
    cutoffs: number,
    params: number,
    flags: number,
    out: number,
  ): void;
  diversityScratchBytes(maxN: number, maxD: number, maxS: number): number;
  configureDiversity(
    subtopics: number,
    rowOffsets: number,
    rowSub: number,
    rowGrade: number,
    docOffsets: number,
    docPairs: number,
    docSub: number,
    docGrade: number,
    scratch: number,
    maxN: number,
    maxD: number,
    maxS: number,
  ): void;
  // assembly/parse.ts.
  parseRunRows: ParseRows;
  parseQrelsRows: ParseRows;
  parseLetorRows: ParseRows;
  parseScoreRows: ParseRows;
  querySpans(qid: number, n: number, ids: number, starts: number): number;
  firstRepeated(nq: number, starts: number, offsets: number, bytes: number, slots: number): number;
  // assembly/split.ts.
  splitLines(
    p: number,
    end: number,
    parts: number,
    starts: number,
    owners: number,
    capacity: number,
    sizes: number,
    offsets: number,
    out: number,
  ): void;
  // assembly/join.ts.
  joinQueries(
    nq: number,
    q: number,
    jOrder: number,
    jOff: number,
    jBytes: number,
    jHash: number,
    jRel: number,
    rOrder: number,
    rOff: number,
    rBytes: number,
    rHash: number,
    rScore: number,
    slots: number,
    offsets: number,
    scores: number,
    labels: number,
    judgedOffsets: number,
    judged: number,
    docids: number,
  ): number;
  duplicateRow(): number;
  duplicateQuery(): number;
  // assembly/significance.ts.
  randomizationSums(...args: [...Resampling, words: number, table: number, out: number]): void;
  bootstrapSums(...args: [...Resampling, bounds: number, batches: number, digits: number, out: number]): void;
  tukeyRanges(
    rows: number,
    runs: number,
    vectors: number,
    x: number,
    iterations: number,
    first: number,
    seed: bigint,
    acc: number,
    perm: number,
    bounds: number,
    batches: number,
    prefix: number,
    tables: number,
    out: number,
  ): void;
  tukeyTableBytes(runs: number): number;
  permBytes(runs: number): number;
}

export interface KernelInstance {
  readonly memory: WebAssembly.Memory;
  readonly instance: WebAssembly.Instance;
  readonly exports: KernelExports;
}

const PAGE = 65536;
/** wasm32's 4 GiB. */
export const MAX_MEMORY = 2 ** 32;

export function instantiate(): KernelInstance {
  const memory = new WebAssembly.Memory({ initial: 16, maximum: MAX_MEMORY / PAGE });
  const instance = new WebAssembly.Instance(kernelModule(), { env: { memory } });
  return { memory, instance, exports: instance.exports as unknown as KernelExports };
}

export function constant(instance: { readonly exports: object }, name: string): number {
  const v = (instance.exports as Record<string, WebAssembly.Global | undefined>)[name];
  if (!v) throw new Error(`kernel has no ${name}`);
  return v.value as number;
}

/** `n` rounded up to a multiple of `a`, in floating point: bitwise ops turn addresses past 2 GiB negative. */
export function alignUp(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}

/** For a memory's too-large error. */
export interface MemoryUse {
  readonly what: string;
  readonly advice: string;
}

const MIB = 1024 ** 2;

export function memoryTooLarge(use: MemoryUse, bytes: number, beyond?: string): RankevalError {
  const needed = `${use.what} needs ${Math.ceil(bytes / MIB).toLocaleString("en-US")} MiB of WebAssembly memory`;
  const limit = beyond ?? "more than the 4,096 MiB (4 GiB) a WebAssembly memory can address";
  return new RankevalError("too-large", `${needed}, ${limit}: ${use.advice}`);
}

export function growTo(memory: WebAssembly.Memory, end: number, use: MemoryUse): void {
  if (!(end <= MAX_MEMORY)) throw memoryTooLarge(use, end);
  const have = memory.buffer.byteLength;
  if (end <= have) return;
  try {
    memory.grow(Math.ceil((end - have) / PAGE));
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw memoryTooLarge(use, end, `which this system did not give (${e.message})`);
  }
}

/** An instance and its memory, bump-allocated from an address up. */
export class KernelMemory implements KernelInstance {
  readonly memory: WebAssembly.Memory;
  readonly instance: WebAssembly.Instance;
  readonly exports: KernelExports;
  private top = 0;

  constructor(
    given: Pick<KernelInstance, "memory" | "instance"> | undefined,
    private readonly align: number,
    public use: MemoryUse,
  ) {
    const k = given ? { ...given, exports: given.instance.exports as unknown as KernelExports } : instantiate();
    this.memory = k.memory;
    this.instance = k.instance;
    this.exports = k.exports;
  }

  reset(from: number): void {
    this.top = from;
  }

  get mark(): number {
    return this.top;
  }

  /** Views made before may detach. */
  alloc(bytes: number): number {
    const ptr = alignUp(this.top, this.align);
    const end = ptr + bytes;
    if (!(bytes >= 0)) throw new Error(`kernel memory: ${bytes} bytes asked`);
    growTo(this.memory, end, this.use);
    this.top = end;
    return ptr;
  }

  f64(ptr: number, length: number): Float64Array {
    return new Float64Array(this.memory.buffer, ptr, length);
  }
  i32(ptr: number, length: number): Int32Array {
    return new Int32Array(this.memory.buffer, ptr, length);
  }
  u8(ptr: number, length: number): Uint8Array {
    return new Uint8Array(this.memory.buffer, ptr, length);
  }
}

let compiled: WebAssembly.Module | undefined;

/** A page's CSP may forbid WebAssembly: browsers name only 'unsafe-eval', but 'wasm-unsafe-eval' is enough. */
export function kernelModule(): WebAssembly.Module {
  if (compiled) return compiled;
  try {
    compiled = new WebAssembly.Module(decodeBase64(KERNEL_WASM_BASE64));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (!/CSP|Content.Security.Policy|unsafe-eval/i.test(message)) throw e;
    throw new Error(
      `rankeval: the page's Content-Security-Policy does not allow WebAssembly, which rankeval computes with: add 'wasm-unsafe-eval' to its script-src (${message})`,
      { cause: e },
    );
  }
  return compiled;
}

/** Node's Buffer decodes base64 several times faster than atob. */
const NodeBuffer = (globalThis as { Buffer?: { from(text: string, encoding: "base64"): Uint8Array } }).Buffer;

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  if (NodeBuffer) {
    const b = NodeBuffer.from(text, "base64");
    return new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength);
  }
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
