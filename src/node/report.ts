// rankeval --report FILE QRELS RUN...: one HTML file (evaluation, comparison, charts, per-query values,
// drill-downs). Runs are read twice: once to find the queries that changed most, then for their rows.
import { counted } from "../errors/counted.js";
import { meanDifferences, type NamedResult } from "../compare/compare.js";
import { comparableResult, comparableRows, leftOutOfComparison } from "../app/comparable.js";
import { usageError } from "../errors/errors.js";
import { changedMost } from "../explain/changes.js";
import { cutoffOf, defaultDepth, explainQuery, type Explanation } from "../explain/explain.js";
import { printValue, valueRows } from "../app/value-print.js";
import { QueryLines } from "../explain/lines.js";
import { judgedOf, rowsInBlock, type RunRows } from "../explain/query.js";
import { REPORT_QUERIES, reportData, type MeanDifference, type ReportRun } from "../output/html/data.js";
import { checkReportFolder, writeReport } from "./report-file.js";
import { options, planConventions, type Plan, type RunResult } from "../app/plan.js";
import { rowIntervals, summaryCells, summaryRows, trecText } from "../output/results.js";
import type { GroupedJudgments } from "../pipeline/join-rows.js";
import type { CliArgs } from "./args.js";
import { asksForDiversity } from "./diversity-command.js";
import type { Io } from "./cli.js";
import { compareOptions, compareRuns } from "./compare-command.js";
import type { EvaluateRuns } from "./explain-command.js";
import { fileFormat } from "./columnar-files.js";
import { displayName, readInto, rereadable } from "./file-read.js";
import { expandRuns } from "./runs.js";
import { rankevalVersion } from "./write-manifest.js";
import { takeCurve, withCurve, type CurvePlan } from "../app/curve.js";

/** The measure whose changes choose the drill-downs: map or nDCG@10 where asked, else the first. */
export function reportMeasure(p: Plan): string | null {
  const rows = valueRows(p);
  return (rows.find((r) => /^(map|ndcg@10|ndcg_cut_10)$/.test(r.name)) ?? rows[0])?.name ?? null;
}

export function reportRuns(p: Plan, runs: readonly RunResult[]): { rows: string[]; runs: ReportRun[] } {
  const values = valueRows(p);
  return {
    rows: summaryRows(p),
    runs: runs.map((r) => {
      const cells =
        p.kind === "trec"
          ? summaryCells(trecText(p, r, { perQuery: false }))
          : Object.fromEntries(
              p.rows.map((row) => {
                const v = r.result.mean[row.measure];
                return [row.name, { text: printValue(v, "table"), value: Number.isNaN(v) ? null : v }];
              }),
            );
      const columns = Object.fromEntries(
        values.map((v) => [v.name, { values: r.result.values[v.key], print: v.print }]),
      );
      const intervals = rowIntervals(p, r.result);
      const withIntervals = Object.fromEntries(
        Object.entries(cells).map(([row, c]) => [row, intervals[row] ? { ...c, interval: intervals[row] } : c]),
      );
      return { name: displayName(r.file), cells: withIntervals, perQuery: { qids: r.result.qids, columns } };
    }),
  };
}

