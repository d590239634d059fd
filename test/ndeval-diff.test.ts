// Differential test against TREC's ndeval (the diversity evaluation of the TREC Web track, version
// 4.5): seeded random subtopic qrels and runs, `ndeval -traditional [-c] [-M n] qrels run` against
// `rankeval --format ndeval [-c] [-M n] qrels run`, stdout byte for byte. ndeval's C source is not
// part of rankeval: the test compiles it from NDEVAL_SOURCE (a path to ndeval.c), else from
// node_modules/.cache/ndeval/ndeval.c, or runs NDEVAL (a built binary); it is skipped, saying so,
// where none is found; test/ndeval-fixtures.test.ts checks ndeval's kept outputs in every run.
// (-traditional ranks by score, then document id descending, as rankeval does; ndeval's default reads
// the rank column.)
//
// NDEVAL_DIFF_CASES / NDEVAL_DIFF_SEED override the number of cases and the seed.
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "./_cli.js";
import { caseSeed } from "./trec-eval-diff/generate.js";
import { generate } from "./ndeval/generate.js";
import { runs, seedOr } from "./_seed.js";

const CASES = Number(process.env.NDEVAL_DIFF_CASES ?? runs(300));
const SEED = Number(process.env.NDEVAL_DIFF_SEED ?? seedOr(20261130));
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const CACHE = join(ROOT, "node_modules", ".cache", "ndeval");

/** The ndeval binary: NDEVAL, or built from NDEVAL_SOURCE or the cache's ndeval.c. */
function buildNdeval(): { path: string } | { skip: string } {
  if (process.env.NDEVAL) return { path: process.env.NDEVAL };
  const source = process.env.NDEVAL_SOURCE ?? join(CACHE, "ndeval.c");
  if (!existsSync(source))
    return {
      skip: `ndeval's source not found (set NDEVAL_SOURCE to ndeval.c, or NDEVAL to a binary; looked for ${source})`,
    };
  const binary = join(CACHE, "ndeval");
  try {
    mkdirSync(CACHE, { recursive: true });
    execFileSync("cc", ["-O2", "-w", "-o", binary, source, "-lm"], { stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    return { skip: `cannot compile ndeval: ${(e as Error).message.split("\n")[0]}` };
  }
  return { path: binary };
}

function runNdeval(binary: string, args: string[]): Promise<{ status: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(binary, args, { encoding: "utf8" }, (error, stdout) =>
      resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout }),
    );
  });
}

const built = buildNdeval();
if ("skip" in built) console.warn(`skipping the differential test against ndeval: ${built.skip}`);

describe.skipIf("skip" in built)("rankeval --format ndeval against TREC's ndeval", () => {
  const dir = mkdtempSync(join(tmpdir(), "rankeval-ndeval-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`prints ndeval's bytes on ${CASES} random collections (seed ${SEED})`, async () => {
    const binary = (built as { path: string }).path;
    const bad: string[] = [];
    for (let i = 0; i < CASES && bad.length < 3; i++) {
      const seed = caseSeed(SEED, i);
      const c = generate(seed);
      const qrels = join(dir, `q${i}`);
      const run = join(dir, `r${i}`);
      writeFileSync(qrels, c.qrels);
      writeFileSync(run, c.run);
      const expected = await runNdeval(binary, ["-traditional", ...c.options, qrels, run]);
      const { status, stdout, stderr } = await cli(["--format", "ndeval", ...c.options, qrels, run]);
      const same = expected.status === 0 ? status === 0 && stdout === expected.stdout : status !== 0;
      if (!same)
        bad.push(
          `seed ${seed} (${c.options.join(" ")}):\n--- qrels\n${c.qrels}--- run\n${c.run}--- ndeval (exit ${expected.status})\n${expected.stdout}--- rankeval (exit ${status})\n${stdout}${stderr}`,
        );
    }
    expect(bad, bad.join("\n\n")).toEqual([]);
  }, 120_000);
});
