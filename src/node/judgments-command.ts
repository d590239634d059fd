// rankeval --qrels-stats QRELS, --agreement QRELS QRELS [QRELS ...] and --pool METHOD RUN [RUN ...]
// (issue 38): the library's qrelsStats, agreement and pool on files in any format a QRELS or RUN may
// be, printed as trec_eval prints measures, as CSV (--qrels-stats), as qrels lines (--pool), or as the
// library's object in JSON.
import { type ColumnsRead, readColumns as readInput } from "../app/read-columns.js";
import {
  agreementNotes,
  agreementOfFiles,
  agreementText,
  coverageText,
  poolOfFiles,
  statsOfFile,
} from "../judgments/on-files.js";
import { formatPool, pool, type PoolOptions } from "../judgments/pools.js";
import { formatQrelsStats } from "../judgments/qrels-stats.js";
import type { CliArgs } from "./args.js";
import { EXIT, type Io } from "./cli.js";
import { fileFormat } from "./columnar-files.js";
import { checkReadOnce, displayName } from "./file-read.js";
import { checkColumnsRead, CLI_COLUMNS_FORMAT, inputOf } from "./files.js";
import { expandRuns } from "./runs.js";

/** `path` read as other modes read a QRELS or RUN, into the library's columns (src/app/read-columns.ts). */
export async function readColumns<V extends "rel" | "score">(
  value: V,
  path: string,
  args: CliArgs,
  io: Io,
): Promise<ColumnsRead<V>> {
  const choice = { format: args.inputFormat, columns: args.columns };
  const resolved = { ...choice, format: fileFormat(path, choice.format).format };
  return said(await readInput(value, inputOf(path, choice), resolved, displayName(path)), io);
}

/** `read`, its notes (rows left out) said on stderr. */
export function said<R extends { readonly notes: readonly string[] }>(read: R, io: Io): R {
  for (const note of read.notes) io.stderr.write(`rankeval: ${note}\n`);
  return read;
}

export function checkColumns(files: readonly string[], args: CliArgs): void {
  checkColumnsRead(files, { format: args.inputFormat, columns: args.columns }, "--columns", CLI_COLUMNS_FORMAT);
}

const json = (x: unknown) => `${JSON.stringify(x, null, 2)}\n`;

export async function qrelsStatsMode(args: CliArgs, io: Io): Promise<number> {
  const [file] = args.files;
  await checkReadOnce([["QRELS", file]]);
  checkColumns([file], args);
  const read = await readColumns("rel", file, args, io);
  const stats = statsOfFile(read, args.threshold ?? 1);
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
  const reads = await Promise.all(files.map((f) => readColumns("rel", f, args, io)));
  const a = agreementOfFiles(reads, { threshold: args.threshold ?? 1, ...(args.bins ? { bins: args.bins } : {}) });
  if (args.format === "json") {
    io.stdout.write(json(a));
    return EXIT.ok;
  }
  for (const note of agreementNotes(a)) io.stderr.write(`rankeval: ${note}\n`);
  io.stdout.write(agreementText(a, args.perQuery));
  return EXIT.ok;
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
  const runs = await Promise.all(files.map((f) => readColumns("score", f, args, io)));
  const judged = judgedFile === undefined ? undefined : await readColumns("rel", judgedFile, args, io);
  const p = poolOfFiles(runs, judged, options);
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
