// Long differential runs against the real trec_eval 10, outside vitest:
//
//   npm run fuzz:trec_eval -- --cases 20000 [--seed S] [--shrink K] [--out DIR] [--concurrency C]
//
// The same generator, comparison and shrinking as test/trec-eval-diff.test.ts (test/trec-eval-diff/),
// loaded from their TypeScript source through Vite's module runner, with rankeval's CLI run in process
// (src/node/cli.ts main). Prints the mismatches per class (the shape of each shrunk command line),
// writes the first K shrunk cases under DIR as files to re-run by hand, and exits 1 if any case
// differs from trec_eval. TREC_EVAL=path uses that binary instead of building ../shared's.
import { rmSync } from "node:fs";
import { typescriptRunner } from "./typescript-runner.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const cases = Number(option("cases", 5000));
const seed = Number(option("seed", Date.now() % 2 ** 31));
const shrinkLimit = Number(option("shrink", 30));
const concurrency = Number(option("concurrency", 4));
const out = option("out", `fuzz-trec-eval-${seed}`);
if (!Number.isInteger(cases) || cases < 1 || !Number.isInteger(seed)) {
  console.error("usage: npm run fuzz:trec_eval -- --cases N [--seed S] [--shrink K] [--out DIR] [--concurrency C]");
  process.exit(1);
}

const runner = await typescriptRunner();
try {
  const { main } = await runner.import("/src/node/cli.ts");
  const { buildTrecEval, fuzz, classes } = await runner.import("/test/trec-eval-diff/fuzz.ts");
  const { describe, scratchDir } = await runner.import("/test/trec-eval-diff/harness.ts");
  const built = buildTrecEval();
  if (built.skip) {
    console.error(`cannot run: ${built.skip}`);
    process.exitCode = 2;
  } else {
    const dir = scratchDir("rankeval-fuzz-");
    const started = Date.now();
    console.log(`trec_eval: ${built.path}\nseed ${seed}, ${cases} cases`);
    const report = await fuzz({
      programs: { trecEval: built.path, main, dir },
      seed,
      cases,
      concurrency,
      shrinkLimit,
      reproDir: out,
      onProgress: (done, bad) => process.stderr.write(`\r${done}/${cases} cases, ${bad} mismatches`),
    });
    process.stderr.write("\n");
    rmSync(dir, { recursive: true, force: true });
    console.log(
      `${cases} cases in ${((Date.now() - started) / 1000).toFixed(1)} s: ${report.mismatches.length} mismatches`,
    );
    for (const [name, n] of report.divergences) console.log(`  deliberate divergence applied: ${name}: ${n} cases`);
    if (report.mismatches.length) {
      console.log(`seeds: ${report.mismatches.map((m) => m.case.seed).join(" ")}`);
      console.log(`\nclasses of the first ${report.shrunk.length}, shrunk (written under ${out}/):`);
      for (const [signature, n] of classes(report)) console.log(`  ${n}\t${signature}`);
      for (const s of report.shrunk)
        console.log(`\n${describe(s.shrunk)}\n  (class: ${s.signature}; files: ${s.folder})`);
      process.exitCode = 1;
    }
  }
} finally {
  await runner.close();
}
