// The CLI's options, a row each: src/node/args.ts makes the parser, --help and refusals of them. Browser-safe.
import { TESTS, type TestName } from "../compare/tests.js";
import { CORRECTIONS, type Correction } from "../compare/correct.js";
import { atol } from "../c/strings.js";
import { parseGate, type Gate } from "../compare/gate.js";
import { usageError } from "../errors/errors.js";
import { DEFAULT_INTERVAL, type IntervalSettings } from "../pipeline/interval.js";
import type { ColumnNames } from "../io/delimited.js";
import { DEFAULT_COLUMNS } from "../io/column-names.js";
import { REL_FORMATS, type RelFormat } from "../trec/measures.js";
import { INPUT_FORMATS, type InputFormat } from "../input/formats.js";
import { ROLLUP_METHODS, runPreparation, type RollupMethod } from "../pipeline/prepare-run.js";

export interface CliArgs {
  measures: string[];
  perQuery: boolean;
  complete: boolean;
  judgedOnly: boolean;
  noSummary: boolean;
  /** -l as written; trecThreshold as trec_eval reads it (atol). */
  threshold?: number;
  trecThreshold?: number;
  depth?: number;
  numDocs?: number;
  /** Values trec_eval reads otherwise (atol: `-M 1.9` is 1), to say so. */
  truncated: { option: string; text: string; value: number }[];
  relFormat?: RelFormat;
  resultsFormat?: string;
  zscoreFile?: string;
  /** -D N.QID: debug level (no debug output) and the one query evaluated. */
  debugLevel?: number;
  debugQuery?: string;
  /** trec_eval's obsolete -o: a no-op. */
  obsolete?: boolean | string;
  format?: "trec" | "table" | "json" | "csv" | "ndeval";
  diversity: boolean;
  gain?: string;
  noRelevant?: string;
  beyondList?: string;
  ties?: string;
  preset?: string;
  tieRange: boolean;
  interval?: IntervalSettings;
  /** --rollup SEP, --rollup-method M, --drop-self: runPreparation reads them. */
  rollup?: string;
  rollupMethod?: RollupMethod;
  dropSelf?: boolean;
  letor?: string;
  scores?: string;
  query?: string;
  inputFormat?: InputFormat;
  columns?: ColumnNames;
  files: string[];
  perQueryOut?: string;
  manifest?: string;
  /** As given (set by main, for --manifest). */
  command?: readonly string[];
  threads?: number;
  merge?: boolean;
  compare?: boolean;
  tests?: TestName[];
  gates?: Gate[];
  junit?: string;
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
  /** --page [FILE]: write the web page ("-": stdout), nothing else. */
  page?: string;
  correlation?: boolean;
  rbo?: boolean;
  rboP?: number;
  qrelsStats?: boolean;
  agreement?: boolean;
  /** --qrels-compare QRELS_A QRELS_B RUN RUN [RUN ...] */
  qrelsCompare?: boolean;
  /** --agreement's cut points, ascending. */
  bins?: number[];
  /** --pool METHOD, as written (the library reads it). */
  pool?: string;
  budget?: number;
  combine?: "sum" | "max";
  /** --format qrels (--pool's; `format` holds the others). */
  poolFormat?: "qrels";
  /** --pool's QRELS of judgments made already. */
  judged?: string;
  coverageDepth?: number;
  /** --fill QRELS_EXTRA: labels for QRELS's holes. */
  fill?: string;
  fillDepth?: number;
  fuse?: string;
  /** As written; the library checks it. */
  norm?: string;
  /** As written (fuse-command.ts reads them). */
  fuseParams?: [string, string][];
  weights?: number[];
  output?: string;
  tag?: string;
  help: boolean;
  version: boolean;
}

/** The modes of judgments' files (src/node/judgments-command.ts), by their keys. */
export type JudgmentsMode = "qrelsStats" | "agreement" | "pool" | "qrelsCompare";

/** An option's value as its key holds it (`option` as spelled); a usage error if bad. */
type Read = (text: string, option: string, a: CliArgs) => unknown;

