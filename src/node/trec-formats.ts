// trec_eval's -Z (Z scores), -D (debug level, one query) and -R prefs, qrels_prefs, qrels_jg for the command line.
import { RankevalError } from "../errors/errors.js";
import { summariesOf } from "../pipeline/aggregate.js";
import type { Aggregate } from "../measures/measure.js";
import type { Result } from "../pipeline/evaluate.js";
import { GroupQrelsParser } from "../io/group-qrels.js";
import { Interner } from "../io/interner.js";
import { PrefsParser } from "../io/prefs.js";
import type { RunRows } from "../io/run.js";
import { ZscoresParser } from "../io/zscores.js";
import { DEFAULT_OPTIONS, describeOptions } from "../measures/options.js";
import { checkJoined } from "../pipeline/blocks.js";
import { MemoryRows } from "../pipeline/join-memory.js";
import { groupJudgments, joinParsed, type GroupedJudgments } from "../pipeline/join-rows.js";
import { labelledTexts } from "../output/table.js";
import { formResRelsJg, mapAvgjg, pAvgjg, rprecMultAvgjg, type JgJudgment } from "../trec/jg.js";
import { trecLines, type TrecMeasure } from "../trec/measures.js";
import { lineKey, plan, trecLevel, type Plan, type RunResult } from "../app/plan.js";
import { trecText, type TrecTextOptions } from "../output/results.js";
import {
  formPrefsCounts,
  prefsValue,
  type PrefLine,
  type PrefsMeasure,
  type Retrieved,
} from "../trec/prefs-measures.js";
import { zscoreLookup, zscoreTable, type ZscoreLookup } from "../trec/zscore-lookup.js";
import type { CliArgs } from "./args.js";
import { formatOf, runParserFor } from "../input/formats.js";
import { notInRun } from "../input/input.js";
import { checkReadOnce, displayName, inputSize, readInto } from "./file-read.js";

interface Io {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
}

/** -Z: the Z-score file, read and sorted as trec_eval searches it. */
export async function readZscores(file: string): Promise<ZscoreLookup> {
  const parser = new ZscoresParser({ file: displayName(file) });
  await readInto(file, parser);
  const z = parser.finish();
  // get_zscores.c: "Cannot read zscores file" for an empty one.
  if (z.length === 0)
    throw new RankevalError(
      "bad-input",
      `${displayName(file)}: the Z-score file has no lines (qid measure mean stddev)`,
    );
  return zscoreLookup(zscoreTable(z));
}

/** trec text's options from the command line; -Z needs trec text; -D's debug output is not printed (said). */
export async function trecTextOptions(args: CliArgs, p: Plan, format: string, io: Io): Promise<TrecTextOptions> {
  if (args.debugLevel !== undefined && args.debugLevel > 0) {
    io.stderr.write(
      `rankeval: -D ${args.debugLevel}: trec_eval's debug output is not printed${args.debugQuery !== undefined ? ` (only query ${JSON.stringify(args.debugQuery)} is evaluated)` : ""}\n`,
    );
  }
  let zscores: ZscoreLookup | undefined;
  if (args.zscoreFile !== undefined) {
    if (p.kind !== "trec" || format !== "trec")
      throw new RankevalError(
        "bad-option",
        "-Z prints Z scores in trec_eval's text: give trec_eval measure names (as map, P.5) and no --format",
      );
    zscores = await readZscores(args.zscoreFile);
  }
  return {
    perQuery: args.perQuery,
    noSummary: args.noSummary,
    complete: args.complete,
    debugQuery: args.debugQuery,
    zscores,
  };
}

type QueryJudgments = { kind: "prefs"; lines: PrefLine[] } | { kind: "qrels_jg"; judgments: JgJudgment[] };

/** -R's judgments by query, and as the join reads them (query ids interned in file order, the runs' after). */
interface Judged {
  byQuery: Map<string, QueryJudgments>;
  grouped: GroupedJudgments;
  qids: Interner;
}

