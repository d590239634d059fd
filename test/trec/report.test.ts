import { describe, expect, it } from "vitest";
import { RankevalError } from "../../src/errors/errors.js";
import { isComputed, parseTrecMeasures, type TrecMeasure } from "../../src/trec/measures.js";
import { aggregate } from "../../src/pipeline/aggregate.js";
import { formatTrecReport } from "../../src/output/trec-text.js";
import { haveGolden, readGolden, splitLine } from "./_shared.js";

/** A golden output parsed back: per-query values (qids in order of appearance), summary values, run tag. */
function parseGolden(text: string) {
  const qids: string[] = [];
  const perQuery = new Map<string, Map<string, number | string>>(); // name -> qid -> value
  const summary: Record<string, number> = {};
  let runid = "";
  const lines = text.split("\n").filter((l) => l !== "");
  for (const line of lines) {
    const { name, qid, value } = splitLine(line);
    if (qid === "all") {
      if (name === "runid") runid = value;
      else summary[name] = Number(value);
      continue;
    }
    if (!qids.includes(qid)) qids.push(qid);
    if (!perQuery.has(name)) perQuery.set(name, new Map());
    perQuery.get(name)!.set(qid, name.startsWith("relstring") ? value.slice(1, -1) : Number(value));
  }
  const values: Record<string, Float64Array | string[]> = {};
  for (const [name, byQid] of perQuery) {
    const col = qids.map((q) => byQid.get(q)!);
    values[name] = typeof col[0] === "string" ? (col as string[]) : Float64Array.from(col as number[]);
  }
  return { lines, qids, values, summary, runid };
}

/** Only the lines rankeval computes (every all_trec line now), the report's two (runid, num_q) included. */
const supported = (ms: TrecMeasure[]): TrecMeasure[] =>
  ms.map((m) => ({ ...m, lines: m.lines.filter(isComputed) })).filter((m) => m.lines.length > 0);

const GOLDEN = ["out.test", "out.test.a", "out.test.aq", "out.test.aql", "out.test.meas_params"];
const COMMANDS: Record<string, string[]> = {
  "out.test": [],
  "out.test.a": ["all_trec"],
  "out.test.aq": ["all_trec"],
  "out.test.aql": ["all_trec", "relstring.20"],
  "out.test.meas_params": [
    "iprec_at_recall..10,.20,.25,.75,.50",
    "P.5,7,3",
    "recall.20,2000",
    "Rprec_mult.5.0,0.2,0.35",
    "utility.2,-1,0,0",
    "11pt_avg..25,.5,.75",
    "ndcg.1=3,2=9,4=4.5",
    "ndcg_cut.10,20,23.4",
    "success.2,5,20",
  ],
};

describe.skipIf(!haveGolden(...GOLDEN))("rebuilds trec_eval's golden output from its own numbers", () => {
  it.each(["out.test.a", "out.test.aq"])("%s, the lines rankeval computes", (file) => {
    const g = parseGolden(readGolden(file));
    const measures = supported(parseTrecMeasures(COMMANDS[file]));
    const names = new Set(measures.flatMap((m) => m.lines.map((l) => l.name)));
    const want = g.lines.filter((l) => names.has(splitLine(l).name));
    // Every line: 99 in the summary, and 96 per query (relstring is per query only; runid, num_q and
    // gm_map, gm_bpref summary only).
    expect(want.length).toBe(file === "out.test.a" ? 99 : 99 + 3 * 96);
    const text = formatTrecReport({
      runid: g.runid,
      measures,
      perQuery: g.qids.length ? { qids: g.qids, values: g.values } : undefined,
      summary: g.summary,
    });
    expect(text.split("\n").slice(0, -1)).toEqual(want);
    expect(text.endsWith("\n")).toBe(true);
  });

  it.each(GOLDEN)("%s, every line (layout only: numbers fed back)", (file) => {
    const g = parseGolden(readGolden(file));
    const text = formatTrecReport({
      runid: g.runid,
      measures: parseTrecMeasures(COMMANDS[file]),
      perQuery: g.qids.length ? { qids: g.qids, values: g.values } : undefined,
      summary: g.summary,
    });
    expect(text.split("\n").slice(0, -1)).toEqual(g.lines);
  });

  it("qids given in any order print in strcmp order", () => {
    const g = parseGolden(readGolden("out.test.aq"));
    const rev = [2, 1, 0];
    const values = Object.fromEntries(
      Object.entries(g.values).map(([k, v]) => [
        k,
        Array.isArray(v) ? rev.map((i) => v[i]) : Float64Array.from(rev.map((i) => v[i])),
      ]),
    );
    const text = formatTrecReport({
      runid: g.runid,
      measures: parseTrecMeasures(["all_trec"]),
      perQuery: { qids: rev.map((i) => g.qids[i]), values },
      summary: g.summary,
    });
    expect(text.split("\n").slice(0, -1)).toEqual(g.lines);
  });

  it("aggregates the per-query values into the summary: sums exactly, means to the printed rounding", () => {
    const g = parseGolden(readGolden("out.test.aq"));
    const measures = parseTrecMeasures([
      "num_ret",
      "num_rel",
      "num_rel_ret",
      "num_nonrel_judged_ret",
      "num_q",
      "runid",
    ]);
    const text = formatTrecReport({
      runid: g.runid,
      measures,
      perQuery: { qids: g.qids, values: g.values },
      printPerQuery: false,
    });
    expect(text).toBe(
      [
        "runid                 \tall\tSTANDARD",
        "num_q                 \tall\t3",
        "num_ret               \tall\t1500",
        "num_rel               \tall\t561",
        "num_rel_ret           \tall\t131",
        "num_nonrel_judged_ret \tall\t607",
        "",
      ].join("\n"),
    );
    // Means of 4-place per-query values (each off by <= 5e-5) land within 1e-4 of the 4-place summary.
    for (const name of ["map", "P_10", "ndcg", "recall_100", "success_10", "bpref"]) {
      expect(Math.abs(aggregate("mean", g.values[name] as Float64Array) - g.summary[name])).toBeLessThanOrEqual(
        1.0001e-4,
      );
    }
    // gm_map from per-query map: exp(mean(log(max(ap, 1e-5)))) on the rounded values.
    expect(Math.abs(aggregate("geomean", g.values.map as Float64Array) - g.summary.gm_map)).toBeLessThan(2e-4);
  });
});

