// formatTable: runs side by side aligned by measure, each column's query count, the conventions where
// they differ, per-query rows, and the same decimals everywhere.
import { describe, expect, it } from "vitest";
import { RankevalError } from "../src/errors/errors.js";
import { evaluateRun, formatTable, type Result } from "../src/index.js";

const qrels = { q1: { a: 1, b: 0, c: 2 }, q2: { a: 1 }, q3: { z: 0 } };
const runA = { q1: { a: 0.9, b: 0.8, d: 0.7 }, q2: { a: 0.5 }, q3: { z: 1 } };
const runB = { q1: { c: 0.9, a: 0.8 }, q2: { x: 0.5 } };

/** The table's lines, each split on runs of blanks. */
const cells = (text: string) => text.split("\n").map((l) => l.split(/\s{2,}/));

describe("formatTable", () => {
  it("one result: its means with four decimals each (1.0000, not 1), and how many queries each is over", () => {
    const r = evaluateRun(qrels, runA, ["mrr", "num_ret", "map"], { noRelevant: "skip" });
    expect(formatTable(r)).toBe(
      [
        "measure    mean  queries",
        "mrr      1.0000        2",
        "num_ret  2.0000        2",
        "map      0.7500        2",
        "",
        "3 queries; 1 without relevant documents skipped",
        // Only the conventions these measures depend on (no gain, no cutoff): the registry says which.
        "conventions: relevanceThreshold=1 noRelevant=skip ties=docid",
      ].join("\n"),
    );
  });

  it("runs side by side, aligned by measure: an empty cell where a run lacks one, never -inf or NaN", () => {
    const a = evaluateRun(qrels, runA, ["map", "ndcg@2"]);
    const b = evaluateRun(qrels, runB, ["ndcg@2", "precision@1"]);
    const text = formatTable([
      { name: "A", result: a },
      { name: "B", result: b },
    ]);
    expect(text).not.toMatch(/inf|NaN/);
    expect(text.split("\n").slice(0, 5)).toEqual([
      "measure           A       B",
      "map          0.5000",
      `ndcg@2       ${a.mean["ndcg@2"].toFixed(4)}  ${b.mean["ndcg@2"].toFixed(4)}`,
      "precision@1          0.5000",
      "queries           3       2",
    ]);
    // The notes differ by run: one line each.
    expect(text).toContain("\nA: 3 queries\nB: 2 queries; 1 judged query absent from the run\n");
  });

  it("says where a mean is over fewer queries than the rest of its column", () => {
    // noRelevant nan: q3 (no relevant document) is left out of map, not of num_ret.
    const a = evaluateRun(qrels, runA, ["num_ret", "map"], { noRelevant: "nan" });
    const b = evaluateRun(qrels, runA, ["num_ret", "map"]);
    const lines = cells(
      formatTable([
        { name: "nan", result: a },
        { name: "zero", result: b },
      ]),
    );
    expect(lines[1]).toEqual(["num_ret", "1.6667", "1.6667"]);
    expect(lines[2]).toEqual(["map", "0.7500 (n=2)", "0.5000"]);
    expect(lines[3]).toEqual(["queries", "3", "3"]);
  });

  it("prints each column's conventions when the columns' differ, marked on their headers", () => {
    const lin = evaluateRun(qrels, runA, ["ndcg@3"], { gain: "linear" });
    const exp = evaluateRun(qrels, runA, ["ndcg@3"], { gain: "exp" });
    const text = formatTable([
      { name: "lin", result: lin },
      { name: "exp", result: exp },
    ]);
    expect(cells(text)[0]).toEqual(["measure", "lin [1]", "exp [2]"]);
    expect(text).toContain(
      "\n[1] conventions: gain=linear noRelevant=zero beyondList=pad ties=docid\n[2] conventions: gain=exp noRelevant=zero beyondList=pad ties=docid",
    );
    expect(text).not.toContain("\nconventions:");
  });

  it("prints each measure's conventions when a result's measures differ (measureConventions), marked on the measures", () => {
    const base = evaluateRun(qrels, runA, ["ndcg@3", "map"]);
    const tagged = (r: Result<string>): Result<string> =>
      ({
        ...r,
        measureConventions: {
          "ndcg@3": "trec_eval: gain=linear relevanceThreshold=1",
          map: "ir_measures: relevanceThreshold=2",
        },
      }) as Result<string>;
    const text = formatTable([
      { name: "A", result: tagged(base) },
      { name: "B", result: tagged(base) },
    ]);
    expect(cells(text).slice(0, 3)).toEqual([
      ["measure", "A", "B"],
      ["ndcg@3 [1]", base.mean["ndcg@3"].toFixed(4), base.mean["ndcg@3"].toFixed(4)],
      ["map [2]", "0.5000", "0.5000"],
    ]);
    expect(text).toMatch(
      /\n\[1\] conventions: trec_eval: gain=linear relevanceThreshold=1\n\[2\] conventions: ir_measures: relevanceThreshold=2$/,
    );
    // Measures computed alike share a line only where they are one tool's: under one line, ir_measures'
    // map would read as trec_eval's (or as rankeval's, where the line names no tool).
    const alike = {
      ...base,
      measureConventions: {
        "ndcg@3": "trec_eval: gain=linear relevanceThreshold=1",
        map: "ir_measures: relevanceThreshold=1",
      },
    } as Result<string>;
    expect(formatTable(alike)).toMatch(
      /\n\[1\] conventions: trec_eval: gain=linear relevanceThreshold=1\n\[2\] conventions: ir_measures: relevanceThreshold=1$/,
    );
    const oneTool = {
      ...base,
      measureConventions: {
        "ndcg@3": "trec_eval: gain=linear relevanceThreshold=1",
        map: "trec_eval: relevanceThreshold=1",
      },
    } as Result<string>;
    expect(formatTable(oneTool)).toMatch(/\nconventions: trec_eval: gain=linear relevanceThreshold=1$/);
    // One convention for every measure: the one line, as before.
    const same = { ...base, measureConventions: { "ndcg@3": "x: gain=exp", map: "x: gain=exp" } } as Result<string>;
    expect(formatTable(same)).toMatch(/\nconventions: x: gain=exp$/);
  });

  it("a measure that depends on fewer conventions takes its column's line", () => {
    // num_ret depends on none of them; map on noRelevant: a line per column, num_ret under each.
    const a = evaluateRun(qrels, runA, ["num_ret", "map"], { noRelevant: "nan" });
    const b = evaluateRun(qrels, runA, ["num_ret", "map"]);
    const text = formatTable([
      { name: "nan", result: a },
      { name: "zero", result: b },
    ]);
    expect(cells(text)[0]).toEqual(["measure", "nan [1]", "zero [2]"]);
    expect(text).toMatch(
      /\n\[1\] conventions: relevanceThreshold=1 noRelevant=nan ties=docid\n\[2\] conventions: relevanceThreshold=1 noRelevant=zero ties=docid$/,
    );
  });

  it("marks the cells when conventions differ both ways", () => {
    const a = {
      ...evaluateRun(qrels, runA, ["ndcg@3", "map"]),
      measureConventions: { "ndcg@3": "t: 1", map: "t: 2" },
    } as Result<string>;
    const b = {
      ...evaluateRun(qrels, runA, ["ndcg@3", "map"]),
      measureConventions: { "ndcg@3": "t: 2", map: "t: 2" },
    } as Result<string>;
    const lines = cells(
      formatTable([
        { name: "A", result: a },
        { name: "B", result: b },
      ]),
    );
    expect(lines[1]).toEqual(["ndcg@3", `${a.mean["ndcg@3"].toFixed(4)} [1]`, `${b.mean["ndcg@3"].toFixed(4)} [2]`]);
    expect(lines[2]).toEqual(["map", "0.5000 [2]", "0.5000 [2]"]);
  });

  it("per query: a row per query and measure (empty where a run lacks the query), then the means as 'all'; summary: false leaves them out", () => {
    const a = evaluateRun(qrels, runA, ["map"]);
    const b = evaluateRun(qrels, runB, ["map"]);
    const columns = [
      { name: "A", result: a },
      { name: "B", result: b },
    ];
    expect(formatTable(columns, { perQuery: true }).split("\n").slice(0, 6)).toEqual([
      "query  measure       A       B",
      "q1     map      0.5000  1.0000",
      "q2     map      1.0000  0.0000",
      "q3     map      0.0000",
      "all    map      0.5000  0.5000",
      "all    queries       3       2",
    ]);
    // A query no column has for a measure has no row.
    const c = evaluateRun(qrels, runB, ["precision@1"]);
    expect(
      formatTable(
        [
          { name: "A", result: a },
          { name: "C", result: c },
        ],
        { perQuery: true },
      ),
    ).not.toMatch(/^q3 +precision@1/m);
    const noSummary = formatTable(columns, { perQuery: true, summary: false });
    expect(noSummary).not.toMatch(/^all/m);
    expect(cells(noSummary)[3]).toEqual(["q3", "map", "0.0000"]);
    // One result: the values column is "value", the counts only on the means.
    expect(cells(formatTable(a, { perQuery: true })).slice(0, 3)).toEqual([
      ["query", "measure", "value", "queries"],
      ["q1", "map", "0.5000"],
      ["q2", "map", "1.0000"],
    ]);
  });

  it("takes the rows to show and their labels, as before", () => {
    const a = evaluateRun(qrels, runA, ["map", "mrr"]);
    expect(cells(formatTable([{ name: "A", result: a }], [{ label: "AP", measure: "map" }]))[1]).toEqual([
      "AP",
      "0.5000",
    ]);
  });

  it("refuses no results, and columns that are not { name, result }", () => {
    expect(() => formatTable([])).toThrow(RankevalError);
    expect(() => formatTable([])).toThrow(/no results to show/);
    const r = evaluateRun(qrels, runA, ["map"]);
    expect(() => formatTable([r] as never)).toThrow(/each column a name and a Result/);
  });
});
