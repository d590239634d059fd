// The judgments' functions (issue 38) on files, as the command line (src/node/judgments-command.ts) and
// the page (web/worker.ts) give them, so the two agree: bad input said of its file and line, and the
// text the command line prints. The files come read as columns (src/app/read-columns.ts).
import { RankevalError } from "../errors/errors.js";
import type { Interner } from "../io/interner.js";
import type { ParsedRows } from "../io/rows.js";
import { formatLine } from "../trec/format.js";
import { agreement, type Agreement, type AgreementOptions } from "./agreement.js";
import { fillHoles, type FilledJudgments } from "./fill-holes.js";
import { pool, poolOfParsed, type Pool, type PoolOptions } from "./pools.js";
import { qrelsCompare, type QrelsCompare, type QrelsCompareOptions } from "./qrels-compare.js";
import { qrelsStats, type QrelsStats } from "./qrels-stats.js";

/** A file read as the library's columns (src/app/read-columns.ts's ColumnsRead). */
export interface FileColumns<V extends "rel" | "score"> {
  readonly file: string;
  readonly columns: { qid: Int32Array; qidNames: Interner; docid: string[] } & Record<V, Float64Array>;
  /** The rows as the parser gave them, ids as bytes (what the columns' strings are made from). */
  readonly parsed?: ParsedRows;
  /** Throws "FILE:LINE: document ... appears twice in query ..." where the file has such a row. */
  readonly checkTwice: () => void;
}

/**
 * `f()`, its bad input said of the files: a document twice in a query by its file and line (as the
 * evaluation says it), else the library's name of an input (`sets[1]`, `runs[0]`) replaced by its file's.
 */
function located<T>(
  f: () => T,
  reads: readonly { checkTwice(): void }[],
  names: (index: string) => string | undefined,
): T {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof RankevalError) || e.code !== "bad-input" || e.constructor !== RankevalError) throw e;
    for (const r of reads) r.checkTwice();
    const m = /^(\w+(?:\[\d+\])?)(?=[:.\s])/.exec(e.message);
    const file = m ? names(m[1]) : undefined;
    throw file === undefined ? e : new RankevalError(e.code, file + e.message.slice(m![1].length));
  }
}

/** qrelsStats of a file read. */
export function statsOfFile(read: FileColumns<"rel">, relevanceThreshold: number): QrelsStats {
  return located(
    () => qrelsStats(read.columns, { relevanceThreshold }),
    [read],
    (name) => (name === "qrels" ? read.file : undefined),
  );
}

/** agreement of files read. */
export function agreementOfFiles(reads: readonly FileColumns<"rel">[], options: AgreementOptions): Agreement {
  return located(
    () =>
      agreement(
        reads.map((r) => r.columns),
        options,
      ),
    reads,
    (name) => reads[Number(/^sets\[(\d+)\]$/.exec(name)?.[1] ?? NaN)]?.file,
  );
}

/** pool of run files read, and judgments made already (`judged`). */
export function poolOfFiles(
  runs: readonly FileColumns<"score">[],
  judged: FileColumns<"rel"> | undefined,
  options: PoolOptions,
): Pool {
  // The parser's bytes where every file has them: no id made a string (pool() reads strings as fast, but
  // making them, 10M for 10 runs x 1M rows, took most of the command line's time).
  const parsed = runs.every((r) => r.parsed) && (!judged || judged.parsed);
  return located(
    () =>
      (parsed
        ? poolOfParsed(
            runs.map((r) => r.parsed!),
            judged?.parsed,
            options,
          )
        : null) ??
      pool(
        runs.map((r) => r.columns),
        judged ? { ...options, judged: judged.columns } : options,
      ),
    judged ? [...runs, judged] : runs,
    (name) => (name === "judged" ? judged?.file : runs[Number(/^runs\[(\d+)\]$/.exec(name)?.[1] ?? NaN)]?.file),
  );
}

/** What the command line says on stderr of each undefined value (-nan). */
export const agreementNotes = (a: Agreement): string[] =>
  Object.entries(a.why_null ?? {}).map(([key, why]) => `agreement: ${key} is undefined (-nan): ${why}`);

/**
 * The agreement as trec_eval -q prints measures: `NAME QID VALUE`, counts as integers, the rest %6.4f, an
 * undefined value (null) as trec_eval prints its NaN, -nan. A set's counts are named by its index from 0
 * (pairs.judged.0: the first QRELS), as the JSON's arrays. The confusion matrix is the JSON's only.
 */
export function agreementText(a: Agreement, perQuery: boolean): string {
  const out: string[] = [];
  const value = (name: string, qid: string, v: number | null, count: boolean) =>
    out.push(formatLine(name, qid, v ?? NaN, count && v !== null ? "long" : "float"));
  const values = (prefix: string, qid: string, x: unknown, count: boolean) => {
    if (x === null || typeof x === "number") value(prefix, qid, x, count);
    else if (Array.isArray(x)) x.forEach((v, i) => values(`${prefix}.${i}`, qid, v, count));
    else
      for (const [k, v] of Object.entries(x as object))
        values(prefix === "" ? k : `${prefix}.${k}`, qid, v, count || k === "pairs");
  };
  if (perQuery)
    for (const q of a.per_query) {
      const { qid, pairs, only, why_null: _, ...rest } = q;
      value("pairs.shared", qid, pairs, true);
      values("pairs.only", qid, only, true);
      values("", qid, rest, false);
    }
  const { sets: _s, threshold: _t, bins: _b, confusion: _c, per_query: _p, why_null: _w, ...summary } = a;
  values("", "all", summary, false);
  return out.join("");
}

