// rankeval --qrels-compare QRELS_A QRELS_B RUN [RUN ...] (issue 38): the library's qrelsCompare on
// files in any format a QRELS or RUN may be, as aligned text (a table per measure, then the agreement
// as --agreement prints it) or as the library's object in JSON.
import { qrelsCompare } from "../judgments/qrels-compare.js";
import { qrelsCompareText } from "./qrels-compare-text.js";
import { RankevalError } from "../errors/errors.js";
import { agreementNotes, agreementText } from "../judgments/on-files.js";
import type { CliArgs } from "./args.js";
import { EXIT, type Io } from "./cli.js";
import { checkReadOnce } from "./file-read.js";
import { checkColumns, readColumns } from "./judgments-command.js";
import { expandRuns } from "./runs.js";

/** The measures without -m: the two the LLM-judge papers' tables show most. */
export const QRELS_COMPARE_MEASURES: readonly string[] = ["ndcg_cut.10", "map"];

export async function qrelsCompareMode(args: CliArgs, io: Io): Promise<number> {
  const [qrelsA, qrelsB, ...given] = args.files;
  const { files: runFiles, notes } = expandRuns(given);
  for (const n of notes) io.stderr.write(`rankeval: ${n}\n`);
  if (runFiles.length < 2)
    throw new RankevalError(
      "bad-option",
      `--qrels-compare orders 2 or more systems (tau of one is undefined): give QRELS_A QRELS_B RUN RUN [RUN ...] (got ${runFiles.length} run${runFiles.length === 1 ? "" : "s"})`,
    );
  await checkReadOnce([["QRELS", qrelsA], ["QRELS", qrelsB], ...runFiles.map((f) => ["RUN", f] as const)]);
  checkColumns([qrelsA, qrelsB, ...runFiles], args);
  const [a, b] = await Promise.all([readColumns("rel", qrelsA, args, io), readColumns("rel", qrelsB, args, io)]);
  const runs = await Promise.all(runFiles.map((f) => readColumns("score", f, args, io)));
  const measures = args.measures.length ? args.measures : QRELS_COMPARE_MEASURES;
  let c;
  try {
    c = qrelsCompare(
      a.columns,
      b.columns,
      // By their files' names (as the text shows them); the same name twice: by their indices.
      new Set(runs.map((r) => r.file)).size === runs.length
        ? Object.fromEntries(runs.map((r) => [r.file, r.columns]))
        : runs.map((r) => r.columns),
      measures,
      {
        ...(args.threshold === undefined ? {} : { relevanceThreshold: args.threshold }),
        ...(args.bins ? { bins: args.bins } : {}),
      },
    );
  } catch (e) {
    // A document twice in a query: said by its file and line, as the evaluation says it.
    if (e instanceof RankevalError && e.code === "bad-input") for (const r of [a, b, ...runs]) r.checkTwice();
    throw e;
  }
  if (args.format === "json") {
    io.stdout.write(`${JSON.stringify(c, null, 2)}\n`);
    return EXIT.ok;
  }
  const agreed = { ...c.agreement, per_query: [] };
  for (const note of agreementNotes(agreed)) io.stderr.write(`rankeval: ${note}\n`);
  io.stdout.write(
    qrelsCompareText(c, { a: a.file, b: b.file, runs: runs.map((r) => r.file) }, agreementText(agreed, false)),
  );
  return EXIT.ok;
}
