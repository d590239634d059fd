/**
 * rankeval's deliberate divergences from trec_eval 10, as the differential test checks them. Every
 * other difference in stdout or in success/failure is a bug. Each entry says when it applies (from the
 * case alone, read as trec_eval reads its files), why rankeval differs, the row it has in the
 * README's divergence table, and how such a case must compare instead:
 *  - "rankeval-fails": rankeval must exit non-zero (whatever trec_eval does);
 *  - "rankeval-succeeds": rankeval must exit 0 (trec_eval's output is undefined or lost there: nothing
 *    to compare), unless trec_eval refuses the command line or the files (exit 1 or 2) before
 *    evaluating anything, where rankeval must fail too;
 *  - "not-compared": either may happen (trec_eval refuses what rankeval reads as its own);
 *  - "trec_eval-on": rankeval must print what trec_eval prints for another case (the same case
 *    without what rankeval reads differently), e.g. without the judged queries absent from the run;
 *    `trecOutput` / `rankevalOutput` take from either output the lines the other case adds or lacks.
 */
import type { Case, Option } from "./generate.js";

export interface Divergence {
  readonly name: string;
  /** Why rankeval does otherwise. */
  readonly reason: string;
  /** The README divergence table's row: what trec_eval does | what rankeval does. */
  readonly readme: readonly [string, string];
  readonly applies: (c: Case) => boolean;
  readonly expect:
    | { readonly kind: "rankeval-fails" }
    | { readonly kind: "rankeval-succeeds" }
    | { readonly kind: "not-compared" }
    | {
        readonly kind: "trec_eval-on";
        readonly transform: (c: Case) => Case;
        readonly trecOutput?: (stdout: string, original: Case) => string;
        readonly rankevalOutput?: (stdout: string, original: Case) => string;
      };
}

// ---- The case as trec_eval reads it (get_qrels.c, get_trec_results.c) ----

/** C's isspace in the C locale. */
const isSpace = (ch: string) => ch === " " || ch === "\t" || ch === "\n" || ch === "\v" || ch === "\f" || ch === "\r";

function fields(line: string): string[] {
  const out: string[] = [];
  let f = "";
  for (const ch of line) {
    if (isSpace(ch)) {
      if (f) out.push(f);
      f = "";
    } else f += ch;
  }
  if (f) out.push(f);
  return out;
}

const BOM = "\u00ef\u00bb\u00bf"; // the UTF-8 BOM's bytes, as the latin1 text of a case holds them

/** Lines without their line ends (a final line without one included). */
function lines(text: string): string[] {
  const all = text.split("\n");
  if (all[all.length - 1] === "") all.pop();
  return all;
}

interface Row {
  qid: string;
  docno: string;
  value: string;
}

/** The qrels' data lines (not blank, not '#' comments), as [qid, docno, rel text]. */
function qrelsRows(c: Case): Row[] {
  return lines(stripBom(c.qrels))
    .filter((l) => !l.startsWith("#") && fields(l).length > 0)
    .map((l) => fields(l))
    .filter((f) => f.length === 4)
    .map((f) => ({ qid: f[0], docno: f[2], value: f[3] }));
}

/** The run's data lines, as [qid, docno, score text]. */
function runRows(c: Case): Row[] {
  return lines(stripBom(c.run))
    .map((l) => fields(l))
    .filter((f) => f.length >= 6 && !f[0].startsWith("#"))
    .map((f) => ({ qid: f[0], docno: f[2], value: f[4] }));
}

function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(BOM.length) : text;
}

/** Whether a string of latin1 characters (a file's bytes) is valid UTF-8. */
function isUtf8(latin1: string): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(latin1, "latin1"));
    return true;
  } catch {
    return false;
  }
}

