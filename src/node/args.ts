import { usageError } from "../errors/errors.js";
import { didYouMean } from "../errors/suggest.js";
import { manifestFormat } from "../app/manifest.js";
import {
  flagOf,
  labelOf,
  OPTION_NAMES,
  OPTION_ROWS,
  optionHelp,
  type CliArgs,
  type JudgmentsMode,
  type OptionRow,
} from "../app/options-table.js";

export type { CliArgs } from "../app/options-table.js";

/** The default --format: trec text for trec_eval's measures unless a tie range or interval needs a table. */
export function defaultFormat(args: CliArgs, trecMeasures: boolean, tieRange = args.tieRange): "trec" | "table" {
  return trecMeasures && !tieRange && !args.interval ? "trec" : "table";
}

/** Long option names for "did you mean", valued first. */
export const LONG_OPTIONS = [...OPTION_NAMES]
  .sort(([, x], [, y]) => Number(!x.value) - Number(!y.value))
  .map(([n]) => n)
  .filter((o) => o.length > 1);

const given = (a: CliArgs, key: keyof CliArgs) => a[key] !== undefined && a[key] !== false;

/** Refuses options meaningful only in `mode` where it is not given. */
function needs(a: CliArgs, mode: keyof CliArgs, except?: keyof CliArgs): void {
  const r = given(a, mode)
    ? undefined
    : OPTION_ROWS.find((r) => r.needs === mode && r.key !== except && given(a, r.key));
  if (r) throw usageError(`${flagOf(r.key)} needs ${labelOf(OPTION_ROWS.find((m) => m.key === mode)!)}`);
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
  let i = 0;
  /** Sets `r`: a flag true, else its value (`inline`, or the next argument) as its row reads it. */
  const set = (r: OptionRow, option: string, inline: string | undefined) => {
    let value: unknown = true;
    if (r.value) {
      const text = inline ?? argv[++i];
      if (text === undefined) throw usageError(`${option} needs a value`);
      value = r.read ? r.read(text, option, a) : text;
    }
    (a as unknown as Record<string, unknown>)[r.key] = value;
  };
  for (; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      a.files.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      const inline = eq < 0 ? undefined : arg.slice(eq + 1);
      // --page's FILE, given apart, is the one operand (taken after the loop).
      if (name === "page") a.page = inline ?? "";
      else {
        const r = OPTION_NAMES.get(name);
        if (!r) throw usageError(`unknown option --${name}${didYouMean(name, LONG_OPTIONS, (o) => `--${o}`)}`);
        if (!r.value && inline !== undefined) throw usageError(`--${name} takes no value`);
        set(r, `--${name}`, inline);
      }
      continue;
    }
    if (arg.startsWith("-") && arg !== "-") {
      for (let j = 1; j < arg.length; j++) {
        const r = OPTION_NAMES.get(arg[j]);
        if (!r) throw usageError(`unknown option -${arg[j]}`);
        set(r, `-${arg[j]}`, j + 1 < arg.length ? arg.slice(j + 1) : undefined);
        if (r.value) break;
      }
      continue;
    }
    a.files.push(arg);
  }
  if (a.page !== undefined && !a.help && !a.version) checkPage(a, argv);
  if (a.letor === undefined) {
    if (a.scores !== undefined)
      throw usageError(`--scores ${a.scores} needs --letor DATA (the rows the scores are for)`);
    if (a.query !== undefined) throw usageError(`--query ${a.query} needs --letor DATA (the rows the groups are of)`);
  }
  if (a.columns !== undefined && a.letor !== undefined)
    throw usageError(
      "--columns names CSV/TSV, JSON lines, Parquet or Arrow columns: --letor reads LETOR text and one score a line, which have none",
    );
  if (a.columns !== undefined && (a.relFormat ?? "qrels") !== "qrels")
    throw usageError(
      `--columns names CSV/TSV, JSON lines, Parquet or Arrow columns: -R ${a.relFormat} reads trec_eval's text, which has none`,
    );
  const beside = a.format === "trec" && OPTION_ROWS.find((r) => r.beside && given(a, r.key));
  if (beside)
    throw usageError(
      `${flagOf(beside.key)} prints ${beside.beside}, which trec_eval's text has no place for: use --format table, json or csv`,
    );
  if (a.interval && a.compare)
    throw usageError(
      "--interval has no meaning with --compare (the comparison gives each difference's interval already)",
    );
  checkJudgments(a);
  checkFill(a);
  checkRbo(a);
  checkCompare(a);
  checkExplainReport(a);
  checkFuse(a);
  checkPreparations(a);
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
    const mode = givenMode(a, ["explain", "report"]);
    if (mode)
      throw usageError(`--per-query-out has no place with ${mode} (write the runs' values with the evaluation)`);
  }
  checkManifest(a);
  if (a.noSummary && !a.perQuery && !a.help && !a.version)
    throw usageError("-n (no summary) leaves nothing to print without -q (per-query values)");
  return a;
}

