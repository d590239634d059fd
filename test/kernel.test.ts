// The kernel's own contract: it never allocates, blocks of queries give the same numbers as one
// batch, and its sort orders any scores exactly (outliers, ties, huge ranges, signed zeros).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { evaluate } from "../src/index.js";
import { groupRows } from "../src/pipeline/rows-by-query.js";
import { runKernel } from "../src/kernel/kernel.js";
import { parseMeasures } from "../src/names/resolve.js";
import { resolveOptions } from "../src/measures/options.js";

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The ranking the kernel produced, read back through dcg with one distinct power-of-two gain per row. */
function rankedRows(score: number[]): number[] {
  // Label i+1 with gain 2^-(i+1)... is not exact after discounting, so rank one row at a time:
  // mrr with exactly one relevant row gives that row's rank.
  const ranks: number[] = [];
  for (let target = 0; target < score.length; target++) {
    const rel = score.map((_, i) => (i === target ? 1 : 0));
    const r = evaluate({ qid: score.map(() => 1), score, rel }, "mrr");
    ranks.push(Math.round(1 / r.mean.mrr));
  }
  const order = new Array<number>(score.length);
  ranks.forEach((rank, row) => (order[rank - 1] = row));
  return order;
}

function expectedOrder(score: number[]): number[] {
  return score.map((_, i) => i).sort((a, b) => (score[b] !== score[a] ? score[b] - score[a] : a - b));
}

describe("kernel", () => {
  it("never allocates: the built module has no runtime allocator calls", () => {
    const wat = readFileSync(new URL("../build/kernel.wat", import.meta.url), "utf8");
    expect(wat).not.toMatch(/__new|__alloc|rt\/stub/);
    expect(wat).toMatch(/\(import "env" "memory"/);
  });

  it.each([
    ["distinct", [0.5, 0.1, 0.9, 0.3, 0.7]],
    ["exact ties keep input order", [1, 2, 1, 2, 1, 0, 2]],
    ["all equal", [3, 3, 3, 3]],
    ["one row", [42]],
    ["signed zeros tie", [0, -0, 0, -0]],
    [
      "an outlier squeezes the rest into one bucket",
      [1e300, ...Array.from({ length: 40 }, (_, i) => ((i * 7919) % 41) / 41)],
    ],
    ["a range too wide for a double", [1.7e308, -1.7e308, 0, 1, -1]],
    ["negative scores", [-3, -1, -2, -1e-9, -1e9]],
    ["near ties past 1e-12", [1, 1 + 1e-12, 1 - 1e-12, 1, 1 + 2e-12]],
    ["tiny subnormals", [5e-324, 1e-323, 0, -5e-324]],
  ])("orders %s", (_, score) => {
    expect(rankedRows(score as number[])).toEqual(expectedOrder(score as number[]));
  });

  it("orders 3,000 random scores drawn from few values (long runs of ties) and from a skewed distribution", () => {
    const next = random(7);
    for (const draw of [() => Math.floor(next() * 5), () => Math.exp(next() * 40)]) {
      const score = Array.from({ length: 3000 }, draw);
      const rel = score.map((_, i) => i % 3); // labels 0..2 make inversions sensitive to the order
      const ranked = expectedOrder(score).map((i) => rel[i]);
      let inversions = 0;
      for (let i = 0; i < ranked.length; i++)
        for (let j = i + 1; j < ranked.length; j++) if (ranked[i] < ranked[j]) inversions++;
      const r = evaluate({ qid: score.map(() => "q"), score, rel }, "inversions");
      expect(r.mean.inversions).toBe(inversions);
    }
  });

  it("gives the same values in blocks of queries as in one batch", () => {
    const next = random(11);
    const qid: number[] = [];
    const score: number[] = [];
    const rel: number[] = [];
    for (let q = 0; q < 300; q++) {
      const n = 1 + Math.floor(next() * 40);
      for (let i = 0; i < n; i++) {
        qid.push(q);
        score.push(Math.round(next() * 100) / 10);
        rel.push(Math.floor(next() * 4));
      }
    }
    const { batch } = groupRows({ qid, score, rel });
    const measures = parseMeasures("ndcg@5,10 map mrr precision@3 bpref err@10 inversions kendall_tau");
    const options = resolveOptions({ gain: "linear" });
    const whole = runKernel(batch, measures, options);
    const blocks = runKernel(batch, measures, options, { blockBytes: 2000 }); // a few queries per block
    expect(blocks).toEqual(whole);
  });

  it("orders ties by document id alike with the pool laid out whole, a block's range of it, or a block's entries gathered", () => {
    const next = random(13);
    const qid: number[] = [];
    const score: number[] = [];
    const rel: number[] = [];
    const docid: string[] = [];
    for (let q = 0; q < 200; q++) {
      const n = 1 + Math.floor(next() * 60);
      for (let i = 0; i < n; i++) {
        qid.push(q);
        score.push(Math.floor(next() * 4)); // many ties
        rel.push(Math.floor(next() * 3));
        docid.push(`doc-${Math.floor(next() * 1e6)}-${q}-${i}`);
      }
    }
    const { batch } = groupRows({ qid, score, rel, docid });
    const measures = parseMeasures("ndcg@5,10 map mrr precision@3 bpref err@10");
    const options = resolveOptions({ ties: "docid" });
    const whole = runKernel(batch, measures, options, { blockBytes: 2000, poolWhole: Infinity });
    // Rows name entries in order (a LETOR file's, a join's): each block's range of the pool.
    expect(runKernel(batch, measures, options, { blockBytes: 2000, poolWhole: 0 })).toEqual(whole);
    // Rows naming entries far apart (the pool's entries shuffled): each block's entries gathered.
    const n = batch.docids!.length;
    const at = Array.from({ length: n }, (_, i) => (i * 7919) % n); // entry i moves to at[i] (n is not a multiple of 7919)
    const parts: Uint8Array[] = new Array(n);
    for (let i = 0; i < n; i++)
      parts[at[i]] = batch.pool!.bytes.subarray(batch.pool!.offsets[i], batch.pool!.offsets[i + 1]);
    const offsets = new Int32Array(n + 1);
    parts.forEach((p, i) => (offsets[i + 1] = offsets[i] + p.length));
    const bytes = new Uint8Array(offsets[n]);
    parts.forEach((p, i) => bytes.set(p, offsets[i]));
    const flipped = { ...batch, pool: { bytes, offsets }, docids: Int32Array.from(batch.docids!, (d) => at[d]) };
    expect(new Set(at).size).toBe(n);
    expect(runKernel(flipped, measures, options, { blockBytes: 2000, poolWhole: 0 })).toEqual(whole);
  });
});
