import { TESTS, type TestName } from "../compare/tests.js";
import { CORRECTIONS, type Correction } from "../compare/correct.js";
import { atol } from "../c/strings.js";
import { parseGate, type Gate } from "../compare/gate.js";
import { usageError } from "../errors/errors.js";
import { DEFAULT_INTERVAL, type IntervalSettings } from "../pipeline/interval.js";
import type { ColumnNames } from "../io/delimited.js";
import { DEFAULT_COLUMNS } from "../io/column-names.js";
import { didYouMean } from "../errors/suggest.js";
import { REL_FORMATS, type RelFormat } from "../trec/measures.js";
import { INPUT_FORMATS, type InputFormat } from "../input/formats.js";
import { manifestFormat } from "../app/manifest.js";

/** What the command line asked for (the options as `rankeval --help` says). */
export interface CliArgs {
  measures: string[];
  perQuery: boolean;
  complete: boolean;
  judgedOnly: boolean;
  noSummary: boolean;
  /** -l as written ("1.5" is 1.5). */
  threshold?: number;
  /** -l as trec_eval reads it (atol: "1.5" is 1), the threshold under trec_eval names. */
  trecThreshold?: number;
  depth?: number;
  numDocs?: number;
  /** Values trec_eval reads as another number than written (atol: `-M 1.9` is 1), to say so. */
  truncated: { option: string; text: string; value: number }[];
  relFormat?: RelFormat;
  resultsFormat?: string;
  zscoreFile?: string;
  /** -D N.QID: trec_eval's debug level (its output is not printed) and the one query evaluated. */
  debugLevel?: number;
  debugQuery?: string;
  /** trec_eval's obsolete -o: accepted, does nothing, as there. */
  obsolete?: boolean | string;
  format?: "trec" | "table" | "json" | "csv" | "ndeval";
  diversity: boolean;
  gain?: string;
  noRelevant?: string;
  beyondList?: string;
  ties?: string;
  preset?: string;
  tieRange: boolean;
  /** --interval [t|bootstrap][:LEVEL]: each mean's interval in the table, JSON and CSV (src/pipeline/interval.ts). */
  interval?: IntervalSettings;
  letor?: string;
  scores?: string;
  query?: string;
  inputFormat?: InputFormat;
  columns?: ColumnNames;
  files: string[];
  perQueryOut?: string;
  /** --manifest FILE: the evaluation's provenance (src/app/manifest.ts), YAML or JSON by FILE's name. */
  manifest?: string;
  /** The arguments as given (set by main, for --manifest). */
  command?: readonly string[];
  threads?: number;
  merge?: boolean;
  compare?: boolean;
  tests?: TestName[];
  /** --gate: regression gates on --compare's runs (src/compare/gate.ts). */
  gates?: Gate[];
  /** --junit FILE: the gates' verdicts as JUnit XML. */
  junit?: string;
  /** --detect DELTA: the queries each pair needs to find DELTA significant (--power of the time). */
  detect?: number;
  power?: number;
  baseline?: string;
  allPairs?: boolean;
  correction?: Correction;
  alpha?: number;
  permutations?: number;
  seed?: number;
  /** --format markdown or latex (`format` holds the others). */
  comparisonFormat?: "markdown" | "latex";
  explain?: string;
  explainDepth?: number;
  report?: string;
  reportQueries?: number;
  /** --page [FILE]: the web page written to FILE ("-": standard output), and nothing else done. */
  page?: string;
  /** --correlation: after --compare's report, how each pair of measures orders the runs (tau_b, tau_AP). */
  correlation?: boolean;
  /** --rbo RUN RUN: rank-biased overlap per query (src/node/rbo-command.ts); --rbo-p its persistence. */
  rbo?: boolean;
  rboP?: number;
  /** --fuse METHOD: the runs fused (src/node/fuse-command.ts), with --norm, --fuse-param, --weights, --output, --tag. */
  fuse?: string;
  /** --norm NORM: as written ("none": no normalisation); the library checks the name. */
  norm?: string;
  /** --fuse-param NAME=VALUE, repeatable: the method's parameters as written (fuse-command.ts reads the values). */
  fuseParams?: [string, string][];
  /** --weights W,W,...: a weight per run. */
  weights?: number[];
  /** --output FILE: where the fused run is written (TREC text). */
  output?: string;
  /** --tag TAG: the fused run's tag (default the method's name). */
  tag?: string;
  help: boolean;
  version: boolean;
}

/**
 * The output format where --format is not given: trec_eval's text for trec_eval's measures
 * (`trecMeasures`), unless a tie range or an interval asks for what that text has no place for; else
 * the table.
 */
export function defaultFormat(args: CliArgs, trecMeasures: boolean, tieRange = args.tieRange): "trec" | "table" {
  return trecMeasures && !tieRange && !args.interval ? "trec" : "table";
}