describe("aggregate", () => {
  it("mean, sum, count, geometric mean with the 1e-5 floor", () => {
    expect(aggregate("mean", [0.5, 0.25, 0])).toBe(0.25);
    expect(aggregate("sum", [500, 500, 500])).toBe(1500);
    expect(aggregate("count", [1, 2, 3])).toBe(3);
    expect(aggregate("geomean", [0.25, 1])).toBeCloseTo(0.5, 15);
    expect(aggregate("geomean", [0, 0])).toBeCloseTo(1e-5, 18);
    expect(aggregate("geomean", [0, 1])).toBeCloseTo(Math.sqrt(1e-5), 15);
    expect(aggregate("mean", [1, 2], 4)).toBe(0.75); // an explicit num_q
  });
  it("sums left to right in the order given (no compensation)", () => {
    expect(aggregate("sum", [1e16, 1, 1, -1e16])).toBe(1e16 + 1 + 1 - 1e16);
    expect(aggregate("sum", [0.1, 0.2, 0.3])).toBe(0.1 + 0.2 + 0.3);
  });
  it("has no numeric summary for runid and relstring", () => {
    expect(() => aggregate("runid", [])).toThrow(RankevalError);
    expect(() => aggregate("none", [])).toThrow(RankevalError);
  });
});

describe("formatTrecReport", () => {
  const measures = parseTrecMeasures(["runid", "num_q", "num_ret", "map", "gm_map", "P.5", "relstring"]);
  const perQuery = {
    qids: ["9", "100", "10"],
    values: {
      num_ret: [3, 1000, 20],
      map: Float64Array.from([0.5, 0.03125, 0]),
      gm_map: Float64Array.from([0.5, 0.03125, 0]),
      P_5: Float64Array.from([0.2, 0.4, 0]),
      relstring: ["100", "0000000001", "0000000000"],
    },
  };
  it("prints per query in strcmp order, then the summary", () => {
    const text = formatTrecReport({ runid: "tag", measures, perQuery });
    const mean = (0.03125 + 0 + 0.5) / 3;
    expect(text).toBe(
      [
        "num_ret               \t10\t20",
        "map                   \t10\t0.0000",
        "P_5                   \t10\t0.0000",
        "relstring             \t10\t'0000000000'",
        "num_ret               \t100\t1000",
        "map                   \t100\t0.0312",
        "P_5                   \t100\t0.4000",
        "relstring             \t100\t'0000000001'",
        "num_ret               \t9\t3",
        "map                   \t9\t0.5000",
        "P_5                   \t9\t0.2000",
        "relstring             \t9\t'100'",
        "runid                 \tall\ttag",
        "num_q                 \tall\t3",
        "num_ret               \tall\t1023",
        `map                   \tall\t${mean.toFixed(4)}`,
        `gm_map                \tall\t${Math.exp((Math.log(0.03125) + Math.log(1e-5) + Math.log(0.5)) / 3).toFixed(4)}`,
        `P_5                   \tall\t0.2000`,
        "",
      ].join("\n"),
    );
  });
  it("summary only, per query only (-n), summary overrides", () => {
    const summaryOnly = formatTrecReport({ runid: "tag", measures, perQuery, printPerQuery: false });
    expect(summaryOnly.split("\n")[0]).toBe("runid                 \tall\ttag");
    const qOnly = formatTrecReport({ runid: "tag", measures, perQuery, printSummary: false });
    expect(qOnly.includes("\tall\t")).toBe(false);
    const over = formatTrecReport({
      runid: "tag",
      measures,
      perQuery,
      printPerQuery: false,
      summary: { num_ret: 7, num_q: 5 },
    });
    expect(over).toContain("num_ret               \tall\t7\n");
    expect(over).toContain("num_q                 \tall\t5\n");
  });
  it("throws on missing or misaligned values", () => {
    expect(() =>
      formatTrecReport({ runid: "t", measures: parseTrecMeasures(["map"]), perQuery: { qids: ["1"], values: {} } }),
    ).toThrow(/no per-query values for "map"/);
    expect(() =>
      formatTrecReport({
        runid: "t",
        measures: parseTrecMeasures(["map"]),
        perQuery: { qids: ["1"], values: { map: [1, 2] } },
      }),
    ).toThrow(/2 values/);
    expect(() => formatTrecReport({ runid: "t", measures: parseTrecMeasures(["map"]) })).toThrow(/no summary value/);
  });
});
