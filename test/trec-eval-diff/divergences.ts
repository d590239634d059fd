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
 *  - "same-status": both succeed or both fail, their stdout not compared (it differs in a known way);
 *  - "trec_eval-on": rankeval must print what trec_eval prints for another case (the same case
 *    without what rankeval reads differently), e.g. without the judged queries absent from the run;
 *    `trecOutput` / `rankevalOutput` take from either output the lines the other case adds or lacks.
 */
import { plan } from "../../src/app/plan.js";
import { trecLines, type RelFormat } from "../../src/trec/measures.js";
import { zscoreLookup, zscoreTable } from "../../src/trec/zscore-lookup.js";
import { ZscoresParser } from "../../src/io/zscores.js";
import { SubtopicShape } from "../../src/pipeline/join-subtopics.js";
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
    | { readonly kind: "same-status" }
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

/** The judgments' format (-R, the last given: getopt overwrites it), qrels by default. */
function relFormat(c: Case): RelFormat {
  let format: RelFormat = "qrels";
  for (const o of [...c.options, ...c.after]) {
    const t = o[0];
    if (t === "-R" || t === "--Rel_info_format") format = o[1] as RelFormat;
    else if (t.startsWith("--Rel_info_format=")) format = t.slice("--Rel_info_format=".length) as RelFormat;
    else if (/^-R./.test(t)) format = t.slice(2) as RelFormat;
  }
  return format;
}

/** The fields of a judgments line in the case's format: 5 for prefs, else 4. */
const judgmentFields = (c: Case) => (relFormat(c) === "prefs" ? 5 : 4);

/** The judgments' data lines (not blank, not '#' comments), as [qid, docno, rel text]. */
function qrelsRows(c: Case): Row[] {
  const n = judgmentFields(c);
  return lines(stripBom(c.qrels))
    .filter((l) => !l.startsWith("#") && fields(l).length > 0)
    .map((l) => fields(l))
    .filter((f) => f.length === n)
    .map((f) => ({ qid: f[0], docno: f[n - 2], value: f[n - 1] }));
}

/** -D's query (the last -D given), or undefined: trec_eval evaluates only that one. */
function debugOption(c: Case): { level: number; query?: string } | undefined {
  let out: { level: number; query?: string } | undefined;
  for (const o of [...c.options, ...c.after]) {
    const t = o[0];
    let v: string | undefined;
    if (t === "-D" || t === "--Debug_level") v = o[1];
    else if (t.startsWith("--Debug_level=")) v = t.slice("--Debug_level=".length);
    else if (/^-D./.test(t)) v = t.slice(2);
    if (v === undefined) continue;
    const dot = v.indexOf(".");
    out = { level: atol(dot < 0 ? v : v.slice(0, dot)), ...(dot < 0 ? {} : { query: v.slice(dot + 1) }) };
  }
  return out;
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
  "map_avgjg",
  "P_avgjg",
  "Rprec_mult_avgjg",
  "yaap",
  "rbp",
  "rbp_resid",
  "unj",
  "official",
  "all_trec",
  "set",
  "all_prefs",
  "prefs",
  "qrels_jg",
]);

/** Measures each nickname marks (measures.c). */
const NICKNAME_HAS: Record<string, readonly string[]> = {
  all_trec: ["rbp", "num_nonrel_judged_ret", "ndcg"],
};

/** Whether the case asks for trec_eval measure `name` (by name or through a nickname). */
function asks(c: Case, name: string): boolean {
  return measureNames(c).some((m) => m === name || (NICKNAME_HAS[m] ?? []).includes(name));
}

/** Lines of trec_eval's output for `name` (exactly, or with its parameters: name_...; under -Z, Z before it). */
function withoutLines(stdout: string, name: string): string {
  return stdout
    .split("\n")
    .filter((l) => {
      const n = l.split("\t")[0].trimEnd();
      return ![name, `Z${name}`].some((x) => n === x || n.startsWith(`${x}_`));
    })
    .join("\n");
}

/** The qids joined to the run: judged ones in the run, or every judged one with -c (rankeval evaluates these). */
function joinedQids(c: Case): Set<string> {
  const judged = new Set(qrelsRows(c).map((r) => r.qid));
  const ranked = new Set(runRows(c).map((r) => r.qid));
  const { complete } = readOptions(c);
  return new Set([...judged].filter((q) => complete || ranked.has(q)));
}

/** The qids trec_eval evaluates: the joined ones, or only -D's query. */
function evaluatedQids(c: Case): Set<string> {
  const joined = joinedQids(c);
  const d = debugOption(c)?.query;
  return d === undefined ? joined : new Set([...joined].filter((q) => q === d));
}