/** The flag of the first of `modes` given (`-R prefs`: -R other than qrels), or null. */
function givenMode(a: CliArgs, modes: readonly (keyof CliArgs)[]): string | null {
  for (const m of modes) {
    if (m === "relFormat" ? (a.relFormat ?? "qrels") !== "qrels" : given(a, m))
      return m === "relFormat" ? `-R ${a.relFormat}` : flagOf(m);
  }
  return null;
}

function checkFill(a: CliArgs): void {
  needs(a, "fill");
  if (a.fill === undefined || a.help || a.version) return;
  const other = givenMode(a, [
    ...(["qrelsStats", "agreement", "pool", "rbo", "compare", "merge", "fuse", "letor"] as const),
    ...(["explain", "report", "diversity", "relFormat", "manifest", "inputFormat", "columns"] as const),
  ]);
  if (other)
    throw usageError(
      `--fill evaluates QRELS RUN [RUN ...] under filled judgments (written as TREC qrels): not with ${other}`,
    );
  if (a.files.length < 2) throw usageError("--fill QRELS_EXTRA reads QRELS RUN [RUN ...]: give QRELS and a RUN");
  if (a.files.slice(1).includes("-"))
    throw usageError("--fill reads each run twice (its holes, then the evaluation): give RUN files, not -");
}

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

/** --rollup and --drop-self prepare the runs of QRELS RUN [RUN ...] (and --compare, --explain, --report on them). */
function checkPreparations(a: CliArgs): void {
  needs(a, "rollup");
  const asked = givenMode(a, ["rollup", "dropSelf"]);
  if (asked === null) return;
  const other = givenMode(a, ["fuse", "letor", "diversity", "relFormat", "fill"]);
  if (other)
    throw usageError(
      `${asked} prepares the runs of QRELS RUN [RUN ...] as they are joined to qrels judgments: not with ${other}`,
    );
}

function checkFuse(a: CliArgs): void {
  needs(a, "fuse");
  if (a.fuse === undefined) return;
  const other = givenMode(a, ["merge", "letor", "explain", "report", "perQueryOut"]);
  if (other)
    throw usageError(`--fuse and ${other}: give one of them (--fuse reads RUN RUN [RUN ...], QRELS first to evaluate)`);
}

/** --page [FILE]: an HTML name (not a qrels or run overwritten by a slip), and nothing else. */
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

function checkRbo(a: CliArgs): void {
  needs(a, "rbo");
  if (!a.rbo || a.help || a.version) return;
  if (a.comparisonFormat !== undefined || (a.format !== undefined && a.format !== "trec" && a.format !== "json"))
    throw usageError(
      `--rbo prints trec_eval's text (--format trec, the default) or --format json, not ${a.comparisonFormat ?? a.format}`,
    );
  const taken = (key: keyof CliArgs) =>
    key === "files" || key === "truncated" || OPTION_ROWS.some((r) => r.rbo && r.key === key);
  for (const [key, value] of Object.entries(a) as [keyof CliArgs, unknown][]) {
    if (taken(key) || !given(a, key) || (Array.isArray(value) && !value.length)) continue;
    throw usageError(
      `${flagOf(key)} has no meaning with --rbo (it compares two runs' rankings: no judgments, no measures)`,
    );
  }
  if (a.files.length !== 2)
    throw usageError(
      `--rbo compares two runs: give RUN RUN (got ${a.files.length === 1 ? "one file" : `${a.files.length} files`})`,
    );
}

