/**
 * The kernel's WebAssembly module (assembly/, embedded at build time), compiled once per process, its
 * instances, and the one declaration of its exports that every host uses.
 */
import { RankevalError } from "../errors/errors.js";
import { KERNEL_WASM_BASE64 } from "./wasm.generated.js";

/** A row parser of assembly/parse.ts: (state, bytes [p, end), the columns' addresses) -> where it stopped. */
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

/** configure's last arguments, which kernel.ts passes through. */
export type Layout = [
  docids: number,
  poolBytes: number,
  poolOffsets: number,
  scratch: number,
  maxN: number,
  maxJ: number,
];

/** The resampling exports' first arguments. */
type Resampling = [rows: number, vectors: number, x: number, iterations: number, first: number, seed: bigint];

/** The kernel's exports (assembly/index.ts is the ABI), addresses and sizes as numbers. */
export interface KernelExports {
  heapBase(): number;
  // Evaluation (assembly/index.ts).
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
  // Parsing (assembly/parse.ts).
  parseRunRows: ParseRows;
  parseQrelsRows: ParseRows;
  parseLetorRows: ParseRows;
  parseScoreRows: ParseRows;
  querySpans(qid: number, n: number, ids: number, starts: number): number;
  firstRepeated(nq: number, starts: number, offsets: number, bytes: number, slots: number): number;
  // Lines cut by query id among workers (assembly/split.ts).
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
  // The join (assembly/join.ts).
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
  // Resampling (assembly/significance.ts).
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
/** wasm32 addresses 4 GiB, and Node and browsers grow memories that far. */
export const MAX_MEMORY = 2 ** 32;

/** A new instance over a new memory (1 MiB, growing up to 4 GiB). */
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

/** `n` rounded up to a multiple of `a` (a power of two) in floating point: bitwise operators would turn addresses past 2 GiB negative. */
export function alignUp(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}

/** What a memory holds and what to do when it does not fit, for its too-large error. */
export interface MemoryUse {
  readonly what: string;
  readonly advice: string;
}

const MIB = 1024 ** 2;

/** The too-large error of `use` needing `bytes`: past 4 GiB, or past the limit `beyond` says. */
export function memoryTooLarge(use: MemoryUse, bytes: number, beyond?: string): RankevalError {
  const needed = `${use.what} needs ${Math.ceil(bytes / MIB).toLocaleString("en-US")} MiB of WebAssembly memory`;
  const limit = beyond ?? "more than the 4,096 MiB (4 GiB) a WebAssembly memory can address";
  return new RankevalError("too-large", `${needed}, ${limit}: ${use.advice}`);
}

/** Grows `memory` to hold `end` bytes, else throws `use`'s too-large error. */
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

/** An instance and its memory (new or given), laid out from an address up: alloc(bytes) aligns to `align` and grows the memory. */
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

  /** Reserves `bytes`, growing the memory (views made before may detach). */
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

/** The module. A page's CSP may forbid compiling WebAssembly: browsers name only 'unsafe-eval', this error 'wasm-unsafe-eval', which is enough. */
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

/** Node's Buffer, where there is one: it decodes base64 natively, several times faster than atob and a loop. */
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
