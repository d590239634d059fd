// The kernel's memory near its limits, without allocating gigabytes: the one allocator's arithmetic
// around 2^31 and 2^32 (a memory that only says its size), the too-large error it throws, and the
// sizes the kernel reports for rankings too large for a u32.
import { describe, expect, it } from "vitest";
import { RankevalError } from "../src/errors/errors.js";
import { KERNEL_JUDGMENT_BYTES, KERNEL_ROW_BYTES } from "../src/kernel/kernel.js";
import { alignUp, growTo, instantiate, KernelMemory, MAX_MEMORY, type MemoryUse } from "../src/kernel/module.js";
import { KernelRows } from "../src/io/kernel-line-parser.js";

const USE: MemoryUse = { what: "this test", advice: "do less" };

/** A memory of `bytes` that records growth, or refuses it (`refuse`), touching nothing. */
function fakeMemory(bytes: number, refuse = false) {
  const memory = {
    grown: 0,
    buffer: { byteLength: bytes },
    grow(pages: number) {
      if (refuse) throw new RangeError("WebAssembly.Memory.grow(): Out of memory");
      memory.grown += pages;
      memory.buffer = { byteLength: memory.buffer.byteLength + pages * 65536 };
      return 0;
    },
  };
  return memory;
}

function arena(bytes: number, align: number, refuse = false) {
  const memory = fakeMemory(bytes, refuse);
  const instance = { exports: {} } as unknown as WebAssembly.Instance;
  return { memory, k: new KernelMemory({ memory: memory as unknown as WebAssembly.Memory, instance }, align, USE) };
}

function tooLarge(f: () => unknown): RankevalError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(RankevalError);
    expect((e as RankevalError).code).toBe("too-large");
    return e as RankevalError;
  }
  throw new Error("no error");
}

describe("the kernel's allocator", () => {
  it("rounds addresses past 2 GiB up, never to a negative one", () => {
    expect(alignUp(2 ** 31 - 3, 8)).toBe(2 ** 31);
    expect(alignUp(2 ** 31 + 1, 16)).toBe(2 ** 31 + 16);
    expect(alignUp(2 ** 32 - 15, 16)).toBe(2 ** 32);
    expect(alignUp(3 * 2 ** 30, 8)).toBe(3 * 2 ** 30);
    const { k } = arena(MAX_MEMORY, 16);
    k.reset(2 ** 31 - 3);
    expect(k.alloc(32)).toBe(2 ** 31);
    expect(k.mark).toBe(2 ** 31 + 32);
    k.reset(2 ** 32 - 20);
    expect(k.alloc(16)).toBe(2 ** 32 - 16); // the last 16 bytes of the 4 GiB
  });

  it("grows the memory to an end past 2 GiB by the pages it needs", () => {
    const { memory, k } = arena(2 ** 31, 8);
    k.reset(2 ** 31 - 5);
    expect(k.alloc(65536)).toBe(2 ** 31);
    expect(memory.grown).toBe(1);
    expect(memory.buffer.byteLength).toBe(2 ** 31 + 65536);
  });

  it("throws too-large past 4 GiB, saying how much was needed, the limit and what to do", () => {
    const { memory, k } = arena(MAX_MEMORY - 65536, 8);
    k.reset(2 ** 32 - 8);
    const e = tooLarge(() => k.alloc(2 ** 20 + 8));
    expect(e.message).toBe(
      "this test needs 4,097 MiB of WebAssembly memory, more than the 4,096 MiB (4 GiB) a WebAssembly memory " +
        "can address: do less",
    );
    expect(memory.grown).toBe(0);
    // A size past 2^32 (a u32 would have wrapped it to a small one) and one that is not a number.
    expect(() => growTo(memory as unknown as WebAssembly.Memory, 2 ** 33 + 8, USE)).toThrow(/8,193 MiB/);
    expect(() => growTo(memory as unknown as WebAssembly.Memory, NaN, USE)).toThrow(RankevalError);
  });

  it("throws too-large when the system refuses to grow the memory", () => {
    const { k } = arena(2 ** 20, 8, true);
    k.reset(2 ** 20);
    const e = tooLarge(() => k.alloc(2 ** 31));
    expect(e.message).toMatch(/^this test needs 2,049 MiB of WebAssembly memory, which this system did not give/);
    expect(e.message).toMatch(/Out of memory\): do less$/);
  });
});

describe("the kernel's sizes", () => {
  it("reports the scratch of rankings too large for 32 bits as the bytes they need", () => {
    const { exports } = instantiate();
    const rows = 3e7;
    const bytes = exports.scratchBytes(rows, rows, 64);
    expect(bytes).toBeGreaterThan(2 ** 32);
    expect(bytes - exports.scratchBytes(rows, 0, 64)).toBe(rows * 44); // 20 bytes a judgment, 24 of compat's
    expect(exports.diversityScratchBytes(2 ** 31 - 1, 0, 0)).toBeGreaterThan(2 ** 32);
  });

  it("takes KERNEL_ROW_BYTES a ranked row and KERNEL_JUDGMENT_BYTES a judgment (the README's figures)", () => {
    const { exports } = instantiate();
    const n = 1e6;
    // Scratch per row, then the score, label, document id, its pool entry and the discount.
    const perRow = (exports.scratchBytes(n, 0, 64) - exports.scratchBytes(0, 0, 64)) / n + 8 + 8 + 4 + 4 + 8;
    expect(perRow).toBe(KERNEL_ROW_BYTES);
    // Scratch per judgment, then its label.
    expect((exports.scratchBytes(0, n, 64) - exports.scratchBytes(0, 0, 64)) / n + 8).toBe(KERNEL_JUDGMENT_BYTES);
  });
});

describe("the parsers' columns in the kernel's memory", () => {
  /** KernelRows' sizing, called as RowsBuilder.reserve would: what the range needs, then the capacities asked. */
  function resize(needs: [number, number], rows: number, pool: number): KernelRows {
    const k = new KernelRows();
    const internals = k as unknown as { needRows: number; needPool: number; resize(rows: number, pool: number): void };
    [internals.needRows, internals.needPool] = needs;
    internals.resize(rows, pool);
    return k;
  }

  it("asks only what a range needs where the spare room asked would pass the limits", () => {
    // Doubling to 300M rows (6 GB) or 3 GB of ids would fail though the range needs little.
    expect(resize([1000, 4096], 3e8, 4096).columns().free).toBeLessThan(2 ** 20);
    expect(resize([1000, 4096], 1000, 3e9).columns().free).toBeLessThan(2 ** 20);
  });

  it("throws too-large when a range needs more than the memory or the ids' 32-bit offsets hold", () => {
    const rows = tooLarge(() => resize([2.5e8, 4096], 2.5e8, 4096));
    expect(rows.message).toMatch(/^reading this input needs 4,7\d\d MiB of WebAssembly memory, more than/);
    expect(rows.message).toMatch(/--per-query-out .* --merge/);
    const ids = tooLarge(() => resize([1000, 2 ** 31], 1000, 2 ** 31));
    expect(ids.message).toMatch(/its document ids alone past the 2 GiB their 32-bit offsets index/);
  });
});
