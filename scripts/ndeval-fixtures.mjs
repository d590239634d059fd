// Writes test/fixtures/ndeval/cases.json: seeded random subtopic qrels, runs and options
// (test/ndeval/generate.ts, the generator of test/ndeval-diff.test.ts) and the hand-made cases beside
// it, each with what TREC's ndeval (4.5, run with -traditional) prints for it, exit status and stdout.
// test/ndeval-fixtures.test.ts checks `rankeval --format ndeval` against them in every `npm test`, so
// CI compares with ndeval without ndeval. ndeval's source is not part of rankeval: give its path.
//
//   node scripts/ndeval-fixtures.mjs path/to/ndeval.c [--cases 60] [--seed 20261127]
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { typescriptRunner } from "./typescript-runner.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const source = args[0];
const cases = Number(option("cases", 60));
const seed = Number(option("seed", 20261127));
if (!source || source.startsWith("--") || !Number.isInteger(cases) || !Number.isInteger(seed)) {
  console.error("usage: node scripts/ndeval-fixtures.mjs path/to/ndeval.c [--cases N] [--seed S]");
  process.exit(2);
}

const root = fileURLToPath(new URL("..", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "rankeval-ndeval-fixtures-"));
const ndeval = join(scratch, "ndeval");
execFileSync("cc", ["-O2", "-w", "-o", ndeval, source, "-lm"], { stdio: "inherit" });
const version = execFileSync(ndeval, ["-version"], { encoding: "utf8" })
  .trim()
  .replace(/^[^:]*: /, "");

const runner = await typescriptRunner();
try {
  const { generate, HAND_CASES } = await runner.import("/test/ndeval/generate.ts");
  const { caseSeed } = await runner.import("/test/trec-eval-diff/generate.ts");
  const all = [
    ...HAND_CASES.map((c) => ({ ...c })),
    ...Array.from({ length: cases }, (_, i) => ({ name: `seed ${caseSeed(seed, i)}`, ...generate(caseSeed(seed, i)) })),
  ];
  const out = all.map((c, i) => {
    const qrels = join(scratch, `${i}.qrels`);
    const run = join(scratch, `${i}.run`);
    writeFileSync(qrels, c.qrels);
    writeFileSync(run, c.run);
    const r = spawnSync(ndeval, ["-traditional", ...c.options, qrels, run], { encoding: "utf8" });
    return { name: c.name, options: c.options, qrels: c.qrels, run: c.run, status: r.status, stdout: r.stdout };
  });
  const dir = join(root, "test", "fixtures", "ndeval");
  mkdirSync(dir, { recursive: true });
  const made = { ndeval: version, command: `ndeval -traditional [options] qrels run`, seed, cases: out };
  writeFileSync(join(dir, "cases.json"), `${JSON.stringify(made, null, 1)}\n`);
  const failed = out.filter((c) => c.status !== 0).length;
  console.log(`${out.length} cases (${failed} that ndeval refuses) from ndeval ${version}: ${dir}/cases.json`);
} finally {
  await runner.close();
  rmSync(scratch, { recursive: true, force: true });
}