/** The coverage table's header and rows: share (4 decimals, - where the run ranks nothing), covered, ranked, run. */
export const COVERAGE_HEADER = ["share", "covered", "ranked", "run"] as const;
export function coverageRows(p: Pool, names: readonly string[]): string[][] {
  return p.coverage.map((c) => [
    c.share === null ? "-" : c.share.toFixed(4),
    String(c.covered),
    String(c.ranked),
    names[c.run],
  ]);
}

/** The pool's size, in a sentence (the coverage table's title). */
export function poolSummary(p: Pool, method: string, judged: boolean): string {
  const documents = `${p.size} document${p.size === 1 ? "" : "s"}`;
  return (
    `pool ${method}: ${documents} over ${p.queries.length} quer${p.queries.length === 1 ? "y" : "ies"}; ` +
    `each run's top ${p.coverageDepth} covered (pooled${judged ? " or judged already" : ""})`
  );
}

/** The pool's size and each run's coverage, a short table for stderr. */
export function coverageText(p: Pool, method: string, names: readonly string[], judged: boolean): string {
  return `rankeval: ${poolSummary(p, method, judged)}:\n${countsTable([...COVERAGE_HEADER], coverageRows(p, names))}`;
}

/** Rows of counts and the run's name last, indented: the numbers right-aligned, the name as it is. */
function countsTable(head: string[], rows: string[][]): string {
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    `  ${r
      .map((x, i) => (i === r.length - 1 ? x : x.padStart(width[i])))
      .join("  ")
      .trimEnd()}\n`;
  return [head, ...rows].map(line).join("");
}

/** fillHoles of files read: `base` the QRELS, `extra` the labels to fill its holes with, `runs` counted. */
export function fillOfFiles(
  base: FileColumns<"rel">,
  extra: FileColumns<"rel">,
  runs: readonly FileColumns<"score">[],
  depth: number,
): FilledJudgments {
  return located(
    () =>
      fillHoles(base.columns, extra.columns, {
        runs: runs.map((r) => r.columns),
        depth,
      }),
    [base, extra, ...runs],
    (name) =>
      name === "base"
        ? base.file
        : name === "extra"
          ? extra.file
          : runs[Number(/^runs\[(\d+)\]$/.exec(name)?.[1] ?? NaN)]?.file,
  );
}

/**
 * The filled judgments as TREC qrels lines, which the ordinary evaluation reads as its QRELS (the command
 * line from a temporary file, the page from a File): labels as JavaScript prints a number, the shortest
 * text that reads back as the same double. An id with white space cannot be one.
 */
export function filledQrelsText(f: FilledJudgments): string {
  const { qid, docid, rel } = f.qrels;
  const out = new Array<string>(qid.length);
  for (let i = 0; i < qid.length; i++) {
    if (/\s/.test(qid[i]) || /\s/.test(docid[i]) || qid[i] === "" || docid[i] === "")
      throw new RankevalError(
        "bad-input",
        `--fill: query ${JSON.stringify(qid[i])} document ${JSON.stringify(docid[i])}: an id empty or with white space cannot be written as a TREC qrels line`,
      );
    out[i] = `${qid[i]} 0 ${docid[i]} ${String(rel[i])}\n`;
  }
  return out.join("");
}

/** The filled judgments' name in the evaluation's notes: QRELS+QRELS_EXTRA (QRELS's rows, then those filled). */
export const filledName = (base: string, extra: string): string => `${base}+${extra}`;

/** The holes table's header and rows: holes, filled, remaining, run (`names`: the runs' files). */
export const HOLES_HEADER = ["holes", "filled", "remaining", "run"] as const;
export function holesRows(f: FilledJudgments, names: readonly string[]): string[][] {
  return f.runs.map((r) => [String(r.holes), String(r.filled), String(r.remaining), names[r.run]]);
}

/** What was filled, in a sentence (the holes table's title). */
export function holesSummary(f: FilledJudgments): string {
  const skipped = f.skipped ? `; ${f.skipped} left out (queries the judgments lack)` : "";
  return (
    `--fill: ${f.filled} label${f.filled === 1 ? "" : "s"} filled${skipped}; ` +
    `holes (unjudged documents) in each run's top ${f.depth}, judged queries`
  );
}

/** The holes of each run's top K: a short table for stderr (`names`: the runs' files). */
export function holesText(f: FilledJudgments, names: readonly string[]): string {
  return `rankeval: ${holesSummary(f)}:\n${countsTable([...HOLES_HEADER], holesRows(f, names))}`;
}

/** The measures of a comparison of two sets without -m: the two the LLM-judge papers' tables show most. */
export const QRELS_COMPARE_MEASURES: readonly string[] = ["ndcg_cut.10", "map"];

/**
 * qrelsCompare of files read: the runs by their files' names (as the text shows them), by their indices
 * where a name comes twice; a document twice in a query said by its file and line, as the evaluation says it.
 */
export function qrelsCompareOfFiles(
  a: FileColumns<"rel">,
  b: FileColumns<"rel">,
  runs: readonly FileColumns<"score">[],
  measures: readonly string[],
  options: QrelsCompareOptions,
): QrelsCompare {
  try {
    return qrelsCompare(
      a.columns,
      b.columns,
      new Set(runs.map((r) => r.file)).size === runs.length
        ? Object.fromEntries(runs.map((r) => [r.file, r.columns]))
        : runs.map((r) => r.columns),
      measures.length ? measures : QRELS_COMPARE_MEASURES,
      options,
    );
  } catch (e) {
    if (e instanceof RankevalError && e.code === "bad-input") for (const r of [a, b, ...runs]) r.checkTwice();
    throw e;
  }
}
