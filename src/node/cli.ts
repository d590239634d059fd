// The command line: rankeval [options] QRELS RUN [RUN ...] | --letor DATA --scores PREDICTIONS.
// Reads files as streams into the byte-level parsers, joins, evaluates in the kernel, and prints
// trec_eval's text (byte for byte), a table, JSON or CSV.
import { readFileSync } from "node:fs";
import { RankevalError } from "../errors.js";
import { evaluateBatch, type Result } from "../evaluate.js";
import { formatTable } from "../report.js";
import { groupRows } from "../group.js";
import { GroupParser, Interner, LetorParser, ScoresParser, type QrelsRows } from "../io/index.js";
import { parseMeasures, type Measure } from "../measures/measure.js";
import { describeOptions, resolveOptions, type Options, type ResolvedOptions } from "../options.js";
import { gainTies, isComputed, parseTrecMeasures, trecLines, type TrecGainTable, type TrecKernel, type TrecLine, type TrecMeasure } from "../trec/names.js";
import { relstrings } from "../trec/relstring.js";
import { formatTrecReport } from "../trec/report.js";
import { parseArgs, USAGE, type CliArgs } from "./args.js";
import { judgedRowsOnly, type Batch } from "../kernel/batch.js";
import { joinParsed } from "../trec-join.js";
import { Progress } from "./progress.js";
import { inputSize, readInto } from "./read.js";
import { qrelsParserFor, runParserFor } from "./formats.js";

export interface Io {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown; isTTY?: boolean };
}

/** Runs the command; returns the exit status: 0 success, 1 usage, 2 bad input. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (e) {
    io.stderr.write(`rankeval: ${(e as Error).message}\n\n${USAGE}\n`);
    return 1;
  }
  if (args.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.version) {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    io.stdout.write(`rankeval ${pkg.version}\n`);
    return 0;
  }
  try {
    if (args.letor !== undefined) return await letorMode(args, io);
    if (args.files.length < 2) throw new RankevalError("bad-option", "give a QRELS file and at least one RUN file (or --letor DATA --scores PREDICTIONS)");
    return await trecMode(args, io);
  } catch (e) {
    if (!(e instanceof RankevalError)) throw e;
    io.stderr.write(`rankeval: ${e.message}\n`);
    if (e.code === "bad-option" || e.code === "bad-measure") {
      io.stderr.write(`(rankeval --help for usage)\n`);
      return 1;
    }
    return 2;
  }
}

/** What to compute: trec_eval's lines (when every -m is a trec_eval name), else canonical measures. */
type Plan =
  | { kind: "trec"; trec: TrecMeasure[]; measures: Measure[]; tables: GainGroup[]; left: string[] }
  | { kind: "canonical"; measures: Measure[] };

/** Measures to evaluate with their own gain table (trec_eval `ndcg.1=3,2=9`): one evaluation each. */
interface GainGroup {
  readonly key: string;
  readonly gain: TrecGainTable;
  readonly measures: Measure[];
}

const tableKey = (gain: TrecGainTable) => JSON.stringify(gain);

/**
 * The key under which a numeric trec line's per-query values are found in the run's merged result:
 * the canonical name; for a measure under its own gain table, the name and the table; for a line made
 * of several measures (`meanOf`), its printed name. Null for lines that are not numbers per query.
 */
function lineKey(l: TrecLine): string | null {
  if (l.kernel) return typeof l.kernel.gain === "object" ? `${l.kernel.measure.name} gain=${tableKey(l.kernel.gain)}` : l.kernel.measure.name;
  if (l.meanOf) return l.name;
  return null;
}

function plan(specs: readonly string[], fallback: readonly string[] | null): Plan {
  if (specs.length === 0 && fallback) return { kind: "canonical", measures: parseMeasures(fallback) };
  let trec: TrecMeasure[] | null = null;
  try {
    trec = parseTrecMeasures(specs);
  } catch (trecError) {
    try {
      return { kind: "canonical", measures: parseMeasures(specs) };
    } catch {
      throw trecError;
    }
  }
  // Lines rankeval does not compute yet are left out, and said so.
  const kept: TrecMeasure[] = [];
  const left: string[] = [];
  const measures = new Map<string, Measure>();
  const tables = new Map<string, GainGroup>();
  const add = (k: TrecKernel) => {
    if (typeof k.gain !== "object") {
      measures.set(k.measure.name, k.measure);
      return;
    }
    const key = tableKey(k.gain);
    let g = tables.get(key);
    if (!g) tables.set(key, (g = { key, gain: k.gain, measures: [] }));
    if (!g.measures.some((m) => m.name === k.measure.name)) g.measures.push(k.measure);
  };
  for (const m of trec) {
    const lines = trecLines([m]);
    if (lines.every(isComputed)) {
      kept.push(m);
      for (const l of lines) {
        if (l.kernel) add(l.kernel);
        for (const k of l.meanOf ?? []) add(k);
      }
    } else left.push(m.name);
  }
  return { kind: "trec", trec: kept, measures: [...measures.values()], tables: [...tables.values()], left };
}