/** Options that take a value, short (trec_eval's) and long. */
const VALUED: Record<string, keyof CliArgs> = {
  m: "measures",
  l: "threshold",
  M: "depth",
  N: "numDocs",
  R: "relFormat",
  T: "resultsFormat",
  Z: "zscoreFile",
  D: "debugLevel",
  measure: "measures",
  // trec_eval.c long_options.
  level_for_rel: "threshold",
  Max_retrieved_per_topic: "depth",
  Number_docs_in_coll: "numDocs",
  Rel_info_format: "relFormat",
  Results_format: "resultsFormat",
  Zscore: "zscoreFile",
  Debug_level: "debugLevel",
  // Takes a value in trec_eval's long option table, unlike -o; ignored as -o is.
  Output_old_results_format: "obsolete",
  format: "format",
  gain: "gain",
  "no-relevant": "noRelevant",
  "beyond-list": "beyondList",
  ties: "ties",
  preset: "preset",
  letor: "letor",
  scores: "scores",
  query: "query",
  group: "query",
  "input-format": "inputFormat",
  columns: "columns",
  "per-query-out": "perQueryOut",
  manifest: "manifest",
  threads: "threads",
  test: "tests",
  gate: "gates",
  junit: "junit",
  detect: "detect",
  power: "power",
  baseline: "baseline",
  correction: "correction",
  alpha: "alpha",
  permutations: "permutations",
  seed: "seed",
  interval: "interval",
  explain: "explain",
  "explain-depth": "explainDepth",
  report: "report",
  "report-queries": "reportQueries",
  "rbo-p": "rboP",
  fuse: "fuse",
  norm: "norm",
  "fuse-param": "fuseParams",
  weights: "weights",
  output: "output",
  tag: "tag",
};
const FLAGS: Record<string, keyof CliArgs> = {
  q: "perQuery",
  c: "complete",
  J: "judgedOnly",
  n: "noSummary",
  h: "help",
  v: "version",
  help: "help",
  version: "version",
  "per-query": "perQuery",
  complete: "complete",
  "no-summary": "noSummary",
  "judged-only": "judgedOnly",
  query_eval_wanted: "perQuery",
  complete_rel_info_wanted: "complete",
  nosummary: "noSummary",
  Judged_docs_only: "judgedOnly",
  o: "obsolete",
  "tie-range": "tieRange",
  compare: "compare",
  "all-pairs": "allPairs",
  merge: "merge",
  diversity: "diversity",
  correlation: "correlation",
  rbo: "rbo",
};
/** The long options' names, for "did you mean" (one letter: trec_eval's short options). */
export const LONG_OPTIONS = [...Object.keys(VALUED), ...Object.keys(FLAGS)].filter((o) => o.length > 1);
/** The options that mean something only with --compare. */
const COMPARE_ONLY: readonly (keyof CliArgs)[] = [
  "tests",
  "baseline",
  "allPairs",
  "correction",
  "alpha",
  "permutations",
  "seed",
  "comparisonFormat",
  "gates",
  "junit",
  "detect",
  "power",
  "correlation",
];

/** The options' names where their key is not (`tests` is --test). */
const COMPARE_OPTION_NAMES: Partial<Record<keyof CliArgs, string>> = {
  allPairs: "all-pairs",
  tests: "test",
  gates: "gate",
};

/** --interval's value: `t`, `bootstrap`, a level (`0.9`), or a method and a level (`bootstrap:0.9`). */
function intervalSpec(option: string, value: string): IntervalSettings {
  const [method, level, more] = value.split(":");
  const form = `"t", "bootstrap", a level such as 0.9, or both as bootstrap:0.9`;
  const asLevel = (text: string) => {
    const n = Number(text);
    if (text.trim() === "" || !(n > 0 && n < 1))
      throw usageError(`${option}: "${text}" is not a level between 0 and 1`);
    return n;
  };
  if (more !== undefined) throw usageError(`${option}: "${value}" is not ${form}`);
  if (level === undefined && method !== "t" && method !== "bootstrap")
    return { ...DEFAULT_INTERVAL, level: asLevel(method) };
  if (method !== "t" && method !== "bootstrap")
    throw usageError(`${option}: "${method}" is not "t" or "bootstrap" (${form})`);
  return { ...DEFAULT_INTERVAL, method, ...(level === undefined ? {} : { level: asLevel(level) }) };
}

/** A number as written: a plain decimal, as the parsers read labels and scores. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** An option's number as trec_eval reads it (atol: "1.9" is 1), but "x" (0 there) is refused. */
function trecLong(option: string, value: string): { exact: number; value: number } {
  const text = value.trim();
  if (!DECIMAL.test(text)) throw usageError(`${option}: "${value}" is not a number`);
  return { exact: Number(text), value: Number(atol(text)) };
}

/**
 * Parses arguments as trec_eval's getopt does (`-l2` or `-l 2`, `-mP.5`, flags grouped as `-qc`), plus
 * long options (`--format json`, `--format=json`). `--` ends the options; `-` alone is a file (stdin).
 */
