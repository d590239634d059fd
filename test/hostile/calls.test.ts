// Hostile calls of every public function (rankeval, rankeval/io, rankeval/node, rankeval/reference): wrong
// types, unknown or misspelled options, shapes read as something else, misuse of the streaming parsers.
// Each must throw a RankevalError (or InputError) whose code and words name the argument: never a
// TypeError, a hang, or a value. Calls that cannot interfere share one process (each in its own
// try/catch), so the suite stays fast; the harness bounds each process's time and memory.
import { describe, expect, it } from "vitest";
import { hostile } from "./_call.js";

interface Case {
  /** A JavaScript expression (awaited) using the prelude's names. */
  call: string;
  code: "bad-option" | "bad-input" | "bad-measure";
  /** The words that name the argument and say what was expected. */
  says: RegExp;
  name?: "RankevalError" | "InputError";
}

/** What every group's calls can use: small valid judgments, a run, results and a comparison. */
const PRELUDE = `
  const enc = (s) => new TextEncoder().encode(s);
  const q = { q1: { d1: 1, d2: 0 }, q2: { d1: 1 } };
  const r = { q1: { d1: 0.5, d2: 0.2 }, q2: { d1: 1, d3: 0.1 } };
  const rows = { qid: [1, 1, 2], score: [0.3, 0.9, 0.1], rel: [0, 2, 1] };
  const res = rankeval.evaluateRun(q, r, ["map", "ndcg@10"]);
  const res2 = rankeval.evaluateRun(q, { q1: { d2: 0.5, d1: 0.2 }, q2: { d1: 1 } }, ["map", "ndcg@10"]);
  const two = [{ name: "a", result: res }, { name: "b", result: res2 }];
  const cmp = rankeval.compare(two, { iterations: 100 });
  const I = () => new io.Interner();
  const sq = { q1: { "1": { d1: 1 }, "2": { d2: 1 } } };
`;

/** Runs the cases in one process; returns each one's outcome, by index. */
async function outcomes(cases: readonly Case[]) {
  const body = `${PRELUDE}
    const out = [];
    for (const f of [${cases.map((c) => `async () => (${c.call})`).join(",\n")}]) {
      try {
        const v = await f();
        out.push({ returned: typeof v === "object" && v !== null ? Object.prototype.toString.call(v) : String(v) });
      } catch (e) {
        out.push({ name: e?.name, code: e?.code, message: String(e?.message ?? e) });
      }
    }
    return out;`;
  const o = await hostile(body, { ms: 60_000 });
  expect(o.kind, o.why).toBe("returned");
  return o.value as { name?: string; code?: string; message?: string; returned?: string }[];
}

/** Every case whose outcome is not its error, with what it gave instead (all at once: [] when none). */
function check(cases: readonly Case[], got: Awaited<ReturnType<typeof outcomes>>) {
  const wrong = cases.flatMap((c, i) => {
    const g = got[i];
    const right = g.name === (c.name ?? "RankevalError") && g.code === c.code && c.says.test(g.message ?? "");
    return right ? [] : [{ call: c.call, expected: `${c.code} ${c.says}`, got: g }];
  });
  expect(wrong).toEqual([]);
}

const OPTION = "bad-option" as const;
const INPUT = "bad-input" as const;
const MEASURE = "bad-measure" as const;