/**
 * Options: the user's, else trec_eval's conventions for trec_eval names and the library's otherwise;
 * `table` (a trec_eval `ndcg.1=3,2=9`) replaces the gain.
 */
function options(args: CliArgs, trecNames: boolean, table?: TrecGainTable): ResolvedOptions {
  const o: Options = {};
  o.gain = (table ?? args.gain ?? (trecNames ? "linear" : undefined)) as Options["gain"];
  if (args.threshold !== undefined) o.relevanceThreshold = args.threshold;
  if (args.depth !== undefined) o.depth = args.depth;
  if (args.noRelevant !== undefined) o.noRelevant = args.noRelevant as Options["noRelevant"];
  if (args.beyondList !== undefined) o.beyondList = args.beyondList as Options["beyondList"];
  return resolveOptions(o);
}

interface RunResult {
  file: string;
  runTag: string;
  result: Result<string>;
  /** relstring's values, by printed line name. */
  strings: Record<string, string[]>;
}

async function trecMode(args: CliArgs, io: Io): Promise<number> {
  const p = plan(args.measures, null);
  const opts = options(args, p.kind === "trec");
  if (p.kind === "trec" && p.left.length) io.stderr.write(`rankeval: not computed yet, left out: ${p.left.join(", ")}\n`);
  const progress = new Progress(io.stderr);
  // Document ids are kept per row and compared within each query only (src/trec-join.ts): no
  // table of every id in the collection.
  const qids = new Interner();
  const [qrelsFile, ...runFiles] = args.files;
  if (runFiles.filter((f) => f === "-").length + (qrelsFile === "-" ? 1 : 0) > 1) throw new RankevalError("bad-option", "only one file can be standard input (-)");
  const qrelsParser = qrelsParserFor(qrelsFile, qids, await inputSize(qrelsFile), { format: args.inputFormat, columns: args.columns });
  await readInto(qrelsFile, qrelsParser, progress);
  const qrels = qrelsParser.finish();
  const runs: RunResult[] = [];
  for (const file of runFiles) {
    const joined = await readRun(file, qrels, qids, args, progress);
    if (joined.notInRun && !args.complete) {
      const some = joined.notInRunQids.slice(0, 5).join(", ");
      io.stderr.write(`rankeval: ${file}: ${joined.notInRun} judged queries are not in the run and are left out (${some}${joined.notInRun > 5 ? ", ..." : ""}); -c counts them as 0\n`);
    }
    const measures = p.measures.length ? p.measures : parseMeasures("num_ret");
    const batch = args.judgedOnly ? judgedRowsOnly(joined.batch) : joined.batch;
    let result = evaluateBatch(batch, joined.qids, measures, opts, joined.notJudged, joined.notInRun);
    let strings: Record<string, string[]> = {};
    if (p.kind === "trec") {
      warnGainTies(p, batch, file, io);
      result = trecExtras(p, batch, result, args);
      strings = relstringValues(p, batch, opts);
    }
    runs.push({ file, runTag: joined.runTag, result, strings });
  }
  const format = args.format ?? (p.kind === "trec" ? "trec" : "table");
  if (format === "trec") {
    if (p.kind !== "trec") throw new RankevalError("bad-option", "--format trec needs trec_eval measure names (as ndcg_cut.10, P.5, map)");
    for (const r of runs) io.stdout.write(trecText(p, r, args));
  } else {
    io.stdout.write(report(format, runs.map((r) => ({ name: r.file, runTag: r.runTag, result: r.result })), p, args.perQuery));
  }
  return 0;
}

/** Parses a run and joins it to the judgments; the parser's columns are garbage once this returns. */
async function readRun(file: string, qrels: QrelsRows, qids: Interner, args: CliArgs, progress: Progress) {
  const complete = args.complete;
  const parser = runParserFor(file, qids, await inputSize(file), { format: args.inputFormat, columns: args.columns });
  await readInto(file, parser, progress);
  return joinParsed(qrels, parser.finish(), { complete });
}