export function parseArgs(argv: readonly string[]): CliArgs {
  const a: CliArgs = {
    measures: [],
    perQuery: false,
    complete: false,
    judgedOnly: false,
    noSummary: false,
    tieRange: false,
    diversity: false,
    files: [],
    help: false,
    version: false,
    truncated: [],
  };
  const set = (key: keyof CliArgs, value: string, option: string) => {
    switch (key) {
      case "measures":
        a.measures.push(value);
        break;
      case "threshold": {
        const { exact, value: n } = trecLong(option, value);
        if (!Number.isFinite(exact)) throw usageError(`${option}: "${value}" is not a finite number`);
        a.threshold = exact;
        a.trecThreshold = n;
        if (exact !== n)
          a.truncated = [...a.truncated.filter((t) => t.option !== "-l"), { option: "-l", text: value, value: n }];
        break;
      }
      case "depth":
      case "numDocs": {
        const { exact, value: n } = trecLong(option, value);
        // trec_eval -M with a negative number crashes (form_res_rels.c sorts a negative count).
        if (key === "depth" && n < 0)
          throw usageError(`${option}: "${value}" is negative (trec_eval crashes on it); -M 0 keeps no documents`);
        const name = key === "depth" ? "-M" : "-N";
        a[key] = n;
        a.truncated = a.truncated.filter((t) => t.option !== name);
        if (exact !== n) a.truncated.push({ option: name, text: value, value: n });
        break;
      }
      case "relFormat":
        if (!(REL_FORMATS as readonly string[]).includes(value))
          throw usageError(
            `${option}: "${value}" is not one of ${REL_FORMATS.join(", ")} (trec_eval: Illegal rel_format)`,
          );
        a.relFormat = value as RelFormat;
        break;
      case "debugLevel": {
        // trec_eval.c get_debug_level_query: the level before the first '.', the query after it.
        const dot = value.indexOf(".");
        const level = dot < 0 ? value : value.slice(0, dot);
        a.debugLevel = level.trim() === "" ? 0 : trecLong(option, level).value;
        a.debugQuery = dot < 0 ? undefined : value.slice(dot + 1);
        break;
      }
      case "resultsFormat":
        if (value !== "trec_results")
          throw usageError(
            `${option}: rankeval reads runs as trec_results only (trec_eval's -T ${value} is not supported)`,
          );
        break;
      case "format":
        if (value === "markdown" || value === "latex") {
          a.comparisonFormat = value;
          a.format = undefined;
          break;
        }
        if (!["trec", "table", "json", "csv", "ndeval"].includes(value))
          throw usageError(
            `${option}: "${value}" is not one of trec, table, json, csv, ndeval (or, with --compare, markdown, latex)`,
          );
        a.format = value as CliArgs["format"];
        a.comparisonFormat = undefined;
        break;
      case "tests":
        for (const t of value.split(",")) {
          if (!(TESTS as readonly string[]).includes(t))
            throw usageError(`${option}: "${t}" is not one of ${TESTS.join(", ")}`);
          a.tests = [...(a.tests ?? []), t as TestName];
        }
        break;
      case "gates":
        a.gates = [...(a.gates ?? []), parseGate(value)];
        break;
      case "junit":
        a.junit = value;
        break;
      case "correction":
        if (!(CORRECTIONS as readonly string[]).includes(value))
          throw usageError(`${option}: "${value}" is not one of ${CORRECTIONS.join(", ")}`);
        a.correction = value as Correction;
        break;
      case "rboP":
      case "alpha": {
        const n = Number(value);
        if (value.trim() === "" || !(n > 0 && n < 1))
          throw usageError(`${option}: "${value}" is not a number between 0 and 1`);
        a[key] = n;
        break;
      }
      case "permutations": {
        const n = Number(value);
        if (value.trim() === "" || !Number.isInteger(n) || n < 1 || n > 10_000_000)
          throw usageError(`${option}: "${value}" is not an integer from 1 to 10000000`);
        a.permutations = n;
        break;
      }
      case "detect": {
        const n = Number(value);
        if (value.trim() === "" || !Number.isFinite(n) || n === 0)
          throw usageError(`${option}: "${value}" is not a difference other than 0 (as 0.02)`);
        a.detect = n;
        break;
      }
      case "power": {
        const n = Number(value);
        if (value.trim() === "" || !(n > 0 && n < 1))
          throw usageError(`${option}: "${value}" is not a probability between 0 and 1`);
        a.power = n;
        break;
      }
      case "interval":
        a.interval = intervalSpec(option, value);
        break;
      case "seed": {
        const n = Number(value);
        if (value.trim() === "" || !Number.isSafeInteger(n) || n < 0)
          throw usageError(`${option}: "${value}" is not an integer from 0 to ${Number.MAX_SAFE_INTEGER}`);
        a.seed = n;
        break;
      }
      case "explainDepth":
      case "reportQueries": {
        const n = Number(value);
        const least = key === "explainDepth" ? 1 : 0;
        if (value.trim() === "" || !Number.isSafeInteger(n) || n < least)
          throw usageError(`${option}: "${value}" is not an integer from ${least} up`);
        a[key] = n;
        break;
      }
      case "threads": {
        const n = Number(value);
        if (value.trim() === "" || !Number.isInteger(n) || n < 1 || n > 256)
          throw usageError(`${option}: "${value}" is not a number of threads from 1 to 256`);
        a.threads = n;
        break;
      }
      case "inputFormat":
        if (!(INPUT_FORMATS as readonly string[]).includes(value))
          throw usageError(`${option}: "${value}" is not one of ${INPUT_FORMATS.join(", ")}`);
        a.inputFormat = value as InputFormat;
        break;
      case "columns": {
        const columns: ColumnNames = { ...a.columns };
        for (const part of value.split(",")) {
          const eq = part.indexOf("=");
          const role = part.slice(0, eq).trim();
          const name = part.slice(eq + 1);
          if (eq < 0 || !["qid", "docid", "value", "tag"].includes(role) || name === "") {
            throw usageError(
              `${option}: "${part}" is not ROLE=NAME with ROLE one of qid, docid, value, tag (as qid=query_id,docid=doc,value=score)`,
            );
          }
          columns[role as keyof ColumnNames] = name;
        }
        a.columns = columns;
        break;
      }
      case "fuseParams": {
        const eq = value.indexOf("=");
        if (eq <= 0) throw usageError(`${option}: "${value}" is not NAME=VALUE (as k=60)`);
        a.fuseParams = [...(a.fuseParams ?? []), [value.slice(0, eq), value.slice(eq + 1)]];
        break;
      }
      case "weights":
        a.weights = value.split(",").map((w) => {
          if (!DECIMAL.test(w.trim()) || !Number.isFinite(Number(w)))
            throw usageError(`${option}: "${w}" is not a finite number (weights: W,W,... a run each)`);
          return Number(w);
        });
        break;
      default:
        (a as unknown as Record<string, string>)[key] = value;
    }
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      a.files.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      if (name === "page") {
        // --page [FILE]: its FILE, when given apart, is the one operand (taken after the loop).
        a.page = eq < 0 ? "" : arg.slice(eq + 1);
        continue;
      }
      if (Object.hasOwn(FLAGS, name)) {
        if (eq >= 0) throw usageError(`--${name} takes no value`);
        (a as unknown as Record<string, boolean>)[FLAGS[name]] = true;
      } else if (Object.hasOwn(VALUED, name)) {
        const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
        if (value === undefined) throw usageError(`--${name} needs a value`);
        set(VALUED[name], value, `--${name}`);
      } else throw usageError(`unknown option --${name}${didYouMean(name, LONG_OPTIONS, (o) => `--${o}`)}`);
      continue;
    }
    if (arg.startsWith("-") && arg !== "-") {
      for (let j = 1; j < arg.length; j++) {
        const c = arg[j];
        if (Object.hasOwn(FLAGS, c)) {
          (a as unknown as Record<string, boolean>)[FLAGS[c]] = true;
        } else if (Object.hasOwn(VALUED, c)) {
          const value = j + 1 < arg.length ? arg.slice(j + 1) : argv[++i];
          if (value === undefined) throw usageError(`-${c} needs a value`);
          set(VALUED[c], value, `-${c}`);
          break;
        } else throw usageError(`unknown option -${c}`);
      }
      continue;
    }
    a.files.push(arg);
  }
  if (a.page !== undefined && !a.help && !a.version) checkPage(a, argv);
  if (a.letor === undefined) {
    // Without --letor they would be ignored, and the run evaluated without them.
    if (a.scores !== undefined)
      throw usageError(`--scores ${a.scores} needs --letor DATA (the rows the scores are for)`);
    if (a.query !== undefined) throw usageError(`--query ${a.query} needs --letor DATA (the rows the groups are of)`);
  }
  // --columns names the columns of CSV/TSV, Parquet and Arrow inputs: these modes read none (refused, not ignored).
  if (a.columns !== undefined && a.letor !== undefined)
    throw usageError(
      "--columns names CSV/TSV, Parquet or Arrow columns: --letor reads LETOR text and one score a line, which have none",
    );
  if (a.columns !== undefined && a.relFormat !== undefined && a.relFormat !== "qrels")
    throw usageError(
      `--columns names CSV/TSV, Parquet or Arrow columns: -R ${a.relFormat} reads trec_eval's text, which has none`,
    );
  if (a.interval && a.format === "trec")
    throw usageError(
      "--interval prints (lo, hi) beside each mean, which trec_eval's text has no place for: use --format table, json or csv",
    );
  if (a.interval && a.compare)
    throw usageError(
      "--interval has no meaning with --compare (the comparison gives each difference's interval already)",
    );
  // trec_eval's text has no place for a range.
  if (a.tieRange && a.format === "trec")
    throw usageError(
      "--tie-range prints [worst, best] beside each value, which trec_eval's text has no place for: use --format table, json or csv",
    );
  checkRbo(a);
  checkCompare(a);
  checkExplainReport(a);
  checkFuse(a);
  if (a.perQueryOut !== undefined) {
    if (!/\.(parquet|arrow|feather|arrows|csv|json)$/i.test(a.perQueryOut))
      throw usageError(
        `--per-query-out ${a.perQueryOut}: the format comes from the name: .parquet, .arrow, .feather, .arrows, .csv or .json`,
      );
    if (a.letor !== undefined)
      throw usageError("--per-query-out writes the runs of QRELS RUN [RUN ...] (or of --merge), not of --letor");
    if (a.compare)
      throw usageError("--per-query-out has no place with --compare (write the runs' values first, then compare them)");
    if (a.debugQuery !== undefined)
      throw usageError("--per-query-out writes every query's values: -D evaluates one only");
    if (a.explain !== undefined || a.report !== undefined)
      throw usageError(
        `--per-query-out has no place with ${a.explain !== undefined ? "--explain" : "--report"} (write the runs' values with the evaluation)`,
      );
  }
  checkManifest(a);
  // trec_eval -n without -q prints nothing at all: a report with no line is surely not what was meant.
  if (a.noSummary && !a.perQuery && !a.help && !a.version)
    throw usageError("-n (no summary) leaves nothing to print without -q (per-query values)");
  return a;
}

