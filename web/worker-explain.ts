// The worker's drill-downs (src/explain/): rows from the kept blocks, or from the run read again.
import { cutoffOf, defaultDepth, explainQuery, type Explanation } from "../src/explain/explain.js";
import { judgedInBlock, judgedOf, rowsInBlock, type JudgedDocs, type RunRows } from "../src/explain/query.js";
import { RankevalError } from "../src/errors/errors.js";
import { batchBlocks, evaluateRunInput, type Input } from "../src/input/input.js";
import type { Batch } from "../src/kernel/batch.js";
import type { ExplicitOptions } from "../src/measures/options.js";
import { BLOCK_ROWS, parsedBlocks } from "../src/pipeline/blocks.js";
import { evaluateBlock } from "../src/app/evaluate-block.js";
import { plan, type Plan } from "../src/app/plan.js";
import type { GroupedJudgments } from "../src/pipeline/join-rows.js";
import type { Sink } from "./read-file.js";
import { BY_NAME, isTrecText } from "./text-files.js";

export interface ExplainState {
  kind: "trec" | "letor";
  p: Plan;
  opts: ExplicitOptions;
  units: readonly { name: string; blocks: readonly { batch: Batch; qids: string[] }[] | null }[];
  judgments: Promise<GroupedJudgments> | null;
  /** Against subtopic judgments: no drill-down. */
  perSubtopic: boolean;
  /** A run's File by name, to read it again. */
  file(name: string): File | undefined;
  readInto(file: File, sink: Sink): Promise<void>;
  inputOf(file: File): Promise<Input>;
}

/** A plan of no cost, for reading a run again. */
const NOTHING = plan(["num_ret"], null, {});

/** Drill-downs of `qids` over every run, to `depth` ranks (default: `measure`'s cutoff, at least 20). */
export async function explainQueries(
  s: ExplainState,
  qids: readonly string[],
  depth?: number,
  measure?: string,
): Promise<Explanation[]> {
  if (s.perSubtopic)
    throw new RankevalError(
      "bad-option",
      "drill-downs explain measures of relevance judgments: these runs were read against subtopic judgments (diversity)",
    );
  if (!s.units.length) throw new RankevalError("bad-option", "no run is read yet");
  const wanted = new Set(qids);
  const judged = new Map<string, JudgedDocs>();
  if (s.kind === "letor") {
    for (const b of s.units[0].blocks ?? []) for (const [q, j] of judgedInBlock(b, wanted)) judged.set(q, j);
  } else {
    const judgments = await s.judgments!;
    for (const q of qids) {
      const j = judgedOf(judgments, q);
      if (j) judged.set(q, j);
    }
  }
  const missing = qids.filter((q) => !judged.has(q));
  if (missing.length)
    throw new RankevalError("bad-input", `no judgments of query ${missing.map((q) => JSON.stringify(q)).join(", ")}`);
  const rows: Map<string, RunRows | null>[] = [];
  for (const u of s.units) {
    const found = new Map<string, RunRows | null>();
    if (u.blocks) {
      for (const b of u.blocks) for (const [q, r] of rowsInBlock(b, wanted)) found.set(q, r);
    } else {
      const file = s.file(u.name);
      if (!file) throw new RankevalError("bad-input", `${u.name} is no longer at hand: choose the files again`);
      const judgments = await s.judgments!;
      const input = await s.inputOf(file);
      await evaluateRunInput(
        input,
        judgments,
        {
          blocks:
            "batches" in input
              ? batchBlocks(input, BLOCK_ROWS)
              : isTrecText(file)
                ? parsedBlocks(file.name, (sink) => s.readInto(file, sink))
                : null,
          recycle: true,
        },
        BY_NAME,
        (joined) => {
          for (const [q, r] of rowsInBlock(joined, wanted)) found.set(q, r);
          return evaluateBlock(NOTHING, joined.batch, joined.qids, {}, file.name, () => {});
        },
      );
    }
    rows.push(found);
  }
  const ranks = depth ?? (measure === undefined ? undefined : defaultDepth([{ cutoff: cutoffOf(s.p, measure) }]));
  return qids.map((qid) =>
    explainQuery(
      { p: s.p, explicit: s.opts },
      {
        qid,
        judged: judged.get(qid)!,
        runs: s.units.map((u, i) => ({ name: u.name, rows: rows[i].get(qid) ?? null })),
      },
      { depth: ranks },
    ),
  );
}