/** `key` where not its first long name's camelCased. */
type Row = Omit<OptionRow, "key" | "library" | "page" | "section"> & {
  readonly key?: keyof CliArgs;
  /** true: under `key`. */
  readonly library?: string | true;
  readonly page?: string | true;
};

export interface OptionRow {
  /** Two rows may set one (-o, --Output_old_results_format). */
  readonly key: keyof CliArgs;
  /** Space-separated: one letter, long names (trec_eval's long_options too). */
  readonly names: string;
  /** The value's name in --help; absent: a flag. */
  readonly value?: string;
  readonly read?: Read;
  /** `help`: none, not listed; `label` where not its first name and value. */
  readonly section: Section;
  readonly help?: string;
  readonly label?: string;
  /** The library's option and the page's field that say the same. */
  readonly library?: string;
  readonly page?: string;
  /** The only mode it means something in (default: its section's). */
  readonly needs?: keyof CliArgs;
  /** Sets how rows are evaluated: per-query inputs (--merge) cannot take it. */
  readonly rows?: true;
  /** --rbo takes it. */
  readonly rbo?: true;
  /** Which of --qrels-stats, --agreement and --pool take it. */
  readonly judgments?: readonly JudgmentsMode[];
  /** What it prints where trec_eval's text has no place. */
  readonly beside?: string;
}

const bad = (option: string, text: string, is: string) => usageError(`${option}: "${text}" is not ${is}`);
const num =
  (ok: (n: number) => boolean, is: string): Read =>
  (t, o) => {
    const n = Number(t);
    if (t.trim() === "" || !ok(n)) throw bad(o, t, is);
    return n;
  };
const integer = (lo: number, hi = Infinity, is = `an integer from ${lo} ${hi === Infinity ? "up" : `to ${hi}`}`) =>
  num((n) => Number.isSafeInteger(n) && n >= lo && n <= hi, is);
const unit = (what = "a number") => num((n) => n > 0 && n < 1, `${what} between 0 and 1`);
const choice =
  (values: readonly string[], more = ""): Read =>
  (t, o) => {
    if (!values.includes(t)) throw bad(o, t, `one of ${values.join(", ")}${more}`);
    return t;
  };

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** atol's number ("1.9" is 1), but "x" (0 there) is refused. */
function trecLong(option: string, value: string) {
  const text = value.trim();
  if (!DECIMAL.test(text)) throw bad(option, value, "a number");
  return { exact: Number(text), value: Number(atol(text)) };
}

/** -l, -M, -N: atol's number; `truncated` notes where it differs (the last given). */
const trecNumber =
  (flag: string): Read =>
  (t, o, a) => {
    const { exact, value } = trecLong(o, t);
    if (flag === "-l" && !Number.isFinite(exact)) throw bad(o, t, "a finite number");
    // trec_eval crashes (form_res_rels.c sorts a negative count).
    if (flag === "-M" && value < 0)
      throw usageError(`${o}: "${t}" is negative (trec_eval crashes on it); -M 0 keeps no documents`);
    a.truncated = a.truncated.filter((x) => x.option !== flag);
    if (exact !== value) a.truncated.push({ option: flag, text: t, value });
    if (flag !== "-l") return value;
    a.threshold = exact;
    a.trecThreshold = value;
    return exact;
  };

/** `t`, `bootstrap`, `0.9` or `bootstrap:0.9`. */
function intervalSpec(option: string, value: string): IntervalSettings {
  const [method, level, more] = value.split(":");
  const form = `"t", "bootstrap", a level such as 0.9, or both as bootstrap:0.9`;
  const asLevel = (text: string) => unit("a level")(text, option, undefined!) as number;
  if (more !== undefined) throw bad(option, value, form);
  if (level === undefined && method !== "t" && method !== "bootstrap")
    return { ...DEFAULT_INTERVAL, level: asLevel(method) };
  if (method !== "t" && method !== "bootstrap")
    throw usageError(`${option}: "${method}" is not "t" or "bootstrap" (${form})`);
  return { ...DEFAULT_INTERVAL, method, ...(level === undefined ? {} : { level: asLevel(level) }) };
}