/** Each mode, or option that makes one, as refusals name it when given (null when not). */
const MODE_FLAGS = {
  compare: (a: CliArgs) => (a.compare ? "--compare" : null),
  merge: (a: CliArgs) => (a.merge ? "--merge" : null),
  fuse: (a: CliArgs) => (a.fuse !== undefined ? "--fuse" : null),
  letor: (a: CliArgs) => (a.letor !== undefined ? "--letor" : null),
  explain: (a: CliArgs) => (a.explain !== undefined ? "--explain" : null),
  report: (a: CliArgs) => (a.report !== undefined ? "--report" : null),
  page: (a: CliArgs) => (a.page !== undefined ? "--page" : null),
  diversity: (a: CliArgs) => (a.diversity ? "--diversity" : null),
  perQueryOut: (a: CliArgs) => (a.perQueryOut !== undefined ? "--per-query-out" : null),
  relFormat: (a: CliArgs) => (a.relFormat !== undefined && a.relFormat !== "qrels" ? `-R ${a.relFormat}` : null),
} as const;

/** The flag of the first of `modes` given, in their order, or null. */
function givenMode(a: CliArgs, modes: readonly (keyof typeof MODE_FLAGS)[]): string | null {
  for (const m of modes) {
    const flag = MODE_FLAGS[m](a);
    if (flag !== null) return flag;
  }
  return null;
}

