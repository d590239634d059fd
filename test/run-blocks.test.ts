// RunBlocks: a run joined and evaluated block by block as it streams (the page's way with large
// runs) gives exactly what the whole file gives: the same per-query values, means and trec_eval text.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type InputError, RankevalError } from "../src/errors/errors.js";
import { evaluateBatch } from "../src/pipeline/evaluate.js";
import { Interner, QrelsParser, RunParser } from "../src/io/index.js";
import { explicitOptions } from "../src/measures/options.js";
import {
  evaluateRunFile,
  NotGroupedError,
  parsedBlocks,
  PortableBlocks,
  portableBlock,
  RunBlockParser,
  RunBlocks,
  transferables,
} from "../src/pipeline/blocks.js";
import { evaluateBlock, relstringValues, trecExtras } from "../src/app/evaluate-block.js";
import type { Evaluated } from "../src/pipeline/evaluate.js";
import { mergeBlocks } from "../src/pipeline/merge.js";
import { options, plan, trecOptions, type RunResult } from "../src/app/plan.js";
import { trecText } from "../src/output/results.js";
import { groupJudgments, joinParsed } from "../src/pipeline/join-rows.js";
import { bytes } from "./io/_helpers.js";
import { runs } from "./_seed.js";

const MEASURES = ["map", "P.5", "ndcg_cut.3", "recip_rank", "bpref", "num_rel_ret", "relstring.4", "11pt_avg"];

function judgments(text: string, qids = new Interner()) {
  const q = new QrelsParser({ file: "qrels.txt", qids, docids: "per-row" });
  q.push(bytes(text));
  return groupJudgments(q.finish());
}

/** The trec_eval text (per query and summary) for a run read whole, as the CLI does. */
function whole(qrelsText: string, runText: string): string {
  const j = judgments(qrelsText);
  const r = new RunParser({ file: "run.txt", qids: j.qrels.qidNames, docids: "per-row" });
  r.push(bytes(runText));
  const joined = joinParsed(j, r.finish());
  const p = plan(MEASURES, null);
  if (p.kind !== "trec") throw new Error("trec names");
  const opts = options({});
  const result = trecExtras(
    p,
    evaluateBatch(joined.batch, joined.qids, p.measures, opts, joined.notJudged, joined.notInRun),
  );
  const run: RunResult = {
    file: "run.txt",
    runTag: joined.runTag,
    result,
    strings: relstringValues(p, joined.batch, trecOptions(opts)),
  };
  return trecText(p, run, { perQuery: true });
}

/**
 * The same, read in blocks of `blockRows` rows from chunks of `chunk` bytes; also the block sizes.
 * `elsewhere`: parsed as the page's run reader does, with its own query interner, each block moved
 * (structuredClone with its buffers transferred, as postMessage) and its ids translated on arrival.
 */
function inBlocks(
  qrelsText: string,
  runText: string,
  blockRows: number,
  chunk: number,
  elsewhere = false,
  recycle = false,
): { text: string; blocks: number[]; notJudged: number; reused: number } {
  let given: ArrayBuffer | undefined;
  let reused = 0;
  const j = judgments(qrelsText);
  const p = plan(MEASURES, null);
  if (p.kind !== "trec") throw new Error("trec names");
  const opts = options({});
  const parts: Evaluated[] = [];
  const blocks: number[] = [];
  const joiner = new RunBlocks(
    j,
    "run.txt",
    (joined) => {
      blocks.push(joined.batch.scores.length);
      const result = trecExtras(p, evaluateBatch(joined.batch, joined.qids, p.measures, opts, 0, 0));
      parts.push({ result, strings: relstringValues(p, joined.batch, trecOptions(opts)) });
    },
    recycle,
  );
  const arrival = new PortableBlocks(j.qrels.qidNames, "run.txt");
  let sent = 0;
  // Elsewhere and recycling: each block's buffer goes back to the reader once added, as the ack does.
  let spare: ArrayBuffer | undefined;
  const reader = elsewhere
    ? new RunBlockParser(
        "run.txt",
        new Interner(),
        (rows) => {
          const block = portableBlock(rows, sent);
          sent = rows.qidNames.size;
          if (rows.score.buffer === given) reused++;
          const moved = structuredClone(block, { transfer: transferables(block) });
          expect(
            block.rows.score.byteLength +
              block.rows.docids.bytes.byteLength +
              block.rows.spans.ids.byteLength +
              block.newQids.offsets.byteLength,
          ).toBe(0); // moved, not copied
          joiner.add(arrival.rows(moved));
          const buffer = moved.rows.score.buffer;
          if (recycle) spare = structuredClone(buffer, { transfer: [buffer] });
        },
        blockRows,
        () => {
          given = spare;
          spare = undefined;
          return given;
        },
      )
    : new RunBlockParser("run.txt", j.qrels.qidNames, (rows) => joiner.add(rows), blockRows);
  const all = bytes(runText);
  for (let i = 0; i < all.length; i += chunk) reader.push(all.subarray(i, i + chunk));
  const summary = joiner.finish(reader.finish());
  const merged = mergeBlocks(parts, summary.notJudged, summary.notInRunQids.length);
  return {
    text: trecText(p, { file: "run.txt", runTag: summary.runTag, ...merged }, { perQuery: true }),
    blocks,
    notJudged: summary.notJudged,
    reused,
  };
}

