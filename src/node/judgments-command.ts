// rankeval --qrels-stats QRELS, --agreement QRELS QRELS [QRELS ...] and --pool METHOD RUN [RUN ...]
// (issue 38): the library's qrelsStats, agreement and pool on files in any format a QRELS or RUN may
// be, printed as trec_eval prints measures, as CSV (--qrels-stats), as qrels lines (--pool), or as the
// library's object in JSON.
import { agreement, type Agreement } from "../judgments/agreement.js";
import { formatPool, pool, type Pool, type PoolOptions } from "../judgments/pools.js";
import { formatQrelsStats, qrelsStats } from "../judgments/qrels-stats.js";
import { RankevalError } from "../errors/errors.js";
import { docidStrings, idValuesAt } from "../input/id-values.js";
import { readRows } from "../input/input.js";
import { Interner } from "../io/interner.js";
import { formatLine } from "../trec/format.js";
import type { CliArgs } from "./args.js";
import { EXIT, type Io } from "./cli.js";
import { fileFormat } from "./columnar-files.js";
import { checkReadOnce, displayName } from "./file-read.js";
import { checkColumnsRead, CLI_COLUMNS_FORMAT, inputOf } from "./files.js";
import { expandRuns } from "./runs.js";

/** Columns as the library reads them, qids by the parser's names. */
type Columns<V extends "rel" | "score"> = { qid: Int32Array; qidNames: Interner; docid: string[] } & Record<
  V,
  Float64Array
>;

/** A file read as the library's columns, and how to say a duplicate row's file and line. */
interface Read<V extends "rel" | "score" = "rel" | "score"> {
  readonly file: string;
  readonly columns: Columns<V>;
  /** Throws "FILE:LINE: document ... appears twice in query ..." where the file has such a row. */
  readonly checkTwice: () => void;
}

/**
 * `path` read as other modes read a QRELS or RUN, into columns (no object per query): qids interned (the
 * library reads them by the parser's names), docids a string each. Duplicates are found by the library;
 * which line is found again only where it finds one (`located`).
 */