/** --manifest FILE: a .yaml, .yml or .json file, of an evaluation of QRELS RUN [RUN ...] only. */
function checkManifest(a: CliArgs): void {
  if (a.manifest === undefined) return;
  if (a.manifest === "-")
    throw usageError("--manifest -: standard output has the evaluation; give a FILE (.yaml, .yml or .json)");
  if (!manifestFormat(a.manifest))
    throw usageError(`--manifest ${a.manifest}: the format comes from the name: .yaml, .yml or .json`);
  const other = givenMode(a, [
    "compare",
    "merge",
    "fuse",
    "letor",
    "explain",
    "report",
    "page",
    "diversity",
    "relFormat",
  ]);
  if (other) throw usageError(`--manifest is written for QRELS RUN [RUN ...] evaluations, not with ${other}`);
}

/** The options that mean something only with --fuse, by their flags. */
const FUSE_ONLY: readonly [keyof CliArgs, string][] = [
  ["norm", "--norm"],
  ["fuseParams", "--fuse-param"],
  ["weights", "--weights"],
  ["output", "--output"],
  ["tag", "--tag"],
];

/** --fuse's options only with it, and none of the modes it has no place in. */
function checkFuse(a: CliArgs): void {
  if (a.fuse === undefined) {
    const given = FUSE_ONLY.find(([k]) => a[k] !== undefined);
    if (given) throw usageError(`${given[1]} needs --fuse METHOD`);
    return;
  }
  const other = givenMode(a, ["merge", "letor", "explain", "report", "perQueryOut"]);
  if (other)
    throw usageError(`--fuse and ${other}: give one of them (--fuse reads RUN RUN [RUN ...], QRELS first to evaluate)`);
}

/** --page [FILE]: FILE an HTML name (not a qrels or run file overwritten by a slip), and nothing else given. */
function checkPage(a: CliArgs, argv: readonly string[]): void {
  const end = argv.indexOf("--");
  const other = (end < 0 ? argv : argv.slice(0, end)).find(
    (x) => x.startsWith("-") && x !== "-" && x !== "--page" && !x.startsWith("--page="),
  );
  if (other !== undefined)
    throw usageError(`--page writes the page and does nothing else: ${other} has no place beside it`);
  if (a.page === "") a.page = a.files.shift() ?? "rankeval.html";
  if (a.files.length) throw usageError(`--page [FILE] writes one file: ${a.files[0]} has no place beside it`);
  if (a.page !== "-" && !/\.html?$/i.test(a.page!))
    throw usageError(`--page ${a.page}: the page is HTML: give a name ending .html (or - for standard output)`);
}

/** --rbo's options only with it, and none of the evaluation's (it reads two runs, no judgments). */
function checkRbo(a: CliArgs): void {
  if (!a.rbo) {
    if (a.rboP !== undefined) throw usageError("--rbo-p needs --rbo RUN RUN");
    return;
  }
  if (a.help || a.version) return;
  if (a.comparisonFormat !== undefined || (a.format !== undefined && a.format !== "trec" && a.format !== "json"))
    throw usageError(
      `--rbo prints trec_eval's text (--format trec, the default) or --format json, not ${a.comparisonFormat ?? a.format}`,
    );
  const allowed: (keyof CliArgs)[] = [
    "rbo",
    "rboP",
    "format",
    "inputFormat",
    "columns",
    "files",
    "threads",
    "truncated",
  ];
  for (const [key, value] of Object.entries(a) as [keyof CliArgs, unknown][]) {
    if (allowed.includes(key) || value === undefined || value === false || (Array.isArray(value) && !value.length))
      continue;
    const names = [...Object.keys(FLAGS), ...Object.keys(VALUED)].filter((n) => (FLAGS[n] ?? VALUED[n]) === key);
    const short = names.find((n) => n.length === 1);
    const option = short ? `-${short}` : `--${names[0] ?? key}`;
    throw usageError(`${option} has no meaning with --rbo (it compares two runs' rankings: no judgments, no measures)`);
  }
  if (a.files.length !== 2)
    throw usageError(
      `--rbo compares two runs: give RUN RUN (got ${a.files.length === 1 ? "one file" : `${a.files.length} files`})`,
    );
}

