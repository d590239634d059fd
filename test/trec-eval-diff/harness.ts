/**
 * The differential test's machinery: run a case through the real trec_eval (a child process) and
 * through rankeval (in process, through the CLI's `main`), compare, shrink what differs, and write it
 * out as files a developer can re-run by hand. Used by test/trec-eval-diff.test.ts (in `npm test`)
 * and scripts/fuzz-trec-eval.mjs (`npm run fuzz:trec_eval -- --cases N`).
 *
 * A case matches when trec_eval and rankeval agree on success (exit 0) or failure (non-zero) and,
 * where trec_eval succeeds, print the same stdout byte for byte. Where trec_eval fails, rankeval must
 * fail too (and print nothing on stdout: it checks everything before printing, where trec_eval may
 * fail half way through its per-query lines). The deliberate divergences (divergences.ts) say how
 * the cases they cover must compare instead.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { argv, type Case, type Option } from "./generate.js";
import { applicableDivergences, type Divergence } from "./divergences.js";

export interface Output {
  /** Exit status; a crash (signal) counts as 128 + the signal, as a shell reports it. */
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** rankeval's CLI entry point (src/node/cli.ts main). */
export type Main = (
  argv: readonly string[],
  io: { stdout: { write(s: string): unknown }; stderr: { write(s: string): unknown } },
) => Promise<number>;

export interface Programs {
  /** Path of the real trec_eval 10 binary. */
  readonly trecEval: string;
  readonly main: Main;
  /** Where case files are written (a temporary directory; /dev/shm when there is one). */
  readonly dir: string;
}

export type Verdict =
  | { readonly kind: "match"; readonly divergences: readonly string[] }
  | { readonly kind: "mismatch"; readonly why: string; readonly divergences: readonly string[] };

export interface CaseResult {
  readonly case: Case;
  readonly trecEval: Output;
  readonly rankeval: Output;
  readonly verdict: Verdict;
}

/** A scratch directory on a RAM-backed file system where there is one. */
export function scratchDir(prefix: string): string {
  const base = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
  return mkdtempSync(join(base, prefix));
}

export function runTrecEval(binary: string, args: readonly string[]): Promise<Output> {
  return new Promise((resolve) => {
    execFile(
      binary,
      args,
      { encoding: "latin1", maxBuffer: 64 << 20, timeout: 30_000, killSignal: "SIGKILL" },
      (error, stdout, stderr) => {
        let status = 0;
        if (error) {
          const e = error as NodeJS.ErrnoException & { code?: number | string; signal?: string | null };
          if (typeof e.code === "number") status = e.code;
          else if (e.signal) status = 128 + (SIGNALS[e.signal] ?? 0);
          else status = 255;
        }
        resolve({ status, stdout, stderr });
      },
    );
  });
}

const SIGNALS: Record<string, number> = { SIGABRT: 6, SIGBUS: 7, SIGFPE: 8, SIGKILL: 9, SIGSEGV: 11 };

export async function runRankeval(main: Main, args: readonly string[]): Promise<Output> {
  let stdout = "";
  let stderr = "";
  let status: number;
  try {
    status = await main(args, {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
    });
  } catch (e) {
    // An exception out of main is a bug (main turns every input error into a message and a status).
    stderr += `uncaught: ${(e as Error).stack ?? String(e)}\n`;
    status = 70;
  }
  // As the bytes the command line would write (UTF-8), read as trec_eval's are (latin1).
  const bytes = (s: string) => Buffer.from(s, "utf8").toString("latin1");
  return { status, stdout: bytes(stdout), stderr: bytes(stderr) };
}

let counter = 0;

/** Writes a case's files into a fresh directory under `dir`; returns their paths. */
function writeCase(dir: string, c: Case): { qrels: string; run: string; zscores: string; folder: string } {
  const folder = join(dir, `c${counter++}`);
  mkdirSync(folder, { recursive: true });
  const qrels = join(folder, "qrels");
  const run = join(folder, "run");
  const zscores = join(folder, "zscores");
  writeFileSync(qrels, c.qrels, "latin1");
  writeFileSync(run, c.run, "latin1");
  if (c.zscores !== undefined) writeFileSync(zscores, c.zscores, "latin1");
  return { qrels, run, zscores, folder };
}

/**
 * Runs a case through both programs and judges it. Divergences that apply say how instead: rankeval
 * must fail, or must succeed (nothing to compare), or is compared with trec_eval on another case.
 */
