// The one evaluation object (src/app/evaluation.ts) through a host of its own: what it decides whatever
// face asks (the faces themselves are test/faces.test.ts's).
import { describe, expect, it } from "vitest";
import { evaluateSources, type EvaluationHost, type RunDone } from "../src/app/evaluation.js";
import { options, plan } from "../src/app/plan.js";
import { readJudgments, type TextInput } from "../src/input/input.js";
import type { PendingJudgments } from "../src/pipeline/blocks.js";
import type { Evaluated } from "../src/pipeline/evaluate.js";

const text = (name: string, s: string): TextInput => ({
  name,
  size: 0,
  read: async (sink) => sink.push(new TextEncoder().encode(s)),
});

const ran = (tag: string, notInRunQids: string[] = []): RunDone => ({
  runTag: tag,
  evaluated: {} as Evaluated,
  notInRunQids,
  warnings: ["a warning every run gives"],
});

/** A host whose partitions evaluate the first `partitioned` runs, the rest read "here". */
function host(partitioned: number): EvaluationHost<string> {
  return {
    name: (s) => s,
    partitioned: async (_, runs, job, onJudged, done) => {
      expect(job.trecLabels).toBe(true);
      onJudged({ rows: 2, queries: 1, positive: 2, truncated: false });
      for (let i = 0; i < partitioned; i++) done(i, ran(runs[i], ["q2"]));
      return partitioned;
    },
    judgments: (_, qids) => ({ qids, ready: readJudgments(text("qrels", "q1 0 d1 1.5\nq1 0 d2 1\n"), qids, {}) }),
    runs: async (runs, judgments, _, done) => {
      await (judgments as PendingJudgments).ready;
      runs.forEach((r, i) => done(i, ran(r, ["q2"])));
    },
  };
}

describe("evaluateSources", () => {
  const p = plan(["map"], null, {});
  const request = {
    plan: p,
    options: options({}, true),
    tieRange: false,
    spec: { measures: [], options: {}, tieRange: false },
  };

  it("evaluates across partitions first, the rest the one-thread way, each run in order, each warning once", async () => {
    const said: string[] = [];
    const runs: [number, string][] = [];
    await evaluateSources(
      host(1),
      "qrels",
      ["a", "b", "c"],
      { ...request, hint: true },
      {
        say: (m) => said.push(m),
        run: (i, r) => runs.push([i, r.source]),
      },
    );
    expect(runs).toEqual([
      [0, "a"],
      [1, "b"],
      [2, "c"],
    ]);
    expect(said[0]).toBe("a warning every run gives");
    expect(said[1]).toMatch(/^a: 1 judged query is not in the run .*-c counts it as 0$/);
    expect(said[2]).toMatch(/^qrels:1: label 1\.5 is read as 1,/);
    expect(said.slice(3)).toEqual([expect.stringMatching(/^b: /), expect.stringMatching(/^c: /)]);
  });

  it("gives -c's num_rel from the partitions' judgments or its own, and says no query not in a run", async () => {
    for (const partitioned of [0, 1, 2]) {
      const said: string[] = [];
      const sums: unknown[] = [];
      await evaluateSources(
        host(partitioned),
        "qrels",
        ["a", "b"],
        { ...request, complete: true },
        {
          say: (m) => said.push(m),
          run: (_, r) => sums.push(r.summary),
        },
      );
      expect(sums).toEqual([{ num_rel: 2 }, { num_rel: 2 }]);
      expect(said.filter((m) => m.includes("not in the run"))).toEqual([]);
    }
  });
});