/**
 * The run's result with what trec lines need beyond one evaluation: the measures under their own gain
 * tables (one more evaluation of the same batch per table) and the lines made of several measures
 * (`meanOf`), merged in under their `lineKey`.
 */
function trecExtras(p: Extract<Plan, { kind: "trec" }>, batch: Batch, result: Result<string>, args: CliArgs): Result<string> {
  const values = { ...result.values };
  const mean = { ...result.mean };
  const counted = { ...result.counted };
  const put = (key: string, v: Float64Array) => {
    values[key] = v;
    let s = 0;
    let n = 0;
    for (let q = 0; q < v.length; q++) if (!Number.isNaN(v[q])) (s += v[q]), n++;
    mean[key] = n ? s / n : NaN;
    counted[key] = n;
  };
  for (const g of p.tables) {
    const r = evaluateBatch(batch, result.qids, g.measures, options(args, true, g.gain), result.queries.skipped.notJudged, result.queries.skipped.notInRun);
    for (const m of g.measures) put(`${m.name} gain=${g.key}`, r.values[m.name]);
  }
  for (const l of trecLines(p.trec)) {
    if (!l.meanOf) continue;
    // m_11pt_avg.c adds the points from the last to the first, then divides by their number.
    const cols = l.meanOf.map((k) => result.values[k.measure.name]);
    const v = new Float64Array(result.qids.length);
    for (let q = 0; q < v.length; q++) {
      let s = 0;
      for (let i = cols.length - 1; i >= 0; i--) s += cols[i][q];
      v[q] = s / cols.length;
    }
    put(l.name, v);
  }
  return { ...result, values, mean, counted };
}

/** relstring's per-query strings, by printed line name. */
function relstringValues(p: Extract<Plan, { kind: "trec" }>, batch: Batch, opts: ResolvedOptions): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const l of trecLines(p.trec)) if (l.relstring !== undefined) out[l.name] = relstrings(batch, l.relstring, opts.depth);
  return out;
}

/** Says so where trec_eval's comp_rel_gain quirk could order a gain table's ideal ranking otherwise. */
function warnGainTies(p: Extract<Plan, { kind: "trec" }>, batch: Batch, file: string, io: Io): void {
  if (!p.tables.length) return;
  let maxLevel = 0;
  const judged = batch.judged ?? batch.labels;
  for (let i = 0; i < judged.length; i++) if (judged[i] > maxLevel) maxLevel = judged[i];
  for (const g of p.tables) {
    const ties = gainTies(g.gain, Math.floor(maxLevel));
    if (!ties.length) continue;
    const which = ties.map(([a, b]) => `${a} and ${b}`).join(", ");
    io.stderr.write(`rankeval: ${file}: gains ${which} differ by less than 1: trec_eval's comp_rel_gain compares them as equal and may order its ideal ranking otherwise (rankeval orders by the exact gains)\n`);
  }
}

/** trec_eval's text for one run. */
function trecText(p: Extract<Plan, { kind: "trec" }>, r: RunResult, args: CliArgs): string {
  const values: Record<string, Float64Array | string[]> = {};
  for (const line of trecLines(p.trec)) {
    const key = lineKey(line);
    if (key !== null) values[line.name] = r.result.values[key];
    else if (line.relstring !== undefined) values[line.name] = r.strings[line.name];
  }
  return formatTrecReport({
    runid: r.runTag,
    measures: p.trec,
    perQuery: { qids: r.result.qids, values },
    printPerQuery: args.perQuery,
    printSummary: !args.noSummary,
  });
}