export async function runCase(p: Programs, c: Case): Promise<CaseResult> {
  const divergences = applicableDivergences(c);
  const written = writeCase(p.dir, c);
  const { qrels, run, folder } = written;
  const mustFail = divergences.find((d) => d.expect.kind === "rankeval-fails");
  const mustSucceed = divergences.find((d) => d.expect.kind === "rankeval-succeeds");
  const notCompared = divergences.find((d) => d.expect.kind === "not-compared");
  const sameStatus = divergences.find((d) => d.expect.kind === "same-status");
  let trecCase = c;
  for (const d of divergences) if (d.expect.kind === "trec_eval-on") trecCase = d.expect.transform(trecCase);
  const { zscores } = written;
  let trecFiles = { qrels, run, zscores };
  if (trecCase !== c) trecFiles = writeCase(p.dir, trecCase);
  const [trecEval, rankeval] = await Promise.all([
    runTrecEval(p.trecEval, argv(trecCase, trecFiles.qrels, trecFiles.run, trecFiles.zscores)),
    runRankeval(p.main, argv(c, qrels, run, zscores)),
  ]);
  rmSync(folder, { recursive: true, force: true });
  if (trecCase !== c) rmSync(join(trecFiles.qrels, ".."), { recursive: true, force: true });
  // What the other case's command adds to trec_eval's output, or rankeval prints that it lacks, taken out.
  let te = trecEval;
  let re = rankeval;
  for (const d of divergences) {
    if (d.expect.kind !== "trec_eval-on") continue;
    const { trecOutput, rankevalOutput } = d.expect;
    if (trecOutput) te = { ...te, stdout: trecOutput(te.stdout, c) };
    if (rankevalOutput) re = { ...re, stdout: rankevalOutput(re.stdout, c) };
  }
  const names = divergences.map((d) => d.name);
  const verdict = judge(te, re, names, mustFail, mustSucceed, notCompared, sameStatus);
  return { case: c, trecEval, rankeval, verdict };
}

function judge(
  te: Output,
  re: Output,
  names: string[],
  mustFail?: Divergence,
  mustSucceed?: Divergence,
  notCompared?: Divergence,
  sameStatus?: Divergence,
): Verdict {
  const mismatch = (why: string): Verdict => ({ kind: "mismatch", why, divergences: names });
  if (re.status === 70) return mismatch("rankeval threw (a bug: main must turn every error into a message)");
  if (mustFail) {
    return re.status !== 0
      ? { kind: "match", divergences: names }
      : mismatch(`rankeval succeeded where it must fail (${mustFail.name})`);
  }
  if (re.status !== 0 && re.stdout !== "") return mismatch("rankeval failed after printing on stdout");
  if (notCompared) return { kind: "match", divergences: names };
  // trec_eval's exits 1 and 2 refuse the command line or the files before evaluating anything.
  if (mustSucceed && te.status !== 1 && te.status !== 2) {
    return re.status === 0
      ? { kind: "match", divergences: names }
      : mismatch(`rankeval failed where it must succeed (${mustSucceed.name})`);
  }
  if ((te.status === 0) !== (re.status === 0)) {
    return mismatch(
      te.status === 0
        ? `rankeval failed (exit ${re.status}) where trec_eval succeeds`
        : `rankeval succeeded where trec_eval fails (exit ${te.status})`,
    );
  }
  if (te.status === 0 && te.stdout !== re.stdout && !sameStatus) return mismatch("stdout differs");
  return { kind: "match", divergences: names };
}

/** The kind of a mismatch, which shrinking keeps: "stdout differs" stays a difference in stdout. */
function mismatchKind(v: Verdict): string | null {
  if (v.kind !== "mismatch") return null;
  return v.why.startsWith("stdout") ? "stdout" : v.why.replace(/\(exit \d+\)/, "");
}

/**
 * The smallest case found (greedy delta debugging) that still mismatches in the same way: options
 * removed one at a time, a measure's parameter list shortened, lines of either file removed in halves,
 * quarters, ... down to one at a time, until nothing more can go. `budget` bounds the runs.
 */
