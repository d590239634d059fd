// rankeval --qrels-compare QRELS_A QRELS_B RUN [RUN ...] (issue 38): the library's qrelsCompare on
// files in any format a QRELS or RUN may be, as aligned text (a table per measure, then the agreement
// as --agreement prints it) or as the library's object in JSON.
import { qrelsCompareOutput, qrelsCompareReport } from "../judgments/qrels-compare-text.js";
import { qrelsCompareReportData } from "../output/html/data.js";
import { RankevalError } from "../errors/errors.js";
import { qrelsCompareOfFiles } from "../judgments/on-files.js";
import type { CliArgs } from "./args.js";
import { EXIT, type Io } from "./cli.js";
import { checkReadOnce } from "./file-read.js";
import { checkColumns, readColumns } from "./judgments-command.js";
import { checkReportFolder, writeReport } from "./report-file.js";
import { expandRuns } from "./runs.js";
import { rankevalVersion } from "./write-manifest.js";

export async function qrelsCompareMode(args: CliArgs, io: Io): Promise<number> {
  const [qrelsA, qrelsB, ...given] = args.files;
  const { files: runFiles, notes } = expandRuns(given);
  for (const n of notes) io.stderr.write(`rankeval: ${n}\n`);
  if (runFiles.length < 2)
    throw new RankevalError(
      "bad-option",
      `--qrels-compare orders 2 or more systems (tau of one is undefined): give QRELS_A QRELS_B RUN RUN [RUN ...] (got ${runFiles.length} run${runFiles.length === 1 ? "" : "s"})`,
    );
  if (args.report !== undefined) checkReportFolder(args.report);
  await checkReadOnce([["QRELS", qrelsA], ["QRELS", qrelsB], ...runFiles.map((f) => ["RUN", f] as const)]);
  checkColumns([qrelsA, qrelsB, ...runFiles], args);
  const [a, b] = await Promise.all([readColumns("rel", qrelsA, args, io), readColumns("rel", qrelsB, args, io)]);
  const runs = await Promise.all(runFiles.map((f) => readColumns("score", f, args, io)));
  const c = qrelsCompareOfFiles(a, b, runs, args.measures, {
    ...(args.threshold === undefined ? {} : { relevanceThreshold: args.threshold }),
    ...(args.bins ? { bins: args.bins } : {}),
  });
  const names = { a: a.file, b: b.file, runs: runs.map((r) => r.file) };
  if (args.report !== undefined) {
    // The same object as --format json prints, drawn: stdout is unchanged by --report.
    const data = qrelsCompareReportData(`rankeval ${rankevalVersion()} (command line)`, qrelsCompareReport(c, names));
    const size = await writeReport(args.report, data);
    io.stderr.write(`rankeval: wrote ${args.report}: ${size}, ${runs.length} runs under 2 sets of judgments\n`);
  }
  if (args.format === "json") {
    io.stdout.write(`${JSON.stringify(c, null, 2)}\n`);
    return EXIT.ok;
  }
  const { text, notes: said } = qrelsCompareOutput(c, names);
  for (const note of said) io.stderr.write(`rankeval: ${note}\n`);
  io.stdout.write(text);
  return EXIT.ok;
}