/** C's atol: the leading [+-]digits after blanks, 0 if none (the labels here are far from overflow). */
function atol(s: string): number {
  const m = /^[\t\n\v\f\r ]*([+-]?\d+)/.exec(s);
  return m ? Number(m[1]) : 0;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The options as getopt reads them: flags set, -m arguments. */
function readOptions(c: Case): { complete: boolean; measures: string[] } {
  let complete = false;
  const measures: string[] = [];
  const all: Option[] = [...c.options, ...c.after];
  for (const o of all) {
    const t = o[0];
    if (t === "--complete_rel_info_wanted") complete = true;
    else if (t.startsWith("--measure")) measures.push(t.includes("=") ? t.slice(t.indexOf("=") + 1) : o[1]);
    else if (/^-[qcJn]+$/.test(t) && t.includes("c")) complete = true;
    else if (t === "-m") measures.push(o[1]);
    else if (t.startsWith("-m")) measures.push(t.slice(2));
  }
  return { complete, measures };
}

/** The measure names (the part before the first '.') and nicknames of the -m arguments. */
function measureNames(c: Case): string[] {
  return readOptions(c).measures.map((m) => m.split(".")[0]);
}

/** The names of trec_eval's measures and nicknames (measures.c), those rankeval does not read included. */
const TREC_NAMES = new Set([
  "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall",
  "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "binG", "G", "dcg", "ideal_dcg",
  "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P", "set_relative_P", "set_recall",
  "set_map", "set_F", "num_nonrel_judged_ret", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
  "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
  "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg",
  "yaap", "rbp", "rbp_resid", "unj", "official", "all_trec", "set", "all_prefs", "prefs", "qrels_jg",
]);

/** Measures each nickname marks (measures.c). */
const NICKNAME_HAS: Record<string, readonly string[]> = {
  all_trec: ["rbp", "num_nonrel_judged_ret", "ndcg"],
};

/** Whether the case asks for trec_eval measure `name` (by name or through a nickname). */
function asks(c: Case, name: string): boolean {
  return measureNames(c).some((m) => m === name || (NICKNAME_HAS[m] ?? []).includes(name));
}

/** Lines of trec_eval's output for `name` (exactly, or with its parameters: name_...). */
function withoutLines(stdout: string, name: string): string {
  return stdout
    .split("\n")
    .filter((l) => {
      const n = l.split("\t")[0].trimEnd();
      return !(n === name || n.startsWith(`${name}_`));
    })
    .join("\n");
}

/** The qids trec_eval evaluates: judged ones in the run, or every judged one with -c. */
function evaluatedQids(c: Case): Set<string> {
  const judged = new Set(qrelsRows(c).map((r) => r.qid));
  const ranked = new Set(runRows(c).map((r) => r.qid));
  const { complete } = readOptions(c);
  return new Set([...judged].filter((q) => complete || ranked.has(q)));
}

function hasDuplicate(rows: Row[], evaluated: Set<string>): boolean {
  const seen = new Set<string>();
  for (const r of rows) {
    if (!evaluated.has(r.qid)) continue;
    const key = `${r.qid}\u0000${r.docno}`;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/** The -m arguments whose parameters trec_eval reads: the first with parameters for each measure name. */
function firstParameters(c: Case): string[] {
  const seen = new Set<string>();
  return readOptions(c).measures.filter((m) => {
    const dot = m.indexOf(".");
    if (dot < 0 || seen.has(m.slice(0, dot))) return false;
    seen.add(m.slice(0, dot));
    return true;
  });
}

/** The measures of other judgment formats (-R prefs, qrels_jg), which both refuse here. */
const OTHER_FORMATS = new Set([
  "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
  "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp",
  "prefs_pair_imp", "prefs_avgjg_imp", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "all_prefs", "prefs", "qrels_jg",
]);

/** Whether the case asks for a measure both refuse: another judgment format's, or utility with other than 4 coefficients. */
function refusedMeasure(c: Case): boolean {
  if (measureNames(c).some((name) => OTHER_FORMATS.has(name))) return true;
  // trec_eval reads the first parameters given for utility only.
  const utility = firstParameters(c).find((m) => m.split(".")[0] === "utility");
  return utility !== undefined && utility.slice(utility.indexOf(".") + 1).split(",").length !== 4;
}

/** Whether an option asks for measure `name` (with or without parameters). */
function isMeasure(o: Option, name: string): boolean {
  const t = o.join(" ");
  const m = /^(?:-m ?|--measure[= ])(.*)$/.exec(t);
  return m !== null && m[1].split(".")[0] === name;
}

/** Long-cutoff measures, whose parameters trec_eval reads with atol. */
const LONG_CUTOFF = new Set(["P", "recall", "ndcg_cut", "map_cut", "relative_P", "success", "unj"]);

export const DIVERGENCES: readonly Divergence[] = [
  {
    // First: the other transforms read the files without it.
    name: "byte-order mark",
    reason: "trec_eval reads a UTF-8 byte-order mark as part of the first query id; rankeval skips it, as text tools do.",
    readme: ["a UTF-8 byte-order mark is part of the first qid", "skipped"],
    applies: (c) => c.qrels.startsWith(BOM) || c.run.startsWith(BOM),
    expect: { kind: "trec_eval-on", transform: (c) => ({ ...c, qrels: stripBom(c.qrels), run: stripBom(c.run) }) },
  },
  {
    name: "judged query absent from the run",
    reason:
      "trec_eval 10 exits 4 ('result qid not found in qrels', nothing printed) for a judged query the run lacks, unless -c; " +
      "trec_eval 9 and pytrec_eval skip it. rankeval leaves it out with a warning naming it (-c counts it, as trec_eval).",
    readme: ["exits 4 when a judged query is absent from the run (without -c)", "leaves the query out with a warning, as trec_eval 9; -c counts it as trec_eval does"],
    applies: (c) => {
      if (readOptions(c).complete) return false;
      const ranked = new Set(runRows(c).map((r) => r.qid));
      return qrelsRows(c).some((r) => !ranked.has(r.qid));
    },
    expect: {
      kind: "trec_eval-on",
      transform: (c) => {
        const ranked = new Set(runRows(c).map((r) => r.qid));
        // Comment lines go too: one left last, or two brought together, would crash trec_eval.
        const kept = lines(c.qrels).filter((l, i) => {
          const f = fields(i === 0 ? stripBom(l) : l);
          return !l.startsWith("#") && (f.length !== 4 || ranked.has(f[0]));
        });
        return { ...c, qrels: kept.map((l) => `${l}\n`).join("") };
      },
    },
  },
  {
    name: "blank or repeated comment lines in the qrels",
    reason:
      "trec_eval 10 stops at a blank qrels line ('Malformed line', exit 2), reads the second of two '#' lines in a row as data, " +
      "and crashes on a '#' line at the end. rankeval skips blank lines and every '#' line in both files.",
    readme: ["qrels: a blank line is an error; a second '#' line in a row is read as data; a '#' last line crashes", "blank and '#' lines are skipped"],
    applies: (c) => {
      const ls = lines(stripBom(c.qrels));
      return ls.some((l, i) => fields(l).length === 0 || (l.startsWith("#") && (i + 1 === ls.length || ls[i + 1].startsWith("#"))));
    },
    expect: {
      kind: "trec_eval-on",
      transform: (c) => ({ ...c, qrels: lines(c.qrels).filter((l) => fields(l).length > 0 && !l.startsWith("#")).map((l) => `${l}\n`).join("") }),
    },
  },
  {
    name: "a score or label that is not a number",
    reason:
      "trec_eval reads scores with atof and labels with atol: '0.1x' is 0.1, 'x' and '' are 0, 'nan' and 'inf' are taken " +
      "(NaN makes its sort undefined). rankeval stops with an error naming the file and line: a number that is not one is a broken file.",
    readme: ["reads '0.1x' as 0.1 and 'x' as 0 (scores: atof, labels: atol); takes nan and inf", "an error naming the file, line and field"],
    applies: (c) => runRows(c).some((r) => !DECIMAL.test(r.value)) || qrelsRows(c).some((r) => !DECIMAL.test(r.value)),
    expect: { kind: "rankeval-fails" },
  },
  {
    name: "a document twice in a query",
    reason:
      "trec_eval rejects a document judged or ranked twice in a query only when a measure forms that query's ranking, and only " +
      "within the top -M of the ranking. rankeval rejects it in every evaluated query, whatever the measures and -M.",
    readme: ["a document twice in a query is an error only within the top -M, and only when a measure ranks that query", "always an error, naming the file and line"],
    applies: (c) => hasDuplicate(qrelsRows(c), evaluatedQids(c)) || hasDuplicate(runRows(c), evaluatedQids(c)),
    expect: { kind: "rankeval-fails" },
  },
  {
    name: "a query whose every judgment is negative",
    reason:
      "trec_eval reads per-level counts it never set for a query without a judgment >= 0 (form_res_rels.c: num_rel_levels keeps " +
      "the previous query's value), so its numbers are undefined; rankeval evaluates the query (nothing relevant, nothing judged).",
    readme: ["undefined numbers (stale memory) for a query whose judgments are all negative", "evaluated: nothing relevant, nothing judged"],
    applies: (c) => {
      const evaluated = evaluatedQids(c);
      const best = new Map<string, number>();
      for (const r of qrelsRows(c)) if (evaluated.has(r.qid)) best.set(r.qid, Math.max(best.get(r.qid) ?? -Infinity, atol(r.value)));
      return [...best.values()].some((v) => v < 0);
    },
    expect: { kind: "rankeval-succeeds" },
  },
  {
    name: "a query id that is not UTF-8",
    reason:
      "trec_eval prints a query id's bytes as they are; rankeval's text is UTF-8, so a byte sequence that is not UTF-8 " +
      "(a Latin-1 'é') is printed as U+FFFD. Document ids are compared as bytes either way.",
    readme: ["prints query ids' bytes as they are", "query ids are read as UTF-8: bytes that are not print as U+FFFD"],
    applies: (c) => [...qrelsRows(c), ...runRows(c)].some((r) => !isUtf8(r.qid)),
    expect: { kind: "rankeval-succeeds" },
  },
  {
    name: "a run without rankings",
    reason:
      "trec_eval refuses an empty run file but, with -c, evaluates one holding only blank or '#' lines, every judged query " +
      "on its placeholder ranking, with a run tag read from memory it never set. rankeval refuses a run without a ranking line.",
    readme: ["with -c, a run of only blank or '#' lines is evaluated (its run tag read from unset memory)", "an error: the run has no rankings"],
    applies: (c) => runRows(c).length === 0,
    expect: { kind: "rankeval-fails" },
  },
  {
    name: "a measure name that is not trec_eval's",
    reason:
      "trec_eval refuses a measure name it does not have ('illegal measure'); rankeval reads one of its own canonical names " +
      "there (ndcg@10, MAP, P_5) and prints its own table, or refuses it as trec_eval does.",
    readme: ["-m ndcg@10: 'illegal measure'", "rankeval's canonical measure names are read too (its own table)"],
    applies: (c) => measureNames(c).some((m) => !TREC_NAMES.has(m)),
    expect: { kind: "not-compared" },
  },
  {
    name: "parameters shared by dcg, ideal_dcg and ndcg",
    reason:
      "m_ndcg.c gives dcg, ideal_dcg and ndcg one parameter table: asked for together with parameters on any of them, each " +
      "computes with the last one's, and trec_eval then frees the table twice and aborts (its output lost). rankeval " +
      "computes each with its own parameters.",
    readme: ["two of dcg, ideal_dcg, ndcg with parameters on either: crash (double free), output lost", "each computed with its own parameters"],
    applies: (c) => {
      const ms = readOptions(c).measures;
      const family = ["dcg", "ideal_dcg", "ndcg"].filter((n) => asks(c, n));
      return family.length >= 2 && ms.some((m) => family.includes(m.split(".")[0]) && m.includes("."));
    },
    expect: { kind: "rankeval-succeeds" },
  },
  {
    name: "rbp's uninitialised min and max",
    reason:
      "m_rbp.c rescales the gains by min and max it never initialises: they hold what the measure computed before rbp left " +
      "on the stack (set_F's P and R, ndcg's ideal DCG, -1 from iprec_at_recall), so -m set_F -m rbp gives another rbp " +
      "than -m rbp, and other builds others still. rankeval starts both at 0: trec_eval's own number for rbp alone and " +
      "within all_trec (after num_nonrel_judged_ret, which leaves a count and a pointer there). Checked against trec_eval " +
      "with num_nonrel_judged_ret asked for just before rbp (and without yaap, which would come between).",
    readme: ["rbp depends on the measure asked for before it (uninitialised min and max in m_rbp.c)", "rbp as trec_eval gives it alone or in all_trec"],
    applies: (c) => asks(c, "rbp"),
    expect: {
      kind: "trec_eval-on",
      transform: (c) => {
        const options = c.options.filter((o) => !isMeasure(o, "yaap"));
        const after = c.after.filter((o) => !isMeasure(o, "yaap"));
        return asks(c, "num_nonrel_judged_ret") ? { ...c, options, after } : { ...c, options: [["-m", "num_nonrel_judged_ret"], ...options], after };
      },
      trecOutput: (stdout, c) => (asks(c, "num_nonrel_judged_ret") ? stdout : withoutLines(stdout, "num_nonrel_judged_ret")),
      rankevalOutput: (stdout, c) => (asks(c, "yaap") ? withoutLines(stdout, "yaap") : stdout),
    },
  },
  {
    name: "a gain level that is not a number",
    reason:
      "trec_eval ignores a level=gain pair whose level is not an integer (gain_init.c valid_int): 'ndcg.x=2' is ndcg. " +
      "rankeval ignores a decimal level as trec_eval does (saying so) but refuses one that is no number ('x', '1x'): a typo.",
    readme: ["-m ndcg.x=2 is ndcg (the pair ignored)", "an error naming the level (a decimal level, 1.0=2, is ignored as trec_eval does, with a warning)"],
    applies: (c) =>
      firstParameters(c).some((m) => {
        const [name, ...rest] = m.split(".");
        if (!["ndcg", "ndcg_rel", "Rndcg", "G", "dcg", "ideal_dcg"].includes(name)) return false;
        return rest.join(".").split(",").some((pair) => pair.includes("=") && !/^[\t\n\v\f\r ]*[+-]?\d+(\.\d*)?$/.test(pair.slice(0, pair.indexOf("="))));
      }),
    expect: { kind: "rankeval-fails" },
  },
  {
    name: "-n without -q",
    reason: "trec_eval -n without -q prints nothing and exits 0; rankeval says that nothing would be printed (a usage error).",
    readme: ["-n without -q: prints nothing", "a usage error: nothing to print"],
    applies: (c) => {
      const flags = [...c.options, ...c.after].map((o) => o.join(" "));
      const has = (ch: string, long: string) => flags.some((t) => (/^-[qcJn]+$/.test(t) && t.includes(ch)) || t === `--${long}`);
      return has("n", "nosummary") && !has("q", "query_eval_wanted");
    },
    expect: { kind: "rankeval-fails" },
  },
  {
    name: "no query in common under -c",
    reason:
      "trec_eval -c evaluates every judged query, on a placeholder ranking when the run lacks it, even when the run has none " +
      "of them (all zeros); rankeval refuses a run that shares no query with the judgments, -c or not: the wrong files.",
    readme: ["-c with a run sharing no query with the qrels: every query scored 0", "an error: no query in common"],
    applies: (c) => {
      const judged = new Set(qrelsRows(c).map((r) => r.qid));
      const rows = runRows(c);
      return readOptions(c).complete && rows.length > 0 && judged.size > 0 && !rows.some((r) => judged.has(r.qid));
    },
    expect: { kind: "rankeval-fails" },
  },
  {
    name: "a cutoff that is not a number",
    reason:
      "trec_eval reads a cutoff with atol: 'P.1O' (a letter O) is P_1, 'P.5x' is P_5. rankeval refuses it: a typo should not " +
      "quietly change the measure.",
    readme: ["-m P.1O (letter O) is P_1: cutoffs are read with atol", "an error naming the cutoff"],
    applies: (c) =>
      firstParameters(c).some((m) => {
        const dot = m.indexOf(".");
        // rankeval reads a cutoff written as an integer or a decimal (truncated, as atol does).
        return dot > 0 && LONG_CUTOFF.has(m.slice(0, dot)) && m.slice(dot + 1).split(",").some((v) => !/^[+-]?\d+(\.\d*)?$/.test(v));
      }),
    expect: { kind: "rankeval-fails" },
  },
];

export function applicableDivergences(c: Case): Divergence[] {
  // Where both refuse a measure (another judgment format's, utility with other than 4 coefficients),
  // rankeval need not succeed: trec_eval's exit 4 there is no undefined behaviour.
  const refused = refusedMeasure(c);
  return DIVERGENCES.filter((d) => d.applies(c) && !(refused && d.expect.kind === "rankeval-succeeds"));
}