async function letorMode(args: CliArgs, io: Io): Promise<number> {
  if (args.scores === undefined) throw new RankevalError("bad-option", "--letor needs --scores PREDICTIONS (one score per line)");
  if (args.files.length) throw new RankevalError("bad-option", `--letor takes no QRELS or RUN files (got ${args.files.join(" ")})`);
  const p = plan(args.measures, ["ndcg@1,3,5,10", "map", "mrr"]);
  const opts = options(args, p.kind === "trec");
  if (p.kind === "trec" && p.left.length) io.stderr.write(`rankeval: not computed yet, left out: ${p.left.join(", ")}\n`);
  const progress = new Progress(io.stderr);
  const qidNames = new Interner();
  const docidNames = new Interner();
  const letorFile = args.letor!;
  const letorParser = new LetorParser({ file: letorFile, qids: qidNames, docids: docidNames });
  await readInto(letorFile, letorParser, progress);
  const data = letorParser.finish();
  const scoresParser = new ScoresParser({ file: args.scores });
  await readInto(args.scores, scoresParser, progress);
  const score = scoresParser.finish();
  if (score.length !== data.length) {
    throw new RankevalError("bad-input", `${args.scores} has ${score.length} scores but ${args.letor} has ${data.length} rows: one score per row, in order`);
  }
  let qid: ArrayLike<string | number>;
  if (data.qid) {
    qid = Array.from(data.qid, (q) => qidNames.stringOf(q));
  } else {
    if (args.query === undefined) throw new RankevalError("bad-input", `${args.letor} has no qid: fields; give the query group sizes with --query FILE`);
    const groupParser = new GroupParser({ file: args.query });
    await readInto(args.query, groupParser, progress);
    const sizes = groupParser.finish();
    const total = sizes.reduce((a, b) => a + b, 0);
    if (total !== data.length) throw new RankevalError("bad-input", `${args.query}: the group sizes add up to ${total} but ${args.letor} has ${data.length} rows`);
    const ids = new Int32Array(data.length);
    let row = 0;
    sizes.forEach((size, g) => ids.fill(g, row, (row += size)));
    qid = ids;
  }
  const docid = data.docid ? Array.from(data.docid, (d) => docidNames.stringOf(d)) : undefined;
  const measures = p.kind === "trec" ? p.measures : p.measures;
  const { batch, qids } = groupRows({ qid, score, rel: data.rel, docid });
  let result = evaluateBatch(batch, qids.map(String), measures, opts, 0, 0);
  let strings: Record<string, string[]> = {};
  if (p.kind === "trec") {
    warnGainTies(p, batch, args.letor!, io);
    result = trecExtras(p, batch, result, args);
    strings = relstringValues(p, batch, opts);
  }
  const format = args.format ?? (p.kind === "trec" ? "trec" : "table");
  if (format === "trec") {
    if (p.kind !== "trec") throw new RankevalError("bad-option", "--format trec needs trec_eval measure names (as ndcg_cut.10, P.5, map)");
    io.stdout.write(trecText(p, { file: args.letor!, runTag: "letor", result, strings }, args));
  } else {
    io.stdout.write(report(format, [{ name: args.scores, runTag: "", result }], p, args.perQuery));
  }
  return 0;
}

interface NamedResult {
  name: string;
  runTag: string;
  result: Result<string>;
}

/** The rows of a report: (printed name, canonical measure) in order. */
function rowsOf(p: Plan): { name: string; measure: string }[] {
  if (p.kind === "canonical") return p.measures.map((m) => ({ name: m.name, measure: m.name }));
  return trecLines(p.trec).flatMap((l) => {
    const key = lineKey(l);
    return key === null ? [] : [{ name: l.name, measure: key }];
  });
}

function report(format: "table" | "json" | "csv", runs: NamedResult[], p: Plan, perQuery: boolean): string {
  const rows = rowsOf(p);
  const conventions = describeOptions(runs[0].result.options);
  if (format === "json") {
    return `${JSON.stringify(
      {
        conventions,
        runs: runs.map(({ name, runTag, result }) => ({
          run: name,
          runTag,
          queries: result.queries,
          mean: Object.fromEntries(rows.map((r) => [r.name, result.mean[r.measure]])),
          ...(perQuery ? { perQuery: Object.fromEntries(result.qids.map((q, i) => [q, Object.fromEntries(rows.map((r) => [r.name, result.values[r.measure][i]]))])) } : {}),
        })),
      },
      (_, v) => (typeof v === "number" && !Number.isFinite(v) ? null : v),
      2,
    )}\n`;
  }
  if (format === "csv") {
    const out = ["run,qid,measure,value"];
    const cell = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    for (const { name, result } of runs) {
      if (perQuery) result.qids.forEach((q, i) => rows.forEach((r) => out.push(`${cell(name)},${cell(q)},${cell(r.name)},${result.values[r.measure][i]}`)));
      for (const r of rows) out.push(`${cell(name)},all,${cell(r.name)},${result.mean[r.measure]}`);
    }
    return `${out.join("\n")}\n`;
  }
  // table: measures down, runs across.
  return `${formatTable(runs.map((r) => ({ name: r.name, result: r.result })), rows.map((r) => ({ label: r.name, measure: r.measure })))}\n`;
}
