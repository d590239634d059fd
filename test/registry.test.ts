// Every family of the registry (src/measures/registry.ts) has its two functions: the kernel's (the
// row's `kernel`, generated into the kernel's dispatch) equals the reference's (src/reference/formulas-*.ts's
// tables) on random queries and conventions, at its default parameters, with and without a cutoff as
// its row allows. The diversity families on random subtopic judgments. A row without either function
// fails here (or, for the kernel, in the build).
//
// RANKEVAL_RUNS=4 npx vitest run test/registry.test.ts   runs 4 times the cases; RANKEVAL_SEED=<n> replays a seed.
import fc from "fast-check";
import { describe, it } from "vitest";
import { evaluate, evaluateDiversity } from "../src/index.js";
import { FAMILIES, type Family } from "../src/measures/registry.js";
import { referenceEvaluate } from "../src/reference/index.js";
import { referenceEvaluateDiversity } from "../src/reference/evaluate-diversity.js";
import {
  cutoffs,
  expectSame,
  options,
  params,
  rowsBatch,
  RUNS,
  subtopicBatch,
  subtopicOptions,
  TIMEOUT,
} from "./_random.js";

/** The family's measures at cutoffs `ks`, and without one where its row allows. */
const measuresOf = (f: Family, ks: readonly number[]) => [
  ...(f.cutoff === "required" ? [] : [f.name]),
  ...(f.cutoff === "none" ? [] : [`${f.name}@${ks.join(",")}`]),
];

const runs = params(Math.max(10, Math.round(RUNS / 10)));

describe("every registry row: kernel = reference", () => {
  for (const f of FAMILIES) {
    it(
      f.name,
      () => {
        fc.assert(
          f.diversity
            ? fc.property(subtopicBatch, cutoffs, subtopicOptions, ({ qrels, run }, ks, o) => {
                const ms = measuresOf(f, [...ks, 1]);
                expectSame(evaluateDiversity(qrels, run, ms, o), referenceEvaluateDiversity(qrels, run, ms, o));
              })
            : fc.property(rowsBatch, cutoffs, options, (rows, ks, o) => {
                const ms = measuresOf(f, [...ks, 1]);
                expectSame(evaluate(rows, ms, o), referenceEvaluate(rows, ms, o));
              }),
          runs,
        );
      },
      TIMEOUT,
    );
  }
});
