// Hostile calls around the ptranking-tutorial preset and map_over_k (issue 28): near-miss preset names,
// parameters the family does not take, cutoffs it cannot read, and a cutoff far past the list.
import { describe, expect, it } from "vitest";
import { hostile, thrown } from "./_call.js";

const ROWS = "const rows = { qid: [1, 1, 1], score: [3, 2, 1], rel: [1, 0, 2] };";

describe("the ptranking-tutorial preset and map_over_k, called badly", () => {
  it("a misspelled preset is refused, naming the one meant", async () => {
    const e = await thrown(`${ROWS} return rankeval.evaluate(rows, ["map@3"], { preset: "ptranking_tutorial" });`);
    expect([e.name, e.code]).toEqual(["RankevalError", "bad-option"]);
    expect(e.message).toMatch(/unknown preset "ptranking_tutorial" \(did you mean ptranking-tutorial\?\)/);
  });

  it("map_over_k takes no parameter, and its cutoff is a positive integer", async () => {
    const p = await thrown(`${ROWS} return rankeval.evaluate(rows, ["map_over_k(max=2)@3"]);`);
    expect([p.name, p.code]).toEqual(["RankevalError", "bad-measure"]);
    expect(p.message).toMatch(/measure "map_over_k\(max=2\)@3": map_over_k has no parameter "max"/);
    const k = await thrown(`${ROWS} return rankeval.evaluate(rows, ["map_over_k@0"]);`);
    expect([k.code, k.message]).toEqual(["bad-measure", expect.stringMatching(/cutoff "0" is not a positive integer/)]);
  });

  it("the tutorial's ERR takes its maximum grade within err's range only", async () => {
    const e = await thrown(
      `${ROWS} return rankeval.evaluate(rows, ["err(max=31)@3"], { preset: "ptranking-tutorial" });`,
    );
    expect([e.code, e.message]).toEqual([
      "bad-measure",
      expect.stringMatching(/err's max grade must be an integer from 1 to 30/),
    ]);
  });

  it("a cutoff far past the list is read without a walk to it: S(k) / k, or 0 under the preset", async () => {
    const o = await hostile(
      `${ROWS} const k = 2 ** 31 - 1;
       return [rankeval.evaluate(rows, [\`map_over_k@\${k}\`]).mean[\`map_over_k@\${k}\`],
         rankeval.evaluate(rows, [\`map@\${k}\`], { preset: "ptranking-tutorial" }).mean[\`map@\${k}\`]];`,
      { ms: 20_000 },
    );
    expect(o.kind, o.why).toBe("returned");
    // relevant at ranks 1 and 3: S = 1 + 2/3, divided by k; the preset's "zero" past the list
    expect(o.value).toEqual([(1 + 2 / 3) / (2 ** 31 - 1), 0]);
  });
});