const EVALUATE: Case[] = [
  // Options: one checker, every call.
  {
    call: `rankeval.evaluate(rows, ["map"], { tie: "input" })`,
    code: OPTION,
    says: /unknown option "tie" \(did you mean ties\?\)/,
  },
  { call: `rankeval.evaluate(rows, ["map"], [])`, code: OPTION, says: /options must be an object .*not an array/ },
  { call: `rankeval.evaluate(rows, ["map"], new Map())`, code: OPTION, says: /options must be an object .*not a Map/ },
  {
    call: `rankeval.evaluate(rows, ["map"], "linear")`,
    code: OPTION,
    says: /options must be an object .*not "linear"/,
  },
  {
    call: `rankeval.evaluate(rows, ["map"], { judgedOnly: "false" })`,
    code: OPTION,
    says: /judgedOnly must be true or false, not "false"/,
  },
  {
    call: `rankeval.evaluate(rows, ["map"], { tieRange: 1 })`,
    code: OPTION,
    says: /tieRange must be true or false, not 1/,
  },
  {
    call: `rankeval.evaluate(rows, ["map"], { relevanceThreshold: "1" })`,
    code: OPTION,
    says: /relevanceThreshold must be a number >= 0, not "1"/,
  },
  {
    call: `rankeval.evaluate(rows, ["map"], { relevanceThreshold: NaN })`,
    code: OPTION,
    says: /relevanceThreshold .* not NaN/,
  },
  {
    call: `rankeval.evaluate(rows, ["map"], { depth: -Infinity })`,
    code: OPTION,
    says: /depth must be an integer >= 0, not -Infinity/,
  },
  {
    call: `rankeval.evaluate(rows, ["map"], { depth: 10n })`,
    code: OPTION,
    says: /depth must be an integer >= 0, not 10n/,
  },
  {
    call: `rankeval.evaluate(rows, ["map"], { gain: new Map([[1, 3]]) })`,
    code: OPTION,
    says: /gain must be "exp", "linear" or an object of label: gain, not a Map/,
  },
  {
    call: `rankeval.evaluate(rows, ["map"], { gain: { 2: "3" } })`,
    code: OPTION,
    says: /gain of label 2 must be a finite number >= 0, not "3"/,
  },
  {
    call: `rankeval.evaluate(rows, ["map"], { ties: "x".repeat(1e6) })`,
    code: OPTION,
    says: /^ties must be .*, not "x{40}…"$/,
  },
  {
    call: `rankeval.evaluate(rows, ["map"], { preset: "xgbost" })`,
    code: OPTION,
    says: /unknown preset "xgbost" \(did you mean xgboost\?\)/,
  },
  {
    call: `rankeval.evaluate(rows, ["map"], { ["x".repeat(1e6)]: 1 })`,
    code: OPTION,
    says: /^unknown option "x{40}…" \(the options are/,
  },
  // Measures.
  {
    call: `rankeval.evaluate(rows, "ndgc@10")`,
    code: MEASURE,
    says: /unknown measure "ndgc@10" \(did you mean ndcg@10/,
  },
  {
    call: `rankeval.evaluate(rows, [42])`,
    code: MEASURE,
    says: /measure spec must be a string or a parsed measure, not 42/,
  },
  { call: `rankeval.evaluate(rows, new Set(["map"]))`, code: MEASURE, says: /not a Set/ },
  { call: `rankeval.evaluate(rows, [])`, code: MEASURE, says: /no measure given/ },
  { call: `rankeval.parseMeasures(null)`, code: MEASURE, says: /measure spec must be .*, not null/ },
  {
    call: `rankeval.parseMeasures("y".repeat(20000))`,
    code: MEASURE,
    says: /^measure name "y{40}…" is 20000 characters long/,
  },
  {
    call: `rankeval.parseMeasures("ndgc" + "@1".repeat(4000))`,
    code: MEASURE,
    says: /^unknown measure "ndgc@1@1.{32}…" \(did you mean ndcg@1@1.{32}…\?\)/,
  },
  {
    call: `rankeval.resolveOptions({ noRelevent: "skip" })`,
    code: OPTION,
    says: /unknown option "noRelevent" \(did you mean noRelevant\?\)/,
  },
  {
    call: `rankeval.describeOptions(rankeval.resolveOptions({ beyondList: "cut" }))`,
    code: OPTION,
    says: /beyondList must be "pad", "clip", "nan" or "zero", not "cut"/,
  },
  // Rows and their shapes.
  {
    call: `rankeval.evaluateRun([[1, 2]], r, ["map"])`,
    code: INPUT,
    says: /^qrels must be \{ qid: \{ docid: rel \} \} or columns .*not an array/,
  },
  { call: `rankeval.evaluateRun(q, [{ d1: 1 }], ["map"])`, code: INPUT, says: /^run must be .*not an array/ },
  {
    call: `rankeval.evaluateRun(new Map([["q1", new Map([["d1", 1]])]]), r, ["map"])`,
    code: INPUT,
    says: /^qrels must be .*not a Map/,
  },
  {
    call: `rankeval.evaluateRun(q, new Map([["q1", { d1: 1 }]]), ["map"])`,
    code: INPUT,
    says: /^run must be .*not a Map/,
  },
  {
    call: `rankeval.evaluateRun(q, { q1: new Map([["d1", 1]]) }, ["map"])`,
    code: INPUT,
    says: /run\["q1"\] must be an object of docid: score, not a Map/,
  },
  {
    call: `rankeval.evaluateRun(q, { q1: [0.5, 0.2] }, ["map"])`,
    code: INPUT,
    says: /run\["q1"\] must be an object .*not an array/,
  },
  { call: `rankeval.evaluateRun(null, r, ["map"])`, code: INPUT, says: /^qrels must be .*not null/ },
  { call: `rankeval.evaluateRun(q, "run.txt", ["map"])`, code: INPUT, says: /^run must be .*not "run.txt"/ },
  { call: `rankeval.evaluateRun(q, Promise.resolve(r), ["map"])`, code: INPUT, says: /^run must be .*not a Promise/ },
  {
    call: `rankeval.evaluateRun(q, { q1: { d1: 1n } }, ["map"])`,
    code: INPUT,
    says: /run row 0 \(query "q1", document "d1"\): score 1n is not a finite number/,
  },
  {
    call: `rankeval.evaluateRun(q, { q1: { d1: "1" } }, ["map"])`,
    code: INPUT,
    says: /score "1" is not a finite number/,
  },
  {
    call: `rankeval.evaluateRun(q, { q1: { d1: NaN } }, ["map"])`,
    code: INPUT,
    says: /score NaN is not a finite number/,
  },
  {
    call: `rankeval.evaluateRun({ q1: { d1: Infinity } }, r, ["map"])`,
    code: INPUT,
    says: /label Infinity is not a finite number/,
  },
  {
    call: `rankeval.evaluateRun(q, { qid: ["q1"], docid: [{}], score: [1] }, ["map"])`,
    code: INPUT,
    says: /run.docid\[0\] must be a string or a number, not an object/,
  },
  {
    call: `rankeval.evaluateRun(q, { qid: [Symbol("q")], docid: ["d1"], score: [1] }, ["map"])`,
    code: INPUT,
    says: /run.qid\[0\] must be a string or a number, not Symbol\(q\)/,
  },
  {
    call: `rankeval.evaluateRun(q, { qid: [1n], docid: ["d1"], score: [1] }, ["map"])`,
    code: INPUT,
    says: /run.qid\[0\] must be a string or a number, not 1n/,
  },
  {
    call: `rankeval.evaluate({ qid: [1], score: [1n], rel: [1] }, "map")`,
    code: INPUT,
    says: /rows.score\[0\] is 1n, not a number \(query 1\)/,
  },
  {
    call: `rankeval.evaluate({ qid: [1], score: new BigInt64Array(1), rel: [1] }, "map")`,
    code: INPUT,
    says: /rows.score\[0\] is 0n, not a number/,
  },
  {
    call: `rankeval.evaluate({ qid: ["q"], score: [1], rel: ["1"] }, "map")`,
    code: INPUT,
    says: /rows.rel\[0\] is "1", not a number \(query "q"\)/,
  },
  { call: `rankeval.evaluate(null, "map")`, code: INPUT, says: /^rows must be an object of columns/ },
  {
    call: `rankeval.describeOptions(null)`,
    code: OPTION,
    says: /describeOptions: options must be resolveOptions\(\)'s, not null/,
  },
  { call: `rankeval.evaluateRun(q, r, ["map"], { complete: true })`, code: OPTION, says: /unknown option "complete"/ },
  {
    call: `rankeval.evaluateDiversity(sq, r, ["alpha-nDCG@10"], { complete: "false" })`,
    code: OPTION,
    says: /evaluateDiversity: complete must be true or false, not "false"/,
  },
  {
    call: `rankeval.joinDiversity(sq, r, { complet: true })`,
    code: OPTION,
    says: /joinDiversity: unknown option "complet" \(did you mean complete\?\)/,
  },
  {
    call: `rankeval.formatTable(res, { perQuery: "yes" })`,
    code: OPTION,
    says: /formatTable: perQuery must be true or false, not "yes"/,
  },
  {
    call: `rankeval.formatTable(res, { sumary: false })`,
    code: OPTION,
    says: /formatTable: unknown option "sumary" \(did you mean summary\?\)/,
  },
];

const COMPARE: Case[] = [
  { call: `rankeval.compare(null)`, code: INPUT, says: /^runs must be an array of \{ name, result \}.*not null/ },
  { call: `rankeval.compare(two[0])`, code: INPUT, says: /^runs must be an array .*not an object/ },
  {
    call: `rankeval.compare([{ name: "a" }, { name: "b" }])`,
    code: INPUT,
    says: /runs\[0\].result \(run "a"\) must be what evaluate\(\) or evaluateRun\(\) returned, not undefined/,
  },
  { call: `rankeval.compare([res, res2])`, code: INPUT, says: /runs\[0\].name must be a string, not undefined/ },
  { call: `rankeval.compare([two[0], null])`, code: INPUT, says: /runs\[1\] must be \{ name, result \}, not null/ },
  {
    call: `rankeval.compare(two, { iteration: 5 })`,
    code: OPTION,
    says: /unknown option "iteration" \(did you mean iterations\?\)/,
  },
  { call: `rankeval.compare(two, { alpha: "0.5" })`, code: OPTION, says: /alpha must be a number, not "0.5"/ },
  {
    call: `rankeval.compare(two, { tests: "t" })`,
    code: OPTION,
    says: /tests must be an array of test names .*not "t"/,
  },
  {
    call: `rankeval.compare(two, { measures: "map" })`,
    code: OPTION,
    says: /measures must be an array of measure names, not "map"/,
  },
  {
    call: `rankeval.compare(two, { pairs: "every" })`,
    code: OPTION,
    says: /pairs must be "baseline" or "all", not "every"/,
  },
  {
    call: `rankeval.compare(two, { iterations: Infinity })`,
    code: OPTION,
    says: /iterations must be an integer from 1 to 10000000, not Infinity/,
  },
  { call: `rankeval.compare(two, { seed: NaN })`, code: OPTION, says: /seed must be a number, not NaN/ },
  { call: `rankeval.compare(two, [])`, code: OPTION, says: /options must be an object .*not an array/ },
  { call: `rankeval.compareAsync(two, { iteration: 5 })`, code: OPTION, says: /unknown option "iteration"/ },
  { call: `rankeval.compareAsync(undefined)`, code: INPUT, says: /^runs must be an array .*not undefined/ },
  {
    call: `rankeval.formatComparison(cmp, "nope")`,
    code: OPTION,
    says: /format must be "table", "markdown", "latex", "csv" or "json", not "nope"/,
  },
  {
    call: `rankeval.formatComparison(cmp, "table", { sidebyside: true })`,
    code: OPTION,
    says: /formatComparison: unknown option "sidebyside" \(did you mean sideBySide\?\)/,
  },
  {
    call: `rankeval.formatComparison(cmp, "table", { sideBySide: "no" })`,
    code: OPTION,
    says: /formatComparison: sideBySide must be true or false, not "no"/,
  },
  {
    call: `rankeval.formatComparison(cmp, "latex", { markTest: "z" })`,
    code: OPTION,
    says: /formatComparison: markTest must be "t", .* not "z"/,
  },
  {
    call: `rankeval.formatComparison(null, "table")`,
    code: INPUT,
    says: /the comparison must be what compare\(\) returned, not null/,
  },
  {
    call: `rankeval.formatComparison(res, "table")`,
    code: INPUT,
    says: /the comparison must be what compare\(\) returned, not an object/,
  },
  {
    call: `rankeval.comparisonJson([])`,
    code: INPUT,
    says: /the comparison must be what compare\(\) returned, not an array/,
  },
  { call: `rankeval.formatP("0.5")`, code: OPTION, says: /formatP: p must be a number, not "0.5"/ },
  {
    call: `rankeval.significance(null, "t")`,
    code: INPUT,
    says: /significance: the pair must be one of compare\(\)'s comparisons, not null/,
  },
  {
    call: `rankeval.runResamplingJob(null)`,
    code: INPUT,
    says: /runResamplingJob: job must be a ResamplingJob .*not null/,
  },
  {
    call: `rankeval.runResamplingJob({ kind: "jackknife" })`,
    code: INPUT,
    says: /runResamplingJob: job must be a ResamplingJob .*not an object/,
  },
  { call: `rankeval.markLegend(cmp, "nope")`, code: OPTION, says: /markTest must be "t", .* not "nope"/ },
];

const IO: Case[] = [
  {
    call: `new io.QrelsParser()`,
    code: OPTION,
    says: /QrelsParser: options must be an object \{ file, qids, docids, expectedBytes \}, not undefined/,
  },
  {
    call: `new io.RunParser({ file: "r", qidNames: I(), docids: I() })`,
    code: OPTION,
    says: /RunParser: unknown option "qidNames"/,
  },
  {
    call: `new io.RunParser({ file: "r", docids: I() })`,
    code: OPTION,
    says: /RunParser: option qids is missing: it must be an Interner/,
  },
  {
    call: `new io.QrelsParser({ file: "q", qids: I() })`,
    code: OPTION,
    says: /QrelsParser: option docids is missing: it must be an Interner .* or "per-row"/,
  },
  {
    call: `new io.QrelsParser({ file: "q", qids: {}, docids: I() })`,
    code: OPTION,
    says: /QrelsParser: qids must be an Interner .*, not an object/,
  },
  {
    call: `new io.QrelsParser({ file: "q", qids: I(), docids: "per_row" })`,
    code: OPTION,
    says: /docids must be .*"per-row", not "per_row"/,
  },
  {
    call: `new io.QrelsParser({ file: 7, qids: I(), docids: I() })`,
    code: OPTION,
    says: /QrelsParser: file must be a string, not 7/,
  },
  {
    call: `new io.RunParser({ file: "r", qids: I(), docids: "per-row", expectedBytes: -1 })`,
    code: OPTION,
    says: /expectedBytes must be an integer >= 0, not -1/,
  },
  {
    call: `new io.LetorParser({ file: "l", qids: I(), docid: I() })`,
    code: OPTION,
    says: /LetorParser: unknown option "docid" \(did you mean docids\?\)/,
  },
  {
    call: `new io.ScoresParser({ file: "s", expectedBytes: "9" })`,
    code: OPTION,
    says: /ScoresParser: expectedBytes must be an integer .*not "9"/,
  },
  {
    call: `new io.GroupParser({ fil: "g" })`,
    code: OPTION,
    says: /GroupParser: unknown option "fil" \(did you mean file\?\)/,
  },
  {
    call: `new io.GroupQrelsParser({ file: "g", groupName: 2 })`,
    code: OPTION,
    says: /GroupQrelsParser: groupName must be a string, not 2/,
  },
  {
    call: `new io.PrefsParser(null)`,
    code: OPTION,
    says: /PrefsParser: options must be an object \{ file \}, not null/,
  },
  {
    call: `new io.ZscoresParser("z.txt")`,
    code: OPTION,
    says: /ZscoresParser: options must be an object \{ file \}, not "z.txt"/,
  },
  {
    call: `new io.JsonParser({ file: "j", qids: I(), kind: "runs" })`,
    code: OPTION,
    says: /JsonParser: kind must be "qrels" or "run", not "runs"/,
  },
  {
    call: `new io.DelimitedParser({ file: "c", qids: I(), kind: "run", delimiter: ";" })`,
    code: OPTION,
    says: /DelimitedParser: delimiter must be "," or "\\t", not ";"/,
  },
  {
    call: `new io.DelimitedParser({ file: "c", qids: I(), kind: "run", column: {} })`,
    code: OPTION,
    says: /DelimitedParser: unknown option "column" \(did you mean columns\?\)/,
  },
  {
    call: `new io.ColumnarRows()`,
    code: OPTION,
    says: /ColumnarRows: options must be an object \{ file, qids, kind, runTag, lineBase \}, not undefined/,
  },
  {
    call: `new io.ColumnarRows({ file: "p", qids: I(), kind: "qrels", linebase: 1 })`,
    code: OPTION,
    says: /ColumnarRows: unknown option "linebase" \(did you mean lineBase\?\)/,
  },
  {
    call: `io.columnarRows(null, { file: "p", qids: I(), kind: "run" })`,
    code: OPTION,
    says: /columnarRows: source must be a ByteSource .*not null/,
  },
  {
    call: `io.columnarRows(io.bytesSource(new Uint8Array(8)), { file: "p", qids: I(), kind: "run", formt: "arrow" })`,
    code: OPTION,
    says: /columnarRows: unknown option "formt" \(did you mean format\?\)/,
  },
  {
    call: `io.readColumnarSource(io.bytesSource(new Uint8Array(8)), "orc", {}, () => {})`,
    code: OPTION,
    says: /readColumnarSource: format must be "parquet" or "arrow", not "orc"/,
  },
  {
    call: `io.bytesSource("PAR1")`,
    code: OPTION,
    says: /bytesSource\(bytes\): bytes must be a Uint8Array, not "PAR1"/,
  },
  {
    call: `io.columnarFormatOf(null)`,
    code: OPTION,
    says: /columnarFormatOf\(head\): head must be a Uint8Array, not null/,
  },
  {
    call: `io.lineOfRow(null, 0)`,
    code: OPTION,
    says: /lineOfRow\(lines, row\): lines must be a parser's rows' lines, not null/,
  },
  {
    call: `io.docidString({ bytes: enc("d1"), offsets: new Int32Array([0, 2]) }, 5)`,
    code: OPTION,
    says: /docidBytes\(docids, row\): row 5 is not a row of these docids \(1 rows\)/,
  },
  { call: `io.docidBytes(undefined, 0)`, code: OPTION, says: /row 0 is not a row of these docids \(0 rows\)/ },
  // push() and finish() misuse.
  {
    call: `(() => { const p = new io.QrelsParser({ file: "q.txt", qids: I(), docids: I() }); p.finish(); p.push(enc("q1 0 d1 1\\n")); })()`,
    code: OPTION,
    says: /q.txt: push\(\) after finish\(\)/,
  },
  {
    call: `(() => { const p = new io.RunParser({ file: "r.txt", qids: I(), docids: I() }); p.finish(); p.finish(); })()`,
    code: OPTION,
    says: /r.txt: finish\(\) called twice/,
  },
  {
    call: `new io.QrelsParser({ file: "q.txt", qids: I(), docids: I() }).push("q1 0 d1 1\\n")`,
    code: OPTION,
    says: /q.txt: push\(chunk\): chunk must be a Uint8Array of bytes, not "q1 0 d1 1\\n" \(encode text first/,
  },
  {
    call: `new io.RunParser({ file: "r.txt", qids: I(), docids: I() }).push(null)`,
    code: OPTION,
    says: /r.txt: push\(chunk\): chunk must be a Uint8Array of bytes, not null/,
  },
  {
    call: `new io.RunParser({ file: "r.txt", qids: I(), docids: I() }).push(new ArrayBuffer(4))`,
    code: OPTION,
    says: /not an ArrayBuffer \(wrap it: new Uint8Array\(buffer\)\)/,
  },
  {
    call: `new io.LetorParser({ file: "l.txt", qids: I(), docids: I() }).push([49, 10])`,
    code: OPTION,
    says: /l.txt: push\(chunk\): .*not an array/,
  },
  {
    call: `new io.JsonParser({ file: "j.json", qids: I(), kind: "run" }).push("{}")`,
    code: OPTION,
    says: /j.json: push\(chunk\): chunk must be a Uint8Array/,
  },
  {
    call: `(() => { const p = new io.JsonParser({ file: "j.json", qids: I(), kind: "run" }); p.push(enc("{}")); p.finish(); p.push(enc("{}")); })()`,
    code: OPTION,
    says: /j.json: push\(\) after finish\(\)/,
  },
  {
    call: `new io.DelimitedParser({ file: "c.csv", qids: I(), kind: "qrels" }).push(new Uint16Array(2))`,
    code: OPTION,
    says: /c.csv: push\(chunk\): .*not a Uint16Array/,
  },
  { call: `new io.ScoresParser({ file: "s.txt" }).push(1)`, code: OPTION, says: /s.txt: push\(chunk\): .*not 1/ },
  // The interner.
  {
    call: `new io.Interner().intern(new Uint8Array(3), 0, 10)`,
    code: OPTION,
    says: /Interner.intern\(buf, start, end\): \[0, 10\) is not a range of buf's 3 bytes/,
  },
  {
    call: `new io.Interner().intern(new Uint8Array(3), -1, 2)`,
    code: OPTION,
    says: /\[-1, 2\) is not a range of buf's 3 bytes/,
  },
  { call: `new io.Interner().intern(new Uint8Array(3), 1.5, 2)`, code: OPTION, says: /\[1.5, 2\) is not a range/ },
  { call: `new io.Interner().intern("abc", 0, 3)`, code: OPTION, says: /buf must be a Uint8Array, not "abc"/ },
  { call: `new io.Interner().internString(12)`, code: OPTION, says: /internString\(s\): s must be a string, not 12/ },
  { call: `new io.Interner().stringOf(0)`, code: OPTION, says: /Interner: id 0 is not an id of this interner/ },
  {
    call: `new io.Interner(Infinity)`,
    code: OPTION,
    says: /Interner: expectedIds must be an integer from 0 to \d+, not Infinity/,
  },
  { call: `new io.Interner(-1)`, code: OPTION, says: /expectedIds must be an integer .*not -1/ },
  {
    call: `new io.Interner(8, 1e12)`,
    code: OPTION,
    says: /expectedBytes must be an integer from 0 to 2\^31 - 1, not 1000000000000/,
  },
];

const NODE_AND_REFERENCE: Case[] = [
  {
    call: `node.evaluateFiles("/dev/null", "/dev/null", ["map"], { complete: "false" })`,
    code: OPTION,
    says: /evaluateFiles: complete must be true or false, not "false"/,
  },
  {
    call: `node.evaluateFiles("q", "r", ["map"], { inputformat: "csv" })`,
    code: OPTION,
    says: /evaluateFiles: unknown option "inputformat" \(did you mean inputFormat\?\)/,
  },
  {
    call: `node.evaluateFiles("q", "r", ["map"], { tie: "input" })`,
    code: OPTION,
    says: /evaluateFiles: unknown option "tie" \(did you mean ties\?\)/,
  },
  {
    call: `node.evaluateFiles("q", "r", ["map"], { inputFormat: "xml" })`,
    code: OPTION,
    says: /inputFormat must be "trec", .* not "xml"/,
  },
  {
    call: `node.evaluateFiles("q", "r", ["map"], [])`,
    code: OPTION,
    says: /evaluateFiles: options must be an object .*not an array/,
  },
  {
    call: `node.evaluateFiles("q", new Set(["r"]), ["map"])`,
    code: OPTION,
    says: /runs must be a run file's path or a non-empty array of them/,
  },
  {
    call: `node.evaluateFiles(enc("q"), "r", ["map"])`,
    code: OPTION,
    says: /qrels must be a file path, not a Uint8Array/,
  },
  {
    call: `node.evaluateFiles("q", "r", ["x".repeat(1e6)])`,
    code: MEASURE,
    says: /measure name "x{40}…" is 1000000 characters long/,
  },
  {
    call: `node.readQrels("q", { inputFormat: "csv", delimiter: ";" })`,
    code: OPTION,
    says: /readQrels: unknown option "delimiter"/,
  },
  { call: `node.readRun("r", "trec")`, code: OPTION, says: /readRun: options must be an object .*not "trec"/ },
  { call: `node.readRun(null)`, code: OPTION, says: /readRun: path must be a file path, not null/ },
  {
    call: `node.readQrels("q", { columns: { query: "qid" } })`,
    code: OPTION,
    says: /columns.query: the columns are qid, docid, value and tag/,
  },
  {
    call: `reference.referenceEvaluate(rows, ["map"], { judgedonly: true })`,
    code: OPTION,
    says: /unknown option "judgedonly" \(did you mean judgedOnly\?\)/,
  },
  {
    call: `reference.referenceEvaluateRun(q, r, ["map"], { depth: "5" })`,
    code: OPTION,
    says: /depth must be an integer >= 0, not "5"/,
  },
  { call: `reference.referenceEvaluateRun(new Map(), r, ["map"])`, code: INPUT, says: /^qrels must be .*not a Map/ },
  {
    call: `reference.referenceEvaluateRun(q, { q1: [1] }, ["map"])`,
    code: INPUT,
    says: /run\["q1"\] must be an object of docid: score, not an array/,
  },
  { call: `reference.referenceEvaluateRun(q, r, ["mapp@"])`, code: MEASURE, says: /unknown measure "mapp@"/ },
];

describe("hostile calls of the public API", () => {
  for (const [group, cases] of [
    ["rankeval: evaluate, evaluateRun, parseMeasures, options, diversity, formatTable", EVALUATE],
    ["rankeval: compare, compareAsync and the comparison's formatters", COMPARE],
    ["rankeval/io: the parsers' options, push() and finish(), the interner", IO],
    ["rankeval/node and rankeval/reference", NODE_AND_REFERENCE],
  ] as const) {
    it(`${group}: each refused with a RankevalError naming the argument`, async () => {
      check(cases, await outcomes(cases));
    });
  }

  it("a 1 MB measure name or option key is refused in milliseconds, quoted shortened", async () => {
    const o = await hostile(`
      const t = performance.now();
      const said = [];
      for (const f of [
        () => rankeval.parseMeasures("x".repeat(1e6)),
        () => rankeval.parseMeasures("x".repeat(9999)),
        () => rankeval.evaluate({ qid: [1], score: [1], rel: [1] }, ["map"], { ["ties" + "x".repeat(1e6)]: 1 }),
        () => rankeval.evaluate({ qid: [1], score: [1], rel: [1] }, ["map"], { preset: "x".repeat(1e6) }),
      ]) {
        try { f(); } catch (e) { said.push(e.message.length); }
      }
      return { ms: performance.now() - t, said };`);
    expect(o.kind).toBe("returned");
    const { ms, said } = o.value as { ms: number; said: number[] };
    expect(said).toHaveLength(4);
    for (const n of said) expect(n).toBeLessThan(1000);
    // Unbounded, the 9999-character name alone took seconds (an edit distance against every name).
    expect(ms).toBeLessThan(2000);
  });

  it("good calls still return (the checks refuse nothing they should take)", async () => {
    const o = await hostile(`${PRELUDE}
      const p = new io.QrelsParser({ file: "q", qids: I(), docids: "per-row", expectedBytes: 10 });
      p.push(new Uint8Array(Buffer.from("q1 0 d1 1\\n")));
      return {
        map: rankeval.evaluate(rows, "map", { judgedOnly: false, tieRange: undefined }).mean.map,
        rows: p.finish().length,
        fmt: typeof rankeval.formatComparison(cmp, "table", { sideBySide: true, markTest: "t" }),
        cmp: rankeval.compare(two, { iterations: 10, seed: 1, tests: ["t"], measures: ["map"] }).comparisons.length,
      };`);
    expect(o).toMatchObject({ kind: "returned", value: { map: expect.any(Number), rows: 1, fmt: "string", cmp: 1 } });
  });
});