/** --explain's and --report's options only with them, and none they cannot honour. */
function checkExplainReport(a: CliArgs): void {
  if (a.explainDepth !== undefined && a.explain === undefined) throw usageError("--explain-depth needs --explain QID");
  if (a.reportQueries !== undefined && a.report === undefined) throw usageError("--report-queries needs --report FILE");
  const mode = a.explain !== undefined ? "--explain" : a.report !== undefined ? "--report" : null;
  if (mode === null) return;
  if (a.explain !== undefined && a.report !== undefined)
    throw usageError(
      "--explain prints one query's drill-down and --report writes a report: give one of them (the report has drill-downs)",
    );
  if (a.compare)
    throw usageError(
      `${mode} and --compare: give one of them (${mode === "--report" ? "the report has the comparison: give its options (--test, --baseline, ...) without --compare" : "--explain compares the runs' rankings of one query"})`,
    );
  if (a.letor !== undefined) throw usageError(`${mode} takes QRELS RUN [RUN ...], not --letor`);
  // Relevance judgments only: not trec_eval's other judgment formats, nor subtopic judgments.
  if (a.relFormat !== undefined && a.relFormat !== "qrels")
    throw usageError(`${mode} reads qrels (relevance judgments), not -R ${a.relFormat}`);
  if (a.diversity) throw usageError(`${mode} reads qrels of relevance judgments, not --diversity's subtopic judgments`);
  if (a.zscoreFile !== undefined || a.debugQuery !== undefined || a.debugLevel !== undefined)
    throw usageError(`-Z and -D have no meaning with ${mode}`);
  if (a.tieRange)
    throw usageError(`--tie-range has no place in ${mode === "--explain" ? "a drill-down" : "the report"}`);
  if (a.interval)
    throw usageError(
      mode === "--explain"
        ? "--interval has no place in a drill-down (it shows one query)"
        : "--interval sets the table's, CSV's and JSON's intervals: the report shows each mean's 95% t interval",
    );
  if (a.noSummary) throw usageError(`-n has no meaning with ${mode}`);
  if (a.perQuery)
    throw usageError(
      `-q has no meaning with ${mode} (${mode === "--explain" ? "it shows one query" : "the report has every query's values"})`,
    );
  if (mode === "--explain" && a.format !== undefined && a.format !== "table" && a.format !== "json")
    throw usageError(`--explain prints text (--format table, the default) or --format json, not ${a.format}`);
  if (mode === "--report" && a.format !== undefined)
    throw usageError("--report writes HTML: --format has no meaning with it");
}

/** --compare's options only with --compare (or --report, whose comparison they set), and none of the evaluation's that it cannot honour. */
function checkCompare(a: CliArgs): void {
  if (a.report !== undefined && !a.compare) {
    if (a.comparisonFormat !== undefined)
      throw usageError(`--format ${a.comparisonFormat} needs --compare (--report writes HTML)`);
    if (a.allPairs && a.baseline !== undefined)
      throw usageError("--baseline and --all-pairs: with every pair compared there is no baseline");
    return;
  }
  if (!a.compare) {
    // --seed is the bootstrap interval's too.
    if (a.interval?.method === "bootstrap" && a.seed !== undefined) a.interval = { ...a.interval, seed: a.seed };
    const bootstrapSeed = (k: keyof CliArgs) => k === "seed" && a.interval?.method === "bootstrap";
    const given = COMPARE_ONLY.find((k) => a[k] !== undefined && a[k] !== false && !bootstrapSeed(k));
    if (given === "comparisonFormat")
      throw usageError(
        `--format ${a.comparisonFormat} needs --compare (the evaluation's formats are trec, table, json, csv)`,
      );
    if (given !== undefined) throw usageError(`--${COMPARE_OPTION_NAMES[given] ?? given} needs --compare`);
    return;
  }
  if (a.letor !== undefined)
    throw usageError("--compare takes QRELS RUN RUN [RUN ...] or per-query results, not --letor (one run)");
  if (a.format === "trec")
    throw usageError("--format trec has no comparison; with --compare: table (default), markdown, latex, csv, json");
  if (a.perQuery)
    throw usageError("-q has no meaning with --compare (the comparison is over the per-query values already)");
  if (a.tieRange)
    throw usageError(
      "--tie-range has no meaning with --compare (the comparison is over the values under the --ties order)",
    );
  if (a.allPairs && a.baseline !== undefined)
    throw usageError("--baseline and --all-pairs: with every pair compared there is no baseline");
  if (a.power !== undefined && a.detect === undefined)
    throw usageError("--power is --detect's: give the difference to find (--detect 0.02)");
  if (a.power !== undefined && a.power <= (a.alpha ?? 0.05))
    throw usageError(`--power ${a.power} must be above alpha (${a.alpha ?? 0.05})`);
  if (a.correlation && (a.format === "csv" || a.comparisonFormat === "latex"))
    throw usageError(
      `--correlation prints with --format table, markdown or json, not ${a.comparisonFormat ?? a.format}`,
    );
}

/** Words wrapped as --help's descriptions are: indented 20, lines of 97 characters at most. */
function helpLines(text: string): string {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= 97) lines[last] += ` ${word}`;
    else lines.push(`${" ".repeat(20)}${word}`);
  }
  return lines.join("\n");
}

/** --columns' description, its defaults from the one table of them, so that --help names every one. */
function columnsHelp(): string {
  const { qid, docid, run, qrels, tag } = DEFAULT_COLUMNS;
  return helpLines(
    "the CSV/TSV header or Parquet/Arrow column names to read. Default: the first present of " +
      `${qid.join(", ")}; ${docid.join(", ")}; ${run.join(", ")} (runs) or ${qrels.join(", ")} (qrels); ` +
      `and ${tag.join(", ")} (a run's tag: Parquet and Arrow only)`,
  );
}