/** -R prefs, qrels_prefs or qrels_jg: the judgments and each run read whole, trec text printed. */
export async function relFormatMode(args: CliArgs, io: Io): Promise<number> {
  const relFormat = args.relFormat!;
  const p = plan(args.measures, null, args);
  for (const w of p.warnings) io.stderr.write(`rankeval: warning: ${w}\n`);
  const format = args.format ?? "trec";
  if (format !== "trec")
    throw new RankevalError(
      "bad-option",
      `-R ${relFormat}: rankeval prints trec_eval's text for these judgments (no --format ${format})`,
    );
  if (args.tieRange)
    throw new RankevalError("bad-option", `-R ${relFormat}: --tie-range is not computed for these judgments`);
  const text = await trecTextOptions(args, p, format, io);
  const [judgmentsFile, ...runFiles] = args.files;
  await checkReadOnce([["JUDGMENTS", judgmentsFile], ...runFiles.map((f) => ["RUN", f] as const)]);
  const judged = await readFormatted(judgmentsFile, relFormat, io);
  const texts: { name: string; text: string }[] = [];
  for (const file of runFiles) {
    const r = evaluateFormatted(p, judged, await readRun(file, judged.qids), args, io);
    texts.push({ name: displayName(file), text: trecText(p, r, text) });
  }
  io.stdout.write(labelledTexts(texts));
  return 0;
}

async function readFormatted(file: string, relFormat: NonNullable<CliArgs["relFormat"]>, io: Io): Promise<Judged> {
  const name = displayName(file);
  const out = new Map<string, QueryJudgments>();
  const prefLines = (qid: string) => {
    let q = out.get(qid);
    if (!q) out.set(qid, (q = { kind: "prefs", lines: [] }));
    return (q as { lines: PrefLine[] }).lines;
  };
  if (relFormat === "prefs") {
    const parser = new PrefsParser({ file: name });
    await readInto(file, parser);
    const prefs = parser.finish();
    if (prefs.length === 0)
      throw new RankevalError("bad-input", `${name}: no preferences (qid jg jsg docno rel_level)`);
    for (let i = 0; i < prefs.length; i++)
      prefLines(prefs.qid[i]).push({ jg: prefs.jg[i], jsg: prefs.jsg[i], rel: prefs.rel[i], docno: prefs.docno[i] });
    return judgedOf(name, out);
  }
  const parser = new GroupQrelsParser({ file: name, groupName: "jg", valueName: "rel" });
  await readInto(file, parser);
  const g = parser.finish();
  if (g.length === 0) throw new RankevalError("bad-input", `${name}: no judgments (qid jg docno rel)`);
  if (relFormat === "qrels_prefs") {
    // get_qrels_prefs.c: column 2 is the judgment group, rel_level read with atof, every line in subgroup "0".
    for (let i = 0; i < g.length; i++)
      prefLines(g.qid[i]).push({ jg: g.group[i], jsg: "0", rel: g.value[i], docno: g.docno[i] });
    return judgedOf(name, out);
  }
  // get_qrels_jg.c: labels read with atol ("1.5" is 1); a document judged twice by a group fails the file.
  const seen = new Set<string>();
  let truncated = 0;
  let first = -1;
  for (let i = 0; i < g.length; i++) {
    const key = `${g.qid[i]}\u0000${g.group[i]}\u0000${g.docno[i]}`;
    if (seen.has(key))
      throw new RankevalError(
        "bad-input",
        `${name}:${g.lines[i]}: document ${JSON.stringify(g.docno[i])} is judged twice by judgment group ${JSON.stringify(g.group[i])} of query ${JSON.stringify(g.qid[i])} (trec_eval: duplicate docs)`,
      );
    seen.add(key);
    const rel = g.long[i];
    if (rel !== g.value[i]) {
      truncated++;
      if (first < 0) first = i;
    }
    let q = out.get(g.qid[i]);
    if (!q) out.set(g.qid[i], (q = { kind: "qrels_jg", judgments: [] }));
    (q as { judgments: JgJudgment[] }).judgments.push({ jg: g.group[i], docno: g.docno[i], rel });
  }
  if (truncated) {
    const others = truncated > 1 ? ` (and ${truncated - 1} more)` : "";
    io.stderr.write(
      `rankeval: ${name}:${g.lines[first]}: label ${g.value[first]} is read as ${g.long[first]}${others}, as trec_eval reads labels (atol)\n`,
    );
  }
  return judgedOf(name, out);
}

function judgedOf(name: string, byQuery: Map<string, QueryJudgments>): Judged {
  const qids = new Interner();
  const rows = new MemoryRows(name, qids);
  for (const [q, j] of byQuery) {
    const id = qids.internString(q);
    for (const d of new Set(j.kind === "prefs" ? j.lines.map((l) => l.docno) : j.judgments.map((l) => l.docno)))
      rows.add(id, d, 0);
  }
  return { byQuery, grouped: groupJudgments(rows.rows()), qids };
}

