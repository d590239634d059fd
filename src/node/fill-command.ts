// rankeval --fill QRELS_EXTRA QRELS RUN [RUN ...] (issue 38): the ordinary evaluation of the runs, under
// QRELS with QRELS_EXTRA's labels where QRELS has none (src/judgments/fill-holes.ts), and on stderr each
// run's holes in its top --fill-depth. The filled judgments are written to a temporary TREC qrels file
// (filledQrelsText: the page evaluates the same text as a File), which the ordinary evaluation reads as
// its QRELS, and which is deleted after; its notes name it QRELS+QRELS_EXTRA (filledName). The
// evaluation reads a file, not columns, so that every evaluation option and output of the command line
// (threads, -q, --format, --compare's refusals) stays the one path's.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readColumns as readInput } from "../app/read-columns.js";
import { filledName, filledQrelsText, fillOfFiles, holesText } from "../judgments/on-files.js";
import type { CliArgs } from "./args.js";
import type { Io } from "./cli.js";
import { fileFormat } from "./columnar-files.js";
import { checkReadOnce, displayName } from "./file-read.js";
import { inputOf } from "./files.js";
import { said } from "./judgments-command.js";
import { expandRuns } from "./runs.js";

async function readColumns<V extends "rel" | "score">(value: V, path: string, io: Io) {
  return said(await readInput(value, inputOf(path, {}), { format: fileFormat(path).format }, displayName(path)), io);
}

export async function fillMode(
  args: CliArgs,
  io: Io,
  evaluate: (args: CliArgs, io: Io) => Promise<number>,
): Promise<number> {
  const [qrelsFile, ...given] = args.files;
  const { files } = expandRuns(given);
  await checkReadOnce([["QRELS", qrelsFile], ["--fill", args.fill!], ...files.map((f) => ["RUN", f] as const)]);
  const [base, extra, ...runs] = await Promise.all([
    readColumns("rel", qrelsFile, io),
    readColumns("rel", args.fill!, io),
    ...files.map((f) => readColumns("score", f, io)),
  ]);
  const filled = fillOfFiles(base, extra, runs, args.fillDepth ?? 10);
  const text = filledQrelsText(filled);
  const dir = await mkdtemp(join(tmpdir(), "rankeval-fill-"));
  try {
    const path = join(dir, "filled.qrels");
    await writeFile(path, text);
    // The evaluation's notes name the filled judgments as QRELS+QRELS_EXTRA (lines: QRELS's rows, then those filled).
    const named = filledName(displayName(qrelsFile), displayName(args.fill!));
    const stderr = { ...io.stderr, write: (s: string) => io.stderr.write(s.replaceAll(path, named)) };
    const status = await evaluate(
      { ...args, fill: undefined, fillDepth: undefined, files: [path, ...given] },
      { stdout: io.stdout, stderr },
    );
    if (status === 0) io.stderr.write(holesText(filled, files.map(displayName)));
    return status;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
