// rankeval --fuse METHOD: runs fused and written as a TREC run, or with QRELS first evaluated beside its inputs.
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { badInput, setOwn, usageError } from "../errors/errors.js";
import { fuse, type FuseOptions, type NormName } from "../fusion/fuse.js";
import { writeFusedRun } from "../output/fused-run.js";
import { readFirstLines } from "../input/formats.js";
import { fileFormat } from "./columnar-files.js";
import { SNIFF_BYTES } from "../input/subtopics.js";
import type { CliArgs } from "./args.js";
import type { Io } from "./cli.js";
import { checkReadOnce, displayName, namedAs, readInto, rereadable } from "./file-read.js";
import { checkColumnsRead, CLI_COLUMNS_FORMAT, inputOf } from "./files.js";
import { readRows } from "../input/input.js";
import { Interner } from "../io/interner.js";

/** cli.ts's evaluation and --compare, the runs renamed. */
export interface Evaluations {
  evaluate(args: CliArgs, io: Io, name: (file: string) => string): Promise<number>;
  compare(args: CliArgs, io: Io, name: (file: string) => string): Promise<number>;
}

/** Options asking for an evaluation: with them, the first file is QRELS. */
const EVALUATION_ASKED: readonly (keyof CliArgs)[] = ["measures", "compare", "perQuery", "format", "complete"];

export async function fuseMode(args: CliArgs, io: Io, evaluations: Evaluations): Promise<number> {
  const withQrels = args.files.length > 0 && (await isQrels(args, args.files[0]));
  const runFiles = withQrels ? args.files.slice(1) : args.files;
  if (runFiles.length < 2)
    throw usageError(
      `--fuse needs at least two runs: RUN RUN [RUN ...], or QRELS RUN RUN [RUN ...] to evaluate the fused run (got ${
        runFiles.length === 0 ? "none" : `one: ${displayName(runFiles[0])}`
      })`,
    );
  if (withQrels && args.inputFormat !== undefined && args.inputFormat !== "trec")
    throw usageError(
      `--fuse QRELS RUN RUN ... with --input-format ${args.inputFormat}: leave it out, the files' names saying their formats (the fused run evaluated is TREC text)`,
    );
  const tag = args.tag ?? args.fuse!;
  if (!/^\S+$/.test(tag)) throw usageError(`--tag "${tag}": a run tag is one word (no spaces)`);
  const options = fuseOptions(args, runFiles.length);
  // Method, norm and parameters checked before any file is read.
  fuse(
    runFiles.map(() => ({})),
    options,
  );
  await checkReadOnce([
    ...(withQrels ? [["QRELS", args.files[0]] as const] : []),
    ...runFiles.map((f) => ["RUN", f] as const),
  ]);
  if (args.output !== undefined && args.files.includes(args.output))
    throw usageError(`--output ${args.output} is one of the inputs: it would be written over`);
  const choice = { format: args.inputFormat, columns: args.columns };
  checkColumnsRead(runFiles, choice, "--columns", CLI_COLUMNS_FORMAT);
  const fused = async (write: (bytes: Uint8Array<ArrayBuffer>) => void) => {
    const qids = new Interner();
    const read = await Promise.all(runFiles.map((f) => readRows("run", inputOf(f, choice), qids, choice)));
    writeFusedRun(read, qids, options, tag, write);
  };
  if (!withQrels) {
    if (args.output === undefined) await fused((s) => io.stdout.write(s));
    else await writeRunFile(args.output, fused);
    return 0;
  }
  // Evaluated as a file, first (--compare's default baseline), named by --output or `fused(METHOD)`.
  const dir = args.output === undefined ? mkdtempSync(join(tmpdir(), "rankeval-fuse-")) : null;
  const path = dir === null ? args.output! : join(dir, "fused.txt");
  const label = `fused(${args.fuse})`;
  const unname = dir === null ? () => {} : namedAs(path, label);
  try {
    await writeRunFile(path, fused);
    const name = (file: string) => (dir !== null && file === path ? label : file);
    const evaluated = { ...args, files: [args.files[0], path, ...runFiles] };
    return args.compare
      ? await evaluations.compare(evaluated, io, name)
      : await evaluations.evaluate(evaluated, io, name);
  } finally {
    unname();
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
  }
}

/** --norm, --fuse-param and --weights as fuse() takes them. */
function fuseOptions(args: CliArgs, runs: number): FuseOptions {
  const params: Record<string, unknown> = {};
  // setOwn: `__proto__=...` assigned would set the prototype.
  for (const [name, text] of args.fuseParams ?? []) setOwn(params, name, paramValue(name, text));
  if (args.weights !== undefined) {
    if (Object.hasOwn(params, "weights")) throw usageError("--weights and --fuse-param weights=...: give one of them");
    if (args.weights.length !== runs)
      throw usageError(
        `--weights ${args.weights.join(",")}: ${args.weights.length} weights for ${runs} runs (one a run)`,
      );
    params.weights = args.weights;
  }
  const norm = args.norm === undefined ? undefined : args.norm === "none" ? null : (args.norm as NormName);
  return { method: args.fuse!, ...(norm === undefined ? {} : { norm }), params };
}

/** A parameter's value: a number, a comma list of numbers, true/false, JSON after [ or {, else the text. */
function paramValue(name: string, text: string): unknown {
  const number = (t: string) => (t.trim() !== "" && Number.isFinite(Number(t)) ? Number(t) : null);
  if (text === "true" || text === "false") return text === "true";
  if (/^\s*[[{]/.test(text))
    try {
      return JSON.parse(text);
    } catch (e) {
      throw usageError(`--fuse-param ${name}=${text}: not JSON (${(e as Error).message})`);
    }
  const n = number(text);
  if (n !== null) return n;
  if (text.includes(",")) {
    const list = text.split(",").map(number);
    if (list.every((x) => x !== null)) return list;
  }
  return text;
}

/** Whether `file` is QRELS: an evaluation option given, or TREC text whose first line has four fields. */
async function isQrels(args: CliArgs, file: string): Promise<boolean> {
  if (EVALUATION_ASKED.some((k) => (Array.isArray(args[k]) ? (args[k] as unknown[]).length : args[k]))) return true;
  if (fileFormat(file, args.inputFormat).format !== "trec" || !(await rereadable(file))) return false;
  return (await firstLineFields(file)) === 4;
}

/** The fields of the first line neither blank nor a comment (0: none in the first MiB). */
async function firstLineFields(file: string): Promise<number> {
  let fields = 0;
  await readFirstLines(
    (sink) => readInto(file, sink),
    (line) => {
      const t = line.trim();
      return (fields = t === "" || t.startsWith("#") ? 0 : t.split(/[ \t]+/).length) > 0;
    },
    SNIFF_BYTES,
  );
  return fields;
}

async function writeRunFile(
  path: string,
  fill: (write: (bytes: Uint8Array<ArrayBuffer>) => void) => Promise<void>,
): Promise<void> {
  const cannot = (e: unknown) =>
    badInput(`--output ${path}: cannot write it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  let fd: number;
  try {
    fd = openSync(path, "w");
  } catch (e) {
    throw cannot(e);
  }
  try {
    await fill((bytes) => {
      try {
        for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
      } catch (e) {
        throw cannot(e);
      }
    });
  } finally {
    closeSync(fd);
  }
}