/** A run read whole, its query ids interned in the judgments' `qids` as decoded strings (non-UTF-8 as U+FFFD on both sides). */
async function readRun(file: string, qids: Interner): Promise<RunRows> {
  const name = displayName(file);
  const parser = await runParserFor(name, new Interner(), await inputSize(file), { format: formatOf(file) });
  await readInto(file, parser);
  const run = parser.finish() as RunRows;
  if (run.length === 0) throw new RankevalError("bad-input", `${name}: the run has no rankings`);
  const to = Int32Array.from(run.qidNames.stringsOf(Array.from({ length: run.qidNames.size }, (_, q) => q)), (q) =>
    qids.internString(q),
  );
  // spans dropped: they name the parser's interner's ids.
  return { ...run, qid: run.qid.map((q) => to[q]), qidNames: qids, spans: undefined };
}

/** Every line of the plan's measures over these judgments, for each evaluated query. */
function evaluateFormatted(p: Plan, judged: Judged, run: RunRows, args: CliArgs, io: Io): RunResult {
  // A document ranked twice is an error in every evaluated query (deliberate: trec_eval sees it only within -M).
  const joined = joinParsed(judged.grouped, run, { complete: args.complete, placeholder: true, inIdOrder: true });
  checkJoined(run.file, judged.grouped, run, joined, args.complete === true);
  const { qids, batch } = joined;
  const lacking = new Set(joined.notInRunQids);
  const absent = [...judged.byQuery.keys()].filter((q) => lacking.has(q));
  if (absent.length && !args.complete) io.stderr.write(`rankeval: ${notInRun(run.file, absent, true)}\n`);
  const formatted = p.formatted ?? [];
  const values: Record<string, Float64Array> = {};
  for (const l of trecLines(formatted)) values[lineKey(l)!] = new Float64Array(qids.length);
  const maxDocs = args.depth ?? Infinity;
  const level = trecLevel(args);
  const { offsets, scores, pool } = batch;
  const docids = batch.docids as Int32Array;
  const decoder = new TextDecoder();
  qids.forEach((qid, i) => {
    // runid and num_q alone read no judgments (trec_eval never forms them); -D: one query (trec_eval.c).
    if (formatted.length === 0 || (args.debugQuery !== undefined && qid !== args.debugQuery)) return;
    const retrieved: Retrieved[] = [];
    for (let row = offsets[i]; row < offsets[i + 1]; row++) {
      const d = docids[row];
      retrieved.push({
        docno: decoder.decode(pool!.bytes.subarray(pool!.offsets[d], pool!.offsets[d + 1])),
        sim: scores[row],
      });
    }
    const j = judged.byQuery.get(qid)!;
    if (j.kind === "prefs") {
      const rp = formPrefsCounts(qid, retrieved, j.lines, maxDocs);
      for (const m of formatted)
        for (const l of m.lines) values[lineKey(l)!][i] = prefsValue(m.name as PrefsMeasure, rp);
      return;
    }
    const groups = formResRelsJg(qid, retrieved, j.judgments, {
      relevanceLevel: level,
      maxDocs,
      judgedOnly: args.judgedOnly,
    });
    for (const m of formatted) {
      const v =
        m.name === "map_avgjg"
          ? [mapAvgjg(groups, level)]
          : m.name === "P_avgjg"
            ? pAvgjg(groups, m.cutoffs!, level)
            : rprecMultAvgjg(groups, m.cutoffs!, level);
      m.lines.forEach((l, k) => (values[lineKey(l)!][i] = v[k]));
    }
  });
  return { file: run.file, runTag: run.runTag, result: resultOf(qids, values, formatted), strings: {} };
}

function resultOf(
  qids: string[],
  values: Record<string, Float64Array>,
  measures: readonly TrecMeasure[],
): Result<string> {
  const measureConventions: Record<string, string> = {};
  const aggregates: Record<string, Aggregate> = {};
  for (const l of trecLines(measures)) {
    const key = lineKey(l)!;
    aggregates[key] = l.aggregation === "sum" ? "sum" : "mean";
    measureConventions[key] = "trec_eval";
  }
  return {
    measures: Object.keys(values),
    qids,
    values,
    ...summariesOf(values, (key) => aggregates[key]),
    queries: { evaluated: qids.length, skipped: { noRelevant: 0, notJudged: 0, notInRun: 0 } },
    options: DEFAULT_OPTIONS,
    conventions: describeOptions(DEFAULT_OPTIONS),
    measureConventions,
    warnings: [],
  };
}