export const USAGE = `usage: rankeval [options] QRELS RUN [RUN ...]
       rankeval [options] --letor DATA --scores PREDICTIONS [--query GROUPS]
       rankeval --compare [compare options] [options] QRELS RUN RUN [RUN ...]
       rankeval --compare [compare options] PER-QUERY [PER-QUERY ...]
       rankeval --explain QID [-m MEASURE] [options] QRELS RUN [RUN ...]
       rankeval --report FILE [compare options] [options] QRELS RUN [RUN ...]
       rankeval --merge [-q] [--format F] [--compare ...] SHARD [SHARD ...]
       rankeval --rbo [--rbo-p P] RUN RUN
       rankeval --fuse METHOD [fuse options] RUN RUN [RUN ...]
       rankeval --fuse METHOD [fuse options] [options] [--compare ...] QRELS RUN RUN [RUN ...]
       rankeval --page [FILE]

Evaluates rankings as trec_eval does, with the same options and measure names, and more.
QRELS, RUN, DATA and PREDICTIONS may be gzipped; - reads standard input.

  -m MEASURE        a measure to compute; repeatable. trec_eval names (map, P.5,10,
                    ndcg_cut.10, all_trec, official) or canonical ones (ndcg@10, map, mrr@10).
                    Default: trec_eval's official set; with --letor: ndcg@1,3,5,10 map mrr.
  -q                per-query values too (a table: a row per query and measure)
  -c                average over every judged query; those missing from the run count 0
  -J                rank only the judged documents (those with a label >= 0)
  -n                no summary: the per-query values only (needs -q)
  -l N              a label >= N is relevant (default 1; with trec_eval names, read as
                    trec_eval does: 1.5 is 1, 0 and negative values allowed)
  -M N              keep the top N documents of each ranking (before -J; 1.9 is 1)
  -N N              documents in the collection (utility's last coefficient; default 0)
  -R FORMAT         the judgments' format, as trec_eval's: qrels (default), prefs,
                    qrels_prefs (a qrels file read as preferences) or qrels_jg (judgment
                    groups), with trec_eval's measures over them (-m prefs, qrels_jg, ...)
  -Z FILE           each value as a Z score against FILE's means and standard deviations
                    (lines: qid measure mean stddev), as trec_eval -Z
  -D N[.QID]        trec_eval's debug level (its debug output is not printed); .QID
                    evaluates only that query
  --format F        trec (default for trec_eval names), table (default otherwise), json, csv,
                    ndeval (TREC's diversity evaluation's CSV, for its measures)
  --diversity       QRELS is a subtopic qrels (qid subtopic docno judgment, as TREC's
                    diversity tasks): alpha-nDCG@20, ERR-IA@20, NRBP, P-IA@20, strec@20, ...
                    (ndeval's, ir_measures' and rankeval's names). Also when such a measure or
                    --format ndeval is asked for, or when QRELS judges a document under two
                    subtopics. Without -m: ndeval's measures, printed as ndeval prints them
  --gain G          exp or linear (default: linear with trec_eval names, exp otherwise)
  --no-relevant V   a query without relevant documents scores zero (default), one, skip or nan
  --beyond-list V   a cutoff past the ranking: pad (default), clip (read at the list's
                    length), nan or zero
  --ties T          equal scores: docid (default; document id descending, as trec_eval),
                    input (the run's line order for the query: a stable sort by score),
                    average (the mean over every order of the tied documents: scikit-learn's),
                    best or worst (higher or lower labels first)
  --tie-range       each value's [worst, best] over the orders of tied documents, beside it
                    (a table by default, or json or csv)
  --interval I      each mean's interval, (lo, hi) after it (a table by default, or csv; json
                    has it always): t (Student's, 95%), bootstrap (percentile, seeded by --seed),
                    a level (0.9), or both (bootstrap:0.9)
  --preset NAME     another tool's conventions and measure definitions, under the options
                    given beside it: trec_eval (pytrec_eval, ir_measures), ranx, sklearn,
                    lightgbm, xgboost, catboost, torchmetrics, ignite, ptranking,
                    ptranking-tutorial, tfranking, rankeval-default
  --input-format F  trec, json ({"qid": {"docid": value}}), csv or tsv (with a header row),
                    parquet or arrow (an IPC file or stream), for every QRELS and RUN file;
                    msmarco: runs of qid docid rank lines (no score: ordered by rank),
                    judgments by their name.
                    Default: from each name (.json, .csv, .tsv, also .gz; .parquet; .arrow,
                    .feather, .arrows; anything else is TREC text). A directory with key=value
                    subdirectories (Hive partitions) or _SUCCESS is one Parquet or Arrow input.
                    A JSON/CSV/Parquet/Arrow run's tag is its file name, or its tag column's.
  --columns qid=Q,docid=D,value=V[,tag=T]
${columnsHelp()}
  --per-query-out FILE
                    every run's per-query values (a row per run and query: run, qid, a column
                    per value) as Parquet, Arrow (.arrow, .feather; .arrows a stream), CSV or
                    JSON by FILE's name, the measures and conventions in its metadata
  --manifest FILE   the evaluation's provenance as YAML (ir_metadata's) or JSON by FILE's
                    name (.yaml, .yml, .json): rankeval's version and command, each input's
                    name, size, SHA-256 (of its bytes as stored) and format as read, the
                    measures with their tool and conventions, query counts, warnings
  --threads N       N worker threads at most (1: none, all in the main thread). From 4, large
                    TREC text files are split among them by query, each thread reading, joining
                    and evaluating its own queries; else they read runs (several at once) and
                    decode Parquet row groups. Default: one per core up to 4, three of every
                    four past that (12 of 16). The output is the same with any number.
  --merge           SHARD files are --per-query-out files of one evaluation's shards (disjoint
                    queries): print the report one process on the whole input prints
  --page [FILE]     write the web page to FILE (default rankeval.html; - standard output), and
                    nothing else: one HTML file that evaluates in the browser, opened from disk,
                    offline, or from any web server; the files chosen in it are read there, never
                    uploaded. Drop a qrels file and runs on it (or LETOR data and predictions)
  -h, --help        this help;  -v, --version  the version

Why a number moved:
  --explain QID     one query's drill-down instead of the report: each run's ranking side by
                    side (rank, document, score, label, gain, ties, the rank in the other run,
                    each measure's running value: its value for the ranking cut there), the
                    judged documents never retrieved, and the ideal ranking. Default measure:
                    ndcg_cut.10. --format json for data.
  --explain-depth N ranks shown (default: the largest cutoff asked, at least 20)
  --report FILE     one HTML file (inline script and SVG, opens offline): the means with the
                    comparison's marks (the compare options below set it), the conventions,
                    charts, the per-query table, and drill-downs of the queries that changed most
  --report-queries N  drill-downs in the report (default 50)

Comparing runs (--compare): paired tests over the per-query values of each measure, each
run against the baseline; runs named by their files. PER-QUERY: results rankeval wrote
with -q --format json or csv (one or more runs each), compared again without the files.
  --test T[,T...]   t, wilcoxon, sign, randomization, bootstrap, tukey (default t,randomization);
                    the first named marks the table
  --baseline RUN    the run the others are compared with (default the first)
  --all-pairs       every pair of runs instead
  --correction C    holm (default with more than one comparison), bonferroni, bh, none
  --alpha A         adjusted p below A is significant (default 0.05)
  --gate M>=B       a regression gate: exit 3 where a run's mean on measure M minus the
                    baseline's is below B (a budget: "ndcg@10>=-0.01") and the drop is
                    significant (the first test, corrected, at --alpha); prints why as
                    Markdown after the comparison. Several allowed
  --junit FILE      the gates' verdicts as JUnit XML
  --permutations B  iterations of randomization, bootstrap and tukey (default 10000)
  --seed S          their random stream (default 42: the same seed, the same report)
  --format F        table (default: runs side by side, then each comparison), markdown,
                    latex (booktabs), csv, json
  --detect DELTA    after the comparison, the queries each pair would need for the paired t-test
                    to find a difference of DELTA significant (from the pair's sd of differences)
  --power P         ... that often (default 0.8)
  --correlation     after the comparison, how each pair of measures orders the runs: Kendall's
                    tau_b and tau_AP (each measure of the pair the reference in turn); table,
                    markdown or json

How alike two runs rank documents (--rbo): rank-biased overlap (RBO_ext, Webber, Moffat and
Zobel 2010) per query, then its mean, as trec_eval -q prints (rbo QID VALUE, rbo all MEAN);
equal scores are ties. Queries of one run only score 0.
  --rbo RUN RUN     the two runs, in any format a RUN may be (--input-format, --columns);
                    --format json for data
  --rbo-p P         the persistence, between 0 and 1 (default 0.9: the top 10 ranks weigh 86%)

Fusing runs (--fuse METHOD): ranx's methods (rrf, isr, log_isr, logn_isr, bordafuse, condorcet,
max, min, med, sum, anz, mnz, gmnz, wsum, wmnz, mixed, rbc, ...) on ranx's definitions. The fused run
is written as TREC text (ranks from 1 by descending score, ties by document id descending, as
trec_eval orders them); with QRELS first (its lines of four fields, or any evaluation option given)
it is evaluated first beside its inputs, and --compare compares it with each of them.
  --norm N          each run's scores normalised first: min-max (default, as ranx), min-max-inverted,
                    max, sum, zmuv, rank, borda, or none
  --fuse-param P=V  a parameter of the method (k=60 for rrf, phi=0.8 for rbc; a list as 1,2,3;
                    JSON as probs=[[0.4,0.2],[0.5,0.1]], a learned method's); repeatable
  --weights W,W,... a weight per run (wsum, wmnz, weighted_bordafuse, ...)
  --output FILE     the fused run written to FILE (default standard output; with QRELS, the
                    evaluation's name for it)
  --tag TAG         the fused run's tag (default the method's name)

Several RUN files: side by side in a table; in trec_eval's text, each after a line
==> RUN <== (as head prints several files).

Exit status: 0 success, 1 usage, 2 bad input (a file), 70 internal error or out of
memory, 74 the output could not be written; a closed output (| head) ends it quietly.`;

/**
 * The options that set how rows are evaluated, with their flags: per-query results (--merge, --compare of
 * -q output) were computed under their own and cannot take them.
 */
export const EVALUATION_OPTIONS: readonly [keyof CliArgs, string][] = [
  ["complete", "-c"],
  ["judgedOnly", "-J"],
  ["threshold", "-l"],
  ["depth", "-M"],
  ["gain", "--gain"],
  ["noRelevant", "--no-relevant"],
  ["beyondList", "--beyond-list"],
  ["ties", "--ties"],
  ["preset", "--preset"],
  ["numDocs", "-N"],
  ["inputFormat", "--input-format"],
  ["columns", "--columns"],
];