const QRELS = [
  "q1 0 a 1",
  "q1 0 b 0",
  "q1 0 c 2",
  "q2 0 a 1",
  "q3 0 x 1",
  "q3 0 y 1",
  "q10 0 z 1",
  "q9 0 lost 1",
  "",
].join("\n");
const RUN = [
  "q3 Q0 y 1 0.5 R",
  "q3 Q0 x 2 0.5 R",
  "q3 Q0 w 3 0.1 R",
  "q1 Q0 c 1 3 R",
  "q1 Q0 d 2 2 R",
  "q1 Q0 a 3 1 R",
  "q1 Q0 b 4 1 R",
  "q7 Q0 a 1 1 R",
  "# a comment",
  "q10 Q0 z 1 -1 R",
  "q10 Q0 y 2 -2 R",
  "q2 Q0 b 1 9 R",
  "q2 Q0 a 2 8 R",
  "q2 Q0 e 3 8 R",
  "",
].join("\n");

describe("RunBlocks", () => {
  it("gives the whole file's trec_eval text, per query and summary, for every block size and chunk size, blocks parsed elsewhere or joined into the arrays of the block before", () => {
    const want = whole(QRELS, RUN);
    expect(want).toContain("map                   \tall\t0.7708\n"); // q1, q10, q2, q3
    for (const blockRows of [1, 2, 3, 5, 8, 1000]) {
      for (const chunk of [1, 7, 64, 1 << 16]) {
        for (const [elsewhere, recycle] of [
          [false, false],
          [true, false],
          [false, true],
          [true, true],
        ]) {
          const got = inBlocks(QRELS, RUN, blockRows, chunk, elsewhere, recycle);
          expect(got.text).toBe(want);
          expect(got.notJudged).toBe(1); // q7
          // Blocks written into the buffers of blocks before (each large enough: the first has a tenth spare).
          if (elsewhere && recycle && blockRows === 1 && chunk === 1) expect(got.reused).toBeGreaterThan(0);
        }
      }
    }
    // Small blocks really are blocks: whole queries, handed over as they end.
    expect(inBlocks(QRELS, RUN, 1, 1).blocks).toEqual([3, 4, 0, 2, 3]);
  });

  it("makes a block's qid column from its runs of query ids when read, as the whole file's", () => {
    const qids = new Interner();
    const text = bytes(RUN);
    const whole = new RunParser({ file: "run.txt", qids, docids: "per-row" });
    whole.push(text);
    const want = Array.from(whole.finish().qid);
    const got: number[] = [];
    const p = new RunParser({ file: "run.txt", qids, docids: "per-row" });
    for (let i = 0; i < text.length; i += 7) {
      p.push(text.subarray(i, i + 7));
      const rows = p.takeQueries(2);
      if (rows) {
        expect(Object.keys(rows)).not.toContain("qid"); // not made until read
        got.push(...rows.qid);
      }
    }
    got.push(...p.finish().qid);
    expect(got).toEqual(want);
  });

  it("equals the whole file on random grouped runs (fast-check)", () => {
    const query = fc.record({
      docs: fc.uniqueArray(fc.constantFrom(..."abcdefghij"), { minLength: 1, maxLength: 8 }),
      scores: fc.array(fc.constantFrom(0, 0.5, 1, 2), { minLength: 8, maxLength: 8 }),
      labels: fc.array(fc.constantFrom(-1, 0, 1, 2), { minLength: 10, maxLength: 10 }),
      judged: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(query, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        fc.boolean(),
        (queries, blockRows, chunk, elsewhere, recycle) => {
          const qrels: string[] = [];
          const run: string[] = [];
          queries.forEach((q, i) => {
            if (q.judged)
              for (const [k, d] of [..."abcdefghij"].entries())
                if (k % 2 === i % 2) qrels.push(`q${i} 0 ${d} ${q.labels[k]}`);
            q.docs.forEach((d, k) => run.push(`q${i} Q0 ${d} ${k + 1} ${q.scores[k]} t`));
          });
          const qrelsText = qrels.join("\n") + "\nqz 0 a 1\n";
          const runText = run.join("\n") + "\n";
          expect(inBlocks(qrelsText, runText, blockRows, chunk, elsewhere, recycle).text).toBe(
            whole(qrelsText, runText),
          );
        },
      ),
      { numRuns: runs(200) },
    );
  });

  it("says where a query comes back after another began, in a later block or the same one", () => {
    const run = "q1 Q0 a 1 1 R\nq1 Q0 b 2 1 R\nq2 Q0 a 1 1 R\nq1 Q0 c 3 1 R\n";
    for (const [blockRows, elsewhere] of [
      [1, false],
      [100, false],
      [1, true],
    ] as const) {
      let error: unknown;
      try {
        inBlocks(QRELS, run, blockRows, 5, elsewhere);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(NotGroupedError);
      expect((error as InputError).message).toBe(
        'run.txt:4: query "q1" comes back after other queries (the run is not grouped by query)',
      );
    }
  });

  it("keeps the line numbers of later blocks in errors", () => {
    const run = "q1 Q0 a 1 1 R\n\nq2 Q0 a 1 1 R\n# c\nq3 Q0 x 1 1 R\nq3 Q0 x 2 1 R\n";
    for (const elsewhere of [false, true])
      expect(() => inBlocks(QRELS, run, 1, 3, elsewhere)).toThrow(
        'run.txt:6: document "x" appears twice in query "q3"',
      );
    const bad = "q1 Q0 a 1 1 R\nq2 Q0 a 1 1 R\nq3 Q0 x 1 1 R\nq3 Q0 y 2 zz R\n";
    expect(() => inBlocks(QRELS, bad, 1, 4)).toThrow(/^run\.txt:4:\d+: /);
  });

  it("reads an empty run: every judged query is absent", () => {
    const j = judgments(QRELS);
    const joiner = new RunBlocks(j, "run.txt", () => {});
    expect(joiner.finish(new RunBlockParser("run.txt", j.qrels.qidNames, (rows) => joiner.add(rows)).finish())).toEqual(
      {
        runTag: "",
        notJudged: 0,
        notInRunQids: ["q1", "q10", "q2", "q3", "q9"],
        rows: 0,
        queries: 0,
        evaluated: 0,
        someQids: [],
      },
    );
  });

  it("equals joinParsed's evaluation on a canonical measure's means too", () => {
    const j = judgments(QRELS);
    const opts = explicitOptions();
    const r = new RunParser({ file: "run.txt", qids: j.qrels.qidNames, docids: "per-row" });
    r.push(bytes(RUN));
    const joined = joinParsed(j, r.finish());
    const p = plan(["ndcg@3", "map"], null);
    const want = evaluateBatch(joined.batch, joined.qids, p.measures, opts, joined.notJudged, joined.notInRun);
    const parts: Evaluated[] = [];
    const j2 = judgments(QRELS);
    const joiner = new RunBlocks(j2, "run.txt", (b) =>
      parts.push({ result: evaluateBatch(b.batch, b.qids, p.measures, opts, 0, 0), strings: {} }),
    );
    const reader = new RunBlockParser("run.txt", j2.qrels.qidNames, (rows) => joiner.add(rows), 2);
    reader.push(bytes(RUN));
    const s = joiner.finish(reader.finish());
    const got = mergeBlocks(parts, s.notJudged, s.notInRunQids.length).result;
    expect(got.qids).toEqual(want.qids);
    expect(got.mean).toEqual(want.mean);
    expect(got.values).toEqual(want.values);
    expect(got.queries).toEqual(want.queries);
  });
});

describe("mergeBlocks: each summary as the blocks took it", () => {
  it("sums num_ret and num_rel and takes gm_map's geometric mean over the blocks, as for the run read whole", () => {
    for (const names of [
      ["num_ret", "num_rel", "gm_map", "map", "gm_bpref"],
      ["NumRet", "NumRel", "AP"],
    ]) {
      const p = plan(names, null);
      const opts = options({}, p.kind === "trec");
      const j = judgments(QRELS);
      const r = new RunParser({ file: "run.txt", qids: j.qrels.qidNames, docids: "per-row" });
      r.push(bytes(RUN));
      const joined = joinParsed(j, r.finish());
      const want = mergeBlocks(
        [evaluateBlock(p, joined.batch, joined.qids, opts, "run.txt", () => {})],
        joined.notJudged,
        joined.notInRun,
      ).result;
      const parts: Evaluated[] = [];
      const j2 = judgments(QRELS);
      const joiner = new RunBlocks(j2, "run.txt", (b) =>
        parts.push(evaluateBlock(p, b.batch, b.qids, opts, "run.txt", () => {})),
      );
      const reader = new RunBlockParser("run.txt", j2.qrels.qidNames, (rows) => joiner.add(rows), 1);
      reader.push(bytes(RUN));
      const s = joiner.finish(reader.finish());
      expect(parts.length).toBeGreaterThan(1);
      const got = mergeBlocks(parts, s.notJudged, s.notInRunQids.length).result;
      expect(got.qids).toEqual(want.qids);
      expect(got.mean).toEqual(want.mean);
      expect(got.counted).toEqual(want.counted);
      // A sum is no mean: the test sees the difference.
      const sum = names[0];
      expect(got.mean[p.rows.find((row) => row.name === sum || row.name.startsWith(sum))!.measure]).toBeGreaterThan(1);
    }
  });
});

describe("evaluateRunFile: a run that evaluates no query is an error, streamed or whole", () => {
  const p = plan(["map"], null);
  const opts = options({});
  /** evaluateRunFile on texts, the run streamed in blocks (or read whole, or under complete). */
  async function evaluateTexts(qrelsText: string, runText: string, how: "blocks" | "whole" | "complete") {
    const j = judgments(qrelsText);
    const parse = () => {
      const r = new RunParser({ file: "run.txt", qids: j.qrels.qidNames, docids: "per-row" });
      r.push(bytes(runText));
      return r.finish();
    };
    return evaluateRunFile(
      j,
      {
        file: "run.txt",
        blocks: how === "blocks" ? parsedBlocks("run.txt", async (sink) => sink.push(bytes(runText)), 2) : null,
        whole: async () => parse(),
        complete: how === "complete",
      },
      (joined) => evaluateBlock(p, joined.batch, joined.qids, opts, "run.txt", () => {}),
    );
  }
  const HOWS = ["blocks", "whole", "complete"] as const;

  it.each(HOWS)("an empty, blank or comment-only run (%s)", async (how) => {
    for (const text of ["", "\n\n", "  \r\n", "# nothing\n"]) {
      await expect(evaluateTexts(QRELS, text, how)).rejects.toThrow(
        "run.txt: no rankings in it: the file is empty or holds no rows",
      );
    }
  });

  it.each(HOWS)(
    "a run sharing no query with the judgments, its queries and the judged ones named (%s)",
    async (how) => {
      const run = "x1 Q0 a 1 1 R\nx2 Q0 a 1 1 R\nx3 Q0 a 1 1 R\nx4 Q0 a 1 1 R\n";
      await expect(evaluateTexts(QRELS, run, how)).rejects.toThrow(
        'run.txt: no query in common with the judgments: its 4 queries ("x1", "x2", "x3", ...) have none in qrels.txt (5 judged: "q1", "q2", "q3", ...)',
      );
      await expect(evaluateTexts("q1 0 a 1\n", "7 Q0 a 1 1 R\n", how)).rejects.toThrow(
        'run.txt: no query in common with the judgments: its 1 query ("7") has none in qrels.txt (1 judged: "q1")',
      );
      const error = await evaluateTexts(QRELS, run, how).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RankevalError);
      expect((error as RankevalError).code).toBe("bad-input");
    },
  );

  it.each(HOWS)("judgments without any (%s)", async (how) => {
    for (const text of ["", "\n", "# c\n"])
      await expect(evaluateTexts(text, RUN, how)).rejects.toThrow(
        "qrels.txt: no judgments in it: the file is empty or holds no rows",
      );
  });

  it.each(HOWS)("one query in common is enough (%s)", async (how) => {
    const r = await evaluateTexts(QRELS, "x1 Q0 a 1 1 R\nq2 Q0 a 1 1 R\n", how);
    expect(r.evaluated.result.qids).toEqual(how === "complete" ? ["q1", "q10", "q2", "q3", "q9"] : ["q2"]);
    expect(r.evaluated.result.mean.map).toBe(how === "complete" ? 1 / 5 : 1);
  });
});
