/**
 * Random small TREC collections and trec_eval command lines, for the differential test against the
 * real trec_eval 10 (test/trec-eval-diff.test.ts, scripts/fuzz-trec-eval.mjs).
 *
 * A case is a qrels text, a run text and a command line. Everything is drawn from a seeded generator
 * (sfc32), so a case is its seed: `generateCase(seed)` gives the same case on every machine. The
 * generator aims at trec_eval's corners rather than at realistic data: few documents per query, ties
 * in score written in several notations, labels negative, zero, graded and (in some cases)
 * fractional, queries on one side only, empty and one-document rankings, qids that sort differently
 * as strings and as numbers, documents judged but never retrieved; and command lines with every
 * option (short, grouped, attached and long spellings, some after the file names), every measure and
 * nickname, and parameterised forms (cutoff lists, duplicates, huge values, gain tables, rbp's p).
 */

/** One option as it is written on the command line: its tokens ("-m", "P.5") stay together when shrinking. */
export type Option = readonly string[];

export interface Case {
  readonly seed: number;
  /** The judgments: qrels, or the format -R names (prefs, qrels_prefs, qrels_jg). */
  readonly qrels: string;
  readonly run: string;
  /** -Z's file (its path is written ZSCORES_PATH in the options). */
  readonly zscores?: string;
  /** Options before the file names. */
  readonly options: readonly Option[];
  /** Options after the file names (GNU getopt permutes them to the front, as rankeval's parser does). */
  readonly after: readonly Option[];
}

/** sfc32 (Chris Doty-Humphrey's small fast counter): 32-bit state words, a full 2^128 cycle. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d = 1;
  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }
  /** A uniform 32-bit unsigned integer. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }
  /** A uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor((this.next() / 4294967296) * n);
  }
  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() / 4294967296 < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  /** An item drawn by weight: [[weight, item], ...]. */
  weighted<T>(items: readonly (readonly [number, T])[]): T {
    let total = 0;
    for (const [w] of items) total += w;
    let x = (this.next() / 4294967296) * total;
    for (const [w, item] of items) {
      x -= w;
      if (x < 0) return item;
    }
    return items[items.length - 1][1];
  }
  /** k distinct items in random order (all of them when k >= length). */
  sample<T>(items: readonly T[], k: number): T[] {
    const a = [...items];
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a.slice(0, Math.min(k, a.length));
  }
}

