// rankeval/node's resamplingPool given what it cannot take, and used after close().
import { describe, expect, it } from "vitest";
import { hostile, thrown } from "./_call.js";

describe("resamplingPool(threads)", () => {
  for (const bad of ["-1", "1.5", "NaN", "Infinity", "1e9", '"4"', "null", "{}"]) {
    it(`refuses ${bad} as a number of threads`, async () => {
      const e = await thrown(`return node.resamplingPool(${bad})`);
      expect(e).toMatchObject({ name: "RankevalError", code: "bad-option" });
      expect(e.message).toMatch(/^resamplingPool\(threads\): .* is not a number of threads from 0 to 256$/);
    });
  }
  it("takes undefined as the default, 0 as none (the work in the calling thread)", async () => {
    const o = await hostile("return [node.resamplingPool(undefined).size >= 0, node.resamplingPool(0).size]");
    expect(o).toMatchObject({ kind: "returned", value: [true, 0] });
  });
  it("a closed pool refuses jobs, and compareAsync says so", async () => {
    const e = await thrown(`
      const r = rankeval.evaluate({ qid: [1, 1, 2, 2], score: [2, 1, 2, 1], rel: [1, 0, 0, 1] }, ["map"]);
      const pool = node.resamplingPool(2);
      await pool.close();
      return await rankeval.compareAsync([{ name: "a", result: r }, { name: "b", result: r }], { tests: ["bootstrap"] }, pool);
    `);
    expect(e).toMatchObject({
      name: "RankevalError",
      code: "bad-option",
      message: "resamplingPool: used after close()",
    });
  });
});