function columns(value: string, option: string, a: CliArgs) {
  const columns: ColumnNames = { ...a.columns };
  for (const part of value.split(",")) {
    const eq = part.indexOf("=");
    const role = part.slice(0, eq).trim();
    const name = part.slice(eq + 1);
    if (eq < 0 || !["qid", "docid", "value", "tag"].includes(role) || name === "")
      throw usageError(
        `${option}: "${part}" is not ROLE=NAME with ROLE one of qid, docid, value, tag (as qid=query_id,docid=doc,value=score)`,
      );
    columns[role as keyof ColumnNames] = name;
  }
  return columns;
}

/** Wrapped as --help's lines (97 characters, indented 20). */
function wrapped(text: string) {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= 77) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.join("\n");
}

const { qid, docid, run, qrels, tag } = DEFAULT_COLUMNS;

const ALL_JUDGMENTS: readonly JudgmentsMode[] = ["qrelsStats", "agreement", "pool", "qrelsCompare"];

/** --bins: ascending finite numbers. */
const cutPoints: Read = (t, o) => {
  const points = t.split(",").map((b) => {
    if (!DECIMAL.test(b.trim()) || !Number.isFinite(Number(b)))
      throw bad(o, b, "a finite number (bins: B,B,... ascending)");
    return Number(b);
  });
  for (let i = 1; i < points.length; i++)
    if (!(points[i] > points[i - 1]))
      throw usageError(`${o}: ${t} does not ascend (${points[i]} after ${points[i - 1]})`);
  return points;
};

type Section = "main" | "why" | "compare" | "rbo" | "judgments" | "fuse" | "hidden";