/** A qrels_jg line (qid jg docno rel) whose qid, group and document an earlier line has. */
function hasGroupDuplicate(c: Case): boolean {
  const seen = new Set<string>();
  for (const l of lines(stripBom(c.qrels))) {
    const f = fields(l);
    if (l.startsWith("#") || f.length !== 4) continue;
    const key = f.slice(0, 3).join("\u0000");
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
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

/** The judgments each measure or nickname reads when not qrels (runid and num_q read none). */
const NEEDS_FORMAT: Record<string, string> = Object.fromEntries([
  ...[
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
    "all_prefs",
    "prefs",
  ].map((n) => [n, "prefs"]),
  ...["map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "qrels_jg"].map((n) => [n, "qrels_jg"]),
]);

/** Whether a measure reads other judgments than the case's -R gives (both refuse: trec_eval exits 4). */
function wrongFormat(c: Case): boolean {
  const f = relFormat(c);
  const given = f === "qrels_prefs" ? "prefs" : f;
  const names = measureNames(c);
  return (names.length ? names : ["official"]).some(
    (n) => n !== "runid" && n !== "num_q" && TREC_NAMES.has(n) && (NEEDS_FORMAT[n] ?? "qrels") !== given,
  );
}

/** Whether the case asks for a measure both refuse: another judgment format's, or utility with other than 4 coefficients. */
function refusedMeasure(c: Case): boolean {
  if (wrongFormat(c)) return true;
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
const LONG_CUTOFF = new Set(["P", "recall", "ndcg_cut", "map_cut", "relative_P", "success", "unj", "P_avgjg"]);

/**
 * Whether rankeval reads the case's qrels as subtopic judgments by their shape (src/input/subtopics.ts
 * subtopicShaped: a document of a query judged on two lines under two second columns, a last line
 * without its line end counted too, as readFirstLines gives it), as it does under -R qrels.
 */
function subtopicShaped(c: Case): boolean {
  if (relFormat(c) !== "qrels") return false;
  const text = Buffer.from(c.qrels, "latin1").toString("utf8").split("\n");
  const shape = new SubtopicShape();
  return text.some((line) => shape.line(line));
}

/**
 * A qrels that judges a document of a query under two second columns is a diversity qrels to rankeval
 * (qid subtopic docno judgment: TREC's diversity tasks, ndeval's input), read as such, saying so; its
 * measures are then the diversity evaluation's (ndeval's without -m), so none of trec_eval's other
 * divergences applies.
 */
const SUBTOPIC_QRELS: Divergence = {
  name: "a qrels judging a document under two second columns",
  reason:
    "trec_eval reads the second column of a qrels as an unused iteration number, so a document judged under two of them is " +
    'judged twice (form_res_rels.c: "duplicate docs" once a measure ranks the query). rankeval reads such a file as a ' +
    "subtopic qrels (qid subtopic docno judgment), as TREC's diversity tasks and ndeval write them, says so on stderr, and " +
    "evaluates it as --diversity does.",
  readme: [
    'a qrels judging a document of a query under two second columns: "duplicate docs" (when a measure ranks that query)',
    "read as subtopic judgments (a diversity qrels, --diversity), said on stderr; without -m, ndeval's measures as ndeval prints them",
  ],
  applies: subtopicShaped,
  expect: { kind: "not-compared" },
};

export const DIVERGENCES: readonly Divergence[] = [
  SUBTOPIC_QRELS,
  {
    // First: the other transforms read the files without it.
    name: "byte-order mark",
    reason:
      "trec_eval reads a UTF-8 byte-order mark as part of the first query id; rankeval skips it, as text tools do.",
    readme: ["a UTF-8 byte-order mark is part of the first qid", "skipped"],
    applies: (c) => c.qrels.startsWith(BOM) || c.run.startsWith(BOM),
    expect: { kind: "trec_eval-on", transform: (c) => ({ ...c, qrels: stripBom(c.qrels), run: stripBom(c.run) }) },
  },
  {
    name: "judged query absent from the run",
    reason:
      "trec_eval 10 exits 4 ('result qid not found in qrels', nothing printed) for a judged query the run lacks, unless -c; " +
      "trec_eval 9 and pytrec_eval skip it. rankeval leaves it out with a warning naming it (-c counts it, as trec_eval).",
    readme: [
      "exits 4 when a judged query is absent from the run (without -c)",
      "leaves the query out with a warning, as trec_eval 9; -c counts it as trec_eval does",
    ],
    applies: (c) => {
      if (readOptions(c).complete) return false;
      const ranked = new Set(runRows(c).map((r) => r.qid));
      return qrelsRows(c).some((r) => !ranked.has(r.qid));
    },
    expect: {
      kind: "trec_eval-on",
      transform: (c) => {
        const ranked = new Set(runRows(c).map((r) => r.qid));
        const n = judgmentFields(c);
        // Comment lines go too: one left last, or two brought together, would crash trec_eval.
        const kept = lines(c.qrels).filter((l, i) => {
          const f = fields(i === 0 ? stripBom(l) : l);
          return !l.startsWith("#") && (f.length !== n || ranked.has(f[0]));
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
    readme: [
      "qrels: a blank line is an error; a second '#' line in a row is read as data; a '#' last line crashes",
      "blank and '#' lines are skipped",
    ],
    applies: (c) => {
      const ls = lines(stripBom(c.qrels));
      return ls.some(
        (l, i) => fields(l).length === 0 || (l.startsWith("#") && (i + 1 === ls.length || ls[i + 1].startsWith("#"))),
      );
    },
    expect: {
      kind: "trec_eval-on",
      transform: (c) => ({
        ...c,
        qrels: lines(c.qrels)
          .filter((l) => fields(l).length > 0 && !l.startsWith("#"))
          .map((l) => `${l}\n`)
          .join(""),
      }),
    },
  },
  {
    name: "a score or label that is not a number",
    reason:
      "trec_eval reads scores with atof and labels with atol: '0.1x' is 0.1, 'x' and '' are 0, 'nan' and 'inf' are taken " +
      "(NaN makes its sort undefined). rankeval stops with an error naming the file and line: a number that is not one is a broken file.",
    readme: [
      "reads '0.1x' as 0.1 and 'x' as 0 (scores: atof, labels: atol); takes nan and inf",
      "an error naming the file, line and field",
    ],
    applies: (c) => runRows(c).some((r) => !DECIMAL.test(r.value)) || qrelsRows(c).some((r) => !DECIMAL.test(r.value)),
    expect: { kind: "rankeval-fails" },
  },
  {
    name: "a document twice in a query",
    reason:
      "trec_eval rejects a document judged or ranked twice in a query only when a measure forms that query's ranking, and only " +
      "within the top -M of the ranking. rankeval rejects it in every evaluated query, whatever the measures and -M.",
    readme: [
      "a document twice in a query is an error only within the top -M, and only when a measure ranks that query",
      "always an error, naming the file and line",
    ],
    // (prefs and qrels_prefs judge a document on several lines. A qrels_jg file with a document judged
    // twice by one group is refused by both, in any query (get_qrels_jg.c), but trec_eval may be run
    // on a file without the queries the run lacks (the divergence on those), so it is listed here.)
    applies: (c) =>
      (relFormat(c) === "qrels" && hasDuplicate(qrelsRows(c), joinedQids(c))) ||
      (relFormat(c) === "qrels_jg" && hasGroupDuplicate(c)) ||
      hasDuplicate(runRows(c), joinedQids(c)),
    expect: { kind: "rankeval-fails" },
  },
  {
    name: "a query whose every judgment is negative",
    reason:
      "trec_eval reads per-level counts it never set for a query without a judgment >= 0 (form_res_rels.c: num_rel_levels keeps " +
      "the previous query's value), so its numbers are undefined; rankeval evaluates the query (nothing relevant, nothing judged).",
    readme: [
      "undefined numbers (stale memory) for a query whose judgments are all negative",
      "evaluated: nothing relevant, nothing judged",
    ],
    applies: (c) => {
      if (relFormat(c) !== "qrels") return false;
      const evaluated = evaluatedQids(c);
      const best = new Map<string, number>();
      for (const r of qrelsRows(c))
        if (evaluated.has(r.qid)) best.set(r.qid, Math.max(best.get(r.qid) ?? -Infinity, atol(r.value)));
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
    applies: (c) => [...evaluatedQids(c)].some((q) => !isUtf8(q)),
    expect: { kind: "same-status" },
  },
  {
    name: "a run without rankings",
    reason:
      "trec_eval refuses an empty run file but, with -c, evaluates one holding only blank or '#' lines, every judged query " +
      "on its placeholder ranking, with a run tag read from memory it never set. rankeval refuses a run without a ranking line.",
    readme: [
      "with -c, a run of only blank or '#' lines is evaluated (its run tag read from unset memory)",
      "an error: the run has no rankings",
    ],
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
    readme: [
      "two of dcg, ideal_dcg, ndcg with parameters on either: crash (double free), output lost",
      "each computed with its own parameters",
    ],
    applies: (c) => {
      const ms = readOptions(c).measures;
      const family = ["dcg", "ideal_dcg", "ndcg"].filter((n) => asks(c, n));
      // (with no query to evaluate, -D's absent, trec_eval fails before the double free, as rankeval does)
      return (
        family.length >= 2 &&
        ms.some((m) => family.includes(m.split(".")[0]) && m.includes(".")) &&
        evaluatedQids(c).size > 0
      );
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
    readme: [
      "rbp depends on the measure asked for before it (uninitialised min and max in m_rbp.c)",
      "rbp as trec_eval gives it alone or in all_trec",
    ],
    applies: (c) => asks(c, "rbp"),
    expect: {
      kind: "trec_eval-on",
      transform: (c) => {
        const options = c.options.filter((o) => !isMeasure(o, "yaap"));
        const after = c.after.filter((o) => !isMeasure(o, "yaap"));
        return asks(c, "num_nonrel_judged_ret")
          ? { ...c, options, after }
          : { ...c, options: [["-m", "num_nonrel_judged_ret"], ...options], after };
      },
      trecOutput: (stdout, c) =>
        asks(c, "num_nonrel_judged_ret") ? stdout : withoutLines(stdout, "num_nonrel_judged_ret"),
      rankevalOutput: (stdout, c) => (asks(c, "yaap") ? withoutLines(stdout, "yaap") : stdout),
    },
  },
  {
    name: "a gain level that is not a number",
    reason:
      "trec_eval ignores a level=gain pair whose level is not an integer (gain_init.c valid_int): 'ndcg.x=2' is ndcg. " +
      "rankeval ignores a decimal level as trec_eval does (saying so) but refuses one that is no number ('x', '1x'): a typo.",
    readme: [
      "-m ndcg.x=2 is ndcg (the pair ignored)",
      "an error naming the level (a decimal level, 1.0=2, is ignored as trec_eval does, with a warning)",
    ],
    applies: (c) =>
      firstParameters(c).some((m) => {
        const [name, ...rest] = m.split(".");
        if (!["ndcg", "ndcg_rel", "Rndcg", "G", "dcg", "ideal_dcg"].includes(name)) return false;
        return rest
          .join(".")
          .split(",")
          .some(
            (pair) => pair.includes("=") && !/^[\t\n\v\f\r ]*[+-]?\d+(\.\d*)?$/.test(pair.slice(0, pair.indexOf("="))),
          );
      }),
    expect: { kind: "rankeval-fails" },
  },
  {
    name: "-n without -q",
    reason:
      "trec_eval -n without -q prints nothing and exits 0; rankeval says that nothing would be printed (a usage error).",
    readme: ["-n without -q: prints nothing", "a usage error: nothing to print"],
    applies: (c) => {
      const flags = [...c.options, ...c.after].map((o) => o.join(" "));
      const has = (ch: string, long: string) =>
        flags.some((t) => (/^-[qcJn]+$/.test(t) && t.includes(ch)) || t === `--${long}`);
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
        return (
          dot > 0 &&
          LONG_CUTOFF.has(m.slice(0, dot)) &&
          m
            .slice(dot + 1)
            .split(",")
            .some((v) => !/^[+-]?\d+(\.\d*)?$/.test(v))
        );
      }),
    expect: { kind: "rankeval-fails" },
  },
  {
    name: "trec_eval's debug output",
    reason:
      "trec_eval -D N with N above 0 prints its measures' internals on stdout (m_ndcg.c, m_G.c, form_prefs_counts.c, ...); " +
      "rankeval accepts the level and prints none of it (N.QID still evaluates only that query).",
    readme: [
      "-D N (N > 0) prints debug lines among the results",
      "accepted; no debug output (-D N.QID evaluates that query only, as trec_eval)",
    ],
    applies: (c) => (debugOption(c)?.level ?? 0) > 0,
    expect: {
      kind: "trec_eval-on",
      transform: (c) => {
        const zero = (o: Option): Option => {
          const t = o[0];
          const set = (v: string) => (v.includes(".") ? `0${v.slice(v.indexOf("."))}` : "0");
          if (t === "-D" || t === "--Debug_level") return [t, set(o[1])];
          if (t.startsWith("--Debug_level=")) return [`--Debug_level=${set(t.slice("--Debug_level=".length))}`];
          if (/^-D./.test(t)) return [`-D${set(t.slice(2))}`];
          return o;
        };
        return { ...c, options: c.options.map(zero), after: c.after.map(zero) };
      },
    },
  },
  {
    name: "a Z-score lookup past the file's last line",
    reason:
      "convert_zscores.c's binary searches start with end = the table's size, so a key sorting after every entry is compared " +
      "with the entry past the table: for a query sorting after every qid of the Z-score file, or a measure after every " +
      "measure of the file's last qid, trec_eval reads memory it does not own (it crashes, or uses garbage). rankeval gives " +
      "-1000000 there, as for any value the file lacks. (Past a query other than the last, the entry read is the next " +
      "query's first line, which trec_eval matches and uses: rankeval does the same.)",
    readme: [
      "-Z: a qid (or the last qid's measure) sorting after every entry of the file: reads past its table (crash or garbage)",
      "-1000000, as for a value the file lacks",
    ],
    applies: (c) => {
      const z = [...c.options, ...c.after].some(
        (o) => o[0] === "-Z" || o[0].startsWith("--Zscore") || /^-Z./.test(o[0]),
      );
      if (c.zscores === undefined || !z || !readOptions(c).measures.every((m) => TREC_NAMES.has(m.split(".")[0])))
        return false;
      try {
        const parser = new ZscoresParser({ file: "zscores" });
        parser.push(Buffer.from(c.zscores, "latin1"));
        const lookup = zscoreLookup(zscoreTable(parser.finish()));
        // runid's line too: trec_eval looks every line up, and crashes past the table with runid alone.
        const names = trecLines(plan(readOptions(c).measures, null, { relFormat: relFormat(c) }).trec).map(
          (l) => l.name,
        );
        // The qids as rankeval reads them (UTF-8), as the Z-score file's.
        const utf8 = (q: string) => Buffer.from(q, "latin1").toString("utf8");
        return [...evaluatedQids(c)].some((q) => names.some((n) => lookup.undefinedRead(utf8(q), n)));
      } catch {
        return false; // a case both refuse
      }
    },
    // With a last line after every qid and measure, trec_eval's searches stay in the file and find
    // nothing where they read past it before: -1000000, as rankeval gives.
    expect: { kind: "trec_eval-on", transform: (c) => ({ ...c, zscores: `${c.zscores}\u00ef\u00bf\u00bf ~ 0 1\n` }) },
  },
  {
    name: "prefs_avgjg_Rnonrel with classes below 0",
    reason:
      "m_prefs_avgjg_Rnonrel.c recounts a judgment group with more non-relevant than relevant documents from its last " +
      "equivalence class, taking as many documents from it as the group has relevant ones; when levels below 0 split the " +
      "non-relevant documents into several classes, that last class can be shorter, and trec_eval reads past it (other " +
      "groups' documents, or memory left from other queries). rankeval reads that class only. Its other lines are compared.",
    readme: [
      "prefs_avgjg_Rnonrel(_ret) with rel_levels below 0: reads past an equivalence class (undefined numbers)",
      "reads within the class",
    ],
    applies: (c) => {
      const f = relFormat(c);
      if (f !== "prefs" && f !== "qrels_prefs") return false;
      if (!["prefs_avgjg_Rnonrel", "prefs_avgjg_Rnonrel_ret", "all_prefs"].some((n) => measureNames(c).includes(n)))
        return false;
      const evaluated = evaluatedQids(c);
      return qrelsRows(c).some((r) => evaluated.has(r.qid) && atof(r.value) < 0);
    },
    expect: {
      kind: "trec_eval-on",
      transform: (c) => c,
      trecOutput: (stdout) => withoutLines(stdout, "prefs_avgjg_Rnonrel"),
      rankevalOutput: (stdout) => withoutLines(stdout, "prefs_avgjg_Rnonrel"),
    },
  },
];

/** C's atof on a number's text (the case's valid ones): its value, 0 when it is none. */
function atof(s: string): number {
  const v = Number(s);
  return Number.isNaN(v) ? 0 : v;
}

export function applicableDivergences(c: Case): Divergence[] {
  if (SUBTOPIC_QRELS.applies(c)) return [SUBTOPIC_QRELS];
  // Where both refuse a measure (another judgment format's, utility with other than 4 coefficients),
  // rankeval need not succeed: trec_eval's exit 4 there is no undefined behaviour.
  const refused = refusedMeasure(c);
  return DIVERGENCES.filter((d) => d.applies(c) && !(refused && d.expect.kind === "rankeval-succeeds"));
}