/** What each mode of judgments' files reads, and the --format values it prints. */
const JUDGMENTS: Readonly<Record<JudgmentsMode, { reads: string; formats: readonly string[]; files: string }>> = {
  qrelsStats: {
    reads: "counts one file's judgments: no runs, no measures",
    formats: ["trec", "json", "csv"],
    files: "QRELS",
  },
  agreement: {
    reads: "compares sets of judgments: no runs, no measures",
    formats: ["trec", "json"],
    files: "QRELS QRELS [QRELS ...]",
  },
  pool: { reads: "pools the runs' documents: no measures", formats: ["json", "qrels"], files: "RUN [RUN ...]" },
  qrelsCompare: {
    reads: "evaluates runs under two sets of judgments",
    formats: ["trec", "json"],
    files: "QRELS_A QRELS_B RUN RUN [RUN ...]",
  },
};

/** --qrels-stats, --agreement, --pool: one of them, their own options only, and their files. */
function checkJudgments(a: CliArgs): void {
  if (!a.qrelsCompare) needs(a, "agreement");
  needs(a, "pool");
  const modes = (Object.keys(JUDGMENTS) as JudgmentsMode[]).filter((m) => given(a, m));
  if (a.poolFormat !== undefined && !modes.includes("pool"))
    throw usageError("--format qrels writes a pool's documents as qrels lines: it needs --pool METHOD RUN [RUN ...]");
  if (!modes.length || a.help || a.version) return;
  const [mode] = modes;
  const flag = flagOf(mode);
  const { reads, formats, files } = JUDGMENTS[mode];
  const format = a.comparisonFormat ?? a.poolFormat ?? a.format;
  if (format !== undefined && !formats.includes(format))
    throw usageError(
      mode === "pool"
        ? `--pool prints qid docid lines (the default), --format qrels or --format json, not ${format}`
        : `${flag} prints trec_eval's text (--format trec, the default) or --format ${formats.slice(1).join(" or ")}, not ${format}`,
    );
  const taken = (key: keyof CliArgs) =>
    key === "files" ||
    key === "truncated" ||
    OPTION_ROWS.some((r) => r.key === (key === "trecThreshold" ? "threshold" : key) && r.judgments?.includes(mode));
  for (const [key, value] of Object.entries(a) as [keyof CliArgs, unknown][]) {
    if (taken(key) || !given(a, key) || (Array.isArray(value) && !value.length)) continue;
    throw usageError(`${flagOf(key)} has no meaning with ${flag} (it ${reads})`);
  }
  const n = a.files.length;
  const got = `got ${n === 0 ? "none" : n === 1 ? "one file" : `${n} files`}`;
  if (mode === "qrelsStats" ? n !== 1 : mode === "agreement" ? n < 2 : mode === "qrelsCompare" ? n < 4 : n < 1)
    throw usageError(`${flag} reads ${files} (${got})`);
}