/** By --help's sections, in order (`hidden`: not listed). */
const OPTION_TABLE: Readonly<Record<Section, Row[]>> = {
  main: [
    {
      key: "measures",
      names: "m measure",
      value: "MEASURE",
      read: (t, _, a) => [...a.measures, t],
      page: true,
      judgments: ["qrelsCompare"],
      help: `a measure to compute; repeatable. trec_eval names (map, P.5,10,
ndcg_cut.10, all_trec, official) or canonical ones (ndcg@10, map, mrr@10).
Default: trec_eval's official set; with --letor: ndcg@1,3,5,10 map mrr.`,
    },
    {
      names: "q per-query query_eval_wanted",
      judgments: ["qrelsStats", "agreement"],
      help: "per-query values too (a table: a row per query and measure)",
    },
    {
      names: "c complete complete_rel_info_wanted",
      library: true,
      rows: true,
      help: "average over every judged query; those missing from the run count 0",
    },
    {
      names: "J judged-only Judged_docs_only",
      library: true,
      rows: true,
      help: "rank only the judged documents (those with a label >= 0)",
    },
    { names: "n no-summary nosummary", help: "no summary: the per-query values only (needs -q)" },
    {
      key: "threshold",
      names: "l level_for_rel",
      value: "N",
      read: trecNumber("-l"),
      library: "relevanceThreshold",
      page: true,
      rows: true,
      judgments: ["qrelsStats", "agreement", "qrelsCompare"],
      help: `a label >= N is relevant (default 1; with trec_eval names, read as
trec_eval does: 1.5 is 1, 0 and negative values allowed)`,
    },
    {
      key: "depth",
      names: "M Max_retrieved_per_topic",
      value: "N",
      read: trecNumber("-M"),
      library: true,
      rows: true,
      judgments: ["pool"],
      help: "keep the top N documents of each ranking (before -J; 1.9 is 1)",
    },
    {
      key: "numDocs",
      names: "N Number_docs_in_coll",
      value: "N",
      read: trecNumber("-N"),
      rows: true,
      help: "documents in the collection (utility's last coefficient; default 0)",
    },
    {
      key: "relFormat",
      names: "R Rel_info_format",
      value: "FORMAT",
      read: choice(REL_FORMATS, " (trec_eval: Illegal rel_format)"),
      help: `the judgments' format, as trec_eval's: qrels (default), prefs,
qrels_prefs (a qrels file read as preferences) or qrels_jg (judgment
groups), with trec_eval's measures over them (-m prefs, qrels_jg, ...)`,
    },
    {
      key: "zscoreFile",
      names: "Z Zscore",
      value: "FILE",
      help: `each value as a Z score against FILE's means and standard deviations
(lines: qid measure mean stddev), as trec_eval -Z`,
    },
    {
      key: "debugLevel",
      names: "D Debug_level",
      value: "N[.QID]",
      // As trec_eval.c get_debug_level_query.
      read: (t, o, a) => {
        const dot = t.indexOf(".");
        const level = dot < 0 ? t : t.slice(0, dot);
        a.debugLevel = level.trim() === "" ? 0 : trecLong(o, level).value;
        a.debugQuery = dot < 0 ? undefined : t.slice(dot + 1);
        return a.debugLevel;
      },
      help: `trec_eval's debug level (its debug output is not printed); .QID
evaluates only that query`,
    },
    {
      names: "format",
      value: "F",
      read: (t, o, a) => {
        a.comparisonFormat = t === "markdown" || t === "latex" ? t : undefined;
        a.poolFormat = t === "qrels" ? t : undefined;
        return a.comparisonFormat || a.poolFormat
          ? undefined
          : choice(
              ["trec", "table", "json", "csv", "ndeval"],
              " (or, with --compare, markdown, latex; with --pool, qrels)",
            )(t, o, a);
      },
      rbo: true,
      judgments: ALL_JUDGMENTS,
      help: `trec (default for trec_eval names), table (default otherwise), json, csv,
ndeval (TREC's diversity evaluation's CSV, for its measures)`,
    },
    {
      names: "diversity",
      help: `QRELS is a subtopic qrels (qid subtopic docno judgment, as TREC's
diversity tasks): alpha-nDCG@20, ERR-IA@20, NRBP, P-IA@20, strec@20, ...
(ndeval's, ir_measures' and rankeval's names). Also when such a measure or
--format ndeval is asked for, or when QRELS judges a document under two
subtopics. Without -m: ndeval's measures, printed as ndeval prints them`,
    },
    {
      names: "gain",
      value: "G",
      library: true,
      page: true,
      rows: true,
      help: "exp or linear (default: linear with trec_eval names, exp otherwise)",
    },
    {
      names: "no-relevant",
      value: "V",
      library: true,
      page: true,
      rows: true,
      help: "a query without relevant documents scores zero (default), one, skip or nan",
    },
    {
      names: "beyond-list",
      value: "V",
      library: true,
      page: true,
      rows: true,
      help: `a cutoff past the ranking: pad (default), clip (read at the list's
length), nan or zero`,
    },
    {
      names: "ties",
      value: "T",
      library: true,
      page: true,
      rows: true,
      help: `equal scores: docid (default; document id descending, as trec_eval),
input (the run's line order for the query: a stable sort by score),
average (the mean over every order of the tied documents: scikit-learn's),
best or worst (higher or lower labels first)`,
    },
    {
      names: "tie-range",
      beside: "[worst, best] beside each value",
      library: true,
      page: true,
      help: `each value's [worst, best] over the orders of tied documents, beside it
(a table by default, or json or csv)`,
    },
    {
      names: "interval",
      beside: "(lo, hi) beside each mean",
      value: "I",
      read: (t, o) => intervalSpec(o, t),
      library: true,
      help: `each mean's interval, (lo, hi) after it (a table by default, or csv; json
has it always): t (Student's, 95%), bootstrap (percentile, seeded by --seed),
a level (0.9), or both (bootstrap:0.9)`,
    },
    {
      names: "rollup",
      value: "SEP",
      read: (t, o) => runPreparation({ rollup: t }, () => o)?.rollup?.separator,
      library: true,
      page: true,
      rows: true,
      help: `roll passages up to documents before the evaluation: a document is a
passage's id cut at the last SEP (--rollup '#': msmarco_doc_00_0#3 is
msmarco_doc_00_0), scored by --rollup-method; the counts on stderr`,
    },
    {
      names: "rollup-method",
      value: "M",
      read: choice(ROLLUP_METHODS),
      needs: "rollup",
      library: true,
      page: true,
      rows: true,
      help: `max (default: MaxP, the best passage's score), sum (the passages'),
first (FirstP: its first passage's, the least number after SEP, as doc#0)`,
    },
    {
      names: "drop-self",
      library: true,
      page: true,
      rows: true,
      help: `leave out each document whose id is its query's (BEIR's ArguAna, Quora),
after --rollup; how many on stderr`,
    },
    {
      names: "preset",
      value: "NAME",
      library: true,
      page: "conventionPreset",
      rows: true,
      help: `another tool's conventions and measure definitions, under the options
given beside it: trec_eval (pytrec_eval, ir_measures), ranx, sklearn,
lightgbm, xgboost, catboost, torchmetrics, ignite, ptranking,
ptranking-tutorial, tfranking, rankeval-default`,
    },
    {
      names: "input-format",
      value: "F",
      read: choice(INPUT_FORMATS),
      library: true,
      rows: true,
      rbo: true,
      judgments: ALL_JUDGMENTS,
      help: `trec, json ({"qid": {"docid": value}}), jsonl (one JSON object a line, as
UMBRELA writes: rows with result_status not 1 are skipped and counted),
csv or tsv (with a header row), parquet or arrow (an IPC file or stream),
for every QRELS and RUN file; msmarco: runs of qid docid rank lines (no
score: ordered by rank), judgments by their name.
Default: from each name (.json, .jsonl, .ndjson, .csv, .tsv, also .gz;
.parquet; .arrow, .feather, .arrows; anything else is TREC text; a .json or
other file whose first line is a JSON object of values is jsonl). A
directory with key=value subdirectories (Hive partitions) or _SUCCESS is one
Parquet or Arrow input. A JSON/CSV/Parquet/Arrow run's tag is its file
name, or its tag column's.`,
    },
    {
      names: "columns",
      value: "qid=Q,docid=D,value=V[,tag=T]",
      read: columns,
      library: true,
      rows: true,
      rbo: true,
      judgments: ALL_JUDGMENTS,
      help: wrapped(
        "the CSV/TSV header, JSON lines field or Parquet/Arrow column names to read. Default: the first present of " +
          `${qid.join(", ")}; ${docid.join(", ")}; ${run.join(", ")} (runs) or ${qrels.join(", ")} (qrels); ` +
          `and ${tag.join(", ")} (a run's tag: Parquet and Arrow only)`,
      ),
    },
    {
      names: "per-query-out",
      value: "FILE",
      help: `every run's per-query values (a row per run and query: run, qid, a column
per value) as Parquet, Arrow (.arrow, .feather; .arrows a stream), CSV or
JSON by FILE's name, the measures and conventions in its metadata`,
    },
    {
      names: "manifest",
      value: "FILE",
      help: `the evaluation's provenance as YAML (ir_metadata's) or JSON by FILE's
name (.yaml, .yml, .json): rankeval's version and command, each input's
name, size, SHA-256 (of its bytes as stored) and format as read, the
measures with their tool and conventions, query counts, warnings`,
    },
    {
      names: "threads",
      value: "N",
      read: integer(1, 256, "a number of threads from 1 to 256"),
      rbo: true,
      help: `N worker threads at most (1: none, all in the main thread). From 4, large
TREC text files are split among them by query, each thread reading, joining
and evaluating its own queries; else they read runs (several at once) and
decode Parquet row groups. Default: one per core up to 4, three of every
four past that (12 of 16). The output is the same with any number.`,
    },
    {
      names: "merge",
      help: `SHARD files are --per-query-out files of one evaluation's shards (disjoint
queries): print the report one process on the whole input prints`,
    },
    {
      names: "page",
      value: "[FILE]",
      help: `write the web page to FILE (default rankeval.html; - standard output), and
nothing else: one HTML file that evaluates in the browser, opened from disk,
offline, or from any web server; the files chosen in it are read there, never
uploaded. Drop a qrels file and runs on it (or LETOR data and predictions)`,
    },
    { names: "h help", label: "-h, --help", help: "this help;  -v, --version  the version" },
  ],
  why: [
    {
      names: "explain",
      value: "QID",
      help: `one query's drill-down instead of the report: each run's ranking side by
side (rank, document, score, label, gain, ties, the rank in the other run,
each measure's running value: its value for the ranking cut there), the
judged documents never retrieved, and the ideal ranking. Default measure:
ndcg_cut.10. --format json for data.`,
    },
    {
      names: "explain-depth",
      value: "N",
      read: integer(1),
      needs: "explain",
      help: "ranks shown (default: the largest cutoff asked, at least 20)",
    },
    {
      names: "report",
      value: "FILE",
      judgments: ["qrelsCompare"],
      help: `one HTML file (inline script and SVG, opens offline): the means with the
comparison's marks (the compare options below set it), the conventions,
charts, the per-query table, and drill-downs of the queries that changed most.
With --qrels-compare: its tables, a scatter of the means and the agreement`,
    },
    {
      names: "report-queries",
      value: "N",
      read: integer(0),
      needs: "report",
      help: "drill-downs in the report (default 50)",
    },
  ],
  compare: [
    {
      key: "tests",
      names: "test",
      value: "T[,T...]",
      read: (t, o, a) => [...(a.tests ?? []), ...t.split(",").map((x) => choice(TESTS)(x, o, a))],
      page: "test",
      help: `t, wilcoxon, sign, randomization, bootstrap, tukey (default t,randomization);
the first named marks the table`,
    },
    {
      names: "baseline",
      value: "RUN",
      page: true,
      help: "the run the others are compared with (default the first)",
    },
    { names: "all-pairs", help: "every pair of runs instead" },
    {
      names: "correction",
      value: "C",
      read: choice(CORRECTIONS),
      page: true,
      help: "holm (default with more than one comparison), bonferroni, bh, none",
    },
    {
      names: "alpha",
      value: "A",
      read: unit(),
      page: true,
      help: "adjusted p below A is significant (default 0.05)",
    },
    {
      key: "gates",
      names: "gate",
      value: "M>=B",
      read: (t, _, a) => [...(a.gates ?? []), parseGate(t)],
      help: `a regression gate: exit 3 where a run's mean on measure M minus the
baseline's is below B (a budget: "ndcg@10>=-0.01") and the drop is
significant (the first test, corrected, at --alpha); prints why as
Markdown after the comparison. Several allowed`,
    },
    { names: "junit", value: "FILE", help: "the gates' verdicts as JUnit XML" },
    {
      names: "permutations",
      value: "B",
      read: integer(1, 10_000_000),
      help: "iterations of randomization, bootstrap and tukey (default 10000)",
    },
    {
      names: "seed",
      value: "S",
      read: integer(0, Number.MAX_SAFE_INTEGER),
      help: "their random stream (default 42: the same seed, the same report)",
    },
    {
      key: "comparisonFormat",
      names: "",
      label: "--format F",
      help: `table (default: runs side by side, then each comparison), markdown,
latex (booktabs), csv, json`,
    },
    {
      names: "detect",
      value: "DELTA",
      read: num((n) => Number.isFinite(n) && n !== 0, "a difference other than 0 (as 0.02)"),
      help: `after the comparison, the queries each pair would need for the paired t-test
to find a difference of DELTA significant (from the pair's sd of differences)`,
    },
    { names: "power", value: "P", read: unit("a probability"), help: "... that often (default 0.8)" },
    {
      names: "correlation",
      help: `after the comparison, how each pair of measures orders the runs: Kendall's
tau_b and tau_AP (each measure of the pair the reference in turn); table,
markdown or json`,
    },
  ],
  rbo: [
    {
      names: "rbo",
      label: "--rbo RUN RUN",
      rbo: true,
      help: `the two runs, in any format a RUN may be (--input-format, --columns);
--format json for data`,
    },
    {
      names: "rbo-p",
      value: "P",
      read: unit(),
      needs: "rbo",
      rbo: true,
      help: "the persistence, between 0 and 1 (default 0.9: the top 10 ranks weigh 86%)",
    },
  ],
  judgments: [
    {
      names: "qrels-stats",
      label: "--qrels-stats QRELS",
      judgments: ["qrelsStats"],
      help: `what QRELS holds, as trec_eval prints measures (num_q, num_judged, num_rel
(-l), num_label.L, ...; -q: each query's too); --format json or csv`,
    },
    {
      names: "agreement",
      label: "--agreement QRELS QRELS [QRELS ...]",
      judgments: ["agreement"],
      help: `how the sets of judgments agree on the pairs they share: Cohen's kappa
(unweighted, linear, quadratic), binary kappa (-l), Jaccard, Fleiss' kappa,
Krippendorff's alpha, as trec_eval prints (-q: per query; -nan: undefined,
said on stderr); --format json adds the confusion matrix`,
    },
    {
      names: "bins",
      value: "B,B,...",
      read: cutPoints,
      needs: "agreement",
      judgments: ["agreement", "qrelsCompare"],
      help: `cut points, ascending: labels in [B1, B2) are one category (default: each
distinct label its own), as 0.5,1.5,2.5 for decimal labels of 0-3`,
    },
    {
      names: "qrels-compare",
      label: "--qrels-compare QRELS_A QRELS_B RUN RUN [RUN ...]",
      judgments: ["qrelsCompare"],
      help: `the runs under two sets of judgments: per measure (-m; default ndcg_cut.10
and map) each run's mean under A and B, Kendall's tau and tau_AP between the
two orderings of the systems, then the agreement of A and B as --agreement
prints it (--bins, -l); --format json`,
    },
    {
      names: "pool",
      label: "--pool METHOD RUN [RUN ...]",
      value: "METHOD",
      read: (t, o) => {
        if (!/^(depth|rbp|rrf)(:.*)?$/.test(t)) throw bad(o, t, "depth:K, rbp:P or rrf:K");
        return t;
      },
      judgments: ["pool"],
      help: `the documents to judge: depth:K (every run's top K), rbp:P or rrf:K (the
--budget documents of highest rank-biased precision or reciprocal rank
weight, summed over the runs). Lines qid docid, or --format qrels (qid 0
docid -1) or json; each run's coverage on stderr. -M N reads each run's top N`,
    },
    {
      names: "budget",
      value: "N",
      read: integer(1),
      needs: "pool",
      judgments: ["pool"],
      help: "documents pooled per query (rbp and rrf; with --judged, new ones)",
    },
    {
      names: "combine",
      value: "HOW",
      read: choice(["sum", "max"]),
      needs: "pool",
      judgments: ["pool"],
      help: "a document's weight over the runs: sum (default) or max",
    },
    {
      names: "judged",
      value: "QRELS",
      needs: "pool",
      judgments: ["pool"],
      help: "judgments made already: their documents are not pooled, and count as covered",
    },
    {
      key: "poolFormat",
      names: "",
      label: "--format qrels",
      judgments: ["pool"],
      help: "the pool as qrels lines: qid 0 docid -1 (-1: not judged yet, as -J reads it)",
    },
    {
      names: "coverage-depth",
      value: "N",
      read: integer(1),
      needs: "pool",
      judgments: ["pool"],
      help: "the coverage is of each run's top N (default K of depth:K, else 10)",
    },
    {
      names: "fill",
      label: "--fill QRELS_EXTRA QRELS RUN [RUN ...]",
      value: "QRELS_EXTRA",
      help: `evaluate as QRELS RUN [RUN ...] does, under QRELS with QRELS_EXTRA's labels
(as an LLM's) where QRELS has none, for the queries QRELS judges; on stderr,
each run's holes in its top --fill-depth: under QRELS, filled, remaining`,
    },
    {
      names: "fill-depth",
      value: "N",
      read: integer(1),
      needs: "fill",
      help: "--fill counts holes in each run's top N (default 10)",
    },
  ],
  fuse: [
    {
      names: "norm",
      value: "N",
      page: "fuseNorm",
      help: `each run's scores normalised first: min-max (default, as ranx), min-max-inverted,
max, sum, zmuv, rank, borda, or none`,
    },
    {
      key: "fuseParams",
      names: "fuse-param",
      value: "P=V",
      read: (t, o, a) => {
        const eq = t.indexOf("=");
        if (eq <= 0) throw bad(o, t, "NAME=VALUE (as k=60)");
        return [...(a.fuseParams ?? []), [t.slice(0, eq), t.slice(eq + 1)]];
      },
      help: `a parameter of the method (k=60 for rrf, phi=0.8 for rbc; a list as 1,2,3;
JSON as probs=[[0.4,0.2],[0.5,0.1]], a learned method's); repeatable`,
    },
    {
      names: "weights",
      value: "W,W,...",
      read: (t, o) =>
        t.split(",").map((w) => {
          if (!DECIMAL.test(w.trim()) || !Number.isFinite(Number(w)))
            throw bad(o, w, "a finite number (weights: W,W,... a run each)");
          return Number(w);
        }),
      help: "a weight per run (wsum, wmnz, weighted_bordafuse, ...)",
    },
    {
      names: "output",
      value: "FILE",
      help: `the fused run written to FILE (default standard output; with QRELS, the
evaluation's name for it)`,
    },
    { names: "tag", value: "TAG", help: "the fused run's tag (default the method's name)" },
  ],
  hidden: [
    { names: "v version" },
    { key: "obsolete", names: "o" },
    // Takes a value in trec_eval's long_options, unlike -o; ignored too.
    { key: "obsolete", names: "Output_old_results_format", value: "X" },
    {
      key: "resultsFormat",
      names: "T Results_format",
      value: "FORMAT",
      read: (t, o) => {
        if (t !== "trec_results")
          throw usageError(`${o}: rankeval reads runs as trec_results only (trec_eval's -T ${t} is not supported)`);
      },
    },
    { names: "letor", value: "DATA", page: true },
    { names: "scores", value: "PREDICTIONS", page: true },
    { names: "query group", value: "GROUPS", page: true },
    { names: "compare" },
    { names: "fuse", value: "METHOD", page: true },
  ],
};

