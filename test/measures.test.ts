import { describe, expect, it } from "vitest";
import { RankevalError } from "../src/errors.js";
import { parseMeasures } from "../src/measures/measure.js";
import { describeOptions, resolveOptions } from "../src/options.js";

const names = (spec: string | string[]) => parseMeasures(spec).map((m) => m.name);

describe("measure names", () => {
  it.each([
    ["ndcg@10", ["ndcg@10"]],
    ["ndcg@1,3,5,10", ["ndcg@1", "ndcg@3", "ndcg@5", "ndcg@10"]],
    ["ndcg", ["ndcg"]],
    ["ndcg_cut.10,20", ["ndcg@10", "ndcg@20"]],
    ["ndcg_cut_10", ["ndcg@10"]],
    ["nDCG@10", ["ndcg@10"]],
    ["P.5,10", ["precision@5", "precision@10"]],
    ["P_5", ["precision@5"]],
    ["P@5", ["precision@5"]],
    ["R@100", ["recall@100"]],
    ["recall_1000", ["recall@1000"]],
    ["AP", ["map"]],
    ["map_cut.10", ["map@10"]],
    ["recip_rank", ["mrr"]],
    ["RR@10", ["mrr@10"]],
    ["Rprec", ["r-precision"]],
    ["success.1,5", ["hit_rate@1", "hit_rate@5"]],
    ["ERR@20", ["err@20"]],
    ["err(max=4)@20", ["err@20"]],
    ["err(max=3)@20", ["err(max=3)@20"]],
    ["num_rel_ret", ["num_rel_ret"]],
    ["tau", ["kendall_tau"]],
  ])("%s -> %j", (spec, expected) => {
    expect(names(spec)).toEqual(expected);
  });

  it("takes several specs, separated by spaces or as a list, without duplicates", () => {
    expect(names("ndcg@10 map  P@10")).toEqual(["ndcg@10", "map", "precision@10"]);
    expect(names(["ndcg@5", "ndcg_cut.5", "map"])).toEqual(["ndcg@5", "map"]);
  });

  it.each([
    ["bleu@4", /unknown measure "bleu"/],
    ["ndcg@0", /cutoff "0" is not a positive integer/],
    ["ndcg@-3", /not of the form|not a positive integer/],
    ["P@2.5", /not of the form|cutoff "2\.5"/],
    ["precision", /precision needs a cutoff/],
    ["num_ret@10", /num_ret takes no cutoff/],
    ["err(p=3)@10", /err has no parameter "p"/],
    ["err(max=0)@10", /max grade must be an integer from 1 to 30/],
    ["", /no measure given/],
  ])("rejects %j", (spec, message) => {
    expect(() => parseMeasures(spec)).toThrow(RankevalError);
    expect(() => parseMeasures(spec)).toThrow(message);
  });
});

describe("options", () => {
  it("has the documented defaults and prints them", () => {
    const o = resolveOptions();
    expect(o).toMatchObject({ gain: "exp", relevanceThreshold: 1, noRelevant: "zero", beyondList: "pad", depth: Infinity, ties: "docid" });
    expect(describeOptions(o)).toBe("gain=exp relevanceThreshold=1 noRelevant=zero beyondList=pad ties=docid");
    expect(describeOptions(resolveOptions({ gain: { 1: 3, 2: 9 }, depth: 100, ties: "input" }))).toBe(
      "gain={1:3,2:9} relevanceThreshold=1 noRelevant=zero beyondList=pad ties=input depth=100",
    );
  });

  it.each([
    [{ gain: "log" }, /gain must be/],
    [{ gain: { 0: 1 } }, /label "0" is not an integer from 1/],
    [{ gain: { 1.5: 1 } }, /label "1.5"/],
    [{ gain: { 2: Infinity } }, /must be a finite number >= 0/],
    [{ gain: { 2: -1 } }, /must be a finite number >= 0/],
    [{ relevanceThreshold: NaN }, /relevanceThreshold/],
    [{ relevanceThreshold: 0 }, /relevanceThreshold must be a number > 0/],
    [{ noRelevant: "ignore" }, /noRelevant must be/],
    [{ beyondList: "truncate" }, /beyondList must be/],
    [{ depth: 0 }, /depth must be a positive integer/],
    [{ ties: "score" }, /ties must be "docid" or "input", not "score"/],
    [{ ties: null }, /ties must be "docid" or "input", not null/],
  ])("rejects %j", (options, message) => {
    expect(() => resolveOptions(options as never)).toThrow(message);
  });
});
