// rankeval --explain QID: the runs evaluated, the query's rows taken from the joined blocks, its drill-down printed.
import { RankevalError, badInput } from "../errors/errors.js";
import { explainQuery, type Explanation } from "../explain/explain.js";
import { judgedOf, judgedQueries, rowsInBlock, type JudgedDocs, type RunRows } from "../explain/query.js";
import { formatExplanation } from "../explain/text.js";
import { nearest } from "../errors/suggest.js";
import { options, planConventions } from "../app/plan.js";
import type { GroupedJudgments } from "../pipeline/join-rows.js";
import type { CliArgs } from "./args.js";
import { asksForDiversity } from "./diversity-command.js";
import type { EvaluationHooks, Io } from "./cli.js";
import type { Plan, RunResult } from "../app/plan.js";
import { displayName } from "./file-read.js";

/** cli.ts's evaluateTrecRuns, with hooks that see the rows. */
export type EvaluateRuns = (args: CliArgs, io: Io, hooks?: EvaluationHooks) => Promise<{ p: Plan; runs: RunResult[] }>;

const EXPLAIN_DEFAULT_MEASURES: readonly string[] = ["ndcg_cut.10"];

/** A few of `all`, for a message: `q1, q10, q11, ... (20)`. */
function some(all: readonly string[], n = 5): string {
  return `${all.slice(0, n).join(", ")}${all.length > n ? `, ... (${all.length})` : ""}`;
}

/** Queries near `qid` (a typo, or 301 for q301). */
function near(qid: string, known: readonly string[]): string {
  const close = nearest(qid, known, 3);
  const spelled = known.filter((k) => k !== qid && (k.endsWith(qid) || qid.endsWith(k)) && /\d/.test(k)).slice(0, 3);
  const hints = [...new Set([...close, ...spelled])];
  return hints.length ? ` (did you mean ${hints.join(", ")}?)` : "";
}

export async function explainMode(args: CliArgs, io: Io, evaluate: EvaluateRuns): Promise<number> {
  const qid = args.explain!;
  if (args.files.length < 2)
    throw new RankevalError("bad-option", "--explain QID needs QRELS and at least one RUN file");
  if (asksForDiversity(args))
    throw new RankevalError(
      "bad-option",
      "--explain explains measures of relevance judgments, not the diversity measures' (subtopic judgments)",
    );
  const a: CliArgs = args.measures.length ? args : { ...args, measures: [...EXPLAIN_DEFAULT_MEASURES] };
  const wanted = new Set([qid]);
  let judged: JudgedDocs | null = null;
  const rows = new Map<string, RunRows | null>();
  const hooks: EvaluationHooks = {
    // Said before the runs are read.
    judgments(j: GroupedJudgments) {
      judged = judgedOf(j, qid);
      if (!judged) {
        const known = judgedQueries(j);
        throw badInput(
          `query "${qid}" has no judgments in ${displayName(args.files[0])}${near(qid, known)}; its queries are ${some(known)}, and only judged queries are evaluated`,
        );
      }
    },
    block(file, joined) {
      for (const [q, r] of rowsInBlock(joined, wanted)) rows.set(`${file}\0${q}`, r);
    },
  };
  const { p, runs } = await evaluate(a, io, hooks);
  const runRows = runs.map((r) => ({ name: r.file, rows: rows.get(`${r.file}\0${qid}`) ?? null }));
  if (runRows.every((r) => r.rows === null) && !args.complete) {
    const first = runs[0];
    const which =
      runs.length === 1 ? displayName(first.file) : `any of ${runs.map((r) => displayName(r.file)).join(", ")}`;
    throw badInput(
      `query "${qid}" is judged but not in ${which}; the queries evaluated are ${some(first.result.qids)} (-c evaluates a judged query a run lacks as an empty ranking)`,
    );
  }
  const explicit = options(a, p.kind === "trec");
  const x = explainQuery(
    { p, explicit, complete: args.complete },
    { qid, judged: judged!, runs: runRows.map((r) => ({ name: displayName(r.name), rows: r.rows })) },
    { depth: args.explainDepth },
  );
  checkValues(
    x,
    runs.map((r) => r.result),
  );
  const conventions = planConventions(p, explicit);
  io.stdout.write(
    args.format === "json" ? `${JSON.stringify({ ...x, conventions }, null, 2)}\n` : formatExplanation(x, conventions),
  );
  return 0;
}

/** The drill-down's values must be the evaluation's (same rows, same code): a difference is a bug, thrown. */
function checkValues(
  x: Explanation,
  runs: readonly { qids: readonly string[]; values: Record<string, Float64Array> }[],
): void {
  x.runs.forEach((run, r) => {
    const at = runs[r].qids.indexOf(x.qid);
    if (at < 0) return;
    for (const m of x.measures) {
      const want = runs[r].values[m.key]?.[at];
      if (want === undefined) continue;
      const got = run.values[m.key];
      if (!(got === null ? Number.isNaN(want) : Object.is(got, want) || got === want)) {
        throw new Error(
          `--explain: ${m.name} of ${x.qid} in ${run.name} is ${got} in the drill-down but ${want} in the evaluation`,
        );
      }
    }
  });
}