export async function shrink(p: Programs, found: CaseResult, budget = 400): Promise<CaseResult> {
  const kind = mismatchKind(found.verdict);
  let best = found;
  let runs = 0;
  const tryCase = async (c: Case): Promise<boolean> => {
    if (runs >= budget) return false;
    runs++;
    const r = await runCase(p, c);
    if (mismatchKind(r.verdict) !== kind) return false;
    best = r;
    return true;
  };
  for (let progress = true; progress && runs < budget; ) {
    progress = false;
    // Options, before and after the files.
    for (const side of ["options", "after"] as const) {
      for (let i = best.case[side].length - 1; i >= 0; i--) {
        const opts = best.case[side];
        if (i >= opts.length) continue;
        if (await tryCase({ ...best.case, [side]: opts.filter((_, j) => j !== i) })) progress = true;
      }
    }
    // Shorter forms of each option: a measure's parameter list, a group of flags.
    for (const side of ["options", "after"] as const) {
      for (let i = 0; i < best.case[side].length; i++) {
        for (const simpler of simplerOptions(best.case[side][i])) {
          const opts = [...best.case[side]];
          opts[i] = simpler;
          if (await tryCase({ ...best.case, [side]: opts })) {
            progress = true;
            break;
          }
        }
      }
    }
    // Lines of each file.
    for (const file of ["run", "qrels", "zscores"] as const) {
      if (best.case[file] === undefined) continue;
      const lines = splitLines(best.case[file]!);
      for (let chunk = Math.max(1, lines.length >> 1); chunk >= 1; chunk >>= 1) {
        for (let at = 0; at < splitLines(best.case[file]!).length; ) {
          const now = splitLines(best.case[file]!);
          const fewer = [...now.slice(0, at), ...now.slice(at + chunk)];
          if (fewer.length < now.length && (await tryCase({ ...best.case, [file]: fewer.join("") }))) progress = true;
          else at += chunk;
        }
      }
    }
  }
  return best;
}

/** Lines with their line ends. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Simpler spellings of an option: fewer parameters, fewer grouped flags, the short form. */
function simplerOptions(o: Option): Option[] {
  const out: Option[] = [];
  const last = o[o.length - 1];
  const m = /^(-m|--measure=)?(.*)$/.exec(o.length === 2 ? o[1] : last);
  const isMeasure = (o.length === 2 && (o[0] === "-m" || o[0] === "--measure")) || /^(-m.|--measure=)/.test(o[0]);
  if (isMeasure && m) {
    const spec = o.length === 2 ? o[1] : o[0].replace(/^(-m|--measure=)/, "");
    const dot = spec.indexOf(".");
    if (dot >= 0) {
      const params = spec.slice(dot + 1).split(",");
      for (let i = 0; i < params.length && params.length > 1; i++)
        out.push(["-m", `${spec.slice(0, dot)}.${params.filter((_, j) => j !== i).join(",")}`]);
    }
    if (o.length !== 2 || o[0] !== "-m") out.push(["-m", spec]);
  } else if (o.length === 1 && /^-[qcJn]{2,}$/.test(o[0])) {
    for (let i = 1; i < o[0].length; i++) out.push([o[0].slice(0, i) + o[0].slice(i + 1)]);
  }
  return out;
}

/** The command lines of a case, as a developer types them (files named qrels and run). */
export function commandLines(c: Case): { trecEval: string; rankeval: string } {
  const args = argv(c, "qrels", "run").map(shellQuote).join(" ");
  return { trecEval: `trec_eval ${args}`, rankeval: `rankeval ${args}` };
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Writes a mismatching case as files to re-run by hand: qrels, run, the command lines (run.sh runs
 * both and diffs their stdout), both programs' outputs, and what differs. Returns the folder.
 */
export function writeRepro(outDir: string, r: CaseResult, trecEvalBinary: string): string {
  const folder = join(outDir, `seed-${r.case.seed}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "qrels"), r.case.qrels, "latin1");
  writeFileSync(join(folder, "run"), r.case.run, "latin1");
  if (r.case.zscores !== undefined) writeFileSync(join(folder, "zscores"), r.case.zscores, "latin1");
  const { trecEval, rankeval } = commandLines(r.case);
  const args = trecEval.slice("trec_eval ".length);
  writeFileSync(
    join(folder, "run.sh"),
    [
      "#!/bin/sh",
      `# seed ${r.case.seed}: ${r.verdict.kind === "mismatch" ? r.verdict.why : "match"}`,
      `# divergences that apply: ${r.verdict.divergences.join(", ") || "none"}`,
      'cd "$(dirname "$0")"',
      `TREC_EVAL=\${TREC_EVAL:-${trecEvalBinary}}`,
      `RANKEVAL=\${RANKEVAL:-rankeval}`,
      `"$TREC_EVAL" ${args} > trec_eval.stdout; echo "trec_eval exit $?"`,
      `$RANKEVAL ${args} > rankeval.stdout; echo "rankeval exit $?"`,
      "diff trec_eval.stdout rankeval.stdout && echo same stdout",
      "",
    ].join("\n"),
    { mode: 0o755 },
  );
  writeFileSync(
    join(folder, "trec_eval.expected"),
    `exit ${r.trecEval.status}\n--- stdout\n${r.trecEval.stdout}--- stderr\n${r.trecEval.stderr}`,
    "latin1",
  );
  writeFileSync(
    join(folder, "rankeval.actual"),
    `exit ${r.rankeval.status}\n--- stdout\n${r.rankeval.stdout}--- stderr\n${r.rankeval.stderr}`,
    "latin1",
  );
  void rankeval;
  return folder;
}