async function readColumns<V extends "rel" | "score">(value: V, path: string, args: CliArgs): Promise<Read<V>> {
  const kind = value === "rel" ? "qrels" : "run";
  const choice = { format: args.inputFormat, columns: args.columns };
  const resolved = { ...choice, format: fileFormat(path, choice.format).format };
  const { rows, placeOf } = await readRows(kind, inputOf(path, choice), new Interner(), resolved);
  const n = rows.length;
  const values = ("rel" in rows ? rows.rel : rows.score).subarray(0, n);
  const columns = {
    qid: rows.qid.subarray(0, n),
    qidNames: rows.qidNames,
    docid: docidStrings(rows.docids, n),
    [value]: values,
  } as Columns<V>;
  return { file: displayName(path), columns, checkTwice: () => void idValuesAt(rows, values, placeOf) };
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

function checkColumns(files: readonly string[], args: CliArgs): void {
  checkColumnsRead(files, { format: args.inputFormat, columns: args.columns }, "--columns", CLI_COLUMNS_FORMAT);
}

const json = (x: unknown) => `${JSON.stringify(x, null, 2)}\n`;

export async function qrelsStatsMode(args: CliArgs, io: Io): Promise<number> {
  const [file] = args.files;
  await checkReadOnce([["QRELS", file]]);
  checkColumns([file], args);
  const read = await readColumns("rel", file, args);
  const stats = located(
    () => qrelsStats(read.columns, { relevanceThreshold: args.threshold ?? 1 }),
    [read],
    (name) => (name === "qrels" ? read.file : undefined),
  );
  io.stdout.write(
    args.format === "json"
      ? json(stats)
      : formatQrelsStats(stats, { format: args.format === "csv" ? "csv" : "text", perQuery: args.perQuery }),
  );
  return EXIT.ok;
}

export async function agreementMode(args: CliArgs, io: Io): Promise<number> {
  const files = args.files;
  await checkReadOnce(files.map((f) => ["QRELS", f] as const));
  checkColumns(files, args);
  const reads = await Promise.all(files.map((f) => readColumns("rel", f, args)));
  const a = located(
    () =>
      agreement(
        reads.map((r) => r.columns),
        { threshold: args.threshold ?? 1, ...(args.bins ? { bins: args.bins } : {}) },
      ),
    reads,
    (name) => reads[Number(/^sets\[(\d+)\]$/.exec(name)?.[1] ?? NaN)]?.file,
  );
  if (args.format === "json") {
    io.stdout.write(json(a));
    return EXIT.ok;
  }
  for (const [key, why] of Object.entries(a.why_null ?? {}))
    io.stderr.write(`rankeval: agreement: ${key} is undefined (-nan): ${why}\n`);
  io.stdout.write(agreementText(a, args.perQuery));
  return EXIT.ok;
}

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

export async function poolMode(args: CliArgs, io: Io): Promise<number> {
  const { files, notes } = expandRuns(args.files);
  for (const n of notes) io.stderr.write(`rankeval: ${n}\n`);
  const options: PoolOptions = {
    method: args.pool!,
    ...(args.depth === undefined ? {} : { depth: args.depth }),
    ...(args.budget === undefined ? {} : { budget: args.budget }),
    ...(args.combine === undefined ? {} : { combine: args.combine }),
    ...(args.coverageDepth === undefined ? {} : { coverageDepth: args.coverageDepth }),
  };
  // The method and its options checked before any file is read: an empty run pools nothing.
  pool([{ qid: [], docid: [], score: [] }], options);
  const judgedFile = args.judged;
  await checkReadOnce([
    ...files.map((f) => ["RUN", f] as const),
    ...(judgedFile === undefined ? [] : [["--judged", judgedFile] as const]),
  ]);
  checkColumns(judgedFile === undefined ? files : [...files, judgedFile], args);
  const runs = await Promise.all(files.map((f) => readColumns("score", f, args)));
  const judged = judgedFile === undefined ? undefined : await readColumns("rel", judgedFile, args);
  const p = located(
    () =>
      pool(
        runs.map((r) => r.columns),
        judged ? { ...options, judged: judged.columns } : options,
      ),
    judged ? [...runs, judged] : runs,
    (name) => (name === "judged" ? judged?.file : runs[Number(/^runs\[(\d+)\]$/.exec(name)?.[1] ?? NaN)]?.file),
  );
  if (args.format === "json") {
    io.stdout.write(json(p));
    return EXIT.ok;
  }
  io.stdout.write(formatPool(p, { shape: args.poolFormat === "qrels" ? "qrels" : "pairs" }));
  io.stderr.write(
    coverageText(
      p,
      args.pool!,
      runs.map((r) => r.file),
      judged !== undefined,
    ),
  );
  return EXIT.ok;
}

/** The pool's size and each run's coverage, a short table for stderr. */
export function coverageText(p: Pool, method: string, names: readonly string[], judged: boolean): string {
  const rows = p.coverage.map((c) => [
    c.share === null ? "-" : c.share.toFixed(4),
    String(c.covered),
    String(c.ranked),
    names[c.run],
  ]);
  const head = ["share", "covered", "ranked", "run"];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    `  ${r
      .map((x, i) => (i === r.length - 1 ? x : x.padStart(width[i])))
      .join("  ")
      .trimEnd()}\n`;
  const documents = `${p.size} document${p.size === 1 ? "" : "s"}`;
  return (
    `rankeval: pool ${method}: ${documents} over ${p.queries.length} quer${p.queries.length === 1 ? "y" : "ies"}; ` +
    `each run's top ${p.coverageDepth} covered (pooled${judged ? " or judged already" : ""}):\n` +
    line(head) +
    rows.map(line).join("")
  );
}