/** The seed of case i of a run seeded with `base` (so that each case can be re-run alone). */
export function caseSeed(base: number, i: number): number {
  let h = (base ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

// Query ids whose byte order differs from their numeric order, and letters in both cases.
// Written as latin1, so "\u00c3\u00a9" is the UTF-8 of "é" (bytes C3 A9), which sorts after every ASCII
// byte, and "\u00e9" a lone byte E9, which is not UTF-8.
const QIDS = ["1", "2", "9", "10", "100", "09", "301", "a", "B", "b", "q1", "Q1", "x-1", "7a", "\u00c3\u00a91", "q#2"];
/** Not UTF-8 (a deliberate divergence: rankeval prints it as U+FFFD), so rare. */
const LATIN1_QID = "q\u00e9";
// Document ids whose byte order is not their natural order ("D0-9" sorts after "D0-10"), one that
// is a prefix of another, upper and lower case.
const DOCS = [
  "d1",
  "d2",
  "d3",
  "d4",
  "d5",
  "d6",
  "d7",
  "d8",
  "d9",
  "d10",
  "d11",
  "d12",
  "D0-9",
  "D0-10",
  "doc",
  "doc1",
  "A",
  "a",
  "Z9",
  "d#1",
  "\u00c3\u00a9",
];
/** A larger pool, for rankings long enough to reach cutoffs such as 20 and 30. */
const MANY_DOCS = [...DOCS, ...Array.from({ length: 40 }, (_, i) => `x${i}`)];

/** Labels as written in a qrels file: [weight, text]. */
const LABELS: readonly (readonly [number, string])[] = [
  [30, "0"],
  [25, "1"],
  [14, "2"],
  [6, "3"],
  [3, "4"],
  [2, "12"],
  [5, "-1"],
  [3, "-2"],
  [1, "+1"],
  [1, "01"],
];
/** Labels trec_eval reads with atol as something else than their value (used in some cases only). */
const FRACTIONAL_LABELS = ["1.5", "0.5", "2.7", "-0.5", "1e1", "2E0", ".5", "3.0"];

/** Score values (many ties) and the notations C's atof reads them in. */
const SCORES: readonly (readonly [number, readonly string[]])[] = [
  [0, ["0", "-0", "+0", "0.0", "-0.0", "0e5", ".0"]],
  [0.5, ["0.5", ".5", "5e-1", "0.50", "+0.5", "5E-1"]],
  [1, ["1", "1.0", "+1", "1e0", "10e-1", "1."]],
  [1.5, ["1.5", "15e-1", "1.50"]],
  [2, ["2", "2.0", "2e0"]],
  [3, ["3", "3.00"]],
  [-1, ["-1", "-1.0", "-1e0", "-10E-1"]],
  [-0.25, ["-0.25", "-.25", "-25e-2"]],
  [10, ["10", "1e1", "1E1", "10.0"]],
  [0.001, ["0.001", "1e-3", "1E-3", ".001"]],
  [1000, ["1000", "1e3", "1E3", "1000.0"]],
  [0.3, ["0.3", ".3", "3e-1"]],
];

/** Fields atof and atol read a number from that rankeval refuses (a deliberate divergence). */
const NOT_NUMBERS = ["x", "0x10", "1.5x", "inf", "nan", "-", "1,5"];

const SEPARATORS: readonly (readonly [number, string])[] = [
  [80, " "],
  [8, "\t"],
  [6, "  "],
  [3, " \t "],
  [3, "\t\t"],
];

interface Query {
  readonly qid: string;
  /** Documents judged: [docid, label text]. */
  readonly judged: [string, string][];
  /** Documents ranked: [docid, score text]. */
  readonly ranked: [string, string][];
}

/** Lines joined with varied blanks, line ends and (rarely) extra blank or comment lines. */
function writeLines(
  r: Random,
  lines: string[][],
  opts: { crlf: boolean; blankLines: boolean; comments: boolean },
): string {
  const out: string[] = [];
  for (const fields of lines) {
    if (opts.comments && r.chance(0.08)) out.push(r.pick(["# a comment", "#", "#c 1 2 3"]));
    if (opts.blankLines && r.chance(0.06)) out.push(r.pick(["", " ", "\t"]));
    let line = r.chance(0.05) ? r.pick([" ", "\t", "  "]) : "";
    fields.forEach((f, i) => {
      if (i > 0) line += r.weighted(SEPARATORS);
      line += f;
    });
    if (r.chance(0.05)) line += r.pick([" ", "\t", "  "]);
    out.push(line);
  }
  const eol = opts.crlf ? "\r\n" : "\n";
  let text = out.join(eol);
  if (out.length > 0 && !r.chance(0.05)) text += eol; // sometimes no final newline
  return text;
}

function makeQueries(r: Random, fractional: boolean): Query[] {
  const nq = r.weighted([
    [20, 1],
    [30, 2],
    [25, 3],
    [15, 4],
    [10, 5],
  ] as const);
  const qids = r.sample(QIDS, nq);
  if (r.chance(0.01)) qids[0] = LATIN1_QID;
  const long = r.chance(0.08);
  const queries: Query[] = [];
  for (const [n, qid] of qids.entries()) {
    // The first query is on both sides in most cases: a run without rankings is a divergence (not compared).
    const side =
      n === 0 && r.chance(0.9)
        ? "both"
        : r.weighted([
            [70, "both"],
            [15, "qrels"],
            [15, "run"],
          ] as const);
    const pool = long ? r.sample(MANY_DOCS, r.range(20, 45)) : r.sample(DOCS, r.range(2, 12));
    const judged: [string, string][] = [];
    const ranked: [string, string][] = [];
    if (side !== "run") {
      const nj = long
        ? r.range(5, 30)
        : r.weighted([
            [5, 1],
            [30, r.range(2, 5)],
            [25, r.range(5, 10)],
          ] as const);
      const allNegative = r.chance(0.02);
      for (const d of r.sample(pool, nj)) {
        let label = r.weighted(LABELS);
        if (fractional && r.chance(0.25)) label = r.pick(FRACTIONAL_LABELS);
        if (r.chance(0.0005)) label = r.pick(NOT_NUMBERS);
        if (allNegative) label = r.pick(["-1", "-2"]);
        judged.push([d, label]);
      }
      // A query whose judgments are all negative is a divergence (trec_eval's numbers are undefined):
      // only where asked for.
      if (!allNegative && judged.every(([, l]) => l.startsWith("-") && l !== "-0.5") && r.chance(0.8))
        judged[0][1] = "0";
      if (r.chance(0.003) && judged.length > 0) judged.push([judged[0][0], r.weighted(LABELS)]); // a document judged twice
    }
    if (side !== "qrels") {
      const nr = long
        ? r.range(15, 40)
        : r.weighted([
            [12, 1],
            [35, r.range(2, 5)],
            [30, r.range(5, 12)],
          ] as const);
      // Ranked documents: mostly judged ones, some outside the judgments.
      const candidates = r.chance(0.7) ? [...judged.map(([d]) => d), ...r.sample(pool, 3)] : pool;
      const docs = r.sample([...new Set(candidates)], nr);
      const tied = r.chance(0.5); // draw scores from a few values: many ties
      const values = tied ? r.sample(SCORES, r.range(1, 3)) : SCORES;
      for (const d of docs) {
        const [, spellings] = r.pick(values);
        ranked.push([d, r.chance(0.0005) ? r.pick(NOT_NUMBERS) : r.pick(spellings)]);
      }
      if (r.chance(0.003) && ranked.length > 0) ranked.push([ranked[0][0], r.pick(SCORES)[1][0]]); // a document ranked twice
    }
    queries.push({ qid, judged, ranked });
  }
  return queries;
}

function qrelsText(
  r: Random,
  queries: Query[],
  opts: { crlf: boolean; blankLines: boolean; comments: boolean },
): string {
  const lines: string[][] = [];
  for (const q of queries)
    for (const [d, label] of q.judged) lines.push([q.qid, r.pick(["0", "0", "Q0", "1"]), d, label]);
  if (r.chance(0.3)) shuffle(r, lines);
  return writeLines(r, lines, opts);
}

function runText(r: Random, queries: Query[], opts: { crlf: boolean; blankLines: boolean; comments: boolean }): string {
  const lines: string[][] = [];
  const tag = r.pick(["run1", "tagA", "bm25", "x"]);
  const varyTag = r.chance(0.05);
  for (const q of queries) {
    q.ranked.forEach(([d, score], i) => {
      const rank = r.chance(0.9) ? String(i + 1) : r.pick(["0", "-3", "x", "1.5"]);
      const fields = [
        q.qid,
        r.pick(["Q0", "Q0", "0", "q"]),
        d,
        rank,
        score,
        varyTag ? r.pick(["t1", "t2", "t3"]) : tag,
      ];
      if (r.chance(0.03)) fields.push(r.pick(["extra", "x y"]));
      lines.push(fields);
    });
  }
  if (r.chance(0.2)) shuffle(r, lines); // queries scattered through the file
  return writeLines(r, lines, opts);
}

function shuffle<T>(r: Random, a: T[]): void {
  for (let i = a.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
}

// trec_eval 10's measures (measures.c) and nicknames, and yaap, dcg, ideal_dcg which all_trec lacks.
const PLAIN = [
  "runid",
  "num_q",
  "num_ret",
  "num_rel",
  "num_rel_ret",
  "map",
  "gm_map",
  "Rprec",
  "bpref",
  "recip_rank",
  "iprec_at_recall",
  "P",
  "relstring",
  "recall",
  "infAP",
  "gm_bpref",
  "Rprec_mult",
  "utility",
  "11pt_avg",
  "binG",
  "G",
  "dcg",
  "ideal_dcg",
  "ndcg",
  "ndcg_rel",
  "Rndcg",
  "ndcg_cut",
  "map_cut",
  "relative_P",
  "success",
  "set_P",
  "set_relative_P",
  "set_recall",
  "set_map",
  "set_F",
  "num_nonrel_judged_ret",
  "yaap",
  "rbp",
  "rbp_resid",
  "unj",
];
const NICKNAMES = ["official", "all_trec", "set"];
const LONG_CUT = ["P", "recall", "ndcg_cut", "map_cut", "relative_P", "success", "unj"];
const GAIN = ["ndcg", "ndcg_rel", "Rndcg", "G", "dcg", "ideal_dcg"];

function cutoffList(r: Random): string {
  const values = ["1", "2", "3", "5", "10", "20", "100", "1000", "4", "7"];
  // 2147483649 and up sort out of order against small cutoffs (comp_long truncates the difference).
  const odd = [
    "2.5",
    "07",
    "+3",
    "99999999999",
    "2147483648",
    "2147483649",
    "3000000000",
    "4294967301",
    "0",
    "-1",
    "1O",
  ];
  const n = r.weighted([
    [50, 1],
    [35, 2],
    [15, 3],
  ] as const);
  const list: string[] = [];
  for (let i = 0; i < n; i++) list.push(r.chance(0.12) ? r.pick(odd) : r.pick(values));
  if (r.chance(0.05)) list.push(list[0]); // a duplicate: trec_eval's error
  return list.join(",");
}

function doubleList(r: Random, values: readonly string[]): string {
  const n = r.weighted([
    [40, 1],
    [35, 2],
    [25, 3],
  ] as const);
  const list = r.sample(values, n);
  if (r.chance(0.05)) list.push(list[0]);
  return list.join(",");
}

function gainPairs(r: Random): string {
  // "x" is refused (a divergence: trec_eval ignores the pair), so rare; "1.0" is ignored by both.
  const levels = ["0", "1", "2", "3", "4", "-1", "-2", "12", "1.0", "+2", "02", "0", "1", "2"];
  const gains = ["0", "1", "2", "3", "5", "-1", "-2", "0.5", "1.5", "2.5", "10", "0.2", "1.2"];
  const n = r.weighted([
    [45, 1],
    [35, 2],
    [15, 3],
    [5, 4],
  ] as const);
  const pairs: string[] = [];
  for (let i = 0; i < n; i++) pairs.push(`${r.chance(0.01) ? "x" : r.pick(levels)}=${r.pick(gains)}`);
  if (r.chance(0.03)) return r.pick(["1=2=3", "1", ",1=2", "1=2,", "=2", "1=2,,2=3"]); // malformed: trec_eval's error
  return pairs.join(",");
}

/** trec_eval's preference measures (-R prefs, qrels_prefs) and judgment-group ones (-R qrels_jg). */
const PREFS_MEASURES = [
  "prefs_num_prefs_poss",
  "prefs_num_prefs_ful",
  "prefs_num_prefs_ful_ret",
  "prefs_simp",
  "prefs_pair",
  "prefs_avgjg",
  "prefs_avgjg_Rnonrel",
  "prefs_simp_ret",
  "prefs_pair_ret",
  "prefs_avgjg_ret",
  "prefs_avgjg_Rnonrel_ret",
  "prefs_simp_imp",
  "prefs_pair_imp",
  "prefs_avgjg_imp",
];

/** One `-m` argument for a case whose judgments are -R `format`'s. */
function formatMeasure(r: Random, format: "prefs" | "qrels_prefs" | "qrels_jg"): string {
  // Now and then another format's measure (both refuse it) or runid / num_q (which need no judgments).
  const kind = r.weighted([
    [80, "own"],
    [12, "plain"],
    [4, "other"],
  ] as const);
  if (kind === "plain") return r.pick(["runid", "num_q"]);
  if (kind === "other")
    return format === "qrels_jg" ? r.pick(["prefs_simp", "map", "prefs"]) : r.pick(["map_avgjg", "map", "P.5"]);
  if (format !== "qrels_jg") return r.chance(0.2) ? r.pick(["all_prefs", "prefs"]) : r.pick(PREFS_MEASURES);
  switch (
    r.weighted([
      [15, "nick"],
      [20, "map"],
      [30, "P"],
      [30, "Rprec_mult"],
    ] as const)
  ) {
    case "nick":
      return "qrels_jg";
    case "map":
      return "map_avgjg";
    case "P":
      return r.chance(0.4) ? "P_avgjg" : `P_avgjg.${cutoffList(r)}`;
    case "Rprec_mult":
      return r.chance(0.4)
        ? "Rprec_mult_avgjg"
        : `Rprec_mult_avgjg.${doubleList(r, ["0.2", "0.5", "1", "1.5", "2", "0.25", "3", "-1", "0"])}`;
  }
}

/** One `-m` argument. */
function measure(r: Random): string {
  const kind = r.weighted([
    [28, "plain"],
    [6, "nickname"],
    [18, "cut"],
    [6, "double"],
    [4, "utility"],
    [3, "11pt"],
    [3, "relstring"],
    [3, "setF"],
    [14, "gain"],
    [6, "rbp"],
    [1, "unknown"],
    [1, "prefs"],
  ] as const);
  switch (kind) {
    case "plain":
      return r.pick(PLAIN);
    case "nickname":
      return r.pick(NICKNAMES);
    case "cut":
      return `${r.pick(LONG_CUT)}.${cutoffList(r)}`;
    case "double":
      return r.chance(0.5)
        ? `iprec_at_recall.${doubleList(r, ["0", "0.1", ".25", "0.5", "0.75", "1", "1.5", "-0.5", "0.30", "0.05"])}`
        : `Rprec_mult.${doubleList(r, ["0.2", "0.5", "1", "1.5", "2", "0.25", "3", "-1", "0"])}`;
    case "utility": {
      const n = r.weighted([
        [90, 4],
        [5, 3],
        [5, 5],
      ] as const);
      return `utility.${Array.from({ length: n }, () => r.pick(["1", "-1", "0", "2", "0.5", "-2"])).join(",")}`;
    }
    case "11pt":
      return `11pt_avg.${Array.from({ length: r.range(1, 4) }, () => r.pick(["0", "0.2", ".5", "0.8", "1", "0.1", "0.35"])).join(",")}`;
    case "relstring":
      return `relstring.${r.pick(["0", "1", "3", "5", "10", "20", "2.5", "-1"])}`;
    case "setF":
      return `set_F.${r.pick(["0.5", "1", "2", "0", "0.25", "0.5,2"])}`;
    case "gain":
      return `${r.pick(GAIN)}.${gainPairs(r)}`;
    case "rbp": {
      const p = r.pick(["0.5", "0.95", "0.8", "0.9", "0.99"]);
      const extra = r.chance(0.3) ? `,${gainPairs(r)}` : "";
      return `${r.pick(["rbp", "rbp_resid"])}.${r.chance(0.85) ? `p=${p}` : gainPairs(r)}${extra}`;
    }
    case "unknown":
      return r.pick(["foo", "P_5", "ndcg@10", "map.", "MAP"]);
    case "prefs":
      return r.pick(["prefs_simp", "map_avgjg", "P_avgjg", "prefs", "qrels_jg"]);
  }
}

/** The command line's options, in order (`pick` draws one -m argument). */
function options(r: Random, pick: (r: Random) => string = measure): Option[] {
  const opts: Option[] = [];
  const flag = (short: string, long: string) => opts.push(r.chance(0.15) ? [long] : [short]);
  const valued = (short: string, long: string, value: string) => {
    const form = r.weighted([
      [60, "separate"],
      [20, "attached"],
      [10, "long="],
      [10, "long"],
    ] as const);
    if (form === "separate") opts.push([short, value]);
    else if (form === "attached") opts.push([`${short}${value}`]);
    else if (form === "long=") opts.push([`${long}=${value}`]);
    else opts.push([long, value]);
  };
  // -n mostly with -q (without it rankeval refuses to print nothing, a divergence: not compared).
  const noSummary = r.chance(0.08);
  if (r.chance(0.5) || (noSummary && r.chance(0.8))) flag("-q", "--query_eval_wanted");
  if (r.chance(0.25)) flag("-c", "--complete_rel_info_wanted");
  if (r.chance(0.15)) flag("-J", "--Judged_docs_only");
  if (noSummary) flag("-n", "--nosummary");
  if (r.chance(0.2)) valued("-l", "--level_for_rel", r.pick(["0", "2", "3", "-1", "-2", "1.5", "2.9", "1", "02"]));
  if (r.chance(0.15)) valued("-M", "--Max_retrieved_per_topic", r.pick(["0", "1", "2", "3", "1.9", "5", "10", "100"]));
  if (r.chance(0.04)) valued("-N", "--Number_docs_in_coll", r.pick(["0", "100", "50"]));
  const nm = r.weighted([
    [15, 0],
    [45, 1],
    [25, 2],
    [10, 3],
    [5, 5],
  ] as const);
  for (let i = 0; i < nm; i++) {
    const m = pick(r);
    opts.push(
      r.chance(0.06) ? [`--measure=${m}`] : r.chance(0.04) ? ["--measure", m] : r.chance(0.1) ? [`-m${m}`] : ["-m", m],
    );
  }
  // Sometimes flags grouped into one argument, as getopt allows (-qc).
  const flags = opts.filter((o) => o.length === 1 && /^-[qcJn]$/.test(o[0]));
  if (flags.length >= 2 && r.chance(0.3)) {
    const rest = opts.filter((o) => !flags.includes(o));
    return [[`-${flags.map((f) => f[0].slice(1)).join("")}`], ...rest];
  }
  shuffle(r, opts);
  return opts;
}

/** The path a case's -Z option names, replaced by the Z-score file's path when the case runs. */
export const ZSCORES_PATH = "@ZSCORES@";

/** A judgment format other than qrels, for -R. */
type OtherFormat = "prefs" | "qrels_prefs" | "qrels_jg";

/** One option valued as trec_eval's getopt takes it: separate, attached, or the long spelling. */
function valuedOption(r: Random, short: string, long: string, value: string): Option {
  const form = r.weighted([
    [60, "separate"],
    [20, "attached"],
    [10, "long="],
    [10, "long"],
  ] as const);
  if (form === "separate") return [short, value];
  if (form === "attached") return [`${short}${value}`];
  if (form === "long=") return [`${long}=${value}`];
  return [long, value];
}

/** The -m arguments of a list of options (each as trec_eval reads it). */
function measureArgs(opts: readonly Option[]): string[] {
  const out: string[] = [];
  for (const o of opts) {
    const t = o[0];
    if (t.startsWith("--measure")) out.push(t.includes("=") ? t.slice(t.indexOf("=") + 1) : o[1]);
    else if (t === "-m") out.push(o[1]);
    else if (t.startsWith("-m")) out.push(t.slice(2));
  }
  return out;
}

/**
 * A Z-score file for the case's queries and (roughly) its measures' value names: some lines each,
 * means and standard deviations drawn from a few values (0 among them), and, mostly, a last line that
 * sorts after every qid and measure (trec_eval's searches read past their table without it).
 */
function zscoresText(r: Random, qids: readonly string[], measures: readonly string[]): string {
  const names = new Set([
    "map",
    "P_5",
    "P_10",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    "ndcg",
    "num_q",
    "prefs_simp",
    "prefs_pair",
    "map_avgjg",
    "P_avgjg_5",
    "iprec_at_recall_0.00",
    "relstring",
  ]);
  for (const m of measures) {
    const dot = m.indexOf(".");
    const name = dot < 0 ? m : m.slice(0, dot);
    names.add(name);
    if (dot >= 0) names.add(`${name}_${m.slice(dot + 1).split(",")[0]}`);
  }
  const all = [...names];
  const lines: string[] = [];
  for (const q of [...qids, ...(r.chance(0.2) ? [r.pick(QIDS)] : [])]) {
    if (r.chance(0.1)) continue; // a query the file lacks
    for (const name of r.sample(all, r.range(1, all.length))) {
      const mean = r.pick(["0", "0.5", "1", "0.25", "3", "0.1", "-1"]);
      const sd = r.pick(["0.1", "0.5", "1", "0", "2", "-1", "0.25"]);
      lines.push(`${q}${r.weighted(SEPARATORS)}${name}${r.weighted(SEPARATORS)}${mean}${r.weighted(SEPARATORS)}${sd}`);
    }
  }
  shuffle(r, lines);
  if (r.chance(0.95)) lines.push("\u00ef\u00bf\u00bf ~ 0 1"); // U+FFFF and '~': after every qid and measure
  if (lines.length === 0) lines.push(`${r.pick(QIDS)} map 0 1`);
  return lines.map((l) => `${l}\n`).join("");
}

/** -Z and -D, now and then, on a case's options (drawn from their own stream: the rest of the case is unchanged). */
function extraOptions(
  x: Random,
  qids: readonly string[],
  opts: Option[],
  format: "qrels" | OtherFormat,
): { opts: Option[]; zscores?: string } {
  let zscores: string | undefined;
  const out = [...opts];
  if (x.chance(format === "qrels" ? 0.08 : 0.15)) {
    zscores = zscoresText(x, qids, measureArgs(opts));
    out.push(valuedOption(x, "-Z", "--Zscore", ZSCORES_PATH));
  }
  if (x.chance(0.06)) {
    const level = x.pick(["0", "1", "2", "", "0", "3"]);
    // (ASCII ids only: an argument's bytes are its UTF-8, which a Latin-1 or UTF-8 qid's text here is not.)
    const ascii = (q: string) => /^[\x20-\x7e]+$/.test(q);
    const known = qids.filter(ascii);
    const qid = x.chance(0.8) ? (known.length && x.chance(0.9) ? x.pick(known) : x.pick(QIDS.filter(ascii))) : null;
    out.push(valuedOption(x, "-D", "--Debug_level", qid === null ? level || "0" : `${level}.${qid}`));
  }
  if (out.length !== opts.length) shuffle(x, out);
  return { opts: out, ...(zscores !== undefined ? { zscores } : {}) };
}

/**
 * A case whose judgments are in another format (-R): the queries and run as for qrels, the judgments
 * rewritten. qrels_jg and qrels_prefs: a judgment group in the second column, some documents judged
 * by several groups (with other labels); prefs: judgment groups and subgroups over each query's
 * documents, levels mostly consistent within a group (a cycle or a class conflict now and then).
 */
function otherFormatCase(seed: number, r: Random, x: Random, format: OtherFormat): Case {
  const queries = makeQueries(r, r.chance(0.15));
  const crlf = r.chance(0.03);
  const fileOpts = { crlf, blankLines: r.chance(0.03), comments: r.chance(0.04) };
  const lines: string[][] = [];
  for (const q of queries) {
    if (format === "prefs") {
      const docs = [...new Set(q.judged.map(([d]) => d))];
      if (docs.length === 0) continue;
      for (const jg of r.sample(
        ["u1", "u2", "u3", "g"],
        r.weighted([
          [50, 1],
          [35, 2],
          [15, 3],
        ] as const),
      )) {
        const level = new Map(
          docs.map((d) => [d, r.pick(["0", "1", "2", "3", "0.5", "2.5", "10", "4", "1", "0", "3.0", "+2"])]),
        );
        if (r.chance(0.03)) level.set(docs[0], "-1");
        for (const jsg of r.sample(
          ["s1", "s2", "0", "s3"],
          r.weighted([
            [60, 1],
            [30, 2],
            [10, 3],
          ] as const),
        )) {
          for (const d of r.sample(docs, r.range(1, Math.min(docs.length, 6)))) {
            const l = r.chance(0.04) ? r.pick(["0", "1", "5", "2"]) : level.get(d)!;
            lines.push([q.qid, jg, jsg, d, l]);
          }
        }
      }
      continue;
    }
    const groups = format === "qrels_jg" ? ["u1", "u2", "u3", "0"] : ["0", "Q0", "u1", "u2"];
    for (const [d, label] of q.judged) {
      for (const g of r.sample(
        groups,
        r.weighted([
          [70, 1],
          [20, 2],
          [10, 3],
        ] as const),
      ))
        lines.push([q.qid, g, d, g === groups[0] ? label : r.weighted(LABELS)]);
    }
  }
  if (r.chance(0.3)) shuffle(r, lines);
  const qrels = writeLines(r, lines, fileOpts);
  const run = runText(r, queries, { crlf, blankLines: r.chance(0.05), comments: r.chance(0.05) });
  const base = options(r, (rr) => formatMeasure(rr, format));
  base.push(valuedOption(r, "-R", "--Rel_info_format", format));
  shuffle(r, base);
  const { opts, zscores } = extraOptions(
    x,
    queries.map((q) => q.qid),
    base,
    format,
  );
  return { seed, qrels, run, options: opts, after: [], ...(zscores !== undefined ? { zscores } : {}) };
}

/** The case of a seed. */
export function generateCase(seed: number): Case {
  // The judgment format and -Z / -D come from a stream of their own, so that a qrels case without
  // them is the case the seed gave before they were generated.
  const x = new Random((seed ^ 0x6a09e667) >>> 0);
  const format = x.weighted([
    [82, "qrels"],
    [6, "prefs"],
    [5, "qrels_prefs"],
    [7, "qrels_jg"],
  ] as const);
  if (format !== "qrels") return otherFormatCase(seed, new Random(seed), x, format);
  const r = new Random(seed);
  const fractional = r.chance(0.15);
  const queries = makeQueries(r, fractional);
  const crlf = r.chance(0.03);
  const qrels = qrelsText(r, queries, { crlf, blankLines: r.chance(0.03), comments: r.chance(0.04) });
  const run = runText(r, queries, { crlf, blankLines: r.chance(0.05), comments: r.chance(0.05) });
  const bom = "\u00ef\u00bb\u00bf"; // the UTF-8 byte-order mark's bytes (files are written as latin1)
  const withBom = (text: string) => (r.chance(0.01) ? bom + text : text);
  const base = options(r);
  const split = r.chance(0.05) ? r.int(base.length + 1) : base.length;
  const { opts, zscores } = extraOptions(
    x,
    queries.map((q) => q.qid),
    base.slice(0, split),
    "qrels",
  );
  return {
    seed,
    qrels: withBom(qrels),
    run: withBom(run),
    options: opts,
    after: base.slice(split),
    ...(zscores !== undefined ? { zscores } : {}),
  };
}

/** The arguments of a case, with the files' paths (-Z's file at `zscores`). */
export function argv(c: Case, qrels: string, run: string, zscores = "zscores"): string[] {
  return [...c.options.flat(), qrels, run, ...c.after.flat()].map((a) => a.replace(ZSCORES_PATH, zscores));
}
