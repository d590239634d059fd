// The options table (src/app/options-table.ts) drives the command line's parser, --help, "did you mean",
// the mode refusals, and says which library option and page field each option is.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { flagOf, labelOf, OPTION_ROWS } from "../src/app/options-table.js";
import { EVALUATION_OPTIONS, LONG_OPTIONS, parseArgs, USAGE } from "../src/node/args.js";
import { evaluateFiles } from "../src/node/index.js";

/** A value each option takes, by its value's name in --help. */
const SAMPLE: Record<string, string> = {
  N: "3",
  "T[,T...]": "t",
  RUN: "a",
  C: "holm",
  A: "0.1",
  "M>=B": "map>=0",
  FILE: "x.txt",
  B: "100",
  S: "1",
  DELTA: "0.02",
  P: "0.5",
  "P=V": "k=60",
  "W,W,...": "1,2",
  TAG: "t",
  "B,B,...": "0.5,1.5",
  HOW: "max",
  QRELS: "j.txt",
  M: "sum",
};

describe("the options table", () => {
  it("lists in --help every row with help, as its label, and every long spelling beside 'did you mean'", () => {
    for (const r of OPTION_ROWS.filter((r) => r.help)) expect(USAGE).toContain(`  ${labelOf(r)}`);
    const long = OPTION_ROWS.flatMap((r) => r.names.split(" ")).filter((n) => n.length > 1);
    expect([...LONG_OPTIONS].sort()).toEqual([...new Set(long)].sort());
    expect(() => parseArgs(["--tie-rang"])).toThrow("unknown option --tie-rang (did you mean --tie-range?)");
  });

  it("parses trec_eval's long spellings as their rows' keys", () => {
    expect(parseArgs(["--query_eval_wanted", "-n", "q", "r"]).perQuery).toBe(true);
    expect(parseArgs(["--Max_retrieved_per_topic=5", "q", "r"]).depth).toBe(5);
  });

  it("refuses an option outside the mode its row names, as '<flag> needs <the mode's label>'", () => {
    const needing = OPTION_ROWS.filter((r) => r.needs && r.names !== "");
    expect(needing.map((r) => r.key)).toContain("alpha");
    for (const r of needing) {
      const mode = OPTION_ROWS.find((m) => m.key === r.needs)!;
      const argv = r.value ? [flagOf(r.key), SAMPLE[r.value]] : [flagOf(r.key)];
      expect(() => parseArgs([...argv, "q", "r"]), r.key).toThrow(`${flagOf(r.key)} needs ${labelOf(mode)}`);
    }
  });

  it("refuses in trec_eval's text what a row prints beside the values", () => {
    for (const r of OPTION_ROWS.filter((r) => r.beside)) {
      const argv = r.value ? [flagOf(r.key), "t"] : [flagOf(r.key)];
      expect(() => parseArgs([...argv, "--format", "trec", "q", "r"]), r.key).toThrow(
        `${flagOf(r.key)} prints ${r.beside}, which trec_eval's text has no place for`,
      );
    }
  });

  it("makes the options per-query results refuse from its rows", () => {
    expect(EVALUATION_OPTIONS).toContainEqual(["threshold", "-l"]);
    expect(EVALUATION_OPTIONS).toContainEqual(["columns", "--columns"]);
    expect(EVALUATION_OPTIONS.map(([k]) => k)).not.toContain("tieRange");
  });

  it("names library options evaluateFiles takes, and a misspelled one is refused with the nearest", async () => {
    const keys = OPTION_ROWS.flatMap((r) => (r.library ? [r.library] : []));
    expect(keys).toContain("relevanceThreshold");
    for (const key of keys) {
      const e = await evaluateFiles("/nonexistent/q", "/nonexistent/r", ["map"], { [key]: undefined }).catch((e) => e);
      expect(String(e), key).not.toContain("unknown option");
    }
    await expect(
      evaluateFiles("/nonexistent/q", "/nonexistent/r", ["map"], { tieRang: true } as never),
    ).rejects.toThrow(/unknown option "tieRang" \(did you mean tieRange\?\)/);
  });

  it("names page fields the page's form has", () => {
    const html = readFileSync(new URL("../web/index.html", import.meta.url), "utf8");
    const fields = OPTION_ROWS.flatMap((r) => (r.page ? [r.page] : []));
    expect(fields).toContain("conventionPreset");
    for (const f of fields) expect(html, f).toContain(`name="${f}"`);
  });
});