const camel = (name: string) => name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

export const OPTION_ROWS: readonly OptionRow[] = Object.entries(OPTION_TABLE).flatMap(([section, rows]) =>
  rows.map((r) => {
    const key = r.key ?? (camel(r.names.split(" ").find((n) => n.length > 1)!) as keyof CliArgs);
    const needs = r.needs ?? (section === "compare" || section === "fuse" ? section : undefined);
    return {
      ...r,
      key,
      section: section as Section,
      library: r.library === true ? key : r.library,
      page: r.page === true ? key : r.page,
      needs,
    };
  }),
);

export const OPTION_NAMES: ReadonlyMap<string, OptionRow> = new Map(
  OPTION_ROWS.flatMap((r) => r.names.split(" ").map((n) => [n, r] as const)).filter(([n]) => n !== ""),
);

/** `key`'s option as messages name it: `-q`, else the first long name. */
export function flagOf(key: keyof CliArgs) {
  const names = OPTION_ROWS.filter((r) => r.key === key).flatMap((r) => r.names.split(" "));
  const short = names.find((n) => n.length === 1);
  return short ? `-${short}` : `--${names[0] || key}`;
}

/** `-m MEASURE`, `--fuse METHOD`. */
export function labelOf(r: OptionRow) {
  const [first] = r.names.split(" ");
  return r.label ?? `${first.length === 1 ? "-" : "--"}${first}${r.value ? ` ${r.value}` : ""}`;
}

export function optionHelp(section: Section) {
  const indent = `\n${" ".repeat(20)}`;
  return OPTION_ROWS.filter((r) => r.section === section && r.help)
    .map((r) => {
      const label = labelOf(r);
      // A longer label puts its help on the next line.
      const head = label.length < 18 ? label.padEnd(18) : label.length === 18 ? `${label}  ` : label + indent;
      return `  ${head}${r.help!.replaceAll("\n", indent)}`;
    })
    .join("\n");
}
