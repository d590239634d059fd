// The harness itself: each way a call can end is seen as such (else every case above it proves nothing).
import { describe, expect, it } from "vitest";
import { hostile, thrown } from "./_call.js";

describe("hostile calls' harness", () => {
  it("reports a value, a RankevalError with its code, a hang and a heap without bound", async () => {
    expect(await hostile("return rankeval.parseMeasures('map').length")).toMatchObject({ kind: "returned", value: 1 });
    expect(await thrown("return rankeval.evaluateRun({}, {}, ['nope'])")).toMatchObject({
      name: "RankevalError",
      code: "bad-measure",
    });
    expect(await hostile("await new Promise(() => setInterval(() => {}, 1000))", { ms: 1500 })).toMatchObject({
      kind: "killed",
    });
    const heap = await hostile("const a = []; for (;;) a.push(new Array(1e6).fill(1))", { heapMb: 64 });
    expect(heap.kind).toBe("killed");
  });
});