/** A readable account of a mismatch: seed, command, files, and the first lines that differ. */
export function describe(r: CaseResult): string {
  const { trecEval } = commandLines(r.case);
  const why = r.verdict.kind === "mismatch" ? r.verdict.why : "match";
  const out = [`seed ${r.case.seed}: ${why}`, `  ${trecEval}`];
  if (r.verdict.divergences.length) out.push(`  divergences that apply: ${r.verdict.divergences.join(", ")}`);
  out.push("  --- qrels", ...indent(r.case.qrels), "  --- run", ...indent(r.case.run));
  if (r.case.zscores !== undefined) out.push("  --- zscores", ...indent(r.case.zscores));
  out.push(
    `  --- trec_eval (exit ${r.trecEval.status})`,
    ...indent(firstDiff(r.trecEval.stdout, r.rankeval.stdout)),
    ...indent(head(r.trecEval.stderr)),
  );
  out.push(
    `  --- rankeval (exit ${r.rankeval.status})`,
    ...indent(firstDiff(r.rankeval.stdout, r.trecEval.stdout)),
    ...indent(head(r.rankeval.stderr)),
  );
  return out.join("\n");
}

/** The first lines of a stream (usage messages are long). */
function head(text: string): string {
  const l = text.split("\n");
  return l.length > 4 ? `${l.slice(0, 3).join("\n")}\n...\n` : text;
}

function indent(text: string): string[] {
  return text === ""
    ? []
    : text
        .replace(/\n$/, "")
        .split("\n")
        .map((l) => `    ${JSON.stringify(l).slice(1, -1)}`);
}

/** The lines of `a` around the first line where it differs from `b` (all of `a` if short). */
function firstDiff(a: string, b: string): string {
  const x = a.split("\n");
  const y = b.split("\n");
  if (x.length <= 12) return a;
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return [`... (${i} equal lines)`, ...x.slice(i, i + 8)].join("\n") + "\n";
}

/**
 * A mismatch's class, for counting them: the shape of its (shrunk) command line, option letters and
 * measure names without their parameters' values, e.g. "-J -M | P.<params>".
 */
export function signature(c: Case): string {
  const flags = new Set<string>();
  const measures = new Set<string>();
  for (const o of [...c.options, ...c.after]) {
    const tokens = o.join(" ");
    const m = /^(?:-m ?|--measure[= ])(.*)$/.exec(tokens);
    if (m) {
      const dot = m[1].indexOf(".");
      measures.add(dot < 0 ? m[1] : `${m[1].slice(0, dot)}.<params>`);
    } else if (/^-[qcJn]+$/.test(tokens)) for (const ch of tokens.slice(1)) flags.add(`-${ch}`);
    else flags.add(LONG_FLAG[tokens.split(/[= ]/)[0]] ?? tokens.replace(/^(-[lMNRZD]).*$/, "$1"));
  }
  return `${[...flags].sort().join(" ") || "(no options)"} | ${[...measures].sort().join(" ") || "(default measures)"}`;
}

const LONG_FLAG: Record<string, string> = {
  "--query_eval_wanted": "-q",
  "--complete_rel_info_wanted": "-c",
  "--Judged_docs_only": "-J",
  "--nosummary": "-n",
  "--level_for_rel": "-l",
  "--Max_retrieved_per_topic": "-M",
  "--Number_docs_in_coll": "-N",
  "--Rel_info_format": "-R",
  "--Zscore": "-Z",
  "--Debug_level": "-D",
};