function checkExplainReport(a: CliArgs): void {
  needs(a, "explain");
  needs(a, "report");
  const mode = givenMode(a, ["explain", "report"]);
  // --qrels-compare's report: checkJudgments has said which options go with it (--format json too).
  if (mode === null || a.qrelsCompare) return;
  if (a.explain !== undefined && a.report !== undefined)
    throw usageError(
      "--explain prints one query's drill-down and --report writes a report: give one of them (the report has drill-downs)",
    );
  if (a.compare)
    throw usageError(
      `${mode} and --compare: give one of them (${mode === "--report" ? "the report has the comparison: give its options (--test, --baseline, ...) without --compare" : "--explain compares the runs' rankings of one query"})`,
    );
  if (a.letor !== undefined) throw usageError(`${mode} takes QRELS RUN [RUN ...], not --letor`);
  if ((a.relFormat ?? "qrels") !== "qrels")
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

/** --compare's options only with --compare (or --report), and none of the evaluation's it cannot honour. */
function checkCompare(a: CliArgs): void {
  if (a.allPairs && a.baseline !== undefined && (a.compare || a.report !== undefined))
    throw usageError("--baseline and --all-pairs: with every pair compared there is no baseline");
  if (a.report !== undefined && !a.compare) {
    if (a.comparisonFormat !== undefined)
      throw usageError(`--format ${a.comparisonFormat} needs --compare (--report writes HTML)`);
    return;
  }
  if (!a.compare) {
    // --seed is the bootstrap interval's too.
    if (a.interval?.method === "bootstrap" && a.seed !== undefined) a.interval = { ...a.interval, seed: a.seed };
    if (a.comparisonFormat !== undefined)
      throw usageError(
        `--format ${a.comparisonFormat} needs --compare (the evaluation's formats are trec, table, json, csv)`,
      );
    needs(a, "compare", a.interval?.method === "bootstrap" ? "seed" : undefined);
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
  if (a.power !== undefined && a.detect === undefined)
    throw usageError("--power is --detect's: give the difference to find (--detect 0.02)");
  if (a.power !== undefined && a.power <= (a.alpha ?? 0.05))
    throw usageError(`--power ${a.power} must be above alpha (${a.alpha ?? 0.05})`);
  if (a.correlation && (a.format === "csv" || a.comparisonFormat === "latex"))
    throw usageError(
      `--correlation prints with --format table, markdown or json, not ${a.comparisonFormat ?? a.format}`,
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
       rankeval --qrels-stats [-l N] [-q] QRELS
       rankeval --agreement [--bins B,B,...] [-l N] [-q] QRELS QRELS [QRELS ...]
       rankeval --pool METHOD [--budget N] [--judged QRELS] RUN [RUN ...]
       rankeval --qrels-compare [-m M] [--bins B,B,...] [-l N] QRELS_A QRELS_B RUN RUN [RUN ...]
       rankeval --fuse METHOD [fuse options] RUN RUN [RUN ...]
       rankeval --fuse METHOD [fuse options] [options] [--compare ...] QRELS RUN RUN [RUN ...]
       rankeval --page [FILE]

Evaluates rankings as trec_eval does, with the same options and measure names, and more.
QRELS, RUN, DATA and PREDICTIONS may be gzipped; - reads standard input.

${optionHelp("main")}

Why a number moved:
${optionHelp("why")}

Comparing runs (--compare): paired tests over the per-query values of each measure, each
run against the baseline; runs named by their files. PER-QUERY: results rankeval wrote
with -q --format json or csv (one or more runs each), compared again without the files.
${optionHelp("compare")}

How alike two runs rank documents (--rbo): rank-biased overlap (RBO_ext, Webber, Moffat and
Zobel 2010) per query, then its mean, as trec_eval -q prints (rbo QID VALUE, rbo all MEAN);
equal scores are ties. Queries of one run only score 0.
${optionHelp("rbo")}

Judgments: what a qrels file holds (--qrels-stats), how sets of judgments agree
(--agreement: assessors, or people and a model), and which documents to judge next (--pool),
from files in any format a QRELS or RUN may be. Values as trec_eval -q prints them
(NAME all VALUE), or the library's object with --format json. --fill evaluates runs as
QRELS RUN [RUN ...] does, under judgments whose holes another set's labels fill.
${optionHelp("judgments")}

Fusing runs (--fuse METHOD): ranx's methods (rrf, isr, log_isr, logn_isr, bordafuse, condorcet,
max, min, med, sum, anz, mnz, gmnz, wsum, wmnz, mixed, rbc, ...) on ranx's definitions. The fused run
is written as TREC text (ranks from 1 by descending score, ties by document id descending, as
trec_eval orders them); with QRELS first (its lines of four fields, or any evaluation option given)
it is evaluated first beside its inputs, and --compare compares it with each of them.
${optionHelp("fuse")}

Several RUN files: side by side in a table; in trec_eval's text, each after a line
==> RUN <== (as head prints several files).

Exit status: 0 success, 1 usage, 2 bad input (a file), 70 internal error or out of
memory, 74 the output could not be written; a closed output (| head) ends it quietly.`;

/** The options that set how rows are evaluated (per-query results cannot take them), with their flags. */
export const EVALUATION_OPTIONS: readonly [keyof CliArgs, string][] = OPTION_ROWS.filter((r) => r.rows).map((r) => [
  r.key,
  flagOf(r.key),
]);