export async function reportMode(args: CliArgs, io: Io, evaluate: EvaluateRuns): Promise<number> {
  const started = performance.now();
  if (args.files.length < 2) throw usageError("--report FILE needs QRELS and at least one RUN file");
  if (asksForDiversity(args))
    throw usageError(
      "--report reports measures of relevance judgments, not the diversity measures' (subtopic judgments)",
    );
  // Checked before anything is read.
  checkReportFolder(args.report!);
  const [qrels, ...runArgs] = args.files;
  for (const f of [qrels, ...expandRuns(runArgs).files]) {
    if (!(await rereadable(f)))
      throw usageError(
        `--report reads its inputs twice (the drill-downs' queries are known once every run is evaluated): ${displayName(f)} cannot be read again; save it to a file first`,
      );
  }
  let judgments: GroupedJudgments | null = null;
  // The precision-recall curve is computed beside the -m names and taken out again.
  let curvePlan: CurvePlan | null = null;
  const evaluated = await evaluate(args, io, {
    judgments: (j) => void (judgments = j),
    plan: (p) => (curvePlan = withCurve(p, args, options(args, p.kind === "trec")))?.plan ?? p,
  });
  const p = evaluated.p;
  const taken = evaluated.runs.map((r) => takeCurve(curvePlan, r));
  const runs = taken.map((t) => t.evaluated);
  const explicit = options(args, p.kind === "trec");
  const made = reportRuns(p, runs);
  const rows = made.rows;
  const reported = made.runs.map((r, i) => ({ ...r, curve: taken[i].curve }));

  let comparison = null;
  const intervals: MeanDifference[] = [];
  const names = reported.map((r) => r.name);
  if (runs.length >= 2) {
    const rows = comparableRows(p, args.measures);
    const comparable = rows.rows;
    if (comparable.length) {
      for (const note of leftOutOfComparison(rows)) io.stderr.write(`rankeval: ${note}\n`);
      const named: NamedResult[] = runs.map((r, i) => ({
        name: names[i],
        result: comparableResult(r.result, comparable),
      }));
      const o = compareOptions(
        { ...args, baseline: args.baseline === undefined ? undefined : displayName(args.baseline) },
        named,
      );
      const c = await compareRuns(named, o);
      comparison = { comparison: c, test: c.settings.tests[0] };
      intervals.push(...meanDifferences(named));
    }
  }

  const measure = reportMeasure(p);
  const baseline = comparison?.comparison.baseline ?? names[0];
  const n = args.reportQueries ?? REPORT_QUERIES;
  const chosen =
    measure === null
      ? []
      : changedMost(
          reported.map((r) => ({ qids: r.perQuery.qids, values: r.perQuery.columns[measure].values })),
          Math.max(0, names.indexOf(baseline)),
          n,
        );
  // Shown to the chosen measure's cutoff (at least 20).
  const depth = defaultDepth([{ cutoff: measure === null ? 0 : cutoffOf(p, measure) }]);
  const explanations = chosen.length
    ? await explainQueries(
        args,
        io,
        evaluate,
        p,
        chosen,
        runs.map((r) => r.file),
        depth,
        judgments!,
      )
    : [];

  const data = reportData({
    source: `rankeval ${rankevalVersion()} (command line)`,
    rows,
    conventions: planConventions(p, explicit).join("; "),
    runs: reported,
    comparison,
    intervals,
    explained: { measure: measure ?? "", baseline, explanations },
    warnings: [],
  });
  const size = await writeReport(args.report!, data);
  const queries = data.perQuery.qids.length;
  io.stderr.write(
    `rankeval: wrote ${args.report}: ${size}, ${counted(runs.length, "run")}, ${counted(queries, "query", "queries")}, ${counted(explanations.length, "drill-down")}, in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return 0;
}

/** The drill-downs of `qids`, the runs read again (TREC text: those queries' lines only). */
async function explainQueries(
  args: CliArgs,
  io: Io,
  evaluate: EvaluateRuns,
  p: Plan,
  qids: readonly string[],
  files: readonly string[],
  depth: number,
  judged: GroupedJudgments,
): Promise<Explanation[]> {
  const wanted = new Set(qids);
  const explicit = options(args, p.kind === "trec");
  const rows = new Map<string, RunRows | null>();
  const explain = (j: GroupedJudgments) =>
    qids.map((qid) =>
      explainQuery(
        { p, explicit, complete: args.complete },
        {
          qid,
          judged: judgedOf(j, qid)!,
          runs: files.map((f) => ({ name: displayName(f), rows: rows.get(`${f}\0${qid}`) ?? null })),
        },
        { depth },
      ),
    );
  if (files.every((f) => fileFormat(f, args.inputFormat).format === "trec")) {
    for (const f of files) {
      const sink = new QueryLines(qids);
      await readInto(f, sink);
      for (const [q, r] of sink.finish(displayName(f))) rows.set(`${f}\0${q}`, r);
    }
    return explain(judged);
  }
  let judgments: GroupedJudgments | null = null;
  const quiet: Io = { stdout: io.stdout, stderr: { write: () => true } };
  // A plan of the same kind: trec_eval's names read labels with atol, others as written.
  const again: CliArgs = { ...args, measures: [p.kind === "trec" ? "num_ret" : "precision@1"] };
  await evaluate(again, quiet, {
    judgments: (j) => void (judgments = j),
    block: (file, joined) => {
      for (const [q, r] of rowsInBlock(joined, wanted)) rows.set(`${file}\0${q}`, r);
    },
  });
  return explain(judgments!);
}
